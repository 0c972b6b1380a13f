"""``counter_air`` (TR-44): counter-air missions and neutralised air.

``counter_air`` (air missions phase; the placement in the movement phase and the combat are
one command): own air units (``air``), active, unused this game turn and within range of
``target``, a hex holding enemy air units, under an offensive option on the target's front.
One simultaneous round of air-to-air fire
(:func:`grognard.third_reich.air_naval.airnaval.counter_air`,
two 1D10s from the named stream ``third_reich.counter_air``: the phasing then the
non-phasing roll); losses fall on the units in order (sent units as named, targets by id);
then as many enemy air factors as were sent are neutralised, factor for factor, from the
targets that survive, in id order (reading ``counterair_neutralize_granularity``, default
factor). ``state["neutralized"]`` ``{unit: factors}`` holds them until the player turn
ends: a fully neutralised unit flies no mission and intercepts nothing, a partly neutralised
one flies with its other factors, and neutralised factors do not count in air zones (TR-30,
TR-60). The surviving counter-air units stay over the hex (``state["counter_air"]``
``{unit: hex}``): they may still support an attack on that hex (TR-35) in this player turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import distance
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order, Words, as_list, hex_name
from grognard.engine.system import Places
from grognard.third_reich.air_naval.airnaval import counter_air, take_losses
from grognard.third_reich.air_naval.proposers import legal_counter_air
from grognard.third_reich.air_naval.support_fight import flying_units, ready_air
from grognard.third_reich.board import hex_front, order_hex, phase_name
from grognard.third_reich.proposals import distinct
from grognard.third_reich.state import AIR_TYPES
from grognard.third_reich.state_types import CounterAirFlown, FrontOption, TRState
from grognard.third_reich.turn.forces import AirUnit
from grognard.third_reich.turn.sequence import Phase
from grognard.third_reich.war import power_of, verify_enter, verify_own_option
from grognard.third_reich.words import label_of, named_units, units_words


class CounterAirArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``air``: the air units flying (each once); ``target``: the hex of the enemy air units."""

    target: str
    air: list[str] = msgspec.field(default_factory=list)


def mission(ctx: Context, state: TRState, cmd: Command, args: CounterAirArgs) -> dict[str, Any]:
    """TR-44: the air units sent and the enemy air units over ``args.target``, or the rule the
    mission breaks."""
    if phase_name(ctx, state) != Phase.AIR_MISSIONS.value:
        raise IllegalOrder("TR-44", "counter air is flown in the air missions phase")
    m = ctx.scenario.map
    target = args.target
    h = order_hex(m, target, "args.target", "TR-44")
    opt = state["options"].get(cmd.player, {}).get(hex_front(m, h), cast(FrontOption, {})).get(
        "option", "pass")
    if opt != "offensive":
        raise IllegalOrder("TR-44", "counter air is flown only under the offensive option on "
                           "the target's front")
    sent = list(args.air)
    if len(set(sent)) != len(sent):
        raise InputError("args.air", "a unit is named twice")
    if not sent:
        raise InputError("args.air", "send at least one air unit")
    th = m.layout.from_label(target)
    units = []
    for uid in sent:
        u = flying_units(state, uid, lambda v: v["side"] == cmd.player, f"a {cmd.player}")
        a = ready_air(state, uid, u)
        if distance(m.layout.from_label(cast(str, u["hex"])), th) > a.range:
            raise IllegalOrder("TR-44", f"{uid} in {u['hex']} is out of range of {target} "
                               f"(range {a.range})")
        units.append(a)
    # TR-03/TR-44 (issue 23): each flying power under its own offensive on the target's front
    verify_own_option(ctx, state, cmd.player, [power_of(state, uid) for uid in sent],
                      hex_front(m, h))
    targets = [ready_air(state, uid, u) for uid, u in sorted(
        (uid, u) for uid, u in state["units"].items()
        if u["type"] in AIR_TYPES and u["status"] == "active" and u["hex"] == target
        and u["side"] != cmd.player)]
    targets = [t for t in targets if t.factors > 0]
    if not targets:
        raise IllegalOrder("TR-44", f"{target} holds no un-neutralised enemy air unit")
    return {"units": units, "targets": targets, "target": target}


def _losses(units: list[AirUnit], hits: int) -> dict[str, int]:
    after = take_losses(units, hits)
    return {a.id: a.factors - b.factors for a, b in zip(units, after, strict=True)
            if a.factors != b.factors}


def fly(ctx: Context, state: TRState, cmd: Command, args: CounterAirArgs,
        dice: Dice) -> list[Event]:
    """TR-44: one air-to-air round, then the neutralisation (the event)."""
    c = mission(ctx, state, cmd, args)
    units: list[AirUnit] = c["units"]
    targets: list[AirUnit] = c["targets"]
    stream = dice.stream("third_reich.counter_air")
    p_roll, n_roll = stream.die(10), stream.die(10)
    sent, tf = sum(a.factors for a in units), sum(t.factors for t in targets)
    rec = counter_air(sent, tf, p_roll, n_roll, tuple(targets), tables=ctx.tables)
    losses = {**_losses(units, rec.combat.hits_on_phasing),
              **_losses(targets, rec.combat.hits_on_nonphasing)}
    left, neutral = rec.neutralized, {}
    for t in targets:
        n = min(left, t.factors - losses.get(t.id, 0))
        if n > 0:
            neutral[t.id] = n
            left -= n
    return [Event("counter_air_flown", {
        "side": cmd.player, "target": c["target"], "air": [a.id for a in units],
        "targets": [t.id for t in targets], "sent": sent, "target_factors": tf,
        "rolls": [p_roll, n_roll], "hits_on_phasing": rec.combat.hits_on_phasing,
        "hits_on_nonphasing": rec.combat.hits_on_nonphasing, "losses": losses,
        "neutralized": neutral})]


def fold_counter_air_flown(state: TRState, ev: Event) -> TRState:
    """TR-44: losses; the units flown are used and stay over the hex; the factors
    neutralised until the player turn ends."""
    s = state
    d = cast(CounterAirFlown, ev.data)
    for uid, lost in d["losses"].items():
        u = s["units"][uid]
        u["attack"] = int(u["attack"]) - int(lost)
        if u["attack"] <= 0:
            u["status"], u["hex"] = "eliminated", None
    s["air_used"] = [*state["air_used"], *d["air"]]
    over = dict(state.get("counter_air", {}))
    over.update({uid: d["target"] for uid in d["air"] if s["units"][uid]["status"] == "active"})
    s["counter_air"] = over
    neutral = dict(state.get("neutralized", {}))
    for uid, n in d["neutralized"].items():
        neutral[uid] = int(neutral.get(uid, 0)) + int(n)
    s["neutralized"] = neutral
    return s


class CounterAir(Order[CounterAirArgs]):
    """TR-44 Counter air: one air-to-air round (1D10s from third_reich.counter_air), then as
    many enemy air factors neutralised as were sent."""

    kind = "counter_air"
    rule = "TR-44"
    Args = CounterAirArgs
    help = ("TR-44 Counter air: one air-to-air round (1D10s from third_reich.counter_air), then "
            "as many enemy air factors neutralised as were sent.")
    example: ClassVar[Mapping[str, object]] = {"air": ["ge-air2"], "target": "C11"}
    folds: ClassVar[Mapping[str, Fold]] = {"counter_air_flown": fold_counter_air_flown}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: CounterAirArgs) -> None:
        for a in args.air:  # TR-25: each power flying at war with the target's country
            if a in state["units"] and state["units"][a]["side"] == cmd.player:
                verify_enter(ctx, state, power_of(state, a), [args.target], "air")
        mission(ctx, state, cmd, args)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: CounterAirArgs,
                dice: Dice) -> list[Event]:
        return fly(ctx, state, cmd, args, dice)

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        """TR-44: at each enemy air hex, each own air unit in range alone, and all of them."""
        return distinct(legal_counter_air)(ctx, state, player)

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        air = as_list(a.get("air"))
        return Words(f"Counter air over {hex_name(ctx, a.get('target'))} with "
                     f"{units_words(state, air)}", f"counter air {a.get('target')}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(label_of(cmd, "target"), None, (), named_units(cmd, "air"))


__all__ = ["CounterAir", "CounterAirArgs", "fold_counter_air_flown", "mission"]
