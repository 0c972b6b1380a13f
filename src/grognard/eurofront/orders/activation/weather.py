"""``roll_weather``: EF-17 weather is rolled in each Activation Phase (EF-18 step 1).

The referee rolls 1D6 on stream ``eurofront.weather``; the weather table is the block game's
stand-in (:func:`grognard.eurofront.activation.standard_weather`). The order takes no choice.
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
from grognard.eurofront.activation import Step, roll_weather, standard_weather
from grognard.eurofront.game_state import act_of, store
from grognard.eurofront.orders.base import EFOrder, who
from grognard.eurofront.state_types import EFState, WeatherRolled


def fold_weather_rolled(state: EFState, ev: Event) -> EFState:
    d = cast(WeatherRolled, ev.data)
    w = str(d["weather"])
    act, _ = roll_weather(act_of(state), d["roll"], lambda m, r: w)
    return store(state, act)


class RollWeather(EFOrder[NoArgs]):
    kind = "roll_weather"
    rule = "EF-17"
    help = "EF-17 Roll the Activation Phase's weather."
    folds: ClassVar[Mapping[str, Fold]] = {"weather_rolled": fold_weather_rolled}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: NoArgs) -> None:
        if act_of(state).step is not Step.WEATHER:
            raise IllegalOrder("EF-17", "weather is rolled at the start of an Activation Phase")

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: NoArgs,
                dice: Dice) -> list[Event]:
        roll = dice.stream("eurofront.weather").die(6)
        _, rec = roll_weather(act_of(state), roll, standard_weather)
        return [Event("weather_rolled", {"phase": rec.phase, "roll": roll,
                                         "weather": rec.weather})]

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        return verified(ctx, state, self.engine_spec(), [Command(self.kind, player)])

    def words(self, ctx: Context, state: EFState, cmd: Command, args: NoArgs) -> Words:
        phase = state["activation"]["phase"]
        return Words(f"{who(cmd.player)}: roll the weather for Activation Phase {phase}",
                     "Roll weather")
