"""The ``search`` bot: expectimax over the exact CRT odds for the combat phase.

In a combat phase the bot plans the phase's attacks as a tree: max nodes choose the next
attack (a target hex and a set of attackers: each enumerated attack, the same without one of
its units, and its smallest set that keeps the odds column), chance nodes average over the
exact 2D6 distribution of the CRT (:mod:`grognard.bots.odds`), and "stop" is always a child.
A unit attacks once a phase and a hex is attacked once, so a plan uses disjoint attackers and
distinct hexes. In the bot's model a battle's outcome does not change another battle's odds,
so each chance node reduces to the attack's exact expectation; the search is over the
allocation of units to attacks (depth :data:`DEPTH`, the :data:`WIDTH` best children per
node). The bot plays the first attack of the best plan. Every other decision is the heuristic
bot's.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from grognard.bots.base import LegalActions, Seat, args_units
from grognard.bots.heuristic import HeuristicBot
from grognard.bots.odds import Estimate
from grognard.bots.situation import Situation
from grognard.engine.commands import Command
from grognard.engine.state import JSON

DEPTH = 3
WIDTH = 6


class SearchBot(HeuristicBot):
    name = "search"

    def __init__(self, seat: Seat) -> None:
        super().__init__(seat)
        self._game: Any = None

    def _target(self, cmd: Command) -> str | None:
        return self.policy.attack_target(cmd, self._game)

    def estimate(self, sit: Situation, cmd: Command) -> Estimate | None:
        """The exact estimate of an attack: the rules' odds (``Game.odds``) when the system
        gives them, else the policy's own (:meth:`Policy.attack_estimate`)."""
        if self._target(cmd) is None:
            return None
        return self.policy.attack_estimate(sit, cmd, self._game)

    def candidates(self, sit: Situation, attacks: Sequence[Command]
                   ) -> list[tuple[Fraction, Command]]:
        """Every attack considered, with its exact expected value."""
        seen: set[tuple[str, tuple[str, ...]]] = set()
        out: list[tuple[Fraction, Command]] = []

        def add(cmd: Command) -> Estimate | None:
            key = (str(self._target(cmd)), tuple(sorted(args_units(cmd.args, "attackers"))))
            if key in seen:
                return None
            seen.add(key)
            est = self.estimate(sit, cmd)
            if est is not None:
                out.append((est.value(self.policy.hex_value(sit, key[0]),
                                      self.policy.caution), cmd))
            return est

        for cmd in attacks:
            full = add(cmd)
            units = args_units(cmd.args, "attackers")
            if full is None or len(units) < 2:
                continue
            by_strength = sorted(units, key=lambda u: (
                int(sit.view["units"].get(u, {}).get("attack") or 0), u))
            kept = list(units)
            for u in by_strength:  # smallest set keeping the column
                trial = [k for k in kept if k != u]
                if not trial:
                    break
                sub = Command(cmd.kind, cmd.player, {**cmd.args, "attackers": trial})
                est = self.estimate(sit, sub)
                if est is None or est.column != full.column:
                    break
                kept = trial
            if kept != units:
                add(Command(cmd.kind, cmd.player, {**cmd.args, "attackers": kept}))
            for u in units:
                add(Command(cmd.kind, cmd.player,
                            {**cmd.args, "attackers": [k for k in units if k != u]}))
        return out

    def plan(self, cands: Sequence[tuple[Fraction, Command]]) -> tuple[Fraction, list[Command]]:
        """The best plan of disjoint attacks (expectimax; chance nodes are exact expectations)."""
        ranked = sorted(cands, key=lambda vc: -vc[0])

        def best(used: frozenset[str], hexes: frozenset[str], depth: int
                 ) -> tuple[Fraction, list[Command]]:
            if depth == 0:
                return Fraction(0), []
            top: tuple[Fraction, list[Command]] = (Fraction(0), [])  # stop here
            tried = 0
            for v, cmd in ranked:
                units = frozenset(args_units(cmd.args, "attackers"))
                t = str(self._target(cmd))
                if v <= 0 or units & used or t in hexes:
                    continue
                rest_v, rest = best(used | units, hexes | {t}, depth - 1)
                if v + rest_v > top[0]:
                    top = (v + rest_v, [cmd, *rest])
                tried += 1
                if tried >= WIDTH:
                    break
            return top

        return best(frozenset(), frozenset(), DEPTH)

    def choose(self, view: JSON, legal_actions: Sequence[Command]) -> Command:
        attacks = (legal_actions.of("attack") if isinstance(legal_actions, LegalActions)
                   else [c for c in legal_actions if c.kind == "attack"])
        self._game = legal_actions.game if isinstance(legal_actions, LegalActions) else None
        if attacks:
            sit = self.policy.situation(view, self._game)
            _value, plan = self.plan(self.candidates(sit, attacks))
            if plan:
                return plan[0]
            kinds = (set(legal_actions.kinds()) if isinstance(legal_actions, LegalActions)
                     else {c.kind for c in legal_actions})
            ends = (legal_actions.of("end_phase") if isinstance(legal_actions, LegalActions)
                    else [c for c in legal_actions if c.kind == "end_phase"])
            if ends and kinds <= {"attack", "end_phase"}:
                return ends[0]
        return super().choose(view, legal_actions)
