"""What an activated EuroFront HQ does, and the battles that follow: the position facts and
checks its orders share, and the battle machine.

An HQ activated under EF-18 opens an *operation* of its side. Its orders live beside their
rules in :mod:`grognard.eurofront.orders` (``move``, ``rail_move``, ``para_move``,
``airpower_disruption``, ``end_operation``; the battle decisions ``take_loss`` and
``retreat``); this module holds what they share: the position facts computed once per position
(occupants, supply, reach, rail reach, the optional rules' :class:`Board`, Air Power), the
operation's checks (:func:`operation_of`, :func:`own_block`, :func:`activated_block` ...) and
:func:`run_on`, which fights every hex holding both sides' blocks when the operation ends
(rolling fire, forced losses and retreats, battle ends) until a player owes a decision.

The orders that roll (``end_operation``, and the last ``take_loss``/``retreat`` a battle waits
for) run the battle on until the next decision: their events carry every die.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.state import thaw
from grognard.eurofront.activation import can_move_block
from grognard.eurofront.airpower import AirPowerState, air_power_level
from grognard.eurofront.battle import air_hits, fire_hits, retreating_side
from grognard.eurofront.blocks import (
    Geo,
    geo,
    occupants,
    rail_reach,
    reach,
    retreat_hexes,
    supplied,
    supply_sources,
    weather_mp,
)
from grognard.eurofront.disruption import (
    ApdState,
)
from grognard.eurofront.game_state import (
    act_of,
    battle_now,
    block_steps,
    destroy,
    ef_readings,
    game_readings,
    on_map,
    other,
    refresh,
    rule_on,
    rules,
)
from grognard.eurofront.model import (
    DEFAULT_BASE,
    AirPower,
    Block,
    BlockType,
    Board,
    Front,
    HQClass,
    Side,
    Turn,
)
from grognard.eurofront.rail import strategic_rail_limit
from grognard.eurofront.readings import OptionalRule
from grognard.eurofront.rebuild import is_delayed
from grognard.eurofront.state_types import (
    BattleEnded,
    BattleFire,
    BattleStarted,
    BlockEliminated,
    EFState,
    LossesForced,
    Operation,
    OperationClosed,
    RetreatOrdered,
)
from grognard.eurofront.state_types import (
    Block as BlockRecord,
)

BATTLE_STREAM = "eurofront.battle"

# --- position facts (once per position, shared by verify / execute / legal) -----------------


def G(ctx: Context) -> Geo:
    return geo(ctx.scenario.map)


def occ(ctx: Context, state: EFState) -> dict[str, dict[str, list[str]]]:
    return ctx.cached("ef.occ", lambda: occupants(state))


def supply_of(ctx: Context, state: EFState, side: str) -> frozenset[str]:
    return ctx.cached(f"ef.supply.{side}", lambda: supplied(
        G(ctx), occ(ctx, state), state["control"], supply_sources(ctx.scenario, side), side))


def hex_of(ctx: Context, label: str) -> Hex:
    m = ctx.scenario.map
    return m.hex(G(ctx).index[label])


def distance(ctx: Context, a: str, b: str) -> int:
    return G(ctx).distance(a, b, ctx.scenario.map)


def front_of(ctx: Context) -> Front:
    return Front(str(ctx.scenario.calendar.get("front", "east")))


def board(ctx: Context, state: EFState) -> Board:
    """The optional rules' :class:`Board` of this position (control, front, supply)."""
    def make() -> Board:
        g, f = G(ctx), front_of(ctx)
        hexes = {lab: hex_of(ctx, lab) for i, lab in enumerate(g.labels) if g.land[i]}
        control = {hexes[h]: Side(s) for h, s in state["control"].items() if h in hexes}
        sup = {Side(s): frozenset(hexes[h] for h in supply_of(ctx, state, s) if h in hexes)
               for s in ("axis", "allies")}
        return Board(control, {h: f for h in hexes.values()}, sup)
    return ctx.cached("ef.board", make)


def apd_state(ctx: Context, state: EFState) -> ApdState:
    a = state["apd"]
    return ApdState({hex_of(ctx, h): tuple(Side(s) for s in owners)
                     for h, owners in a["markers"].items()}, frozenset(a["hq_disrupted"]))


def air_level(ctx: Context, state: EFState, side: str) -> AirPower:
    """EF-08 The side's Air Power on the scenario's front this month."""
    cal = ctx.scenario.calendar
    month = Turn.parse(state["activation"]["month"], "activation.month")
    us = cal.get("us_entry")
    oil = cal.get("oil_front")
    st = AirPowerState(
        turn=month, east_front_active=bool(cal.get("east_front_active", True)),
        us_entry=None if us is None else Turn.parse(str(us), "calendar.us_entry"),
        axis_tf_to_med=bool(cal.get("axis_tf_to_med", False)),
        desert_victory=bool(cal.get("desert_victory", False)),
        axis_oil_supply=bool(cal.get("axis_oil_supply", False)),
        oil_front=None if oil is None else Front(str(oil)), rules=rules(ctx))
    return air_power_level(Side(side), front_of(ctx), st, ctx.tables.get("ef_historical_air_power"))


def as_block(uid: str, u: BlockRecord, ctx: Context) -> Block:
    return Block(uid, Side(u["side"]), BlockType(u["kind"]), int(u["steps"]), int(u["max"]),
                 HQClass(u["hq"]) if u["hq"] else None,
                 None if u["hex"] is None else hex_of(ctx, u["hex"]))


# --- helpers for the operation ------------------------------------------------------------


def operation_of(state: EFState, player: str) -> Operation:
    """The operation ``player``'s activated HQ is running (EF-18 step 5), or IllegalOrder."""
    op = state.get("operation")
    if op is None or op["side"] != player or op.get("closing"):
        raise IllegalOrder("EF-18", "no HQ activation of yours is under way: activate an HQ first")
    return op


def own_block(state: EFState, player: str, uid: str) -> BlockRecord:
    """``player``'s block ``uid`` on the map, or one InputError naming ``args.block``."""
    u = state["units"].get(uid)
    if u is None or u["side"] != player:
        raise InputError("args.block", f"{player} has no block {uid!r} on the map")
    return u


def hex_arg(ctx: Context, label: str, key: str = "to") -> str:
    """``label`` if it is a hex of the map, else one InputError naming ``args.<key>``."""
    if label not in G(ctx).index:
        raise InputError(f"args.{key}", f"{label!r} is not a hex of the map")
    return label


def free_to_move(state: EFState, uid: str, u: BlockRecord) -> None:
    """EF-17 A block moves once per Activation Phase, and not in the phase after a rail move."""
    phase = int(state["activation"]["phase"])
    if int(u["moved"]) == phase:
        raise IllegalOrder("EF-17", f"block {uid} has already moved this Activation Phase")
    if not can_move_block(act_of(state), uid):
        raise IllegalOrder("EF-17", f"block {uid} moved by rail last phase; it stands out until "
                           "the end of this phase")


def in_command(ctx: Context, op: Operation, uid: str, u: BlockRecord) -> None:
    """EF-18 Only blocks within the activated HQ's command range move."""
    if uid != op["hq"] and distance(ctx, on_map(u), op["hex"]) > int(op["range"]):
        raise IllegalOrder("EF-18", f"block {uid} is {distance(ctx, on_map(u), op['hex'])} hexes "
                           f"from HQ {op['hq']}; its command range is {op['range']}")


def activated_block(ctx: Context, state: EFState, player: str, uid: str, to: str
                    ) -> BlockRecord:
    """A block of the activated side that may move now, within the HQ's command range."""
    op = operation_of(state, player)
    u = own_block(state, player, uid)
    hex_arg(ctx, to)
    free_to_move(state, uid, u)
    in_command(ctx, op, uid, u)
    return u


def move_range(ctx: Context, state: EFState, uid: str) -> dict[str, int]:
    u = state["units"][uid]
    mp = weather_mp(int(u["mp"]), state["activation"]["weather"])
    return ctx.cached(f"ef.reach.{uid}", lambda: reach(G(ctx), occ(ctx, state), on_map(u),
                                                       u["side"], mp))


def rail_limit(ctx: Context, state: EFState, side: str) -> int:
    """EF-03 The strategic rail allowance: 5 hexes while the side is surprised."""
    surprised = state["activation"]["surprised"] == side
    return strategic_rail_limit(game_readings(ctx).efg_rail_hexes, surprised, rules(ctx))


def rail_range(ctx: Context, state: EFState, uid: str) -> dict[str, int]:
    u = state["units"][uid]
    lim = rail_limit(ctx, state, u["side"])
    return ctx.cached(f"ef.rail.{uid}", lambda: rail_reach(G(ctx), occ(ctx, state),
                                                           state["control"], on_map(u),
                                                           u["side"], lim))


def movers(ctx: Context, state: EFState, player: str) -> Iterable[str]:
    op = state.get("operation")
    if op is None or op["side"] != player or op.get("closing"):
        return []
    phase = int(state["activation"]["phase"])
    act = act_of(state)
    out = []
    for uid in sorted(state["units"]):
        u = state["units"][uid]
        if (u["side"] != player or u["hex"] is None or int(u["moved"]) == phase
                or not can_move_block(act, uid)):
            continue
        if uid != op["hq"] and distance(ctx, u["hex"], op["hex"]) > int(op["range"]):
            continue
        out.append(uid)
    return out


# --- ending the operation: battles ----------------------------------------------------------


def _air_dice(ctx: Context, state: EFState, label: str, side: str) -> int:
    """EF-08/EF-07/EF-13 The attacker's combat air support in a battle: one die per Air Power
    rank when the hex is within the activated HQ's air range, the HQ did not roll for Airpower
    Disruption instead (EF-12), the hex carries no defender's Airpower Disrupted marker (EF-13)
    and the side has Air Superiority (EF-07)."""
    op = state["operation"]
    if op is None or op["side"] != side or op["air"] != "support" or op.get("hq_lost"):
        return 0
    hq = state["units"].get(op["hq"])
    if hq is None or hq["hex"] is None:
        return 0
    hq_class = hq["hq"]
    assert hq_class is not None, "the activated block is an HQ"
    if distance(ctx, hq["hex"], label) > DEFAULT_BASE.air_range(HQClass(hq_class)):
        return 0
    if rule_on(ctx, OptionalRule.AIRPOWER_DISRUPTION) and \
            other(side) in state["apd"]["markers"].get(label, []):
        return 0
    if side == "allies" and state["air_superiority_lost"] and \
            rule_on(ctx, OptionalRule.ENHANCED_UBOATS):
        return 0
    return air_level(ctx, state, side).rank


def blocks_in(state: EFState, label: str, side: str) -> list[str]:
    """``side``'s blocks in hex ``label``, sorted."""
    return sorted(uid for uid, u in state["units"].items()
                  if u["hex"] == label and u["side"] == side)


def goes_face_down(ctx: Context, u: BlockRecord) -> bool:
    """EF-02 Would this block, destroyed now, go face down (its rebuild delayed)?"""
    return is_delayed(Block("x", Side(u["side"]), BlockType(u["kind"]), 0, int(u["max"]),
                            HQClass(u["hq"]) if u["hq"] else None),
                      rules(ctx), ef_readings(ctx))


def run_on(ctx: Context, state: EFState, first: Event, fold: Fold, dice: Dice) -> list[Event]:
    """Fold ``first`` (the order's own event, by ``fold``) into a copy of the state and carry
    the battles on (rolling fire, forced losses and retreats, battle ends) until a player owes
    a decision or the operation closes: the events of the battle machine
    (:data:`BATTLE_FOLDS`)."""
    s = thaw(state)
    out: list[Event] = []

    def emit(ev: Event) -> None:
        out.append(ev)
        (fold if ev is first else BATTLE_FOLDS[ev.type])(s, Event(ev.type,
                                                                  thaw(dict(ev.data))))

    emit(first)
    r = game_readings(ctx)
    for _ in range(10_000):
        b = s["battle"]
        if b is None:
            if s["battle_queue"]:
                h = s["battle_queue"][0]
                att = s["operation"]["side"]
                shown = {uid: {k: s["units"][uid][k] for k in ("side", "kind", "steps", "fp",
                                                               "name")}
                         for side in (att, other(att)) for uid in blocks_in(s, h, side)}
                n_air = _air_dice(ctx, s, h, att)
                emit(Event("battle_started", {
                    "hex": h, "attacker": att, "defender": other(att), "blocks": shown,
                    "air_dice": n_air, "rounds": r.efg_battle_rounds,
                    "rules": ["EF-08"] if n_air and rule_on(ctx, OptionalRule.FRONT_AIR_POWER)
                    else []}))
                continue
            op = s["operation"]
            if op is not None and op.get("closing"):
                emit(Event("operation_closed", {"side": op["side"], "hq": op["hq"]}))
            return out
        h = b["hex"]
        role = {b["attacker"]: "attacker", b["defender"]: "defender"}
        if b["owed"] is not None:
            side, hits = b["owed"]["side"], int(b["owed"]["hits"])
            if hits >= block_steps(s, h, side):
                ids = blocks_in(s, h, side)
                emit(Event("losses_forced", {"hex": h, "side": side, "blocks": ids,
                                             "face_down": [i for i in ids
                                                           if goes_face_down(ctx, s["units"][i])]}))
                continue
            return out
        standing = {sd: blocks_in(s, h, sd) for sd in (b["attacker"], b["defender"])}
        if not standing[b["attacker"]] or not standing[b["defender"]]:
            winner = b["attacker"] if standing[b["attacker"]] else b["defender"]
            emit(Event("battle_ended", {"hex": h, "winner": winner}))
            continue
        if b["retreat"] is not None:
            o = occupants(s)
            stuck = [uid for uid in standing[b["retreat"]]
                     if not retreat_hexes(G(ctx), o, s["control"], h, b["retreat"])]
            if stuck:
                uid = stuck[0]
                emit(Event("block_eliminated", {"block": uid, "hex": h, "reason": "no retreat",
                                                "face_down": goes_face_down(ctx, s["units"][uid])}))
                continue
            return out
        if b["stage"] in ("fire_defender", "fire_attacker"):
            side = b["defender"] if b["stage"] == "fire_defender" else b["attacker"]
            stream = dice.stream(BATTLE_STREAM)
            firing = [(uid, int(s["units"][uid]["steps"]), int(s["units"][uid]["fp"]))
                      for uid in standing[side]]
            rolls = {uid: [stream.die(6) for _ in range(n)] for uid, n, _ in firing}
            air = ([stream.die(6) for _ in range(int(b["air"]))]
                   if side == b["attacker"] and int(b["round"]) == 1 else [])
            hits = fire_hits(firing, [rolls[uid] for uid, _, _ in firing]) + \
                air_hits(air, r.efg_air_hit)
            emit(Event("battle_fire", {"hex": h, "side": side, "role": role[side],
                                       "round": b["round"], "rolls": rolls, "air_rolls": air,
                                       "hits": hits}))
            continue
        loser = retreating_side(int(b["hits"]["attacker"]), int(b["hits"]["defender"]))
        emit(Event("retreat_ordered", {"hex": h, "side": b[loser]}))
    raise IllegalOrder("EF-18", "the battle did not end")  # pragma: no cover - a bug guard


def fold_battle_started(state: EFState, ev: Event) -> EFState:
    d = cast(BattleStarted, ev.data)
    for uid in d["blocks"]:
        state["units"][uid]["hidden"] = False
    state["battle_queue"] = [h for h in state["battle_queue"] if h != d["hex"]]
    state["battle"] = {"hex": d["hex"], "attacker": d["attacker"], "defender": d["defender"],
                       "round": 1, "rounds": d["rounds"], "stage": "fire_defender", "owed": None,
                       "hits": {"attacker": 0, "defender": 0}, "retreat": None,
                       "air": d["air_dice"]}
    return state


def fold_battle_fire(state: EFState, ev: Event) -> EFState:
    d = cast(BattleFire, ev.data)
    b = battle_now(state)
    b["hits"][d["role"]] += int(d["hits"])
    target = other(d["side"])
    if int(d["hits"]) > 0:
        b["owed"] = {"side": target, "hits": int(d["hits"])}
    if d["role"] == "defender":
        b["stage"] = "fire_attacker"
    elif int(b["round"]) < int(b["rounds"]):
        b["round"], b["stage"] = int(b["round"]) + 1, "fire_defender"
    else:
        b["stage"] = "resolve"
    return state


def fold_losses_forced(state: EFState, ev: Event) -> EFState:
    d = cast(LossesForced, ev.data)
    for uid in d["blocks"]:
        destroy(state, uid, uid in d["face_down"])
    battle_now(state)["owed"] = None
    return refresh(state)


def fold_retreat_ordered(state: EFState, ev: Event) -> EFState:
    d = cast(RetreatOrdered, ev.data)
    b = battle_now(state)
    b["retreat"] = d["side"]
    b["stage"] = "retreat"
    return state


def fold_block_eliminated(state: EFState, ev: Event) -> EFState:
    d = cast(BlockEliminated, ev.data)
    destroy(state, str(d["block"]), bool(d["face_down"]))
    return refresh(state)


def fold_battle_ended(state: EFState, ev: Event) -> EFState:
    d = cast(BattleEnded, ev.data)
    h = d["hex"]
    state["control"][h] = d["winner"]
    op = state["operation"]
    for uid, u in state["units"].items():
        if u["hex"] == h and not (op is not None and uid == op["hq"]):
            u["hidden"] = True
    state["battle"] = None
    return state


def fold_operation_closed(state: EFState, ev: Event) -> EFState:
    d = cast(OperationClosed, ev.data)
    hq = state["units"].get(d["hq"])
    if hq is not None:
        hq["hidden"] = True
    state["operation"] = None
    return refresh(state)


#: The events the battle machine (:func:`run_on`) emits, and their folds.
BATTLE_FOLDS: dict[str, Fold] = {
    "battle_started": fold_battle_started,
    "battle_fire": fold_battle_fire,
    "losses_forced": fold_losses_forced,
    "retreat_ordered": fold_retreat_ordered,
    "block_eliminated": fold_block_eliminated,
    "battle_ended": fold_battle_ended,
    "operation_closed": fold_operation_closed,
}
