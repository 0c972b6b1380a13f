"""``grognard europa air ...`` (EUR-22..EUR-28), tested in-process."""

from __future__ import annotations

import json

from grognard.cli import main


def run(capsys, *args):
    rc = main(["europa", "air", *args])
    out, err = capsys.readouterr()
    return rc, out, err


def js(capsys, *args):
    rc, out, err = run(capsys, *args, "--json")
    assert rc == 0, err
    return json.loads(out)


def test_eur22_cli_sequence(capsys):
    """EUR-22: the phases and commands the engine allows (issue 13: overruns in movement and
    exploitation, supply checks, replacements; the rule-47 bonus phases, SUR-01)."""
    from grognard.engine.commands import Command
    from grognard.engine.game import Game

    d = js(capsys, "sequence", "--players", "axis,soviet")
    names = [p["name"] for p in d["phases"][:11]]
    assert names == ["initial", "bonus_movement", "reaction", "bonus_combat", "bonus_supply_air",
                     "movement", "air", "combat", "exploitation", "supply", "replacement"]
    assert d["phases"][11]["player"] == "soviet" and d["phases"][2]["player"] == "soviet"
    cmds = {p["name"]: set(p["commands"]) for p in d["phases"][:11]}
    assert {"move", "overrun", "end_phase"} <= cmds["movement"]
    assert {"move", "overrun"} <= cmds["exploitation"]
    assert {"supply_check", "isolation_attrition"} <= cmds["supply"]
    assert "take_replacement" in cmds["replacement"]
    # every listed command is one the engine accepts in that phase (and nothing else is)
    g = Game.new("europa-surprise", seed=1)
    for p in d["phases"][:11]:
        assert set(p["commands"]) == set(g.phase.commands | {"end_phase"}) & set(
            g.system.commands)
        assert (g.phase.name, g.phase.player) == (p["name"], p["player"])
        g.state["surprise_turn"] = {"turn": 1, "player": "axis", "kind": "local", "front": []}
        g.apply(Command("end_phase", g.phase.player))
    assert d["air_steps"][2] == {"step": "interception", "player": "non_phasing"}


def test_eur24_cli_odds_and_sweep(capsys):
    d = js(capsys, "odds", "3", "3")
    assert d["column"] == "0" and d["removal"] == "5/12" and d["probabilities"]["X"] == "1/36"
    d = js(capsys, "sweep", "--sweeper", "s1:3", "--sweeper", "s2:3", "--defender", "d1:3",
           "--rolls", "7,12,8,2")
    assert d["defenders_removed"] == ["d1"] and d["sweepers_returned"] == ["s2"]
    assert d["fights"][0]["vs_attacker"] == "X"
    seeded = js(capsys, "sweep", "--sweeper", "s1:3", "--defender", "d1:3", "--seed", "4")
    assert seeded == js(capsys, "sweep", "--sweeper", "s1:3", "--defender", "d1:3",
                        "--seed", "4")


def test_eur25_cli_intercept(capsys):
    d = js(capsys, "intercept", "--interceptor", "i1:3", "--escort", "e1:3",
           "--striker", "b1:1:6:15", "--escort-target", "i1=e1", "--strike-target", "i1=b1",
           "--rolls", "8,2,12,2")
    assert d["escorts_remaining"] == [] and d["strikers_remaining"] == []
    assert d["strike_value"] == 0 and d["rolls_used"] == 4
    rc, _, err = run(capsys, "intercept", "--interceptor", "i1:3", "--escort", "e1:3",
                     "--striker", "b1:1:6", "--escort-target", "i1=b1", "--rolls", "7,7")
    assert rc == 2 and "EUR-25" in err


def test_eur26_cli_interdiction(capsys):
    d = js(capsys, "interdiction", "3", "--roll", "4")
    assert (d["target"], d["chance"], d["success"]) == (3, "1/2", False)
    d = js(capsys, "interdiction", "15", "--divisor", "3")
    assert d["chance"] == "5/6" and d["roll"] is None and d["success"] is None


def test_eur27_cli_airbase(capsys):
    d = js(capsys, "airbase", "Kiev", "--capacity", "3", "--active", "a,b,c", "--hits", "2",
           "--seed", "1")
    assert d["hits"] == 2 and len(d["made_inactive"]) == 2 and d["eliminated"] == []
    assert d["airbase"]["flyable"] == 1 and d["hit_odds"] is None
    d = js(capsys, "airbase", "Kiev", "--capacity", "3", "--active", "a", "--strength", "15",
           "--roll", "2")
    assert d["hits"] == 0 and d["hit_odds"]["2"] == "1/12"


def test_eur28_cli_bombing(capsys):
    d = js(capsys, "bombing", "marshalling_yard", "2,1", "--hit-limit", "2")
    assert d["supply_points_lost"] == 2 and d["effective_hits"] == 2
    d = js(capsys, "bombing", "factory", "1", "--prior-hits", "1")
    assert d["replacement_points_lost"] == 1
    rc, _, err = run(capsys, "bombing", "moon", "1")
    assert rc == 2 and "target" in err


def test_sur01_cli_sequence_with_one_player_is_one_line_not_a_traceback(capsys):
    """Found by the long CLI fuzz: ``--players 35`` (one player) crashed with StopIteration
    (the SUR-01 reaction phase is the other player's)."""
    rc, out, err = run(capsys, "sequence", "--players", "35", "--json")
    assert rc == 2 and out == ""
    assert "two players" in err and len(err.strip().splitlines()) == 1
