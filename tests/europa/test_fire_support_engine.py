"""Fire support in engine combat (europa-surprise, through ``Game.apply``): the attacking
artillery's barrage (EUR-29 with EUR-03/EUR-06) and the defending artillery (EUR-08); the
``combat_resolved`` event names these rules only when they took effect."""

from __future__ import annotations

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.game import Game


def _attack_0705(seed: int, with_artillery: bool = True) -> dict:
    g = Game.new("europa-surprise", seed=seed)
    g.apply(Command("end_phase", "axis"))  # initial
    g.apply(Command("move", "axis", {"unit": "de-7pz", "to": "0604"}))
    g.apply(Command("move", "axis", {"unit": "de-art", "to": "0604"}))
    g.apply(Command("end_phase", "axis"))  # movement
    g.apply(Command("end_phase", "axis"))  # air
    assert g.phase.name == "combat"
    attackers = ["de-7pz", "de-art"] if with_artillery else ["de-7pz"]
    return g.apply(Command("attack", "axis", {"attackers": attackers,
                                              "defender_hex": "0705"}))[0].data


def test_eur29_barrage_fires_before_the_attack_and_names_its_rules():
    """EUR-29/EUR-03: the attacking artillery fires its 4 attack factors on the bombardment
    table (its own stream) and adds nothing to the attack; a "1" earns +1 DRM (EUR-06)."""
    hit = _attack_0705(2)
    roll = Dice(2).stream("europa.barrage").roll("2d6")
    assert hit["barrage"]["roll"] == roll.total and hit["barrage"]["strength"] == 4
    assert hit["barrage"]["hits"] == 1 and hit["drm_breakdown"]["bombardment"] == 1
    assert hit["attack_strength"] == 9  # the panzer division alone
    assert {"EUR-29", "EUR-03", "EUR-06"} <= set(hit["rules"])
    assert "EUR-04" not in hit["rules"]  # 4 REs in clear terrain: no column shift
    miss = _attack_0705(1)
    assert miss["barrage"]["hits"] == 0 and miss["drm_breakdown"]["bombardment"] == 0
    assert {"EUR-29", "EUR-03"} <= set(miss["rules"]) and "EUR-06" not in miss["rules"]


def test_eur08_defending_artillery_adds_its_full_defense_without_a_barrage():
    """EUR-08: the in-supply Soviet artillery in 0705 adds its full defense (2) to the rifle
    division's 6; no barrage is rolled without attacking artillery."""
    d = _attack_0705(3, with_artillery=False)
    assert d["defense_strength"] == 8 and d["barrage"] is None and d["barrage_dice"] == []
    assert d["rules"] == ["EUR-08"]
