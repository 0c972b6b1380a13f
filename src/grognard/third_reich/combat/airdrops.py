"""TR-51/TR-52 air drops in the ``third_reich`` engine system (the bases and air zones of the
position are :mod:`grognard.third_reich.air_naval.air_state`).

``airdrop`` air-lands an airborne unit (:func:`grognard.third_reich.combat.airborne.verify_air_drop`,
:func:`~grognard.third_reich.combat.airborne.air_drop`): offensive option on its front, ordinary
movement phase, clear weather, from a friendly city, at most 6 hexes, not into an uncontested
enemy air zone; ``escorts`` (phasing air) and ``interceptors`` (the defender's air: the non-phasing
player's own ``intercept`` decision, :mod:`~grognard.third_reich.reactions`) fight one air-to-air round
with two 1D10 rolls from the named stream ``third_reich.airborne``. The landed unit makes no
other move that turn and may attack its own landing hex (TR-52; the attack then has the
``airborne_in_hex`` effect on the shifts).

Readings: bases are the map's cities the side controls (``state["control"]``), all taken as in
supply (no airbase markers yet); air units lose factors in the order named.
"""

from __future__ import annotations

from typing import cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex
from grognard.core.mapdata import WATER_TERRAIN
from grognard.core.movement import MovementPhase
from grognard.core.paths import hex_index
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.third_reich.air_naval.air_state import bases
from grognard.third_reich.air_naval.air_zones import BasedAir
from grognard.third_reich.air_naval.airnaval import take_losses
from grognard.third_reich.air_naval.support_fight import ready_air
from grognard.third_reich.board import (
    axis_side_of,
    ground_unit_of,
    hex_front,
    on_map_ground,
    order_hex,
    phase_name,
)
from grognard.third_reich.combat.airborne import DropOrder, air_drop, verify_air_drop
from grognard.third_reich.state import AIR_TYPES, air_unit, based_air, neutralized, side_of
from grognard.third_reich.state_types import Airdropped, FrontOption, TRState
from grognard.third_reich.turn.calendar import weather, weather_region
from grognard.third_reich.turn.forces import GroundKind
from grognard.third_reich.turn.options import Option
from grognard.third_reich.turn.sequence import Phase


def _to(ctx: Context, cmd: Command, rule: str) -> str:
    to = cmd.args.get("to")
    if not isinstance(to, str):
        raise InputError("args.to", "name the destination hex")
    order_hex(ctx.scenario.map, to, "args.to", rule)
    return to


def _normal_movement(ctx: Context, state: TRState, rule: str) -> None:
    if phase_name(ctx, state) != Phase.MOVEMENT.value:
        raise IllegalOrder(rule, "only in the ordinary movement phase")


# --- airdrop (TR-51) ---------------------------------------------------------------------------------


def _air_list(ctx: Context, state: TRState, cmd: Command, name: str, own: bool,
              target: Hex) -> list[str]:
    raw = cmd.args.get(name, [])
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw) or \
            len(set(raw)) != len(raw):
        raise InputError(f"args.{name}", "a list of distinct air unit ids")
    m = ctx.scenario.map
    for uid in raw:
        u = state["units"].get(uid)
        if u is None or u["type"] not in AIR_TYPES or u["status"] != "active" or \
                u["hex"] is None or (u["side"] == cmd.player) != own:
            raise IllegalOrder("TR-51", f"{uid} is not {'a' if own else 'an enemy'} air unit "
                               "on the map")
        if uid in state["air_used"]:
            raise IllegalOrder("TR-51", f"{uid} has already flown this turn")
        if neutralized(state, uid) >= int(u["attack"]):
            raise IllegalOrder("TR-44", f"{uid} is neutralized by counter air this player turn")
        a = air_unit(uid, u)
        if not BasedAir(a, side_of(ctx, u["side"]), m.layout.from_label(u["hex"])).reaches(target):
            raise IllegalOrder("TR-51", f"{uid} in {u['hex']} is out of range of the drop")
    return list(raw)


def _drop_check(ctx: Context, state: TRState, cmd: Command) -> tuple[DropOrder, list[str],
                                                                  list[str]]:
    _normal_movement(ctx, state, "TR-51")
    m = ctx.scenario.map
    uid = cmd.args.get("unit")
    u = state["units"].get(uid) if isinstance(uid, str) else None
    if u is None or not on_map_ground(u) or u["side"] != cmd.player:
        raise IllegalOrder("TR-51", f"{uid!r} is not a ground unit of {cmd.player} on the map")
    unit = ground_unit_of(str(uid), u, axis_side_of(ctx))
    if unit.kind is not GroundKind.AIRBORNE:
        raise IllegalOrder("TR-51", f"{uid} is not an airborne unit")
    to = _to(ctx, cmd, "TR-51")
    start, target = m.layout.from_label(cast(str, u["hex"])), m.layout.from_label(to)
    h = hex_index(m, to)
    opt = state["options"].get(cmd.player, {}).get(hex_front(m, h), cast(FrontOption, {})).get(
        "option", "pass")
    base = bases(ctx, state).get(start)
    order = DropOrder(unit, start, target,
                      start_is_friendly_base=base is not None and base.side is unit.side,
                      moved_this_turn=uid in state["moved"] or int(u["mp_spent"]) > 0,
                      target_is_land=m.terrain_of(target) not in WATER_TERRAIN,
                      option=Option(opt), phase=MovementPhase.NORMAL,
                      weather=weather(weather_region(m, h), state["turn"]))
    verify_air_drop(order, based_air(ctx, state))
    # TR-03/TR-51 (issue 23): the airborne unit's own power's offensive on the front (a minor
    # under its patron's), not the side's widest option
    from grognard.third_reich.war import power_of, verify_at_war_with_units, verify_own_option

    verify_own_option(ctx, state, cmd.player, [power_of(state, str(uid))], hex_front(m, h))
    escorts = _air_list(ctx, state, cmd, "escorts", True, target)
    interceptors = _air_list(ctx, state, cmd, "interceptors", False, target)
    for i in interceptors:  # TR-25: only air of a power at war with the dropping unit's
        verify_at_war_with_units(state, power_of(state, i), [str(uid)])
    return order, escorts, interceptors


def verify_airdrop(ctx: Context, state: TRState, cmd: Command) -> None:
    _drop_check(ctx, state, cmd)


def _losses(state: TRState, ids: list[str], hits: int) -> dict[str, int]:
    units = [air_unit(i, state["units"][i]) for i in ids]
    after = take_losses(units, hits)
    return {a.id: a.factors - b.factors for a, b in zip(units, after, strict=True)
            if a.factors != b.factors}


def execute_airdrop(ctx: Context, state: TRState, cmd: Command, dice: Dice) -> list[Event]:
    order, escorts, interceptors = _drop_check(ctx, state, cmd)
    f = {i: ready_air(state, i, state["units"][i]).factors for i in escorts + interceptors}
    n_int, n_esc = sum(f[i] for i in interceptors), sum(f[i] for i in escorts)
    rolls: list[int | None] = [None, None]
    if n_int:
        stream = dice.stream("third_reich.airborne")
        rolls = [stream.die(10), stream.die(10)]
    rec = air_drop(order.unit, n_int, n_esc, rolls[0], rolls[1], tables=ctx.tables)
    losses: dict[str, int] = {}
    if rec.air_combat is not None:
        losses = {**_losses(state, escorts, rec.air_combat.hits_on_phasing),
                  **_losses(state, interceptors, rec.air_combat.hits_on_nonphasing)}
    m = ctx.scenario.map
    return [Event("airdropped", {
        "side": cmd.player, "unit": order.unit.id, "from": m.layout.to_label(order.start),
        "to": cmd.args["to"], "rolls": [r for r in rolls if r is not None],
        "interceptors": n_int, "escorts": n_esc, "hits_on_airborne": rec.hits_on_airborne,
        "factors_after": rec.factors_after, "outcome": rec.outcome.value,
        "air_losses": losses, "flown": sorted(escorts + interceptors)})]


def fold_airdropped(state: TRState, ev: Event) -> TRState:
    s = state
    d = cast(Airdropped, ev.data)
    u = s["units"][d["unit"]]
    if d["outcome"] == "destroyed":
        u["status"], u["hex"] = "eliminated", None
    else:
        u["hex"], u["attack"] = d["to"], int(d["factors_after"])
    for uid, lost in d["air_losses"].items():
        a = s["units"][uid]
        a["attack"] = int(a["attack"]) - int(lost)
        if a["attack"] <= 0:
            a["status"], a["hex"] = "eliminated", None
    s["moved"] = [*state["moved"], d["unit"]]
    s["air_landed"] = [*state["air_landed"], d["unit"]]
    s["air_used"] = [*state["air_used"], *d["flown"]]
    return s


def landed_attack_ok(state: TRState, uid: str, target: str) -> bool:
    """TR-52: an airborne unit that air-landed this turn attacks only its own landing hex."""
    return uid in state.get("air_landed", []) and state["units"][uid]["hex"] == target


def landed_attackers(state: TRState, attackers: list[str]) -> bool:
    return any(a in state.get("air_landed", []) for a in attackers)


__all__: list[str] = [
    "bases",
    "execute_airdrop",
    "fold_airdropped",
    "landed_attack_ok",
    "landed_attackers",
    "verify_airdrop",
]
