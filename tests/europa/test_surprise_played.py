"""Issue 13 "Done means": rule 47 played through the engine in ``europa-barbarossa`` (266
divisions on the 16-miles-a-hex map), and in the small ``europa-surprise`` /
``europa-fite-surprise`` scenarios (the same tests, scenario-agnostic).

A local surprise: designation (SUR-05, secret), the lead turn, the start (SUR-04 refund, SUR-12
front, SUR-15 effects roll and "+ # MP" markers), the bonus movement with the SUR-17 limit, the
defender's reaction limited to 5 hexes (SUR-18), bonus combat without normal supply (SUR-20),
the bonus supply judgement (SUR-21) and the normal turn after, where the held unit moves again.
An invasion surprise (SUR-25/26): effects with the invasion modifier, no reaction phase, once
per country.
"""

import pytest

from grognard.core.dice import Dice
from grognard.core.hexgrid import distance
from grognard.engine import generic
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario
from grognard.engine.testing import assert_rejected
from grognard.europa.movement import legal_moves
from grognard.europa.surprise.turn import EFFECTS_STREAM

#: The scenarios played: the local surprise needs a front, the invasion one a country of
#: ``[europa] invasion_countries``.
LOCAL = ["europa-barbarossa", "europa-surprise"]
INVASION = ["europa-barbarossa", "europa-fite-surprise"]
BIG = "europa-barbarossa"



def end(g):
    g.apply(Command("end_phase", g.active()[0]))


def answer(g):
    while g.decisions():
        g.apply(g.legal(g.decisions()[0].player)[0])


def to_phase(g, name, player, turn):
    for _ in range(200):
        if (g.phase.name, g.phase.player, g.turn) == (name, player, turn):
            return
        answer(g)
        end(g)
    raise AssertionError(f"never reached {name} {player} turn {turn}")


def _d(g, a, b):
    lay = g.scenario.map.layout
    return distance(lay.from_label(a), lay.from_label(b))


def _units(g, side):
    return {uid: u for uid, u in g.state["units"].items()
            if u["side"] == side and u["status"] == "active" and u["hex"]}


def _held(g):
    """A German unit next to a Soviet unit of its ZOC class or greater (SUR-17)."""
    sov = _units(g, "soviet")
    for uid, u in sorted(_units(g, "axis").items()):
        if any(_d(g, u["hex"], v["hex"]) == 1 and v["zoc_class"] >= u["zoc_class"]
               for v in sov.values()):
            return uid
    return None


def close_up(g):
    """A German unit moves next to a Soviet unit of its ZOC class or greater (for SUR-17)."""
    sov_units = _units(g, "soviet").values()
    move = next((c for c in g.legal("axis", "move") if any(
        _d(g, c.args["to"], v["hex"]) == 1
        and v["zoc_class"] >= g.state["units"][c.args["unit"]]["zoc_class"]
        for v in sov_units)), None)
    if move is not None:
        g.apply(move)


@pytest.mark.parametrize("scenario", LOCAL)
def test_sur01_sur05_sur15_sur17_sur21_local_surprise_played_through_the_engine(scenario):
    seed = 7
    g = Game.new(scenario, seed=seed)
    to_phase(g, "initial", "axis", 1)
    # the centre: a hex next to the Soviet line, nearest the German units (SUR-07 decides)
    m = g.scenario.map
    sov = [u["hex"] for u in _units(g, "soviet").values()]
    ger = [u["hex"] for u in _units(g, "axis").values()]
    near = {m.label(int(j)) for h in sov for j in m.neighbor_indices(m.index_of_label(h))}
    centres = sorted(near - set(sov), key=lambda h: (min(_d(g, h, a) for a in ger), h))[:40]
    plan = next(c for c in (Command("designate_surprise", "axis", {
        "command": "AGC", "centre": h, "level": 5, "target_turn": 2}) for h in centres)
        if g.can(c))
    rec = g.apply(plan)[0].data["record"]
    assert (rec["lead_turns"], rec["earliest_turn"], rec["srp_spent"]) == (1, 2, 5)
    assert not any(e["type"] == "surprise_planned" for evs in g.events_for("soviet")
                   for e in evs)  # SUR-05: the plan is secret
    assert_rejected(g, Command("start_surprise", "axis", {"command": "AGC"}), "SUR-0")
    # the lead turn: a German unit closes up to a Soviet unit of its ZOC class (for SUR-17)
    to_phase(g, "movement", "axis", 1)
    if _held(g) is None:
        close_up(g)
    to_phase(g, "initial", "axis", 2)
    ev = g.apply(Command("start_surprise", "axis", {"command": "AGC"}))[0]
    eff = ev.data["effects"]
    assert eff["rolls"][0]["die"] == Dice(seed).stream(EFFECTS_STREAM).die(6)
    assert eff["stacks"]
    for st in eff["stacks"]:
        for uid in st["units"]:
            assert g.state["units"][uid].get("mp_markers", 0) == st["markers"]
    front = ev.data["public"]["front"]["hexes"]
    assert len(front) <= 2 * 5 - 1
    end(g)
    assert g.phase.name == "bonus_movement"
    held = _held(g)
    assert held is not None
    blocked = next(c for c in legal_moves(g.context, g.state, "axis")
                   if c.args["unit"] == held)
    assert_rejected(g, blocked, "SUR-17")
    moves = g.legal("axis", "move")
    assert moves and all(c.args["unit"] != held for c in moves)
    mv = g.apply(moves[0])[0]
    assert "SUR-17" in mv.data["rules"]
    end(g)
    assert g.phase.name == "reaction" and g.active() == ("soviet",)
    sov_now = _units(g, "soviet")
    for c in g.legal("soviet", "move"):  # SUR-18: only reserves within 5 hexes react
        assert min(_d(g, sov_now[c.args["unit"]]["hex"], h) for h in front) <= 5
    far = next((c for c in generic.legal_move(g.context, g.state, "soviet")
                if min(_d(g, sov_now[c.args["unit"]]["hex"], h) for h in front) > 5), None)
    if far is not None or scenario == BIG:
        assert_rejected(g, far, "SUR-18")
    # SUR-16: a marked reserve pays its markers' MPs on its move and the markers go
    marked = [c for c in g.legal("soviet", "move")
              if sov_now[c.args["unit"]].get("mp_markers")]
    if marked or scenario == BIG:
        uid = marked[0].args["unit"]
        mv = g.apply(marked[0])[0].data
        assert mv["marker_mp"] > 0 and "SUR-16" in mv["rules"]
        assert g.state["units"][uid]["mp_markers"] == 0
    end(g)
    assert g.phase.name == "bonus_combat"
    attacks = g.legal("axis", "attack")
    if attacks or scenario == BIG:
        ev = g.apply(attacks[0])[0]
        assert ev.data["surprise_supply"]["paid"] in (0, "0")
        answer(g)
    end(g)
    assert g.phase.name == "bonus_supply_air"
    answer(g)
    judged = g.apply(Command("bonus_supply_judgement", "axis", {}))[0].data
    assert {g.state["units"][u]["side"] for u in judged["units_to_judge"]} == {"axis", "soviet"}
    end(g)
    # the normal turn after: the movement phase, where the held unit may move again
    assert (g.phase.name, g.phase.player, g.turn) == ("movement", "axis", 2)
    again = [c for c in legal_moves(g.context, g.state, "axis")
             if c.args["unit"] == held]
    assert again and g.can(again[0])
    # a turn without a surprise: the bonus phases are skipped (SUR-01)
    to_phase(g, "initial", "axis", 3)
    end(g)
    assert g.phase.name == "movement"


@pytest.mark.parametrize("scenario", INVASION)
def test_sur25_sur26_invasion_surprise_played_through_the_engine(scenario):
    # both surprises in one turn: the reading that allows it (test_one_surprise: the default)
    sc = load_scenario(scenario)
    g = Game(sc, 3, readings={**sc.readings, "surprise_after_fite_turn": "both"})
    if g.phase.name == "surprise_movement" and _held(g) is None:
        close_up(g)  # the EUR-44 turn: a border unit steps next to a Soviet unit
    to_phase(g, "initial", "axis", 1)
    offers = g.legal("axis", "start_invasion_surprise")
    assert [c.args["country"] for c in offers] == ["ussr"]
    ev = g.apply(offers[0])[0]
    assert ev.type == "invasion_surprise_started"
    eff = ev.data["effects"]
    assert eff["rolls"][0]["die"] == Dice(3).stream(EFFECTS_STREAM).die(6)
    assert any(m["name"] == "invasion surprise turn" for s in eff["stacks"]
               for m in s["modifiers"])
    assert eff["stacks"]
    for st in eff["stacks"]:  # SUR-15/16: the "+ # MP" markers on the invaded side's stacks
        for uid in st["units"]:
            assert g.state["units"][uid]["side"] == "soviet"
            assert g.state["units"][uid].get("mp_markers", 0) == st["markers"]
    assert any(st["markers"] > 0 for st in eff["stacks"])
    answer(g)
    end(g)
    assert g.phase.name == "bonus_movement"
    held = _held(g)  # SUR-17: a unit in an enemy ZOC of its class may not move in the bonus
    if held is not None or scenario == BIG:
        blocked = next(c for c in legal_moves(g.context, g.state, "axis")
                       if c.args["unit"] == held)
        assert_rejected(g, blocked, "SUR-17")
    moves = g.legal("axis", "move")
    assert moves and all(c.args["unit"] != held for c in moves)
    assert "SUR-17" in g.apply(moves[0])[0].data["rules"]
    seen = [g.phase.name]
    for _ in range(3):  # no reaction phase in an invasion surprise (SUR-18)
        answer(g)
        end(g)
        seen.append(g.phase.name)
    assert seen == ["bonus_movement", "bonus_combat", "bonus_supply_air", "movement"]
    # the normal turn after: the held unit moves again in the regular movement phase
    if held is not None:
        again = [c for c in legal_moves(g.context, g.state, "axis")
                 if c.args["unit"] == held]
        assert again and g.can(again[0])
    to_phase(g, "initial", "axis", 2)
    assert_rejected(g, offers[0], "SUR-25")
    end(g)
    assert g.phase.name == "movement"  # turn 2 has no surprise: no bonus phases
