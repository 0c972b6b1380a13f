"""The Europa revised air phase played with the scenario's air units (EUR-23..EUR-28, EUR-01).

The air units are the state's ``air_units`` (``[europa.air_units]``: side, base hex, type
F/D/A/other, range, air-combat, tactical and strategic ratings, or an EUR-01 ``wing`` whose
ratings come from ``europa_air_wings``). In the phasing player's air phase (EUR-23):

1. ``air_mission`` {id, kind, target, units[, objective]} - the phasing player sends ready
   air units (operative, not flown this game turn) within range to a mission hex; fighters
   (type F) on a strike mission fly as its escorts, the others are its strike units. Sweeps
   go to an enemy airbase with ready fighters; ground support to an enemy-held hex (EUR-07:
   one air bombardment per hex per player turn); airbase attacks to a base with enemy air
   units; strategic bombing to a city (``objective``: an EUR-28 target).
   ``air_transfer`` {unit, to} - meanwhile a ready unit not on a mission may move to a new
   base instead of flying (the reading of :mod:`grognard.europa.air.transfer`).
2. ``fly_missions`` - the missions are assigned; the units fly (flown this game turn).
3. ``fighter_sweep`` {mission} - each sweep, one round (EUR-24), against the ready enemy
   fighters at the target base.
4. ``intercept`` {mission, interceptors} - the non-phasing player's decision for every strike
   mission some ready fighter of his reaches (EUR-25: within half its range of the mission
   hex): send any of them, or none.
5. ``ground_support`` / ``interdiction`` / ``airbase_attack`` / ``strategic_bombing``
   {mission} - the surviving strike units' mission, in that order (EUR-23): a bombardment
   roll on the target hex (EUR-03/04/06; the +1 DRM is kept for this player turn's attack
   on the hex, a "2" reduces a defender now), the D6 interdiction test (EUR-26), hits on the
   base that make its active units inactive (EUR-27), hits on the strategic target (EUR-28;
   replacement points lost leave the target side's infantry pool).

Air-to-air results (EUR-24/25): X eliminates the unit, A makes it inoperative, R sends it home
(it has flown). The decisions (:func:`air_decisions`) keep the order: while missions are
assigned but not flown, the phasing player assigns or flies; then it sweeps; then the other
player answers each strike mission; then the phasing player resolves them. Readings: a unit
flies once per game turn (as in rule 47); an airbase holds ``AIRBASE_CAPACITY`` units or as
many as are based there, less its hits (EUR-27); no patrol fighters, no air refit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.core.exact import exact_json
from grognard.core.hexgrid import distance
from grognard.core.mapdata import CityClass, Fortification
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.decisions import Decision
from grognard.engine.events import Event
from grognard.engine.phases import Phase
from grognard.engine.state_types import Obj
from grognard.europa.air.airbase_attack import (
    NO_RE_SHIFT,
    Airbase,
    airbase_attack,
    airbase_hits,
    flyable_units,
    random_picks,
)
from grognard.europa.air.interdiction import interdiction_mission
from grognard.europa.air.phase import (
    AirResult,
    AirStep,
    AirUnit,
    Mission,
    MissionKind,
    fighter_sweep,
    intercept,
    interception_range,
    sweep_pairings,
    verify_air_step,
    verify_sweep_pairings,
)
from grognard.europa.air.strategic_bombing import StrategicTarget, strategic_bombing, strategic_hits
from grognard.europa.board import SURPRISE_PREFIX, eliminate, on_map, reduce_unit, unit_json
from grognard.europa.combat.attack import TERRAIN_TABLE, attack_from_json
from grognard.europa.combat.bombardment import (
    Category,
    apply_bombardment,
    bombardment_shift,
    resolve_bombardment,
    verify_step_loss,
)
from grognard.europa.combat.support import ground_support_record
from grognard.europa.combat.terrain import hex_effects
from grognard.europa.state_types import (
    AirMissionAssigned,
    AirMissionsFlown,
    AirState,
    EuropaState,
    Flight,
    GroundSupportResolved,
    InterceptionDeclined,
    InterceptionResolved,
    StrategicBombingResolved,
)
from grognard.europa.state_types import AirUnit as AirUnitRecord

#: Reading (EUR-27): air units an airbase can fly, before hits (or as many as are based there).
AIRBASE_CAPACITY = 3
GROUND_SUPPORT_STREAM = "europa.air.ground_support"
STRATEGIC_STREAM = "europa.air.strategic"
#: The strike missions, in the order they resolve after the interceptions (EUR-23).
STRIKE_ORDER = (MissionKind.GROUND_SUPPORT, MissionKind.INTERDICTION, MissionKind.AIRBASE_ATTACK,
                MissionKind.STRATEGIC_BOMBING)
#: The command that resolves each strike mission.
RESOLVE_COMMAND = {MissionKind.GROUND_SUPPORT: "ground_support",
                   MissionKind.INTERDICTION: "interdiction",
                   MissionKind.AIRBASE_ATTACK: "airbase_attack",
                   MissionKind.STRATEGIC_BOMBING: "strategic_bombing"}
_RULE = {MissionKind.GROUND_SUPPORT: "EUR-23", MissionKind.INTERDICTION: "EUR-26",
         MissionKind.AIRBASE_ATTACK: "EUR-27", MissionKind.STRATEGIC_BOMBING: "EUR-28"}
STRATEGIC_OBJECTIVES = (StrategicTarget.MARSHALLING_YARD, StrategicTarget.FACTORY)


# --- the state's air slot --------------------------------------------------------------------------
def key_of(state: EuropaState) -> list[int]:
    return [int(state["turn"]), int(state["phase"])]


def air_slot(state: EuropaState) -> AirState:
    """``state["air"]`` (an empty slot before the first air command)."""
    air = state.get("air")
    if not isinstance(air, dict):
        return {"key": None, "step": AirStep.MISSIONS.value, "missions": [], "zones": [],
                "airbases": {}, "strategic_hits": {}, "log": []}
    return air


def flights(state: EuropaState) -> list[Flight]:
    """This air phase's missions flown with the scenario's air units (oldest first)."""
    air = air_slot(state)
    if air["key"] != key_of(state):
        return []
    return air.get("flights", [])


def flying(state: EuropaState) -> bool:
    air = air_slot(state)
    return air["key"] == key_of(state) and bool(air.get("flying"))


def has_air_units(state: EuropaState) -> bool:
    """Whether the scenario's air units are in play (then missions name them)."""
    return bool(state.get("air_units"))


def current_phase(ctx: Context, state: EuropaState) -> Phase:
    """The phase of the turn sequence the game is in."""
    return ctx.turn_sequence.phases[int(state["phase"])]


def in_air_phase(ctx: Context, state: EuropaState) -> bool:
    return current_phase(ctx, state).name.removeprefix(SURPRISE_PREFIX) == "air"


def enemy_of(state: EuropaState, player: str) -> str:
    """The side that is not ``player``."""
    return str(next(s for s in state["sides"] if s != player))


#: per map layout: hex label -> hex (labels never change; a bad label is not kept)
_HEXES: dict[Any, dict[str, Any]] = {}


def _hex(lay: Any, label: str) -> Any:
    known = _HEXES.setdefault(lay, {})
    h = known.get(label)
    if h is None:
        h = known[label] = lay.from_label(label)
    return h


def _dist(ctx: Context, a: str, b: str) -> int:
    lay = ctx.scenario.map.layout
    return int(distance(_hex(lay, a), _hex(lay, b)))


def air_units_of(state: EuropaState) -> dict[str, AirUnitRecord]:
    """The state's air units (``air_units``), by unit id; none for a game without them."""
    air: dict[str, AirUnitRecord] = state.get("air_units") or {}
    return air


def ready(state: EuropaState, uid: str) -> bool:
    """An air unit that may fly now: operative and not flown this game turn."""
    u = air_units_of(state)[uid]
    return bool(u["status"] == "operative" and u.get("flown") != int(state["turn"]))


def _fighter(u: Mapping[str, Any]) -> bool:
    return bool(u["type"] == "F")


def air_unit(state: EuropaState, uid: str) -> AirUnit:
    u = air_units_of(state)[uid]
    return AirUnit(uid, int(u.get("air_combat", 0)), int(u["range"]), _fighter(u),
                   int(u.get("tactical", 0)), int(u.get("strategic", 0)))


def _flight(state: EuropaState, args: Mapping[str, Any]) -> Flight:
    mid = args.get("mission")
    for f in flights(state):
        if f["id"] == mid:
            return f
    raise IllegalOrder("EUR-23", f"no mission {mid!r} in this air phase")


def _ids(args: Mapping[str, Any], name: str, allow_empty: bool = False) -> list[str]:
    raw = args.get(name, [])
    if not isinstance(raw, list) or not all(isinstance(u, str) for u in raw) \
            or len(set(raw)) != len(raw) or (not raw and not allow_empty):
        raise InputError(f"args.{name}", "a list of distinct air unit ids")
    return list(raw)


def _label(ctx: Context, raw: Any, field: str) -> str:
    if not isinstance(raw, str):
        raise InputError(field, "a hex label")
    m = ctx.scenario.map
    h = m.layout.from_label(raw)
    if not m.has(h):
        raise InputError(field, f"{raw} is off the map")
    return m.layout.to_label(h)


def _based(state: EuropaState, hex_label: str, side: str) -> list[str]:
    return sorted(uid for uid, u in air_units_of(state).items() if u["side"] == side
                  and u["base"] == hex_label and u["status"] != "eliminated")


def _airbase(state: EuropaState, hex_label: str) -> Airbase:
    """EUR-27 The airbase in ``hex_label`` (its hits so far; capacity by the reading)."""
    known = air_slot(state)["airbases"].get(hex_label)
    side = known.get("owner") if known else None
    owner = side or next((u["side"] for u in air_units_of(state).values()
                          if u["base"] == hex_label), None)
    based = _based(state, hex_label, owner) if owner else []
    active = tuple(uid for uid in based if air_units_of(state)[uid]["status"] == "operative")
    if known is not None:
        return Airbase(hex_label, known["capacity"], known["hits"], active,
                       tuple(uid for uid in based if uid not in active),
                       known.get("last_repair_turn"))
    return Airbase(hex_label, max(AIRBASE_CAPACITY, len(based)), 0, active)


def _flown_from(state: EuropaState, base: str) -> int:
    turn = int(state["turn"])
    return sum(1 for u in air_units_of(state).values() if u["base"] == base and u.get("flown") == turn)


def _verify_bases(state: EuropaState, uids: Sequence[str], rule: str) -> None:
    """EUR-27 Hits reduce the air units that may fly from a base this turn."""
    per: dict[str, int] = {}
    for uid in uids:
        b = air_units_of(state)[uid]["base"]
        per[b] = per.get(b, 0) + 1
    for b, n in per.items():
        known = air_slot(state)["airbases"].get(b)
        if known is None or not known["hits"]:
            continue
        left = flyable_units(_airbase(state, b)) - _flown_from(state, b) - sum(
            1 for f in flights(state) if not flying(state)
            for x in [*f["escorts"], *f["strikers"]] if air_units_of(state)[x]["base"] == b)
        if n > left:
            raise IllegalOrder(rule, f"airbase {b} has {known['hits']} hits: only {max(left, 0)} "
                               "more air units may fly from it this turn")


# --- air_mission (EUR-23) ------------------------------------------------------------------------
def _kind(args: Mapping[str, Any]) -> MissionKind:
    return parse_enum(MissionKind, args.get("kind"), "args.kind")


def verify_mission(ctx: Context, state: EuropaState, cmd: Command) -> None:
    """EUR-23 A mission of the phasing player's ready air units to a hex within their range."""
    if not in_air_phase(ctx, state) or current_phase(ctx, state).player != cmd.player:
        raise IllegalOrder("EUR-23", "the phasing player assigns missions in its air phase")
    if flying(state):
        raise IllegalOrder("EUR-23", "the missions are flying: no more can be assigned")
    mid = cmd.args.get("id")
    if not isinstance(mid, str) or not mid:
        raise InputError("args.id", "a mission needs an id")
    if any(f["id"] == mid for f in flights(state)):
        raise IllegalOrder("EUR-23", f"mission {mid!r} is already assigned")
    kind = _kind(cmd.args)
    target = _label(ctx, cmd.args.get("target"), "args.target")
    uids = _ids(cmd.args, "units")
    assigned = {x for f in flights(state) for x in [*f["escorts"], *f["strikers"]]}
    units = air_units_of(state)
    for uid in uids:
        u = units.get(uid)
        if u is None or u["side"] != cmd.player:
            raise IllegalOrder("EUR-23", f"{uid!r} is not one of {cmd.player}'s air units")
        if not ready(state, uid):
            raise IllegalOrder("EUR-23", f"{uid} is {u['status']} or has flown this turn")
        if uid in assigned:
            raise IllegalOrder("EUR-23", f"{uid} already flies another mission")
        if _dist(ctx, u["base"], target) > int(u["range"]):
            raise IllegalOrder("EUR-23", f"{target} is beyond {uid}'s range of {u['range']} "
                               f"hexes from {u['base']}")
    _verify_bases(state, uids, "EUR-27")
    enemy = enemy_of(state, cmd.player)
    if kind is MissionKind.SWEEP:
        if not all(_fighter(units[u]) for u in uids):
            raise IllegalOrder("EUR-24", "only fighters (type F) fly sweeps")
        if not [u for u in _based(state, target, enemy) if _fighter(units[u]) and ready(state, u)]:
            raise IllegalOrder("EUR-24", f"no ready enemy fighters at {target} to sweep")
        return
    strikers = [u for u in uids if not _fighter(units[u])]
    rating: Literal["strategic", "tactical"] = (
        "strategic" if kind is MissionKind.STRATEGIC_BOMBING else "tactical")
    if not any(int(units[u].get(rating, 0)) > 0 for u in strikers):
        raise IllegalOrder(_RULE[kind], f"a {kind.value} mission needs strike units with a "
                           f"{rating} rating (fighters fly as escorts)")
    if kind is MissionKind.GROUND_SUPPORT:
        if not any(u["hex"] == target and u["side"] == enemy for _, u in on_map(state)):
            raise IllegalOrder("EUR-06", f"no enemy ground unit in {target} to support against")
        if any(f["kind"] == kind.value and f["target"] == target for f in flights(state)) or \
                ground_support_record(state, target, cmd.player) is not None:
            raise IllegalOrder("EUR-07", f"{target} is bombarded by air once per player turn")
    elif kind is MissionKind.AIRBASE_ATTACK:
        if not _based(state, target, enemy):
            raise IllegalOrder("EUR-27", f"no enemy air units are based at {target}")
    elif kind is MissionKind.STRATEGIC_BOMBING:
        parse_enum(StrategicTarget, cmd.args.get("objective"), "args.objective")
        m = ctx.scenario.map
        if not m.cities_at(m.layout.from_label(target)):
            raise IllegalOrder("EUR-28", f"{target} is no city to bomb")
        if not enemy_city(ctx, state, target, cmd.player):
            raise IllegalOrder("EUR-28", f"{target} is not {enemy}'s city")


def enemy_city(ctx: Context, state: EuropaState, city: str, player: str) -> bool:
    """EUR-28 reading: a city is the enemy's when no unit of ``player`` holds it and it lies
    nearer the enemy's supply sources (``[europa] supply_sources``) than ``player``'s."""
    if any(u["hex"] == city and u["side"] == player for _, u in on_map(state)):
        return False
    from grognard.europa.board import europa_rules

    sources = europa_rules(ctx.scenario).section.supply_sources

    def near(side: str) -> int:
        return min((_dist(ctx, city, h) for h in sources.get(side, [])), default=10**6)

    return near(enemy_of(state, player)) < near(player)


def execute_mission(ctx: Context, state: EuropaState, cmd: Command) -> dict[str, Any]:
    """The ``air_mission_assigned`` event's data of a mission with the scenario's air units."""
    kind = _kind(cmd.args)
    units = air_units_of(state)
    uids = _ids(cmd.args, "units")
    sweep = kind is MissionKind.SWEEP
    data: dict[str, Any] = {
        "id": cmd.args["id"], "kind": kind.value, "player": cmd.player,
        "target": _label(ctx, cmd.args["target"], "args.target"),
        "escorts": [] if sweep else [u for u in uids if _fighter(units[u])],
        "strikers": uids if sweep else [u for u in uids if not _fighter(units[u])]}
    if kind is MissionKind.STRATEGIC_BOMBING:
        data["objective"] = parse_enum(StrategicTarget, cmd.args["objective"],
                                       "args.objective").value
    return data


def fold_flight(air: AirState, data: AirMissionAssigned) -> None:
    air.setdefault("flights", []).append({
        "id": data["id"], "kind": data["kind"], "target": data["target"],
        "escorts": list(data["escorts"]), "strikers": list(data["strikers"]),
        "objective": data.get("objective"), "answered": False, "resolved": False})


# --- fly_missions (EUR-23) -------------------------------------------------------------------------
def verify_fly(ctx: Context, state: EuropaState, cmd: Command) -> None:
    if not in_air_phase(ctx, state) or current_phase(ctx, state).player != cmd.player:
        raise IllegalOrder("EUR-23", "the phasing player flies its missions in its air phase")
    if flying(state):
        raise IllegalOrder("EUR-23", "the missions are already flying")
    if not flights(state):
        raise IllegalOrder("EUR-23", "no mission is assigned")


def execute_fly(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    fl = flights(state)
    return [Event("air_missions_flown", {
        "key": key_of(state), "step": AirStep.SWEEP.value, "player": cmd.player,
        "missions": [f["id"] for f in fl],
        "units": sorted(x for f in fl for x in [*f["escorts"], *f["strikers"]]),
        "rules": ["EUR-23"]})]


def fold_fly(s: EuropaState, air: AirState, ev: Event) -> None:
    d = cast(AirMissionsFlown, ev.data)
    air["flying"] = True
    for uid in d["units"]:
        s["air_units"][uid]["flown"] = int(s["turn"])


# --- air-to-air results ------------------------------------------------------------------------
def _hit(result: str) -> str | None:
    """EUR-24/25 An air unit's status after a fire against it: X eliminated, A inoperative
    (aborted), R home (it has flown); None: unharmed."""
    return {AirResult.ELIMINATED.value: "eliminated",
            AirResult.ABORT.value: "inoperative"}.get(result)


def _statuses(fights: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for f in fights:
        for uid, res in ((f["target"], f["vs_target"]), (f["attacker"], f["vs_attacker"])):
            after = _hit(res)
            if after is not None and out.get(uid) != "eliminated":
                out[uid] = after
    return out


def fold_statuses(s: EuropaState, ev: Event) -> None:
    turn = int(s["turn"])
    for uid, st in ev.data.get("air_status", {}).items():
        s["air_units"][uid]["status"] = st
    for uid in ev.data.get("air_flown", []):
        s["air_units"][uid]["flown"] = turn


def mark(air: AirState, mission: str, **fields: Any) -> None:
    """Set ``fields`` (of :class:`Flight`: answered, resolved, escorts, strikers) on the
    flight of ``mission``."""
    for f in air.get("flights", []):
        if f["id"] == mission:
            cast(Obj, f).update(fields)


# --- fighter_sweep (EUR-24) --------------------------------------------------------------------
def _sweep_parts(state: EuropaState, cmd: Command) -> tuple[Flight, list[str], list[str],
                                                     list[tuple[str, str]]]:
    f = _flight(state, cmd.args)
    if f["kind"] != MissionKind.SWEEP.value or f["resolved"]:
        raise IllegalOrder("EUR-24", f"mission {f['id']} is not a sweep still to fly")
    enemy = enemy_of(state, cmd.player)
    defenders = [u for u in _based(state, f["target"], enemy)
                 if _fighter(air_units_of(state)[u]) and ready(state, u)]
    raw = cmd.args.get("pairs")
    if raw is None:
        pairs = list(sweep_pairings(f["strikers"], defenders)) if defenders else []
    elif isinstance(raw, list) and all(isinstance(p, list) and len(p) == 2 for p in raw):
        pairs = [(str(a), str(b)) for a, b in raw]
    else:
        raise InputError("args.pairs", "must be a list of [sweeper, defender] pairs")
    if defenders:
        verify_sweep_pairings(f["strikers"], defenders, pairs)
    return f, f["strikers"], defenders, pairs


def verify_sweep(ctx: Context, state: EuropaState, cmd: Command) -> None:
    if not flying(state):
        raise IllegalOrder("EUR-23", "fly the missions first")
    _sweep_parts(state, cmd)


def execute_sweep(ctx: Context, state: EuropaState, cmd: Command, dice: Dice, stream: str
                  ) -> dict[str, Any]:
    f, sweepers, defenders, pairs = _sweep_parts(state, cmd)
    if not defenders:  # the enemy fighters left (intercepting or hit) before the sweep
        return {"mission": f["id"], "rolls": [], "result": None, "air_status": {},
                "air_flown": []}
    st = dice.stream(stream)
    rolls = [st.roll("2d6").total for _ in range(2 * len(pairs))]
    result = fighter_sweep([air_unit(state, u) for u in sweepers],
                           [air_unit(state, u) for u in defenders], pairs, rolls,
                           ctx.tables.table("europa_air_combat"))
    status = _statuses([x.to_json() for x in result.fights])
    flown = [d for d in result.defenders_removed if d not in status]
    return {"mission": f["id"], "rolls": rolls, "result": result.to_json(), "air_status": status,
            "air_flown": flown}


# --- intercept (EUR-25) ------------------------------------------------------------------------
def _spread(ids: Sequence[str], targets: Sequence[str]) -> dict[str, str]:
    return {a: targets[i % len(targets)] for i, a in enumerate(ids)} if targets else {}


def _targets(args: Mapping[str, Any], name: str, default: dict[str, str]) -> dict[str, str]:
    raw = args.get(name)
    if raw is None:
        return default
    if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
        raise InputError(f"args.{name}", "must map interceptor ids to target ids")
    return {str(k): v for k, v in raw.items()}


def _intercept_parts(ctx: Context, state: EuropaState, cmd: Command
                     ) -> tuple[Flight, list[str], dict[str, str], dict[str, str]]:
    if not flying(state):
        raise IllegalOrder("EUR-23", "the missions are not flying yet")
    if cmd.player == current_phase(ctx, state).player:
        raise IllegalOrder("EUR-25", "the non-phasing player intercepts")
    if any(f["kind"] == MissionKind.SWEEP.value and not f["resolved"] for f in flights(state)):
        raise IllegalOrder("EUR-23", "the sweeps resolve before any interception")
    f = _flight(state, cmd.args)
    if f["kind"] == MissionKind.SWEEP.value or f["answered"]:
        raise IllegalOrder("EUR-25", f"mission {f['id']} is not a strike mission to intercept")
    ids = _ids(cmd.args, "interceptors", allow_empty=True)
    for uid in ids:
        u = air_units_of(state).get(uid)
        if u is None or u["side"] != cmd.player or not _fighter(u):
            raise IllegalOrder("EUR-25", f"{uid!r} is not one of {cmd.player}'s fighters")
        if not ready(state, uid):
            raise IllegalOrder("EUR-25", f"{uid} is {u['status']} or has flown this turn")
        reach = interception_range(int(u["range"]))
        if _dist(ctx, u["base"], f["target"]) > reach:
            raise IllegalOrder("EUR-25", f"{f['target']} is beyond {uid}'s interception "
                               f"range of {reach} hexes (half of {u['range']})")
    _verify_bases(state, ids, "EUR-27")
    escorts = _targets(cmd.args, "escort_targets", _spread(ids, f["escorts"]))
    strikes = _targets(cmd.args, "strike_targets", _spread(ids, f["strikers"]))
    if ids:
        intercept([air_unit(state, u) for u in ids], _mission(state, f), escorts, strikes,
                  [7] * (4 * len(ids)))
    return f, ids, escorts, strikes


def _mission(state: EuropaState, f: Mapping[str, Any]) -> Mission:
    return Mission(f["id"], MissionKind(f["kind"]),
                   tuple(air_unit(state, u) for u in f["escorts"]),
                   tuple(air_unit(state, u) for u in f["strikers"]))


def interceptors_in_reach(ctx: Context, state: EuropaState, f: Mapping[str, Any], player: str
                          ) -> list[str]:
    """EUR-25 ``player``'s ready fighters within half their range of the mission hex."""
    return [uid for uid, u in sorted(air_units_of(state).items()) if u["side"] == player
            and _fighter(u) and ready(state, uid)
            and _dist(ctx, u["base"], f["target"]) <= interception_range(int(u["range"]))]


def open_to_interception(ctx: Context, state: EuropaState) -> list[Flight]:
    """EUR-25 The strike missions the non-phasing player still may intercept (not answered,
    and some ready fighter of his reaches them; interception is voluntary, so a mission no
    fighter reaches is not asked about)."""
    n = enemy_of(state, current_phase(ctx, state).player)
    return [f for f in flights(state) if f["kind"] != MissionKind.SWEEP.value
            and not f["answered"] and interceptors_in_reach(ctx, state, f, n)]


def verify_intercept(ctx: Context, state: EuropaState, cmd: Command) -> None:
    verify_air_step_of(state, AirStep.INTERCEPTION)
    _intercept_parts(ctx, state, cmd)


def execute_intercept(ctx: Context, state: EuropaState, cmd: Command, dice: Dice, stream: str
                      ) -> Event:
    f, ids, escorts, strikes = _intercept_parts(ctx, state, cmd)
    base = {"key": key_of(state), "step": AirStep.INTERCEPTION.value, "mission": f["id"],
            "player": cmd.player}
    if not ids:
        return Event("interception_declined", base)
    st = dice.stream(stream)
    rolls = [st.roll("2d6").total for _ in range(4 * len(ids))]
    res = intercept([air_unit(state, u) for u in ids], _mission(state, f), escorts, strikes,
                    rolls, table=ctx.tables.table("europa_air_combat"))
    fights = [x.to_json() for x in (*res.escort_fights, *res.strike_fights)]
    return Event("interception_resolved", {
        **base, "rolls": rolls[:res.rolls_used], "result": res.to_json(),
        "air_status": _statuses(fights), "air_flown": ids})


def fold_interception(s: EuropaState, air: AirState, ev: Event) -> None:
    d = cast(InterceptionResolved | InterceptionDeclined, ev.data)
    if "result" not in d:
        mark(air, d["mission"], answered=True)
    else:
        res = d["result"]
        mark(air, d["mission"], answered=True, escorts=res["escorts_remaining"],
             strikers=res["strikers_remaining"])


# --- the strike missions (EUR-23 order) --------------------------------------------------------
def verify_air_step_of(state: EuropaState, step: AirStep) -> None:
    from grognard.europa.air.phase import AirPhaseState

    air = air_slot(state)
    current = AirStep(air["step"]) if air["key"] == key_of(state) else AirStep.MISSIONS
    verify_air_step(AirPhaseState(current), step)


def strike_flight(ctx: Context, state: EuropaState, cmd: Command, kind: MissionKind
                  ) -> Flight:
    """EUR-23 The strike mission ``cmd`` resolves: its own kind, after every interception."""
    if not flying(state):
        raise IllegalOrder("EUR-23", "fly the missions first")
    f = _flight(state, cmd.args)
    if f["kind"] != kind.value or f["resolved"]:
        raise IllegalOrder(_RULE[kind], f"mission {f['id']} is not a {kind.value} mission "
                           "still to resolve")
    if any(g["kind"] == MissionKind.SWEEP.value and not g["resolved"] for g in flights(state)) \
            or open_to_interception(ctx, state):
        raise IllegalOrder("EUR-23", "the non-phasing player intercepts before the missions "
                           "resolve")
    for g in flights(state):
        if not g["resolved"] and g["kind"] != MissionKind.SWEEP.value and \
                STRIKE_ORDER.index(MissionKind(g["kind"])) < STRIKE_ORDER.index(kind):
            raise IllegalOrder("EUR-23", f"{g['kind']} missions resolve before {kind.value}")
    return f


def strike_value(state: EuropaState, f: Mapping[str, Any], strategic: bool = False) -> int:
    """EUR-25/EUR-01 The surviving strike units' rating (escorts add none)."""
    rating: Literal["strategic", "tactical"] = "strategic" if strategic else "tactical"
    return sum(int(air_units_of(state)[u].get(rating, 0)) for u in f["strikers"])


def wing_rules(state: EuropaState, f: Mapping[str, Any]) -> list[str]:
    """EUR-01 when a strike unit's rating is an air wing's (``wing`` in the scenario)."""
    return ["EUR-01"] if any(air_units_of(state)[u].get("wing") for u in f["strikers"]) else []


def _target_attack(ctx: Context, state: EuropaState, target: str, player: str) -> Any:
    m = ctx.scenario.map
    h = m.layout.from_label(target)
    defenders = [unit_json(uid, u) for uid, u in on_map(state)
                 if u["hex"] == target and u["side"] != player]
    return attack_from_json({
        "attackers": [{"id": "air", "attack": 1}], "defenders": defenders,
        "terrain": str(m.terrain_of(h).value),
        "fortified": m.fortification_of(h) is not Fortification.NONE,
        "major_city": any(CityClass.MAJOR_CITY in c.classes for c in m.cities_at(h))},
        ctx.tables)


def verify_ground_support(ctx: Context, state: EuropaState, cmd: Command) -> None:
    f = strike_flight(ctx, state, cmd, MissionKind.GROUND_SUPPORT)
    pick = cmd.args.get("step_loss_unit")
    if pick is not None:
        attack = _target_attack(ctx, state, f["target"], cmd.player)
        verify_step_loss(attack.defenders, str(pick))


def execute_ground_support(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    f = strike_flight(ctx, state, cmd, MissionKind.GROUND_SUPPORT)
    strength = strike_value(state, f)
    data: dict[str, Any] = {"key": key_of(state), "step": AirStep.GROUND_SUPPORT.value,
                            "mission": f["id"], "player": cmd.player, "hex": f["target"],
                            "turn": int(state["turn"]), "strength": strength, "roll": None,
                            "hits": 0, "combat_drm": 0, "step_loss": None}
    attack = _target_attack(ctx, state, f["target"], cmd.player)
    if strength == 0 or not attack.defenders:
        return [Event("ground_support_resolved", data)]
    effects = hex_effects(attack.terrain, attack.fortified, attack.major_city,
                          ctx.tables.get(TERRAIN_TABLE))
    roll = dice.stream(GROUND_SUPPORT_STREAM).roll("2d6").total
    out = resolve_bombardment(Category.AIR, strength, attack.hex_re, effects, roll, 0,
                              ctx.tables.get("europa_revised_bombardment"))
    pick = cmd.args.get("step_loss_unit")
    drm, after, loss = apply_bombardment(out.hits, attack.defenders,
                                         str(pick) if pick is not None else None,
                                         effects.bombard_drm_allowed)
    rules = ["EUR-03", *wing_rules(state, f)]
    if bombardment_shift(attack.hex_re, effects.bombard_left > 0):
        rules.append("EUR-04")
    if out.hits:
        rules.append("EUR-06")
    step: dict[str, Any] | None = None
    if loss is not None:
        left = {u.id: u for u in after}
        step = {"unit": loss.unit, "action": loss.action}
        if loss.unit in left:
            step.update(attack=left[loss.unit].attack, defense=left[loss.unit].defense)
    data.update(roll=roll, column=out.column, hits=out.hits, combat_drm=drm, step_loss=step,
                rules=rules)
    return [Event("ground_support_resolved", data)]


def fold_ground_support(s: EuropaState, air: AirState, ev: Event) -> None:
    d = cast(GroundSupportResolved, ev.data)
    mark(air, d["mission"], resolved=True)
    air.setdefault("ground_support", {})[d["hex"]] = {
        "turn": d["turn"], "player": d["player"], "hits": d["hits"]}
    step = d["step_loss"]
    if step is not None:
        if step["action"] == "eliminate":
            eliminate(s, step["unit"])
        else:
            reduce_unit(s, step["unit"], step["attack"], step["defense"])


def interdiction_args(ctx: Context, state: EuropaState, cmd: Command) -> tuple[Flight, int]:
    f = strike_flight(ctx, state, cmd, MissionKind.INTERDICTION)
    return f, strike_value(state, f)


def execute_interdiction(ctx: Context, state: EuropaState, cmd: Command, dice: Dice, stream: str
                         ) -> dict[str, Any]:
    f, tactical = interdiction_args(ctx, state, cmd)
    roll = dice.stream(stream).die(6)
    res = interdiction_mission(ctx.scenario.map, f["target"], tactical, roll,
                               int(state["turn"]), cmd.player, list(state["sides"]), None)
    return {"mission": f["id"], "roll": roll, "result": res.to_json(),
            "rules": ["EUR-26", *wing_rules(state, f)]}


def execute_airbase_attack(ctx: Context, state: EuropaState, cmd: Command, dice: Dice,
                           stream: str, pick_stream: str) -> dict[str, Any]:
    f = strike_flight(ctx, state, cmd, MissionKind.AIRBASE_ATTACK)
    base = _airbase(state, f["target"])
    strength = strike_value(state, f)
    roll = None
    hits = 0
    if strength:
        roll = dice.stream(stream).roll("2d6").total
        hits = airbase_hits(strength, roll, 0, NO_RE_SHIFT,
                            table=ctx.tables.table("europa_revised_bombardment"))
    picks = random_picks(base, hits, dice.stream(pick_stream))
    new, rec = airbase_attack(base, hits, picks)
    owner = enemy_of(state, cmd.player)
    return {"mission": f["id"], "roll": roll, "strength": strength, "result": rec.to_json(),
            "airbase": {**new.to_json(), "last_repair_turn": new.last_repair_turn,
                        "owner": owner},
            "air_status": {u: "inoperative" for u in rec.made_inactive},
            "rules": ["EUR-27", *(["EUR-05"] if hits else []), *wing_rules(state, f)]}


def execute_strategic(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> dict[str, Any]:
    f = strike_flight(ctx, state, cmd, MissionKind.STRATEGIC_BOMBING)
    strength = strike_value(state, f, strategic=True)
    roll = None
    hits = 0
    if strength:
        roll = dice.stream(STRATEGIC_STREAM).roll("2d6").total
        hits = strategic_hits(strength, roll, table=ctx.tables.get("europa_revised_bombardment"))
    target = str(f["objective"])
    prior = air_slot(state)["strategic_hits"].get(f"{state['turn']}:{target}", 0)
    eff = strategic_bombing(target, [hits], prior_hits=prior)
    enemy = enemy_of(state, cmd.player)
    pool = (state.get("replacements") or {}).get("pools", {}).get(enemy, {})
    have = Fraction(pool.get("infantry", 0))
    lost = min(have, Fraction(eff.replacement_points_lost))
    return {"mission": f["id"], "roll": roll, "strength": strength, "hex": f["target"],
            "turn": int(state["turn"]), "result": eff.to_json(),
            "replacements_lost": {"side": enemy, "infantry": exact_json(lost)},
            "rules": ["EUR-28", *(["EUR-05"] if hits else []), *wing_rules(state, f)]}


def fold_strategic_pool(s: EuropaState, ev: Event) -> None:
    lost = cast(StrategicBombingResolved, ev.data).get("replacements_lost")
    if not lost or Fraction(lost["infantry"]) == 0:
        return
    pool = s["replacements"]["pools"][lost["side"]]
    pool["infantry"] = exact_json(Fraction(pool.get("infantry", 0)) - Fraction(lost["infantry"]))


def verify_repair_owner(state: EuropaState, cmd: Command) -> None:
    """EUR-27 The owner repairs his airbase after his own air phase."""
    # the argument as given (not yet checked: a name the slot lacks gives None)
    known = air_slot(state)["airbases"].get(cast(str, cmd.args.get("base")))
    if known and known.get("owner") not in (None, cmd.player):
        raise IllegalOrder("EUR-27", f"{cmd.args.get('base')} is {known['owner']}'s airbase")


# --- decisions -----------------------------------------------------------------------------------
def _title(p: str) -> str:
    return p[:1].upper() + p[1:]


def air_decisions(ctx: Context, state: EuropaState) -> list[Decision]:
    """EUR-23 The air phase's order as decisions: once missions are assigned the phasing player
    assigns more or flies them; then sweeps them (EUR-24); then the non-phasing player answers
    each strike mission (EUR-25, intercept or not); then the phasing player resolves them."""
    fl = flights(state)
    if not fl or not in_air_phase(ctx, state):
        return []
    p = current_phase(ctx, state).player
    n = enemy_of(state, p)
    if not flying(state):
        return [Decision(p, frozenset({"air_mission", "air_transfer", "fly_missions"}),
                         f"{_title(p)}: assign more air missions, transfer air units or fly "
                         "the missions", "EUR-23")]
    sweeps = [f for f in fl if f["kind"] == MissionKind.SWEEP.value and not f["resolved"]]
    if sweeps:
        return [Decision(p, frozenset({"fighter_sweep"}),
                         f"{_title(p)}: fly sweep {sweeps[0]['id']} over {sweeps[0]['target']}",
                         "EUR-24")]
    open_ = open_to_interception(ctx, state)
    if open_:
        f = open_[0]
        return [Decision(n, frozenset({"intercept"}),
                         f"{_title(n)}: intercept {p}'s {f['kind']} mission {f['id']} over "
                         f"{f['target']}, or let it pass", "EUR-25")]
    for kind in STRIKE_ORDER:
        todo = [f for f in fl if f["kind"] == kind.value and not f["resolved"]]
        if todo:
            return [Decision(p, frozenset({RESOLVE_COMMAND[kind]}),
                             f"{_title(p)}: resolve {kind.value} mission {todo[0]['id']} over "
                             f"{todo[0]['target']}", _RULE[kind])]
    return []


# --- enumerators ----------------------------------------------------------------------------------
def propose_missions(ctx: Context, state: EuropaState, player: str) -> list[Command]:
    """EUR-23 Each mission kind to each target some ready unit reaches, with every ready unit
    that reaches it (fighters escort strike missions; verify accepts any subset), and the
    strike units alone."""
    if not in_air_phase(ctx, state) or flying(state) or current_phase(ctx, state).player != player:
        return []
    assigned = {x for f in flights(state) for x in [*f["escorts"], *f["strikers"]]}
    mine = [(uid, u) for uid, u in sorted(air_units_of(state).items()) if u["side"] == player
            and uid not in assigned and ready(state, uid)]
    if not mine:
        return []
    enemy = enemy_of(state, player)
    ground = sorted({u["hex"] for _, u in on_map(state) if u["side"] == enemy})
    bases = sorted({u["base"] for u in air_units_of(state).values() if u["side"] == enemy
                    and u["status"] != "eliminated"})
    m = ctx.scenario.map
    cities = sorted(m.label(int(i)) for i, cs in m.cities.items() if cs)
    mid = f"m{len(flights(state)) + 1}"
    out: list[Command] = []

    def add(kind: MissionKind, target: str, ids: list[str], **extra: Any) -> None:
        if ids:
            out.append(Command("air_mission", player, {"id": mid, "kind": kind.value,
                                                        "target": target, "units": ids,
                                                        **extra}))

    lay = m.layout
    kinds = [(uid, u, _fighter(u)) for uid, u in mine]
    reached: dict[tuple[str, bool], list[str]] = {}

    def reach(target: str, fighters: bool) -> list[str]:
        """The ready fighters (or the other ready units) whose range reaches ``target``
        (asked once per target and kind; a new list each time)."""
        got = reached.get((target, fighters))
        if got is None:
            t = _hex(lay, target)
            got = reached[(target, fighters)] = [
                uid for uid, u, f in kinds
                if f is fighters and int(distance(_hex(lay, u["base"]), t)) <= u["range"]]
        return list(got)

    for b in bases:
        add(MissionKind.SWEEP, b, reach(b, True))
        add(MissionKind.AIRBASE_ATTACK, b, reach(b, False))
    for h in ground:
        strikers = reach(h, False)
        add(MissionKind.GROUND_SUPPORT, h, strikers)
        if strikers:
            add(MissionKind.GROUND_SUPPORT, h, [*strikers, *reach(h, True)])
        add(MissionKind.INTERDICTION, h, strikers)
    for c in cities:
        for obj in STRATEGIC_OBJECTIVES:
            add(MissionKind.STRATEGIC_BOMBING, c, reach(c, False), objective=obj.value)
    return out


def propose_fly(ctx: Context, state: EuropaState, player: str) -> list[Command]:
    return [Command("fly_missions", player, {})] if flights(state) else []


def propose_sweeps(ctx: Context, state: EuropaState, player: str) -> list[Command]:
    return [Command("fighter_sweep", player, {"mission": f["id"]}) for f in flights(state)
            if f["kind"] == MissionKind.SWEEP.value and not f["resolved"]]


def propose_intercepts(ctx: Context, state: EuropaState, player: str) -> list[Command]:
    """EUR-25 For each strike mission still open: no interception, every fighter in reach, and
    each alone (targets spread over the escorts, then the strike units)."""
    if not flying(state) or current_phase(ctx, state).player == player:
        return []
    out: list[Command] = []
    for f in open_to_interception(ctx, state):
        near = interceptors_in_reach(ctx, state, f, player)
        picks = [[], near, *([[x] for x in near] if len(near) > 1 else [])]
        out += [Command("intercept", player, {"mission": f["id"], "interceptors": p})
                for p in picks]
    return out


def proposer_for(kind: MissionKind) -> Any:
    def propose(ctx: Context, state: EuropaState, player: str) -> list[Command]:
        return [Command(RESOLVE_COMMAND[kind], player, {"mission": f["id"]})
                for f in flights(state) if f["kind"] == kind.value and not f["resolved"]]
    return propose
