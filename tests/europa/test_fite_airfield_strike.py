"""EUR-45 FitE air surprise played: on the surprise turn the German player dedicates air units
to surprise strikes on Soviet airfields; 1 Soviet air unit there is eliminated per 2 German
air units dedicated (floor(n/2) per airfield by default, EUR-TV09), the units drawn by the
referee; listed by ``game legal``, verified, folded and told in words."""

from __future__ import annotations

import pytest

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.europa.air.orders.airfield_strike import AIRFIELD_STRIKE, STREAM


def _to_surprise_air(name: str, seed: int = 1, **kw: object) -> Game:
    g = Game.new(name, seed=seed, **kw)
    while g.phase.name != "surprise_air":
        g.apply(Command("end_phase", g.active()[0], {}))
    assert g.turn == 1
    return g


def test_eur45_strike_is_listed_verified_and_eliminates_one_per_two():
    g = _to_surprise_air("europa-fite-surprise")
    legal = g.legal("axis", "airfield_strike")
    assert {c.args["base"] for c in legal} == {"0702", "0804"}
    cmd = Command("airfield_strike", "axis", {"base": "0702",
                                              "attackers": ["de-kg55", "de-stg77"]})
    assert cmd in legal
    d = g.apply(cmd)[0].data
    pick = Dice(1).stream(STREAM).choice(2)
    assert d["due"] == 1 and d["eliminated"] == [["su-13iad", "su-4sad"][pick]]
    assert d["rules"] == ["EUR-45"]
    air = g.state["air_units"]
    assert air[d["eliminated"][0]]["status"] == "eliminated"
    assert sum(u["status"] == "eliminated" for u in air.values()) == 1
    # the dedicated units fly nothing else that turn: no strike or mission left for them
    assert air["de-kg55"]["flown"] == 1 and air["de-stg77"]["flown"] == 1
    assert g.legal("axis", "airfield_strike") == []
    with pytest.raises(IllegalOrder, match="EUR-45"):
        g.verify(Command("airfield_strike", "axis", {"base": "0804", "attackers": ["de-kg55"]}))


def test_eur45_one_unit_alone_eliminates_none_and_the_airfield_is_struck_once():
    g = _to_surprise_air("europa-fite-surprise")
    d = g.apply(Command("airfield_strike", "axis", {"base": "0702",
                                                    "attackers": ["de-kg55"]}))[0].data
    assert d["due"] == 0 and d["eliminated"] == []
    with pytest.raises(IllegalOrder, match="struck this turn"):
        g.verify(Command("airfield_strike", "axis", {"base": "0702",
                                                     "attackers": ["de-stg77"]}))


def test_eur45_pooled_reading_counts_over_the_turns_strikes():
    """fite_air_surprise_pooling = pooled: 1 + 1 attackers on two airfields eliminate 1."""
    g = _to_surprise_air("europa-fite-surprise",
                         readings={"fite_air_surprise_pooling": "pooled"})
    a = g.apply(Command("airfield_strike", "axis", {"base": "0702",
                                                    "attackers": ["de-kg55"]}))[0].data
    b = g.apply(Command("airfield_strike", "axis", {"base": "0804",
                                                    "attackers": ["de-stg77"]}))[0].data
    assert (a["due"], b["due"]) == (0, 1) and b["eliminated"] == ["su-12ibap"]
    assert b["pooling"] == "pooled"


def test_eur45_barbarossa_strike_by_five_eliminates_two_of_the_airfields_units():
    g = _to_surprise_air("europa-barbarossa")
    legal = g.legal("axis", "airfield_strike")
    assert len({c.args["base"] for c in legal}) >= 3
    big = max(legal, key=lambda c: len(c.args["attackers"]))
    cmd = Command("airfield_strike", "axis", {"base": big.args["base"],
                                              "attackers": big.args["attackers"][:5]})
    before = [u for u, a in g.state["air_units"].items()
              if a["base"] == cmd.args["base"] and a["side"] == "soviet"]
    d = g.apply(cmd)[0].data
    assert d["due"] == 2 and len(d["eliminated"]) == min(2, len(before))
    assert set(d["eliminated"]) <= set(before)


@pytest.mark.parametrize("args,match", [
    ({"base": "0702", "attackers": ["de-kg55"], "eliminated": ["su-4sad"]}, "referee"),
    ({"base": "0702", "attackers": ["de-kg55"], "pooling": "pooled"}, "referee"),
    ({"base": "0702", "attackers": ["su-4sad"]}, "not one of axis"),
    ({"base": "0702", "attackers": ["de-kg55", "de-kg55"]}, "distinct"),
    ({"base": "0102", "attackers": ["de-kg55"]}, "no enemy air units"),
])
def test_eur45_refusals_are_one_line_and_change_nothing(args, match):
    g = _to_surprise_air("europa-fite-surprise")
    before = g.state_hash()
    with pytest.raises((IllegalOrder, InputError), match=match) as e:
        g.verify(Command("airfield_strike", "axis", args))
    assert "\n" not in str(e.value) and g.state_hash() == before


def test_eur45_only_on_the_surprise_turn_and_before_the_missions_fly():
    g = Game.new("europa-fite-surprise", seed=1)
    cmd = Command("airfield_strike", "axis", {"base": "0702", "attackers": ["de-kg55"]})
    with pytest.raises(IllegalOrder):  # the surprise movement phase
        g.verify(cmd)
    g = _to_surprise_air("europa-fite-surprise")
    g.apply(Command("end_phase", "axis", {}))
    while not (g.phase.name == "air" and g.active()[0] == "axis"):
        g.apply(Command("end_phase", g.active()[0], {}))
    assert g.legal("axis", "airfield_strike") == []
    with pytest.raises(IllegalOrder, match="airfield_strike is not allowed"):
        g.verify(cmd)


def test_eur45_strike_in_words():
    g = _to_surprise_air("europa-fite-surprise")
    cmd = Command("airfield_strike", "axis", {"base": "0702",
                                              "attackers": ["de-kg55", "de-stg77"]})
    w = AIRFIELD_STRIKE.describe(g.context, g.state, cmd)
    assert "0702" in w.text and "2 German air units" in w.text and "per 2" in w.text
    assert w.short == "strike airfield 0702 (2)"
