"""``move`` (TR-27/TR-28): a ground unit moves along a path (3R movement costs and ZOCs),
in the movement or the mechanized movement phase (armor under its own power's offensive option, TR-02/TR-03).
A unit entering an enemy city takes it (TR-22 control; TR-77/TR-12 losses named in the
event as ``captures``: the system's capture-on-occupation rule applies them).

Event ``unit_moved`` ``{unit, from, path, mp, phase[, captures, rules]}``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.movement import MovementPhase
from grognard.core.paths import hex_index
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold, named_unit, writes_units
from grognard.engine.orders import Order, Words, as_list, hex_name, plural
from grognard.engine.system import Places
from grognard.third_reich.board import (
    axis_side_of,
    ground_unit_of,
    hex_front,
    hex_stacking_limit,
    on_map_ground,
    order_hex,
    placement_key,
)
from grognard.third_reich.capture import capture_preview
from grognard.third_reich.combat.amphibious import invaded_unit_may
from grognard.third_reich.movement.movement import check_path
from grognard.third_reich.movement.moves import (
    mech_option_refusal,
    move_phase,
    move_zoc,
    unit_move_range,
)
from grognard.third_reich.movement.proposers import legal_move, sample_move
from grognard.third_reich.proposals import distinct
from grognard.third_reich.state_types import FrontOption, TRState, UnitMoved
from grognard.third_reich.supply.supply_map import weather_region
from grognard.third_reich.turn.calendar import weather
from grognard.third_reich.turn.powers import Action
from grognard.third_reich.war import verify_enter
from grognard.third_reich.words import label_of, named_units, unit_name


class MoveArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``unit`` and the hexes it enters: an explicit ``path``, or ``to`` (the engine picks the
    cheapest legal path there from the unit's movement range, ties by hex order)."""

    unit: str
    path: list[str] | None = None
    to: str | None = None


def move_path(ctx: Context, state: TRState, cmd: Command, args: MoveArgs) -> tuple[str, list[str]]:
    """The unit and the hexes it enters (``to``: the cheapest path of its movement range)."""
    uid, path = args.unit, args.path
    if path is None and args.to is not None:
        to = args.to
        order_hex(ctx.scenario.map, to, "args.to", "TR-27")
        u = state["units"].get(uid)
        if u is None or not on_map_ground(u) or u["side"] != cmd.player:
            raise IllegalOrder("TR-27", f"{uid} is not a ground unit of {cmd.player} on the map")
        verify_enter(ctx, state, str(u.get("power", "")), [to], Action.MOVE)  # TR-25
        rng = unit_move_range(ctx, state, uid)
        if to == u["hex"] or to not in rng:
            raise IllegalOrder("TR-28", f"{uid} cannot reach {to} this phase")
        path = rng.path_to(to)[1:]
    if not path:
        raise InputError("args.path", "list the hexes entered, one or more labels (or give to)")
    for label in path:
        order_hex(ctx.scenario.map, label, "args.path", "TR-27")
    return uid, list(path)


def checked_move(ctx: Context, state: TRState, cmd: Command, args: MoveArgs
                 ) -> tuple[str, list[str], int]:
    """TR-27/TR-28: the unit, the hexes it enters and the MP it spends, or the rule the move
    breaks (not this player's unit, moved already, an illegal path, over-stacked). Once per
    command and position: the engine's verify and the execution that follows share it."""
    key = f"tr.checked_move.{id(cmd)}"
    hit = ctx.cache.get(key)
    if hit is not None and hit[0] is cmd and hit[1] is state:
        done: tuple[str, list[str], int] = hit[2]
        return done[0], list(done[1]), done[2]
    uid, path, mp = _checked_move(ctx, state, cmd, args)
    ctx.cache[key] = (cmd, state, (uid, list(path), mp))
    return uid, path, mp


def _side_stack(ctx: Context, state: TRState, label: str, side: str) -> int:
    """TR-28: the ground units of ``side`` in hex ``label``: counted in the placement on the
    first ask of a position (a move's verify asks once), from a table of every hex's counts
    made on the second (a lister's verifies ask many times)."""
    units = state["units"]
    hit = ctx.cache.get("tr.side_stacks")
    if hit is None or hit[0] is not units:
        ctx.cache["tr.side_stacks"] = (units, None)
        return sum(1 for e in placement_key(ctx, state) if e[1] == label and e[2] == side)
    table: dict[tuple[str, str], int] | None = hit[1]
    if table is None:
        table = {}
        for e in placement_key(ctx, state):  # (uid, hex, side, ...) of each ground unit
            k = (e[1], e[2])
            table[k] = table.get(k, 0) + 1
        ctx.cache["tr.side_stacks"] = (units, table)
    return table.get((label, side), 0)


def _checked_move(ctx: Context, state: TRState, cmd: Command, args: MoveArgs
                  ) -> tuple[str, list[str], int]:
    m = ctx.scenario.map
    uid, path = move_path(ctx, state, cmd, args)
    u = state["units"].get(uid)
    if u is None or not on_map_ground(u) or u["side"] != cmd.player:
        raise IllegalOrder("TR-27", f"{uid} is not a ground unit of {cmd.player} on the map")
    if uid in state["moved"]:
        raise IllegalOrder("TR-28", f"{uid} has already moved this phase")
    if uid in state.get("air_landed", []):
        raise IllegalOrder("TR-51", f"{uid} air-landed this turn: that was its only move")
    verify_enter(ctx, state, str(u.get("power", "")), path, Action.MOVE)  # TR-25
    phase = move_phase(ctx, state)
    if phase is MovementPhase.MECHANIZED and uid in state.get("invaded", []) and \
            not invaded_unit_may("mech_move", u["type"] == "armor"):
        raise IllegalOrder("TR-62", f"{uid} invaded this turn: no mechanized movement")
    h = hex_index(m, cast(str, u["hex"]))
    front = hex_front(m, h)
    if phase is MovementPhase.MECHANIZED and \
            state["options"].get(cmd.player, {}).get(front, cast(FrontOption, {})).get(
                "option") != "offensive":
        raise IllegalOrder("TR-02", f"{u['hex']} is on the {front} front, where {cmd.player} "
                           "has no offensive option (no mechanized movement)")
    if phase is MovementPhase.MECHANIZED:  # TR-03/TR-22: under the unit's own power's option
        r = mech_option_refusal(ctx, state, cmd.player, str(u.get("power") or ""), front)
        if r is not None:
            raise IllegalOrder(r.rule, f"{uid}: {r.reason}")
    unit = ground_unit_of(uid, u, axis_side_of(ctx))
    zoc = move_zoc(ctx, state, unit.side, str(u.get("power", "")))  # TR-27: at war only
    wx = weather(weather_region(m, h), state["turn"])
    full = [cast(str, u["hex"]), *path]
    try:
        chk = check_path(m, unit, full, zoc, phase, wx)
    except InputError as exc:
        raise IllegalOrder("TR-27", f"{uid}: {exc.reason}") from None
    if not chk.legal:
        raise IllegalOrder("TR-28" if "MP" in chk.reason or "move" in chk.reason else "TR-27",
                           f"{uid}: {chk.reason}")
    here = _side_stack(ctx, state, path[-1], cmd.player)
    limit = hex_stacking_limit(state, path[-1])
    if here + 1 > limit:
        raise IllegalOrder("TR-28", f"{path[-1]} already holds {here} {cmd.player} units "
                           f"(stacking limit {limit})")
    return uid, path, chk.mp



@writes_units(named_unit)
def fold_unit_moved(state: TRState, ev: Event) -> TRState:
    """TR-27: the unit stands in its last hex, its MP spent; it has moved this phase."""
    d = cast(UnitMoved, ev.data)
    u = state["units"][d["unit"]]
    u["hex"] = d["path"][-1]
    u["mp_spent"] += d["mp"]
    state["moved"] = [*state.get("moved", []), d["unit"]]
    return state


class Move(Order[MoveArgs]):
    """TR-27/TR-28 Move a ground unit along a path (3R costs and ZOCs)."""

    kind = "move"
    rule = "TR-27"
    Args = MoveArgs
    help = "TR-27/TR-28 Move a ground unit along a path (3R costs and ZOCs)."
    example: ClassVar[Mapping[str, object]] = {"unit": "ge-inf2", "path": ["B6"]}
    folds: ClassVar[Mapping[str, Fold]] = {"unit_moved": fold_unit_moved}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: MoveArgs) -> None:
        checked_move(ctx, state, cmd, args)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: MoveArgs,
                dice: Dice) -> list[Event]:
        uid, path, mp = checked_move(ctx, state, cmd, args)
        data: dict[str, Any] = {"unit": uid, "from": state["units"][uid]["hex"], "path": path, "mp": mp,
                "phase": move_phase(ctx, state).value}
        caps = capture_preview(state, str(state["units"][uid]["side"]), path[-1])
        if caps:  # TR-77 / TR-12: the cities it takes and their losses, named
            data = {**data, "captures": caps, "rules": sorted({c["rule"] for c in caps})}
        return [Event("unit_moved", data)]

    def checked(self, ctx: Context, state: TRState, cmd: Command) -> None:
        """``verify`` of a command (for the enumerators that check candidates)."""
        self.verify(ctx, state, cmd, self.args(ctx, cmd))

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        """TR-27/TR-28: every hex of each unmoved unit's movement range (``to``)."""
        return distinct(legal_move)(ctx, state, player)

    def sample(self, ctx: Context, state: TRState, player: str,
               rng: random.Random) -> Command | None:
        """One legal move drawn uniformly
        (:func:`~grognard.third_reich.movement.proposers.sample_move`)."""
        return sample_move(ctx, state, player, rng, verify=self.checked)

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        path = as_list(a.get("path"))
        to = str(a["to"]) if a.get("to") else (path[-1] if path else "?")
        steps = "" if not path else f" ({plural(len(path), 'hex')}" + (
            f" via {', '.join(path[:-1])})" if len(path) > 1 else ")")
        return Words(f"Move {unit_name(state, a.get('unit'))} to {hex_name(ctx, to)}{steps}",
                     f"to {to}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        path = tuple(as_list(cmd.args.get("path")))
        to = label_of(cmd, "to") or (path[-1] if path else None)
        return Places(None, to, path or ((to,) if to else ()), named_units(cmd, "unit"))


__all__ = ["Move", "MoveArgs", "fold_unit_moved"]
