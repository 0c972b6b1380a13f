"""Vocabulary shared by every rule system: dice, hexes, maps, paths, units, tables, ledgers."""
