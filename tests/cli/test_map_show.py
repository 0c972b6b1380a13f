"""``grognard map show ID --png/--svg`` draws a map (docs/MAPS.md)."""

from __future__ import annotations

import json

from grognard.cli import main


def test_map_show_png_and_svg(tmp_path, capsys) -> None:
    png, svg = tmp_path / "m.png", tmp_path / "m.svg"
    assert main(["map", "show", "tr-europe", "--png", str(png), "--svg", str(svg),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hexes"] > 2000 and data["cities"] > 100 and data["river_hexsides"] > 100
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert svg.read_text().lstrip().startswith("<?xml")
    assert data["files"] == [str(png), str(svg)]


def test_map_show_a_scenario_map(tmp_path) -> None:
    out = tmp_path / "s.png"
    assert main(["map", "show", "europa-surprise", "--png", str(out)]) == 0
    assert out.stat().st_size > 1000


def test_map_show_needs_a_file_and_a_known_map(tmp_path, capsys) -> None:
    assert main(["map", "show", "tr-europe"]) == 2
    assert "--png" in capsys.readouterr().err
    assert main(["map", "show", "no-such-map", "--png", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "no-such-map" in err and "Traceback" not in err
