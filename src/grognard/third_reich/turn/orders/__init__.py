"""The orders of the turn sequence (TR-01..TR-04, TR-09): end_phase, year_start,
declare_options, declare_war - one :class:`~grognard.engine.orders.Order` per module."""
