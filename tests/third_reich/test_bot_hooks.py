"""The 3R facts a bot plans a phase from, behind the rule-system hooks (issue 22 item 3,
third_reich/play/hooks.py): ``Game.build_cost`` (TR-31), ``Game.move_ranges`` (TR-27/TR-28),
``Game.front_of`` (TR-02) and ``Game.attacks_across`` (TR-32), so the bots import no 3R
module. A system without the notion answers "none"."""

from __future__ import annotations

import copy

from grognard.core.hexgrid import distance
from grognard.core.mapdata import HexsideFeature
from grognard.engine.game import Game
from grognard.third_reich.movement.moves import unit_move_ranges


def _to_movement(g: Game) -> None:
    while g.phase.name != "movement":
        g.apply(g.legal(g.active()[0], "end_phase")[0])


def test_tr31_build_cost_is_the_price_list_rate_of_the_units_factors():
    """TR-31 (Updated BRP costs): infantry 1 BRP a factor, armor 2, air 3, a fleet 3 a
    factor; read from the seat's own view; None for what the rules build no counter of."""
    g = Game.new("tr-1939-campaign", seed=0)
    units = g.state["units"]
    rate = {"infantry": 1, "armor": 2, "air": 3, "naval": 3}
    seen = set()
    for uid, u in sorted(units.items()):
        if u["side"] == "axis" and u["type"] in rate and u["type"] not in seen:
            seen.add(u["type"])
            assert g.build_cost("axis", uid) == rate[u["type"]] * int(u["attack"]), uid
    assert seen == set(rate)
    assert g.build_cost("axis", "nobody") is None
    view = copy.deepcopy(g.view("axis"))
    some = next(iter(view["units"]))
    view["units"][some]["type"] = "sw"  # strategic warfare factors are no unit to build
    assert g.build_cost("axis", some, view) is None


def test_tr27_tr28_move_ranges_read_from_the_view_are_the_rules_ranges():
    """The hexes each unit may reach this phase, from the moving seat's view, are the ranges
    the move orders take (the same hexes and costs as from the whole state)."""
    g = Game.new("tr-1939-campaign", seed=0)
    _to_movement(g)
    side = g.phase.player
    uids = sorted(uid for uid, u in g.state["units"].items() if u["side"] == side
                  and u["status"] == "active" and u["hex"] is not None
                  and u["type"] in ("infantry", "armor"))
    seen = g.move_ranges(side, uids)
    g.context.cache.clear()
    whole = unit_move_ranges(g.context, g.state, uids)
    assert set(seen) == set(whole) and len(seen) > 10
    for uid in uids:
        assert seen[uid].hexes.tolist() == whole[uid].hexes.tolist()
        assert seen[uid].cost.tolist() == whole[uid].cost.tolist()
    assert g.move_ranges(side, ["nobody"]) == {}



def test_tr27_move_ranges_from_a_view_with_a_face_down_unit():
    """C-HIDDEN: the Allies' view shows the Axis U-boat of the SW box by its side and place
    only; the ranges read from that view are still the rules' ranges."""
    g = Game.new("tr-1939-two-fronts", seed=5)
    view = g.view("allies")
    assert any(u.get("hidden") and "status" not in u for u in view["units"].values())
    uids = sorted(uid for uid, u in g.state["units"].items() if u["side"] == "allies"
                  and u["status"] == "active" and u["hex"] is not None
                  and u["type"] in ("infantry", "armor"))
    seen = g.move_ranges("allies", uids, view)
    g.context.cache.clear()
    whole = unit_move_ranges(g.context, g.state, uids)
    assert set(seen) == set(whole) and seen
    assert all(seen[u].hexes.tolist() == whole[u].hexes.tolist() for u in uids)


def test_tr02_front_of_a_hex_is_its_region_or_western():
    """TR-02: a hex's front is its map region when that names a front, else western."""
    g = Game.new("tr-1939-campaign", seed=0)
    m = g.scenario.map
    found = {}
    for i in range(m.n):
        found.setdefault(m.region_names[int(m.region[i])], m.label(i))
    assert {"eastern", "southern", "western", ""} <= set(found)
    for region in ("eastern", "southern", "western"):
        assert g.front_of(found[region]) == region
    assert g.front_of(found[""]) == "western"


def test_tr32_no_attack_across_a_sea_lake_or_impassable_hexside():
    """TR-32: a unit attacks an adjacent hex, not across an all-sea, lake or impassable
    hexside, and never a hex farther away."""
    g = Game.new("tr-1939-campaign", seed=0)
    m = g.scenario.map
    block = HexsideFeature.SEA | HexsideFeature.LAKE | HexsideFeature.IMPASSABLE
    blocked = open_ = None
    for i in range(m.n):
        for j in m.neighbor_indices(i):
            f = m.features_between(m.hex(i), m.hex(int(j)))
            if f & block and blocked is None:
                blocked = (m.label(i), m.label(int(j)))
            elif not f and open_ is None:
                open_ = (m.label(i), m.label(int(j)))
        if blocked and open_:
            break
    assert blocked is not None and open_ is not None
    assert not g.attacks_across(*blocked)
    assert g.attacks_across(*open_)
    far = next(m.label(k) for k in range(m.n)
               if distance(m.hex(k), m.hex(m.index_of_label(open_[0]))) == 3)
    assert not g.attacks_across(open_[0], far)


def test_a_system_without_the_notions_answers_none():
    """Europa declares none of these hooks: no build cost, no ranges, no fronts, and no
    hexside the hook forbids (its own rules check each attack)."""
    g = Game.new("demo-europa", seed=7)
    uid = next(iter(g.state["units"]))
    assert g.build_cost("axis", uid) is None
    assert g.move_ranges("axis", [uid]) == {}
    assert g.front_of("0404") is None
    assert g.attacks_across("0404", "0504")
