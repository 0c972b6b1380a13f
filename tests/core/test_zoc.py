"""ZOC fields (C-ZOC; TR-27, EUR-16, EUR-17, SUR-17h) on small hand-drawn maps.

Odd-q layout: in a single row "ccccc" the hexes 0101, 0201, 0301, ... form a line, each
adjacent to the next.
"""

import numpy as np
import pytest

from grognard.core.errors import InputError
from grognard.core.mapgen import map_from_rows
from grognard.core.paths import Forces, Purpose, hex_index
from grognard.core.zoc import ZocRules, europa_revised_zoc, third_reich_zoc, zoc_field


def field(m, units, side="axis", rules=None, **kw):
    hexes = [h for h, _ in units]
    sides = [s for _, s in units]
    f = Forces.build(m, hexes, sides, side_names=["axis", "allies"])
    return zoc_field(m, f, side, rules or third_reich_zoc(), **kw)


def test_tr27_zoc_extends_into_all_six_adjacent_hexes():
    """002 "ZOCs and changes to land movement": all units create ZOCs into the 6 hexes."""
    m = map_from_rows(["ccc", "ccc", "ccc"])
    z = field(m, [("0202", "allies")])
    # column 02 is odd: its side neighbours are rows 2 and 3 of columns 01 and 03
    assert sorted(z.hexes()) == ["0102", "0103", "0201", "0203", "0302", "0303"]
    assert not z.contains(hex_index(m, "0202"))  # not the unit's own hex


@pytest.mark.parametrize("letter", ["s", "m"])
def test_tr27_zoc_not_into_swamp_or_mountain(letter):
    m = map_from_rows(["c" + letter + "c"])
    z = field(m, [("0101", "allies")])
    assert z.hexes() == []
    z_eur = field(m, [("0101", "allies")], rules=europa_revised_zoc())
    assert z_eur.hexes() == ["0201"]  # the rule is 3R's, not Europa's


def test_tr27_zoc_not_into_fortress_but_out_of_it():
    m = map_from_rows(["ccc"], fortress=["0201"])
    assert field(m, [("0101", "allies")]).hexes() == []
    assert field(m, [("0201", "allies")]).hexes() == ["0101", "0301"]


def test_tr27_zoc_extends_out_of_swamp():
    m = map_from_rows(["csc"])
    assert field(m, [("0201", "allies")]).hexes() == ["0101", "0301"]


def test_tr27_zoc_not_across_sea_or_impassable_hexsides_but_across_rivers():
    m = map_from_rows(["cccc"], hexsides={("0101", "0201"): "sea", ("0201", "0301"): "river",
                                          ("0301", "0401"): "impassable"})
    z = field(m, [("0201", "allies"), ("0301", "allies")])
    assert z.hexes() == ["0201", "0301"]  # across the river only, never to 0101 or 0401


def test_tr27_zoc_not_into_sea_hex():
    m = map_from_rows(["c~"])
    assert field(m, [("0101", "allies")]).hexes() == []


def test_tr27_zoc_not_across_border_before_declaration_of_war():
    m = map_from_rows(["ccc"], country={"0101": "germany", "0201": "germany",
                                        "0301": "switzerland"})
    z = field(m, [("0201", "allies")], closed_countries=["switzerland"])
    assert z.hexes() == ["0101"]
    assert field(m, [("0201", "allies")]).hexes() == ["0101", "0301"]  # at war: it does


def test_zoc_unknown_closed_country_raises():
    m = map_from_rows(["cc"])
    with pytest.raises(InputError, match="closed_countries"):
        field(m, [("0101", "allies")], closed_countries=["atlantis"])


def test_tr27_friendly_units_negate_zoc_for_supply_and_retreat_only():
    m = map_from_rows(["ccc"])
    z = field(m, [("0101", "axis"), ("0201", "allies")])
    i = hex_index(m, "0101")
    assert z.contains(i, Purpose.MOVEMENT)
    assert not z.contains(i, Purpose.SUPPLY)
    assert not z.contains(i, Purpose.RETREAT)
    assert z.contains(hex_index(m, "0301"), Purpose.SUPPLY)  # empty hex: not negated


def test_eur16_europa_negation_for_retreat_not_movement():
    m = map_from_rows(["ccc"])
    z = field(m, [("0101", "axis"), ("0201", "allies")], rules=europa_revised_zoc())
    i = hex_index(m, "0101")
    assert not z.contains(i, Purpose.RETREAT)
    assert z.contains(i, Purpose.MOVEMENT)


def test_zoc_negation_is_configured_not_forked():
    m = map_from_rows(["ccc"])
    rules = ZocRules(negated_for=frozenset())
    z = field(m, [("0101", "axis"), ("0201", "allies")], rules=rules)
    assert z.contains(hex_index(m, "0101"), Purpose.SUPPLY)


def test_sur17h_zoc_classes_keep_the_strongest():
    """000 §47.A.5.h: units in enemy ZOCs "equal to or greater than their own class"."""
    m = map_from_rows(["ccccc"])
    f = Forces.build(m, ["0101", "0501", "0301"], ["allies", "allies", "axis"], zoc_class=[1, 3, 1])
    z = zoc_field(m, f, "axis", europa_revised_zoc())
    assert z.strength[hex_index(m, "0201")] == 1
    assert z.strength[hex_index(m, "0401")] == 3
    assert z.hexes(min_class=2) == ["0401"]
    assert z.hexes(min_class=1) == ["0201", "0401"]


def test_zoc_class_zero_exerts_no_zoc():
    m = map_from_rows(["ccc"])
    f = Forces.build(m, ["0201"], ["allies"], zoc_class=[0], side_names=["axis", "allies"])
    assert zoc_field(m, f, "axis", third_reich_zoc()).hexes() == []


def test_zoc_of_own_side_is_ignored():
    m = map_from_rows(["ccc"])
    assert field(m, [("0201", "axis")]).hexes() == []


def test_zoc_field_for_both_sides_is_symmetric_in_shape():
    m = map_from_rows(["cccc"])
    units = [("0101", "axis"), ("0401", "allies")]
    za, zb = field(m, units, "axis"), field(m, units, "allies")
    assert za.hexes() == ["0301"] and zb.hexes() == ["0201"]
    assert np.array_equal(za.enemy, zb.friendly)


def test_zoc_bad_input_raises():
    m = map_from_rows(["ccc"])
    with pytest.raises(InputError, match="not on the map"):
        Forces.build(m, ["0909"], ["axis"])
    with pytest.raises(InputError, match="side"):
        field(m, [("0101", "axis")], side="martians")
    with pytest.raises(InputError, match="zoc_class"):
        Forces.build(m, ["0101"], ["axis"], zoc_class=[-1])
