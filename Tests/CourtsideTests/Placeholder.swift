// Placeholder until the target's first real test lands; delete when adding one.
