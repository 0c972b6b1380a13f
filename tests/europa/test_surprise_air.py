"""Rule 47's air, supply and planning steps played through the engine (issue 13).

``europa-surprise`` carries air units on airbase hexes (``[europa.air_units]``): in a started
local surprise the Axis bombs a Soviet airbase in the bonus movement phase (SUR-22/SUR-24: one
die from ``europa.surprise.airbase``, the Table 3 modifiers, the affected count, the status
ladder), bonus combat pays no normal supply (SUR-20), and the bonus supply/air phase re-judges
supply within the front and lets both sides restore air units (SUR-21, the defender as a
decision). Reduced planning (SUR-06) is offered to players and forfeits the start refund.
"""

from grognard.core.dice import Dice
from grognard.core.hexgrid import distance
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.testing import assert_rejected, assert_replays, end_phase
from grognard.europa.surprise.air_turn import AIRBASE_STREAM
from grognard.europa.surprise.airbase import affected_count


def end(g):
    end_phase(g)  # a supply phase's check first (EUR-30)


def to_phase(g, name, player, turn):
    for _ in range(80):
        if (g.phase.name, g.phase.player, g.turn) == (name, player, turn):
            return
        end(g)
    raise AssertionError(f"never reached {name} {player} turn {turn}")


def started(seed=5):
    """A level-5 local surprise designated on turn 1 for turn 2 and started (SUR-05, SUR-12)."""
    g = Game.new("europa-surprise", seed=seed)
    g.apply(Command("designate_surprise", "axis", {"command": "AGC", "centre": "0703",
                                                   "level": 5, "target_turn": 2}))
    to_phase(g, "initial", "axis", 2)
    g.apply(Command("start_surprise", "axis", {"command": "AGC"}))
    return g


def test_sur22_sur24_airbase_surprise_in_the_bonus_movement_phase():
    g = started()
    to_phase(g, "bonus_movement", "axis", 2)
    cmds = g.legal("axis", "airbase_surprise")
    assert cmds and all(g.can(c) for c in cmds)
    cmd = next(c for c in cmds if c.args["base"] == "1004")
    before = {k: v["status"] for k, v in g.state["air_units"].items()}
    ev = g.apply(cmd)[0]
    d = ev.data
    assert ev.type == "airbase_surprise_resolved" and "SUR-22" in d["rules"]
    assert d["die"] == Dice(5).stream(AIRBASE_STREAM).die(6)
    # SUR-24 Table 3: Soviet air units before 1 Jun 42 (+1), in the surprise phase (+1)
    (soviet,) = d["nations"]
    assert soviet["modifier"] == 2 and soviet["modified_roll"] == d["die"] + 2
    names = {m["name"] for m in d["modifiers"]["soviet"]}
    assert len(names) == 2
    # SUR-22: affected = attackers + markers on the base - CAP, at most the units present
    markers = max((u.get("mp_markers", 0) for u in g.state["units"].values()
                   if u["hex"] == "1004" and u["side"] == "soviet"), default=0)
    assert d["markers"] == markers
    present = [k for k, a in g.state["air_units"].items() if a["base"] == "1004"]
    assert len(soviet["affected_ids"]) == affected_count(len(d["attackers"]), markers, 0,
                                                         len(present))
    for u in soviet["units"]:
        assert before[u["id"]] == u["before"]
        assert g.state["air_units"][u["id"]]["status"] == u["after"]
        if not u["affected"]:
            assert u["after"] == u["before"]
    # each air unit flies once a turn
    assert_rejected(g, cmd, "SUR-22")
    assert g.state["surprise_turn"]["air_used"] == sorted(d["attackers"])
    assert_replays(g)


def test_sur22_no_airbase_surprise_outside_a_surprise_turn():
    g = Game.new("europa-surprise", seed=3)
    to_phase(g, "air", "axis", 1)
    assert g.legal("axis", "airbase_surprise") == []
    assert_rejected(g, Command("airbase_surprise", "axis",
                               {"base": "1004", "attackers": ["de-kg53"]}), "SUR-22")


def close_up(g):
    """In the bonus movement phase the panzers close up to a Soviet rifle division."""
    m = g.scenario.map
    target = m.layout.from_label(g.state["units"]["su-112rifle"]["hex"])
    g.apply(next(c for c in g.legal("axis", "move") if c.args["unit"] == "de-7pz"
                 and distance(m.layout.from_label(c.args["to"]), target) == 1))


def test_sur20_bonus_combat_pays_no_normal_supply():
    g = started()
    to_phase(g, "bonus_movement", "axis", 2)
    close_up(g)
    to_phase(g, "bonus_combat", "axis", 2)
    attacks = g.legal("axis", "attack")
    assert attacks
    ev = g.apply(attacks[0])[0]
    sup = ev.data["surprise_supply"]
    divisions = sum(1 for u in ev.data["attackers"] if g.scenario.unit(u).divisional)
    assert sup == {"normal": str(divisions), "paid": "0"} or \
        sup == {"normal": divisions, "paid": 0}
    assert "SUR-20" in ev.data["rules"]


def _answer(g):
    while g.decisions():
        d = g.decisions()[0]
        g.apply(g.legal(d.player)[0])


def test_sur21_bonus_supply_judgement_and_air_recovery():
    g = started()
    to_phase(g, "bonus_movement", "axis", 2)
    g.apply(next(c for c in g.legal("axis", "airbase_surprise") if c.args["base"] == "1004"))
    close_up(g)
    to_phase(g, "bonus_combat", "axis", 2)
    g.apply(g.legal("axis", "attack")[0])
    _answer(g)
    end(g)
    assert g.phase.name == "bonus_supply_air"
    hurt = [k for k, a in g.state["air_units"].items()
            if a["side"] == "soviet" and a["status"] != "operative"]
    decisions = g.decisions()
    # the defender owes its recovery choice when it has air units to restore
    assert [d.player for d in decisions] == (["soviet"] if hurt else [])
    if hurt:
        assert_rejected(g, Command("end_phase", "axis", {}), "SUR-21")
        opts = g.legal("soviet")
        assert {"units": []} in [c.args for c in opts]
        pick = next(c for c in opts if c.args["units"])
        ev = g.apply(pick)[0]
        # 1 SP per 3 units (rounded up) for the non-phasing player
        assert ev.data["sp_cost"] == -(-len(pick.args["units"]) // 3)
        for r in ev.data["restored"]:
            assert g.state["air_units"][r["id"]]["status"] == r["to"]
        assert g.decisions() == []
    # the phasing player: up to the air units it used in the surprise turn (one bomber)
    assert_rejected(g, Command("bonus_air_recovery", "axis",
                               {"units": ["de-jg51", "de-stg2"]}), "SUR-21")
    ev = g.apply(Command("bonus_air_recovery", "axis", {"units": ["de-jg51"]}))[0]
    assert ev.data["restored"] == [{"id": "de-jg51", "from": "inoperative", "to": "operative"}]
    assert ev.data["sp_cost"] == 0
    # supply judged for both sides' units within the surprise front
    ev = g.apply(Command("bonus_supply_judgement", "axis", {}))[0]
    judged = ev.data["units_to_judge"]
    sides = {g.state["units"][u]["side"] for u in judged}
    assert sides == {"axis", "soviet"}
    m = g.scenario.map
    front = [m.layout.from_label(h) for h in g.state["surprise_turn"]["front"]]
    for u in judged:
        here = m.layout.from_label(g.state["units"][u]["hex"])
        assert min(distance(here, f) for f in front) <= 1
        want = "in" if ev.data["in_supply"][u] else "out"
        assert g.state["units"][u]["supply"] == want
    assert_rejected(g, Command("bonus_supply_judgement", "axis", {}), "SUR-21")
    end(g)
    assert g.phase.name == "movement"
    assert_replays(g)


def test_sur06_reduced_planning_is_offered_and_forfeits_the_refund():
    g = Game.new("europa-surprise", seed=2)
    to_phase(g, "movement", "axis", 1)
    close_up(g)
    to_phase(g, "initial", "axis", 2)
    offers = [c for c in g.legal("axis", "designate_surprise")
              if c.args.get("reduced_planning")]
    assert offers and all(c.args["target_turn"] == 2 for c in offers)
    cmd = next(c for c in offers if c.args["level"] == 5)
    ev = g.apply(cmd)[0]
    assert "SUR-06" in ev.data["rules"]
    start = g.legal("axis", "start_surprise")
    assert start  # the same turn: the lead of 1 halved to 0 (SUR-TV04)
    ev = g.apply(start[0])[0]
    assert "SUR-06" in ev.data["rules"]
    assert ev.data["record"]["srp_refund"] in (0, "0")
    assert ev.data["record"]["sp_refund"] in (0, "0")
