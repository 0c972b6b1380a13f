"""TR-32 a side's own estimate of a land attack, from its view (the ``estimate`` hook).

What a bot weighs before attacking: the chance the hex is emptied of defenders and the expected
unit factors each side loses (armor weighted 3/2), from the exact 2D6 distribution of the land
CRT over the battle as the side sees it (the hex's terrain, fortification and rivers; clear
weather, no air or naval support; face-down units unseen). Losses fall on the weakest units
first. Only reads; None when the view gives no battle or the rules refuse it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from grognard.core.dice import Distribution
from grognard.core.errors import GrognardError
from grognard.core.mapdata import Fortification, HexsideFeature
from grognard.engine.context import Context
from grognard.engine.state import JSON
from grognard.third_reich.combat.combat import (
    Battle,
    Terrain,
    apply_land_result,
    assess_battle,
    crt_result,
    crt_table,
)
from grognard.third_reich.turn.forces import GroundKind, GroundUnit, Side

TWO_D6 = Distribution.of("2d6")
RIVERS = HexsideFeature.RIVER | HexsideFeature.MAJOR_RIVER
#: An armor factor lost weighs more than an infantry factor.
ARMOR_WEIGHT = Fraction(3, 2)


def ground_unit(uid: str, u: Mapping[str, Any]) -> GroundUnit:
    """A unit of the view as the land CRT counts it."""
    kind = {"armor": GroundKind.ARMOR, "airborne": GroundKind.AIRBORNE,
            "replacement": GroundKind.REPLACEMENT}.get(str(u.get("type")), GroundKind.INFANTRY)
    side = Side.AXIS if (u.get("side") == "axis") else Side.ALLIES
    return GroundUnit(uid, str(u.get("nationality", "")), side, kind,
                      int(u.get("attack") or 0), int(u.get("movement") or 3))


def _weight(u: GroundUnit) -> Fraction:
    return u.factors * (ARMOR_WEIGHT if u.is_armor else Fraction(1))


def estimate(ctx: Context, view: JSON, player: str, target: str,
             attackers: Sequence[str]) -> dict[str, Any] | None:
    """TR-32: ``player``'s exact expectations of a land attack on ``target`` by ``attackers``."""
    units = view.get("units", {})
    m = ctx.scenario.map
    try:
        th = m.layout.from_label(target)
        att = [ground_unit(a, units[a]) for a in attackers]
        dfn = [ground_unit(d, u) for d, u in sorted(units.items())
               if u.get("hex") == target and u.get("side") != player
               and u.get("type") not in ("air", "fleet", "naval") and not u.get("hidden")]
        if not att or not dfn:
            return None
        try:
            terrain = Terrain(m.terrain_of(th).value)
        except ValueError:
            terrain = Terrain.OTHER
        across = [units[a]["hex"] for a in attackers if units[a].get("hex") != target]
        rivers = bool(across) and all(
            m.features_between(m.layout.from_label(h), th) & RIVERS for h in across)
        battle = Battle(attackers=tuple(att), defenders=tuple(dfn), terrain=terrain,
                        fortified=m.fortification_of(th) is not Fortification.NONE,
                        all_river=rivers)
        table = crt_table(ctx.tables)
        a = assess_battle(battle, ctx.tables)
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
    return {"p_taken": p_taken, "expected_attacker_loss": e_att,
            "expected_defender_loss": e_def, "column": a.odds.column}


__all__ = ["ARMOR_WEIGHT", "estimate", "ground_unit"]
