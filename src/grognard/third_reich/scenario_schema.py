"""The ``[third_reich]`` table of a scenario: its typed schema and its check (the 3R system's
``scenario_section`` hook, engine/system.py).

The engine parses a scenario once; for a ``system = "third_reich"`` scenario it converts the
``[third_reich]`` table (the map file's sea zones, junctions, ports and areas merged in) to
:class:`ThirdReichSection`, then :func:`check_third_reich` refuses a turn that is not a turn
number, unknown sides, and wars or patrons that name no power, with the file, field and line.
The result, :class:`ThirdReichRules`, is kept on ``Scenario.rules``: the rule modules read it
there (``third_reich.conquest.campaign``) instead of parsing the scenario text again. The
format: docs/formats/tr_engine.md and docs/FORMATS.md ("Scenario").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import msgspec

from grognard.engine.scenario import ScenarioSection, SectionContext

SECTION_NAME = "third_reich"
#: TR-30 the air-zone situations of a scenario (``[[air_situations]]``, air_naval/air_zones.py)
AIR_SITUATIONS = "air_situations"
#: TR-25 how a war of the scenario's start came about (third_reich/conquest/diplomacy.py)
WAR_CAUSES = ("scenario", "declaration", "alliance", "minor_joins", "axis_minors", "us_entry")
_MAJORS = ("germany", "italy", "ussr", "uk", "france", "us")


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


class ThirdReichSection(msgspec.Struct, frozen=True):
    """``[third_reich]``, typed where the rules read it; the map files add sea_zones,
    junctions, ports, areas (kept in the table as written: ``ThirdReichRules.table``)."""

    sides: dict[str, str] = msgspec.field(default_factory=dict)
    control: dict[str, list[str]] = msgspec.field(default_factory=dict)
    front_weather: dict[str, str] = msgspec.field(default_factory=dict)
    sw_boxes: dict[str, dict[str, int]] = msgspec.field(default_factory=dict)
    wars: WarsSection = msgspec.field(default_factory=WarsSection)


@dataclass(frozen=True)
class ThirdReichRules:
    """A 3R scenario's ``[third_reich]`` table, parsed once by the engine: ``section`` typed,
    ``table`` as written (the map file's keys merged in; read-only) for the keys not typed
    yet, and its ``[[air_situations]]`` as written (TR-30)."""

    section: ThirdReichSection
    table: Mapping[str, Any]
    air_situations: Sequence[Any] = ()


def check_third_reich(tr: ThirdReichSection, ctx: SectionContext) -> ThirdReichRules:
    """A 3R scenario: its calendar turn is a turn number (TR-04), the sides its table names are
    the scenario's, its wars are between powers or [home_countries] owners (TR-24/TR-25)."""
    cal = ctx.tables.get("calendar", {})
    turn = cal.get("turn") if isinstance(cal, Mapping) else None
    if turn is not None and not isinstance(turn, int):
        raise ctx.error("a Third Reich scenario's turn is a turn number (an integer)",
                        field="calendar.turn", line=ctx.line_of(r"^\s*turn\s*="))
    line = ctx.line
    for power, side in tr.sides.items():
        if (err := ctx.unknown_side(side, f"third_reich.sides.{power}", line)) is not None:
            raise err
    for side in tr.control:
        if (err := ctx.unknown_side(side, f"third_reich.control.{side}", line)) is not None:
            raise err
    line = ctx.line_of(r"^\s*\[third_reich\.wars\]") or line
    hc = ctx.tables.get("home_countries", {})
    known = {*_MAJORS, *(hc if isinstance(hc, dict) else {})}
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
    for minor, major in tr.wars.patrons.items():
        if minor in _MAJORS or minor not in known or major not in _MAJORS:
            raise ctx.error(f"patrons maps a minor of [home_countries] to a major power, not "
                            f"{minor!r} -> {major!r}", field=f"third_reich.wars.patrons.{minor}",
                            line=line)
    situations = ctx.tables.get(AIR_SITUATIONS, [])
    return ThirdReichRules(tr, MappingProxyType(ctx.tables.get(SECTION_NAME, {})),
                           tuple(situations) if isinstance(situations, list) else ())


#: The 3R system's ``scenario_section`` hook (third_reich/play/system.py declares it).
SECTION = ScenarioSection(SECTION_NAME, ThirdReichSection, check_third_reich,
                          tables=(AIR_SITUATIONS,))


#: The ``[third_reich]`` of a scenario that has none (a scenario of another system).
NO_RULES = ThirdReichRules(ThirdReichSection(), MappingProxyType({}))


def third_reich_rules(scenario: Any) -> ThirdReichRules:
    """The scenario's ``[third_reich]`` table (and ``[[air_situations]]``), parsed once by the
    engine through :data:`SECTION`; empty for a scenario of another system."""
    rules = getattr(scenario, "rules", None)
    return rules if isinstance(rules, ThirdReichRules) else NO_RULES
