"""Recipes and adapters for other RL libraries (each imports its library; nothing here is imported by the package)."""
