"""The hex map of a scenario as SVG: terrain, rivers, borders, cities by class, labels.

Only the map (public to every seat) is drawn here; counters come from each seat's view and are
drawn by the page's script over the hex centres this module also returns.

>>> from grognard.engine.scenario import load_scenario
>>> svg, centres, box = map_svg(load_scenario("demo-europa"))
>>> svg.count('class="hex '), centres["0805"] == centres["0805"], "Vitebsk" in svg
(96, True, True)
"""

from __future__ import annotations

import math
from html import escape

from grognard.core.mapdata import CityClass, Fortification, HexsideFeature, MapData, Terrain
from grognard.engine.scenario import Scenario

SIZE = 30.0  # hex radius in SVG units

TERRAIN_FILL = {
    Terrain.CLEAR: "#e8e3c4", Terrain.WOODS: "#a9c98a", Terrain.ROUGH: "#c9b48f",
    Terrain.WOODED_ROUGH: "#98ad78", Terrain.FOREST: "#6f9e5b", Terrain.MOUNTAIN: "#a08a6d",
    Terrain.SWAMP: "#9fc2b0", Terrain.MARSH: "#b5d1c0", Terrain.DESERT: "#eedc9a",
    Terrain.STEPPE: "#dfe0a8", Terrain.URBAN: "#c8c0c0", Terrain.GLACIER: "#f4f8fb",
    Terrain.SEA: "#8fb8de", Terrain.LAKE: "#a5c8e6",
}

CITY_STYLE = {  # class -> (shape, fill)
    CityClass.CAPITAL: ("star", "#b00000"),
    CityClass.RED_VICTORY: ("square", "#c00000"),
    CityClass.RED_PORT: ("anchor", "#c00000"),
    CityClass.BLACK_PORT: ("anchor", "#222"),
    CityClass.BLACK_CITY: ("square", "#222"),
    CityClass.MAJOR_CITY: ("big", "#333"),
    CityClass.CITY: ("dot", "#333"),
}


def flat_topped(m: MapData) -> bool:
    return m.layout.offset in ("odd-q", "even-q")


def centre(m: MapData, i: int) -> tuple[float, float]:
    q, r = (int(v) for v in m.hex(i))
    if flat_topped(m):
        return SIZE * 1.5 * q, SIZE * math.sqrt(3) * (r + q / 2)
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


def corners(m: MapData, x: float, y: float) -> str:
    start = 0 if flat_topped(m) else 30
    pts = []
    for k in range(6):
        a = math.radians(start + 60 * k)
        pts.append(f"{x + SIZE * math.cos(a):.1f},{y + SIZE * math.sin(a):.1f}")
    return " ".join(pts)


def _city_mark(shape: str, fill: str, x: float, y: float) -> str:
    if shape == "star":
        pts = []
        for k in range(10):
            rad = 8 if k % 2 == 0 else 3.5
            a = math.radians(-90 + 36 * k)
            pts.append(f"{x + rad * math.cos(a):.1f},{y + rad * math.sin(a):.1f}")
        return f'<polygon points="{" ".join(pts)}" fill="{fill}"/>'
    if shape == "square":
        return f'<rect x="{x - 5:.1f}" y="{y - 5:.1f}" width="10" height="10" fill="{fill}"/>'
    if shape == "anchor":
        return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="none" stroke="{fill}" '
                f'stroke-width="2.5"/><circle cx="{x:.1f}" cy="{y:.1f}" r="1.5" fill="{fill}"/>')
    if shape == "big":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill="{fill}" stroke="#fff"/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{fill}"/>'


def map_svg(sc: Scenario) -> tuple[str, dict[str, tuple[float, float]], tuple[float, ...]]:
    """(the map's SVG group, each hex label's centre, the view box x, y, w, h)."""
    m = sc.map
    cs = {i: centre(m, i) for i in range(m.n)}
    xs = [x for x, _ in cs.values()]
    ys = [y for _, y in cs.values()]
    box = (min(xs) - SIZE * 1.2, min(ys) - SIZE * 1.2,
           max(xs) - min(xs) + SIZE * 2.4, max(ys) - min(ys) + SIZE * 2.4)
    parts = ['<g class="terrain">']
    for i, (x, y) in cs.items():
        t = m.terrain_of(m.hex(i))
        label = m.label(i)
        country = m.country_of(m.hex(i))
        fort = m.fortification_of(m.hex(i))
        title = f"{label} {t.value}" + (f", {country}" if country else "") + (
            f", {fort.value}" if fort is not Fortification.NONE else "")
        parts.append(f'<polygon class="hex t-{t.value}" data-hex="{label}" '
                     f'points="{corners(m, x, y)}" fill="{TERRAIN_FILL.get(t, "#ddd")}">'
                     f'<title>{escape(title)}</title></polygon>')
    parts.append("</g><g class=\"hexsides\">")
    src = m.edge_sources()
    for e in range(len(m.indices)):
        i, j = int(src[e]), int(m.indices[e])
        if i > j:
            continue
        f = HexsideFeature(int(m.edge_features[e]))
        (x1, y1), (x2, y2) = cs[i], cs[j]
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        dx, dy = x2 - x1, y2 - y1
        d = math.hypot(dx, dy) or 1.0
        px, py = -dy / d * SIZE / 2, dx / d * SIZE / 2
        seg = f'x1="{mx - px:.1f}" y1="{my - py:.1f}" x2="{mx + px:.1f}" y2="{my + py:.1f}"'
        border = (f & HexsideFeature.BORDER) or m.country[i] != m.country[j]
        if border:
            parts.append(f'<line class="border" {seg}/>')
        if f & HexsideFeature.MAJOR_RIVER:
            parts.append(f'<line class="river major" {seg}/>')
        elif f & (HexsideFeature.RIVER | HexsideFeature.CANAL):
            parts.append(f'<line class="river" {seg}/>')
        if f & HexsideFeature.IMPASSABLE:
            parts.append(f'<line class="impassable" {seg}/>')
        if f & HexsideFeature.STRAIT:
            parts.append(f'<line class="strait" {seg}/>')
    parts.append('</g><g class="cities">')
    for i, cities in sorted(m.cities.items()):
        x, y = cs[i]
        for c in cities:
            cls = next((k for k in CITY_STYLE if k in c.classes), CityClass.CITY)
            shape, fill = CITY_STYLE[cls]
            parts.append(_city_mark(shape, fill, x, y - SIZE * 0.45))
            parts.append(f'<text class="city-name" x="{x:.1f}" y="{y + SIZE * 0.78:.1f}">'
                         f'{escape(c.name)}</text>')
    parts.append('</g><g class="labels">')
    for i, (x, y) in cs.items():
        parts.append(f'<text class="hex-label" x="{x:.1f}" y="{y - SIZE * 0.62:.1f}">'
                     f'{m.label(i)}</text>')
    parts.append("</g>")
    centres = {m.label(i): (round(x, 1), round(y, 1)) for i, (x, y) in cs.items()}
    return "".join(parts), centres, tuple(round(v, 1) for v in box)
