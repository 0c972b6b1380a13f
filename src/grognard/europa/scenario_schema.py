"""The ``[europa]`` table of a scenario: its typed schema and its check (the Europa system's
``scenario_section`` hook, engine/system.py).

The engine parses a scenario once; for a ``system = "europa"`` scenario it converts the
``[europa]`` table (the map file's ``[europa]`` facts merged in) to :class:`EuropaSection`
(types, ranges and enums), then :func:`check_europa` refuses unknown sides, hexes off the map
and victory levels that leave a score without a verdict, with the file, field and line. The
result, :class:`EuropaRules`, is kept on ``Scenario.rules``: the rule modules read it there
(``europa.board.europa_rules``) instead of parsing the scenario text again. The format:
docs/formats/europa_engine.md and docs/FORMATS.md ("Scenario").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Annotated, Any, Literal

import msgspec

from grognard.core.errors import InputError
from grognard.core.units import Unit
from grognard.engine.scenario import ScenarioSection, SectionContext

SECTION_NAME = "europa"

Exact = Annotated[int, msgspec.Meta(ge=0, le=10**6)] | Annotated[
    str, msgspec.Meta(pattern=r"^\d{1,7}(/\d{1,7}|\.\d{1,7})?$")]


class Pools(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A side's replacement pools at the start (EUR-33), exact points; a pool not given is
    not in the state's pools (the replacement rules read it as 0)."""

    infantry: Exact | None = None
    armor: Exact | None = None
    artillery: Exact | None = None

    def given(self) -> dict[str, int | str]:
        """The pools written, in the schema's order (infantry, armor, artillery)."""
        return {k: v for k in self.__struct_fields__ if (v := getattr(self, k)) is not None}


class LogisticsSection(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[europa.logistics]`` (EUR-37..EUR-41, grognard.europa.logistics): which side draws on
    the German rates and which on the Soviet ones, the German rear reference hex and the three
    EUR-38 lines west to east (hex labels; a city of a line may lie beyond the map's edge)."""

    german: str
    soviet: str
    rear: str
    lines: Annotated[list[Annotated[list[str], msgspec.Meta(min_length=1)]],
                     msgspec.Meta(min_length=3, max_length=3)]


class AirUnitEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One ``[europa.air_units]`` entry: an air unit on an airbase hex (rule 47)."""

    side: str
    nationality: str
    base: str
    type: Literal["F", "D", "A", "other"] = "F"
    status: Literal["operative", "inoperative", "X", "damaged", "aborted"] = "operative"
    range: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 0
    tactical: Annotated[int, msgspec.Meta(ge=0, le=100)] = 0
    guards: bool = False
    # EUR-23..EUR-28: air-to-air rating, strategic bombing rating, or an EUR-01 wing type
    # whose tactical/strategic ratings come from the europa_air_wings table
    air_combat: Annotated[int, msgspec.Meta(ge=0, le=100)] = 0
    strategic: Annotated[int, msgspec.Meta(ge=0, le=100)] = 0
    wing: str = ""


class ObjectiveEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One ``[europa.victory] objectives`` entry: a city (``hex``) or a line (``hexes``, of
    which the counted side must hold ``need``, all by default), worth ``points``."""

    name: str
    points: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 1
    hex: str = ""
    hexes: list[str] = msgspec.field(default_factory=list)
    need: Annotated[int, msgspec.Meta(ge=1, le=1000)] | None = None


class LevelEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One level of victory: the counted side's points at least ``min`` give ``winner`` (no
    winner: a draw) this ``level``."""

    level: str
    min: Annotated[int, msgspec.Meta(ge=0, le=100_000)]
    winner: str = ""


class VictorySection(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[europa.victory]`` (grognard.europa.victory): the objectives the counted ``side`` holds
    at the end and the levels their points give; ``countries`` names each side's countries at
    the start (the first holders of empty hexes). The short form ``hexes`` + ``need`` (that
    side wins holding ``need`` of them, the other side otherwise) is still read."""

    side: str = ""
    objectives: list[ObjectiveEntry] = msgspec.field(default_factory=list)
    levels: list[LevelEntry] = msgspec.field(default_factory=list)
    countries: dict[str, list[str]] = msgspec.field(default_factory=dict)
    hexes: list[str] = msgspec.field(default_factory=list)
    need: Annotated[int, msgspec.Meta(ge=0, le=1000)] | None = None
    note: str = ""


class ReinforcementEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One ``[[europa.reinforcements]]`` entry (EUR-22, grognard.europa.reinforcements): the
    ``units`` (full unit records as in ``[[units]]``, without a hex; a record's ``side`` may be
    left out) that ``side`` receives in its initial phase of game turn ``turn`` (a number, or
    the turn's date such as ``"Jul I 1941"`` counted from ``[calendar] start``), entering at one
    of ``hexes`` (none given: the named ``rule``, "cities": any city or supply-source hex of the
    side's own countries that it controls)."""

    turn: Annotated[int, msgspec.Meta(ge=1, le=10_000)] | str
    side: str
    units: list[dict[str, Any]]
    hexes: list[str] = msgspec.field(default_factory=list)
    rule: Literal["cities"] = "cities"
    note: str = ""


class EuropaSection(msgspec.Struct, frozen=True):
    """``[europa]``, typed: every key the rules read, with the default each reads when it
    is absent (other keys are kept, unread, in the table as written: ``EuropaRules.table``)."""

    fite_surprise_turn: bool = False
    replacements: dict[str, Pools] = msgspec.field(default_factory=dict)
    #: EUR-44 the countries that are Soviet territory (the FitE surprise turn's front)
    soviet_countries: list[str] = msgspec.field(default_factory=lambda: ["ussr"])
    supply_sources: dict[str, list[str]] = msgspec.field(default_factory=dict)
    supply_max_length: Annotated[int, msgspec.Meta(ge=0, le=1000)] | None = None
    last_turn: Annotated[int, msgspec.Meta(ge=1, le=10_000)] | None = None
    victory: VictorySection | None = None
    # the map files' own facts (docs/FORMATS.md "Map files"): rail hubs, ports, border; areas
    map: dict[str, list[str]] = msgspec.field(default_factory=dict)
    areas: dict[str, list[str]] = msgspec.field(default_factory=dict)
    # read by grognard.europa (surprise_turn, attack weather; docs/formats/europa_engine.md)
    invasion_countries: list[str] = msgspec.field(default_factory=list)
    commands: dict[str, list[str]] = msgspec.field(default_factory=dict)
    #: turn label -> weather (None: the scenario gives none, an attack order names its own)
    weather: dict[str, str] | None = None
    # SUR-21..SUR-24 air units off the ground map (europa/surprise_air.py)
    air_units: dict[str, AirUnitEntry] = msgspec.field(default_factory=dict)
    #: EUR-14 the game's series: replacement points in REs (default) or in factors
    series: Literal["re", "factor"] | None = None
    #: EUR-32 the country of the hexes the map names none for (isolation region, home country)
    map_country: str = ""
    #: EUR-37..EUR-41 the FitE supply stockpiles (None: the scenario plays without SPs)
    logistics: LogisticsSection | None = None
    # EUR-22 the reinforcement schedule (grognard.europa.reinforcements)
    reinforcements: list[ReinforcementEntry] = msgspec.field(default_factory=list)


@dataclass(frozen=True)
class Arrival:
    """EUR-22 One reinforcement of the schedule: ``unit`` arrives for ``side`` in its initial
    phase of game turn ``turn`` at one of ``hexes`` (empty: the named ``rule``)."""

    unit: Unit
    turn: int
    side: str
    hexes: tuple[str, ...] = ()
    rule: str = "cities"


@dataclass(frozen=True)
class EuropaRules:
    """A Europa scenario's ``[europa]`` table, parsed once by the engine: ``section`` typed
    (what every rule reads), ``table`` as written (the map file's keys merged in; read-only;
    no rule reads it)."""

    section: EuropaSection
    table: Mapping[str, Any]
    #: EUR-22 the reinforcement schedule, one Arrival a unit, in the order written
    arrivals: tuple[Arrival, ...] = ()
    #: the same, by unit id
    arrival_of: Mapping[str, Arrival] = field(default_factory=lambda: MappingProxyType({}))


def check_europa(eu: EuropaSection, ctx: SectionContext) -> EuropaRules:
    """``[europa]``: the sides it names are the scenario's, its hexes are on the map, its
    victory levels give every score a verdict."""
    line = ctx.line
    for side in (*eu.replacements, *eu.supply_sources):
        if (err := ctx.unknown_side(side, "europa", line)) is not None:
            raise err
    for side, labels in eu.supply_sources.items():
        for lab in labels:
            ctx.label_hex(lab, f"europa.supply_sources.{side}", line)
    for aid, air in eu.air_units.items():
        if (err := ctx.unknown_side(air.side, f"europa.air_units.{aid}.side", line)) is not None:
            raise err
        ctx.label_hex(air.base, f"europa.air_units.{aid}.base", line)
    if eu.logistics is not None:
        lg_line = ctx.line_of(r"^\s*\[europa\.logistics") or line
        for name, side in (("german", eu.logistics.german), ("soviet", eu.logistics.soviet)):
            if (err := ctx.unknown_side(side, f"europa.logistics.{name}", lg_line)) is not None:
                raise err
    if eu.victory is not None:
        _check_victory(eu.victory, ctx)
    arrivals = _check_reinforcements(eu.reinforcements, ctx)
    return EuropaRules(eu, MappingProxyType(ctx.tables.get(SECTION_NAME, {})), arrivals,
                       MappingProxyType({a.unit.id: a for a in arrivals}))


_DATE = re.compile(r"^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (I{1,2}) (\d{4})$")
_START = re.compile(r"^(\d{4})-(\d{1,2})-(I{1,2})$")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def turn_of_date(start: str, label: str) -> int | None:
    """EUR-22 The game turn whose date is ``label`` ("Jul I 1941"), counted in half months
    from ``[calendar] start`` ("1941-06-II", turn 1); None if either is not a date.

    >>> turn_of_date("1941-06-II", "Jul I 1941"), turn_of_date("1941-06-II", "Jun II 1941")
    (2, 1)
    """
    s, d = _START.match(start), _DATE.match(label)
    if s is None or d is None:
        return None
    first = (int(s.group(1)) * 12 + int(s.group(2)) - 1) * 2 + len(s.group(3)) - 1
    at = (int(d.group(3)) * 12 + _MONTHS.index(d.group(1))) * 2 + len(d.group(2)) - 1
    return at - first + 1


def _check_reinforcements(entries: list[ReinforcementEntry], ctx: SectionContext
                          ) -> tuple[Arrival, ...]:
    """``[[europa.reinforcements]]`` (EUR-22): known sides, hexes on the map, a turn on the
    calendar, unit records as ``[[units]]`` has them (without a hex), ids used once."""
    line = ctx.line_of(r"^\s*\[\[europa\.reinforcements") or ctx.line
    start = str((ctx.tables.get("calendar") or {}).get("start", ""))
    seen = {str(u.get("id")) for u in ctx.tables.get("units", []) if isinstance(u, dict)}
    out: list[Arrival] = []
    for i, e in enumerate(entries):
        fld = f"europa.reinforcements[{i}]"
        if (err := ctx.unknown_side(e.side, f"{fld}.side", line)) is not None:
            raise err
        for lab in e.hexes:
            ctx.label_hex(lab, f"{fld}.hexes", line)
        turn = e.turn if isinstance(e.turn, int) else turn_of_date(start, e.turn)
        if turn is None or turn < 1:
            raise ctx.error(f"turn {e.turn!r} is not a game turn (a number from 1, or a date "
                            f"such as \"Jul I 1941\" on or after [calendar] start {start!r})",
                            field=f"{fld}.turn", line=line)
        for j, raw in enumerate(e.units):
            where = f"{fld}.units[{j}]"
            if "hex" in raw or "box" in raw:
                raise ctx.error("a reinforcement has no hex: it enters in its side's initial "
                                "phase", field=where, line=line)
            if raw.get("side", e.side) != e.side:
                raise ctx.error(f"unit side {raw.get('side')!r} is not the entry's side "
                                f"{e.side!r}", field=f"{where}.side", line=line)
            try:
                unit = Unit.from_json({**raw, "side": e.side}, where=where)
            except InputError as exc:
                raise ctx.error(exc.reason, field=exc.field, line=line) from None
            if unit.id in seen:
                raise ctx.error(f"duplicate unit id {unit.id!r}", field=f"{where}.id",
                                line=line)
            seen.add(unit.id)
            out.append(Arrival(unit, turn, e.side, tuple(e.hexes), e.rule))
    return tuple(out)


def _check_victory(v: VictorySection, ctx: SectionContext) -> None:
    """``[europa.victory]``: known sides, hexes on the map, a level for every score."""
    line = ctx.line_of(r"^\s*\[europa\.victory") or ctx.line_of(r"^\s*victory\s*=")
    where = "europa.victory"
    named = [v.side, *(lv.winner for lv in v.levels), *v.countries]
    for side in (s for s in named if s):
        if (err := ctx.unknown_side(side, where, line)) is not None:
            raise err
    if (v.objectives or v.hexes) and not v.side:
        raise ctx.error("name the side whose objectives are counted (side = ...)",
                        field=f"{where}.side", line=line)
    for lab in v.hexes:
        ctx.label_hex(lab, f"{where}.hexes", line)
    for i, ob in enumerate(v.objectives):
        fld = f"{where}.objectives[{i}]"
        if bool(ob.hex) == bool(ob.hexes):
            raise ctx.error(f"objective {ob.name!r}: give either hex (a city) or hexes (a line)",
                            field=fld, line=line)
        for lab in ob.hexes or [ob.hex]:
            ctx.label_hex(lab, fld, line)
        if ob.need is not None and ob.need > max(len(ob.hexes), 1):
            raise ctx.error(f"objective {ob.name!r}: need {ob.need} of {len(ob.hexes)} hexes",
                            field=fld, line=line)
    if v.objectives:
        mins = [lv.min for lv in v.levels]
        if not mins or min(mins) != 0 or len(set(mins)) != len(mins):
            raise ctx.error("levels need distinct min points, the lowest 0 (every score has a "
                            "verdict)", field=f"{where}.levels", line=line)


#: The Europa system's ``scenario_section`` hook (europa/play/system.py declares it).
SECTION = ScenarioSection(SECTION_NAME, EuropaSection, check_europa)
