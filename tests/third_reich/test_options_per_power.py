"""TR-03 / TR-22 (issue 23 item 3): each power its own option per front; minor allies under
their major ally's option without payment; the readings for the silent cases.

002_67ce4e3275b117b3.txt, "Front options": "Each front - western, eastern, and southern - on
which the power is engaged can pick a different option each game turn"; "Conquests, minor
allies": the units of a minor "may perform all operations of any option, without BRP payment".
"""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.third_reich.turn.options import (
    JointAttack,
    MinorOption,
    Option,
    OptionReadings,
    acting_option,
    declared_option,
    may_attack,
    may_take_part_in_attrition,
    option_payer,
    options_cost,
)

PATRONS = {"poland": "uk", "hungary": "germany"}


def test_tr03_france_with_a_pass_cannot_attack_whatever_the_uk_declared() -> None:
    """Done-means: "France with a pass option cannot attack, whatever the UK declared; the UK's
    offensive costs the UK"."""
    declared = {"uk": {"western": "offensive"}, "france": {"western": "pass"}}
    r = may_attack(declared, ["france"], "western", PATRONS)
    assert r is not None and r.rule == "TR-03" and "france" in r.reason
    with pytest.raises(IllegalOrder):
        r.raise_()
    assert may_attack(declared, ["uk"], "western", PATRONS) is None
    assert options_cost(declared["uk"], 1940) == 10 and options_cost(declared["france"], 1940) == 0
    assert option_payer("uk", PATRONS) == "uk"


def test_tr03_the_ussr_does_not_attack_under_a_uk_eastern_offensive() -> None:
    declared = {"uk": {"eastern": "offensive"}}
    r = may_attack(declared, ["ussr"], "eastern", PATRONS)
    assert r is not None and r.rule == "TR-03"
    assert declared_option(declared, "ussr", "eastern") is Option.PASS


def test_tr03_an_option_is_per_front() -> None:
    declared = {"germany": {"eastern": "offensive", "western": "attrition"}}
    assert may_attack(declared, ["germany"], "eastern", PATRONS) is None
    assert may_attack(declared, ["germany"], "western", PATRONS) is not None
    assert may_take_part_in_attrition(declared, ["germany"], "western", PATRONS) is None
    # attrition is its own option: an offensive front has combat, not attrition
    assert may_take_part_in_attrition(declared, ["germany"], "eastern", PATRONS) is not None


def test_tr22_a_minor_ally_acts_under_its_patrons_option_and_pays_nothing() -> None:
    declared = {"germany": {"eastern": "offensive"}, "uk": {"western": "pass"},
                "france": {"western": "offensive"}}
    assert may_attack(declared, ["hungary"], "eastern", PATRONS) is None
    assert option_payer("hungary", PATRONS) is None
    # the default reading: Poland is the UK's ally and the UK passed
    assert acting_option(declared, "poland", "western", PATRONS) is Option.PASS
    r = may_attack(declared, ["poland"], "western", PATRONS)
    assert r is not None and "under uk's option" in r.reason
    # the other reading: the widest option of its side's majors
    wide = OptionReadings(minor_option=MinorOption.WIDEST)
    assert may_attack(declared, ["poland"], "western", PATRONS, ["uk", "france"], wide) is None
    # a minor fighting alone (no patron) has no option: it defends
    assert acting_option(declared, "persia", "southern", PATRONS) is Option.PASS


def test_tr03_a_joint_attack_on_a_shared_front_needs_each_powers_own_option() -> None:
    declared = {"germany": {"southern": "offensive"}, "italy": {"southern": "pass"}}
    r = may_attack(declared, ["germany", "italy"], "southern", PATRONS)
    assert r is not None and "italy" in r.reason
    anyone = OptionReadings(joint_attack=JointAttack.ANY_POWER)
    assert may_attack(declared, ["germany", "italy"], "southern", PATRONS, (), anyone) is None
    assert may_attack({}, ["germany", "italy"], "southern", PATRONS, (), anyone) is not None


def test_readings_are_typed_and_round_trip() -> None:
    r = OptionReadings.from_mapping({"minor_option": "widest", "joint_attack": "any_power"})
    assert r.minor_option is MinorOption.WIDEST and r.joint_attack is JointAttack.ANY_POWER
    assert OptionReadings.from_mapping(r.to_mapping()) == r
    assert OptionReadings().to_mapping() == {"minor_option": "patron",
                                             "joint_attack": "every_power"}
    with pytest.raises(InputError):
        OptionReadings.from_mapping({"minor_option": "loudest"})
    with pytest.raises(InputError):
        may_attack({}, [], "western", PATRONS)
    with pytest.raises(InputError):
        may_attack({}, ["germany"], "arctic", PATRONS)
