"""EUR-17 (ZOC movement revisions) in engine moves: +2 MP to leave an enemy ZOC; from ZOC to
ZOC only mechanized units, at +3 in place of the +2; a non-mechanized unit stops on entering
an enemy ZOC (and stays stopped across split moves). Played through Game.apply on a clear map."""

from __future__ import annotations

import pytest

from grognard.core.hexgrid import distance
from grognard.engine import Command, Game
from grognard.engine.testing import assert_rejected, assert_replays, small_game

EUROPA = """
[europa]
last_turn = 2

[calendar]
start = "1941-06-II"
"""


def game(units: list[dict[str, object]]) -> Game:
    return small_game("europa", "\n".join(["." * 10] * 6), [
        {"id": u["id"], "nationality": u["nat"], "side": u["side"], "type": u["type"],
         "attack": 4, "defense": 4, "movement": u["ma"], "re_size": 3, "divisional": True,
         "hex": u["hex"]} for u in units], sections=EUROPA, until=("movement", "axis"))


def hexes(g: Game):
    """A hex H, an enemy hex N next to it, a neighbour of H out of N's ZOC (``free``), a
    neighbour of H inside it (``zoc``), and a hex two steps from H out of it (``back``)."""
    m = g.scenario.map
    lab = m.layout.to_label
    h = m.layout.from_label("0503")
    n = m.layout.from_label("0603")
    near = [x for x in (m.layout.from_label(m.label(int(i)))
                        for i in m.neighbor_indices(m.index_of_label("0503")))]
    free = next(x for x in near if distance(x, n) == 2)
    zoc = next(x for x in near if distance(x, n) == 1)
    return lab(h), lab(n), lab(free), lab(zoc)


def axis(uid: str, type_: str, ma: int, hex_: str) -> dict[str, object]:
    return {"id": uid, "nat": "german", "side": "axis", "type": type_, "ma": ma, "hex": hex_}


def soviet(hex_: str) -> dict[str, object]:
    return {"id": "su-rifle", "nat": "soviet", "side": "soviet", "type": "infantry", "ma": 4,
            "hex": hex_}


def test_eur17_leaving_an_enemy_zoc_costs_two_more_mp():
    g = game([axis("de-inf", "infantry", 6, "0503"), soviet("0603")])
    _, _, free, _ = hexes(g)
    (ev,) = g.apply(Command("move", "axis", {"unit": "de-inf", "to": free}))
    assert ev.data["mp"] == 1 + 2 and ev.data["rules"] == ["EUR-17"]
    assert g.state["units"]["de-inf"]["mp_spent"] == 3
    assert_replays(g)


def test_eur17_non_mechanized_never_moves_zoc_to_zoc():
    g = game([axis("de-inf", "infantry", 6, "0503"), soviet("0603")])
    _, _, _, zoc = hexes(g)
    assert_rejected(g, Command("move", "axis", {"unit": "de-inf", "path": [zoc]}),
                    "EUR-17.*ZOC to ZOC")
    # with ``to`` the cheapest legal path leaves the ZOC first (+2) and enters it again
    (ev,) = g.apply(Command("move", "axis", {"unit": "de-inf", "to": zoc}))
    assert len(ev.data["path"]) == 2 and ev.data["mp"] == 6  # stopped on entering


def test_eur17_too_few_mp_to_go_round_means_no_move_into_the_zoc():
    g = game([axis("de-inf", "infantry", 3, "0503"), soviet("0603")])
    _, _, free, zoc = hexes(g)
    assert_rejected(g, Command("move", "axis", {"unit": "de-inf", "to": zoc}), "EUR-17")
    reach = {c.args["to"] for c in g.legal("axis", "move") if c.args["unit"] == "de-inf"}
    assert free in reach and zoc not in reach


def test_eur17_mechanized_moves_zoc_to_zoc_at_three_mp():
    g = game([axis("de-pz", "armor", 10, "0503"), soviet("0603")])
    _, _, _, zoc = hexes(g)
    (ev,) = g.apply(Command("move", "axis", {"unit": "de-pz", "path": [zoc]}))
    assert ev.data["mp"] == 1 + 3  # +3 replaces the +2 (reading 1)
    assert "EUR-17" in ev.data["rules"]


def test_eur17_non_mechanized_stops_on_entering_an_enemy_zoc():
    g = game([axis("de-inf", "infantry", 6, "0303"), soviet("0603")])
    (ev,) = g.apply(Command("move", "axis", {"unit": "de-inf", "to": "0503"}))
    assert ev.data["mp"] == 6  # all its MPs: it stops there
    assert g.state["units"]["de-inf"]["mp_spent"] == 6
    assert not [c for c in g.legal("axis", "move") if c.args["unit"] == "de-inf"]
    _, _, free, _ = hexes(g)
    assert_rejected(g, Command("move", "axis", {"unit": "de-inf", "to": free}), "MOVE|EUR-17")


@pytest.mark.parametrize("type_, ma", [("infantry", 6), ("armor", 10)])
def test_eur17_moves_away_from_the_enemy_cost_terrain_only(type_, ma):
    g = game([axis("de-x", type_, ma, "0103"), soviet("0903")])
    (ev,) = g.apply(Command("move", "axis", {"unit": "de-x", "to": "0303"}))
    assert ev.data["mp"] == 2 and "rules" not in ev.data


def test_eur17_one_units_range_is_the_graphs_range_on_the_real_map():
    """A single unit's range (the move's verify) searches the whole-map edges built once per
    movement graph; it must give the movement graph's own range exactly: the same hexes, MP
    costs and cheapest paths (ties included), for every ground unit of europa-barbarossa at
    the start, on both sides and in both movement classes."""
    import numpy as np

    from grognard.engine.scenario import load_scenario
    from grognard.europa import movement as mv

    g = Game(load_scenario("europa-barbarossa"), 1)
    ctx, state = g.context, g.state
    seen = set()
    for uid, u in sorted(state["units"].items()):
        if u["hex"] is None or u["status"] != "active" or u["type"] not in mv._GROUND:
            continue
        cls = mv.move_class(u)
        want = mv._graph(ctx, state, u["side"], cls).range(u["hex"], mv.mp_left(u))
        got = mv.unit_range(ctx, state, uid)
        assert got.hexes.tolist() == want.hexes.tolist(), uid
        assert got.cost.tolist() == want.cost.tolist(), uid
        assert got.pred.tolist() == want.pred.tolist(), uid
        assert np.array_equal(got.hexes, want.hexes) and got.mp == want.mp
        seen.add((u["side"], cls))
    assert len(seen) == 4  # both sides, foot and mechanized
