"""The Europa movement-phase and sequence Orders: ``move`` (EUR-17, EUR-44, SUR-16..SUR-18)
and ``end_phase`` (EUR-22, EUR-44), one module each."""
