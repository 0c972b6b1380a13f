"""``roll_initiative``: EF-18 step 4, both sides roll 1D6 + their chit's bonus for initiative.

The referee rolls both dice on stream ``eurofront.initiative`` (none when both chits are zero:
the month ends and its income is counted); ties re-roll. The penalised side's surprise
disruption ends when it becomes First Player, never in the war's first Activation Phase
(EF-17; reading ``ef_surprise_exemption``). The order takes no choice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command, verified
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import NoArgs, Words
from grognard.eurofront.activation import (
    Step,
    reveal_and_roll,
    surprise_exempt,
    verify_reveal,
)
from grognard.eurofront.game_state import act_of, ef_readings, store
from grognard.eurofront.model import Side
from grognard.eurofront.orders.base import EFOrder, who
from grognard.eurofront.production import month_income
from grognard.eurofront.readings import EuroFrontReadings
from grognard.eurofront.state_types import EFState, InitiativeRolled


def fold_initiative_rolled(state: EFState, ev: Event) -> EFState:
    """The reveal and roll as the event records them; the surprise ends iff the event says
    so (``surprise_cancelled``: the referee judged the EF-17 exemption)."""
    d = cast(InitiativeRolled, ev.data)
    rolls = d["rolls"]
    readings = EuroFrontReadings.from_mapping({"ef_initiative_bonus": d["bonus"]})
    act, _ = reveal_and_roll(act_of(state), {Side(k): v for k, v in rolls.items()} or None,
                             readings, exempt=not d["surprise_cancelled"])
    if d["month_over"]:
        income = d["income"]
        assert income is not None, "the month's income comes with its end"
        for side, pp in income.items():
            state["pp"][side] += int(pp)
        state["production"] = {"done": [], "uboat_pp": None, "escort_pp": None}
    return store(state, act)


class RollInitiative(EFOrder[NoArgs]):
    kind = "roll_initiative"
    rule = "EF-18"
    help = "EF-18 Roll 1D6 + chit bonus each for initiative."
    folds: ClassVar[Mapping[str, Fold]] = {"initiative_rolled": fold_initiative_rolled}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: NoArgs) -> None:
        if act_of(state).step is not Step.REVEAL:
            raise IllegalOrder("EF-18", "initiative is rolled once both chits are placed")

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: NoArgs,
                dice: Dice) -> list[Event]:
        act = act_of(state)
        both_zero = all(c.strength == 0 for c in act.chits.values())
        rolls = None
        if not both_zero:
            stream = dice.stream("eurofront.initiative")
            rolls = {Side.AXIS: stream.die(6), Side.ALLIES: stream.die(6)}
        verify_reveal(act, rolls)
        readings = ef_readings(ctx)
        # EF-17: the war's first Activation Phase is phase 1 of the game's first month.
        exempt = surprise_exempt(act, int(state["turn"]) == 1, readings)
        _, rec = reveal_and_roll(act, rolls, readings, exempt=exempt)
        return [Event("initiative_rolled", {
            "phase": rec.phase,
            "chits": {s.value: [c.strength, c.count] for s, c in rec.chits},
            "rolls": {s.value: r for s, r in rec.rolls},
            "scores": {s.value: v for s, v in rec.scores},
            "first": rec.first.value if rec.first else None,
            "first_activates": rec.first_activates,
            "tie": rec.tie, "month_over": rec.month_over,
            "surprise_cancelled": rec.surprise_cancelled,
            "bonus": ef_readings(ctx).ef_initiative_bonus.value,
            "income": month_income(ctx, state) if rec.month_over else None,
        })]

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        return verified(ctx, state, self.engine_spec(), [Command(self.kind, player)])

    def words(self, ctx: Context, state: EFState, cmd: Command, args: NoArgs) -> Words:
        phase = state["activation"]["phase"]
        return Words(f"{who(cmd.player)}: roll initiative for Activation Phase {phase} "
                     "(1D6 + chit bonus each; both chits are revealed)", "Roll initiative")
