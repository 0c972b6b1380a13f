"""Shared path machinery (C-HEX): hex references, unit arrays, generated maps, the benchmark."""

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from grognard.core.errors import InputError
from grognard.core.hexgrid import Hex
from grognard.core.mapgen import generate_front, generate_map, map_from_rows
from grognard.core.paths import (
    Forces,
    edge_tables,
    follow,
    hex_index,
    hex_indices,
    interdiction_zone,
    labels,
)


def test_hex_references_by_number_label_and_axial():
    m = map_from_rows(["ccc"])
    assert hex_index(m, 2) == hex_index(m, "0301") == hex_index(m, m.hex(2)) == 2
    assert hex_indices(m, np.array([0, 2])).tolist() == [0, 2]
    assert labels(m, [0, 1]) == ["0101", "0201"]


@pytest.mark.parametrize("ref", [7, -1, "0909", "zz", Hex(40, 40), 1.5, True])
def test_bad_hex_references_raise_naming_the_field(ref):
    m = map_from_rows(["ccc"])
    with pytest.raises(InputError, match="hex"):
        hex_index(m, ref)


def test_unit_off_the_map_raises():
    m = map_from_rows(["ccc"])
    with pytest.raises(InputError, match=r"units.hex\[1\]"):
        Forces.build(m, ["0101", "0505"], ["axis", "axis"])
    with pytest.raises(InputError, match="units.hex"):
        Forces.build(m, np.array([0, 9]), ["axis", "axis"])
    with pytest.raises(InputError, match="units.side"):
        Forces.build(m, ["0101"], ["axis", "allies"])
    with pytest.raises(InputError, match="units.side"):
        Forces.build(m, ["0101"], ["martians"], side_names=["axis"])


def test_unknown_terrain_raises():
    with pytest.raises(InputError, match="terrain"):
        map_from_rows(["cq"])
    with pytest.raises(InputError, match="hexside"):
        map_from_rows(["cc"], hexsides={("0101", "0201"): "lava"})


def test_edge_tables_reverse_edges_match():
    m = generate_map(12, 9, seed=5)
    et = edge_tables(m)
    assert np.array_equal(et.src[et.reverse], m.indices)
    assert np.array_equal(m.indices[et.reverse], et.src)
    assert np.array_equal(m.edge_features[et.reverse], m.edge_features)  # sides are shared


def test_interdiction_zone_is_the_centre_and_its_ring():
    m = map_from_rows(["ccc", "ccc", "ccc"])
    assert interdiction_zone(m, ["0202"]).sum() == 7


def test_follow_stops_at_negative_and_detects_cycles():
    assert follow(np.array([-1, 0, 1]), 2) == [2, 1, 0]
    with pytest.raises(InputError):
        follow(np.array([1, 0]), 0)


def test_generated_maps_are_deterministic():
    a, b = generate_map(30, 20, seed=9), generate_map(30, 20, seed=9)
    assert np.array_equal(a.terrain, b.terrain)
    assert np.array_equal(a.edge_features, b.edge_features)
    sa, sb = generate_front(a, 100, seed=9), generate_front(b, 100, seed=9)
    assert np.array_equal(sa.forces.hex, sb.forces.hex)
    assert len(sa.forces) == 100 and sa.forces.of_side("axis").sum() == 50


def test_bench_paths_quick_smoke(capsys):
    """bench/paths.py --quick --json prints the keys issue 3 asks for (timings not checked)."""
    path = Path(__file__).resolve().parents[2] / "bench" / "paths.py"
    spec = importlib.util.spec_from_file_location("bench_paths", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--quick", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hexes"] == 3600 and out["units"] == 500
    assert out["csgraph_floor_ms"] > 0
    for key in ("zoc", "supply", "movement", "retreat"):
        assert set(out[key]) >= {"grognard_ms", "networkx_ms", "speedup"}
    assert out["peak_rss_mb"] > 0


def test_unknown_terrain_name_in_a_map_raises():
    from grognard.core.mapdata import MapData

    with pytest.raises(InputError, match="map.terrain"):
        MapData.build([Hex(0, 0), Hex(1, 0)], ["clear", "lava"])


def test_generated_big_maps_get_three_digit_labels():
    m = generate_map(120, 3, seed=1)
    last = labels(m, [m.n - 1])[0]
    assert last == "120003" and hex_index(m, last) == m.n - 1


def test_forces_from_units_takes_side_zoc_class_and_id():
    from grognard.core.units import Unit, UnitType

    m = map_from_rows(["ccc"])
    a = Unit("pz", "german", "axis", UnitType.ARMOR, zoc_class=2)
    b = Unit("hq", "soviet", "allies", UnitType.HQ, zoc_class=0)
    f = Forces.from_units(m, [("0101", a), ("0301", b)])
    assert f.ids == ("pz", "hq") and f.zoc_class.tolist() == [2, 0]
    assert f.side_names == ("axis", "allies")
