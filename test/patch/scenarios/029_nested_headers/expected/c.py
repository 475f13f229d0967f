class A:
    def run(self):
        pass
class B:
    def run(self):
        return 1
