"""Scenario files (TOML): map, hexsides, cities, regions, units, sides, calendar, seed.

See docs/FORMATS.md ("Scenario") for the format. Every error names the file and, where it can,
the line, the hex label or the field::

    scenario.toml:14, hex 0412: unknown terrain code 'x' (legend has . f m s w ~)
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from grognard.core.errors import InputError, ScenarioError
from grognard.core.hexgrid import Hex, Hexside, Layout, hexside_between
from grognard.core.mapdata import (
    Box,
    City,
    CityClass,
    Fortification,
    HexsideFeature,
    MapData,
    Terrain,
)
from grognard.core.units import Unit
from grognard.engine.phases import TurnSequence

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

    def unit(self, uid: str) -> Unit:
        for p in self.placements:
            if p.unit.id == uid:
                return p.unit
        raise InputError("unit", f"no unit {uid!r} in scenario {self.id}")


class _Where:
    """Finds the line of a key or text in the source, for error messages."""

    def __init__(self, text: str, file: str) -> None:
        self.lines = text.splitlines()
        self.file = file

    def line_of(self, pattern: str, start: int = 0) -> int | None:
        rx = re.compile(pattern)
        for i in range(start, len(self.lines)):
            if rx.search(self.lines[i]):
                return i + 1
        return None

    def error(self, reason: str, *, line: int | None = None, hex: str | None = None,
              field: str | None = None) -> ScenarioError:
        return ScenarioError(reason, file=self.file, line=line, hex=hex, field=field)


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
    """Parse and validate scenario TOML text."""
    w = _Where(text, file)
    try:
        raw = include_map(tomllib.loads(text), file)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise w.error(f"not valid TOML: {exc}", line=int(m.group(1)) if m else None) from None
    head = _table(raw, "scenario", w)
    if not head:
        raise w.error("missing [scenario] table (id, title, system, sides, seed)")
    sid = head.get("id")
    if not isinstance(sid, str) or not sid:
        raise w.error("scenario needs a string id", field="scenario.id",
                      line=w.line_of(r"^\s*\[scenario\]"))
    seed = head.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise w.error("seed must be a non-negative integer", field="scenario.seed",
                      line=w.line_of(r"^\s*seed\s*="))
    sides = head.get("sides")
    if not isinstance(sides, list) or len(sides) < 2 or not all(isinstance(s, str) for s in sides):
        raise w.error("sides must list at least two side names", field="scenario.sides",
                      line=w.line_of(r"^\s*sides\s*="))
    if len(set(sides)) != len(sides):
        raise w.error("duplicate side name", field="scenario.sides",
                      line=w.line_of(r"^\s*sides\s*="))
    layout, hexes, terrain = _parse_map(_table(raw, "map", w), w)
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
        return h

    hexsides: dict[Hexside, HexsideFeature] = {}
    for i, hs in enumerate(_list(raw, "hexsides", w)):
        line = _nth_line(w, r"^\s*\[\[hexsides\]\]", i)
        between = hs.get("between") if isinstance(hs, dict) else None
        if not isinstance(between, list) or len(between) != 2:
            raise w.error("a hexside needs between = [HEX, HEX]", field=f"hexsides[{i}]", line=line)
        a = label_hex(between[0], f"hexsides[{i}].between", line)
        b = label_hex(between[1], f"hexsides[{i}].between", line)
        try:
            side = hexside_between(a, b)
        except InputError:
            raise w.error(f"{between[0]} and {between[1]} are not adjacent",
                          field=f"hexsides[{i}].between", line=line) from None
        feats = HexsideFeature.NONE
        for name in hs.get("features", []):
            try:
                feats |= HexsideFeature[str(name).upper()]
            except KeyError:
                known = ", ".join(f.name.lower() for f in HexsideFeature if f.name and f.value)
                raise w.error(f"unknown hexside feature {name!r} (known: {known})",
                              field=f"hexsides[{i}].features", line=line) from None
        hexsides[side] = hexsides.get(side, HexsideFeature.NONE) | feats

    cities: dict[Hex, list[City]] = {}
    for i, c in enumerate(_list(raw, "cities", w)):
        line = _nth_line(w, r"^\s*\[\[cities\]\]", i)
        if not isinstance(c, dict) or not isinstance(c.get("name"), str):
            raise w.error("a city needs a name", field=f"cities[{i}]", line=line)
        h = label_hex(c.get("hex"), f"cities[{i}].hex", line)
        classes = []
        for cl in c.get("classes", ["city"]):
            try:
                classes.append(CityClass(cl))
            except ValueError:
                known = ", ".join(x.value for x in CityClass)
                raise w.error(f"unknown city class {cl!r} (known: {known})",
                              field=f"cities[{i}].classes", line=line) from None
        cities.setdefault(h, []).append(City(c["name"], frozenset(classes),
                                             str(c.get("country", ""))))

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
            raise w.error(f"unknown fortification {name!r}", field=f"fortifications.{name}",
                          line=line) from None
        for lab in labels:
            forts[index[label_hex(lab, f"fortifications.{name}", line)]] = name

    boxes = []
    for i, b in enumerate(_list(raw, "boxes", w)):
        line = _nth_line(w, r"^\s*\[\[boxes\]\]", i)
        if not isinstance(b, dict) or not isinstance(b.get("id"), str):
            raise w.error("a box needs an id", field=f"boxes[{i}]", line=line)
        boxes.append(Box(b["id"], str(b.get("name", "")), str(b.get("kind", ""))))
    box_ids = {b.id for b in boxes}

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
    for i, u in enumerate(_list(raw, "units", w)):
        line = _nth_line(w, r"^\s*\[\[units\]\]", i)
        if not isinstance(u, dict):
            raise w.error("a unit must be a table", field=f"units[{i}]", line=line)
        try:
            unit = Unit.from_json(u, where=f"units[{i}]")
        except InputError as exc:
            raise w.error(exc.reason, field=exc.field, line=line) from None
        if unit.id in seen:
            raise w.error(f"duplicate unit id {unit.id!r}", field=f"units[{i}].id", line=line)
        seen.add(unit.id)
        if unit.side not in sides:
            raise w.error(f"unit {unit.id} has side {unit.side!r}, not one of {', '.join(sides)}",
                          field=f"units[{i}].side", line=line)
        where_hex, where_box = u.get("hex"), u.get("box")
        if (where_hex is None) == (where_box is None):
            raise w.error(f"unit {unit.id} needs exactly one of hex or box",
                          field=f"units[{i}]", line=line)
        if where_hex is not None:
            if not isinstance(where_hex, str):
                raise w.error("hex label must be a string", field=f"units[{i}].hex", line=line)
            try:
                h = layout.from_label(where_hex)
            except InputError as exc:
                raise w.error(exc.reason, field=f"units[{i}].hex", line=line,
                              hex=where_hex) from None
            if h not in index:
                raise w.error(f"unit {unit.id} is stacked off-map", field=f"units[{i}].hex",
                              line=line, hex=where_hex)
        elif where_box not in box_ids:
            raise w.error(f"unit {unit.id} is in unknown box {where_box!r}",
                          field=f"units[{i}].box", line=line)
        placements.append(Placement(unit, where_hex, where_box, bool(u.get("hidden", False))))

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
    readings = _table(raw, "readings", w)
    return Scenario(
        id=sid, title=str(head.get("title", sid)), system=str(head.get("system", "generic")),
        seed=seed, sides=tuple(sides), map=mapdata, placements=tuple(placements),
        sequence=sequence, sequence_given="sequence" in raw, calendar=dict(calendar), readings=dict(readings), home_countries=home,
        text=text, file=file,
    )


def _nth_line(w: _Where, pattern: str, n: int) -> int | None:
    line: int | None = 0
    for _ in range(n + 1):
        assert line is not None
        line = w.line_of(pattern, line)
        if line is None:
            return None
    return line


def _parse_map(raw: Mapping[str, Any], w: _Where) -> tuple[Layout, list[Hex], list[str]]:
    if not raw:
        raise w.error("missing [map] table", field="map")
    lay = raw.get("layout", {})
    try:
        layout = Layout(**lay) if isinstance(lay, dict) else Layout()
        layout.to_offset(Hex(0, 0))
        if layout.offset not in ("odd-q", "even-q", "odd-r", "even-r"):
            raise ValueError(f"unknown offset {layout.offset!r}")
        if layout.style not in ("numeric", "letter"):
            raise ValueError(f"unknown label style {layout.style!r}")
    except (TypeError, ValueError) as exc:
        raise w.error(f"bad layout: {exc}", field="map.layout",
                      line=w.line_of(r"^\s*layout\s*=")) from None
    hexes: list[Hex] = []
    terrain: list[str] = []
    if "grid" in raw:
        legend = raw.get("legend", {})
        if not isinstance(legend, dict) or not legend:
            raise w.error("a grid needs a legend of terrain codes", field="map.legend")
        for code, name in legend.items():
            if len(code) != 1:
                raise w.error(f"legend code {code!r} must be one character", field="map.legend")
            try:
                Terrain(name)
            except ValueError:
                known = ", ".join(t.value for t in Terrain)
                raise w.error(f"legend maps {code!r} to unknown terrain {name!r} (known: {known})",
                              field="map.legend", line=w.line_of(rf"{re.escape(code)}")) from None
        grid = raw["grid"]
        if not isinstance(grid, str):
            raise w.error("grid must be a multi-line string", field="map.grid")
        first = w.line_of(r"^\s*grid\s*=") or 0
        rows = [ln.rstrip() for ln in grid.strip("\n").splitlines()]
        for row_i, row in enumerate(rows):
            for col_i, ch in enumerate(row):
                if ch == " ":
                    continue  # no hex here (irregular map edges)
                h = layout.from_offset(col_i, row_i)
                if ch not in legend:
                    raise w.error(
                        f"unknown terrain code {ch!r} (legend has {' '.join(sorted(legend))})",
                        line=first + 1 + row_i, hex=layout.to_label(h))
                hexes.append(h)
                terrain.append(legend[ch])
    for i, entry in enumerate(raw.get("hexes", [])):
        if not isinstance(entry, dict):
            raise w.error("map.hexes entries need hex and terrain", field=f"map.hexes[{i}]")
        label, name = entry.get("hex"), entry.get("terrain")
        line = w.line_of(rf"{re.escape(str(label))}")
        try:
            h = layout.from_label(str(label))
        except InputError as exc:
            raise w.error(exc.reason, field=f"map.hexes[{i}].hex", line=line) from None
        try:
            Terrain(str(name))
        except ValueError:
            raise w.error(f"unknown terrain {name!r}", field=f"map.hexes[{i}].terrain",
                          hex=str(label), line=line) from None
        if h in hexes:
            j = hexes.index(h)
            terrain[j] = str(name)
        else:
            hexes.append(h)
            terrain.append(str(name))
    if not hexes:
        raise w.error("the map has no hexes (give map.grid or map.hexes)", field="map")
    return layout, hexes, terrain


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
    if not p.exists() and not p.suffix:
        shipped = resources.files("grognard.data").joinpath("scenarios", f"{p.name}.toml")
        if shipped.is_file():
            return parse_scenario(shipped.read_text(encoding="utf-8"),
                                  f"grognard/data/scenarios/{p.name}.toml")
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"cannot read scenario: {exc.strerror}", file=str(p)) from None
    return parse_scenario(text, str(p))


def shipped_scenarios() -> list[str]:
    root = resources.files("grognard.data").joinpath("scenarios")
    return sorted(e.name[:-5] for e in root.iterdir() if e.name.endswith(".toml"))
