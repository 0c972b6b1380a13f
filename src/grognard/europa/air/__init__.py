"""Europa revised air (EUR-01, EUR-23..EUR-28): wings, the air phase, interdiction, airbase
attacks, strategic bombing."""
