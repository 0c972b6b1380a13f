"""Europa victory (grognard.europa.victory): a documented reading - the Europa texts in the seeds
state no victory conditions, so each scenario's ``[europa.victory]`` gives them (module
docstring; docs/MAPS.md "Barbarossa victory"). Tests name the reading they check."""

from __future__ import annotations

import json

import pytest

from grognard.core.errors import GrognardError
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.europa.victory import (
    HELD,
    initial_holders,
    verdict,
    victory_from,
    victory_of,
)

EUROPA_SCENARIOS = ("demo-europa", "europa-surprise", "europa-pocket", "europa-fite-surprise",
                    "europa-barbarossa", "europa-barbarossa-map")


def _end(g: Game) -> None:
    """Jump past the scenario's last turn (the result is judged from the state)."""
    g.state["turn"] = 10_000
    g._changed()


@pytest.mark.parametrize("name", EUROPA_SCENARIOS)
def test_victory_reading_every_europa_scenario_ends_with_a_verdict(name: str) -> None:
    g = Game.new(name, seed=1)
    assert g.result is None
    standing = g.standing()
    assert standing is not None and standing["level"] and standing["why"]
    assert g.objectives(), "the scenario's objectives are listed through the system hook"
    _end(g)
    res = g.result
    assert res is not None and res["reason"] == "last turn"
    assert res["level"] == standing["level"] and res["winner"] == standing["winner"]


def test_victory_reading_barbarossa_objectives_and_first_holders() -> None:
    """Reading (docs/MAPS.md): Moscow 6, Leningrad 5, Kiev 3, Kharkov 3, Dnepropetrovsk 2,
    Odessa 2, the Smolensk line 2 (three of Vitebsk, Orsha, Smolensk, Mogilev), Minsk, Riga,
    Sevastopol 1: 26 points, all Soviet-held on 22 June 1941."""
    g = Game.new("europa-barbarossa", seed=1)
    obs = {o.name: o for o in g.objectives()}
    assert obs["Moscow"].hex == "5422" and obs["Moscow"].value == 6
    assert obs["Leningrad"].value == 5 and obs["Kiev"].hex == "3446"
    assert all(o.holder == "soviet" for o in obs.values())
    assert set(obs["Moscow"].wanted_by) == {"axis", "soviet"}
    v = victory_of(g.scenario)
    assert v is not None and v.most == 26
    st = g.standing()
    assert st is not None and (st["leader"], st["level"], st["points"]) == ("soviet", "decisive", 0)


def test_victory_reading_barbarossa_levels() -> None:
    """The historical line of Dec 1941 (Riga, Minsk, the Smolensk line, Kiev, Odessa,
    Dnepropetrovsk, Kharkov; not the capitals, not Sevastopol) is 14 points: a draw. Moscow
    and Leningrad added give an Axis decisive victory; two of the four line hexes do not
    count the line."""
    v = victory_of(load_scenario("europa-barbarossa"))
    assert v is not None
    held = {h: "soviet" for h in v.hexes}
    for h in ("1618", "2631", "3326", "3429", "3928", "3446", "3663", "5054", "5348"):
        held[h] = "axis"
    vd = verdict(v, held)
    assert (vd.winner, vd.level, vd.points) == (None, "draw", 14)
    held.update({"5422": "axis", "3306": "axis"})
    assert (verdict(v, held).winner, verdict(v, held).level) == ("axis", "decisive")
    held.update({"3429": "soviet", "3928": "soviet"})  # 2 of 4 line hexes: the line is lost
    vd = verdict(v, held)
    assert vd.points == 23 and "Smolensk line" not in ", ".join(vd.met)
    only = {h: "soviet" for h in v.hexes} | {"2631": "axis", "1618": "axis", "3446": "axis"}
    assert (verdict(v, only).winner, verdict(v, only).level) == ("soviet", "substantive")


def test_victory_reading_holder_is_the_last_ground_unit_to_enter() -> None:
    """A hex is held by the side whose ground unit last entered it, and stays so after it
    leaves; the record changes only the state's ``held`` key."""
    g = Game.new("demo-europa", seed=7)
    assert g.state[HELD]["0604"] == "soviet" and g.state[HELD]["0302"] == "axis"
    before = {k: v for k, v in g.state["units"].items()}
    g.apply(Command("move", "axis", {"unit": "de-7pz", "path": ["0504", "0604"]}))
    assert g.state[HELD]["0604"] == "axis"
    assert g.state["units"].keys() == before.keys()
    g.undo("axis")
    assert g.state[HELD]["0604"] == "soviet", "undo folds the holders back too"
    g.apply(Command("move", "axis", {"unit": "de-7pz", "path": ["0504", "0604", "0504"]}))
    assert g.state["units"]["de-7pz"]["hex"] == "0504"
    # passing through does not take it (no event leaves an Axis unit in 0604), a stop does
    assert g.state[HELD]["0604"] == "soviet"


def test_victory_reading_first_holders_by_occupant_country_and_nearest() -> None:
    """At the start: the side set up in the hex; else its country's side; else the side of the
    nearest ground units set up (the invented demo map has no countries there)."""
    demo = initial_holders(load_scenario("demo-europa"))
    assert demo["0302"] == "axis"  # Polotsk: de-5inf set up next to it
    assert demo["0805"] == "soviet"  # Vitebsk: behind the Soviet line
    assert demo["0606"] is None  # as near to both sides' units: nobody's
    fite = initial_holders(load_scenario("europa-fite-surprise"))
    assert fite["0801"] == "soviet"  # countries: ussr is the Soviet side's
    pocket = initial_holders(load_scenario("europa-pocket"))
    assert pocket == {"0504": "soviet", "0505": "soviet"}  # occupied at the start


def test_victory_reading_pocket_verdict_when_uman_falls() -> None:
    g = Game.new("europa-pocket", seed=1)
    g.state[HELD]["0504"] = "axis"
    _end(g)
    res = g.result
    assert res is not None and (res["winner"], res["level"], res["points"]) == ("axis",
                                                                               "marginal", 2)
    assert "Aug" in res["summary"] or "Sep" in res["summary"] or "Nov" in res["summary"]


def test_victory_reading_short_form_still_reads() -> None:
    """``victory = {side, hexes, need}``: that side wins holding ``need``, the other otherwise."""
    v = victory_from({"side": "axis", "hexes": ["0101", "0102", "0103"], "need": 2},
                     ("axis", "soviet"))
    assert v is not None
    assert verdict(v, {"0101": "axis", "0102": "axis"}).winner == "axis"
    assert verdict(v, {"0101": "axis", "0102": "soviet"}).winner == "soviet"


_BASE = """
[scenario]
id = "t"
title = "t"
system = "europa"
sides = ["axis", "soviet"]
[europa]
last_turn = 2
[europa.victory]
side = "axis"
{extra}
[map]
layout = {{ offset = "odd-q", style = "numeric", origin = 1 }}
legend = {{ "." = "clear" }}
grid = \"\"\"
...
...
\"\"\"
"""

_OK_LEVELS = 'levels = [{ level = "win", winner = "axis", min = 1 }, { level = "win", ' \
             'winner = "soviet", min = 0 }]'


@pytest.mark.parametrize("extra, words", [
    ('objectives = [{ name = "a", hex = "0909" }]\n' + _OK_LEVELS, "off the map"),
    ('objectives = [{ name = "a", hex = "0101" }]\nlevels = [{ level = "win", min = 1 }]',
     "lowest 0"),
    ('objectives = [{ name = "a", hex = "0101", hexes = ["0102"] }]\n' + _OK_LEVELS,
     "either hex"),
    ('objectives = [{ name = "a", hex = "0101" }]\nlevels = [{ level = "w", winner = "usa", '
     'min = 0 }]', "unknown side"),
    ('objectives = [{ name = "a", hexes = ["0101"], need = 3 }]\n' + _OK_LEVELS, "need 3"),
    ('objectives = [{ name = "a", hex = "0101", worth = 3 }]\n' + _OK_LEVELS, "worth"),
])
def test_victory_reading_bad_tables_refused_in_one_line(extra: str, words: str) -> None:
    with pytest.raises(GrognardError) as err:
        parse_scenario(_BASE.format(extra=extra))
    assert words in str(err.value) and "\n" not in str(err.value)


def test_victory_reading_good_table_loads() -> None:
    sc = parse_scenario(_BASE.format(
        extra='objectives = [{ name = "a", hex = "0101", points = 2 }]\n' + _OK_LEVELS))
    v = victory_of(sc)
    assert v is not None and v.most == 2 and v.levels[0].winner == "axis"


def test_victory_reading_game_status_shows_the_standing(tmp_path, capsys) -> None:
    from grognard.cli import main

    save = tmp_path / "p.json"
    assert main(["game", "new", "europa-pocket", "--out", str(save), "--seed", "1"]) == 0
    capsys.readouterr()
    assert main(["game", "status", str(save)]) == 0
    assert "standing: soviet marginal victory: axis 0 of 3 points" in capsys.readouterr().out
    assert main(["game", "status", str(save), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["standing"]["leader"] == "soviet" and data["standing"]["level"] == "marginal"


@pytest.mark.parametrize("name", ["demo-europa", "europa-barbarossa"])
def test_victory_reading_holders_hold_after_every_command(name: str) -> None:
    """The holders' reading after every command of a random game: every objective hex with
    ground units of one side only is that side's (moves that touch no objective hex skip
    the scan of every unit: the same ``held`` as the scan gives)."""
    import random

    from grognard.engine.fuzz import choose
    from grognard.europa.victory import HOLDING_TYPES

    g = Game.new(name, seed=3)
    rng = random.Random(3)
    moves = 0
    for _ in range(300):
        cmd = choose(g, rng)
        if cmd is None:
            break
        before = dict(g.state[HELD])
        events = g.apply(cmd)
        held = g.state[HELD]
        sides: dict[str, set[str]] = {}
        for u in g.state["units"].values():
            if u["hex"] in held and u["status"] == "active" and u["type"] in HOLDING_TYPES:
                sides.setdefault(u["hex"], set()).add(u["side"])
        for h, s in sides.items():
            if len(s) == 1:
                assert held[h] == next(iter(s)), (cmd, h)
        for h in held:  # a hex changes hands only when one side alone stands in it
            if held[h] != before[h]:
                assert sides.get(h) == {held[h]}, (cmd, h)
        moves += sum(e.type == "unit_moved" for e in events)
    assert moves > 10  # the random game moved units (and the checks above ran on them)
