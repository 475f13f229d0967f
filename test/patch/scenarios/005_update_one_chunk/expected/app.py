import os

def main():
    print("hello")
    return 0
