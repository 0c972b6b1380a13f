"""The Europa combat Orders: ``attack`` (EUR-09), ``overrun`` (EUR-18..EUR-20), the losing
side's ``allocate_losses`` (EUR-12/13) and ``retreat`` (EUR-15/16), the attacker's
``advance`` (EUR-15), one module each."""
