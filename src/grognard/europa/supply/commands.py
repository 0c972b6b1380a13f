"""The Europa engine system's end of the player turn: the supply phase (EUR-30), isolation
attrition, Break Out and the allocation of its loss (EUR-31/EUR-32), and the replacement phase
(EUR-33), as engine commands; plus the scenario's ``[europa]`` table. Merged into the
``europa`` system's command table by :mod:`grognard.europa.play.turn` /
:mod:`grognard.europa.play.system`; documented in ``docs/formats/europa_engine.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, cast

import numpy as np

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import exact_json
from grognard.core.ledger import Ledger
from grognard.core.mapdata import CityClass, MapData
from grognard.core.supply import city_hexes, europa_revised_supply, path_to_friendly_city
from grognard.core.units import GROUND_TYPES, UnitType
from grognard.core.zoc import europa_revised_zoc, zoc_field
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON, thaw
from grognard.europa.board import (
    apply_losses,
    eliminate,
    europa_rules,
    forces_of,
    on_map,
    per_position,
    readings_of,
    scenario_unit,
    turn_date,
    turn_weather,
    unit_json,
    units_by_hex,
)
from grognard.europa.combat.commands import (
    attack_model,
)
from grognard.europa.state_types import (
    EuropaState,
    EuropaUnit,
    IsolationAttritionRolled,
    IsolationLoss,
    IsolationLossesAllocated,
    ReplacementsState,
    ReplacementTaken,
    SupplyChecked,
    SupplyState,
)
from grognard.europa.supply.breakout import IsolatedHex, isolation_attrition
from grognard.europa.supply.isolation import HOME_COUNTRY, is_winter, isolation_table, region_of
from grognard.europa.supply.phase import SupplyPhase, SupplyReadings, supply_phase
from grognard.europa.supply.replacements import (
    Candidate,
    UnitStatus,
    take_replacement,
    verify_take_replacement,
)

ISOLATION_STREAM = "europa.isolation"


def _key(state: EuropaState) -> list[int]:
    return [int(state["turn"]), int(state["phase"])]


# --- supply phase (EUR-30) ---------------------------------------------------------------------
def _supply_slot(state: EuropaState) -> SupplyState:
    slot = state.get("supply")
    if isinstance(slot, dict):
        return slot
    return {"checked": None, "attrition": None, "isolated_hexes": {}, "losses": []}


def _ground(state: EuropaState, player: str) -> list[tuple[str, JSON]]:
    return [(uid, u) for uid, u in on_map(state)
            if u["side"] == player and UnitType(u["type"]) in GROUND_TYPES]


def has_isolated(state: EuropaState, player: str) -> bool:
    """EUR-32 Whether ``player`` has a ground unit marked isolated (a stack that rolls)."""
    return any(u.get("isolated") for _, u in _ground(state, player))


def zones_in_force(m: MapData, state: EuropaState, player: str, sides: Sequence[str]) -> list[bool]:
    """EUR-26 The enemy interdiction zones (``state["air"]["zones"]``) still in force in
    ``player``'s turn, as a per-hex mask: a zone lasts through the player turn it names
    (``expires_turn``, ``expires_after``)."""
    mask = [False] * m.n
    turn, me = int(state["turn"]), list(sides).index(player)
    for z in (state.get("air") or {}).get("zones", []):
        if z["placed_by"] == player:
            continue
        last = (int(z["expires_turn"]), list(sides).index(z["expires_after"]))
        if (turn, me) <= last:
            for label in z["hexes"]:
                mask[m.index_of_label(label)] = True
    return mask


def run_supply_phase(ctx: Context, state: EuropaState, player: str) -> SupplyPhase:
    """EUR-30 The phasing player's supply check on the scenario map: sources from
    ``[europa.supply_sources]``, the path limit ``[europa] supply_max_length`` (absent: any
    length), enemy ZOCs from the units in state, OOS marks from ``units[..].supply``, and the
    enemy interdiction zones in force (EUR-26: a line through one is a hex shorter)."""
    cfg = europa_rules(ctx.scenario).section
    sources = cfg.supply_sources.get(player)
    if not sources:
        raise IllegalOrder("EUR-30", f"the scenario gives no supply sources for {player} "
                           "([europa.supply_sources])")
    mine = _ground(state, player)
    m = ctx.scenario.map
    zoc = zoc_field(m, forces_of(ctx, state), player, europa_revised_zoc())
    return supply_phase(m, [u["hex"] for _, u in mine], zoc, list(sources),
                        max_length=cfg.supply_max_length,
                        was_out=[u["supply"] == "out" for _, u in mine],
                        ids=[uid for uid, _ in mine],
                        defensive=[u["supply"] == "defensive" for _, u in mine],
                        interdiction=zones_in_force(m, state, player, state["sides"]))


def opening_supply_check(ctx: Context, state: EuropaState, phase: int, turn: int) -> list[Event]:
    """EUR-30 The supply check the engine makes as phase ``phase`` of ``turn`` opens, when it
    is a supply phase of a side the scenario gives supply sources: determining supply leaves
    the player no choice, so the referee makes it and logs it (``decided_by: "engine"``); what
    the player decides in the phase (Break Outs, EUR-31) comes after."""
    p = ctx.turn_sequence.phases[phase]
    if p.name != "supply" or not europa_rules(ctx.scenario).section.supply_sources.get(
            p.player):
        return []
    # shallow: only the position's keys differ
    opened: EuropaState = {**state, "turn": turn, "phase": phase}
    rec = run_supply_phase(ctx, opened, p.player)
    return [Event("supply_checked", {"key": _key(opened), "player": p.player,
                                     **rec.to_json(), "decided_by": "engine"})]


def verify_supply_check(ctx: Context, state: EuropaState, cmd: Command) -> None:
    if _supply_slot(state)["checked"] == _key(state):
        raise IllegalOrder("EUR-30", "this supply phase's check is done")
    run_supply_phase(ctx, state, cmd.player)


def execute_supply_check(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    rec = run_supply_phase(ctx, state, cmd.player)
    return [Event("supply_checked", {"key": _key(state), "player": cmd.player,
                                     **rec.to_json()})]


def fold_supply_checked(state: EuropaState, ev: Event) -> EuropaState:
    s = state
    d = cast(SupplyChecked, ev.data)
    slot = thaw(_supply_slot(s))
    slot["checked"] = d["key"]
    slot["isolated_hexes"][d["player"]] = d["isolated_hexes"]
    for uid in d["newly_marked"] + d["still_out"] + d["isolated"]:
        s["units"][uid]["supply"] = "out"
    for uid in d["in_supply"]:
        if s["units"][uid]["supply"] == "out":
            s["units"][uid]["supply"] = "in"
    for uid, u in s["units"].items():
        if u["side"] == d["player"]:
            u["isolated"] = uid in d["isolated"]
    s["supply"] = slot
    return s


# --- isolation attrition and Break Out (EUR-31/EUR-32) -----------------------------------------
def _isolated_hexes(ctx: Context, state: EuropaState, cmd: Command) -> list[IsolatedHex]:
    slot = _supply_slot(state)
    if slot["checked"] != _key(state):
        raise IllegalOrder("EUR-32", "check supply first (supply_check) in this supply phase")
    if slot["attrition"] == _key(state):
        raise IllegalOrder("EUR-32", "isolation attrition is done for this supply phase")
    m = ctx.scenario.map
    stacks: dict[str, list[tuple[str, JSON]]] = {}
    for uid, u in _ground(state, cmd.player):
        if u.get("isolated"):
            stacks.setdefault(u["hex"], []).append((uid, u))
    if not stacks:
        raise IllegalOrder("EUR-32", f"{cmd.player} has no isolated hex")
    outs = cmd.args.get("break_out", [])
    if not isinstance(outs, list) or not all(isinstance(h, str) for h in outs):
        raise InputError("break_out", "list the hexes that break out")
    for h in outs:
        if h not in stacks:
            raise IllegalOrder("EUR-31", f"{h} is not an isolated hex of {cmd.player}")
    enemy = {u["hex"] for _, u in on_map(state) if u["side"] != cmd.player}
    out = []
    for label in sorted(stacks):
        units = stacks[label]
        adjacent = any(m.label(int(j)) in enemy
                       for j in m.neighbor_indices(m.index_of_label(label)))
        c = isolation_conditions(ctx, state, cmd.player, label, [u for _, u in units])
        out.append(IsolatedHex(
            label, tuple(uid for uid, _ in units),
            sum((Fraction(u["defense"]) for _, u in units), Fraction(0)),
            adjacent_enemy=adjacent, region=c["region"], winter=c["winter"],
            home_country=c["home_country"], major_city_path=c["major_city_path"],
            break_out=label in outs))
    return out


def isolation_conditions(ctx: Context, state: EuropaState, player: str, label: str,
                         units: Sequence[EuropaUnit]) -> dict[str, Any]:
    """EUR-32 The referee's facts behind an isolated stack's DRMs, never the owner's claim:
    the region from the map's country of the hex (``[europa] map_country`` for a map that
    names none), the winter season from the calendar and the turn's weather
    (``isolation_winter_definition``), the home country from the units' nationality and the
    hex's country, and the path to a friendly major city by
    :func:`grognard.core.supply.path_to_friendly_city` (a major city is friendly where the
    player's units hold it, or in the player's home countries free of enemy units)."""
    m = ctx.scenario.map
    i = m.index_of_label(label)
    country = m.country_names[int(m.country[i])] or europa_rules(ctx.scenario).section.map_country
    date = turn_date(ctx.scenario, int(state["turn"]))
    winter = is_winter(date[1] if date is not None else None, turn_weather(ctx, state),
                       readings_of(ctx, SupplyReadings), isolation_table(ctx.tables))
    home = bool(country) and all(HOME_COUNTRY.get(str(u["nationality"])) == country
                                 for u in units)
    return {"region": region_of(country).value, "winter": winter, "home_country": home,
            "major_city_path": _major_city_path(ctx, state, player, label)}


def _major_city_path(ctx: Context, state: EuropaState, player: str, label: str) -> bool:
    m = ctx.scenario.map
    map_country = europa_rules(ctx.scenario).section.map_country
    mine = {u["hex"] for _, u in on_map(state) if u["side"] == player}
    enemy = {u["hex"] for _, u in on_map(state) if u["side"] != player}
    nations = {HOME_COUNTRY.get(str(u["nationality"])) for _, u in _ground(state, player)}
    friendly = np.zeros(m.n, dtype=bool)
    for h in city_hexes(m, [CityClass.MAJOR_CITY]):
        here = m.label(int(h))
        country = m.country_names[int(m.country[int(h)])] or map_country
        friendly[int(h)] = here in mine or (here not in enemy and country in nations)
    if not friendly.any():
        return False
    zoc = zoc_field(m, forces_of(ctx, state), player, europa_revised_zoc())
    trace = path_to_friendly_city(m, [label], zoc, friendly, europa_revised_supply(),
                                  classes=[CityClass.MAJOR_CITY])
    return bool(trace.in_supply[0])


def verify_isolation_attrition(ctx: Context, state: EuropaState, cmd: Command) -> None:
    _isolated_hexes(ctx, state, cmd)


def execute_isolation_attrition(ctx: Context, state: EuropaState, cmd: Command, dice: Dice
                                ) -> list[Event]:
    hexes = _isolated_hexes(ctx, state, cmd)
    readings = readings_of(ctx, SupplyReadings)
    recs = isolation_attrition(hexes, dice.stream(ISOLATION_STREAM), readings,
                               isolation_table(ctx.tables))
    rolled = [r.to_json() | {"units": list(h.units)} for h, r in zip(hexes, recs, strict=True)]
    broke_out = any(h["break_out"] is not None for h in rolled)
    return [Event("isolation_attrition_rolled", {
        "key": _key(state), "player": cmd.player, "hexes": rolled,
        "rules": ["EUR-32", *(["EUR-31"] if broke_out else [])],
    })]


def fold_isolation_attrition(state: EuropaState, ev: Event) -> EuropaState:
    s = state
    d = cast(IsolationAttritionRolled, ev.data)
    slot = thaw(_supply_slot(s))
    slot["attrition"] = d["key"]
    pools = _pools(s, d["player"])
    for h in d["hexes"]:
        bo = h["break_out"]
        if bo is not None:
            for uid in bo["eliminated"]:
                eliminate(s, uid)
            pools["infantry"] = exact_json(Fraction(pools.get("infantry", "0"))
                                           + bo["infantry_replacements"])
        elif Fraction(h["roll"]["loss"]) > 0:
            slot["losses"].append({"key": d["key"], "player": d["player"], "hex": h["hex"],
                                   "requirement": h["roll"]["loss"], "units": h["units"]})
    s["supply"] = slot
    s.setdefault("replacements", {"pools": {}, "returned": {}})["pools"][d["player"]] = pools
    return s


def _isolation_loss(ctx: Context, state: EuropaState, cmd: Command
                    ) -> tuple[IsolationLoss, Any]:
    label = cmd.args.get("hex")
    loss = next((x for x in _supply_slot(state)["losses"]
                 if x["hex"] == label and x["player"] == cmd.player), None)
    if loss is None:
        raise IllegalOrder("EUR-32", f"no isolation loss of {cmd.player} waits in {label!r}")
    units = cmd.args.get("units")
    if not isinstance(units, list) or not all(isinstance(u, str) for u in units):
        raise InputError("units", "list the unit ids, one per step")
    for uid in units:
        if uid not in loss["units"]:
            raise IllegalOrder("EUR-32", f"{uid} is not in the isolated stack in {label}")
    stack = [dict(unit_json(uid, state["units"][uid]), supply="in")
             for uid in loss["units"] if state["units"][uid]["status"] == "active"]
    # The requirement is 50% of the stack's strength (EUR-32): credited on the same basis
    # through EUR-12's allocation (no enemy stack, so no armor-first step).
    model = {"attackers": [{"id": "isolation-attrition", "attack": 1, "defense": 1,
                            "type": "infantry", "nationality": "none"}],
             "defenders": stack, "terrain": "clear"}
    from grognard.europa.combat.attack import Side
    from grognard.europa.combat.losses import allocate_losses

    alloc = allocate_losses(attack_model(ctx, model), Side.DEFENDER,
                            Fraction(loss["requirement"]), units, ctx.tables)
    return loss, alloc


def verify_isolation_losses(ctx: Context, state: EuropaState, cmd: Command) -> None:
    _isolation_loss(ctx, state, cmd)


def execute_isolation_losses(ctx: Context, state: EuropaState, cmd: Command, dice: Dice
                             ) -> list[Event]:
    loss, a = _isolation_loss(ctx, state, cmd)
    after = {u.id: u for u in a.units_after}
    touched = list(dict.fromkeys(x.unit for x in a.steps))
    return [Event("isolation_losses_allocated", {
        "player": cmd.player, "hex": loss["hex"], "requirement": loss["requirement"],
        "steps": [{"unit": x.unit, "action": str(x.action), "credit": x.credit}
                  for x in a.steps],
        "credited": a.credited, "excess": exact_json(a.excess),
        "eliminated": [u for u in touched if u not in after],
        "reduced": {u: {"attack": after[u].attack, "defense": after[u].defense}
                    for u in touched if u in after}})]


def fold_isolation_losses(state: EuropaState, ev: Event) -> EuropaState:
    s = state
    d = cast(IsolationLossesAllocated, ev.data)
    apply_losses(s, d)
    s["supply"]["losses"] = [x for x in s["supply"]["losses"]
                             if not (x["hex"] == d["hex"] and x["player"] == d["player"])]
    return s


# --- replacement phase (EUR-33) ----------------------------------------------------------------
def _pools(state: EuropaState, player: str) -> dict[str, Any]:
    rep = state.get("replacements") or {}
    return dict(rep.get("pools", {}).get(player, {}))


def initial_replacements(scenario: Scenario) -> ReplacementsState:
    """The RE pools of ``[europa.replacements]`` (``{side: {infantry, armor, artillery}}``)."""
    given = europa_rules(scenario).section.replacements
    pools = {side: {k: exact_json(Fraction(v)) for k, v in given[side].given().items()}
             if side in given else {} for side in scenario.sides}
    return {"pools": pools, "returned": {}}


def _pool_of(u: EuropaUnit) -> str:
    t = UnitType(u["type"])
    if t is UnitType.ARTILLERY:
        return "artillery"
    return "armor" if u.get("armor", "none") in ("full", "limited") else "infantry"


def _candidate(ctx: Context, state: EuropaState, cmd: Command) -> tuple[Candidate, str]:
    uid = cmd.args.get("unit")
    u = state["units"].get(uid) if isinstance(uid, str) else None
    if u is None or u["side"] != cmd.player:
        raise IllegalOrder("EUR-33", f"{uid!r} is not one of {cmd.player}'s units")
    assert isinstance(uid, str)
    if u["status"] == "eliminated":
        status = UnitStatus.CADRE_DESTROYED if u["divisional"] else \
            UnitStatus.SINGLE_STEP_DESTROYED
    else:
        status = UnitStatus.CADRE_ON_MAP if u["cadre"] else UnitStatus.FULL_ON_MAP
    turn = int(state["turn"])
    rep = state.get("replacements") or {}
    cand = Candidate(uid, _pool_of(u), status, in_supply=u["supply"] != "out",
                     attacked=u.get("attacked_turn") == turn,
                     exploited=u.get("exploited_turn") == turn,
                     returned_this_turn=rep.get("returned", {}).get(uid) == turn,
                     re_size=Fraction(u["re_size"]))
    return cand, f"{cmd.player}.{cand.pool}"


def _ledger(state: EuropaState, player: str) -> Ledger:
    led = Ledger()
    for pool, v in _pools(state, player).items():
        led = led.post(f"{player}.{pool}", Fraction(v), "EUR-33", "pool")
    return led


def returning(cand: Candidate) -> bool:
    """EUR-33 Whether the candidate returns to the map (it is placed at a supply source)."""
    return cand.status in (UnitStatus.CADRE_DESTROYED, UnitStatus.SINGLE_STEP_DESTROYED)


def _placement(ctx: Context, state: EuropaState, cmd: Command, cand: Candidate) -> str | None:
    return placement_check(ctx, state, cmd) if returning(cand) else None


def placement_check(ctx: Context, state: EuropaState, cmd: Command) -> str:
    """EUR-33 Where a returning unit of ``cmd`` is placed: its hex, one of the side's supply
    sources and not held by the enemy (raises :class:`IllegalOrder` otherwise)."""
    label = cmd.args.get("hex")
    sources = europa_rules(ctx.scenario).section.supply_sources.get(cmd.player, [])
    if label not in sources:
        raise IllegalOrder("EUR-33", "a returning unit is placed like a reinforcement: give "
                           f"hex, one of {cmd.player}'s supply sources {sources}")
    if any(u["side"] != cmd.player for _uid, u in units_by_hex(ctx, state).get(label, ())):
        raise IllegalOrder("EUR-33", f"{label} is held by the enemy")
    return str(label)


def position_ledger(ctx: Context, state: EuropaState, player: str) -> Ledger:
    """:func:`_ledger` once per position (a ledger is an immutable value: the lister's verify
    of every unit and action reads the same pools)."""
    return per_position(ctx, state, f"europa.replacement_ledger.{player}",
                        lambda: _ledger(state, player))


def verify_replacement_unit(ctx: Context, state: EuropaState, cmd: Command) -> Candidate:
    """EUR-33 The part of a ``take_replacement`` order's verify that reads its unit and
    action only (the unit may take the action and its pool can pay); the candidate."""
    cand, account = _candidate(ctx, state, cmd)
    verify_take_replacement(position_ledger(ctx, state, cmd.player), account, cand,
                            str(cmd.args.get("action")),
                            readings_of(ctx, SupplyReadings))
    return cand


def verify_take_replacement_cmd(ctx: Context, state: EuropaState, cmd: Command) -> None:
    _placement(ctx, state, cmd, verify_replacement_unit(ctx, state, cmd))


def execute_take_replacement(ctx: Context, state: EuropaState, cmd: Command, dice: Dice
                             ) -> list[Event]:
    cand, account = _candidate(ctx, state, cmd)
    _, rec = take_replacement(_ledger(state, cmd.player), account, cand,
                              str(cmd.args.get("action")),
                              readings_of(ctx, SupplyReadings))
    printed = scenario_unit(ctx.scenario, cand.id)
    hex_ = _placement(ctx, state, cmd, cand)
    cadre = rec.action.value == "return_cadre"
    after = {"attack": state["units"][cand.id]["attack"],
             "defense": state["units"][cand.id]["defense"]} if cadre else {
        "attack": printed.attack, "defense": printed.defense}
    return [Event("replacement_taken", {**rec.to_json(), "player": cmd.player,
                                        "pool": cand.pool, "turn": int(state["turn"]),
                                        "hex": hex_, "cadre": cadre, **after})]


def fold_replacement_taken(state: EuropaState, ev: Event) -> EuropaState:
    s = state
    d = cast(ReplacementTaken, ev.data)
    rep = s.setdefault("replacements", {"pools": {}, "returned": {}})
    rep["pools"].setdefault(d["player"], {})[d["pool"]] = d["balance"]
    u = s["units"][d["unit"]]
    u.update({"attack": d["attack"], "defense": d["defense"], "cadre": d["cadre"]})
    if d["hex"] is not None:
        u.update({"status": "active", "hex": d["hex"], "supply": "in", "isolated": False})
        rep["returned"][d["unit"]] = d["turn"]
    return s
