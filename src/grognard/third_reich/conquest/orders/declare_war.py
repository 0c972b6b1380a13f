"""``declare_war`` (TR-25): a power declares war on minor countries (5 BRPs for any number,
once a season) and on majors (15 each), within the TR-75 cap; not on its own side, not twice.
A neutral minor attacked enters the war on the other side (TR-24).

Events ``war_declared`` ``{side, power, minors, majors, cost}`` (ledger ``TR-25``), then
``minor_activated`` for each neutral minor named.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order, Words, and_list, as_list
from grognard.third_reich.board import economy_of, payer, payers, powers_of_side
from grognard.third_reich.conquest import diplomacy as dip
from grognard.third_reich.conquest.campaign_events import (
    CAMPAIGN_FOLDS,
    axis_of,
    enemy_side_of,
    minor_activation,
)
from grognard.third_reich.economy.economy import declare_war
from grognard.third_reich.state import pay, verify_payment
from grognard.third_reich.state_types import EconomyJSON, TRState, War, WarDeclared
from grognard.third_reich.turn.options import dow_cost
from grognard.third_reich.turn.powers import Power
from grognard.third_reich.war import (
    diplomacy,
    has_diplomacy,
    set_diplomacy,
    sync_economy,
)
from grognard.third_reich.words import acting_power, country_name, power_name


class DeclareWarArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``minors`` (country names) and ``majors`` (powers) war is declared on; ``power``: the
    declaring power (None: the side's first power with an economy)."""

    minors: list[str] = msgspec.field(default_factory=list)
    majors: list[str] = msgspec.field(default_factory=list)
    power: str | None = None


def targets(args: DeclareWarArgs) -> tuple[list[str], list[str]]:
    """TR-25: the minors and majors named (at least one, each once; majors are powers)."""
    if not args.minors and not args.majors:
        raise InputError("args", "declare war on at least one minor or major")
    named = [*args.minors, *args.majors]
    twice = sorted({t for t in named if named.count(t) > 1})
    if twice:  # a war is declared once (issue 27: no order counts a target twice)
        raise IllegalOrder("TR-25", f"{', '.join(twice)} named twice: war is declared once")
    for m in args.majors:
        if m not in {p.value for p in Power}:
            raise InputError("args.majors", f"{m!r} is not a major power")
    return list(args.minors), list(args.majors)


def war_cost(state: TRState, power: str, minors: list[str], majors: list[str]) -> int:
    """TR-25: 5 for the minors (once a season), 15 per major (the diplomacy's count: a
    colony's or an annexed minor's war is its owner's)."""
    if has_diplomacy(state):
        return dip.declaration_cost(diplomacy(state), power, [*minors, *majors],
                                    int(state["turn"]))
    paid = state["dow_minor_paid"].get(power) == state["turn"]
    return dow_cost(len(minors), len(majors), paid)


def fold_war_declared(state: TRState, ev: Event) -> TRState:
    """TR-25: the cost is posted, the wars recorded in the diplomacy (the declarer, its
    minor allies, the target's allies, the minors joining, TR-22/TR-24) and the economy's war
    record follows it (belligerent, at war with Germany: lend lease TR-15..TR-17, TR-86)."""
    s = state
    d = cast(WarDeclared, ev.data)
    names = ", ".join(d["minors"] + d["majors"])
    econ = pay(state, d["side"], d["power"], d["cost"], "TR-25",
               f"{d['power']} declares war on {names}")
    if has_diplomacy(state):
        dd, _rec = dip.declare(diplomacy(state), d["power"], [*d["minors"], *d["majors"]],
                               int(state["turn"]))
        set_diplomacy(s, dd)
        econ = sync_economy(declare_war(econ, d["power"], on_germany=dip.at_war(
            dd, d["power"], "germany") and d["power"] != "germany"), dd)
    else:
        econ = declare_war(econ, d["power"], on_germany="germany" in d["majors"])
        if d["power"] == "germany":
            for m in d["majors"]:
                econ = declare_war(econ, m, on_germany=True)
    if d["minors"]:
        s["dow_minor_paid"][d["power"]] = state["turn"]
    s["wars"] = [*state["wars"], *(cast(War, {"power": d["power"], "target": t,
                                              "turn": state["turn"]})
                                   for t in d["minors"] + d["majors"])]
    s["economy"] = cast(EconomyJSON, econ.to_json())
    return s


class DeclareWar(Order[DeclareWarArgs]):
    """TR-25 Declare war on minors (5) or majors (15 each)."""

    kind = "declare_war"
    rule = "TR-25"
    Args = DeclareWarArgs
    help = "TR-25 Declare war on minors (5) or majors (15 each)."
    example: ClassVar[Mapping[str, object]] = {"power": "germany", "minors": ["poland"]}
    folds: ClassVar[Mapping[str, Fold]] = {
        "war_declared": fold_war_declared, "minor_activated": CAMPAIGN_FOLDS["minor_activated"]}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: DeclareWarArgs) -> None:
        minors, majors = targets(args)
        power = payer(state, cmd.player, args.power)
        if has_diplomacy(state):  # TR-25 by the war state (issue 23)
            r = dip.can_declare(diplomacy(state), power, [*minors, *majors])
            if r is not None:
                r.raise_()
        else:
            mine = set(powers_of_side(state, cmd.player))
            for t in minors + majors:
                if t in mine:
                    raise IllegalOrder("TR-25", f"{t} is on {cmd.player}'s own side")
                if any(w["target"] == t and w["power"] == power for w in state["wars"]):
                    raise IllegalOrder("TR-25", f"{power} is already at war with {t}")
        verify_payment(state, cmd.player, power, war_cost(state, power, minors, majors), "TR-25")

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: DeclareWarArgs,
                dice: Dice) -> list[Event]:
        minors, majors = targets(args)
        power = payer(state, cmd.player, args.power)
        events = [Event("war_declared", {"side": cmd.player, "power": power, "minors": minors,
                                         "majors": majors,
                                         "cost": war_cost(state, power, minors, majors)})]
        camp = state.get("campaign")
        if camp is None:
            return events
        joined: dict[str, str] = {}
        if has_diplomacy(state):
            _d, rec = dip.declare(diplomacy(state), power, [*minors, *majors],
                                  int(state["turn"]))
            events[0] = Event("war_declared", {**events[0].data,
                                               "war": dip.record_json(rec)})
            joined = dict(rec.joined)
        axis = axis_of(state)
        for minor in minors:  # TR-24: a neutral minor attacked joins the other side
            m = camp["minors"].get(minor)
            if m is not None and m["status"] == "neutral":
                if minor in joined:
                    side = state["power_sides"][joined[minor]]
                else:
                    side = axis if minor in camp["axis_minors"] and cmd.player != axis \
                        else enemy_side_of(state, cmd.player)
                events.append(minor_activation(ctx, state, minor, side, "TR-24"))
        return events

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        """TR-25: war on each neutral minor, and on each major not yet at war (the paying
        powers of the side in turn; the diplomacy judges who may declare on whom)."""
        camp = state.get("campaign", {})
        neutral = sorted(n for n, m in camp.get("minors", {}).items()
                         if m["status"] == "neutral")
        econ = {p.value for p in economy_of(state).powers}
        out = []
        d = diplomacy(state) if has_diplomacy(state) else None
        for power in payers(state, player)[: None if d is not None else 1]:
            for n in neutral:
                if d is None or dip.can_declare(d, power, [n]) is None:
                    out.append(Command(self.kind, player, {"power": power, "minors": [n]}))
            for major, _side in sorted(state["power_sides"].items()):
                if major not in econ:
                    continue
                if d is None:
                    if _side != player:
                        out.append(Command(self.kind, player,
                                           {"power": power, "majors": [major]}))
                elif dip.can_declare(d, power, [major]) is None:
                    out.append(Command(self.kind, player, {"power": power, "majors": [major]}))
        return out

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        power = acting_power(state, cmd)
        minors, majors = as_list(a.get("minors")), as_list(a.get("majors"))
        try:
            paid = (state.get("dow_minor_paid") or {}).get(power) == state.get("turn")
            cost: int | None = int(dow_cost(len(minors), len(majors), paid))
        except Exception:  # words never fail: the cost is left out
            cost = None
        on = and_list([country_name(x) for x in minors + majors])
        brps = f" ({cost} BRPs)" if cost is not None else ""
        return Words(f"{power_name(power)} declares war on {on}{brps}", f"War on {on}{brps}")


__all__ = ["DeclareWar", "DeclareWarArgs", "fold_war_declared", "war_cost"]
