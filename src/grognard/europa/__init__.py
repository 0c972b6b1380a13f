"""Europa: rule 47 surprise turns and Europa revised (combat, ZOC, supply, logistics, air)."""
