"""The orders of the referee above the sections: end_phase (TR-02), whose end of a phase runs
the sections' turn ends (the campaign's, the economy's, the lend-lease arrivals) and scans
for idle phases with the whole command table - one :class:`~grognard.engine.orders.Order`
per module (like ``europa/play/orders/``)."""
