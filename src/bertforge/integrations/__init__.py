"""bertforge inside other tools (each needs its own extra)."""
