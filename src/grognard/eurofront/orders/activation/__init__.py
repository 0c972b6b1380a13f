"""EF-17/EF-18 Sequential Activation: the orders of an Activation Phase's steps (weather, the
HQ Activation chits, initiative, HQ activation, the phase end)."""
