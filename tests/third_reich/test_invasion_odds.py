"""TR-32 for invasions (TR-61): an invasion is declared only at 1-2 or better, counting every
landing unit and the invasion support; one that the interception leaves below 1-2 is called
off. Found by the 1,000-game fuzz of tr-1939-invasion (seed 1615): the Allies invaded F11 at
3-7; the engine owed the Axis an interception decision that no answer could settle (the
order's own execution refused every one), a dead end. The data file is that game up to the
invasion (its last order); issue 23's war state refused 11 of its earlier orders (the Germans'
second declaration on the USSR, a move and SRs through country not at war...), dropped; the
per-power mechanised movement and own-option air missions (issue 23) left Allied phases idle,
so 9 orders that no longer fit the phases (a move, builds, end_phases) are dropped too."""

from __future__ import annotations

import json
from pathlib import Path

from grognard.engine import Game
from grognard.engine.commands import Command
from grognard.engine.fuzz import play
from grognard.engine.scenario import load_scenario
from grognard.engine.testing import assert_rejected

DATA = Path(__file__).parent / "data" / "fuzz_invasion_below_odds.json"


def _before_the_invasion() -> tuple[Game, Command]:
    raw = json.loads(DATA.read_text())
    cmds = [Command(c["kind"], c["player"], c["args"]) for c in raw["commands"]]
    g = Game.replay(load_scenario(raw["scenario"]), raw["seed"], cmds[:-1])
    return g, cmds[-1]


def test_tr32_an_invasion_below_1_2_is_refused_when_declared():
    g, invade = _before_the_invasion()
    assert invade.kind == "invade" and invade.args["beach"] == "F11"
    assert_rejected(g, invade, "TR-32.*3/7.*1-2")
    assert not g.state.get("pending_reaction")
    assert all(c.args.get("beach") != "F11" or c.args != invade.args
               for c in g.legal("allies", "invade"))


def test_tr61_the_fuzzed_game_no_longer_dead_ends():
    run = play(load_scenario("tr-1939-invasion"), 1615, 615, 200)
    assert run.failures == []


def test_tr32_an_invasion_left_below_1_2_by_the_interception_is_called_off(monkeypatch):
    """Verify counted every unit and fleet (1-2 or better); if the interception leaves the
    landing below 1-2 the resolution refuses the attack (TR-32), and the engine calls the
    invasion off: no combat, nobody lost, the landing unit stays where it embarked."""
    import grognard.third_reich.combat.invasion as amph
    from grognard.core.errors import IllegalOrder
    from grognard.third_reich.play.testing import play_order

    real = amph.resolve_invasion

    def after_interception(plan, defenders, roll, fleets_after=None, *a, **k):
        if fleets_after is not None:  # execute, after the interception (verify passes None)
            raise IllegalOrder("TR-32", "odds 1/3 are below the lowest declarable odds 1-2")
        return real(plan, defenders, roll, fleets_after, *a, **k)

    monkeypatch.setattr(amph, "resolve_invasion", after_interception)
    g = Game.new("tr-1939-invasion", seed=3)
    g.apply(Command("declare_options", "axis",
                    {"power": "germany", "options": {"western": "offensive"}}))
    while g.phase.name != "movement":
        g.apply(Command("end_phase", "axis"))
    start = g.state["units"]["ge-inf5"]["hex"]
    (ev,) = play_order(g, Command("invade", "axis", {
        "beach": "F3", "groups": [{"hex": "G3", "zone": "north_sea", "fleets": ["ge-fleet2"],
                                   "cargo": {"ge-fleet2": ["ge-inf5"]}}]}))
    assert ev.data["called_off"] is True
    assert ev.data["eliminated"] == [] and ev.data["advanced"] == []
    assert g.state["units"]["ge-inf5"]["hex"] == start
    assert g.state["units"]["fr-inf9"]["hex"] == "F3"


def test_a_reaction_is_owed_only_for_an_order_the_defender_can_answer():
    """The referee's guard against this kind of dead end: before the defender is asked to
    react, the order is carried out on scratch dice with no reaction; if that fails, the order
    is refused with its reason instead of waiting for an answer none could give."""
    from grognard.core.dice import Dice
    from grognard.core.errors import IllegalOrder
    from grognard.engine.commands import CommandSpec
    from grognard.third_reich.reactions import reacting

    g = Game.new("tr-1939-invasion", seed=3)
    g.apply(Command("declare_options", "axis",
                    {"power": "germany", "options": {"western": "offensive"}}))
    while g.phase.name != "movement":
        g.apply(Command("end_phase", "axis"))
    order = Command("invade", "axis", {
        "beach": "F4", "groups": [{"hex": "G4", "zone": "north_sea", "fleets": ["ge-fleet2"],
                                   "cargo": {"ge-fleet2": ["ge-inf5"]}}]})

    def refuses(ctx, state, cmd, dice):
        raise IllegalOrder("TR-61", "this order cannot be carried out")

    def fine(ctx, state, cmd, dice):
        return []

    answerable = reacting(CommandSpec("invade", lambda c, s, cmd: None, fine))
    (ev,) = answerable.execute(g.context, g.state, order, Dice(1))
    assert ev.type == "reaction_owed" and ev.data["defender"] == "allies"
    stuck = reacting(CommandSpec("invade", lambda c, s, cmd: None, refuses))
    try:
        stuck.execute(g.context, g.state, order, Dice(1))
    except IllegalOrder as exc:
        assert exc.rule == "TR-61"
    else:
        raise AssertionError("an order no reaction could settle was not refused")


def test_tr45_tr49_fight_rules_name_what_took_effect():
    from grognard.third_reich.air_naval.support_fight import fight_rules

    assert fight_rules([]) == []
    assert fight_rules([], air_interception=True) == ["TR-45"]
    assert fight_rules([{"step": "AirToAir"}, {"step": "NavalNaval"}]) == [
        "TR-46", "TR-48", "TR-49"]
    assert fight_rules([{"step": "AirNaval"}], True) == ["TR-45", "TR-47", "TR-49"]
