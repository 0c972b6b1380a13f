"""The orders of strategic - one
:class:`~grognard.engine.orders.Order` per module."""
