"""``end_production``: a side ends its production phase; when both have, the next month starts.

The new month is the referee's (no choice in it): face-down blocks turn up (EF-02), Airpower
Disrupted markers decay and disrupted HQs recover (EF-14/EF-15), the U-boat rolls of the new
month are made on stream ``eurofront.uboat`` (EF-04..EF-07) and Strategic Moves are renewed
(EF-09).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import NoArgs, Words
from grognard.eurofront.activation import start_month
from grognard.eurofront.disruption import end_of_month_apd_cleanup
from grognard.eurofront.game_state import (
    act_of,
    ef_readings,
    game_readings,
    other,
    production_now,
    rule_on,
    rules,
    store,
)
from grognard.eurofront.model import DEFAULT_BASE, Turn
from grognard.eurofront.operations import G, apd_state, board
from grognard.eurofront.orders.base import EFOrder, who
from grognard.eurofront.production import history, next_month, producing
from grognard.eurofront.readings import OptionalRule
from grognard.eurofront.state_types import EFState, MonthStarted, ProductionEnded
from grognard.eurofront.uboats import roll_uboat_turn


def fold_production_ended(state: EFState, ev: Event) -> EFState:
    d = cast(ProductionEnded, ev.data)
    production_now(state)["done"].append(d["side"])
    return state


def fold_month_started(state: EFState, ev: Event) -> EFState:
    d = cast(MonthStarted, ev.data)
    act = act_of(state)
    state["turn"] = int(state["turn"]) + 1
    state["production"] = None
    state["hq_uses"] = {}
    state["apd"]["hq_disrupted"] = []
    for h, side in d["apd_removed"]:
        here = state["apd"]["markers"][h]
        here.remove(side)
        if not here:
            del state["apd"]["markers"][h]
    for side in ("axis", "allies"):
        for uid in d["face_up"]:
            if uid in state["destroyed"][side]:
                state["destroyed"][side][uid]["face_down"] = False
        state["strategic_moves"][side] = int(d["strategic_moves"])
    for u in state["units"].values():
        u["moved"] = 0
    ub = d["uboat"]
    state["air_superiority_lost"] = bool(ub and ub["air_superiority_lost"])
    if ub is not None:
        state["uboats"].append({"turn": ub["turn"], "uboat_pp": ub["uboat_pp"],
                                "escort_pp": ub["escort_pp"], "allied_pp": ub["allied_pp"]})
        state["pp"]["allies"] -= int(ub["pp_lost"])
    nxt = start_month(Turn.parse(d["month"]), {}, act.surprised)
    return store(state, nxt)


class EndProduction(EFOrder[NoArgs]):
    kind = "end_production"
    rule = "PROD"
    help = "End your production phase."
    folds: ClassVar[Mapping[str, Fold]] = {"production_ended": fold_production_ended,
                                           "month_started": fold_month_started}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: NoArgs) -> None:
        producing(state, cmd.player)

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: NoArgs,
                dice: Dice) -> list[Event]:
        out = [Event("production_ended", {"side": cmd.player})]
        p = production_now(state)
        if other(cmd.player) not in p["done"]:
            return out
        month = next_month(state)
        uboat = None
        if rule_on(ctx, OptionalRule.ENHANCED_UBOATS):
            u_pp, e_pp = int(p["uboat_pp"] or 0), int(p["escort_pp"] or 0)
            allied = int(state["pp"]["allies"])
            hist = history(ctx, state, month, u_pp, e_pp, allied)
            rec = roll_uboat_turn(hist, dice.stream("eurofront.uboat"), ef_readings(ctx),
                                  DEFAULT_BASE, rules(ctx))
            uboat = {"turn": str(month), "uboat_pp": u_pp, "escort_pp": e_pp,
                     "allied_pp": allied, "trigger_roll": rec.trigger_roll,
                     "modifiers": rec.modifiers,
                     "shipping_rolls": [r.roll for r in rec.shipping_rolls],
                     "pp_lost": min(rec.pp_lost, allied),
                     "air_superiority_lost": rec.air_superiority_lost}
        removed: list[list[str]] = []
        if rule_on(ctx, OptionalRule.AIRPOWER_DISRUPTION):
            _, rec2 = end_of_month_apd_cleanup(board(ctx, state), apd_state(ctx, state))
            lab = {G(ctx).index[k]: k for k in G(ctx).labels}
            m = ctx.scenario.map
            removed = sorted([lab[m.index(h)], s.value] for h, s in rec2.removed)
        face_up = sorted(uid for side in ("axis", "allies")
                         for uid, d in state["destroyed"][side].items() if d["face_down"])
        rule_ids = (["EF-02"] if face_up else []) + (["EF-14", "EF-15"] if removed else [])
        if uboat is not None and (uboat["trigger_roll"] is not None or uboat["shipping_rolls"]):
            rule_ids += ["EF-04", "EF-05"] + (["EF-07"] if uboat["air_superiority_lost"]
                                              else [])
        out.append(Event("month_started", {
            "month": str(month), "face_up": face_up, "apd_removed": removed, "uboat": uboat,
            "strategic_moves": game_readings(ctx).efg_strategic_moves, "rules": rule_ids}))
        return out

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        p = state.get("production")
        if p is not None and player not in p["done"]:
            yield Command(self.kind, player)

    def words(self, ctx: Context, state: EFState, cmd: Command, args: NoArgs) -> Words:
        left = state["pp"].get(cmd.player, 0)
        return Words(f"{who(cmd.player)}: end production ({left} PP unspent carry over)",
                     "End production")
