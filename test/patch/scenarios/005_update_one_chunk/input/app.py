import os

def main():
    print("hi")
    return 0
