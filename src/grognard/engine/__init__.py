"""grognard.engine."""
