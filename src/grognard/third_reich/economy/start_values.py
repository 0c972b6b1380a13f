"""TR-85..TR-87 ("Playtesting the system"; "Post playtest refinements"): starting values as data.

>>> starting_base("germany"), starting_base("us"), territory_value("eastern_poland")
(150, 250, 5)
>>> starting_base("germany") + territory_value("poland")
170
"""

from __future__ import annotations

from grognard.core.errors import InputError, TableError
from grognard.core.tables import Table, shipped_tables
from grognard.third_reich.economy.readings import StrategicReadings
from grognard.third_reich.turn.powers import Power, parse_power

STARTING_TABLE_ID = "tr_starting_brps"
TERRITORY_TABLE_ID = "tr_territory_values"

#: TR-86: the powers with an economy at the start of the 1939 campaign (the US enters in 1942).
CAMPAIGN_1939_POWERS: tuple[Power, ...] = (
    Power.GERMANY, Power.ITALY, Power.USSR, Power.UK, Power.FRANCE,
)

#: TR-85: force-pool and set-up adjustments (scenario data).
FORCE_POOL_ADJUSTMENTS: tuple[dict[str, object], ...] = (
    {"power": "uk", "unit": "4-5 armor", "change": "all enter the force pool as 1941 additions"},
    {"power": "uk", "unit": "2-5 armor", "change": "one unit at start, in Egypt"},
    {"power": "france", "unit": "5-4 air fleet",
     "change": "one in play at start; the second is buildable but not paid for"},
)


def _int_cell(t: Table, row: str) -> int:
    v = t.lookup(row, t.columns[0])
    if not isinstance(v, int):
        raise TableError("a BRP value is a whole number", file=t.file, table=t.id, row=row)
    return v


def starting_base(power: Power | str, table: Table | None = None) -> int:
    """TR-86 (Post playtest refinements): a power's starting BRP base (US: on entry, 1942)."""
    p = parse_power(str(power))
    t = table if table is not None else shipped_tables()[STARTING_TABLE_ID]
    return _int_cell(t, p.value)


def territory_value(name: str, readings: StrategicReadings | None = None,
                    table: Table | None = None) -> int:
    """TR-87 (Post playtest refinements): BRP value of a minor country or region.

    Under the ``rm_pact_value = 25`` reading eastern Poland is worth 10 (the earlier text).

    >>> territory_value("eastern_poland", StrategicReadings(rm_pact_value=25))
    10
    """
    r = readings or StrategicReadings()
    t = table if table is not None else shipped_tables()[TERRITORY_TABLE_ID]
    key = name.lower().replace(" ", "_").replace("-", "_")
    if key not in t.rows:
        raise InputError("territory", f"no BRP value for {name!r} (3R4 values are EXTERNAL; "
                         "add a row to tr_territory_values)")
    value = _int_cell(t, key)
    if key == "eastern_poland" and r.rm_pact_value == 25:
        return value + 5
    return value


def rm_pact_total(readings: StrategicReadings | None = None, table: Table | None = None) -> int:
    """TR-12/TR-87: eastern Poland + Bessarabia + the Baltic States (20, or 25 by reading)."""
    return sum(territory_value(n, readings, table)
               for n in ("eastern_poland", "bessarabia", "baltic_states"))


def group_value(names: list[str] | tuple[str, ...], readings: StrategicReadings | None = None,
                table: Table | None = None) -> int:
    """TR-87: the total value of several territories (e.g. the Axis minors, 35)."""
    return sum(territory_value(n, readings, table) for n in names)


def axis_minors(table: Table | None = None) -> tuple[str, ...]:
    t = table if table is not None else shipped_tables()[TERRITORY_TABLE_ID]
    return tuple(t.meta.get("axis_minors", ()))


def french_colonies(table: Table | None = None) -> tuple[str, ...]:
    t = table if table is not None else shipped_tables()[TERRITORY_TABLE_ID]
    return tuple(t.meta.get("french_colonies", ()))
