"""Issue 22 item 5: the 3R engine's faster paths give the same answers as the plain ones
(TR-68 land areas of the SR lister, the TR-02 idle-phase scan, the position keys)."""

from __future__ import annotations

import re

import msgspec
import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from grognard.core.paths import edge_tables
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.third_reich.combat import proposers as tr_legal
from grognard.third_reich.movement import proposers as tr_moves
from grognard.third_reich.proposals import port_hexes, units_of


def _graph_areas(m, free):
    """The reference: connected components of the free hexes' adjacency graph."""
    et = edge_tables(m)
    a = np.repeat(np.arange(m.n), 6)
    b = et.nbr.ravel()
    keep = (b >= 0) & free[a] & free[np.maximum(b, 0)]
    graph = coo_matrix((np.ones(int(keep.sum()), dtype=np.int8), (a[keep], b[keep])),
                       shape=(m.n, m.n)).tocsr()
    _, labels = connected_components(graph, directed=False)
    return np.where(free, labels, -1)


@pytest.mark.parametrize("name", ["tr-1939-campaign", "demo-third-reich"])
@pytest.mark.parametrize("share", [0.0, 0.3, 0.7, 1.0])
def test_tr68_land_areas_are_the_graph_components(name, share):
    """TR-68: the SR lister's land areas (the graph's rows built straight from the neighbour
    table) are the connected components of the free hexes with the same numbers (areas in
    the order of their lowest hex, so "the lowest numbered free neighbour" of a blocked hex
    is the same area); -1 off the free hexes."""
    m = load_scenario(name).map
    free = np.random.default_rng(7).random(m.n) < share
    got = tr_moves.land_areas(m, free)
    assert got.tolist() == _graph_areas(m, free).tolist()
    assert (got[~free] == -1).all()
    if share == 1.0:  # one connected land mass at least: some area has several hexes
        assert np.bincount(got[got >= 0]).max() > 1


def _campaign(at: dict[str, str]) -> Game:
    """tr-1939-campaign with units moved to the hexes ``at`` names."""
    text = load_scenario("tr-1939-campaign").text
    head, *blocks = text.split("[[units]]")
    for uid, h in at.items():
        blocks = [re.sub(r'hex = "[A-Z]+[0-9]+"', f'hex = "{h}"', b)
                  if f'id = "{uid}"' in b else b for b in blocks]
    return Game(parse_scenario("[[units]]".join([head, *blocks]), "variant.toml"), 1)


def test_tr25_attack_lister_skips_only_attackers_verify_refuses_for_the_war(monkeypatch):
    """TR-25: the attack lister does not try an attacker whose power may not attack the hex
    (a closed country): the attacks listed are those of the lister that tries every adjacent
    attacker (closed_mask all open) - here Italy, not at war with France, beside a French
    unit, and Germany's legal attacks in the west."""
    g = _campaign({"fra-inf60": "S25"})
    for power in ("germany", "italy"):
        g.apply(Command("declare_options", "axis",
                        {"power": power, "options": {"western": "offensive"}}))
    while not (g.phase.name == "combat" and g.phase.player == "axis"):
        g.apply(Command("end_phase", g.phase.player, {}))
    fast = [c.to_json() for c in g.legal("axis", "attack")]
    assert not any(c["args"]["hex"] == "S25" for c in fast)  # Italy: not at war (TR-25)
    g.context.cache.clear()
    monkeypatch.setattr(tr_legal, "closed_mask",
                        lambda ctx, state, power, action: np.zeros(ctx.scenario.map.n, bool))
    assert [c.to_json() for c in g.legal("axis", "attack")] == fast
    assert fast  # Germany has attacks (the phase is not idle)


@pytest.mark.parametrize("player", ["axis", "allies"])
def test_tr70_fleet_and_sea_sr_listed_to_every_friendly_port(player):
    """TR-69/TR-70: the SR lister, which reads the ports' control and air zones only as the
    units need them, lists each fleet in a usable port to every other friendly port outside
    an uncontested enemy air zone, and each ground unit in a sea-zone port to every other
    friendly sea-zone port (the ports' facts asked here directly)."""
    from grognard.third_reich.air_naval.air_state import air_zone_at
    from grognard.third_reich.movement.sea_srs import friendly_port as _friendly_port
    from grognard.third_reich.state import FLEET_TYPES

    g = _campaign({})
    while not (g.phase.name == "strategic_deployment" and g.phase.player == player):
        g.apply(Command("end_phase", g.phase.player, {}))
    ctx, state = g.context, g.state
    listed = list(tr_moves.legal_sr(ctx, state, player))
    friendly = [p for p in port_hexes(ctx) if _friendly_port(ctx, state, p, player)]
    fleet_ports = [p for p in friendly
                   if not air_zone_at(ctx, state, player, p).uncontested_enemy]
    sea_ports = [p for p in friendly if tr_moves._sea_port(ctx, p)]
    fleets = [(uid, u) for uid, u in units_of(state, player, FLEET_TYPES)
              if tr_moves._has_sr(u["power"])]
    want = [(uid, p) for uid, u in fleets if u["hex"] in fleet_ports
            for p in fleet_ports if p != u["hex"]]
    got = [(c.args["unit"], c.args["to"]) for c in listed if c.args.get("kind") == "fleet"]
    assert got == want and want  # each side has a fleet in a home port
    sea = [(c.args["unit"], c.args["to"]) for c in listed if c.args.get("kind") == "sea"]
    for uid, to in sea:
        assert to in sea_ports and to != state["units"][uid]["hex"]
    movers = {uid for uid, _ in sea}
    assert movers  # ground units stand in sea-zone ports
    assert sea == [(uid, p) for uid, u in units_of(state, player) if uid in movers
                   for p in sea_ports if p != u["hex"]]


@pytest.mark.parametrize("action", ["move", "attack", "sr", "supply"])
def test_tr25_closed_mask_of_countries_out_of_the_war_per_hex(action):
    """TR-22/TR-26: the hexes of a conquered minor (Poland) and of France after Vichy are
    judged per hex (the Vichy zone neutral, the rest the Axis's); the mask asks each
    controller once and gives every hex the verdict the hex-by-hex reference gives."""
    from grognard.third_reich import war
    from grognard.third_reich.conquest import diplomacy as dip

    g = _campaign({})
    state = dict(g.state)
    d = war.diplomacy(state)
    state["diplomacy"] = dip.to_json(msgspec.structs.replace(d, out=("poland", "france")))
    m = g.scenario.map
    france = [m.label(h) for h in range(m.n) if m.country_names[int(m.country[h])] == "france"]
    state["campaign"] = {**state["campaign"], "vichy": {"capital": france[0]},
                         "areas": {**state["campaign"].get("areas", {}),
                                   "vichy": france[: len(france) // 2]}}
    d2 = war.diplomacy(state)
    checked = 0
    for power in ("germany", "ussr", "uk", "italy"):
        mask = war.closed_mask(g.context, state, power, action)
        for h in range(m.n):
            name = m.country_names[int(m.country[h])]
            if not name or dip.belligerent_of(d2, name) not in d2.out:
                continue
            b = dip.belligerent_of(d2, name)
            ctl = war._out_controller(state, b, m.label(h))
            assert bool(mask[h]) == (dip.may_enter(d2, power, name, action, ctl) is not None)
            checked += 1
    assert checked > 4 * len(france)  # Poland's hexes and France's, for each power
    zone = set(state["campaign"]["areas"]["vichy"])
    axis_mask = war.closed_mask(g.context, state, "germany", action)
    verdicts = {bool(axis_mask[m.index_of_label(h)]) for h in france if h not in zone}
    assert len(verdicts) == 1  # outside the zone one controller: one verdict


def test_tr38_adjacent_any_looks_up_the_six_neighbours():
    """TR-38/TR-63 contact: ``adjacent_any`` (neighbour-table lookups for map hexes) agrees
    with measuring the hex distance to every other hex, for labels on and off the map."""
    import random

    from grognard.core.hexgrid import distance
    from grognard.third_reich.board import adjacent_any

    m = load_scenario("tr-1939-campaign").map
    labels = [m.label(i) for i in range(m.n)]
    rng = random.Random(5)
    hits = 0
    for _ in range(2000):
        label = rng.choice(labels)
        others = set(rng.sample(labels, rng.choice([0, 1, 3, 40])))
        if rng.random() < 0.4:
            others.add(m.label(int(rng.choice(list(m.neighbor_indices(m.index_of_label(label)))))))
        if rng.random() < 0.1:
            others.add("ZZ999")  # a label that is no hex of the map: measured
        a = m.layout.from_label(label)
        want = any(distance(a, m.layout.from_label(o)) == 1 for o in others)
        assert adjacent_any(m, label, others) is want
        hits += want
    assert 500 < hits < 1500


def test_tr38_attrition_participants_are_the_powers_that_may_act():
    """TR-03/TR-38: the powers taking part in an attrition (the declarations read once) are
    those ``may_act`` admits one by one."""
    from grognard.third_reich import war

    g = _campaign({})
    g.apply(Command("declare_options", "axis",
                    {"power": "germany", "options": {"eastern": "attrition",
                                                     "western": "offensive"}}))
    ctx, state = g.context, g.state
    for side in ("axis", "allies"):
        powers = {str(u.get("power") or "") for u in state["units"].values()
                  if u["side"] == side and u["status"] == "active"} - {""}
        for front in ("eastern", "western", "southern"):
            want = {p for p in powers if war.may_act(ctx, state, side, p, front, True)}
            assert war.attrition_participants(ctx, state, side, front) == want
    assert war.attrition_participants(ctx, state, "axis", "eastern") >= {"germany"}
    assert "germany" not in war.attrition_participants(ctx, state, "axis", "western")


def test_tr02_move_lister_skips_units_verify_refuses_whatever_their_path():
    """TR-02/TR-03: in the mechanized movement phase the move lister does not range a unit
    on a front without its side's offensive option (verify refuses all its moves); the legal
    moves are those of the full listing that verify passes."""
    from grognard.core.errors import GrognardError

    g = _campaign({})
    g.apply(Command("declare_options", "axis",
                    {"power": "germany", "options": {"western": "offensive",
                                                     "eastern": "pass"}}))
    while not (g.phase.name == "mech_movement" and g.phase.player == "axis"):
        g.apply(Command("end_phase", g.phase.player, {}))
    ctx, state = g.context, g.state
    verify = g.system.commands["move"].verify

    def passes(c: Command) -> bool:
        try:
            verify(ctx, state, c)
        except GrognardError:
            return False
        return True

    fast = list(tr_moves.legal_move(ctx, state, "axis"))
    full = list(tr_moves.legal_move(ctx, state, "axis", skip_refused=False))
    assert len(fast) < len(full)  # eastern armour is not ranged
    assert [c.to_json() for c in fast if passes(c)] == [c.to_json() for c in full if passes(c)]
    assert any(passes(c) for c in fast)  # western armour moves


def test_tr29_air_bases_kept_while_the_control_is_the_same():
    """TR-29: the air bases (controlled cities) are kept across positions while the cities'
    control is the same, and made again when a city changes hands."""
    from grognard.third_reich.air_naval.air_state import _bases, bases

    g = _campaign({})
    ctx, state = g.context, g.state
    first = bases(ctx, state)
    assert first == _bases(ctx, state)
    other = {**state, "phase": 3}  # another position, the same control
    assert bases(ctx, other) is first
    city, side = next(iter(state["control"].items()))
    flipped = {**state, "control": {**state["control"],
                                    city: "allies" if side == "axis" else "axis"}}
    again = bases(ctx, flipped)
    assert again is not first and again == _bases(ctx, flipped) and again != first


def test_tr63_stacking_limit_without_bridgeheads_and_with_one():
    """TR-28/TR-63: 2 units a hex with no bridgehead anywhere (read without parsing), 4 in a
    bridgehead hex, 2 beside it; a malformed bridgehead record is still refused."""
    from grognard.core.errors import InputError
    from grognard.third_reich.board import hex_stacking_limit

    assert hex_stacking_limit({"bridgehead_owners": {}}, "K27") == 2
    assert hex_stacking_limit({}, "K27") == 2
    heads = {"bridgehead_owners": {"uk": ["K27"]}}
    assert hex_stacking_limit(heads, "K27") == 4
    assert hex_stacking_limit(heads, "K28") == 2
    with pytest.raises(InputError):
        hex_stacking_limit({"bridgehead_owners": []}, "K27")
