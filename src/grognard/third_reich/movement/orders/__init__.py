"""The orders of movement (TR-27..TR-28): move - one :class:`~grognard.engine.orders.Order`
per module."""
