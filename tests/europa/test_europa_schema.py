"""Issue 22 item 2: the ``[europa]`` table is typed end to end (europa/scenario_schema.py
``EuropaSection``) and checked once, when the scenario is parsed: a bad value is one line naming
the file, the line and the field, before any game is created; the rule modules read the typed
value (``europa.board.europa_rules``), with the defaults the readers of the raw table used.
The rules each key serves: EUR-14 series, EUR-30 supply sources and path length, EUR-32 the
map's country, EUR-33 replacement pools, EUR-37..EUR-41 logistics, EUR-44 the Soviet
countries, SUR-25 invasion countries, SUR-21..SUR-24 air units, the last turn and victory."""

from __future__ import annotations

import re

import pytest

from grognard.core.errors import ScenarioError
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario, parse_scenario, shipped_scenarios
from grognard.europa import board
from grognard.europa.board import europa_rules
from grognard.europa.scenario_schema import EuropaSection, LogisticsSection, Pools
from grognard.europa.supply.commands import initial_replacements

FITE = load_scenario("europa-fite-surprise").text


def _refused(old: str, new: str, base: str = FITE) -> ScenarioError:
    """Parse ``base`` with ``old`` replaced by ``new``: the one-line error it must raise."""
    assert base.count(old) == 1, old
    with pytest.raises(ScenarioError) as exc:
        parse_scenario(base.replace(old, new), "bad.toml")
    err = exc.value
    assert "\n" not in str(err) and str(err).startswith("bad.toml:"), str(err)
    return err


@pytest.mark.parametrize("old, new, field, reason", [
    # EUR-14: the series is "re" or "factor"
    ("last_turn = 6\n", 'last_turn = 6\nseries = "points"\n', "europa.series", "'points'"),
    # EUR-32: the map's country is a name
    ("last_turn = 6\n", "last_turn = 6\nmap_country = 7\n", "europa.map_country", "str"),
    # EUR-44: the Soviet countries are a list of names
    ('soviet_countries = ["ussr"]', 'soviet_countries = "ussr"', "europa.soviet_countries",
     "array"),
    # EUR-33: a pool is exact points
    ("axis = { infantry = 1, armor = 1 }", "axis = { infantry = true, armor = 1 }",
     "europa.replacements.axis.infantry", "int"),
    # EUR-37..EUR-41: the logistics' sides, rear hex and three lines
    ('german = "axis"', 'german = "germans"', "europa.logistics.german", "unknown side"),
    ('soviet = "soviet"\nrear', 'soviet = 3\nrear', "europa.logistics.soviet", "str"),
    ('rear = "0103"', "rear = 5", "europa.logistics.rear", "str"),
    ('lines = [["0601", "0605"], ["0801", "0805"], ["1201", "1205"]]',
     'lines = [["0601", "0605"], ["0801", "0805"]]', "europa.logistics.lines", "length"),
    ('lines = [["0601", "0605"], ["0801", "0805"], ["1201", "1205"]]',
     'lines = [["0601", "0605"], [], ["1201", "1205"]]', "europa.logistics.lines", "length"),
    ('rear = "0103"', 'rear = "0103"\nreer = "0104"', "europa.logistics", "unknown field 'reer'"),
    # SUR-25 and the defending commands
    ('invasion_countries = ["ussr"]', 'invasion_countries = [1]', "europa.invasion_countries",
     "str"),
    ("last_turn = 6\n", "last_turn = 6\nsupply_max_length = -1\n", "europa.supply_max_length",
     ">= 0"),
    ("last_turn = 6\n", "last_turn = true\n", "europa.last_turn", "int"),
])
def test_a_bad_europa_key_is_one_line_naming_it(old, new, field, reason):
    err = _refused(old, new)
    assert err.field is not None and err.field.startswith(field), str(err)
    assert re.search(reason, err.reason), str(err)


@pytest.mark.parametrize("name", [n for n in shipped_scenarios()
                                  if load_scenario(n).system == "europa"])
def test_every_shipped_europa_scenario_loads_typed(name):
    sc = load_scenario(name)
    rules = europa_rules(sc)
    assert isinstance(rules.section, EuropaSection)
    assert Game.new(name, seed=1).state["turn"] == 1


def test_the_defaults_are_the_old_readers():
    """Each key absent reads as the raw table's reader read it: ``.get(key, default)``."""
    eu = EuropaSection()
    assert eu.soviet_countries == ["ussr"]  # EUR-44 .get("soviet_countries", ["ussr"])
    assert eu.series is None  # EUR-14: absent, the attack model's own "re"
    assert eu.map_country == ""  # EUR-32 str(.get("map_country", ""))
    assert eu.logistics is None  # EUR-37: no table, no SPs
    assert eu.supply_sources == {} and eu.supply_max_length is None  # EUR-30
    assert eu.replacements == {} and eu.invasion_countries == [] and eu.commands == {}
    assert eu.air_units == {} and eu.last_turn is None and eu.victory is None
    assert not eu.fite_surprise_turn
    assert not hasattr(board, "europa_config")  # every reader takes the typed value


def test_eur33_only_the_pools_written_start_in_the_state():
    """EUR-33: ``replacements = { soviet = { infantry = 2 } }`` starts only an infantry pool,
    as the raw table's reader did (no armor or artillery pool of 0)."""
    assert Pools(infantry=2).given() == {"infantry": 2}
    assert Pools(armor="1/2", artillery=0).given() == {"armor": "1/2", "artillery": 0}
    pools = initial_replacements(load_scenario("europa-fite-surprise"))["pools"]
    assert pools == {"axis": {"infantry": 1, "armor": 1}, "soviet": {"infantry": 2}}


def test_eur37_the_logistics_table_is_typed():
    lg = europa_rules(load_scenario("europa-fite-surprise")).section.logistics
    assert lg == LogisticsSection("axis", "soviet", "0103",
                                  [["0601", "0605"], ["0801", "0805"], ["1201", "1205"]])
