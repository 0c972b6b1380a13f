"""Orders count only what exists (issue 27 item 3): a 3R order that names units or factors
names each unit once and no more factors than its player has - the rule it would break is
named, nothing changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grognard.engine import Command, Game
from grognard.engine.scenario import load_scenario
from grognard.engine.testing import assert_rejected

DATA = Path(__file__).parent / "data"


def _axis_combat() -> Game:
    """tr-1939-support in the Axis combat phase with an eastern offensive (F12: Polish units,
    ge-inf3 and ge-inf4 adjacent)."""
    g = Game.new("tr-1939-support", seed=3)
    g.apply(Command("declare_options", "axis", {"power": "germany", "options": {
        "eastern": "offensive", "western": "attrition"}}))
    while not (g.phase.name == "combat" and g.phase.player == "axis"):
        g.apply(Command("end_phase", g.phase.player, {}))
    return g


def test_tr32_an_attacker_named_twice_is_refused_and_counts_once_when_named_once():
    g = _axis_combat()
    before = g.state_hash()
    assert_rejected(g, Command("attack", "axis", {"hex": "F12",
                                                  "attackers": ["ge-inf3", "ge-inf3"]}),
                    "TR-32.*ge-inf3 named twice")
    assert_rejected(g, Command("attack", "axis", {"hex": "F12", "attackers": [
        "ge-inf3", "ge-inf4", "ge-inf4"]}), "TR-32.*ge-inf4 named twice")
    assert g.state_hash() == before
    # no enumerated attack names a unit twice
    for c in g.legal("axis", "attack"):
        assert len(set(c.args["attackers"])) == len(c.args["attackers"])
    once = g.odds(Command("attack", "axis", {"hex": "F12", "attackers": ["ge-inf3"]}))
    assert once["attack_strength"] == g.state["units"]["ge-inf3"]["attack"]


def _before_first(kind: str) -> tuple[Game, list[Command]]:
    """tr-1944 (fuzz seed 1934) replayed up to its first ``kind`` order; the rest of it."""
    raw = json.loads((DATA / "fuzz_murmansk_over_cap.json").read_text())
    cmds = [Command(c["kind"], c["player"], c["args"]) for c in raw["commands"]]
    k = next(i for i, c in enumerate(cmds) if c.kind == kind)
    return Game.replay(load_scenario(raw["scenario"]), raw["seed"], cmds[:k]), cmds[k:]


def test_tr20_murmansk_escort_and_commit_hold_no_more_factors_than_the_player_has():
    g, rest = _before_first("murmansk_escort")
    before = g.state_hash()
    fleets = sum(u["attack"] for u in g.state["units"].values()
                 if u["power"] in ("uk", "us") and u["type"] == "naval"
                 and u["status"] == "active" and u["hex"] is not None)
    assert 0 < fleets < 900
    assert_rejected(g, Command("murmansk_escort", "allies", {"naval": 900, "asw": 0}),
                    f"TR-20.*900 fleet factors sent but the UK and US have {fleets}")
    assert all(c.args["naval"] <= fleets for c in g.legal("allies", "murmansk_escort"))
    assert g.state_hash() == before
    g.apply(rest[0])  # the escort the game made
    assert rest[1].kind == "murmansk_commit"
    before = g.state_hash()
    units = g.state["units"].values()
    air = sum(u["attack"] for u in units if u["power"] == "germany" and u["status"] == "active"
              and u["hex"] is not None and u["type"] in ("air", "bomber", "interceptor"))
    naval = sum(u["attack"] for u in units if u["power"] == "germany" and u["type"] == "naval"
                and u["status"] == "active" and u["hex"] is not None)
    assert_rejected(g, Command("murmansk_commit", "axis", {"air": 500, "naval": 0, "subs": 0}),
                    f"TR-20.*500 air factors sent but Germany has {air} on the map")
    assert_rejected(g, Command("murmansk_commit", "axis", {"air": 0, "naval": 900, "subs": 0}),
                    f"TR-20.*900 fleet factors sent but Germany has {naval} on the map")
    offered = g.legal("axis", "murmansk_commit")
    assert offered and all(c.args["air"] <= air and c.args["naval"] <= naval for c in offered)
    assert g.state_hash() == before
    (committed, resolved) = g.apply(rest[1])  # within what Germany has: carried out
    assert committed.type == "murmansk_committed" and resolved.type == "murmansk_resolved"


def test_tr72_a_breakout_hex_named_twice_is_refused():
    g = Game.new("tr-1939-support", seed=3)
    while g.phase.name != "supply":
        g.apply(Command("end_phase", g.phase.player, {}))
    before = g.state_hash()
    assert_rejected(g, Command("supply_check", g.phase.player, {"breakout": ["F12", "F12"]}),
                    "TR-72.*F12 named twice")
    assert g.state_hash() == before


def test_tr25_a_war_target_named_twice_is_refused():
    g = Game.new("tr-1939-campaign", seed=11)
    before = g.state_hash()
    assert_rejected(g, Command("declare_war", "axis", {"power": "germany",
                                                       "majors": ["france", "france"]}),
                    "TR-25.*france named twice")
    assert_rejected(g, Command("declare_war", "axis", {"power": "germany",
                                                       "minors": ["belgium", "belgium"]}),
                    "TR-25.*belgium named twice")
    assert g.state_hash() == before


def _mutants(cmd: Command) -> list[Command]:
    """``cmd`` with a unit (or hex, target) of a list named twice, or a count x1000."""
    out = []
    for k, v in cmd.args.items():
        if isinstance(v, list) and v and all(isinstance(x, str) for x in v):
            out.append(Command(cmd.kind, cmd.player, {**cmd.args, k: [*v, v[0]]}))
        if isinstance(v, int) and not isinstance(v, bool) and v > 0:
            out.append(Command(cmd.kind, cmd.player, {**cmd.args, k: v * 1000}))
    return out


def test_tr_issue27_legal_orders_with_a_name_repeated_or_a_count_inflated_are_refused():
    """Property over the positions of recorded games (tr-1944, tr-1939-campaign): every legal
    order of every player, with an id of one of its lists named twice or one of its counts
    multiplied by 1000, is refused."""
    from grognard.core.errors import GrognardError

    raw = json.loads((DATA / "fuzz_murmansk_over_cap.json").read_text())
    cmds = [Command(c["kind"], c["player"], c["args"]) for c in raw["commands"]]
    g = Game(load_scenario(raw["scenario"]), raw["seed"])
    tried = 0
    for i, cmd in enumerate(cmds):
        if i % 6 == 0:
            for side in g.scenario.sides:
                seen: dict[str, int] = {}
                for c in g.legal(side):
                    seen[c.kind] = seen.get(c.kind, 0) + 1
                    if seen[c.kind] > 8:
                        continue
                    for m in _mutants(c):
                        tried += 1
                        with pytest.raises(GrognardError):
                            g.verify(m)
        g.apply(cmd)
    assert tried > 100
