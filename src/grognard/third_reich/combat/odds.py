"""TR-32..TR-36 The odds of an ``attack`` order before its roll, and why: the system's
``odds`` hook (:attr:`RuleSystem.odds <grognard.engine.system.RuleSystem.odds>`,
:meth:`Game.odds <grognard.engine.game.Game.odds>`), what the attack panel of the page shows.

The battle is the one the order fights (:func:`attack_battle`: declared air and naval support
at full strength), its TR-32..TR-36 assessment (defense, support, odds, column shifts, armor
DRM) and the exact chance of every CRT result and of each side's unit losses over the 2D6, as
:func:`~grognard.third_reich.combat.combat.resolve_battle` would apply them - one source of
truth for the roll.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from grognard.core.dice import Distribution
from grognard.core.errors import InputError
from grognard.core.exact import exact_json, ratio_str
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.third_reich.combat.battle import attack_battle
from grognard.third_reich.combat.combat import (
    Battle,
    assess_battle,
    column_odds,
    crt_table,
    resolve_battle,
)
from grognard.third_reich.state_types import TRState


def attack_odds(ctx: Context, state: TRState, cmd: Command) -> dict[str, Any]:
    """TR-32..TR-36: the odds of a legal 3R ``attack`` order and every modifier behind them
    (the caller has verified the order)."""
    if cmd.kind != "attack":
        raise InputError("kind", "odds are given for attack commands")
    tables = ctx.tables
    battle = attack_battle(ctx, state, cmd)
    a = assess_battle(battle, tables)
    probabilities = column_odds(a.odds.column, a.drm, crt_table(tables))
    two_d6 = Distribution.of("2d6")
    outcomes = {r: resolve_battle(battle, r, tables).outcome for r in range(2, 13)}
    lost_a = two_d6.expectation(lambda r: outcomes[r].attacker_losses)
    lost_d = two_d6.expectation(lambda r: outcomes[r].defender_losses)
    emptied = two_d6.expectation(lambda r: Fraction(int(outcomes[r].hex_emptied)))
    d, s = a.defense, a.support
    why = [f"defense {d.total}: printed factors {d.base}"
           + (f", weather +{d.add}" if d.add else "")
           + (f", fortified ({d.doubled_unit} doubled)" if d.fortified else "")
           + (" (Russian winter)" if d.russian_winter else ""),
           f"attack {exact_json(a.attack)}: ground {a.ground_attack}"
           + (f" + support {exact_json(s.used)} (air {s.air}, naval {exact_json(s.naval)}; "
              f"capped at {s.cap}; if it survives the air/naval fight)" if s.offered else ""),
           f"odds {ratio_str(a.odds.odds)}: column {a.odds.raw_column}"
           + (f", {a.odds.shifts} column shift(s) left ({shift_reasons(battle)}) "
              f"to {a.odds.column}" if a.odds.shifts else ""),
           f"DRM {a.drm:+d}" + (" (armor superiority, TR-36)" if a.drm else "")]
    return {
        "odds": ratio_str(a.odds.odds), "column": a.odds.column, "raw_column": a.odds.raw_column,
        "shifts": a.odds.shifts, "drm": a.drm,
        "attack_strength": exact_json(a.attack), "defense_strength": d.total,
        "support": s.to_json(), "defense": d.to_json(),
        "probabilities": {k: ratio_str(v) for k, v in probabilities.items()},
        "expected_attacker_loss": exact_json(lost_a),
        "expected_defender_loss": exact_json(lost_d),
        "p_hex_taken": ratio_str(emptied), "losses_in": "units", "why": why,
    }


def shift_reasons(battle: Battle) -> str:
    """TR-34: why the odds column shifts left (swamp/mountain, every attacker across a river,
    an invasion; none of them when airborne units landed in the hex)."""
    out = []
    if str(battle.terrain) in ("swamp", "mountain"):
        out.append(str(battle.terrain))
    if battle.all_river and not battle.airborne_in_hex:
        out.append("every attacker across a river")
    if battle.amphibious and not battle.airborne_in_hex:
        out.append("invasion")
    return ", ".join(out) or "TR-34"


__all__ = ["attack_odds", "shift_reasons"]
