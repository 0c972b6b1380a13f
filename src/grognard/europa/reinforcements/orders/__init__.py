"""The reinforcement Orders (EUR-22): ``place_reinforcement``."""
