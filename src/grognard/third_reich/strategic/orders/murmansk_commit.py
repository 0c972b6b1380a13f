"""``murmansk_commit`` (TR-20): Germany's decision: the air, fleet and U-boat factors it sends to
the Murmansk box (U-boats face down in the Summer I timing); in the Spring timing the box
combat follows at once.

The rule functions it runs are in :mod:`grognard.third_reich.play.system_murmansk`; events:
docs/formats/tr_engine.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order
from grognard.engine.state import JSON
from grognard.third_reich.play.legal import distinct, legal_murmansk_commit
from grognard.third_reich.play.system_murmansk import (
    execute_murmansk_commit,
    fold_murmansk_committed,
    fold_murmansk_resolved,
    verify_murmansk_commit,
)


class MurmanskCommitArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The factors Germany sends: ``air`` and ``naval`` (at most what it has on the map),
    ``subs`` (from its SW box)."""

    air: int = 0
    naval: int = 0
    subs: int = 0


class MurmanskCommit(Order[MurmanskCommitArgs]):
    """TR-20 Germany commits to the Murmansk box (U-boats hidden)."""

    kind = "murmansk_commit"
    rule = "TR-20"
    Args = MurmanskCommitArgs
    help = "TR-20 Germany commits to the Murmansk box (U-boats hidden)."
    example: ClassVar[Mapping[str, object]] = {"subs": 6}
    folds: ClassVar[Mapping[str, Fold]] = {"murmansk_committed": fold_murmansk_committed, "murmansk_resolved": fold_murmansk_resolved}

    def verify(self, ctx: Context, state: JSON, cmd: Command, args: MurmanskCommitArgs) -> None:
        verify_murmansk_commit(ctx, state, cmd)

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: MurmanskCommitArgs,
                dice: Dice) -> list[Event]:
        return execute_murmansk_commit(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: JSON, player: str) -> Iterable[Command]:
        return distinct(legal_murmansk_commit)(ctx, state, player)


__all__ = ["MurmanskCommit", "MurmanskCommitArgs"]
