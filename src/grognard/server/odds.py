"""The odds of an attack before its roll, and why: what the attack panel of the page shows.

The server asks the rules (:meth:`Game.odds`, the rule system's ``odds`` hook). Until the 3R and
Europa packages register their ``odds`` hooks (issue 22, other helpers), :func:`odds_of` falls
back to the code below, which reads those systems' own modules: the fallback goes when the
hooks land. What follows describes that fallback.

Europa: the revised CRT over the attack as ordered (:mod:`grognard.analysis.europa_crt`).
Revised Third Reich: the battle the order fights (``third_reich.play.system_attack.attack_battle``:
declared air and naval support at full strength), its TR-32..TR-36 assessment (defense, support,
odds, column shifts, armor DRM) and the exact chance of every CRT result and of each side's unit
losses over the 2D6, as ``resolve_battle`` would apply them. EuroFront has no odds display: its
battles start when an activation ends, against blocks face down until then, so any odds would
tell the attacker the defenders' hidden steps and firepower.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from grognard.core.dice import Distribution
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import exact_json, ratio_str
from grognard.engine.commands import Command
from grognard.engine.game import Game


def odds_of(game: Game, cmd: Command) -> dict[str, Any]:
    """The exact odds of ``cmd`` (verified here), from the rules' ``odds`` hook; the older
    per-system code while a system has no hook yet (FALLBACK, see the module's doc)."""
    if game.system.odds is not None:
        return {"odds": dict(game.odds(cmd))}
    game.verify(cmd)
    return attack_odds_of(game, cmd)


def attack_odds_of(game: Game, cmd: Command) -> dict[str, Any]:
    """Exact odds of a legal ``attack`` of ``game`` (verified by the caller)."""
    if cmd.kind != "attack":
        raise InputError("kind", "odds are given for attack commands")
    if game.system.name == "europa":
        from grognard.analysis.europa_crt import attack_odds
        from grognard.europa.combat.attack import attack_from_json
        from grognard.europa.play.combat import attack_json

        raw = attack_json(game.context, game.state, cmd.player, cmd.args)
        odds = attack_odds(attack_from_json(raw, game.context.tables), game.context.tables)
        return {"system": "europa", "odds": {**odds.to_json(), "losses_in": "SPs"}}
    if game.system.name == "third_reich":
        return {"system": "third_reich", "odds": third_reich_odds(game, cmd)}
    raise IllegalOrder("ODDS", f"no odds display for {game.system.name} attacks")


def third_reich_odds(game: Game, cmd: Command) -> dict[str, Any]:
    """TR-32..TR-36: the odds of a 3R attack order and every modifier behind them."""
    from grognard.third_reich.combat.combat import (
        assess_battle,
        column_odds,
        crt_table,
        resolve_battle,
    )
    from grognard.third_reich.play.system_attack import attack_battle

    tables = game.context.tables
    battle = attack_battle(game.context, game.state, cmd)
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
           + (f", {a.odds.shifts} column shift(s) left ({_shift_reasons(battle)}) "
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


def _shift_reasons(battle: Any) -> str:
    out = []
    if str(battle.terrain) in ("swamp", "mountain"):
        out.append(str(battle.terrain))
    if battle.all_river and not battle.airborne_in_hex:
        out.append("every attacker across a river")
    if battle.amphibious and not battle.airborne_in_hex:
        out.append("invasion")
    return ", ".join(out) or "TR-34"
