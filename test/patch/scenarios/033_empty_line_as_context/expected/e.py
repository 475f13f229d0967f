import os

def f():
    return 1
