"""``grognard map show ID --png FILE | --svg FILE``: draw a map to check it against an atlas.

ID is a shipped map (``tr-europe``, ``europa-barbarossa``), a shipped scenario or a scenario
file. The drawing shows terrain, lakes and seas, rivers on hexsides, country borders, cities by
class with their names, and the hex labels along the edges.
"""

from __future__ import annotations

import math
from importlib import resources
from pathlib import Path
from typing import Annotated

import numpy as np
import typer

from grognard.core.errors import InputError
from grognard.core.mapdata import TERRAIN_CODES, CityClass, HexsideFeature, MapData
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.engine.terminal import JsonOpt, emit

COLOURS = {
    "clear": "#eef0d8", "woods": "#b9d9a0", "rough": "#d8c8a0", "wooded_rough": "#b8c890",
    "forest": "#8fbf7f", "mountain": "#b89c7c", "swamp": "#a9cfc4", "marsh": "#c2dcd2",
    "desert": "#f1dfa6", "steppe": "#e4e6b8", "urban": "#c8c8c8", "glacier": "#ffffff",
    "sea": "#a9c8e8", "lake": "#8fb8e0",
}
CITY_STYLE = {  # class -> (marker, size, colour), first listed class wins
    CityClass.CAPITAL: ("*", 90, "#c00000"),
    CityClass.RED_VICTORY: ("o", 34, "#d00000"),
    CityClass.RED_PORT: ("s", 30, "#d00000"),
    CityClass.MAJOR_CITY: ("o", 34, "#202020"),
    CityClass.BLACK_PORT: ("s", 18, "#202020"),
    CityClass.BLACK_CITY: ("o", 16, "#202020"),
    CityClass.CITY: ("o", 10, "#303030"),
}


def load_map(name: str) -> MapData:
    """A shipped map by id, else a scenario (shipped name or file) and its map."""
    if resources.files("grognard.data").joinpath("maps", f"{name}.toml").is_file():
        text = (f'[scenario]\nid = "{name}"\nsides = ["a", "b"]\nmap = "{name}"\n')
        return parse_scenario(text, f"grognard/data/maps/{name}.toml").map
    return load_scenario(name).map


def _centres(m: MapData) -> tuple[np.ndarray, np.ndarray]:
    q, r = m.q.astype(float), m.r.astype(float)
    if m.layout.offset.endswith("-r"):
        return math.sqrt(3) * (q + r / 2), -1.5 * r
    return 1.5 * q, -math.sqrt(3) * (r + q / 2)


def draw(m: MapData, path: Path, title: str = "") -> dict[str, int]:
    """Draw ``m`` to ``path`` (.png or .svg); returns what was drawn."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection, PolyCollection

    x, y = _centres(m)
    pointy = m.layout.offset.endswith("-r")
    start = 30 if pointy else 0
    ang = np.radians(start + 60 * np.arange(6))
    polys = np.stack([x[:, None] + np.cos(ang)[None, :], y[:, None] + np.sin(ang)[None, :]],
                     axis=2)
    colours = [COLOURS[TERRAIN_CODES[int(t)].value] for t in m.terrain]
    width_in = max(8.0, (x.max() - x.min()) / 4.2)
    height_in = max(6.0, (y.max() - y.min()) / 4.2)
    fig, ax = plt.subplots(figsize=(width_in, height_in))
    ax.add_collection(PolyCollection(list(polys), facecolors=colours, edgecolors="#ffffff",
                                     linewidths=0.25))
    # hexsides: rivers and borders (each edge once: from the lower index)
    src = m.edge_sources()
    once = src < m.indices
    a, b = src[once], m.indices[once]
    mx, my = (x[a] + x[b]) / 2, (y[a] + y[b]) / 2
    dx, dy = x[b] - x[a], y[b] - y[a]
    norm = np.hypot(dx, dy)
    px, py = -dy / norm * 0.5, dx / norm * 0.5
    seg = np.stack([np.column_stack([mx - px, my - py]), np.column_stack([mx + px, my + py])],
                   axis=1)
    feats = m.edge_features[once]
    country_edge = (m.country[a] != m.country[b]) & (m.country[a] > 0) & (m.country[b] > 0)
    water = np.isin(m.terrain, [TERRAIN_CODES.index(t) for t in TERRAIN_CODES
                                if t.value in ("sea", "lake")])
    coast = water[a] != water[b]
    ax.add_collection(LineCollection(list(seg[coast]), colors="#3060a0", linewidths=0.8))
    ax.add_collection(LineCollection(list(seg[country_edge]), colors="#7a1f6a", linewidths=1.6))
    river = (feats & int(HexsideFeature.RIVER)) > 0
    major = (feats & int(HexsideFeature.MAJOR_RIVER)) > 0
    ax.add_collection(LineCollection(list(seg[river]), colors="#1f5fd0", linewidths=1.3))
    ax.add_collection(LineCollection(list(seg[major]), colors="#0b3aa0", linewidths=2.4))
    # cities
    n_cities = 0
    for i, cities in sorted(m.cities.items()):
        for k, c in enumerate(cities):
            cls = next((cl for cl in CITY_STYLE if cl in c.classes), CityClass.CITY)
            marker, size, colour = CITY_STYLE[cls]
            ax.scatter([x[i]], [y[i] - 0.35 * k], marker=marker, s=size, c=colour, zorder=5,
                       edgecolors="white", linewidths=0.4)
            ax.annotate(c.name, (x[i], y[i] - 0.35 * k), xytext=(3, 2),
                        textcoords="offset points", fontsize=5.5, zorder=6,
                        color=colour if cls in (CityClass.CAPITAL, CityClass.RED_VICTORY,
                                                CityClass.RED_PORT) else "#202020")
            n_cities += 1
    # hex labels: every hex on the first/last row and column, and a sparse grid inside
    cols_rows = [m.layout.to_offset(m.hex(i)) for i in range(m.n)]
    cmin = min(c for c, _ in cols_rows)
    rmin = min(r for _, r in cols_rows)
    for i, (col, row) in enumerate(cols_rows):
        if (col - cmin) % 5 == 0 and (row - rmin) % 5 == 0:
            ax.annotate(m.label(i), (x[i], y[i] + 0.45), ha="center", fontsize=3.5,
                        color="#606060", zorder=4)
    ax.set_xlim(x.min() - 1.2, x.max() + 1.2)
    ax.set_ylim(y.min() - 1.2, y.max() + 1.2)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110 if path.suffix.lower() == ".png" else None)
    plt.close(fig)
    return {"hexes": m.n, "cities": n_cities, "river_hexsides": int(river.sum() + major.sum()),
            "border_hexsides": int(country_edge.sum())}


def register(app: typer.Typer) -> None:
    map_app = typer.Typer(help="Maps: draw a shipped map or a scenario's map.",
                          no_args_is_help=True)

    @map_app.command("show")
    def show(
        name: Annotated[str, typer.Argument(help="Map id (tr-europe), scenario or file.")],
        png: Annotated[Path | None, typer.Option("--png", help="Write a PNG drawing.")] = None,
        svg: Annotated[Path | None, typer.Option("--svg", help="Write an SVG drawing.")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Draw a map: terrain, rivers, borders, cities by class, hex labels."""
        if png is None and svg is None:
            raise InputError("map show", "give --png FILE or --svg FILE")
        m = load_map(name)
        data: dict[str, object] = {"map": name}
        for path in (png, svg):
            if path is not None:
                try:
                    data.update(draw(m, path, name))
                except OSError as exc:
                    raise InputError("map show", f"cannot write {path}: {exc.strerror}") from None
                data.setdefault("files", [])
                data["files"].append(str(path))  # type: ignore[attr-defined]
        emit(data, as_json, lambda c: c.print(
            f"{name}: {data['hexes']} hexes, {data['cities']} cities, "
            f"{data['river_hexsides']} river hexsides -> {', '.join(data['files'])}"))  # type: ignore[arg-type]

    app.add_typer(map_app, name="map")
