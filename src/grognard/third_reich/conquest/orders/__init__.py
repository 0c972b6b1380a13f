"""The orders of the conquests and the diplomacy (TR-22..TR-26): declare_war - one
:class:`~grognard.engine.orders.Order` per module."""
