"""``sw_uboats`` (TR-79/TR-82): Germany's U-boat round of strategic warfare, in its strategic
warfare phase, once per game turn - against the UK or, once the US is at war with Germany, the
US (TR-79 step 4, TR-13). All U-boats (not those in the Murmansk box, TR-20) fire at the
target's ASW at half factors while the ASW fires back at full factors; survivors fire at the
economy at 2x factors (1D10s from ``third_reich.strategic_warfare``, each drawn only when the
round uses it). Reading: the ASW opposing an attack on a power's economy is that power's own;
in Spring 1942 (the second happy time, TR-82) an attack on the US meets no ASW and rolls +1.

Event ``sw_round_fought`` (docs/formats/tr_engine.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import GrognardError, IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order, Words
from grognard.third_reich.board import economy_of, powers_of_side
from grognard.third_reich.state_types import TRState
from grognard.third_reich.strategic.strategic_warfare import (
    SwKind,
    record_sw_hits,
    verify_sw_target,
)
from grognard.third_reich.strategic.sw_boxes import (
    WESTERN,
    economy_powers,
    fight_round,
    fold_sw_round_fought,
    round_fought,
    uboat_defense,
    uboat_factors,
    war_readings,
)
from grognard.third_reich.war import at_war_with_germany
from grognard.third_reich.words import power_name


class SwUboatsArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``target``: the economy the U-boats attack (uk or us)."""

    target: str = "uk"


def uboat_target(state: TRState, cmd: Command, args: SwUboatsArgs) -> str:
    """TR-79: the economy the round attacks, or the rule the order breaks."""
    if "germany" not in powers_of_side(state, cmd.player):
        raise IllegalOrder("TR-79", "the German player conducts submarine warfare")
    econ = economy_of(state)
    if round_fought(state, SwKind.SUBS):
        raise IllegalOrder("TR-79", "one U-boat round per game turn; it has been fought")
    t = verify_sw_target(econ, SwKind.SUBS, args.target).value
    if t not in economy_powers(econ) or "germany" not in economy_powers(econ):
        raise IllegalOrder("TR-79", f"{t} has no economy in this game")
    if not at_war_with_germany(state, t):  # TR-25/TR-79 (issue 23): only an enemy at war
        raise IllegalOrder("TR-79", f"germany is not at war with {t}: no U-boat war on its "
                           "economy (the UK or, once a belligerent, the US)")
    if not uboat_factors(state):
        raise IllegalOrder("TR-79", "Germany has no U-boat factors in its SW box (outside the "
                           "Murmansk box, TR-20)")
    return t


class SwUboats(Order[SwUboatsArgs]):
    """TR-79/TR-82 Germany's U-boat round against the UK or US economy."""

    kind = "sw_uboats"
    rule = "TR-79"
    Args = SwUboatsArgs
    help = ("TR-79/TR-82 Germany's U-boat round against the UK or US economy (1D10s from "
            "third_reich.strategic_warfare).")
    example: ClassVar[Mapping[str, object]] = {"target": "uk"}
    folds: ClassVar[Mapping[str, Fold]] = {"sw_round_fought": fold_sw_round_fought}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: SwUboatsArgs) -> None:
        uboat_target(state, cmd, args)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: SwUboatsArgs,
                dice: Dice) -> list[Event]:
        target = uboat_target(state, cmd, args)
        asw, drm = uboat_defense(state, target, war_readings(ctx))
        rnd = fight_round(dice, SwKind.SUBS, uboat_factors(state), asw, drm)
        _, hits = record_sw_hits(economy_of(state), SwKind.SUBS, target, rnd["hits"])
        return [Event("sw_round_fought", {
            "kind": "subs", "attacker": "germany", "target": target, "round": rnd,
            "losses": {"germany": {"subs": rnd["sub_losses"]},
                       target: {"asw": rnd["asw_losses"]}},
            "record": hits.to_json(), "rule": "TR-79"})]

    def legal(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        out = []
        for target in WESTERN:
            cmd = Command(self.kind, player, {"target": target})
            try:
                uboat_target(state, cmd, SwUboatsArgs(target))
            except GrognardError:
                continue
            out.append(cmd)
        return out

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        target = power_name(cmd.args.get("target"))
        return Words(f"U-boat campaign against {target}", f"U-boats vs {target}")


__all__ = ["SwUboats", "SwUboatsArgs", "uboat_target"]
