"""``place_chit`` {strength, count}: EF-18 steps 2-3, each player's face-down HQ Activation chit.

Both players place at once (a decision each owes). The first chit waits in the placing
player's secrets (invisible in the other's view); the second placement reveals both
(``chits_revealed``, a reveal event: it clears undo). A zero chit (strength 0, count 0)
activates nothing; two zero chits end the month.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words
from grognard.eurofront.activation import Chit, Step, verify_choose_chit
from grognard.eurofront.game_state import act_of, other, side_of, store
from grognard.eurofront.orders.base import EFOrder, who
from grognard.eurofront.state_types import ChitPlaced, ChitsRevealed, EFState


class ChitArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The chit: the HQ strength class it activates (0 = a zero chit) and how many HQs."""

    strength: int
    count: int = 0


def fold_chit_placed(state: EFState, ev: Event) -> EFState:
    d = cast(ChitPlaced, ev.data)
    state["secrets"][d["side"]]["chit"] = [d["strength"], d["count"]]
    return state


def fold_chits_revealed(state: EFState, ev: Event) -> EFState:
    """EF-18 step 4: both chits are turned over together."""
    d = cast(ChitsRevealed, ev.data)
    chits = d["chits"]
    for side in ("axis", "allies"):
        state["secrets"][side].pop("chit", None)
    state["activation"]["chits"] = {s: list(c) for s, c in chits.items()}
    state["activation"]["revealed"] = True
    state["activation"]["step"] = Step.REVEAL.value
    return store(state, act_of(state))


class PlaceChit(EFOrder[ChitArgs]):
    kind = "place_chit"
    rule = "EF-18"
    help = "EF-18 Place a face-down HQ Activation chit."
    example: ClassVar[Mapping[str, int]] = {"strength": 2, "count": 1}
    Args = ChitArgs
    folds: ClassVar[Mapping[str, Fold]] = {"chit_placed": fold_chit_placed,
                                           "chits_revealed": fold_chits_revealed}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: ChitArgs) -> None:
        """EF-18 steps 2-3: each player places a chit face down; both at once."""
        verify_choose_chit(act_of(state), side_of(cmd.player), Chit(args.strength, args.count))

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: ChitArgs,
                dice: Dice) -> list[Event]:
        """The first chit is kept secret; the second placement reveals both."""
        c = Chit(args.strength, args.count)
        mine = [c.strength, c.count]
        theirs = state["secrets"][other(cmd.player)].get("chit")
        if theirs is None:
            return [Event("chit_placed", {"side": cmd.player, "strength": c.strength,
                                          "count": c.count})]
        return [Event("chits_revealed", {"chits": {cmd.player: mine,
                                                   other(cmd.player): list(theirs)},
                                         "last": cmd.player})]

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        act = act_of(state)
        if act.step is not Step.CHOOSE or side_of(player) in act.chits:
            return []
        out = [Command(self.kind, player, {"strength": 0, "count": 0})]
        for strength in (1, 2, 3):
            have = sum(1 for s in act.hqs[side_of(player)].values() if s == strength)
            out += [Command(self.kind, player, {"strength": strength, "count": n})
                    for n in range(1, have + 1)]
        return out

    def words(self, ctx: Context, state: EFState, cmd: Command, args: ChitArgs) -> Words:
        if args.strength == 0:
            return Words(f"{who(cmd.player)}: place a zero chit face down (activate no HQ)",
                         "Zero chit")
        hqs = f"{args.count} HQ{'s' if args.count != 1 else ''}"
        return Words(f"{who(cmd.player)}: place a {args.strength}-strength chit face down "
                     f"(activate {hqs} of {args.strength} strength points)",
                     f"Chit {args.strength} x{args.count}")
