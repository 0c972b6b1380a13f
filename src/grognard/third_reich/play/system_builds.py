"""The TR-31 price of a force-pool unit, for the bots that still import it from here (the
``bots -> play.system_builds`` arrows of tests/test_floors.py's DEBT). The ``build_unit`` order
and its rule functions are in :mod:`grognard.third_reich.economy.orders.build_unit`.
"""

from grognard.third_reich.economy.orders.build_unit import unit_price

__all__ = ["unit_price"]
