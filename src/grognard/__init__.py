"""grognard: rules engine, referee and playtest lab for revised WW2 hex-and-counter wargames."""

__version__ = "0.1.0"
