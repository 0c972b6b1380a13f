"""The rest of the Europa revised player turn for the ``europa`` engine system: overruns in the
movement phase (EUR-18..EUR-20), the supply phase (EUR-30), isolation attrition and Break Out
(EUR-31/EUR-32), the replacement phase (EUR-33) and the FitE surprise turn (EUR-44).

The command specs and folds here are merged into the system's table by
:mod:`grognard.europa.system` (which registers it); the helpers shared with combat
(``forces_of``, ``attack_json``, ``execute_attack``) are read from that module at call time.
Commands and events are documented in ``docs/formats/europa_engine.md``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from types import ModuleType
from typing import Any

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import exact_json
from grognard.core.hexgrid import direction_to
from grognard.core.ledger import Ledger
from grognard.core.movement import is_mechanized, move_class_of, overrun_allowed, overrun_mp
from grognard.core.paths import Forces
from grognard.core.units import GROUND_TYPES, UnitType
from grognard.core.zoc import europa_revised_zoc, zoc_field
from grognard.engine import generic
from grognard.engine.commands import Command, CommandSpec
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.phases import Phase, TurnSequence
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON, thaw
from grognard.europa.breakout import IsolatedHex, isolation_attrition
from grognard.europa.fite import SURPRISE_TURN_PHASES, verify_surprise_turn_move
from grognard.europa.isolation import isolation_table
from grognard.europa.logistics import Combat, Operations, sp_cost
from grognard.europa.replacements import (
    Candidate,
    UnitStatus,
    take_replacement,
    verify_take_replacement,
)
from grognard.europa.sequence import AIR_COMMANDS, turn_sequence
from grognard.europa.supply import SupplyPhase, SupplyReadings, supply_phase

ISOLATION_STREAM = "europa.isolation"
SURPRISE_PREFIX = "surprise_"

#: Commands the system adds to the revised phases (EUR-22 activities).
EXTRA_COMMANDS: Mapping[str, tuple[str, ...]] = {
    "movement": ("overrun", "allocate_losses", "retreat"),
    "exploitation": ("overrun", "allocate_losses", "retreat"),
    "supply": ("supply_check", "isolation_attrition"),
    "replacement": ("take_replacement",),
}


def _system() -> ModuleType:
    from grognard.europa import system

    return system


# --- scenario configuration --------------------------------------------------------------------
@lru_cache(maxsize=32)
def _config_of(text: str) -> dict[str, Any]:
    if not text:
        return {}
    raw = tomllib.loads(text).get("europa", {})
    return raw if isinstance(raw, dict) else {}


def europa_config(scenario: Scenario) -> dict[str, Any]:
    """The scenario's ``[europa]`` table (supply sources, replacement pools, FitE switch)."""
    return _config_of(scenario.text)


def fite_surprise_turn(scenario: Scenario) -> bool:
    """EUR-44 Whether the scenario opens with the FitE German surprise turn."""
    return bool(europa_config(scenario).get("fite_surprise_turn", False))


def revised_sequence(scenario: Scenario) -> TurnSequence:
    """EUR-22 The revised turn (``europa.sequence.turn_sequence``) with the system's commands;
    for a FitE scenario (``[europa] fite_surprise_turn = true``) the EUR-44 surprise phases
    (movement, air, combat of the first side) come first; :func:`next_position` plays them on
    the first turn only."""
    extra = {k: list(v) for k, v in EXTRA_COMMANDS.items()}
    seq = turn_sequence(scenario.sides, extra)
    if not fite_surprise_turn(scenario):
        return seq
    normal = {p.name: p.commands for p in seq.phases if p.player == scenario.sides[0]}
    cmds = {"movement": frozenset({"move", "roll_table"}),
            "air": normal["air"],
            "combat": normal["combat"]}
    lead = tuple(Phase(SURPRISE_PREFIX + name, scenario.sides[0], cmds[name])
                 for name in SURPRISE_TURN_PHASES)
    return TurnSequence(lead + seq.phases)


def next_position(ctx: Context, phase: int, turn: int) -> tuple[int, int]:
    """EUR-44 After the surprise combat phase play goes on with the normal first player turn of
    the same game turn; later turns skip the surprise phases."""
    nxt, nturn = ctx.turn_sequence.next_position(phase, turn)
    if nturn != turn and fite_surprise_turn(ctx.scenario):
        nxt = len(SURPRISE_TURN_PHASES)
    return nxt, nturn


def execute_end_phase(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    phase, turn = next_position(ctx, state["phase"], state["turn"])
    return [Event("phase_ended", {"from": {"turn": state["turn"], "phase": state["phase"]},
                                  "to": {"turn": turn, "phase": phase}})]


def _phase_name(ctx: Context, state: JSON) -> str:
    return ctx.turn_sequence.phases[int(state["phase"])].name


def _key(state: JSON) -> list[int]:
    return [int(state["turn"]), int(state["phase"])]


# --- move (with the EUR-44 surprise-turn restriction) ------------------------------------------
def _surprise_geometry(ctx: Context, state: JSON, player: str
                       ) -> tuple[set[str], set[str], set[str]]:
    m = ctx.scenario.map
    names = europa_config(ctx.scenario).get("soviet_countries", ["ussr"])
    codes = [m.country_names.index(n) for n in names if n in m.country_names]
    ids = [i for i in range(m.n) if int(m.country[i]) in codes]
    soviet = {m.label(i) for i in ids}
    border = {m.label(int(j)) for i in ids for j in m.neighbor_indices(i)
              if m.label(int(j)) not in soviet}
    zoc = zoc_field(m, _system().forces_of(ctx, state), player, europa_revised_zoc())
    mask = zoc.mask()
    enemy_zoc = {m.label(i) for i in range(m.n) if mask[i]}
    return soviet, border, enemy_zoc


def verify_move(ctx: Context, state: JSON, cmd: Command) -> None:
    """The generic move; refused while an overrun waits for its losses and retreats; on the
    FitE surprise turn only EUR-44's one hex across the border."""
    if state.get("overrun", {}).get("pending") is not None:
        raise IllegalOrder("EUR-18", "finish the overrun (losses, retreats) before moving")
    generic.verify_move(ctx, state, cmd)
    if _phase_name(ctx, state).startswith(SURPRISE_PREFIX):
        soviet, border, zoc = _surprise_geometry(ctx, state, cmd.player)
        start = state["units"][cmd.args["unit"]]["hex"]
        verify_surprise_turn_move([start, *cmd.args["path"]], soviet, border, zoc)


def execute_move(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    """The generic move; in the exploitation phase the event says so (EUR-33: a unit that
    moved in the exploitation phase takes no replacements this turn)."""
    events = generic.execute_move(ctx, state, cmd, dice)
    if _phase_name(ctx, state) == "exploitation":
        return [Event(e.type, {**e.data, "exploitation": True}) for e in events]
    return events


def fold_unit_moved(state: JSON, ev: Event) -> JSON:
    s = generic.fold_unit_moved(state, ev)
    if ev.data.get("exploitation"):
        s = thaw(s)
        s["units"][ev.data["unit"]]["exploited_turn"] = int(s["turn"])
    return s


# --- overrun (EUR-18..EUR-20) ------------------------------------------------------------------
def _overrun_slot(state: JSON) -> dict[str, Any]:
    slot = state.get("overrun")
    if not isinstance(slot, dict) or slot.get("key") != _key(state):
        pending = slot.get("pending") if isinstance(slot, dict) else None
        return {"key": _key(state), "units": [], "hexes": [], "pending": pending}
    return slot


def overrun_cost(ctx: Context, state: JSON, cmd: Command) -> dict[str, Any]:
    """EUR-18..EUR-20 Check an ``overrun`` order and price it: ``{units, from, target, mp}``
    (``mp`` per unit, EUR-19: 3 + the entry cost of the target hex + leaving / ZOC-to-ZOC
    costs of other enemy units' ZOCs)."""
    m = ctx.scenario.map
    if _phase_name(ctx, state).startswith(SURPRISE_PREFIX):
        raise IllegalOrder("EUR-44", "no overruns on the surprise turn")
    if state["combat"]["pending"] is not None:
        raise IllegalOrder("EUR-18", "the last combat's losses and retreats are still pending")
    ids = cmd.args.get("units")
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        raise IllegalOrder("EUR-18", "units must list the overrunning stack's unit ids")
    if "bombardment" in cmd.args:
        raise IllegalOrder("EUR-18", "no air support in an overrun")
    target = _system()._hex(ctx, cmd.args.get("target"), "target")
    label = m.layout.to_label(target)
    slot = _overrun_slot(state)
    hexes = set()
    for uid in ids:
        u = state["units"].get(uid)
        if u is None or u["side"] != cmd.player or u["status"] != "active" or u["hex"] is None:
            raise IllegalOrder("EUR-18", f"{uid} is not one of {cmd.player}'s units on the map")
        if uid in slot["units"]:
            raise IllegalOrder("EUR-18", f"{uid} has already overrun this phase")
        hexes.add(u["hex"])
    if len(hexes) != 1:
        raise IllegalOrder("EUR-18", "an overrun is made by one stack (its units in one hex)")
    start = hexes.pop()
    here = m.layout.from_label(start)
    try:
        direction_to(here, target)
    except InputError:
        raise IllegalOrder("EUR-18", f"{label} is not adjacent to {start}") from None
    enemy = [uid for uid, u in _system()._on_map(state)
             if u["hex"] == label and u["side"] != cmd.player]
    if not enemy:
        raise IllegalOrder("EUR-18", f"no enemy unit in {label}")
    if label in slot["hexes"]:
        raise IllegalOrder("EUR-18", f"{label} has already been overrun this phase")
    weather = str(cmd.args.get("weather", "clear"))
    mreadings = _system()._readings(ctx, _movement_readings())
    if not overrun_allowed(m, start, label, mud=weather == "mud",
                           frozen_rivers=weather == "winter", readings=mreadings):
        raise IllegalOrder("EUR-20", f"no overrun into {label} ({m.terrain_of(target).value}"
                           f"{', mud' if weather == 'mud' else ''}) from {start}")
    entry = generic.move_cost(ctx.scenario, start, [label])
    others = [(uid, u) for uid, u in _system()._on_map(state) if u["hex"] != label]
    forces = Forces.build(m, [u["hex"] for _, u in others], [u["side"] for _, u in others],
                          zoc_class=[int(u.get("zoc_class", 1)) for _, u in others],
                          ids=[uid for uid, _ in others], side_names=list(state["sides"]))
    mask = zoc_field(m, forces, cmd.player, europa_revised_zoc()).mask()
    ia, ib = m.index(here), m.index(target)
    leaves, z2z = bool(mask[ia]), bool(mask[ia] and mask[ib])
    mp: dict[str, int] = {}
    for uid in ids:
        unit = ctx.scenario.unit(uid)
        cls = move_class_of(unit, mreadings)
        cost = overrun_mp(entry, leaves, z2z, move_class=cls)
        left = state["units"][uid]["movement"] - state["units"][uid]["mp_spent"]
        if cost > left:
            raise IllegalOrder("EUR-19", f"{uid} needs {cost} MPs to overrun {label} "
                               f"and has {left}")
        mp[uid] = cost
    divisions = sum(1 for uid in ids if state["units"][uid]["divisional"]
                    and not state["units"][uid]["cadre"] and state["units"][uid]["supply"] == "in")
    sp = sp_cost(Operations(combats=(Combat(divisions=divisions, overrun=True),)),
                 _system()._readings(ctx, SupplyReadings), ctx.tables)
    return {"units": list(ids), "from": start, "target": label, "mp": mp,
            "sp_cost": sp.to_json(),
            "leaves_zoc": leaves, "zoc_to_zoc": z2z, "entry_cost": entry,
            "mechanized": {uid: is_mechanized(ctx.scenario.unit(uid), mreadings)
                           for uid in ids}}


def _movement_readings() -> type[Any]:
    from grognard.core.movement import MovementReadings

    return MovementReadings


def _attack_cmd(cmd: Command, priced: Mapping[str, Any]) -> Command:
    args = {k: v for k, v in cmd.args.items() if k in ("series", "weather", "readings")}
    return Command("attack", cmd.player, {**args, "attackers": list(priced["units"]),
                                          "defender_hex": priced["target"], "overrun": True})


def verify_overrun(ctx: Context, state: JSON, cmd: Command) -> None:
    priced = overrun_cost(ctx, state, cmd)
    _system().verify_attack(ctx, state, _attack_cmd(cmd, priced))


def execute_overrun(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    priced = overrun_cost(ctx, state, cmd)
    combat = _system().execute_attack(ctx, state, _attack_cmd(cmd, priced), dice)
    declared = Event("overrun_declared", {"key": _key(state), "player": cmd.player, **priced,
                                          "number": combat[0].data["number"]})
    return [declared, *combat]


def fold_overrun_declared(state: JSON, ev: Event) -> JSON:
    s = thaw(state)
    d = ev.data
    slot = thaw(_overrun_slot(s)) if s.get("overrun", {}).get("key") == d["key"] else {
        "key": d["key"], "units": [], "hexes": [], "pending": None}
    slot["units"] += d["units"]
    slot["hexes"].append(d["target"])
    slot["pending"] = {"number": d["number"], "units": d["units"], "target": d["target"],
                       "from": d["from"]}
    s["overrun"] = slot
    for uid, cost in d["mp"].items():
        s["units"][uid]["mp_spent"] += cost
    return s


def settle_overrun(state: JSON) -> JSON:
    """EUR-18 Once the overrun's losses and retreats are done: if the target hex is clear of
    enemy units the stack keeps its remaining MPs, otherwise it stops where it attacked from.
    ``overrun.results`` records each outcome."""
    slot = state.get("overrun")
    if not isinstance(slot, dict) or slot.get("pending") is None:
        return state
    if state["combat"]["pending"] is not None:
        return state
    s = thaw(state)
    p = s["overrun"]["pending"]
    side = s["units"][p["units"][0]]["side"]
    cleared = not any(u["hex"] == p["target"] and u["status"] == "active" and u["side"] != side
                      for u in s["units"].values())
    for uid in p["units"]:
        u = s["units"][uid]
        if not cleared and u["status"] == "active":
            u["mp_spent"] = max(u["mp_spent"], u["movement"])
    s["overrun"].setdefault("results", []).append(
        {"number": p["number"], "target": p["target"], "cleared": cleared})
    s["overrun"]["pending"] = None
    return s


def settled(fold: Any) -> Any:
    """Wrap a combat fold so an overrun settles when its combat is done."""
    def wrapped(state: JSON, ev: Event) -> JSON:
        return settle_overrun(fold(state, ev))
    return wrapped


# --- supply phase (EUR-30) ---------------------------------------------------------------------
def _supply_slot(state: JSON) -> dict[str, Any]:
    slot = state.get("supply")
    if isinstance(slot, dict):
        return slot
    return {"checked": None, "attrition": None, "isolated_hexes": {}, "losses": []}


def _ground(state: JSON, player: str) -> list[tuple[str, JSON]]:
    return [(uid, u) for uid, u in _system()._on_map(state)
            if u["side"] == player and UnitType(u["type"]) in GROUND_TYPES]


def run_supply_phase(ctx: Context, state: JSON, player: str) -> SupplyPhase:
    """EUR-30 The phasing player's supply check on the scenario map: sources from
    ``[europa.supply_sources]``, the path limit ``[europa] supply_max_length`` (absent: any
    length), enemy ZOCs from the units in state, OOS marks from ``units[..].supply``."""
    cfg = europa_config(ctx.scenario)
    sources = cfg.get("supply_sources", {}).get(player)
    if not sources:
        raise IllegalOrder("EUR-30", f"the scenario gives no supply sources for {player} "
                           "([europa.supply_sources])")
    mine = _ground(state, player)
    m = ctx.scenario.map
    zoc = zoc_field(m, _system().forces_of(ctx, state), player, europa_revised_zoc())
    return supply_phase(m, [u["hex"] for _, u in mine], zoc, list(sources),
                        max_length=cfg.get("supply_max_length"),
                        was_out=[u["supply"] == "out" for _, u in mine],
                        ids=[uid for uid, _ in mine],
                        defensive=[u["supply"] == "defensive" for _, u in mine])


def verify_supply_check(ctx: Context, state: JSON, cmd: Command) -> None:
    if _supply_slot(state)["checked"] == _key(state):
        raise IllegalOrder("EUR-30", "this supply phase's check is done")
    run_supply_phase(ctx, state, cmd.player)


def execute_supply_check(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    rec = run_supply_phase(ctx, state, cmd.player)
    return [Event("supply_checked", {"key": _key(state), "player": cmd.player,
                                     **rec.to_json()})]


def fold_supply_checked(state: JSON, ev: Event) -> JSON:
    s = thaw(state)
    d = ev.data
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
def _isolated_hexes(ctx: Context, state: JSON, cmd: Command) -> list[IsolatedHex]:
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
    conds = cmd.args.get("conditions", {})
    if not isinstance(outs, list) or not all(isinstance(h, str) for h in outs):
        raise InputError("break_out", "list the hexes that break out")
    if not isinstance(conds, dict) or not all(isinstance(v, dict) for v in conds.values()):
        raise InputError("conditions", "map hex labels to {region, winter, home_country, "
                         "major_city_path}")
    for h in [*outs, *conds]:
        if h not in stacks:
            raise IllegalOrder("EUR-31", f"{h} is not an isolated hex of {cmd.player}")
    enemy = {u["hex"] for _, u in _system()._on_map(state) if u["side"] != cmd.player}
    out = []
    for label in sorted(stacks):
        units = stacks[label]
        adjacent = any(m.label(int(j)) in enemy
                       for j in m.neighbor_indices(m.index_of_label(label)))
        c = conds.get(label, {})
        out.append(IsolatedHex(
            label, tuple(uid for uid, _ in units),
            sum((Fraction(u["defense"]) for _, u in units), Fraction(0)),
            adjacent_enemy=adjacent, region=c.get("region", "other"),
            winter=bool(c.get("winter", False)), home_country=bool(c.get("home_country", False)),
            major_city_path=bool(c.get("major_city_path", False)),
            break_out=label in outs))
    return out


def verify_isolation_attrition(ctx: Context, state: JSON, cmd: Command) -> None:
    _isolated_hexes(ctx, state, cmd)


def execute_isolation_attrition(ctx: Context, state: JSON, cmd: Command, dice: Dice
                                ) -> list[Event]:
    hexes = _isolated_hexes(ctx, state, cmd)
    readings = _system()._readings(ctx, SupplyReadings)
    recs = isolation_attrition(hexes, dice.stream(ISOLATION_STREAM), readings,
                               isolation_table(ctx.tables))
    return [Event("isolation_attrition_rolled", {
        "key": _key(state), "player": cmd.player,
        "hexes": [r.to_json() | {"units": list(h.units)} for h, r in zip(hexes, recs,
                                                                           strict=True)],
    })]


def fold_isolation_attrition(state: JSON, ev: Event) -> JSON:
    s = thaw(state)
    d = ev.data
    slot = thaw(_supply_slot(s))
    slot["attrition"] = d["key"]
    pools = _pools(s, d["player"])
    for h in d["hexes"]:
        bo = h["break_out"]
        if bo is not None:
            for uid in bo["eliminated"]:
                _system()._eliminate(s, uid)
            pools["infantry"] = exact_json(Fraction(pools.get("infantry", "0"))
                                           + bo["infantry_replacements"])
        elif Fraction(h["roll"]["loss"]) > 0:
            slot["losses"].append({"key": d["key"], "player": d["player"], "hex": h["hex"],
                                   "requirement": h["roll"]["loss"], "units": h["units"]})
    s["supply"] = slot
    s.setdefault("replacements", {"pools": {}, "returned": {}})["pools"][d["player"]] = pools
    return s


# --- replacement phase (EUR-33) ----------------------------------------------------------------
def _pools(state: JSON, player: str) -> dict[str, Any]:
    rep = state.get("replacements") or {}
    return dict(rep.get("pools", {}).get(player, {}))


def initial_replacements(scenario: Scenario) -> dict[str, Any]:
    """The RE pools of ``[europa.replacements]`` (``{side: {infantry, armor, artillery}}``)."""
    raw = europa_config(scenario).get("replacements", {})
    pools = {side: {k: exact_json(Fraction(v)) for k, v in raw.get(side, {}).items()}
             for side in scenario.sides}
    return {"pools": pools, "returned": {}}


def _pool_of(u: JSON) -> str:
    t = UnitType(u["type"])
    if t is UnitType.ARTILLERY:
        return "artillery"
    return "armor" if u.get("armor", "none") in ("full", "limited") else "infantry"


def _candidate(ctx: Context, state: JSON, cmd: Command) -> tuple[Candidate, str]:
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


def _ledger(state: JSON, player: str) -> Ledger:
    led = Ledger()
    for pool, v in _pools(state, player).items():
        led = led.post(f"{player}.{pool}", Fraction(v), "EUR-33", "pool")
    return led


def _placement(ctx: Context, state: JSON, cmd: Command, cand: Candidate) -> str | None:
    if cand.status not in (UnitStatus.CADRE_DESTROYED, UnitStatus.SINGLE_STEP_DESTROYED):
        return None
    label = cmd.args.get("hex")
    sources = europa_config(ctx.scenario).get("supply_sources", {}).get(cmd.player, [])
    if label not in sources:
        raise IllegalOrder("EUR-33", "a returning unit is placed like a reinforcement: give "
                           f"hex, one of {cmd.player}'s supply sources {sources}")
    if any(u["hex"] == label and u["side"] != cmd.player and u["status"] == "active"
           for u in state["units"].values()):
        raise IllegalOrder("EUR-33", f"{label} is held by the enemy")
    return str(label)


def verify_take_replacement_cmd(ctx: Context, state: JSON, cmd: Command) -> None:
    cand, account = _candidate(ctx, state, cmd)
    verify_take_replacement(_ledger(state, cmd.player), account, cand,
                            str(cmd.args.get("action")),
                            _system()._readings(ctx, SupplyReadings))
    _placement(ctx, state, cmd, cand)


def execute_take_replacement(ctx: Context, state: JSON, cmd: Command, dice: Dice
                             ) -> list[Event]:
    cand, account = _candidate(ctx, state, cmd)
    _, rec = take_replacement(_ledger(state, cmd.player), account, cand,
                              str(cmd.args.get("action")),
                              _system()._readings(ctx, SupplyReadings))
    printed = ctx.scenario.unit(cand.id)
    hex_ = _placement(ctx, state, cmd, cand)
    cadre = rec.action.value == "return_cadre"
    after = {"attack": state["units"][cand.id]["attack"],
             "defense": state["units"][cand.id]["defense"]} if cadre else {
        "attack": printed.attack, "defense": printed.defense}
    return [Event("replacement_taken", {**rec.to_json(), "player": cmd.player,
                                        "pool": cand.pool, "turn": int(state["turn"]),
                                        "hex": hex_, "cadre": cadre, **after})]


def fold_replacement_taken(state: JSON, ev: Event) -> JSON:
    s = thaw(state)
    d = ev.data
    rep = s.setdefault("replacements", {"pools": {}, "returned": {}})
    rep["pools"].setdefault(d["player"], {})[d["pool"]] = d["balance"]
    u = s["units"][d["unit"]]
    u.update(attack=d["attack"], defense=d["defense"], cadre=d["cadre"])
    if d["hex"] is not None:
        u.update(status="active", hex=d["hex"], supply="in", isolated=False)
        rep["returned"][d["unit"]] = d["turn"]
    return s


# --- the command table -------------------------------------------------------------------------
TURN_COMMAND_SPECS: dict[str, CommandSpec] = {
    "move": CommandSpec("move", verify_move, execute_move,
                        "Move a unit along adjacent hexes (EUR-44 on the surprise turn).",
                        {"unit": "de-7pz", "path": ["0504"]}),
    "end_phase": CommandSpec("end_phase", generic.verify_end_phase, execute_end_phase,
                             "End the phase (EUR-44: the surprise phases play once).", {}),
    "overrun": CommandSpec("overrun", verify_overrun, execute_overrun,
                           "Overrun one adjacent hex with one stack (EUR-18..20).",
                           {"units": ["de-7pz"], "target": "0605"}),
    "supply_check": CommandSpec("supply_check", verify_supply_check, execute_supply_check,
                                "The supply phase check: OOS and isolation marks (EUR-30).",
                                {}),
    "isolation_attrition": CommandSpec("isolation_attrition", verify_isolation_attrition,
                                       execute_isolation_attrition,
                                       "Isolation attrition 2D6 per isolated hex, Break Outs "
                                       "(EUR-31/32).", {"break_out": []}),
    "take_replacement": CommandSpec("take_replacement", verify_take_replacement_cmd,
                                    execute_take_replacement,
                                    "Spend REs: rebuild a cadre or return a unit (EUR-33).",
                                    {"unit": "de-7pz", "action": "rebuild"}),
}

TURN_FOLDS = {
    "unit_moved": fold_unit_moved,
    "overrun_declared": fold_overrun_declared,
    "supply_checked": fold_supply_checked,
    "isolation_attrition_rolled": fold_isolation_attrition,
    "replacement_taken": fold_replacement_taken,
}

__all__ = ["AIR_COMMANDS", "EXTRA_COMMANDS", "TURN_COMMAND_SPECS", "TURN_FOLDS",
           "europa_config", "fite_surprise_turn", "revised_sequence", "settle_overrun"]
