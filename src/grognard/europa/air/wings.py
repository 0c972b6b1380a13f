"""Europa revised air wings (EUR-01): three original air units become one wing with a higher
bombardment rating, read from the published table ``europa_air_wings``.

Reading (RULES.md EUR-01): the two printed numbers are tactical (ground attack) and strategic
bombing ratings. Wings keep the range and air-combat values of the original type.

>>> w = wing_for("Ju-87B", range_hexes=10, air_combat=2)
>>> w.tactical, w.strategic, w.range_hexes
(15, 3, 10)
>>> wings_from_units(7)
(2, 1)
>>> ground_support_strength([wing_for("Ju-87D"), wing_for("He-111")])
21
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from grognard.core.errors import InputError, TableError
from grognard.core.tables import Table, load_tables

WING_TABLE = "europa_air_wings"


@dataclass(frozen=True, slots=True)
class Wing:
    """An air wing: its original type, bombardment ratings, and inherited range/air combat."""

    type: str
    tactical: int
    strategic: int
    range_hexes: int | None = None
    air_combat: int | None = None


def wing_table() -> Table:
    return load_tables().get(WING_TABLE)


def wing_for(original_type: str, range_hexes: int | None = None, air_combat: int | None = None,
             table: Table | None = None) -> Wing:
    """EUR-01 (New air wing bombardment ratings) The wing replacing three units of
    ``original_type``. Types the text does not list are MISSING: add rows to the table."""
    t = table if table is not None else wing_table()
    if original_type not in t.rows:
        known = ", ".join(str(k) for k in t.rows)
        raise InputError("type", f"no wing rating for {original_type!r} (the text lists only "
                         f"{known}; add a row to table {t.id})")
    vals = []
    for col in ("tactical", "strategic"):
        v = t.lookup(original_type, col)
        if not isinstance(v, int) or v < 0:
            raise TableError("must be a non-negative integer", file=t.file, table=t.id,
                             column=col, row=original_type)
        vals.append(v)
    for name, extra in (("range_hexes", range_hexes), ("air_combat", air_combat)):
        if extra is not None and extra < 0:
            raise InputError(name, "must not be negative")
    return Wing(original_type, vals[0], vals[1], range_hexes, air_combat)


def wings_from_units(units: int) -> tuple[int, int]:
    """EUR-01 Three original air units make one wing: (wings, units left over)."""
    if isinstance(units, bool) or not isinstance(units, int) or units < 0:
        raise InputError("units", f"must be a non-negative integer, not {units!r}")
    return divmod(units, 3)


def ground_support_strength(wings: Iterable[Wing]) -> int:
    """EUR-01/EUR-03 Air bombardment strength against a hex: the wings' tactical ratings
    totalled into one roll."""
    return sum(w.tactical for w in wings)


def strategic_strength(wings: Iterable[Wing]) -> int:
    """EUR-01 Strategic bombing strength of a mission: the wings' second ratings totalled."""
    return sum(w.strategic for w in wings)
