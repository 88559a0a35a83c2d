print("diffable")
