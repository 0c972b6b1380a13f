"""The odds and the why of an attack before and after its roll, for Revised Third Reich as for
Europa (TR-32..TR-36): the API gives the engine's exact distribution of the battle the order
fights, the page's attack panel shows it with its modifiers, and the log tells why a battle came
out as it did (odds, column, DRM, roll)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.server.service import Forbidden, Referee

from .conftest import ThreadServer
from .test_browser import Seat

ATTACK = {"hex": "F12", "attackers": ["ge-inf3", "ge-inf4"]}


def _to_axis_combat(ref: Referee, token: str) -> dict[str, Any]:
    """tr-1939-support from its start to the Axis combat phase with an eastern offensive."""
    st = ref.state_for(token)
    st = ref.command(token, st["version"], "declare_options",
                     {"power": "germany", "options": {"eastern": "offensive",
                                                      "western": "attrition"}})
    while not (st["status"]["phase"] == "combat" and st["status"]["phase_player"] == "axis"):
        st = ref.command(token, st["version"], "end_phase", {})
    return st


@pytest.fixture(scope="module")
def tr_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("odds") / "odds.sqlite"
    with ThreadServer(f"sqlite:///{db}") as srv:
        gid, seats = srv.referee.create("tr-1939-support", seed=3)
        st = _to_axis_combat(srv.referee, seats["axis"])
        yield srv, gid, seats, st


def test_tr32_odds_of_a_third_reich_attack_are_the_engines_exact_distribution(
        tr_server: Any) -> None:
    srv, gid, seats, st = tr_server
    ref: Referee = srv.referee
    assert any(c["kind"] == "attack" and c["args"]["hex"] == "F12" for c in st["legal"])
    out = ref.odds(seats["axis"], "attack", dict(ATTACK))
    o = out["odds"]
    with ref.hold(gid) as loaded:
        g = loaded.game
        from grognard.third_reich.combat.battle import attack_battle
        from grognard.third_reich.combat.combat import battle_odds

        a, dist = battle_odds(attack_battle(g.context, g.state,
                                            Command("attack", "axis", ATTACK)), g.context.tables)
        defenders = [u for u in g.state["units"].values()
                     if u.get("hex") == "F12" and u["side"] == "allies"]
    assert o["column"] == a.odds.column and o["drm"] == a.drm
    assert o["defense_strength"] == a.defense.total
    assert {k: Fraction(v) for k, v in o["probabilities"].items()} == dist
    assert sum(Fraction(v) for v in o["probabilities"].values()) == 1
    assert 0 < Fraction(o["expected_defender_loss"]) <= len(defenders)
    assert 0 <= Fraction(o["expected_attacker_loss"]) <= len(ATTACK["attackers"])
    assert o["losses_in"] == "units"
    assert o["why"][0].startswith(f"defense {a.defense.total}")
    assert any(line.startswith("odds ") and a.odds.raw_column in line for line in o["why"])
    # no odds of an attack the rules refuse, nor for another seat
    with pytest.raises(IllegalOrder):
        ref.odds(seats["axis"], "attack", {"hex": "F12", "attackers": ["pl-inf1"]})
    with pytest.raises(Forbidden):
        ref.odds(seats["allies"], "attack", dict(ATTACK), "axis")


def test_tr32_the_attack_panel_shows_the_odds_and_their_modifiers(browser: Any,
                                                                   tr_server: Any) -> None:
    srv, _gid, seats, _st = tr_server
    axis = Seat(browser, f"{srv.url}/play/{seats['axis']}")
    axis.page.click('.counter[data-hex="F12"]')  # the enemy stack: its attack
    axis.page.wait_for_selector("#odds table")
    text = axis.page.inner_text("#odds")
    o = srv.referee.odds(seats["axis"], "attack", dict(ATTACK))["odds"]
    assert f"column {o['column']}" in text and "units" in text and "%" in text
    for line in o["why"]:
        assert line in text
    axis.close()


def test_tr32_the_log_tells_why_a_battle_came_out_as_it_did(tr_server: Any) -> None:
    srv, _gid, seats, _st = tr_server
    ref: Referee = srv.referee
    st = ref.state_for(seats["axis"])
    st = ref.command(seats["axis"], st["version"], "attack", dict(ATTACK))
    allies = ref.state_for(seats["allies"])
    if "allies" in allies["status"]["active"]:  # the defender's air support decision
        st = ref.command(seats["allies"], allies["version"], "defensive_air", {})
    for token in (seats["axis"], seats["allies"]):
        entries = ref.history(token)["entries"]
        why = [c for e in entries for c in e["changes"] if c.startswith("battle resolved: ")]
        assert len(why) == 1
        assert "column " in why[0] and "roll " in why[0] and "odds" in why[0]
