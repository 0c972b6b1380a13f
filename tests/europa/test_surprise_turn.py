"""Rule 47 played through the engine (issue 13 item 1): a started surprise runs its turn.

A local surprise in ``europa-surprise``: designation, lead turn, start, the effects roll from
its own stream and the "+ # MP" markers (SUR-15), the bonus movement with the SUR-17 limit,
the defender's reaction limited to 5 hexes from the front (SUR-18), bonus combat, the bonus
supply judgement (SUR-21) and the normal turn after; the markers cost MPs (SUR-16). An invasion
surprise in ``europa-fite-surprise`` (SUR-25): no reaction phase, once per country.
"""

from grognard.core.dice import Dice
from grognard.core.hexgrid import distance
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.testing import assert_rejected, assert_replays, end_phase
from grognard.europa.surprise.effects import effects_result, marker_count
from grognard.europa.surprise.turn import EFFECTS_STREAM


def end(g):
    end_phase(g)  # a supply phase's check first (EUR-30)


def to_phase(g, name, player, turn):
    for _ in range(80):
        if (g.phase.name, g.phase.player, g.turn) == (name, player, turn):
            return
        end(g)
    raise AssertionError(f"never reached {name} {player} turn {turn}")


def adjacent(g, a, b):
    m = g.scenario.map
    return distance(m.layout.from_label(a), m.layout.from_label(b)) == 1


def started_local(seed=5):
    g = Game.new("europa-surprise", seed=seed)
    g.apply(Command("designate_surprise", "axis", {"command": "AGC", "centre": "0703",
                                                   "level": 5, "target_turn": 2}))
    # turn 1: the German infantry closes up to a Soviet rifle division (for SUR-17 below)
    to_phase(g, "movement", "axis", 1)
    inf = next(c for c in g.legal("axis", "move") if c.args["unit"] == "de-5inf"
               and adjacent(g, c.args["to"], g.state["units"]["su-112rifle"]["hex"]))
    g.apply(inf)
    to_phase(g, "initial", "axis", 2)
    return g


def test_sur01_sur15_local_surprise_rolls_effects_places_markers_and_opens_bonus_phases():
    g = started_local()
    ev = g.apply(Command("start_surprise", "axis", {"command": "AGC"}))[0]
    eff = ev.data["effects"]
    # SUR-15: one roll for the one defending command, from its own stream
    die = Dice(5).stream(EFFECTS_STREAM).die(6)
    assert eff["rolls"] == [{"command": "soviet", "die": die,
                             "result": effects_result(die).value}]
    for stack in eff["stacks"]:
        assert stack["markers"] == max(0, sum(m["value"] for m in stack["modifiers"]))
        for uid in stack["units"]:
            assert g.state["units"][uid].get("mp_markers", 0) == stack["markers"]
    st = g.state["surprise_turn"]
    assert st["player"] == "axis" and st["turn"] == 2 and st["kind"] == "local"
    assert set(st["front"]) == set(g.view("soviet")["surprise"]["axis"]["AGC"]["front"]["hexes"])
    seen = []
    for _ in range(5):
        while g.decisions():  # SUR-21: the defender's bonus air recovery (none)
            g.apply(Command("bonus_air_recovery", g.decisions()[0].player, {"units": []}))
        end(g)
        seen.append((g.phase.name, g.phase.player))
    assert seen == [("bonus_movement", "axis"), ("reaction", "soviet"),
                    ("bonus_combat", "axis"), ("bonus_supply_air", "axis"),
                    ("movement", "axis")]
    assert_replays(g)


def test_sur15_marker_count_matches_table_2_for_a_stack():
    g = started_local()
    ev = g.apply(Command("start_surprise", "axis", {"command": "AGC"}))[0]
    eff = ev.data["effects"]
    from grognard.europa.surprise.effects import StackMember
    from grognard.europa.surprise.general import Nationality

    stack = eff["stacks"][0]
    result = eff["rolls"][0]["result"]
    m = g.scenario.map
    d = distance(m.layout.from_label(stack["hex"]), m.layout.from_label("0703"))
    expect = marker_count(result, [StackMember(Nationality.SOVIET)] * len(stack["units"]),
                          distance=d, level=5, year=1941, first=True)
    assert stack["markers"] == expect.markers


def test_sur16_sur17_sur18_limits_in_the_bonus_phases():
    g = started_local()
    g.apply(Command("start_surprise", "axis", {"command": "AGC"}))
    to_phase(g, "bonus_movement", "axis", 2)
    # SUR-17 (47.A.5.h): the infantry started next to a rifle division of its own ZOC class
    from grognard.europa.movement import legal_moves

    reachable = next(c for c in legal_moves(g.context, g.state, "axis")
                     if c.args["unit"] == "de-5inf")  # EUR-17 allows it; SUR-17 does not
    assert_rejected(g, reachable, "SUR-17")
    assert all(c.args["unit"] != "de-5inf" for c in g.legal("axis", "move"))
    pz = next(c for c in g.legal("axis", "move") if c.args["unit"] == "de-7pz"
              and adjacent(g, c.args["to"], g.state["units"]["su-112rifle"]["hex"]))
    g.apply(pz)
    end(g)
    assert (g.phase.name, g.active()) == ("reaction", ("soviet",))
    far = [uid for uid, u in g.state["units"].items() if u["side"] == "soviet"
           and min(distance(g.scenario.map.layout.from_label(u["hex"]),
                            g.scenario.map.layout.from_label(h))
                   for h in g.state["surprise_turn"]["front"]) > 5]
    for uid in far:  # SUR-18: only units within 5 hexes of the front react
        assert all(c.args["unit"] != uid for c in g.legal("soviet", "move"))
    marked = [uid for uid, u in g.state["units"].items() if u.get("mp_markers")]
    pz_hex = g.state["units"]["de-7pz"]["hex"]
    moves = [c for c in g.legal("soviet", "move") if c.args["unit"] in marked
             and adjacent(g, c.args["to"], pz_hex)]  # stays in contact: the attack below
    if moves:  # SUR-16: the markers' MPs are paid on the move (on top of its EUR-17 cost)
        from grognard.europa.movement import check_move

        priced = check_move(g.context, g.state, moves[0], None).mp
        ev = g.apply(moves[0])[0].data
        uid = moves[0].args["unit"]
        assert ev["marker_mp"] >= 1 and g.state["units"][uid]["mp_markers"] == 0
        assert ev["mp"] == priced + ev["marker_mp"]
    end(g)
    assert g.phase.name == "bonus_combat"
    attacks = g.legal("axis", "attack")
    assert attacks and all(g.can(c) for c in attacks)
    g.apply(attacks[0])
    while g.decisions():
        d = g.decisions()[0]
        g.apply(g.legal(d.player)[0])
    end(g)
    assert g.phase.name == "bonus_supply_air"
    while g.decisions():  # SUR-21: the defender's own bonus air recovery (here: none)
        g.apply(Command("bonus_air_recovery", g.decisions()[0].player, {"units": []}))
    end(g)
    assert g.phase.name == "movement" and g.turn == 2
    assert_replays(g)


def test_sur25_invasion_surprise_has_no_reaction_phase_and_fires_once():
    # both surprises in one turn: the reading that allows it (test_one_surprise: the default)
    g = Game.new("europa-fite-surprise", seed=4, readings={"surprise_after_fite_turn": "both"})
    to_phase(g, "initial", "axis", 1)
    ev = g.apply(Command("start_invasion_surprise", "axis", {"country": "ussr"}))[0]
    assert ev.type == "invasion_surprise_started" and ev.data["record"]["fires"] is True
    eff = ev.data["effects"]
    assert eff["rolls"][0]["die"] == Dice(4).stream(EFFECTS_STREAM).die(6)
    assert any(m["name"] == "invasion surprise turn" for s in eff["stacks"]
               for m in s["modifiers"])
    seen = []
    for _ in range(4):
        end(g)
        seen.append(g.phase.name)
    assert seen == ["bonus_movement", "bonus_combat", "bonus_supply_air", "movement"]
    to_phase(g, "initial", "axis", 2)
    assert_rejected(g, Command("start_invasion_surprise", "axis", {"country": "ussr"}),
                     "SUR-25.*already suffered")
    assert_rejected(g, Command("start_invasion_surprise", "axis", {"country": "sweden"}),
                     "SUR-25")
    assert_replays(g)


def test_c_hidden_a_surprise_plan_never_shows_in_the_other_sides_log():
    """C-HIDDEN / SUR-05: the plan is secret until it starts (SUR-12: then its front is
    public); the Soviet log holds no surprise_planned event and, of the start, only the
    public part (no orders, sources or candidates)."""
    g = started_local()
    mine = [e for evs in g.events_for("axis") for e in evs]
    theirs = [e for evs in g.events_for("soviet") for e in evs]
    assert any(e["type"] == "surprise_planned" for e in mine)
    assert not any(e["type"] == "surprise_planned" for e in theirs)
    assert '"0703"' not in __import__("json").dumps(theirs)  # the secret centre hex
    g.apply(Command("start_surprise", "axis", {"command": "AGC"}))
    started = g.events_for("soviet", len(g.events) - 1)[0][0]
    assert started["type"] == "surprise_started"
    assert "public" in started["data"] and "orders" not in started["data"]
    assert "candidates" not in started["data"] and "plan" not in started["data"]
