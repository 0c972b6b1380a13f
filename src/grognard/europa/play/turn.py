"""The rest of the Europa revised player turn for the ``europa`` engine system: overruns in the
movement phase (EUR-18..EUR-20), the supply phase (EUR-30), isolation attrition and Break Out
(EUR-31/EUR-32), the replacement phase (EUR-33) and the FitE surprise turn (EUR-44).

The supply, isolation and replacement commands are in :mod:`grognard.europa.play.supply_phase`.
The Orders that run them are in :mod:`grognard.europa.play.orders` and
:mod:`grognard.europa.combat.orders` (``overrun``).
Commands and events are documented in ``docs/formats/europa_engine.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import direction_to
from grognard.core.mapdata import MapData
from grognard.core.movement import is_mechanized, move_class_of, overrun_allowed, overrun_mp
from grognard.core.paths import Forces
from grognard.core.zoc import europa_revised_zoc, zoc_field
from grognard.engine import generic
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.phases import Phase, TurnSequence
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON, copy_state
from grognard.europa.board import (
    SURPRISE_PREFIX,
    combat_weather,
    europa_config,
    fite_surprise_turn,
    forces_of,
    hex_arg,
    on_map_of,
    per_position,
    readings_of,
)
from grognard.europa.fite import SURPRISE_TURN_PHASES, verify_surprise_turn_move
from grognard.europa.logistics import (
    fold_unfuelled,
    move_payment,
    paid_event,
    phase_change_events,
    zone_event,
)
from grognard.europa.play.combat import (
    execute_attack,
    verify_attack,
)
from grognard.europa.play.movement import EuropaMove, check_move, joins_stack
from grognard.europa.play.sequence import AIR_COMMANDS, turn_sequence
from grognard.europa.play.supply_phase import (
    ISOLATION_STREAM,
    _key,
    initial_replacements,
    opening_supply_check,
)
from grognard.europa.supply.logistics import Combat, Operations, sp_cost
from grognard.europa.supply.phase import SupplyReadings
from grognard.europa.surprise.turn import (
    BONUS_PHASES,
    bonus_phases_after_initial,
    marker_mp,
    phase_open,
    verify_surprise_move,
)

#: The rules a move in a rule-47 bonus phase applies (named in its ``unit_moved`` event).
SURPRISE_MOVE_RULES: Mapping[str, tuple[str, ...]] = {
    "bonus_movement": ("SUR-01", "SUR-17"), "reaction": ("SUR-18",)}

#: Commands the system adds to the revised phases (EUR-22 activities).
EXTRA_COMMANDS: Mapping[str, tuple[str, ...]] = {
    "movement": ("overrun", "allocate_losses", "retreat"),
    "exploitation": ("overrun", "allocate_losses", "retreat"),
    "supply": ("supply_check", "isolation_attrition", "allocate_isolation_losses"),
    "replacement": ("take_replacement",),
}


def engine_turn(sides: Sequence[str]) -> TurnSequence:
    """EUR-22 The phases the engine runs for ``sides`` and the command kinds it allows in each
    (the revised turn with the system's overruns, supply, isolation and replacement commands,
    and the rule-47 bonus phases after each initial phase, SUR-01)."""
    extra = {k: list(v) for k, v in EXTRA_COMMANDS.items()}
    extra["initial"] = ["start_invasion_surprise"]
    # SUR-22: an airbase attacked in any non-initial phase of a surprise turn gets the roll
    extra["air"] = [*extra.get("air", []), "airbase_surprise"]
    return TurnSequence(bonus_phases_after_initial(turn_sequence(sides, extra).phases, sides))


def revised_sequence(scenario: Scenario) -> TurnSequence:
    """EUR-22 The revised turn (``europa.play.sequence.turn_sequence``) with the system's commands;
    for a FitE scenario (``[europa] fite_surprise_turn = true``) the EUR-44 surprise phases
    (movement, air, combat of the first side) come first; :func:`next_position` plays them on
    the first turn only."""
    seq = engine_turn(scenario.sides)
    if not fite_surprise_turn(scenario):
        return seq
    normal = {p.name: p.commands for p in seq.phases if p.player == scenario.sides[0]}
    cmds = {"movement": frozenset({"move", "roll_table"}),
            "air": normal["air"] | {"airfield_strike"},  # EUR-45
            "combat": normal["combat"]}
    lead = tuple(Phase(SURPRISE_PREFIX + name, scenario.sides[0], cmds[name])
                 for name in SURPRISE_TURN_PHASES)
    return TurnSequence(lead + seq.phases)


def next_position(ctx: Context, phase: int, turn: int, state: JSON | None = None
                  ) -> tuple[int, int]:
    """EUR-44 After the surprise combat phase play goes on with the normal first player turn of
    the same game turn; later turns skip the surprise phases. SUR-01: the bonus phases are
    played only in the turn of a started surprise (``surprise_turn.phase_open``)."""
    seq = ctx.turn_sequence
    nxt, nturn = phase, turn
    for _ in range(len(seq.phases) + 1):
        before = nturn
        nxt, nturn = seq.next_position(nxt, nturn)
        if nturn != before and fite_surprise_turn(ctx.scenario):
            nxt = len(SURPRISE_TURN_PHASES)
        if state is None or phase_open(state, seq.phases[nxt], nturn):
            break
    return nxt, nturn


def execute_end_phase(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    """The next phase; with FitE logistics the special SPs expire after the surprise phases
    (EUR-39) and a side receives its SPs as its initial phase opens (EUR-38/40/41); a supply
    phase opens with the engine's supply check (EUR-30)."""
    phase, turn = next_position(ctx, state["phase"], state["turn"], state)
    return [Event("phase_ended", {"from": {"turn": state["turn"], "phase": state["phase"]},
                                  "to": {"turn": turn, "phase": phase}}),
            *phase_change_events(ctx, state, phase, turn),
            *opening_supply_check(ctx, state, phase, turn)]


def _phase_name(ctx: Context, state: JSON) -> str:
    return ctx.turn_sequence.phases[int(state["phase"])].name


# --- move (with the EUR-44 surprise-turn restriction) ------------------------------------------
def surprise_geometry(ctx: Context, state: JSON, player: str
                      ) -> tuple[set[str], set[str], set[str]]:
    """EUR-44 Soviet territory, the hexes bordering it and ``player``'s enemies' ZOC, once
    per position."""
    out: tuple[set[str], set[str], set[str]] = ctx.cached(
        f"europa.fite_geometry.{player}", lambda: _geometry(ctx, state, player))
    return out


_TERRITORY: WeakKeyDictionary[MapData, dict[tuple[str, ...], tuple[set[str], set[str]]]] = \
    WeakKeyDictionary()


def _territory(m: MapData, names: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """Soviet territory (hexes of the named countries) and the hexes bordering it, per map."""
    per_map = _TERRITORY.setdefault(m, {})
    if names not in per_map:
        codes = [m.country_names.index(n) for n in names if n in m.country_names]
        ids = np.flatnonzero(np.isin(m.country, codes)).tolist()
        soviet = {m.label(i) for i in ids}
        border = {m.label(int(j)) for i in ids for j in m.neighbor_indices(i)
                  if m.label(int(j)) not in soviet}
        per_map[names] = (soviet, border)
    return per_map[names]


def _geometry(ctx: Context, state: JSON, player: str) -> tuple[set[str], set[str], set[str]]:
    m = ctx.scenario.map
    names = tuple(europa_config(ctx.scenario).get("soviet_countries", ["ussr"]))
    soviet, border = _territory(m, names)
    zoc = zoc_field(m, forces_of(ctx, state), player, europa_revised_zoc())
    enemy_zoc = {m.label(int(i)) for i in np.flatnonzero(zoc.mask())}
    return soviet, border, enemy_zoc


def verify_move(ctx: Context, state: JSON, cmd: Command) -> None:
    """The generic move under EUR-17's ZOC costs; refused while an overrun waits for its losses and retreats; on the
    FitE surprise turn only EUR-44's one hex across the border."""
    if state.get("overrun", {}).get("pending") is not None:
        raise IllegalOrder("EUR-18", "finish the overrun (losses, retreats) before moving")
    mv = _europa_move(ctx, state, cmd)
    path = mv.path
    move_payment(ctx, state, str(cmd.args["unit"]), mv.mp)  # EUR-37: paid, or unfuelled
    phase = ctx.turn_sequence.phases[int(state["phase"])]
    if phase.name in BONUS_PHASES or state["units"][cmd.args["unit"]].get("mp_markers"):
        verify_surprise_move(ctx, state, cmd, phase, path)
    if _phase_name(ctx, state).startswith(SURPRISE_PREFIX):
        soviet, border, zoc = surprise_geometry(ctx, state, cmd.player)
        start = state["units"][cmd.args["unit"]]["hex"]
        verify_surprise_turn_move([start, *path], soviet, border, zoc)


def _europa_move(ctx: Context, state: JSON, cmd: Command) -> EuropaMove:
    """:func:`_checked_move` once per position and command (verify and execute share it)."""
    key = f"europa.move.{id(cmd)}"
    hit = ctx.cache.get(key)
    if hit is not None and hit[0] is cmd and hit[1] is state:
        kept: EuropaMove = hit[2]
        return kept
    mv = _checked_move(ctx, state, cmd)
    ctx.cache[key] = (cmd, state, mv)  # holds ``cmd``: its id is not reused while kept
    return mv


def _checked_move(ctx: Context, state: JSON, cmd: Command) -> EuropaMove:
    """The move under EUR-17's ZOC costs (:mod:`grognard.europa.play.movement`). An explicit
    ``path`` first passes the generic checks (its hexes, the terrain, its cost); a move ``to``
    a hex needs only the unit's (EUR-17's own search finds the path; the generic search runs
    only on a refusal, so one out of reach at terrain costs alone is refused as before)."""
    path = cmd.args.get("path")
    if path is None and isinstance(cmd.args.get("to"), str):
        generic.mover(state, cmd)
        try:
            return check_move(ctx, state, cmd, None)
        except IllegalOrder:
            generic.verify_move(ctx, state, cmd)  # out of reach even at terrain costs: MOVE
            raise
    generic.verify_move(ctx, state, cmd)
    return check_move(ctx, state, cmd, [str(h) for h in generic.move_path(ctx, state, cmd)])


def execute_move(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    """The move under EUR-17 (its event names EUR-17 when an enemy ZOC took part); in the
    exploitation phase the event says so (EUR-33: a unit that moved in the exploitation
    phase takes no replacements this turn)."""
    uid = str(cmd.args["unit"])
    mv = _europa_move(ctx, state, cmd)
    events = [Event("unit_moved", mv.event_data(uid, state["units"][uid]["hex"]))]
    extra = marker_mp(state, uid, len(mv.path))
    side = str(state["units"][uid]["side"])
    rules = [*(["EUR-17"] if mv.zoc else []),
             *(["EUR-21"] if joins_stack(ctx, state, side, mv.path[-1], [uid]) else []),
             *SURPRISE_MOVE_RULES.get(_phase_name(ctx, state), ())]
    if state["units"][cmd.args["unit"]].get("mp_markers"):
        # SUR-16: the markers' MPs are paid on this move and the markers removed
        events = [Event(e.type, {**e.data, "mp": e.data["mp"] + extra, "marker_mp": extra})
                  for e in events]
        rules.append("SUR-16")
    pay = move_payment(ctx, state, uid, mv.mp)
    if pay.unfuelled:  # EUR-37: moved on no SPs - half its MA, no attack this turn
        events = [Event(e.type, {**e.data, "unfuelled": True}) for e in events]
        rules.append("EUR-37")
    if rules:
        events = [Event(e.type, {**e.data, "rules": rules}) for e in events]
    if _phase_name(ctx, state) == "exploitation":
        events = [Event(e.type, {**e.data, "exploitation": True}) for e in events]
    if pay.paid is not None:
        events.append(paid_event(pay.paid))
    zone = zone_event(ctx, state, side, [mv.path[-1]],
                      Fraction(pay.paid["sp"]) if pay.paid is not None else 0)
    return events if zone is None else [*events, zone]


def fold_unit_moved(state: JSON, ev: Event) -> JSON:
    s = generic.fold_unit_moved(state, ev)
    if "marker_mp" in ev.data:
        s["units"][ev.data["unit"]]["mp_markers"] = 0
    st = s.get("surprise_turn")
    if ev.data.get("rules") and isinstance(st, dict) and st.get("turn") == int(s["turn"]):
        # SUR-21: the units (HQs) that moved in the bonus phases recompute their supply range
        st["moved"] = sorted({*st.get("moved", []), ev.data["unit"]})
    if ev.data.get("exploitation"):
        s["units"][ev.data["unit"]]["exploited_turn"] = int(s["turn"])
    if ev.data.get("unfuelled"):
        fold_unfuelled(s, ev.data["unit"])
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
    target = hex_arg(ctx, cmd.args.get("target"), "target")
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
    enemy = [uid for uid, u in on_map_of(ctx, state)
             if u["hex"] == label and u["side"] != cmd.player]
    if not enemy:
        raise IllegalOrder("EUR-18", f"no enemy unit in {label}")
    if label in slot["hexes"]:
        raise IllegalOrder("EUR-18", f"{label} has already been overrun this phase")
    weather = combat_weather(ctx, state, cmd.args)
    mreadings = readings_of(ctx, _movement_readings())
    if not overrun_allowed(m, start, label, mud=weather == "mud",
                           frozen_rivers=weather == "winter", readings=mreadings):
        raise IllegalOrder("EUR-20", f"no overrun into {label} ({m.terrain_of(target).value}"
                           f"{', mud' if weather == 'mud' else ''}) from {start}")
    entry = generic.move_cost(ctx.scenario, start, [label])
    mask = _zoc_without(ctx, state, cmd.player, label)
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
                 readings_of(ctx, SupplyReadings), ctx.tables)
    return {"units": list(ids), "from": start, "target": label, "mp": mp,
            "sp_cost": sp.to_json(),
            "leaves_zoc": leaves, "zoc_to_zoc": z2z, "entry_cost": entry,
            "mechanized": {uid: is_mechanized(ctx.scenario.unit(uid), mreadings)
                           for uid in ids}}


def _zoc_without(ctx: Context, state: JSON, player: str, label: str) -> Any:
    """EUR-19 The enemy ZOC ``player``'s overrun of ``label`` meets: every unit on the map
    but those in ``label`` (once per position, player and target)."""
    def make() -> Any:
        m = ctx.scenario.map
        others = [(uid, u) for uid, u in on_map_of(ctx, state) if u["hex"] != label]
        forces = Forces.build(m, [u["hex"] for _, u in others], [u["side"] for _, u in others],
                              zoc_class=[int(u.get("zoc_class", 1)) for _, u in others],
                              ids=[uid for uid, _ in others], side_names=list(state["sides"]))
        return zoc_field(m, forces, player, europa_revised_zoc()).mask()
    return per_position(ctx, state, f"europa.overrun_zoc.{player}.{label}", make)


def _movement_readings() -> type[Any]:
    from grognard.core.movement import MovementReadings

    return MovementReadings


def _attack_cmd(cmd: Command, priced: Mapping[str, Any]) -> Command:
    return Command("attack", cmd.player, {"attackers": list(priced["units"]),
                                          "defender_hex": priced["target"], "overrun": True})


def _priced_overrun(ctx: Context, state: JSON, cmd: Command) -> dict[str, Any]:
    """:func:`overrun_cost` once per position and order (verify and execute share it)."""
    key = f"europa.overrun_cost.{cmd.player}.{cmd.args!r}"
    hit = ctx.cache.get(key)
    if hit is not None and hit[0] is state:
        priced: dict[str, Any] = hit[1]
        return priced
    priced = overrun_cost(ctx, state, cmd)
    ctx.cache[key] = (state, priced)
    return priced


def verify_overrun(ctx: Context, state: JSON, cmd: Command) -> None:
    priced = _priced_overrun(ctx, state, cmd)
    verify_attack(ctx, state, _attack_cmd(cmd, priced))


def execute_overrun(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    priced = _priced_overrun(ctx, state, cmd)
    combat = execute_attack(ctx, state, _attack_cmd(cmd, priced), dice)
    declared = Event("overrun_declared", {"key": _key(state), "player": cmd.player, **priced,
                                          "number": combat[0].data["number"],
                                          "exploitation": _phase_name(ctx, state)
                                          == "exploitation"})
    return [declared, *combat]


def fold_overrun_declared(state: JSON, ev: Event) -> JSON:
    s = state
    d = ev.data
    slot = copy_state(_overrun_slot(s)) if s.get("overrun", {}).get("key") == d["key"] else {
        "key": d["key"], "units": [], "hexes": [], "pending": None}
    slot["units"] += d["units"]
    slot["hexes"].append(d["target"])
    slot["pending"] = {"number": d["number"], "units": d["units"], "target": d["target"],
                       "from": d["from"]}
    s["overrun"] = slot
    for uid, cost in d["mp"].items():
        s["units"][uid]["mp_spent"] += cost
        if d.get("exploitation"):  # EUR-33: it moved in the exploitation phase
            s["units"][uid]["exploited_turn"] = int(s["turn"])
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
    s = state
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


__all__ = ["AIR_COMMANDS", "EXTRA_COMMANDS", "ISOLATION_STREAM", "europa_config",
           "fite_surprise_turn", "initial_replacements", "revised_sequence", "settle_overrun"]
