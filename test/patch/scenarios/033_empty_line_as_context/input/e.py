import os

def f():
    pass
