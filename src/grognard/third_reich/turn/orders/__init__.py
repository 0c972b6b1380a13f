"""The orders of the turn sequence (TR-03): declare_options - one
:class:`~grognard.engine.orders.Order` per module (``end_phase``, which runs every section's
turn end, is the referee's: ``play/orders/end_phase.py``)."""
