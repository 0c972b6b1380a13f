"""The europa system under the referee (issue 11): decisions owed to the right player, legal
commands that all pass verify and cover what verify accepts, random play to the last turn.

Property tests walk random games of every shipped Europa scenario: at each visited position
every enumerated command passes ``Game.can``, and random candidate commands (moves to any hex,
attacks with any subset of adjacent units, allocations in any order, retreats along any walk)
that pass verify are found in the enumeration.
"""

import functools
import itertools
import random

import pytest

from grognard.core.errors import GrognardError
from grognard.engine.commands import Command
from grognard.engine.fuzz import choose
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario, parse_scenario, shipped_scenarios
from grognard.engine.testing import assert_rejected
from grognard.europa.board import turn_label

#: enumerated commands verified per position (all of them below this many)
CHECK_AT_MOST = 200
SCENARIOS = sorted(s for s in shipped_scenarios() if s.startswith(("europa", "demo-europa")))

POCKET = """
[scenario]
id = "t-pocket"
title = "test pocket"
system = "europa"
sides = ["axis", "soviet"]
seed = 1

[map]
layout = { offset = "odd-q", style = "numeric", origin = 1 }
legend = { "." = "clear" }
grid = \"\"\"
....
....
....
\"\"\"
"""


def unit(uid, side, hex_, attack=4, defense=6):
    return (f'[[units]]\nid = "{uid}"\nname = "{uid}"\nnationality = "{side}"\n'
            f'side = "{side}"\ntype = "infantry"\nattack = {attack}\ndefense = {defense}\n'
            f'movement = 4\nre_size = 3\ndivisional = true\nhex = "{hex_}"\n')


@functools.cache
def _scenario(name):
    """A shipped scenario, parsed once (the Barbarossa file takes half a second)."""
    return load_scenario(name)


def random_game(scenario, seed, steps):
    """A game after ``steps`` random legal commands (or fewer if it ends), drawn by sampling
    (``fuzz.choose``: a kind, then one of its legal commands) so a 266-division map never
    lists every move at every step."""
    g = Game(_scenario(scenario), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.over:
            break
        cmd = choose(g, rng)
        assert cmd is not None, f"dead end: {g.status()}"
        g.apply(cmd)
    return g, rng


def candidates(g, player, rng):
    """Random commands of the allowed kinds, legal or not."""
    m = g.scenario.map
    labels = [m.label(i) for i in range(m.n)]
    units = g.state["units"]
    mine = [uid for uid, u in units.items() if u["side"] == player and u["hex"]]
    out = []
    allowed = g.allowed(player)
    for _ in range(30):
        if "move" in allowed and mine:
            out.append(Command("move", player, {"unit": rng.choice(mine),
                                                "to": rng.choice(labels)}))
        if "attack" in allowed and mine:
            k = rng.randint(1, min(3, len(mine)))
            out.append(Command("attack", player, {"attackers": rng.sample(mine, k),
                                                  "defender_hex": rng.choice(labels)}))
        pending = g.state["combat"]["pending"]
        if "allocate_losses" in allowed and pending:
            for req in pending["requirements"]:
                pool = req["units"] * 2
                out.append(Command("allocate_losses", player, {
                    "side": req["side"],
                    "units": rng.sample(pool, rng.randint(1, min(4, len(pool))))}))
        if "retreat" in allowed and pending and pending["retreats"]:
            ids = pending["retreats"][0]["units"]
            start = units[ids[0]]["hex"]
            a = rng.choice(list(m.neighbor_indices(m.index_of_label(start))))
            b = rng.choice(list(m.neighbor_indices(int(a))))
            path = [m.label(int(a)), m.label(int(b))][:pending["retreats"][0]["hexes"]]
            out.append(Command("retreat", player, {"units": ids, "path": path}))
        if "advance" in allowed and pending and "advance" in pending:
            adv = pending["advance"]["units"]
            out.append(Command("advance", player, {
                "units": rng.sample(adv, rng.randint(0, len(adv)))}))
    return out


def covered(cmd, legal):
    """``cmd`` is among the enumerated commands (attacks: a subset of one hex's attackers;
    retreats: the same units and path, whatever the penalty picks)."""
    for c in legal:
        if c.kind != cmd.kind:
            continue
        if cmd.kind == "attack":
            if (c.args["defender_hex"] == cmd.args["defender_hex"]
                    and set(cmd.args["attackers"]) <= set(c.args["attackers"])):
                return True
        elif cmd.kind == "retreat":
            if (sorted(c.args["units"]) == sorted(cmd.args["units"])
                    and c.args["path"] == cmd.args["path"]):
                return True
        elif cmd.kind == "advance":
            if sorted(c.args["units"]) == sorted(cmd.args["units"]):
                return True
        elif dict(c.args) == dict(cmd.args):
            return True
    return False


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_enumerated_command_passes_verify_and_covers_verified_candidates(scenario):
    """Issue 11 legal actions: complete and sound on random positions of every scenario
    (one random game per seed, checked after 0, 5, 15, 25, 40, 60, 90 and 150 commands)."""
    checked = 0
    for seed in range(3):
        g, rng = random_game(scenario, seed, 0)
        for steps in (0, 5, 15, 25, 40, 60, 90, 150):
            while len(g.commands) < steps and not g.over:
                g.apply(choose(g, rng))
            if g.over:
                break
            for player in g.active():
                legal = g.legal(player)
                assert legal, f"{scenario} seed {seed}: no legal command for {player}"
                assert not g.unenumerated(player) or all(
                    k in {"roll_table", "air_mission", "fighter_sweep", "intercept",
                          "interdiction", "airbase_attack", "strategic_bombing",
                          "airbase_repair"} for k in g.unenumerated(player))
                # on a 266-division map thousands of moves: verify a random sample of them
                for c in legal if len(legal) <= CHECK_AT_MOST else rng.sample(legal,
                                                                              CHECK_AT_MOST):
                    assert g.can(c), f"{scenario}: enumerated {c} refused"
                    checked += 1
                for c in candidates(g, player, rng):
                    if g.can(c):
                        assert covered(c, legal), f"{scenario}: {c} verified, not enumerated"
    assert checked > 50


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_random_play_reaches_the_last_turn_without_a_dead_end(scenario):
    """Random legal play ends (``[europa] last_turn``): no dead end, no refused command, and
    the game replays to the same hash."""
    for seed in range(1):
        g, _ = random_game(scenario, seed, 5000)
        assert g.over and g.result["reason"] == "last turn"
        assert g.active() == () and "over" in g.prompt("axis")
        again = Game.replay(g.scenario, g.seed, g.commands, g.events)
        assert again.state_hash() == g.state_hash()


def first_combat_with_a_choice(scenario="europa-surprise"):
    """A europa-surprise game where an attack leaves the defender a real choice owed."""
    for seed in range(200):
        g, rng = random_game(scenario, seed, 0)
        for _ in range(120):
            player = g.active()[0]
            cmd = (g.sample(player, "attack", rng) or g.sample(player, "overrun", rng)
                   or choose(g, rng))
            g.apply(cmd)
            pending = g.state["combat"]["pending"]
            if pending is not None and cmd.kind == "attack" and any(
                    d.player != player for d in g.decisions()):
                return g, player
            if g.over:
                break
    raise AssertionError("no combat with a defender's choice")


def test_eur12_eur15_a_phase_cannot_end_while_the_defenders_choice_is_owed():
    """Issue 11's example: ``attack`` then ``end_phase`` x9 left a D1 owed. Now the defender
    owes the allocation or retreat, only the defender acts, and end_phase is refused."""
    g, attacker = first_combat_with_a_choice()
    defender = next(s for s in g.scenario.sides if s != attacker)
    phase = g.state["phase"]
    assert defender in g.active() or any(d.player == defender for d in g.decisions())
    for _ in range(9):
        assert_rejected(g, Command("end_phase", attacker), "EUR-1[2-6]")
    assert g.state["phase"] == phase
    owed = next(d for d in g.decisions() if d.player == defender)
    assert owed.kinds <= {"allocate_losses", "retreat"}
    assert owed.rule in ("EUR-12", "EUR-15") and defender.title() in g.prompt(defender)
    for c in g.legal(defender):
        assert c.kind in owed.kinds and g.can(c)


def test_eur15_a_stack_that_cannot_retreat_is_eliminated_by_the_engine():
    """EUR-15 (original Europa): with no legal retreat path the retreat is a single forced
    choice: the engine eliminates the stack in the same command and logs it."""
    g = Game(parse_scenario(POCKET + "\n".join([
        unit("de-b", "axis", "0102", attack=12), unit("de-c", "axis", "0201", attack=12),
        unit("su-p", "soviet", "0101")])), 1)
    while g.phase.name != "combat":
        g.apply(Command("end_phase", "axis"))
    for seed in range(40):
        h = Game(g.scenario, seed)
        for c in g.commands:
            h.apply(c)
        events = h.apply(Command("attack", "axis", {"attackers": ["de-b", "de-c"],
                                                     "defender_hex": "0101"}))
        if events[0].data["result"] == "DR":
            forced = events[1]
            assert forced.type == "units_retreated" and forced.data["decided_by"] == "engine"
            assert forced.data["path"] == [] and forced.data["eliminated"] == ["su-p"]
            assert h.state["units"]["su-p"]["status"] == "eliminated"
            return
    pytest.skip("no DR in 40 seeds")


def test_move_to_takes_the_cheapest_path_and_legal_lists_reachable_hexes():
    g = Game.new("demo-europa", seed=7)
    ev = g.apply(Command("move", "axis", {"unit": "de-7pz", "to": "0604"}))[0].data
    assert ev["path"][-1] == "0604" and ev["mp"] == 2
    dests = {c.args["to"] for c in g.legal("axis", "move") if c.args["unit"] == "de-5inf"}
    assert dests and all(g.can(Command("move", "axis", {"unit": "de-5inf", "to": d}))
                         for d in dests)
    assert_rejected(g, Command("move", "axis", {"unit": "de-5inf", "to": "1208"}), "MOVE")


def test_eur22_status_gives_the_half_month_date_and_the_phase_prompt():
    g = Game.new("europa-surprise", seed=1)
    st = g.status()
    assert st["date"] == "Jun II 1941" and st["active"] == ["axis"]
    assert st["prompts"]["axis"].startswith("Axis, Jun II 1941: initial phase")
    assert st["prompts"]["soviet"].startswith("Waiting for Axis")
    s = dict(g.state, turn=2)
    assert turn_label(g.context, s) == "Jul I 1941"
    assert turn_label(g.context, dict(g.state, turn=13)) == "Dec II 1941"


def test_eur09_each_unit_attacks_once_and_each_hex_once_per_combat_phase():
    attack = Command("attack", "axis", {"attackers": ["de-7pz", "de-20mot"],
                                         "defender_hex": "0704"})

    def combat_game(seed):
        g = Game.new("demo-europa", seed=seed)
        for c in [Command("move", "axis", {"unit": "de-7pz", "path": ["0504", "0604"]}),
                  Command("move", "axis", {"unit": "de-20mot", "path": ["0505", "0604"]}),
                  Command("end_phase", "axis")]:
            g.apply(c)
        return g

    for seed in itertools.count(3):
        g = combat_game(seed)
        g.apply(attack)
        while g.decisions():
            d = g.decisions()[0]
            g.apply(g.legal(d.player)[0])
        if g.state["units"]["su-112rifle"]["status"] == "active" and \
                g.state["units"]["su-112rifle"]["hex"] == "0704":
            break
        if seed > 60:
            pytest.skip("no surviving defender")
    assert_rejected(g, attack, "EUR-09.*already")


def test_a_decision_kind_outside_the_phase_is_still_refused_to_others():
    g = Game.new("europa-surprise", seed=1)
    with pytest.raises(GrognardError):
        g.apply(Command("advance", "axis", {"units": []}))
