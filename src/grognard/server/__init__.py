"""grognard.server."""
