"""The orders of land combat (TR-32..TR-36): attack, retreat, defensive_air - one
:class:`~grognard.engine.orders.Order` per module."""
