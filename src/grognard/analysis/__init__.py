"""grognard.analysis."""
