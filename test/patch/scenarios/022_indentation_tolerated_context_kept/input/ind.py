class A:
    def f():
        return 1
