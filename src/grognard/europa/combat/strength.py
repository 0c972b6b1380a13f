"""Europa revised combat strengths: defensive artillery (EUR-08), supply and support
adjustments, the revised terrain on strengths (EUR-10) and the armor-only strengths (EUR-02).

All strengths are exact ``Fraction``s; halved factors stay fractions until the odds are formed.

>>> from grognard.core.units import SupplyState
>>> arty = [Combatant("a1", defense=4, type="artillery"), Combatant("a2", defense=6,
...         type="artillery"), Combatant("a3", defense=8, type="artillery",
...         supply=SupplyState.OUT)]
>>> d = defensive_artillery(arty)
>>> d.strength, d.support, d.best
(Fraction(8, 1), True, 'a2')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from grognard.core.tables import Table
from grognard.core.units import ArmorClass, SupplyState
from grognard.europa.combat.attack import Attack, Combatant, CombatReadings, OosDefense
from grognard.europa.combat.terrain import HexEffects, crossing_multiplier, hex_effects

HALF = Fraction(1, 2)


@dataclass(frozen=True, slots=True)
class DefensiveArtillery:
    """EUR-08 result: the strength artillery adds to the hex and whether it gives Support."""

    strength: Fraction
    support: bool
    best: str | None
    contributions: tuple[tuple[str, Fraction], ...]


def defensive_artillery(artillery: Sequence[Combatant]) -> DefensiveArtillery:
    """EUR-08 (Defensive artillery) The highest in-supply defending artillery unit adds its
    full defense strength; every other artillery unit adds 1. Any in-supply artillery unit gives
    all units in the hex Support. Defensive artillery never uses the bombardment table.

    Out-of-supply and defensive-supply artillery add 1 (EUR-36: "as though unsupplied").

    >>> defensive_artillery([Combatant("a", defense=5, type="artillery",
    ...                                supply="defensive")]).strength
    Fraction(1, 1)
    """
    in_supply = [u for u in artillery if u.supply == SupplyState.IN]
    best = max(in_supply, key=lambda u: u.defense, default=None)
    contributions = tuple(
        (u.id, Fraction(u.defense) if best is not None and u.id == best.id else Fraction(1))
        for u in artillery
    )
    return DefensiveArtillery(
        strength=sum((c for _, c in contributions), Fraction(0)),
        support=bool(in_supply),
        best=best.id if best is not None else None,
        contributions=contributions,
    )


def attacker_base_strength(unit: Combatant) -> Fraction:
    """A unit's attack factor reduced only for supply and support (the EUR-11 loss basis).

    Out-of-supply and defensive-supply units attack at half (EUR-36); a unit lacking support
    under the base rules (``unsupported``) is halved (EXTERNAL rule, generic stand-in).
    """
    s = Fraction(unit.attack)
    if unit.supply in (SupplyState.OUT, SupplyState.DEFENSIVE):
        s *= HALF
    if unit.unsupported:
        s *= HALF
    return s


def defender_base_strength(unit: Combatant, supported_hex: bool,
                           readings: CombatReadings) -> Fraction:
    """A non-artillery defender's defense factor reduced only for supply and support.

    Defensive supply keeps full defense (EUR-36); a unit marked out of supply keeps it too under
    the default reading ``oos_defense = full`` (halved under ``half``); a unit lacking support is
    halved unless the hex has Support from in-supply artillery (EUR-08).
    """
    s = Fraction(unit.defense)
    if unit.supply == SupplyState.OUT and readings.oos_defense == OosDefense.HALF:
        s *= HALF
    if unit.unsupported and not supported_hex:
        s *= HALF
    return s


def attack_contributions(attack: Attack, hexside_tab: Table | None = None
                         ) -> tuple[tuple[str, Fraction], ...]:
    """EUR-10 What each attacking unit adds to the attack strength.

    Artillery adds nothing: it fires only through the barrage (EUR-03, EUR-29). Other units add
    their attack factor, halved for supply/support, then halved across water barriers (armor and
    mechanized units) or major rivers (all units).
    """
    out = []
    for u in attack.attackers:
        if u.is_artillery:
            out.append((u.id, Fraction(0)))
            continue
        out.append((u.id, attacker_base_strength(u)
                    * crossing_multiplier(u, attack.hexsides, hexside_tab)))
    return tuple(out)


def defense_contributions(attack: Attack) -> tuple[tuple[str, Fraction], ...]:
    """EUR-08 What each defending unit adds before the hex's terrain (artillery per EUR-08)."""
    arty = defensive_artillery([u for u in attack.defenders if u.is_artillery])
    arty_of = dict(arty.contributions)
    return tuple(
        (u.id, arty_of[u.id] if u.is_artillery
         else defender_base_strength(u, arty.support, attack.readings))
        for u in attack.defenders
    )


def attack_strength(attack: Attack, hexside_tab: Table | None = None) -> Fraction:
    """EUR-10 Total attack strength of the attack (exact)."""
    return sum((s for _, s in attack_contributions(attack, hexside_tab)), Fraction(0))


def defense_strength(attack: Attack, effects: HexEffects | None = None) -> Fraction:
    """EUR-10 Total defense strength: units (and EUR-08 artillery), times the fortified /
    major-city multiplier, plus the terrain's +1 or +2 (per hex).

    >>> from grognard.europa.combat.attack import attack_from_json
    >>> a = attack_from_json({"attackers": [{"id": "x", "attack": 10}],
    ...      "defenders": [{"id": "d", "defense": 5}], "terrain": "wooded_rough"})
    >>> defense_strength(a)
    Fraction(7, 1)
    """
    e = effects if effects is not None else hex_effects(attack.terrain, attack.fortified,
                                                          attack.major_city)
    units = sum((s for _, s in defense_contributions(attack)), Fraction(0))
    return units * e.defense_multiplier + e.defense_add


@dataclass(frozen=True, slots=True)
class ArmorStrengths:
    """EUR-02 armor-only strengths of both sides."""

    attacker: Fraction
    defender: Fraction
    attacker_has_armor: bool


def armor_strengths(attack: Attack, hexside_tab: Table | None = None) -> ArmorStrengths:
    """EUR-02 (New armor advantage procedure) Armor-only strengths: 100% of full-armor units and
    50% of limited-rated units; defenders also count AT-rated units (100%) if the attackers have
    any armor at all. Each unit counts what it adds to the combat (after supply and crossing).
    """
    factor = {ArmorClass.FULL: Fraction(1), ArmorClass.LIMITED: HALF}
    att_of = dict(attack_contributions(attack, hexside_tab))
    att_has = any(u.is_armor_capable for u in attack.attackers if not u.is_artillery)
    a = sum((att_of[u.id] * factor[u.armor] for u in attack.attackers
             if u.is_armor_capable and not u.is_artillery), Fraction(0))
    def_of = dict(defense_contributions(attack))
    d = Fraction(0)
    for u in attack.defenders:
        if u.is_armor_capable:
            d += def_of[u.id] * factor[u.armor]
        elif u.armor == ArmorClass.AT and att_has:
            d += def_of[u.id]
    return ArmorStrengths(a, d, att_has)
