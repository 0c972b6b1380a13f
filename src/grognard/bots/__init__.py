"""grognard.bots."""
