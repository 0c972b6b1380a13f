"""The ``[third_reich]`` table of a scenario: its typed schema and its check (the 3R system's
``scenario_section`` hook, engine/system.py).

The engine parses a scenario once; for a ``system = "third_reich"`` scenario it converts the
whole ``[third_reich]`` table (the map file's sea zones, junctions, ports, facts and areas
merged in) to :class:`ThirdReichSection`: every key is typed, an unknown one is refused. Then
:func:`check_third_reich` refuses a turn that is not a turn number, unknown sides, wars or
patrons that name no power, and a ``[third_reich.campaign]`` (:class:`CampaignSection`) that
names no minor, major, area, side or city of the scenario, or victory levels out of order,
with the file, field and line. The result, :class:`ThirdReichRules`, is kept on
``Scenario.rules``: the rule modules read it there (``third_reich_rules(scenario).section``)
instead of parsing the scenario text again; no key is left as written. The format:
docs/formats/tr_engine.md and docs/FORMATS.md ("Scenario").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import msgspec

from grognard.engine.scenario import ScenarioSection, SectionContext
from grognard.third_reich.turn.calendar import Region
from grognard.third_reich.turn.options import Front

SECTION_NAME = "third_reich"
#: TR-30 the air-zone situations of a scenario (``[[air_situations]]``, air_naval/air_zones.py)
AIR_SITUATIONS = "air_situations"
#: TR-25 how a war of the scenario's start came about (third_reich/conquest/diplomacy.py)
WAR_CAUSES = ("scenario", "declaration", "alliance", "minor_joins", "axis_minors", "us_entry")
_MAJORS = ("germany", "italy", "ussr", "uk", "france", "us")
_FRONTS = tuple(f.value for f in Front)
_REGIONS = tuple(r.value for r in Region)
#: TR-24: the Axis minors that join Germany in Summer I 1941
DEFAULT_AXIS_MINORS = ("hungary", "romania", "bulgaria", "finland")
#: TR-87 / TR-TV09: what the USSR annexes under the Ribbentrop-Molotov pact
DEFAULT_RM = ("eastern_poland", "baltic_states", "bessarabia")
#: TR-87: the minor whose conquest starts the Ribbentrop-Molotov annexations
DEFAULT_RM_TRIGGER = "poland"
#: TR-86: the US enters the war in 1942 (Spring 1942 is turn 13)
DEFAULT_US_ENTRY_TURN = 13


class WarEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A war in progress at the start (third_reich/conquest/diplomacy.py, TR-25)."""

    between: list[str]
    since: int = 1
    cause: str = "scenario"
    by: str = ""


class WarsSection(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[third_reich.wars]``: the wars in progress and the major each minor joins (TR-24)."""

    at_war: list[WarEntry] = msgspec.field(default_factory=list)
    patrons: dict[str, str] = msgspec.field(default_factory=dict)


NonNeg = Annotated[int, msgspec.Meta(ge=0)]
Names = tuple[str, ...]


class StartEconomy(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """TR-86: a major power's base and BRPs at a later start (``economy = {power = {...}}``)."""

    base: NonNeg
    brp: NonNeg


class VictoryLevels(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """TR-04 (3R4 levels EXTERNAL): Axis-held victory locations for an Axis win (``axis``)
    and at most for an Allied win (``allies``); None: half / a quarter of the map's."""

    axis: NonNeg | None = None
    allies: NonNeg | None = None


class CampaignSection(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[third_reich.campaign]``: the campaign as data (third_reich/conquest/campaign.py,
    campaign_events.py, diplomacy.py); every key optional, the defaults the rules' own."""

    #: TR-24: minors not at war at the start
    neutral: Names = ()
    #: TR-24: the minors that join Germany in Summer I 1941
    axis_minors: Names = DEFAULT_AXIS_MINORS
    #: TR-87 / TR-TV09: the territories the USSR annexes (names of ``[third_reich.areas]``)
    ribbentrop_molotov: Names = DEFAULT_RM
    #: TR-87: the minors annexed with them
    rm_minors: Names = ()
    #: TR-87: the minor whose conquest starts the annexations
    rm_trigger: str = DEFAULT_RM_TRIGGER
    #: TR-86: the turn the US enters the war
    us_entry_turn: Annotated[int, msgspec.Meta(ge=1)] = DEFAULT_US_ENTRY_TURN
    #: TR-86: power -> the countries it also builds in (the US in the UK)
    build_in: dict[str, list[str]] = msgspec.field(default_factory=dict)
    #: TR-87: minor -> BRPs where the TR-87 table has none
    values: dict[str, NonNeg] = msgspec.field(default_factory=dict)
    #: TR-04: the victory levels
    victory: VictoryLevels = msgspec.field(default_factory=VictoryLevels)
    #: TR-86: a later start's base and BRPs per major power
    economy: dict[str, StartEconomy] = msgspec.field(default_factory=dict)
    #: a later start (tr-1944): minors conquered, Axis minors at war, majors at war with
    #: Germany, majors out of the war, Vichy formed, side -> cities it controls
    start_conquered: Names = ()
    start_allies: Names = ()
    start_at_war: Names = ()
    start_out: Names = ()
    start_vichy: bool = False
    start_control: dict[str, list[str]] = msgspec.field(default_factory=dict)


class GermanSwBoxes(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """TR-82: Germany's strategic warfare boxes at the start (None: the rules' start)."""

    subs: NonNeg | None = None
    interceptors: NonNeg | None = None


class WesternSwBoxes(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """TR-82: the UK's or the US's strategic warfare boxes at the start."""

    asw: NonNeg | None = None
    bombers: NonNeg | None = None


class SwBoxes(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[third_reich] sw_boxes``: the factors a scenario puts in the SW boxes at the start
    (TR-82; strategic/sw_boxes.py ``initial_sw_boxes``); only these powers have boxes."""

    germany: GermanSwBoxes | None = None
    uk: WesternSwBoxes | None = None
    us: WesternSwBoxes | None = None

    def given(self) -> dict[str, dict[str, int]]:
        """The factors written: power -> kind -> factors (as ``initial_sw_boxes`` takes)."""
        out: dict[str, dict[str, int]] = {}
        for power in self.__struct_fields__:
            boxes = getattr(self, power)
            if boxes is not None:
                out[power] = {k: n for k in boxes.__struct_fields__
                              if (n := getattr(boxes, k)) is not None}
        return out


class MapJunction(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[third_reich.junctions]`` ``"a|b" = { hex, powers }`` (the map file's, TR-56)."""

    hex: str
    powers: list[str] = msgspec.field(default_factory=list)


class MapPort(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[third_reich.ports]`` ``name = { hex, zones }`` (the map file's, TR-54)."""

    hex: str
    zones: list[str] = msgspec.field(default_factory=list)


class MapFacts(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[third_reich.map]`` (the map file's facts, docs/FORMATS.md "Map files")."""

    atlantic_transition: str = ""
    ribbentrop_molotov_cities: list[str] = msgspec.field(default_factory=list)
    capitals: dict[str, str] = msgspec.field(default_factory=dict)
    supply_sources: dict[str, str] = msgspec.field(default_factory=dict)


class ThirdReichSection(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[third_reich]``, every key typed (the map file's ``sea_zones``, ``junctions``,
    ``ports``, ``map`` and ``areas`` merged in); an unknown key is refused."""

    sides: dict[str, str] = msgspec.field(default_factory=dict)
    control: dict[str, list[str]] = msgspec.field(default_factory=dict)
    front_weather: dict[str, str] = msgspec.field(default_factory=dict)
    sw_boxes: SwBoxes = msgspec.field(default_factory=SwBoxes)
    wars: WarsSection = msgspec.field(default_factory=WarsSection)
    campaign: CampaignSection = msgspec.field(default_factory=CampaignSection)
    #: the map's named areas: eastern_poland, bessarabia, baltic_states, vichy (hex labels)
    areas: dict[str, list[str]] = msgspec.field(default_factory=dict)
    #: the map's sea zones (an invasion's offshore hex is in its map zone, TR-61:
    #: ``combat/invasion.offshore_zone``), junctions, ports and facts (the other sea-zone
    #: rules read the tables tr_sea_zones_ports / tr_sea_zones_junctions)
    sea_zones: dict[str, list[str]] = msgspec.field(default_factory=dict)
    junctions: dict[str, MapJunction] = msgspec.field(default_factory=dict)
    ports: dict[str, MapPort] = msgspec.field(default_factory=dict)
    map: MapFacts = msgspec.field(default_factory=MapFacts)


@dataclass(frozen=True)
class ThirdReichRules:
    """A 3R scenario's ``[third_reich]`` table, parsed once by the engine: ``section`` typed
    (every key: the map file's merged in) and its ``[[air_situations]]`` as written (TR-30)."""

    section: ThirdReichSection
    air_situations: Sequence[Any] = ()


def _where(ctx: SectionContext, header: str, key: str) -> int | None:
    """The line of ``key = `` under the ``[header]`` table (else the header's, else None)."""
    at = ctx.line_of(rf"^\s*\[{re.escape(header)}\]")
    return (ctx.where.line_of(rf"^\s*{re.escape(key)}\s*=", after=at) if at else None) or at


def _countries(ctx: SectionContext) -> set[str]:
    """The country names of the scenario: its (and its map's) ``[countries]``, the countries
    of its ``[home_countries]`` and of its cities."""
    tables = ctx.tables
    out = {str(c) for c in (tables.get("countries") or {})}
    out |= {c for v in (tables.get("home_countries") or {}).values() if isinstance(v, list)
            for c in v}
    out |= {c["country"] for c in (tables.get("cities") or [])
            if isinstance(c, Mapping) and c.get("country")}
    return out


def _check_campaign(tr: ThirdReichSection, ctx: SectionContext, owners: set[str]) -> None:
    """``[third_reich.campaign]``: the names it lists are the scenario's minors, majors,
    areas, sides and cities (a misspelt name would otherwise be ignored, or fail only when a
    game is created)."""
    head, camp, areas = "third_reich.campaign", tr.campaign, tr.areas
    minors = owners - set(_MAJORS)
    countries = _countries(ctx)
    cities = {c.get("name") for c in (ctx.tables.get("cities") or [])
              if isinstance(c, Mapping)}
    table = ctx.tables.get(SECTION_NAME) or {}
    written = table.get("campaign") or {}  # the keys given (the others are defaults)

    def refuse(key: str, reason: str, sub: str = "") -> None:
        raise ctx.error(reason, field=f"{head}.{key}{sub}", line=_where(ctx, head, key))

    for key, rule in (("neutral", "TR-24"), ("axis_minors", "TR-24"), ("rm_minors", "TR-87"),
                      ("start_conquered", "TR-22"), ("start_allies", "TR-24")):
        known = minors | ({"vichy"} if key == "start_conquered" and camp.start_vichy else set())
        if key in written and (bad := [m for m in getattr(camp, key) if m not in known]):
            refuse(key, f"{rule}: names a minor of [home_countries], not {bad[0]!r} "
                        f"(minors: {', '.join(sorted(minors))})")
    for key, rule in (("start_at_war", "TR-86"), ("start_out", "TR-86")):
        if bad := [p for p in getattr(camp, key) if p not in _MAJORS]:
            refuse(key, f"{rule}: names a major power, not {bad[0]!r} "
                        f"(one of {', '.join(_MAJORS)})")
    for key, table in (("economy", camp.economy), ("build_in", camp.build_in)):
        if bad := [p for p in table if p not in _MAJORS]:
            refuse(key, f"TR-86: a major power, not {bad[0]!r} (one of {', '.join(_MAJORS)})",
                   f".{bad[0]}")
    for power, where in camp.build_in.items():
        if bad := [c for c in where if c not in countries]:
            refuse("build_in", f"TR-86: names countries of the map, not {bad[0]!r}",
                   f".{power}")
    if "rm_trigger" in written and camp.rm_trigger not in minors:
        refuse("rm_trigger", f"TR-87: names a minor of [home_countries], not "
                             f"{camp.rm_trigger!r}")
    if "ribbentrop_molotov" in written and \
            (bad := [a for a in camp.ribbentrop_molotov if a not in areas]):
        refuse("ribbentrop_molotov", f"TR-87: names areas of [third_reich.areas], not "
                                     f"{bad[0]!r} (areas: {', '.join(sorted(areas)) or 'none'})")
    v = camp.victory
    if v.axis is not None and v.allies is not None and v.allies >= v.axis:
        raise ctx.error(f"TR-04: allies ({v.allies}) must be below axis ({v.axis})",
                        field=f"{head}.victory", line=_where(ctx, f"{head}.victory", "allies")
                        or _where(ctx, head, "victory"))
    for side, held in camp.start_control.items():
        if (err := ctx.unknown_side(side, f"{head}.start_control.{side}",
                                    _where(ctx, head, "start_control"))) is not None:
            raise err
        if bad := [c for c in held if c not in cities]:
            refuse("start_control", f"names cities of the map, not {bad[0]!r}", f".{side}")


def check_third_reich(tr: ThirdReichSection, ctx: SectionContext) -> ThirdReichRules:
    """A 3R scenario: its calendar turn is a turn number (TR-04), the sides its table names are
    the scenario's, its wars are between powers or [home_countries] owners (TR-24/TR-25), its
    campaign names the scenario's minors, majors, areas, sides and cities (TR-04, TR-24,
    TR-86, TR-87)."""
    cal = ctx.tables.get("calendar", {})
    turn = cal.get("turn") if isinstance(cal, Mapping) else None
    if turn is not None and not isinstance(turn, int):
        raise ctx.error("a Third Reich scenario's turn is a turn number (an integer)",
                        field="calendar.turn", line=ctx.line_of(r"^\s*turn\s*="))
    line = ctx.line
    for power, side in tr.sides.items():
        if (err := ctx.unknown_side(side, f"third_reich.sides.{power}", line)) is not None:
            raise err
    countries = _countries(ctx)
    for side, held in tr.control.items():
        if (err := ctx.unknown_side(side, f"third_reich.control.{side}", line)) is not None:
            raise err
        if bad := [c for c in held if c not in countries]:
            raise ctx.error(f"C-POLITY: control lists countries of the map, not {bad[0]!r}",
                            field=f"third_reich.control.{side}",
                            line=ctx.line_of(r"^\s*control\s*=") or line)
    for front, region in tr.front_weather.items():
        if front not in _FRONTS or region not in _REGIONS:
            raise ctx.error(f"TR-02/TR-05: front_weather maps a front ({', '.join(_FRONTS)}) "
                            f"to a weather region ({', '.join(_REGIONS)}), not {front!r} -> "
                            f"{region!r}", field=f"third_reich.front_weather.{front}",
                            line=ctx.line_of(r"^\s*front_weather\s*=") or line)
    line = ctx.line_of(r"^\s*\[third_reich\.wars\]") or line
    hc = ctx.tables.get("home_countries", {})
    owners = set(hc if isinstance(hc, dict) else {})
    known = {*_MAJORS, *owners}
    seen: set[tuple[str, ...]] = set()
    for i, war in enumerate(tr.wars.at_war):
        where = f"third_reich.wars.at_war[{i}]"
        if len(war.between) != 2 or war.between[0] == war.between[1] or \
                not set(war.between) <= known:
            raise ctx.error(f"between must name two different powers or [home_countries] "
                            f"owners, not {war.between!r}", field=f"{where}.between", line=line)
        if war.cause not in WAR_CAUSES:
            raise ctx.error(f"unknown cause {war.cause!r} (one of {', '.join(WAR_CAUSES)})",
                            field=f"{where}.cause", line=line)
        if war.since < 1:
            raise ctx.error("since is a turn number >= 1", field=f"{where}.since", line=line)
        pair = tuple(sorted(war.between))
        if pair in seen:
            raise ctx.error(f"TR-25: the war {pair[0]}-{pair[1]} is listed twice",
                            field=f"{where}.between", line=line)
        seen.add(pair)
    for minor, major in tr.wars.patrons.items():
        if minor in _MAJORS or minor not in known or major not in _MAJORS:
            raise ctx.error(f"patrons maps a minor of [home_countries] to a major power, not "
                            f"{minor!r} -> {major!r}", field=f"third_reich.wars.patrons.{minor}",
                            line=line)
    _check_campaign(tr, ctx, owners)
    situations = ctx.tables.get(AIR_SITUATIONS, [])
    return ThirdReichRules(tr, tuple(situations) if isinstance(situations, list) else ())


#: The 3R system's ``scenario_section`` hook (third_reich/play/system.py declares it).
SECTION = ScenarioSection(SECTION_NAME, ThirdReichSection, check_third_reich,
                          tables=(AIR_SITUATIONS,))


#: The ``[third_reich]`` of a scenario that has none (a scenario of another system).
NO_RULES = ThirdReichRules(ThirdReichSection())


def third_reich_rules(scenario: Any) -> ThirdReichRules:
    """The scenario's ``[third_reich]`` table (and ``[[air_situations]]``), parsed once by the
    engine through :data:`SECTION`; empty for a scenario of another system."""
    rules = getattr(scenario, "rules", None)
    return rules if isinstance(rules, ThirdReichRules) else NO_RULES
