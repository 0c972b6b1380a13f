"""``year_start`` (TR-07..TR-13): run the Spring Year Start - the special Spring 1940 Year
Start (TR-07) or the regular sequence (TR-09): growth (TR-10), USSR city losses (TR-12), SW
hits (TR-13), the SW limits (TR-80), forced fleet conversions (TR-81).

Event ``year_started`` ``{record, rules}`` (the :class:`YearStartRecord`); the strategic-warfare
side of the Year Start (TR-81's ASW and the units owed) is the system's after-event rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import NoArgs, Order, Words
from grognard.third_reich.board import economy_of
from grognard.third_reich.economy.economy import economy_json
from grognard.third_reich.economy.year_start import (
    YearStartRecord,
    verify_year_start,
    year_start,
)
from grognard.third_reich.state_types import TRState


def year_start_rules(rec: YearStartRecord) -> list[str]:
    """The Year Start rules one record applied (named in the event, so docs/FEATURES.md
    counts a rule as played only when a game used it): the special Spring 1940 Year Start
    (TR-07) or the regular sequence (TR-09) with growth (TR-10) when a power saved BRPs;
    USSR city losses (TR-12), SW hits (TR-13), the SW limits (TR-80), forced fleet
    conversions (TR-81)."""
    if rec.special_1940:
        rules = {"TR-07"}
    else:
        rules = {"TR-09", "TR-80"}
        if any(p.growth for p in rec.powers):
            rules.add("TR-10")
        if any(p.ussr_cities for p in rec.powers):
            rules.add("TR-12")
        if any(p.sw_hits for p in rec.powers):
            rules.add("TR-13")
        if any(p.fleet_conversion for p in rec.powers):
            rules.add("TR-81")
    return sorted(rules)


def fold_year_started(state: TRState, ev: Event) -> TRState:
    """TR-09: the economy after the Year Start (recomputed from the state: the same record)."""
    econ, _ = year_start(economy_of(state))
    state["economy"] = economy_json(econ)
    return state


class YearStart(Order[NoArgs]):
    """TR-07..TR-13 Run the Spring Year Start."""

    kind = "year_start"
    rule = "TR-09"
    help = "TR-07..TR-13 Run the Spring Year Start."
    folds: ClassVar[Mapping[str, Fold]] = {"year_started": fold_year_started}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: NoArgs) -> None:
        verify_year_start(economy_of(state))

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: NoArgs,
                dice: Dice) -> list[Event]:
        _, rec = year_start(economy_of(state))
        return [Event("year_started", {"record": rec.to_json(), "rules": year_start_rules(rec)})]

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        return [Command(self.kind, player, {})]

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        return Words("Run the Year Start (BRP growth, new bases)", "Year Start")


__all__ = ["YearStart", "fold_year_started", "year_start_rules"]
