"""TR-68 land SR path search on a hand-drawn map (with the TR-67 endpoint check)."""

from __future__ import annotations

import numpy as np
import pytest

from grognard.core.errors import InputError
from grognard.core.mapgen import map_from_rows
from grognard.core.paths import Forces, hex_index
from grognard.core.zoc import third_reich_zoc, zoc_field
from grognard.third_reich.movement.sr_land import land_sr_path

M = map_from_rows(["ccccc", "ccccc", "ccccc", "ccccc"])


def field(*units: tuple[str, str]):  # type: ignore[no-untyped-def]
    f = Forces.build(M, [h for h, _ in units], [s for _, s in units])
    return zoc_field(M, f, "axis", third_reich_zoc())


def test_tr68_path_goes_around_enemy_zoc() -> None:
    z = field(("0302", "allies"), ("0101", "axis"))
    got = land_sr_path(M, "0104", "0504", z)
    assert got.ok and got.path == ("0204", "0304", "0404", "0504")
    assert not set(got.path) & set(z.hexes())


def test_tr68_friendly_units_do_not_negate_zoc_for_sr() -> None:
    """002_67ce4e3275b117b3.txt "SRs by land": "free of enemy units and zones of control"
    (TR-27: negation is for supply and retreats only)."""
    corridor = map_from_rows(["ccccc", "..c.."])
    enemy = Forces.build(corridor, ["0302"], ["allies"], side_names=["allies", "axis"])
    zone = [h for h in zoc_field(corridor, enemy, "axis", third_reich_zoc()).hexes()
            if h.endswith("01")]
    assert zone and "0101" not in zone and "0501" not in zone
    # friendly units stand on every corridor hex in enemy ZOC: that negates it for supply
    f = Forces.build(corridor, ["0302", *zone], ["allies"] + ["axis"] * len(zone))
    z = zoc_field(corridor, f, "axis", third_reich_zoc())
    assert not z.mask("supply")[[hex_index(corridor, h) for h in zone]].any()
    # ... but not for SR: the unit may end in the first such hex, never pass through
    assert land_sr_path(corridor, "0101", zone[0], z).ok
    got = land_sr_path(corridor, "0101", "0501", z)
    assert not got.ok and got.rule == "TR-68"


def test_tr67_destination_in_zoc_needs_a_friendly_unit() -> None:
    z = field(("0302", "allies"), ("0101", "axis"))
    got = land_sr_path(M, "0104", "0402", z)
    assert not got.ok and got.rule == "TR-67"


def test_tr68_neutral_or_enemy_home_mask_blocks() -> None:
    z = field(("0101", "axis"))
    forb = np.zeros(M.n, dtype=bool)
    for h in ("0205", "0201", "0202", "0203", "0204"):
        if h in {"0201", "0202", "0203", "0204"}:
            forb[hex_index(M, h)] = True
    got = land_sr_path(M, "0104", "0504", z, forbidden=forb)
    assert not got.ok and got.rule == "TR-68" and got.path == ()
    with pytest.raises(InputError):
        land_sr_path(M, "0104", "0504", z, forbidden=np.zeros(3, dtype=bool))


def test_tr68_air_units_avoid_uncontested_enemy_air_and_end_at_cities() -> None:
    z = field(("0101", "axis"))
    air = np.zeros(M.n, dtype=bool)
    for h in ("0203", "0204", "0202", "0201"):
        air[hex_index(M, h)] = True
    assert land_sr_path(M, "0104", "0504", z).ok
    got = land_sr_path(M, "0104", "0504", z, unit="air", uncontested_enemy_air=air,
                       city_or_airbase=["0504"])
    assert not got.ok and got.rule == "TR-68"
    ok = land_sr_path(M, "0104", "0504", z, unit="air", city_or_airbase=["0504"])
    assert ok.ok
    not_city = land_sr_path(M, "0104", "0504", z, unit="air")
    assert not not_city.ok and not_city.rule == "TR-67"
    # ground units avoid it only when they end in range of enemy air
    assert land_sr_path(M, "0104", "0504", z, uncontested_enemy_air=air).ok
    assert not land_sr_path(M, "0104", "0504", z, uncontested_enemy_air=air,
                            destination_in_enemy_air_range=True).ok


def test_tr68_naval_units_never_sr_by_land() -> None:
    got = land_sr_path(M, "0104", "0504", field(("0101", "axis")), unit="naval")
    assert not got.ok and got.to_json()["reason"] == "naval units never SR by land"
