print("nightmap")
