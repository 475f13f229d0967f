class A:
    def f():
        return 2
