"""EuroFront optional rules on a minimal EuroFront model."""
