"""TR-27/TR-28 movement and TR-66..TR-68 land SR in the ``third_reich`` engine system: the
rule functions the ``move`` and ``sr`` Orders (``movement/orders/``) run.

``move`` checks a ground unit's path hex by hex with
:func:`grognard.third_reich.movement.movement.check_path` (3R costs: swamp/mountain, rivers, +1 MP into
an enemy ZOC, infantry stopping there, the one-hex minimum move, mud halving armor; only armor
in the mechanized movement phase, and only under its own power's offensive option on the front, TR-03). A unit moves
once per phase; at most two ground units of a side end in a hex (3R stacking).

``sr`` strategically redeploys one unit by land (TR-68 path search
:func:`grognard.third_reich.movement.sr_land.land_sr_path`, endpoint rules TR-67) and spends one of the
power's SR actions (TR-66 budget, :func:`grognard.third_reich.movement.sr.record_sr`). Formats:
docs/formats/tr_engine.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.movement import (
    MovementPhase,
    MoveRange,
    movement_range,
    movement_ranges,
    third_reich_movement,
)
from grognard.core.paths import hex_index
from grognard.core.zoc import ZocField
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.third_reich.board import (
    PLACEMENT_FIELDS,
    axis_side_of,
    ground_by_hex,
    ground_unit_of,
    hex_front,
    hex_stacking_limit,
    on_map_ground,
    order_hex,
    phase_name,
    placement_key,
    position_cached,
)
from grognard.third_reich.combat.amphibious import invaded_unit_may
from grognard.third_reich.movement.movement import (
    enemy_zoc,
    may_move_in_phase,
    mech_move_refusal,
    move_class,
    movement_allowance,
)
from grognard.third_reich.movement.sr import (
    SRKind,
    SRPhase,
    UnitClass,
    record_sr,
    sr_actions_of,
    sr_phase,
    verify_sr,
)
from grognard.third_reich.movement.sr_land import land_sr_path
from grognard.third_reich.state import AIR_TYPES
from grognard.third_reich.state_types import FrontOption, SrMade, TRState, TRUnit
from grognard.third_reich.supply.supply_map import weather_region
from grognard.third_reich.turn.calendar import weather
from grognard.third_reich.turn.forces import Side
from grognard.third_reich.turn.options import OptionRefusal
from grognard.third_reich.turn.powers import MAJORS
from grognard.third_reich.turn.sequence import Phase
from grognard.third_reich.war import (
    closed_mask,
    closed_zoc,
    diplomacy,
    has_diplomacy,
    option_readings,
    war_zoc,
)

# --- move ------------------------------------------------------------------------------------


def _at_war(ctx: Context, state: TRState, power: str) -> dict[str, bool]:
    """TR-25: a memo of which unit powers (and minors) are at war with ``power``, kept while
    the diplomacy is the same (:func:`~grognard.third_reich.war.diplomacy` parses it into an
    immutable value once per state object; folds replace it on every change)."""
    return ctx.keyed(f"tr.at_war.{power}", (diplomacy(state),), dict)


def _unit_fields(entry: tuple[Any, ...]) -> dict[str, Any]:
    """The unit fields of a :func:`placement_key` entry (what :func:`ground_unit_of` reads)."""
    _uid, label, side, kind, nationality, attack, movement, power = entry
    return {"hex": label, "side": side, "type": kind, "nationality": nationality,
            "attack": attack, "movement": movement, "power": power}


def _frozen(zoc: ZocField) -> ZocField:
    """``zoc`` with its arrays read-only (it is shared across commands)."""
    for a in (zoc.strength, zoc.friendly, zoc.enemy):
        a.setflags(write=False)
    return zoc


def move_zoc(ctx: Context, state: TRState, side: Side, power: str = "") -> ZocField:
    """TR-27 The enemy ZOC field a mover of ``side`` meets (once per position); with
    ``power``, only the enemy units of countries at war with that power exert a ZOC ("ZOCs do
    not extend across political boundaries before declaration of war", issue 23).

    The enemy part of the field (the ZOC strengths, the enemy-held hexes) depends on the
    enemy units alone, so it is kept across commands while they stand where they stood (a
    side's own moves do not rebuild it); the friendly hexes are marked per position."""
    def make() -> ZocField:
        m = ctx.scenario.map
        axis = axis_side_of(ctx)
        axis_mover = side is Side.AXIS
        enemies = _enemy_entries(ctx, state, side, power)
        part = ctx.keyed(f"tr.enemy_zoc.{side}.{power}", enemies,
                         lambda: _shared_enemy_zoc(ctx, side, enemies))
        friendly = np.zeros(m.n, dtype=bool)
        at = m.label_indices
        friendly[[at[e[1]] if e[1] in at else m.index_of_label(e[1])
                  for e in placement_key(ctx, state) if (e[2] == axis) is axis_mover]] = True
        return ZocField(map=m, side=part.side, rules=part.rules, strength=part.strength,
                        friendly=friendly, enemy=part.enemy)
    return position_cached(ctx, state, f"tr.move_zoc.{side}.{power}", make)


def _shared_enemy_zoc(ctx: Context, side: Side, enemies: tuple[tuple[Any, ...], ...]
                      ) -> ZocField:
    """The enemy part of the move ZOC field made from the placement entries ``enemies``: the
    last few made for ``side`` are kept by their entries, so powers at war with the same
    enemy units (Germany and Italy, say) share one."""
    made: list[tuple[tuple[tuple[Any, ...], ...], ZocField]] = ctx.kept.setdefault(
        f"tr.enemy_zocs.{side}", ((), []))[1]
    for key, zoc in made:
        if key == enemies:
            return zoc
    axis = axis_side_of(ctx)
    zoc = _frozen(enemy_zoc(ctx.scenario.map, [(e[1], ground_unit_of(e[0], _unit_fields(e),
                                                                     axis)) for e in enemies],
                            side))
    made.insert(0, (enemies, zoc))
    del made[4:]
    return zoc


def _enemy_entries(ctx: Context, state: TRState, side: Side, power: str
                   ) -> tuple[tuple[Any, ...], ...]:
    """The :func:`placement_key` entries of the units whose ZOC a mover of ``side`` (of
    ``power``: only the powers at war with it) meets, in the key's order. Kept across
    commands (:class:`~grognard.engine.context.UnitsLog`): while the units changed since are
    none of these and none of the other sides' ground units on the map, and the war is the
    same, the kept entries stand (a side's own moves do not make them again)."""
    axis = axis_side_of(ctx)
    axis_mover = side is Side.AXIS
    war = _at_war(ctx, state, power) if power and state.get("diplomacy") is not None \
        else None
    units, log = state["units"], ctx.units_log
    name = f"tr.move_enemies.{side}.{power}"
    hit: Any = ctx.kept.get(name)  # ((units, version, war), (ids, entries))
    if hit is not None and hit[0][0] is units and hit[0][2] is war:
        version, kept_ids = hit[0][1], hit[1][0]
        kept: tuple[tuple[Any, ...], ...] = hit[1][1]
        changed = log.changed_since(units, version, PLACEMENT_FIELDS)
        if changed is not None and not any(
                uid in kept_ids or _other_side_ground(units.get(uid), axis, axis_mover)
                for uid in changed):
            ctx.kept[name] = ((units, log.version, war), (kept_ids, kept))
            return kept
    theirs = [e for e in placement_key(ctx, state) if (e[2] == axis) is not axis_mover]
    if war is not None:
        from grognard.third_reich.war import at_war_with_any

        for e in theirs:
            p = str(e[7] or "")
            if p not in war:
                war[p] = at_war_with_any(state, p, [power])
        theirs = [e for e in theirs if war[str(e[7] or "")]]
    enemies = tuple(theirs)
    ctx.kept[name] = ((units, log.version, war), (frozenset(e[0] for e in enemies), enemies))
    return enemies


def _other_side_ground(u: TRUnit | None, axis: str, axis_mover: bool) -> bool:
    """Whether ``u`` is a ground unit on the map of a side other than the mover's (an enemy
    entry of :func:`placement_key`, at war or not)."""
    return u is not None and on_map_ground(u) and (u["side"] == axis) is not axis_mover


def mech_option_refusal(ctx: Context, state: TRState, side: str, power: str, front: str
                        ) -> OptionRefusal | None:
    """TR-03/TR-22 (issue 23) :func:`mech_move_refusal` on the state: the options each power of
    ``side`` declared this turn, the minors' patrons from the diplomacy, the ``minor_option``
    reading. A unit of no power (a scenario without powers) moves under its side's option."""
    if not power:
        return None
    patrons = dict(diplomacy(state).aligned) if has_diplomacy(state) else {}
    majors = [p for p, s in state["power_sides"].items() if s == side and p in MAJORS]
    return mech_move_refusal(state.get("options_powers", {}), power, front, patrons, majors,
                             option_readings(ctx))



def refuses_every_move(ctx: Context, state: TRState, player: str, uid: str,
                       u: Mapping[str, Any]) -> bool:
    """Whether ``move``'s verify refuses every move of ``player``'s ground unit ``uid`` on
    the map this phase, whatever its path: the checks of that verify that read the unit and
    not where it goes - TR-51 air-landed this turn; in the mechanized movement phase TR-62
    invaded this turn (unless the reading lets it), TR-02 no offensive option on its hex's
    front, TR-03 its own power's option. The move lister does not range such a unit."""
    if uid in state.get("air_landed", []):
        return True
    if move_phase(ctx, state) is not MovementPhase.MECHANIZED:
        return False
    if uid in state.get("invaded", []) and not invaded_unit_may("mech_move",
                                                                u["type"] == "armor"):
        return True
    m = ctx.scenario.map
    front = hex_front(m, hex_index(m, cast(str, u["hex"])))
    if state["options"].get(player, {}).get(front, cast(FrontOption, {})).get("option") \
            != "offensive":
        return True
    return mech_option_refusal(ctx, state, player, str(u.get("power") or ""), front) is not None


def unit_move_range(ctx: Context, state: TRState, uid: str) -> MoveRange:
    """TR-27/TR-28 Every hex unit ``uid`` can reach this phase with its cheapest paths
    (:func:`grognard.core.movement.movement_range` with the 3R rules; once per position)."""
    def make() -> MoveRange:
        m = ctx.scenario.map
        u = state["units"][uid]
        unit = ground_unit_of(uid, u, axis_side_of(ctx))
        h = hex_index(m, cast(str, u["hex"]))
        wx = weather(weather_region(m, h), state["turn"])
        phase = move_phase(ctx, state)
        mp = movement_allowance(unit, wx) if may_move_in_phase(unit, phase) else 0
        power = str(u.get("power", ""))
        zoc = closed_zoc(ctx, state, move_zoc(ctx, state, unit.side, power), power, h)  # TR-25: no move into or across a country not at war
        return movement_range(m, cast(str, u["hex"]), mp, move_class(unit), zoc,
                              third_reich_movement(), phase=phase)
    return position_cached(ctx, state, f"tr.range.{uid}", make)


def unit_move_ranges(ctx: Context, state: TRState, uids: list[str]) -> dict[str, MoveRange]:
    """TR-27/TR-28 :func:`unit_move_range` of many units at once (one graph per movement
    class, nearby units searched together): the same hexes and costs (a cheapest path may
    differ between equal-cost ones, so the ranges are not put in the position cache that
    resolves a move's ``to``). Units that cannot be ranged (not a ground unit on the map,
    sharing a hex with enemy units) are left out."""
    m = ctx.scenario.map
    axis = axis_side_of(ctx)
    phase = move_phase(ctx, state)
    zoc: dict[tuple[Side, str], ZocField] = {}
    todo: list[tuple[str, Any, int]] = []
    out: dict[str, MoveRange] = {}
    for uid in uids:
        hit = ctx.cache.get(f"tr.range.{uid}")
        if hit is not None and hit[0] is state:
            out[uid] = hit[1]
            continue
        u = state["units"].get(uid)
        if u is None or not on_map_ground(u) or u["hex"] is None:
            continue
        unit = ground_unit_of(uid, u, axis)
        h = hex_index(m, u["hex"])
        wx = weather(weather_region(m, h), state["turn"])
        mp = movement_allowance(unit, wx) if may_move_in_phase(unit, phase) else 0
        power = str(u.get("power", ""))
        if (unit.side, power) not in zoc:  # TR-25: closed countries impassable
            zoc[(unit.side, power)] = closed_zoc(ctx, state, move_zoc(ctx, state, unit.side,
                                                                      power),
                                                 power)
        todo.append((uid, unit, mp))
    for (side, power), field in zoc.items():
        group = [(uid, unit, mp) for uid, unit, mp in todo if unit.side is side and
                 str(state["units"][uid].get("power", "")) == power]
        ok = [(uid, unit, mp) for uid, unit, mp in group
              if not field.enemy[hex_index(m, cast(str, state["units"][uid]["hex"]))]]
        if not ok:
            continue
        ranges = movement_ranges(m, cast("list[str]", [state["units"][uid]["hex"]
                                                       for uid, _u, _mp in ok]),
                                 [mp for _uid, _u, mp in ok],
                                 [move_class(unit) for _uid, unit, _mp in ok], field,
                                 third_reich_movement(), phase=phase)
        for (uid, _unit, _mp), r in zip(ok, ranges, strict=True):
            out[uid] = r
    return out


def move_phase(ctx: Context, state: TRState) -> MovementPhase:
    return (MovementPhase.MECHANIZED if phase_name(ctx, state) == Phase.MECH_MOVEMENT.value
            else MovementPhase.NORMAL)


# --- sr (land) --------------------------------------------------------------------------------


def _sr_check(ctx: Context, state: TRState, cmd: Command) -> dict[str, Any]:
    m = ctx.scenario.map
    uid, to = cmd.args.get("unit"), cmd.args.get("to")
    if not isinstance(uid, str):
        raise InputError("args.unit", "name the unit to redeploy")
    if not isinstance(to, str):
        raise InputError("args.to", "name the destination hex")
    kind = str(cmd.args.get("kind", "land"))
    if kind != SRKind.LAND.value:
        raise IllegalOrder("TR-66", f"unknown SR kind {kind!r} (land, sea, fleet, air_landing)")
    order_hex(m, to, "args.to", "TR-67")
    u = state["units"].get(uid)
    air = u is not None and u["type"] in AIR_TYPES
    if u is None or u["side"] != cmd.player or u["status"] != "active" or u["hex"] is None \
            or not (air or on_map_ground(u)):
        raise IllegalOrder("TR-66", f"{uid} is not a ground or air unit of {cmd.player} on "
                           "the map")
    if u["hex"] == to:
        raise IllegalOrder("TR-67", f"{uid} is already in {to}")
    sr = sr_actions_of(state, u["power"])
    verify_sr(sr, uid, SRKind.LAND, ctx.tables)
    zoc = war_zoc(ctx, state, cmd.player, str(u["power"]))  # TR-27/TR-68: ZOCs at war only
    cities = sorted(m.cities)  # map numbers: no label parsing per order
    res = land_sr_path(m, u["hex"], to, zoc, UnitClass.AIR if air else UnitClass.GROUND,
                       forbidden=closed_mask(ctx, state, str(u["power"]), "sr"),
                       city_or_airbase=cities)  # TR-68: never crossing neutral countries
    if not res.ok:
        raise IllegalOrder(res.rule or "TR-68", f"{uid}: {res.reason}")
    if not air:
        here = sum(1 for v in ground_by_hex(ctx, state).get(to, ())
                   if state["units"][v]["side"] == cmd.player)
        if here + 1 > hex_stacking_limit(state, to):
            raise IllegalOrder("TR-67", f"{to} already holds {here} {cmd.player} units")
    _, rec = record_sr(sr, uid, SRKind.LAND, ctx.tables)
    return {"side": cmd.player, "unit": uid, "from": u["hex"], "to": to,
            "path": list(res.path), **rec.to_json()}


def verify_sr_cmd(ctx: Context, state: TRState, cmd: Command) -> None:
    _sr_check(ctx, state, cmd)


def execute_sr(ctx: Context, state: TRState, cmd: Command, dice: Dice) -> list[Event]:
    return [Event("sr_made", _sr_check(ctx, state, cmd))]


def fold_sr_made(state: TRState, ev: Event) -> TRState:
    s = state
    d = cast(SrMade, ev.data)
    sr = sr_phase(state, d["power"])
    new = SRPhase(sr.power, int(d["used"]), sr.us_initial, {**sr.units, d["unit"]: SRKind(
        "land" if d["kind"] == "air_landing" else d["kind"])})
    s["sr"][d["power"]] = new.to_json()
    s["units"][d["unit"]]["hex"] = d["to"]
    return s
