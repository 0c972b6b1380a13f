"""The orders of supply (TR-72..TR-74): supply_check - one
:class:`~grognard.engine.orders.Order` per module."""
