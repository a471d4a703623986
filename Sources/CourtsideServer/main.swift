// Placeholder entry point until the real one lands.
print("not yet built")
