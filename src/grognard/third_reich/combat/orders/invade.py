"""``invade`` (TR-61..TR-63): an amphibious invasion of a beach from offshore hexes: interception
(TR-55/TR-56), the air/naval fight, the CRT with the amphibious shift, a bridgehead (TR-63).

The rule functions it runs are in :mod:`grognard.third_reich.combat.invasion`; events:
docs/formats/tr_engine.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words, as_list, hex_name
from grognard.engine.system import Places
from grognard.third_reich.combat.invasion import (
    execute_invade,
    fold_invaded,
    verify_invade,
)
from grognard.third_reich.combat.proposers import legal_invade
from grognard.third_reich.proposals import distinct
from grognard.third_reich.reactions import ReactingOrder, fold_reaction_owed
from grognard.third_reich.state_types import TRState
from grognard.third_reich.war import power_of, verify_enter
from grognard.third_reich.words import label_of, named_units, units_words


class InvadeArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``beach``: the hex invaded; ``groups``: the offshore groups ``{hex, zone?, fleets,
    cargo: {fleet: [units]}}``; ``air``: ground support; ``escorts``: air escorts by offshore
    hex; ``remove_bridgehead``: a bridgehead given up at the limit; ``interceptors`` /
    ``air_interceptors``: the defender's, by offshore hex (its ``intercept`` answer fills
    them)."""

    beach: str
    groups: list[dict[str, Any]] = msgspec.field(default_factory=list)
    air: list[str] = msgspec.field(default_factory=list)
    escorts: dict[str, list[str]] = msgspec.field(default_factory=dict)
    interceptors: dict[str, list[str]] = msgspec.field(default_factory=dict)
    air_interceptors: dict[str, list[str]] = msgspec.field(default_factory=dict)
    remove_bridgehead: str | None = None


class Invade(ReactingOrder[InvadeArgs]):
    """TR-61..TR-63 Amphibious invasion of a beach from offshore hexes (interception, CRT with
    the amphibious shift, bridgehead; dice from third_reich.invasion)."""

    kind = "invade"
    rule = "TR-61"
    Args = InvadeArgs
    help = ("TR-61..TR-63 Amphibious invasion of a beach from offshore hexes (interception, "
            "CRT with the amphibious shift, bridgehead; dice from third_reich.invasion).")
    example: ClassVar[Mapping[str, object]] = {
        "beach": "F4",
        "groups": [{"hex": "G4", "fleets": ["ge-fleet2"], "cargo": {"ge-fleet2": ["ge-inf5"]}}]}
    folds: ClassVar[Mapping[str, Fold]] = {
        "invaded": fold_invaded,
        "reaction_owed": fold_reaction_owed,
    }

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: InvadeArgs) -> None:
        for g in args.groups:  # TR-25: the beach's country at war with each invader
            cargo = g.get("cargo", {}) if isinstance(g, dict) else {}
            for x in [*(cargo.keys() if isinstance(cargo, dict) else []),
                      *(u for us in (cargo.values() if isinstance(cargo, dict) else [])
                        for u in (us if isinstance(us, list) else []))]:
                if isinstance(x, str) and x in state["units"] and \
                        state["units"][x]["side"] == cmd.player:
                    verify_enter(ctx, state, power_of(state, x), [args.beach], "attack")
        for a in args.air:
            if a in state["units"] and state["units"][a]["side"] == cmd.player:
                verify_enter(ctx, state, power_of(state, a), [args.beach], "attack")
        verify_invade(ctx, state, cmd)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: InvadeArgs,
                dice: Dice) -> list[Event]:
        return execute_invade(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        return distinct(legal_invade)(ctx, state, player)

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        groups = a.get("groups")
        cargo = [x for g in (groups if isinstance(groups, list) else []) if isinstance(g, Mapping)
                 for v in (g.get("cargo") or {}).values() for x in as_list(v)]
        t = f"Invade {hex_name(ctx, a.get('beach'))}" + (
            f" with {units_words(state, cargo)}" if cargo else "")
        return Words(t, f"invade {a.get('beach')}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        b = label_of(cmd, "beach")
        return Places(b, b, (b,) if b else (), named_units(cmd, "air"))


__all__ = ["Invade", "InvadeArgs"]
