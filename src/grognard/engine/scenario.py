"""Scenario files (TOML): map, hexsides, cities, regions, units, sides, calendar, seed.

See docs/FORMATS.md ("Scenario") for the format. Every error names the file and, where it can,
the line, the hex label or the field::

    scenario.toml:14, hex 0412: unknown terrain code 'x' (legend has . f m s w ~)
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from grognard.core.errors import InputError, ScenarioError
from grognard.core.hexgrid import Hex, Hexside, Layout, hexside_between
from grognard.core.inputs import InputFileError, convert, load_toml_text, read_text
from grognard.core.mapdata import (
    WATER_TERRAIN,
    Box,
    City,
    CityClass,
    Fortification,
    HexsideFeature,
    MapData,
    Terrain,
)
from grognard.core.units import GROUND_TYPES, Unit
from grognard.engine.phases import TurnSequence
from grognard.engine.plugins import GENERIC, plugins, system_named, system_names

#: terrain names no ground unit may start on
_WATER = frozenset(t.value for t in WATER_TERRAIN)

DEFAULT_PHASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("movement", ("move",)),
    ("combat", ("roll_table",)),
)


@dataclass(frozen=True)
class Placement:
    """Where a unit starts: a hex label or an off-map box id."""

    unit: Unit
    hex: str | None = None
    box: str | None = None
    hidden: bool = False


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    system: str
    seed: int
    sides: tuple[str, ...]
    map: MapData
    placements: tuple[Placement, ...]
    sequence: TurnSequence
    sequence_given: bool = False
    calendar: Mapping[str, Any] = field(default_factory=dict)
    readings: Mapping[str, Any] = field(default_factory=dict)
    home_countries: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    text: str = ""
    file: str = ""
    #: The scenario's own table of its rule system (``[<system>]``), parsed once into the typed
    #: value its ``scenario_section`` hook returns (None: the system has no table of its own).
    rules: Any = None

    def unit(self, uid: str) -> Unit:
        for p in self.placements:
            if p.unit.id == uid:
                return p.unit
        raise InputError("unit", f"no unit {uid!r} in scenario {self.id}")


class _Where:
    """Finds the line of a key or text in the source, for error messages (linear: the lines of
    each ``[[array]]`` header are found in one pass and kept)."""

    def __init__(self, text: str, file: str) -> None:
        self.text = text
        self.file = file
        self._headers: dict[str, list[int]] = {}

    def line_of(self, pattern: str, after: int | None = None) -> int | None:
        """The line of the first match of ``pattern`` (at or after line ``after``)."""
        rx = re.compile(pattern, re.M)
        off = 0
        if after:
            for _ in range(after - 1):
                off = self.text.find("\n", off) + 1
                if off == 0:
                    return None
        m = rx.search(self.text, off)
        if m is None:
            return None
        return self.text.count("\n", 0, m.start()) + 1

    def nth_header(self, name: str, n: int) -> int | None:
        """The line of the ``n``-th ``[[name]]`` header (0-based), or None."""
        lines = self._headers.get(name)
        if lines is None:
            rx = re.compile(rf"^[ \t]*\[\[[ \t]*{re.escape(name)}[ \t]*\]\]", re.M)
            lines = []
            count, last = 0, 0
            for m in rx.finditer(self.text):
                count += self.text.count("\n", last, m.start())
                last = m.start()
                lines.append(count + 1)
            self._headers[name] = lines
        return lines[n] if 0 <= n < len(lines) else None

    def error(self, reason: str, *, line: int | None = None, hex: str | None = None,
              field: str | None = None) -> ScenarioError:
        return ScenarioError(reason, file=self.file, line=line, hex=hex, field=field)

    def from_input(self, exc: InputFileError, line: int | None = None) -> ScenarioError:
        return self.error(exc.reason, line=exc.line or line, field=exc.path)


# --- a rule system's own table: its schema and check (the ``scenario_section`` hook) -------------

@dataclass(frozen=True)
class SectionContext:
    """What a rule system's section check is given: the scenario's sides and tables (its map
    file's merged in), the line of the section's header, the map's hex-label check and the
    engine's error helpers, so its errors name the file, field and line like the engine's."""

    sides: tuple[str, ...]
    tables: Mapping[str, Any]
    line: int | None
    label_hex: Callable[[Any, str, int | None], Hex]
    where: _Where

    def error(self, reason: str, *, line: int | None = None, hex: str | None = None,
              field: str | None = None) -> ScenarioError:
        """The one-line error to raise (``file:line, field F, hex H: reason``)."""
        return self.where.error(reason, line=line, hex=hex, field=field)

    def line_of(self, pattern: str) -> int | None:
        """The line of the first match of the regular expression ``pattern`` in the text."""
        return self.where.line_of(pattern)

    def unknown_side(self, side: str, field: str, line: int | None) -> ScenarioError | None:
        """The error for a name that is not one of the scenario's sides (None: it is one)."""
        if side in self.sides:
            return None
        return self.error(f"unknown side {side!r} (sides: {', '.join(self.sides)})",
                          field=field, line=line)


@dataclass(frozen=True)
class ScenarioSection:
    """A rule system's own table of a scenario (``[name]``), declared by the rule package beside
    its schema (engine/system.py ``RuleSystem.scenario_section``). The engine converts the table
    to ``schema`` (a msgspec Struct: types, ranges, enums) and calls ``check(value, context)``,
    which refuses what the game could not use (raising ``context.error(...)``) and returns the
    typed value kept on ``Scenario.rules``. ``tables`` names the other top-level tables the
    system reads (so they are not refused as unknown)."""

    name: str
    schema: type[Any]
    check: Callable[[Any, SectionContext], Any]
    tables: tuple[str, ...] = ()


# --- typed schemas of the scenario's tables (msgspec): types, ranges and enums ------------------

#: The engine's own top-level tables; a scenario may also hold a table named after any rule
#: system (a map file may carry several systems' facts) and the tables its own system reads.
#: Any other is refused (a misspelled ``[[unit]]`` would otherwise be silently ignored).
ENGINE_TABLES = ("scenario", "map", "hexsides", "cities", "countries", "regions",
                 "weather_zones", "fortifications", "boxes", "units", "home_countries",
                 "sequence", "calendar", "readings")

NonNeg = Annotated[int, msgspec.Meta(ge=0)]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
#: Largest map: rows x columns of the map's bounding box (a 40,000-hex map is 200 x 200).
MAX_MAP_CELLS = 4_000_000


class _Head(msgspec.Struct, forbid_unknown_fields=True):
    id: Name
    sides: Annotated[list[Name], msgspec.Meta(min_length=2)]
    title: str = ""
    system: str = "generic"
    map: str | None = None
    seed: Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)] = 0


class _Layout(msgspec.Struct, forbid_unknown_fields=True):
    offset: Literal["odd-q", "even-q", "odd-r", "even-r"] = "odd-q"
    style: Literal["numeric", "letter"] = "numeric"
    origin: Annotated[int, msgspec.Meta(ge=0, le=1)] = 1
    digits: Annotated[int, msgspec.Meta(ge=1, le=4)] = 2


class _MapHex(msgspec.Struct, forbid_unknown_fields=True):
    hex: str
    terrain: str


class _Map(msgspec.Struct, forbid_unknown_fields=True):
    layout: _Layout = msgspec.field(default_factory=_Layout)
    legend: dict[str, str] = msgspec.field(default_factory=dict)
    grid: str | None = None
    hexes: list[_MapHex] = msgspec.field(default_factory=list)


class _Hexside(msgspec.Struct, forbid_unknown_fields=True):
    between: Annotated[list[str], msgspec.Meta(min_length=2, max_length=2)]
    features: list[str] = msgspec.field(default_factory=list)


class _City(msgspec.Struct, forbid_unknown_fields=True):
    hex: str
    name: Name
    classes: list[str] = msgspec.field(default_factory=lambda: ["city"])
    country: str = ""


class _Box(msgspec.Struct, forbid_unknown_fields=True):
    id: Name
    name: str = ""
    kind: str = ""


class _Place(msgspec.Struct, forbid_unknown_fields=False):
    """Where a unit starts (the unit's own fields are checked by ``Unit.from_json``)."""

    hex: str | None = None
    box: str | None = None
    hidden: bool = False


class _Calendar(msgspec.Struct):
    """The calendar; systems add their own keys (EuroFront: month, surprised)."""

    start: str = ""
    turn: Annotated[int, msgspec.Meta(ge=1, le=10_000)] | str | None = None
    year: Annotated[int, msgspec.Meta(ge=1900, le=2100)] | None = None
    season: str = ""


def _table(raw: Mapping[str, Any], key: str, w: _Where) -> Mapping[str, Any]:
    v = raw.get(key, {})
    if not isinstance(v, dict):
        raise w.error(f"[{key}] must be a table", line=w.line_of(rf"^\s*{key}\s*="), field=key)
    return v


def _list(raw: Mapping[str, Any], key: str, w: _Where) -> list[Any]:
    v = raw.get(key, [])
    if not isinstance(v, list):
        raise w.error(f"{key} must be an array", line=w.line_of(rf"^\s*{key}\s*="), field=key)
    return v


@functools.lru_cache(maxsize=8)
def _map_file(name: str) -> Mapping[str, Any]:
    res = resources.files("grognard.data").joinpath("maps", f"{name}.toml")
    return tomllib.loads(res.read_text(encoding="utf-8")) if res.is_file() else {}


def include_map(raw: Mapping[str, Any], file: str = "<scenario>") -> dict[str, Any]:
    """``[scenario] map = "ID"``: the tables of the shipped map ``data/maps/ID.toml`` under the
    scenario's own (C-HEX). A table both have is merged key by key, the scenario's keys winning
    (so ``[third_reich]`` keeps both); an array of tables both have (``[[cities]]``,
    ``[[hexsides]]``, ``[[boxes]]``) is the map's entries then the scenario's; any other value
    is the scenario's. Without ``map`` the tables are returned unchanged."""
    head = raw.get("scenario")
    name = head.get("map") if isinstance(head, dict) else None
    if name is None:
        return dict(raw)
    base = _map_file(name) if isinstance(name, str) and re.fullmatch(r"[a-z0-9][a-z0-9_-]*",
                                                                      name) else {}
    if not base:
        maps = resources.files("grognard.data").joinpath("maps")
        known = sorted(e.name[:-5] for e in maps.iterdir() if e.name.endswith(".toml"))
        raise ScenarioError(f"unknown map {name!r} (maps: {', '.join(known)})", file=file,
                            field="scenario.map")
    out: dict[str, Any] = {k: v for k, v in base.items() if k != "map_info"}
    for key, value in raw.items():
        mine = out.get(key)
        if isinstance(mine, dict) and isinstance(value, dict):
            out[key] = {**mine, **value}
        elif isinstance(mine, list) and isinstance(value, list):
            out[key] = [*mine, *value]
        else:
            out[key] = value
    return out


def parse_scenario(text: str, file: str = "<scenario>") -> Scenario:
    """Parse and validate scenario TOML text (in time linear in its size). A scenario is an
    immutable value, so the same text is parsed once (loading a save, replaying it and
    starting a game from the same file share it)."""
    return _parse_scenario(text, file)


@functools.lru_cache(maxsize=4)
def _parse_scenario(text: str, file: str) -> Scenario:
    w = _Where(text, file)
    try:
        own = load_toml_text(text, file)
    except InputFileError as exc:
        raise w.from_input(exc) from None
    head_own = own.get("scenario")
    if isinstance(head_own, dict) and head_own.get("map") is not None and not isinstance(
            head_own.get("map"), str):
        raise w.error(f"map must be the name of a shipped map, not {head_own['map']!r}",
                      field="scenario.map", line=w.line_of(r"^\s*map\s*="))
    raw = include_map(own, file)
    _refuse_unknown_tables(raw, w)
    head_raw = _table(raw, "scenario", w)
    if not head_raw:
        raise w.error("missing [scenario] table (id, title, system, sides, seed)")
    head = _convert(head_raw, _Head, w, "scenario", w.line_of(r"^\s*\[scenario\]"))
    sid, seed, sides = head.id, head.seed, head.sides
    if head.system not in system_names():
        hint = "" if len(plugins()) > 1 else \
            "; no rule system is installed: `uv sync` installs grognard's entry points"
        raise w.error(f"unknown system {head.system!r} (known: {', '.join(system_names())})"
                      f"{hint}", field="scenario.system", line=w.line_of(r"^\s*system\s*="))
    if len(set(sides)) != len(sides):
        raise w.error("duplicate side name", field="scenario.sides",
                      line=w.line_of(r"^\s*sides\s*="))
    map_raw = _table(raw, "map", w)
    if not map_raw:
        raise w.error("missing [map] table", field="map")
    layout, hexes, terrain = _parse_map(_convert(map_raw, _Map, w, "map"), w)
    index = {h: i for i, h in enumerate(hexes)}

    def label_hex(label: Any, fld: str, line: int | None) -> Hex:
        if not isinstance(label, str):
            raise w.error(f"hex label must be a string, not {label!r}", field=fld, line=line)
        try:
            h = layout.from_label(label)
        except InputError as exc:
            raise w.error(exc.reason, field=fld, line=line, hex=label) from None
        if h not in index:
            raise w.error("hex is off the map", field=fld, line=line, hex=label)
        if layout.to_label(h) != label:
            raise w.error(f"hex label {label!r} is not written as on the map "
                          f"({layout.to_label(h)!r})", field=fld, line=line, hex=label)
        return h

    def items(key: str, kind: type[msgspec.Struct]) -> list[tuple[int, int | None, Any]]:
        out = []
        entries = _list(raw, key, w)
        included = len(entries) - len(own.get(key, []))  # the map file's entries come first
        for i, x in enumerate(entries):
            line = w.nth_header(key, i - included) if i >= included else None
            out.append((i, line, _convert(x, kind, w, f"{key}[{i}]", line)))
        return out

    hexsides: dict[Hexside, HexsideFeature] = {}
    known_features = {f.name.lower(): f for f in HexsideFeature if f.name and f.value}
    for i, line, hs in items("hexsides", _Hexside):
        a = label_hex(hs.between[0], f"hexsides[{i}].between", line)
        b = label_hex(hs.between[1], f"hexsides[{i}].between", line)
        try:
            side = hexside_between(a, b)
        except InputError:
            raise w.error(f"{hs.between[0]} and {hs.between[1]} are not adjacent",
                          field=f"hexsides[{i}].between", line=line) from None
        feats = HexsideFeature.NONE
        for name in hs.features:
            if name not in known_features:
                raise w.error(f"unknown hexside feature {name!r} "
                              f"(known: {', '.join(known_features)})",
                              field=f"hexsides[{i}].features", line=line)
            feats |= known_features[name]
        hexsides[side] = hexsides.get(side, HexsideFeature.NONE) | feats

    cities: dict[Hex, list[City]] = {}
    city_names: set[tuple[str, Hex]] = set()
    for i, line, c in items("cities", _City):
        h = label_hex(c.hex, f"cities[{i}].hex", line)
        if (c.name, h) in city_names:
            raise w.error(f"duplicate city {c.name!r} in {c.hex}", field=f"cities[{i}].name",
                          line=line, hex=c.hex)
        city_names.add((c.name, h))
        classes = []
        for cl in c.classes:
            try:
                classes.append(CityClass(cl))
            except ValueError:
                known = ", ".join(x.value for x in CityClass)
                raise w.error(f"unknown city class {cl!r} (known: {known})",
                              field=f"cities[{i}].classes", line=line) from None
        cities.setdefault(h, []).append(City(c.name, frozenset(classes), c.country))

    per_hex: dict[str, list[str]] = {"country": [""] * len(hexes), "region": [""] * len(hexes),
                                     "weather_zone": [""] * len(hexes)}
    forts = [Fortification.NONE.value] * len(hexes)
    for attr, key in (("country", "countries"), ("region", "regions"),
                      ("weather_zone", "weather_zones")):
        for name, labels in _table(raw, key, w).items():
            line = w.line_of(rf"^\s*{re.escape(name)}\s*=")
            if labels == "all":
                labels = [layout.to_label(h) for h in hexes]
            if not isinstance(labels, list):
                raise w.error("must list hex labels or be \"all\"", field=f"{key}.{name}",
                              line=line)
            for lab in labels:
                per_hex[attr][index[label_hex(lab, f"{key}.{name}", line)]] = name
    for name, labels in _table(raw, "fortifications", w).items():
        line = w.line_of(rf"^\s*{re.escape(name)}\s*=")
        try:
            Fortification(name)
        except ValueError:
            known = ", ".join(f.value for f in Fortification)
            raise w.error(f"unknown fortification {name!r} (known: {known})",
                          field=f"fortifications.{name}", line=line) from None
        if not isinstance(labels, list):
            raise w.error("must list hex labels", field=f"fortifications.{name}", line=line)
        for lab in labels:
            forts[index[label_hex(lab, f"fortifications.{name}", line)]] = name

    boxes = []
    box_ids: set[str] = set()
    for i, line, b in items("boxes", _Box):
        if b.id in box_ids:
            raise w.error(f"duplicate box id {b.id!r}", field=f"boxes[{i}].id", line=line)
        box_ids.add(b.id)
        boxes.append(Box(b.id, b.name, b.kind))

    try:
        mapdata = MapData.build(
            hexes, terrain, layout=layout, hexsides=hexsides, country=per_hex["country"],
            region=per_hex["region"], weather_zone=per_hex["weather_zone"], fortification=forts,
            cities=cities, boxes=boxes,
        )
    except InputError as exc:
        raise w.error(exc.reason, field=exc.field) from None

    placements: list[Placement] = []
    seen: set[str] = set()
    units = _list(raw, "units", w)
    included = len(units) - len(own.get("units", []))
    for i, u in enumerate(units):
        line = w.nth_header("units", i - included) if i >= included else None
        if not isinstance(u, dict):
            raise w.error("a unit must be a table", field=f"units[{i}]", line=line)
        try:
            unit = Unit.from_json(u, where=f"units[{i}]")
        except InputError as exc:
            raise w.error(exc.reason, field=exc.field, line=line) from None
        place = _convert(u, _Place, w, f"units[{i}]", line)
        if unit.id in seen:
            raise w.error(f"duplicate unit id {unit.id!r}", field=f"units[{i}].id", line=line)
        seen.add(unit.id)
        if unit.side not in sides:
            raise w.error(f"unit {unit.id} has side {unit.side!r}, not one of {', '.join(sides)}",
                          field=f"units[{i}].side", line=line)
        if (place.hex is None) == (place.box is None):
            raise w.error(f"unit {unit.id} needs exactly one of hex or box",
                          field=f"units[{i}]", line=line)
        if place.hex is not None:
            try:
                h = layout.from_label(place.hex)
            except InputError as exc:
                raise w.error(exc.reason, field=f"units[{i}].hex", line=line,
                              hex=place.hex) from None
            if h not in index:
                raise w.error(f"unit {unit.id} is stacked off-map", field=f"units[{i}].hex",
                              line=line, hex=place.hex)
            label_hex(place.hex, f"units[{i}].hex", line)
            if unit.type in GROUND_TYPES and terrain[index[h]] in _WATER:
                raise w.error(f"ground unit {unit.id} stands on a {terrain[index[h]]} hex "
                              "(ground units start on land)", field=f"units[{i}].hex",
                              line=line, hex=place.hex)
        elif place.box not in box_ids:
            raise w.error(f"unit {unit.id} is in unknown box {place.box!r}",
                          field=f"units[{i}].box", line=line)
        placements.append(Placement(unit, place.hex, place.box, place.hidden))

    home: dict[str, tuple[str, ...]] = {}
    known_countries = set(mapdata.country_names) - {""}
    for power, names in _table(raw, "home_countries", w).items():
        line = w.line_of(rf"^\s*{re.escape(power)}\s*=")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise w.error("must list country names", field=f"home_countries.{power}", line=line)
        for n in names:
            if n not in known_countries:
                raise w.error(f"unknown country {n!r} (countries: "
                              f"{', '.join(sorted(known_countries)) or 'none'})",
                              field=f"home_countries.{power}", line=line)
        home[power] = tuple(names)

    sequence = _parse_sequence(raw, sides, w)
    calendar = _table(raw, "calendar", w)
    _convert(calendar, _Calendar, w, "calendar", w.line_of(r"^\s*\[calendar\]"))
    readings = _table(raw, "readings", w)
    rules = _system_section(head.system, raw, tuple(sides), w, label_hex)
    return Scenario(
        id=sid, title=head.title or sid, system=head.system,
        seed=seed, sides=tuple(sides), map=mapdata, placements=tuple(placements),
        sequence=sequence, sequence_given="sequence" in raw, calendar=dict(calendar),
        readings=dict(readings), home_countries=home, text=text, file=file, rules=rules,
    )


def _own_tables(system: Any) -> tuple[str, ...]:
    """The tables a scenario of ``system`` (a name) may hold besides the engine's."""
    if not isinstance(system, str) or system not in system_names():
        return ()
    section = system_named(system).scenario_section
    return () if section is None else (section.name, *section.tables)


def _refuse_unknown_tables(raw: Mapping[str, Any], w: _Where) -> None:
    """Refuse a top-level table neither the engine nor a rule system reads (a system's own
    tables are asked of it only when some table is not known otherwise)."""
    known = [*ENGINE_TABLES, *(n for n in system_names() if n != GENERIC)]
    unknown = sorted(set(raw) - set(known))
    if not unknown:
        return
    head = raw.get("scenario")
    known += [t for t in _own_tables(head.get("system") if isinstance(head, dict) else None)
              if t not in known]
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise w.error(f"unknown table [{unknown[0]}] (known: {', '.join(known)})",
                      field=unknown[0], line=w.line_of(rf"^\s*\[*\s*{re.escape(unknown[0])}\b"))


def _system_section(system: str, raw: Mapping[str, Any], sides: tuple[str, ...], w: _Where,
                    label_hex: Callable[[Any, str, int | None], Hex]) -> Any:
    """The scenario's own table of its rule system, validated and typed by the system's
    ``scenario_section`` hook (so ``scenario validate`` refuses what ``game new`` could not
    use); None when the system has no table of its own."""
    section = system_named(system).scenario_section
    if section is None:
        return None
    name = section.name
    line = w.line_of(rf"^\s*\[{re.escape(name)}")
    value = _convert(_table(raw, name, w), section.schema, w, name, line)
    return section.check(value, SectionContext(sides, raw, line, label_hex, w))


def _convert(raw: Any, kind: type[Any], w: _Where, prefix: str, line: int | None = None) -> Any:
    try:
        return convert(raw, kind, w.file, prefix)
    except InputFileError as exc:
        # the line of the offending key (an unknown one, else the innermost key of the path
        # written as ``key =``), when it follows the table's header
        unknown = re.match(r"unknown field '(\w+)'", exc.reason)
        keys = [*re.findall(r"\.(\w+)", exc.path or ""), *unknown.groups()[:1]] if unknown \
            else re.findall(r"\.(\w+)", exc.path or "")
        found = next((n for k in reversed(keys)
                      if (n := w.line_of(rf"^\s*{k}\s*=", after=line))), None)
        raise w.error(exc.reason, field=exc.path, line=found or line) from None


def _parse_map(spec: _Map, w: _Where) -> tuple[Layout, list[Hex], list[str]]:
    lay = spec.layout
    layout = Layout(offset=lay.offset, style=lay.style, origin=lay.origin, digits=lay.digits)
    hexes: list[Hex] = []
    terrain: list[str] = []
    known = ", ".join(t.value for t in Terrain)
    terrains = {t.value for t in Terrain}
    if spec.grid is not None:
        legend = spec.legend
        if not legend:
            raise w.error("a grid needs a legend of terrain codes", field="map.legend")
        for code, name in legend.items():
            if len(code) != 1 or code == " ":
                raise w.error(f"legend code {code!r} must be one character (not a space)",
                              field="map.legend")
            if name not in terrains:
                raise w.error(f"legend maps {code!r} to unknown terrain {name!r} (known: {known})",
                              field="map.legend", line=w.line_of(r"^\s*legend\s*="))
        first = w.line_of(r"^\s*grid\s*=") or 0
        rows = [ln.rstrip() for ln in spec.grid.strip("\n").splitlines()]
        width = max((len(r) for r in rows), default=0)
        if width * len(rows) > MAX_MAP_CELLS:
            raise w.error(f"the grid is {width} x {len(rows)}; the limit is "
                          f"{MAX_MAP_CELLS:,} cells", field="map.grid", line=first)
        for row_i, row in enumerate(rows):
            for col_i, ch in enumerate(row):
                if ch == " ":
                    continue  # no hex here (irregular map edges)
                h = layout.from_offset(col_i, row_i)
                if ch not in legend:
                    raise w.error(
                        f"unknown terrain code {ch!r} (legend has {' '.join(sorted(legend))})",
                        line=first + 1 + row_i, hex=_label_or_offset(layout, h, col_i, row_i))
                hexes.append(h)
                terrain.append(legend[ch])
    at = {h: i for i, h in enumerate(hexes)}
    for i, entry in enumerate(spec.hexes):
        label, name = entry.hex, entry.terrain
        try:
            h = layout.from_label(label)
            canonical = layout.to_label(h)
        except InputError as exc:
            raise w.error(exc.reason, field=f"map.hexes[{i}].hex", hex=label,
                          line=w.line_of(re.escape(label))) from None
        if canonical != label:
            raise w.error(f"hex label {label!r} is not written as on the map ({canonical!r})",
                          field=f"map.hexes[{i}].hex", hex=label)
        if name not in terrains:
            raise w.error(f"unknown terrain {name!r} (known: {known})",
                          field=f"map.hexes[{i}].terrain", hex=label,
                          line=w.line_of(re.escape(label)))
        if h in at:
            terrain[at[h]] = name
        else:
            at[h] = len(hexes)
            hexes.append(h)
            terrain.append(name)
    if not hexes:
        raise w.error("the map has no hexes (give map.grid or map.hexes)", field="map")
    qs = [h[0] for h in hexes]
    rs = [h[1] for h in hexes]
    if (max(qs) - min(qs) + 3) * (max(rs) - min(rs) + 3) > MAX_MAP_CELLS:
        raise w.error(f"the map spans more than {MAX_MAP_CELLS:,} cells", field="map.hexes")
    return layout, hexes, terrain


def _label_or_offset(layout: Layout, h: Hex, col: int, row: int) -> str:
    try:
        return layout.to_label(h)
    except InputError:
        return f"column {col}, row {row}"


def _parse_sequence(raw: Mapping[str, Any], sides: Sequence[str], w: _Where) -> TurnSequence:
    seq = raw.get("sequence")
    if seq is None:
        return TurnSequence.per_player(sides, DEFAULT_PHASES)
    if not isinstance(seq, dict) or not isinstance(seq.get("phases"), list):
        raise w.error("[sequence] needs phases = [{name, player, commands}]", field="sequence")
    try:
        ts = TurnSequence.from_json(seq["phases"], "sequence.phases")
    except InputError as exc:
        raise w.error(exc.reason, field=exc.field) from None
    for p in ts.phases:
        if p.player not in sides:
            raise w.error(f"phase {p.name} names unknown player {p.player!r}",
                          field="sequence.phases")
    return ts


def load_scenario(path: str | Path) -> Scenario:
    """Load a scenario file, or a shipped scenario by name (``demo-europa``)."""
    p = Path(path)
    if not p.exists() and not p.suffix and re.fullmatch(r"[A-Za-z0-9_-]{1,100}", p.name):
        shipped = resources.files("grognard.data").joinpath("scenarios", f"{p.name}.toml")
        if shipped.is_file():
            return parse_scenario(shipped.read_text(encoding="utf-8"),
                                  f"grognard/data/scenarios/{p.name}.toml")
    try:
        text = read_text(p, "scenario")
    except InputFileError as exc:
        raise ScenarioError(exc.reason, file=str(p), line=exc.line) from None
    return parse_scenario(text, str(p))


def shipped_scenarios() -> list[str]:
    root = resources.files("grognard.data").joinpath("scenarios")
    return sorted(e.name[:-5] for e in root.iterdir() if e.name.endswith(".toml"))
