"""The decisions a battle owes (block game, EF-18): step losses and retreats."""
