"""Environments: thin adapters from the engine to RL APIs."""
