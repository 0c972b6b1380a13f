"""The referee hooks of the ``europa`` engine system: who must decide what after a combat
(EUR-12..EUR-16, the attacker's advance) and in the supply phase, the prompts and the end of
the game.

* :func:`decisions` - a loss requirement is the losing side's decision (EUR-12: "the side
  taking the loss picks the units"), a retreat the retreating side's (EUR-15/16), the advance
  into an emptied hex the attacker's (EUR-15), an isolated stack's attrition loss its owner's
  (EUR-32). While one is owed the phase cannot end.
* the engine's forced single choices and each command's legal-action lister are on the
  command's Order (:mod:`grognard.europa.order`, the ``orders`` packages of
  ``combat``, ``supply``, ``air``, ``surprise`` and ``play``).
* :func:`game_over` - after the scenario's last turn (``[europa] last_turn``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from grognard.core.exact import exact_json
from grognard.engine.context import Context
from grognard.engine.decisions import Decision
from grognard.engine.phases import Phase
from grognard.europa.board import (
    SURPRISE_PREFIX,
    europa_rules,
    on_map,
    turn_label,
)
from grognard.europa.combat.commands import combat_decisions
from grognard.europa.state_types import EuropaState
from grognard.europa.supply.commands import has_isolated


def _title(player: str) -> str:
    return player[:1].upper() + player[1:]


def _phase(ctx: Context, state: EuropaState) -> Phase:
    return ctx.turn_sequence.phases[int(state["phase"])]


# --- decisions -----------------------------------------------------------------------------------
def decisions(ctx: Context, state: EuropaState) -> list[Decision]:
    """EUR-12..EUR-16, EUR-32 The decisions owed now, each by the player the rules give it to."""
    out = combat_decisions(ctx, state)
    for loss in (state.get("supply") or {}).get("losses", []):
        out.append(Decision(
            loss["player"], frozenset({"allocate_isolation_losses"}),
            f"{_title(loss['player'])}: allocate {loss['requirement']} SPs of isolation "
            f"attrition in {loss['hex']}", "EUR-32"))
    out += supply_phase_decisions(ctx, state)
    return out


def supply_phase_decisions(ctx: Context, state: EuropaState) -> list[Decision]:
    """EUR-30..EUR-32 The supply phase is not skipped. The engine checks supply as the phase
    opens (:func:`~grognard.europa.supply.commands.opening_supply_check`); should a game
    start in a supply phase, the check is owed by its player. With an isolated hex the player
    rolls isolation attrition (declaring any Break Outs) before the phase can end. Only where
    the scenario gives the side supply sources (``[europa] supply_sources``)."""
    phase = _phase(ctx, state)
    player = phase.player
    if phase.name != "supply" or not europa_rules(ctx.scenario).section.supply_sources.get(
            player):
        return []
    slot = state.get("supply") or {}
    key = [int(state["turn"]), int(state["phase"])]
    if slot.get("checked") != key:
        return [Decision(player, frozenset({"supply_check"}),
                         f"{_title(player)}: check your units' supply (OOS and isolation "
                         "marks) before the supply phase ends", "EUR-30")]
    if has_isolated(state, player) and slot.get("attrition") != key:
        return [Decision(player, frozenset({"isolation_attrition"}),
                         f"{_title(player)}: roll isolation attrition for your isolated hexes "
                         "(declare any Break Outs)", "EUR-32")]
    return []


# --- prompts, dates, end of game ------------------------------------------------------------------
_WORDS = {
    "initial": "plan or start surprises",
    "movement": "move and overrun",
    "air": "fly air missions",
    "combat": "attack",
    "exploitation": "move in exploitation and overrun",
    "supply": "check supply and roll isolation attrition",
    "replacement": "take replacements",
    "bonus_movement": "move in the surprise's bonus movement phase (SUR-01, SUR-17)",
    "reaction": "move reserves within 5 hexes of the surprise front (SUR-18)",
    "bonus_combat": "attack in the surprise's bonus combat phase (SUR-01)",
    "bonus_supply_air": "judge supply after the bonus phases (SUR-21)",
}


def phase_prompt(ctx: Context, state: EuropaState, phase: Phase) -> str:
    """EUR-22 "Axis, Jun II 1941: combat phase - attack, or end the phase"."""
    base = phase.name.removeprefix(SURPRISE_PREFIX)
    what = _WORDS.get(base, "act")
    surprise = " (surprise turn, EUR-44)" if phase.name != base else ""
    return (f"{_title(phase.player)}, {turn_label(ctx, state)}: {base} phase{surprise} - "
            f"{what}, or end the phase{_stockpile(state, phase.player)}")


def _stockpile(state: EuropaState, player: str) -> str:
    """EUR-37..EUR-39 the phasing side's SPs, where the scenario keeps stockpiles."""
    lg = state.get("logistics")
    if not isinstance(lg, dict) or player not in lg["sp"]:
        return ""
    special = Fraction(lg["special"])
    extra = f" + {exact_json(special)} special" if special else ""  # EUR-39: surprise turn
    return f" ({exact_json(Fraction(lg['sp'][player]))}{extra} SPs)"


def last_turn(ctx: Context) -> int | None:
    """The scenario's last game turn: ``[europa] last_turn`` (None: the game has no end)."""
    return europa_rules(ctx.scenario).section.last_turn


def game_over(ctx: Context, state: EuropaState) -> dict[str, Any] | None:
    """The end of the game: after the last turn (``[europa] last_turn``) the winner is decided by ``[europa.victory]`` (``side``, ``hexes``,
    ``need``: that side wins if its units hold at least ``need`` of the hexes, the other side
    otherwise), or nobody (a draw) without one."""
    sides = list(state["sides"])
    last = last_turn(ctx)
    if last is None or int(state["turn"]) <= last:
        return None
    v = europa_rules(ctx.scenario).section.victory
    if v is None or v.side not in sides:
        return {"winner": None, "reason": "last turn",
                "summary": f"draw: turn {last} played, no victory conditions"}
    held = {u["hex"] for _, u in on_map(state) if u["side"] == v.side}
    count = sum(1 for h in v.hexes if h in held)
    need = v.need if v.need is not None else len(v.hexes)
    other = next(s for s in sides if s != v.side)
    winner = v.side if count >= need else other
    return {"winner": winner, "reason": "last turn", "held": count, "need": need,
            "summary": f"{winner} wins after turn {last}: {v.side} holds {count} of "
                       f"{need} objective hexes needed"}
