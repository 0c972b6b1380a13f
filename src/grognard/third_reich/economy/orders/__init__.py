"""The orders of the BRP economy (TR-07..TR-13, TR-31, TR-75): year_start, build - one
:class:`~grognard.engine.orders.Order` per module."""
