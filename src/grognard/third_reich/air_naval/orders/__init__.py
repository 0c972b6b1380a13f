"""The orders of air and naval - one
:class:`~grognard.engine.orders.Order` per module."""
