"""The orders of the turn sequence (TR-01..TR-04): end_phase, declare_options - one
:class:`~grognard.engine.orders.Order` per module."""
