"""Exact battle estimates for the bots, from their own view, through the rule-system hooks.

:class:`Estimate` is what a bot weighs before attacking: the chance the hex is taken (emptied
of defenders) and the expected value each side loses (unit factors in 3R, SPs in Europa). The
rules' own figures come from the system's hooks, so nothing here knows a system:
:func:`rules_estimate` asks ``Game.odds`` (the referee's odds on the whole position) and
:func:`view_estimate` the system's ``estimate`` hook (the attack as the bot's view shows it:
``third_reich/estimate.py``, ``europa/combat/orders/attack.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grognard.bots.situation import Situation
from grognard.core.errors import GrognardError
from grognard.engine.commands import Command
from grognard.engine.system import system_named


@dataclass(frozen=True, slots=True)
class Estimate:
    """Exact expectations of one attack (None if the rules would refuse it)."""

    p_taken: Fraction
    attacker_loss: Fraction
    defender_loss: Fraction
    column: str
    #: the chance the defender's hex is emptied where the system gives it (Europa's
    #: ``p_hex_cleared``: a "1" result empties a major city of one-step units, EUR-11/13),
    #: else None; the search's last assaults weigh it (session 30), the planner ``p_taken``
    p_cleared: Fraction | None = None

    def value(self, hex_value: int, caution: Fraction = Fraction(6, 5)) -> Fraction:
        """Expected gain: the hex (weighted by its value + 1) and the enemy's losses, minus
        our own losses weighed by ``caution``."""
        return self.p_taken * (hex_value + 1) + self.defender_loss - caution * self.attacker_loss


def _fraction(x: Any) -> Fraction | None:
    if type(x) is Fraction:  # already exact (a system's estimate hook): no round trip by text
        return x
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
    taken = [_fraction(o.get(k)) for k in ("p_taken", "p_defender_eliminated",
                                          "p_defender_retreat")]
    att = _fraction(o.get("expected_attacker_loss", o.get("e_attacker_loss")))
    dfn = _fraction(o.get("expected_defender_loss", o.get("e_defender_loss")))
    got = [t for t in taken if t is not None]
    if not got or att is None or dfn is None:
        return None
    return Estimate(max(got), att, dfn, str(o.get("column", "")),
                    _fraction(o.get("p_hex_cleared")))


def rules_estimate(game: Any, cmd: Any) -> Estimate | None:
    """The rule system's own odds of ``cmd`` (``Game.odds``: verified, from the system's
    hook), or None when the system gives no odds or refuses the order."""
    if game is None or game.system.odds is None:
        return None
    try:
        return from_odds(game.odds(cmd))
    except GrognardError:
        return None


def view_estimate(sit: Situation, target: str, attackers: Sequence[str],
                  view: Mapping[str, Any] | None = None) -> Estimate | None:
    """The system's own exact estimate of attacking ``target`` with ``attackers`` as the
    bot's view shows the battle (its ``estimate`` hook), or None when it gives none;
    ``view``: a position the bot plans (its own view with some of its units moved)."""
    hook = system_named(sit.context.scenario.system).estimate
    if hook is None:
        return None
    got = hook(sit.context, sit.view if view is None else view, sit.player, target,
               attackers)
    return from_odds(got) if got is not None else None


def tr_estimate(sit: Situation, target: str, attackers: Sequence[str]) -> Estimate | None:
    """TR-32: exact expectations of a 3R land attack on ``target`` by ``attackers`` (the
    ground battle as the bot sees it: clear weather, no air or naval support)."""
    return view_estimate(sit, target, attackers)


def europa_estimate(sit: Situation, args: Mapping[str, Any]) -> Estimate | None:
    """EUR-09: exact expectations of an attack order with ``args`` (the system's own attack
    model over the bot's view); the hex and the units are where the order acts
    (the system's ``places`` hook)."""
    places = system_named(sit.context.scenario.system).places
    if places is None:
        return None
    where = places(Command("attack", sit.player, dict(args)))
    if where.target is None:
        return None
    return view_estimate(sit, where.target, where.units)
