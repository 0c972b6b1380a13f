"""The Europa supply-phase and replacement Orders: ``supply_check`` (EUR-30),
``isolation_attrition`` with Break Outs (EUR-31/32), ``allocate_isolation_losses`` (EUR-32)
and ``take_replacement`` (EUR-33), one module each."""
