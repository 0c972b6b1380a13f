"""EUR-33 replacement phase; EUR-42 Soviet replacement rates."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.ledger import Ledger
from grognard.europa.supply.phase import SingleStepReturn, SupplyReadings
from grognard.europa.supply.replacements import (
    Candidate,
    can_take_replacement,
    implied_factories,
    raised_rate,
    replacement_options,
    soviet_rp_table,
    soviet_rps,
    take_replacement,
)


def test_eur33_destroyed_cadre_returns_for_1_re():
    """Seed 001: "Cadres may be brought onto the map for 1 RE ... from the destroyed units
    pile"."""
    (o,) = replacement_options(Candidate("pz7", "armor", "cadre_destroyed"))
    assert (o.action.value, o.cost) == ("return_cadre", 1)


def test_eur33_cadre_on_map_rebuilt_for_2_res():
    (o,) = replacement_options(Candidate("pz7", "armor", "cadre_on_map"))
    assert (o.action.value, o.cost) == ("rebuild", 2)


@pytest.mark.parametrize("flag", ["attacked", "exploited", "returned_this_turn"])
def test_eur33_attack_exploitation_or_return_bars_rebuild(flag):
    c = Candidate("pz7", "armor", "cadre_on_map", **{flag: True})
    assert replacement_options(c) == []


def test_eur33_must_be_in_supply():
    assert replacement_options(Candidate("pz7", "armor", in_supply=False)) == []


def test_eur33_single_step_cost_reading():
    c = Candidate("art", "artillery", "single_step_destroyed", re_size=Fraction(2))
    assert replacement_options(c)[0].cost == 1
    r = SupplyReadings(single_step_return_cost=SingleStepReturn.RE_SIZE)
    assert replacement_options(c, r)[0].cost == 2


def test_eur33_take_replacement_posts_to_pool():
    led = Ledger().post("german.armor", 3, "EUR-14", "excess")
    led2, rec = take_replacement(led, "german.armor", Candidate("pz7", "armor"), "rebuild")
    assert led2.balance("german.armor") == 1 and rec.cost == 2
    assert led2.entries[-1].rule == "EUR-33"
    assert not can_take_replacement(led2, "german.armor", Candidate("pz8", "armor"), "rebuild")
    with pytest.raises(IllegalOrder, match="EUR-33"):
        take_replacement(led2, "german.armor", Candidate("pz8", "armor"), "rebuild")
    with pytest.raises(IllegalOrder):
        take_replacement(led, "german.armor", Candidate("pz7", "armor"), "return_cadre")


def test_eur42_odd_rates_raised_to_even():
    """Seed 001: locations bringing 1, 3 and 5 RPs instead bring 2, 4 and 6."""
    assert [raised_rate(n) for n in (1, 3, 5)] == [2, 4, 6]


def test_eur_tv08_listed_locations_total():
    """RULES.md EUR-TV08: listed locations give 28 (+Minsk 2 = 30)."""
    t = soviet_rp_table()
    listed = t.meta["listed_in_text"]
    assert soviet_rps(listed, 0).infantry == 28
    assert soviet_rps([*listed, "minsk"], 0).infantry == 30


def test_eur42_factories_two_each_and_maximum_60():
    """Seed 001: 2 RPs per operating factory; maximum 60 with every location and factory."""
    assert implied_factories() == 15
    every = [str(k) for k in soviet_rp_table().rows]
    assert soviet_rps(every, 15).total == 60
    assert soviet_rps(["moskva"], 3).armor_or_artillery == 6


def test_eur42_bad_input():
    with pytest.raises(InputError):
        soviet_rps(["berlin"], 0)
    with pytest.raises(InputError):
        soviet_rps(["kiev", "kiev"], 0)
    with pytest.raises(InputError):
        soviet_rps([], -1)
