"""Europa revised combat (EUR-02..EUR-16): the attack model, strengths, terrain, bombardment,
the CRT, losses and retreats."""
