"""Issue 23 "Done means", bullet by bullet, where no other test would fail if the bullet broke.

Audit (session 8), each bullet against the code and its tests:

- Fall 1939 refusals and the declarations that lift them: tests/third_reich/test_war_state.py
  (attack on a Soviet hex K40 and a Dutch hex K27, Italy on France S25, a move into Hungary
  R34, an air SR into Iraq AD53 / the USSR W58 with TR-68; each declaration's cost, TR-25).
  Iraq is the UK's (a mandate with its mother country): no declaration opens an SR into an
  enemy's territory, so that refusal stands. Italy's attack on France was checked after the
  declaration only as "not refused with TR-25": here it is listed and passes verify. The
  Russian winter after the declaration, in
  battles: test_russian_winter_engine.py. Lend lease was checked only as an open route: the
  lend lease that *reaches* the USSR is checked here.
- France with a pass option cannot attack; the UK's offensive costs the UK:
  test_war_state.py ``test_tr03_france_with_a_pass_cannot_attack_under_the_uks_offensive``.
- The losing seat is asked which units to remove, the attacker's which advance:
  test_land_losses_choice.py, test_referee.py (attrition ``remove_losses``); retreats
  (session 8): test_retreat_choice.py. Here: over whole heuristic games, every loss, retreat
  and advance decision is owed to, and answered by, the seat the rules give it to.
- No land path joins England to the continent: tests/maps/test_crossings.py.
- The 1,000-game fuzz: docs/RELIABILITY.md (a run, not a test).
"""

from __future__ import annotations

import re

import pytest

from grognard.bots import play_game
from grognard.core.errors import IllegalOrder
from grognard.engine import Command, Game
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.third_reich.economy.economy import Economy


def C(kind: str, player: str, **args: object) -> Command:
    return Command(kind, player, args)


def _econ(g: Game) -> Economy:
    return Economy.from_json(g.state["economy"])


def _play_to(g: Game, turn: int, phase: str, player: str) -> None:
    """End phases (running the Year Start, answering owed Murmansk decisions with the first
    listed answer) until ``phase`` of ``player`` in ``turn``."""
    while not (g.state["turn"] == turn and g.phase.name == phase and g.phase.player == player):
        owed = [d for d in g.decisions()]
        if owed:
            d = owed[0]
            g.apply(next(c for c in g.legal(d.player) if c.kind in d.kinds))
            continue
        ys = g.legal(g.phase.player, "year_start")
        g.apply(ys[0] if ys else C("end_phase", g.phase.player))


def test_tr15_tr19_tr20_uk_lend_lease_reaches_the_ussr_once_at_war_with_germany() -> None:
    """"UK lend lease reaches the USSR once it is at war with Germany": refused in Spring 1940
    without the war; after Germany's declaration in Fall 1939 the UK ships 20 BRPs to the
    Murmansk box (paid by the UK) and what survives the box reaches the USSR in Summer I."""
    peace = Game(load_scenario("tr-1939-campaign"), 1)
    _play_to(peace, 3, "declare_options", "allies")
    assert not peace.legal("allies", "murmansk_ship")
    assert not peace.can(C("murmansk_ship", "allies", sender="uk", brps=20))

    g = Game(load_scenario("tr-1939-campaign"), 1)
    g.apply(C("declare_war", "axis", power="germany", majors=["ussr"]))
    _play_to(g, 3, "declare_options", "allies")
    assert [c.args for c in g.legal("allies", "murmansk_ship")] == [{"sender": "uk"}]
    uk = _econ(g).brp("uk")
    g.apply(C("murmansk_ship", "allies", sender="uk"))
    assert _econ(g).brp("uk") == uk - 20
    ussr = _econ(g).brp("ussr")
    _play_to(g, 5, "declare_options", "allies")  # Summer I 1940
    (res,) = [e.data for evs in g.events for e in evs if e.type == "murmansk_resolved"]
    delivered = int(res["result"]["brps_delivered"])
    assert int(res["result"]["brps_sent"]) == 20 and delivered > 0
    # TR-20: what the box delivers joins the USSR's BRPs in its Summer I turn
    assert _econ(g).brp("ussr") - ussr == delivered


def test_issue23_every_battle_decision_is_owed_to_and_answered_by_its_seat() -> None:
    """Whole heuristic games: each ``land_losses`` owed goes to the side taking the loss, each
    ``retreat`` to the side the CRT retreats (the defender on DR/D1R/D2R, the attacker on AR),
    each ``advance`` to the attacker; and each answer is that seat's command."""
    seen = {"land_losses": 0, "retreat": 0, "advance": 0}
    for scenario, seed in (("tr-1939-two-fronts", 1), ("tr-1939-two-fronts", 2),
                           ("tr-1939-invasion", 3)):
        g = Game.new(scenario, seed=seed)
        play_game(g, {s: "heuristic" for s in g.scenario.sides}, max_commands=300)
        for cmd, evs in zip(g.commands, g.events, strict=True):
            for e in evs:
                d = e.data
                if e.type not in ("battle_resolved", "invaded", "land_losses_chosen",
                                  "retreated"):
                    continue
                attacker = d.get("side") if e.type in ("battle_resolved", "invaded") else None
                for side, o in (d.get("losses_owed") or {}).items():
                    assert o["role"] == ("attacker" if side == attacker else "defender")
                rc = d.get("retreat_choice")
                if rc and e.type in ("battle_resolved", "invaded"):
                    role = (d.get("retreat") or {}).get("side")
                    assert (rc["side"] == attacker) == (role == "attacker"), d
                ao = d.get("advance_owed")
                if ao and attacker is not None:
                    assert ao["side"] == attacker
            if cmd.kind in seen:
                seen[cmd.kind] += 1
                before = g.state_at(g.commands.index(cmd))
                owed = {"land_losses": set((before.get("pending_battle") or {}).get("owed", {})),
                        "retreat": {(before.get("pending_retreat") or {}).get("side")},
                        "advance": {(before.get("pending_advance") or {}).get("side")}}
                assert cmd.player in owed[cmd.kind], (cmd, owed[cmd.kind])
    assert seen["land_losses"] and seen["advance"], seen


def test_tr25_an_italian_attack_on_france_is_legal_after_italys_declaration() -> None:
    """fra-inf60 moved to S25 beside ita-inf111 (S26): refused with TR-25 in Fall 1939, listed
    and verified once Italy has declared war on France (15 BRPs, TR-25)."""
    text = load_scenario("tr-1939-campaign").text
    head, *units = text.split("[[units]]")
    units = [re.sub(r'hex = "[A-Z]+[0-9]+"', 'hex = "S25"', b) if 'id = "fra-inf60"' in b
             else b for b in units]
    variant = "[[units]]".join([head, *units])
    attack = C("attack", "axis", hex="S25", attackers=["ita-inf111"])
    for declared in (False, True):
        g = Game(parse_scenario(variant, "variant.toml"), 1)
        italy = _econ(g).brp("italy")
        if declared:
            g.apply(C("declare_war", "axis", power="italy", majors=["france"]))
            assert _econ(g).brp("italy") == italy - 15
        g.apply(C("declare_options", "axis", power="germany", options={"western": "offensive"}))
        g.apply(C("declare_options", "axis", power="italy", options={"western": "offensive"}))
        while not (g.phase.name == "combat" and g.phase.player == "axis"):
            g.apply(C("end_phase", g.phase.player))
        listed = [c for c in g.legal("axis", "attack") if c.args["hex"] == "S25"]
        if declared:
            assert g.can(attack) and listed
        else:
            assert not g.can(attack) and not listed
            with pytest.raises(IllegalOrder, match="^TR-25"):
                g.verify(attack)
