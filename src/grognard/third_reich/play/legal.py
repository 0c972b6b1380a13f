"""The idle-phase scan of the ``third_reich`` referee (:func:`idle_phase`, for ``end_phase``).

The Orders' proposers sit beside them: :mod:`~grognard.third_reich.movement.proposers` (move,
SR), :mod:`~grognard.third_reich.air_naval.proposers` (air stage, naval transport, counter
air), :mod:`~grognard.third_reich.combat.proposers` (air drop, invasion, attack, attrition,
hexes won, withdrawal, saves), on what :mod:`~grognard.third_reich.proposals` shares; the
other Orders propose in their own modules. Each proposes candidate commands (an Order's
``propose``): the engine keeps those the order's own verify accepts, so every listed command
is legal.
"""

from __future__ import annotations

from collections.abc import Mapping

from grognard.engine.commands import CommandSpec, has_legal
from grognard.engine.context import Context
from grognard.third_reich.state_types import TRState
from grognard.third_reich.turn.sequence import Phase

#: Phases never passed over: the options are declared (or passed) in them.
KEEP = frozenset({Phase.DECLARE_OPTIONS.value, Phase.YEAR_START.value})


def idle_phase(ctx: Context, state: TRState, idx: int, commands: Mapping[str, CommandSpec]) -> bool:
    """Whether phase ``idx`` of this game turn would give its player nothing to do but end
    it: no command of the phase has a legal instance in the position as it stands when the
    phase opens (the per-phase marks cleared). Each kind is asked by its witness
    (:func:`~grognard.engine.commands.has_legal`), never by listing all its commands."""
    phase = ctx.turn_sequence.phases[idx]
    if phase.name in KEEP:
        return False
    kinds = sorted(k for k in phase.commands if k in commands and k != "end_phase")
    if not kinds:
        return True
    opened = {**state, "phase": idx, "attacked": [], "attacked_hexes": [], "moved": [],
              "supply_checked": False}
    return not any(has_legal(ctx, opened, commands[kind], phase.player) for kind in kinds)
