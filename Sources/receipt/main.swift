print("receipt: not yet built")
