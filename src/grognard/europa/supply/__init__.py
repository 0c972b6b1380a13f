"""Europa revised supply (EUR-30..EUR-42): the supply phase, isolation attrition, Break Out,
replacements and logistics."""
