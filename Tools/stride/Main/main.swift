print("stride")
