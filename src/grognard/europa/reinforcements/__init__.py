"""EUR-22 Reinforcements: the scenario's schedule of arriving units (``[[europa.reinforcements]]``)
and their placement in the owner's initial phase (:mod:`.schedule`, :mod:`.orders`)."""
