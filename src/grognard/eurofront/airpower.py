"""EF-08 Modified Front Air Power Rules (``003_bbc0beaac187b5b3.txt``).

Air Power levels SF < DF < TF < QF per side and front. The base game's historical levels are
EXTERNAL: they come from the table ``ef_historical_air_power`` (placeholders, replaceable with
``--tables``) or from the state file's ``historical`` object.

* While the East Front is not activated the Axis keeps TF in the West, or moves it to the Med
  (Med TF, West DF); the Allies stay at SF (West and Med, reading) until the season after the
  USA enters the war.
* Once the East Front is activated, historical levels apply.
* Axis Desert Victory: Axis TF on all fronts (never lowering a higher level) while it lasts.
* Axis Oil Supply (Rule 17.1, EXTERNAL): Axis +1 level on the East or the West front, chosen
  each season (reading), while it lasts; applied after Desert Victory, capped at QF.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grognard.core.errors import InputError, TableError, parse_enum
from grognard.core.inputs import load_json_file
from grognard.core.tables import Table, load_tables
from grognard.eurofront.model import (
    DEFAULT_BASE,
    AirPower,
    BaseRules,
    Front,
    Side,
    Turn,
    parse_bool,
)
from grognard.eurofront.readings import ALL_RULES, OptionalRule, OptionalRules

FORMAT = "grognard-ef-air-power-state/1"
HISTORICAL_TABLE = "ef_historical_air_power"

Levels = Mapping[Side, Mapping[Front, AirPower]]


@dataclass(frozen=True)
class AirPowerState:
    """What EF-08 needs to know about the war."""

    turn: Turn
    east_front_active: bool = False
    us_entry: Turn | None = None
    axis_tf_to_med: bool = False
    desert_victory: bool = False
    axis_oil_supply: bool = False
    oil_front: Front | None = None
    historical: Levels | None = None  # overrides the table when given
    rules: OptionalRules = field(default=ALL_RULES)

    def __post_init__(self) -> None:
        if self.axis_oil_supply and self.oil_front not in (Front.EAST, Front.WEST):
            raise InputError("oil_front", "Axis Oil Supply raises either the east or the west "
                             "front; name one")


def historical_air_power(side: Side, front: Front, turn: Turn,
                         table: Table | None = None) -> AirPower:
    """EF-08 (EXTERNAL base rule) The historical level: the latest table row for the side whose
    year is not after the turn's year.

    >>> historical_air_power(Side.AXIS, Front.WEST, Turn(1942, 5))
    <AirPower.DF: 'DF'>
    """
    t = table if table is not None else load_tables().get(HISTORICAL_TABLE)
    best: tuple[int, str] | None = None
    for key in t.row_keys:
        s, _, y = str(key).partition(":")
        try:
            year = int(y)
        except ValueError:
            raise TableError("row keys are side:year", file=t.file, table=t.id,
                             row=key) from None
        if s == side.value and year <= turn.year and (best is None or year > best[0]):
            best = (year, str(key))
    if best is None:
        raise TableError(f"no row for {side.value} in or before {turn.year}", file=t.file,
                         table=t.id)
    cell = t.lookup(best[1], front.value)
    try:
        return AirPower(str(cell))
    except ValueError:
        raise TableError(f"{cell!r} is not an Air Power level", file=t.file, table=t.id,
                         column=front.value, row=best[1]) from None


def air_power_level(side: Side, front: Front, state: AirPowerState,
                    table: Table | None = None, base: BaseRules = DEFAULT_BASE) -> AirPower:
    """EF-08 Modified Front Air Power: the level of ``side`` on ``front``.

    >>> s = AirPowerState(Turn(1940, 8))
    >>> air_power_level(Side.AXIS, Front.WEST, s), air_power_level(Side.ALLIES, Front.WEST, s)
    (<AirPower.TF: 'TF'>, <AirPower.SF: 'SF'>)
    """
    if state.historical is not None:
        try:
            level = state.historical[side][front]
        except KeyError:
            raise InputError(f"historical.{side.value}.{front.value}", "missing") from None
    else:
        level = historical_air_power(side, front, state.turn, table)
    if not state.rules.on(OptionalRule.FRONT_AIR_POWER):
        return level
    if side is Side.AXIS:
        if not state.east_front_active:
            if state.axis_tf_to_med:
                level = {Front.MED: AirPower.TF, Front.WEST: AirPower.DF}.get(front, level)
            elif front is Front.WEST:
                level = AirPower.TF
        if state.desert_victory and level.rank < AirPower.TF.rank:
            level = AirPower.TF
        if state.axis_oil_supply and front is state.oil_front:
            level = level.raised()
        return level
    us_season_passed = (state.us_entry is not None and state.turn.season_index(base)
                        > state.us_entry.season_index(base))
    if not state.east_front_active and front is not Front.EAST and not us_season_passed:
        return AirPower.SF
    return level


def state_from_json(raw: Mapping[str, Any]) -> AirPowerState:
    """Parse the air-power state file (docs/formats/eurofront.md), naming bad fields."""
    if not isinstance(raw, Mapping):
        raise InputError("state", "must be a JSON object")
    fmt = raw.get("format", FORMAT)
    if fmt != FORMAT:
        raise InputError("format", f"expected {FORMAT!r}, not {fmt!r}")
    known = {"format", "turn", "east_front_active", "us_entry", "axis_tf_to_med",
             "desert_victory", "axis_oil_supply", "oil_front", "historical", "rules"}
    extra = set(raw) - known
    if extra:
        raise InputError(sorted(extra)[0], "unknown field")
    if "turn" not in raw:
        raise InputError("turn", "missing")
    hist: dict[Side, dict[Front, AirPower]] | None = None
    if raw.get("historical") is not None:
        h = raw["historical"]
        if not isinstance(h, Mapping):
            raise InputError("historical", "must be an object of side -> front -> level")
        hist = {}
        for s, fronts in h.items():
            side = parse_enum(Side, s, f"historical.{s}")
            if not isinstance(fronts, Mapping):
                raise InputError(f"historical.{s}", "must be an object of front -> level")
            hist[side] = {parse_enum(Front, f, f"historical.{s}.{f}"):
                          parse_enum(AirPower, v, f"historical.{s}.{f}")
                          for f, v in fronts.items()}
    oil = raw.get("oil_front")
    return AirPowerState(
        turn=Turn.parse(raw["turn"], "turn"),
        east_front_active=parse_bool(raw, "east_front_active", "state"),
        us_entry=None if raw.get("us_entry") is None else Turn.parse(raw["us_entry"], "us_entry"),
        axis_tf_to_med=parse_bool(raw, "axis_tf_to_med", "state"),
        desert_victory=parse_bool(raw, "desert_victory", "state"),
        axis_oil_supply=parse_bool(raw, "axis_oil_supply", "state"),
        oil_front=None if oil is None else parse_enum(Front, oil, "oil_front"),
        historical=hist,
        rules=OptionalRules.from_names(raw["rules"]) if "rules" in raw else ALL_RULES,
    )


def load_state(path: Path | str) -> AirPowerState:
    raw = load_json_file(path, "air-power state")
    return state_from_json(raw)
