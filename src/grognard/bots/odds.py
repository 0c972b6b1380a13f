"""Exact battle estimates for the bots, from their own view and the rule packages' odds.

:class:`Estimate` is what a bot weighs before attacking: the chance the hex is taken (emptied
of defenders) and the expected value each side loses, in unit factors (3R) or SPs (Europa),
from the exact 2D6 distribution of the CRT (``third_reich.combat`` / ``europa.combat.crt_analysis``).
The 3R estimate is the ground battle as the bot sees it (clear weather, no air or naval
support); the Europa one is the system's own attack model (``europa.play.combat.attack_json``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grognard.bots.situation import Situation
from grognard.core.dice import Distribution
from grognard.core.errors import GrognardError
from grognard.core.mapdata import Fortification, HexsideFeature
from grognard.europa.combat.odds import attack_odds
from grognard.third_reich.combat.combat import (
    Battle,
    Terrain,
    apply_land_result,
    assess_battle,
    crt_result,
    crt_table,
)
from grognard.third_reich.combat.forces import GroundKind, GroundUnit, Side

TWO_D6 = Distribution.of("2d6")
RIVERS = HexsideFeature.RIVER | HexsideFeature.MAJOR_RIVER
ARMOR_WEIGHT = Fraction(3, 2)


@dataclass(frozen=True, slots=True)
class Estimate:
    """Exact expectations of one attack (None if the rules would refuse it)."""

    p_taken: Fraction
    attacker_loss: Fraction
    defender_loss: Fraction
    column: str

    def value(self, hex_value: int, caution: Fraction = Fraction(6, 5)) -> Fraction:
        """Expected gain: the hex (weighted by its value + 1) and the enemy's losses, minus
        our own losses weighed by ``caution``."""
        return self.p_taken * (hex_value + 1) + self.defender_loss - caution * self.attacker_loss


def _fraction(x: Any) -> Fraction | None:
    try:
        return Fraction(str(x)) if x is not None else None
    except (ValueError, ZeroDivisionError):
        return None


def from_odds(odds: Mapping[str, Any]) -> Estimate | None:
    """An :class:`Estimate` from a rule system's ``Game.odds`` answer (the attack panel's
    figures: the chance the hex is cleared, the expected losses on each side, the column),
    or None when it does not give them."""
    inner = odds.get("odds")
    o = inner if isinstance(inner, Mapping) else odds
    taken = [_fraction(o.get(k)) for k in ("p_taken", "p_hex_cleared", "p_defender_eliminated",
                                          "p_defender_retreat")]
    att = _fraction(o.get("expected_attacker_loss", o.get("e_attacker_loss")))
    dfn = _fraction(o.get("expected_defender_loss", o.get("e_defender_loss")))
    got = [t for t in taken if t is not None]
    if not got or att is None or dfn is None:
        return None
    return Estimate(max(got), att, dfn, str(o.get("column", "")))


def rules_estimate(game: Any, cmd: Any) -> Estimate | None:
    """The rule system's own odds of ``cmd`` (``Game.odds``: verified, from the system's
    hook), or None when the system gives no odds or refuses the order."""
    if game is None or game.system.odds is None:
        return None
    try:
        return from_odds(game.odds(cmd))
    except GrognardError:
        return None


def _tr_unit(uid: str, u: Mapping[str, Any], player: str) -> GroundUnit:
    kind = {"armor": GroundKind.ARMOR, "airborne": GroundKind.AIRBORNE,
            "replacement": GroundKind.REPLACEMENT}.get(str(u.get("type")), GroundKind.INFANTRY)
    side = Side.AXIS if (u.get("side") == "axis") else Side.ALLIES
    return GroundUnit(uid, str(u.get("nationality", "")), side, kind,
                      int(u.get("attack") or 0), int(u.get("movement") or 3))


def _weight(u: GroundUnit) -> Fraction:
    return u.factors * (ARMOR_WEIGHT if u.is_armor else Fraction(1))


def tr_estimate(sit: Situation, target: str, attackers: Sequence[str]) -> Estimate | None:
    """TR-32: exact expectations of a 3R land attack on ``target`` by ``attackers``."""
    units = sit.view.get("units", {})
    m = sit.map
    try:
        th = sit.hex(target)
        att = [_tr_unit(a, units[a], sit.player) for a in attackers]
        dfn = [_tr_unit(d, u, sit.player) for d, u in sorted(units.items())
               if u.get("hex") == target and u.get("side") != sit.player
               and u.get("type") not in ("air", "fleet", "naval") and not u.get("hidden")]
        if not att or not dfn:
            return None
        try:
            terrain = Terrain(m.terrain_of(th).value)
        except ValueError:
            terrain = Terrain.OTHER
        across = [units[a]["hex"] for a in attackers if units[a].get("hex") != target]
        rivers = bool(across) and all(m.features_between(sit.hex(h), th) & RIVERS
                                      for h in across)
        battle = Battle(attackers=tuple(att), defenders=tuple(dfn), terrain=terrain,
                        fortified=m.fortification_of(th) is not Fortification.NONE,
                        all_river=rivers)
        table = crt_table(sit.context.tables)
        a = assess_battle(battle, sit.context.tables)
    except (GrognardError, KeyError, ValueError):
        return None
    att_w = sorted(att, key=lambda u: (u.factors, u.id))
    dfn_w = sorted(dfn, key=lambda u: (u.factors, u.id))
    p_taken = e_att = e_def = Fraction(0)
    for roll, p in TWO_D6.probabilities().items():
        res = crt_result(a.odds.column, a.drm, roll, table)
        out = apply_land_result(res, len(att), len(dfn))
        p_taken += p * out.hex_emptied
        e_att += p * sum((_weight(u) for u in att_w[:out.attacker_losses]), Fraction(0))
        e_def += p * sum((_weight(u) for u in dfn_w[:out.defender_losses]), Fraction(0))
    return Estimate(p_taken, e_att, e_def, a.odds.column)


def europa_estimate(sit: Situation, args: Mapping[str, Any]) -> Estimate | None:
    """EUR-09: exact expectations of a Europa attack order (the system's own attack model)."""
    from grognard.europa.play.combat import attack_json, attack_model

    try:
        odds = attack_odds(attack_model(sit.context, attack_json(sit.context, sit.view, sit.player,
                                                            args)), sit.context.tables)
    except (GrognardError, KeyError, ValueError, TypeError):
        return None
    return Estimate(max(odds.p_defender_eliminated, odds.p_defender_retreat),
                    Fraction(odds.expected_attacker_loss), Fraction(odds.expected_defender_loss),
                    str(odds.setup.odds.column))
