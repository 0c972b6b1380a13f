"""``move`` (EUR-17): a ground unit moves along adjacent hexes under EUR-17's ZOC costs (a
``path``, or ``to`` a hex by the cheapest path), paying SPs where the scenario keeps
stockpiles (EUR-37); refused while an overrun waits (EUR-18); on the FitE surprise turn only
EUR-44's one hex across the border; in rule-47 bonus phases and with "+ # MP" markers the
surprise's limits (SUR-16..SUR-18)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import GrognardError
from grognard.core.units import GROUND_TYPES, UnitType
from grognard.engine import generic
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words, as_list, hex_name, plural
from grognard.engine.system import Places
from grognard.europa.board import SURPRISE_PREFIX, on_map
from grognard.europa.choices import own_units
from grognard.europa.movement import legal_moves
from grognard.europa.order import EuropaOrder
from grognard.europa.play.turn import (
    execute_move,
    fold_unit_moved,
    surprise_geometry,
    verify_move,
)
from grognard.europa.state_types import EuropaState
from grognard.europa.surprise.turn import BONUS_PHASES, surprise_unit_problem
from grognard.europa.words import path_places, unit_name


class MoveArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The unit and where it goes: ``to`` a hex (the cheapest path) or an explicit
    ``path``."""

    unit: str
    to: str | None = None
    path: list[str] | None = None


class Move(EuropaOrder[MoveArgs]):
    kind = "move"
    rule = "EUR-17"
    help = "Move a unit along adjacent hexes (EUR-44 on the surprise turn)."
    example: ClassVar[Mapping[str, Any]] = {"unit": "de-7pz", "path": ["0504"]}
    Args = MoveArgs
    folds: ClassVar[Mapping[str, Fold]] = {"unit_moved": fold_unit_moved}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: MoveArgs) -> None:
        verify_move(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: MoveArgs,
                dice: Dice) -> list[Event]:
        return execute_move(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: EuropaState, player: str) -> Iterator[Command]:
        """MOVE Cheap candidates, a superset of the legal moves: the EUR-17 moves of ground
        units (per unit, each reachable hex by its cheapest path); none while an overrun
        waits (EUR-18); on the FitE surprise turn only a border unit's step into an adjacent
        free Soviet hex, not from enemy ZOC into enemy ZOC (EUR-44), so the turn never prices
        the whole map's moves."""
        if state.get("overrun", {}).get("pending") is not None:
            return
        if _phase_name(ctx, state).startswith(SURPRISE_PREFIX):
            soviet, border, zoc = surprise_geometry(ctx, state, player)
            m = ctx.scenario.map
            enemy = {u["hex"] for _, u in on_map(state) if u["side"] != player}
            for uid, u in own_units(state, player):
                here = u["hex"]
                if (here not in border or here in soviet or u["movement"] - u["mp_spent"] <= 0
                        or UnitType(u["type"]) not in GROUND_TYPES):
                    continue
                for j in m.neighbor_indices(m.index_of_label(here)):
                    to = m.label(int(j))
                    if to in soviet and to not in enemy and not (here in zoc and to in zoc):
                        yield Command("move", player, {"unit": uid, "to": to})
            return
        yield from legal_moves(ctx, state, player)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> Iterator[Command]:
        """MOVE The proposed moves; those of the surprise phases (EUR-44, rule 47 bonus
        phases) and of units with "+# MP" markers (SUR-16) verified, the others legal by
        construction (in the bonus phases once the unit itself may move: SUR-17/SUR-18,
        checked per unit)."""
        phase = ctx.turn_sequence.phases[int(state["phase"])]
        fite = phase.name.startswith(SURPRISE_PREFIX)
        bonus = phase.name in BONUS_PHASES
        for cmd in self.propose(ctx, state, player):
            uid = cmd.args["unit"]
            if bonus and surprise_unit_problem(ctx, state, uid, phase) is not None:
                continue  # SUR-17/SUR-18: the unit may not move at all
            if (fite or state["units"][uid].get("mp_markers")) and \
                    not self.checked(ctx, state, [cmd]):
                continue
            yield cmd

    def sample(self, ctx: Context, state: EuropaState, player: str, rng: random.Random
               ) -> Command | None:
        """MOVE One of :meth:`legal`'s commands drawn uniformly without listing them all:
        the generic draw (:func:`grognard.engine.generic.sample_move`, uniform over every
        unit's reachable hexes under the generic costs, a superset of EUR-17's) rejected
        until it is a ground unit's move that passes verify (EUR-17, the surprise phases,
        "+# MP" markers); a uniform choice among the listed moves after
        :data:`~grognard.engine.generic.SAMPLE_TRIES` misses. The EUR-44 turn's few border
        moves are drawn from their (short) proposal."""
        if state.get("overrun", {}).get("pending") is not None:
            return None
        if not _phase_name(ctx, state).startswith(SURPRISE_PREFIX):
            for _ in range(generic.SAMPLE_TRIES):
                cmd = generic.sample_move(ctx, state, player, rng)
                if cmd is None:
                    return None
                u = state["units"][cmd.args["unit"]]
                if UnitType(u["type"]) not in GROUND_TYPES:
                    continue
                try:  # EUR-17's ZOC costs, the surprise phases' and markers' checks
                    self.check(ctx, state, cmd)
                except GrognardError:
                    continue
                return cmd
        candidates = list(self.propose(ctx, state, player))
        rng.shuffle(candidates)
        for cmd in candidates:
            try:
                self.check(ctx, state, cmd)
            except GrognardError:
                continue
            return cmd
        return None

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        path = as_list(a.get("path"))
        to = str(a["to"]) if a.get("to") else (path[-1] if path else "?")
        steps = f" ({plural(len(path), 'hex')})" if path else ""
        return Words(f"Move {unit_name(state, a.get('unit'))} to {hex_name(ctx, to)}{steps}",
                     f"to {to}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return path_places(cmd, "unit", "units")


def _phase_name(ctx: Context, state: EuropaState) -> str:
    return ctx.turn_sequence.phases[int(state["phase"])].name


MOVE = Move()
