"""Revised Third Reich as an engine rule system (``third_reich``): options drive the phases.

Importing this module registers the :class:`~grognard.engine.system.RuleSystem` named
``third_reich``. Its default sequence (:func:`default_sequence`) is, for each side in the
scenario's order (TR-01), the phases of :class:`~grognard.third_reich.turn.sequence.Phase` (the
Year Start phase only in the first side's turn). ``state["phase"]`` is a pointer the folds
advance: ``end_phase`` skips the phases the side's declared options do not use
(:func:`~grognard.third_reich.turn.sequence.player_turn`; the Year Start outside Spring), so the
engine's one-acting-player-per-phase check holds. ``state["turn"]`` is the campaign turn
(TR-04: turn 1 = Fall 1939); ``state["economy"]`` the BRP ledger
(:class:`~grognard.third_reich.economy.economy.Economy` JSON, exact values as strings).

Commands and events: docs/formats/tr_engine.md. Scenario extras (a ``[third_reich]`` table
read from the scenario text): ``sides`` (power -> side), ``control`` (side -> countries it
holds at the start), ``front_weather`` (front -> 3R weather region). Fronts are the map's
``region`` names ``western``/``eastern``/``southern`` (a hex of any other region is on the
western front); weather regions come from the map's ``weather_zone``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.engine import generic
from grognard.engine.commands import Command, CommandSpec
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.phases import Phase as EnginePhase
from grognard.engine.phases import TurnSequence
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON
from grognard.engine.system import RuleSystem, register_system
from grognard.engine.views import hide_secrets
from grognard.third_reich.conquest.campaign import third_reich_extras
from grognard.third_reich.economy.builds import Basket, buy, verify_purchase
from grognard.third_reich.economy.economy import (
    Economy,
    at_turn,
    begin_player_turn,
    new_campaign,
    spend,
    verify_spend,
)
from grognard.third_reich.economy.economy import declare_war as econ_declare_war
from grognard.third_reich.economy.year_start import (
    YearStartRecord,
    verify_year_start,
    year_start,
)
from grognard.third_reich.play.legal import idle_phase, with_legal
from grognard.third_reich.play.referee import (
    REACTIONS,
    decisions,
    fold_reaction_made,
    fold_reaction_owed,
    phase_prompt,
    reacting,
    reaction_spec,
)
from grognard.third_reich.play.system_air import (
    execute_air_stage,
    execute_airdrop,
    fold_air_staged,
    fold_airdropped,
    verify_air_stage,
    verify_airdrop,
)
from grognard.third_reich.play.system_amphibious import execute_invade, fold_invaded, verify_invade
from grognard.third_reich.play.system_attack import (
    execute_attack,
    execute_retreat,
    fold_battle_resolved,
    fold_retreated,
    legal_retreat,
    verify_attack,
    verify_retreat,
)
from grognard.third_reich.play.system_attrition import (
    execute_attrition,
    execute_save_attrition_losses,
    execute_take_hexes,
    execute_withdraw,
    fold_attrition_losses_saved,
    fold_attrition_resolved,
    fold_hexes_taken,
    fold_withdrawn,
    verify_attrition,
    verify_save_attrition_losses,
    verify_take_hexes,
    verify_withdraw,
)
from grognard.third_reich.play.system_campaign import (
    add_campaign_state,
    game_over,
    install,
    turn_label,
)
from grognard.third_reich.play.system_common import (
    AXIS_POWERS,
    NAME,
    _econ,
    _eliminate,
    _phase,
    _sequence,
    _side_powers,
    bridgehead_removals,
    current_facts,
    position_cached,
    side_supply_check,
    unit_power,
)
from grognard.third_reich.play.system_common import _forces as _forces  # re-export
from grognard.third_reich.play.system_common import _front_mask as _front_mask  # re-export
from grognard.third_reich.play.system_common import _ground_unit as _ground_unit  # re-export
from grognard.third_reich.play.system_counter_air import (
    execute_counter_air,
    fold_counter_air_flown,
    verify_counter_air,
)
from grognard.third_reich.play.system_moves import (
    execute_move,
    fold_sr_made,
    fold_unit_moved,
    verify_move,
)
from grognard.third_reich.play.system_murmansk import (
    execute_murmansk_commit,
    execute_murmansk_escort,
    execute_murmansk_ship,
    fold_murmansk_committed,
    fold_murmansk_escorted,
    fold_murmansk_receipt,
    fold_murmansk_resolved,
    fold_murmansk_shipped,
    murmansk_event_view,
    murmansk_receipt,
    verify_murmansk_commit,
    verify_murmansk_escort,
    verify_murmansk_ship,
)
from grognard.third_reich.play.system_naval import (
    execute_naval_transport,
    fold_naval_transported,
    verify_naval_transport,
)
from grognard.third_reich.play.system_sr_air import execute_sr_any, verify_sr_any
from grognard.third_reich.play.system_sr_sea import fold_sea_sr_made
from grognard.third_reich.play.system_sw import initial_sw_boxes
from grognard.third_reich.play.system_sw import install as sw_install
from grognard.third_reich.play.system_sw_units import install as sw_units_install
from grognard.third_reich.strategic.strategic_readings import StrategicReadings
from grognard.third_reich.supply.isolation import isolation_table
from grognard.third_reich.supply.supply_map import (
    city_control,
)
from grognard.third_reich.turn.calendar import (
    LAST_TURN,
    WEATHER_TABLE_ID,
    Region,
    Season,
    date_of,
    weather,
)
from grognard.third_reich.turn.options import (
    Front,
    dow_cost,
    options_cost,
    parse_front,
    parse_option,
)
from grognard.third_reich.turn.powers import Power
from grognard.third_reich.turn.sequence import Phase, player_turn

#: Engine commands allowed in each 3R phase (``end_phase`` is always allowed).
PHASE_COMMANDS: Mapping[Phase, tuple[str, ...]] = {
    Phase.YEAR_START: ("year_start",),
    Phase.DECLARE_OPTIONS: ("declare_options", "declare_war", "lend_lease", "open_iran_route",
                            "murmansk_ship"),
    Phase.MOVEMENT: ("move", "air_stage", "airdrop", "naval_transport", "invade"),
    Phase.AIR_MISSIONS: ("counter_air",),
    Phase.INTERCEPTION: (),
    Phase.COMBAT: ("attack",),
    Phase.MECH_MOVEMENT: ("move",),
    Phase.MECH_COMBAT: ("attack",),
    Phase.ATTRITION: ("attrition", "take_hexes", "withdraw", "save_attrition_losses"),
    Phase.SUPPLY: ("supply_check",),
    Phase.BUILD: ("build", "build_unit", "sw_build"),
    Phase.STRATEGIC_DEPLOYMENT: ("sr",),
    # TR-20: murmansk_commit / murmansk_escort are owed as decisions (system_murmansk); the
    # strategic warfare rounds (system_sw) are commands of this phase
    Phase.STRATEGIC_WARFARE: ("sw_uboats", "sw_bombing"),
}


# --- scenario extras -----------------------------------------------------------------------


def _extras(scenario: Scenario) -> Mapping[str, Any]:
    tr = third_reich_extras(scenario)
    if not isinstance(tr, dict):
        raise InputError("third_reich", "must be a table")
    return tr


def _power_sides(scenario: Scenario) -> dict[str, str]:
    sides = scenario.sides
    default = "allies" if "allies" in sides else sides[-1]
    out = {p.value: default for p in Power}
    for p in AXIS_POWERS:
        out[p] = "axis" if "axis" in sides else sides[0]
    if "ussr" in sides:
        out["ussr"] = "ussr"
    for pl in scenario.placements:
        out.setdefault(unit_power(pl.unit.nationality), pl.unit.side)
    given = _extras(scenario).get("sides", {})
    for power, side in given.items():
        if side not in sides:
            raise InputError(f"third_reich.sides.{power}", f"unknown side {side!r}")
        out[str(power)] = str(side)
    return out


def _country_sides(scenario: Scenario, power_sides: Mapping[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for power, countries in scenario.home_countries.items():
        for c in countries:
            out[c] = power_sides.get(power, scenario.sides[0])
    for side, countries in _extras(scenario).get("control", {}).items():
        if side not in scenario.sides:
            raise InputError(f"third_reich.control.{side}", f"unknown side {side!r}")
        for c in countries:
            out[str(c)] = str(side)
    return out


def default_sequence(scenario: Scenario) -> TurnSequence:
    """TR-01/TR-02: every 3R phase for each side in turn order (Year Start: first side only)."""
    phases = []
    for k, side in enumerate(scenario.sides):
        for ph in Phase:
            if ph is Phase.YEAR_START and k > 0:
                continue
            phases.append(EnginePhase(ph.value, side, frozenset(PHASE_COMMANDS[ph])))
    return TurnSequence(tuple(phases))


def _used(state: JSON, ctx: Context, side: str) -> set[str]:
    """TR-02: the phases ``side`` plays this turn, from its declared options."""
    opts = {f: v["option"] for f, v in state["options"].get(side, {}).items()}
    fronts = opts or {f.value: "pass" for f in Front}
    wx = {f: weather(Region(state["front_weather"].get(f, "europe")), state["turn"]).value
          for f in fronts}
    turn = player_turn(fronts, wx, date_of(state["turn"]).season).unified()
    return {p.value for p in turn}


def _next_position(state: JSON, ctx: Context) -> tuple[int, int]:
    """Where ``end_phase`` leads: the next phase the side's options use (TR-02) in which its
    player has something to do besides ending it (issue 11: idle phases are passed over;
    never past the end of the game turn). Once per position."""
    return position_cached(ctx, state, "tr.next_position", lambda: _next_busy(state, ctx))


def _next_busy(state: JSON, ctx: Context) -> tuple[int, int]:
    idx, turn = _next_used(state, ctx, int(state["phase"]), int(state["turn"]))
    while turn == state["turn"] and idle_phase(ctx, state, idx, COMMANDS):
        nxt = _next_used(state, ctx, idx, turn)
        if nxt[1] != turn:
            return nxt
        idx = nxt[0]
    return idx, turn


def _next_used(state: JSON, ctx: Context, idx: int, turn: int) -> tuple[int, int]:
    seq = _sequence(ctx)
    while True:
        idx, turn = seq.next_position(idx, turn)
        phase = seq.phases[idx]
        if turn != state["turn"]:
            return _first_phase(seq, turn), turn
        used = _used(state, ctx, phase.player)
        if phase.name == Phase.YEAR_START.value:
            continue
        if phase.name in used or phase.name not in {p.value for p in Phase}:
            return idx, turn


def _first_phase(seq: TurnSequence, turn: int) -> int:
    spring = date_of(turn).season is Season.SPRING
    for i, p in enumerate(seq.phases):
        if p.name == Phase.YEAR_START.value and not spring:
            continue
        return i
    return 0  # pragma: no cover


# --- state ---------------------------------------------------------------------------------------


def strategic_readings(scenario: Scenario) -> StrategicReadings:
    """The scenario's ``[readings]`` that are strategic readings (``murmansk_timing`` ...): the
    economy keeps them, so folds and rules read the same values."""
    names = {f.name for f in dataclasses.fields(StrategicReadings)}
    return StrategicReadings.from_mapping({k: v for k, v in scenario.readings.items()
                                           if k in names})


def initial_state(scenario: Scenario) -> JSON:
    """The generic start state plus the 3R economy, calendar, sides, control and options."""
    s = generic.initial_state(scenario)
    cal = scenario.calendar
    turn = int(cal.get("turn", 1))
    date_of(turn)
    ps = _power_sides(scenario)
    for u in s["units"].values():
        u["power"] = unit_power(u["nationality"])
    econ = at_turn(new_campaign(readings=strategic_readings(scenario)), turn)
    extras = _extras(scenario)
    s.update({
        "system": NAME,
        "turn": turn,
        "economy": econ.to_json(),
        "power_sides": ps,
        "control": city_control(scenario.map, _country_sides(scenario, ps)),
        "front_weather": {str(k): str(v) for k, v in extras.get("front_weather", {}).items()},
        "options": {},
        "options_powers": {},
        "built": {},
        "wars": [],
        "dow_minor_paid": {},
        "attacked": [],
        "attacked_hexes": [],
        "attrition_done": [],
        "pending_hexes": None,
        "pending_withdrawal": None,
        "air_used": [],
        "moved": [],
        "air_landed": [],
        "fleet_ops": {},
        "sr": {},
        "fleets_used": [],
        "attrition_losses": [],
        "saved": {},
        "supply_checked": False,
        "battles": [],
        "bridgeheads": [],
        "murmansk": None,
        "sw_boxes": initial_sw_boxes(extras.get("sw_boxes")),
        "sw_fought": {},
    })
    seq = default_sequence(scenario) if not scenario.sequence_given else scenario.sequence
    s["phase"] = _first_phase(seq, turn)
    return add_campaign_state(scenario, s)


# --- end_phase --------------------------------------------------------------------------------


def verify_end_phase(ctx: Context, state: JSON, cmd: Command) -> None:
    if _phase(ctx, state) == Phase.YEAR_START.value:
        try:
            verify_year_start(_econ(state))
        except IllegalOrder:
            pass  # done already
        else:
            raise IllegalOrder("TR-09", "run the Year Start before ending its phase")
    if state.get("pending_withdrawal"):
        raise IllegalOrder("TR-40", "the defender must withdraw from the hexes taken first")
    if state.get("pending_hexes"):
        raise IllegalOrder("TR-40", "name the hexes won by attrition first (take_hexes)")
    _, turn = _next_position(state, ctx)
    if turn > LAST_TURN:
        raise IllegalOrder("TR-04", "the campaign ends after Summer I 1945 (turn 29)")


def execute_end_phase(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    phase, turn = _next_position(state, ctx)
    data: dict[str, Any] = {"from": {"turn": state["turn"], "phase": state["phase"]},
                            "to": {"turn": turn, "phase": phase}}
    seq = _sequence(ctx)
    new_player = turn != state["turn"] or \
        seq.phases[phase].player != seq.phases[int(state["phase"])].player
    if new_player and (state.get("neutralized") or state.get("counter_air")):
        data["player_turn_ended"] = True  # TR-44: neutralised air flips back
    removed = bridgehead_removals(ctx, state, seq.phases[phase].player) if new_player else {}
    if removed:
        data["bridgeheads_removed"] = removed  # TR-63: unthreatened bridgeheads go
    received = murmansk_receipt(state, seq.phases[phase].player, turn) if new_player else 0
    if received:
        data["murmansk_received"] = received  # TR-20: held Murmansk BRPs reach the USSR
    return [Event("phase_ended", data)]


def fold_phase_ended(state: JSON, ev: Event) -> JSON:
    new_turn = ev.data["to"]["turn"] != ev.data["from"]["turn"]
    s = generic.fold_phase_ended(state, ev)
    s["attacked"], s["attacked_hexes"], s["moved"] = [], [], []
    if ev.data.get("player_turn_ended"):
        s.pop("neutralized", None)
        s.pop("counter_air", None)
    gone = ev.data.get("bridgeheads_removed", {})
    if gone:
        owners = {p: [h for h in hs if h not in gone.get(p, [])]
                  for p, hs in state["bridgehead_owners"].items()}
        s["bridgehead_owners"] = {p: hs for p, hs in owners.items() if hs}
        s["bridgeheads"] = sorted(h for hs in s["bridgehead_owners"].values() for h in hs)
    if new_turn:
        econ = at_turn(_econ(s), s["turn"])
        s["economy"] = econ.to_json()
        s["options"], s["built"], s["attrition_done"] = {}, {}, []
        s["options_powers"] = {}
        s["pending_hexes"], s["supply_checked"] = None, False
        s["attrition_losses"], s["saved"] = [], {}
        s["air_used"], s["fleets_used"], s["sr"], s["air_landed"] = [], [], {}, []
        s["fleet_ops"] = {}
        s.pop("invaded", None)
        s.pop("invaded_hexes", None)
    elif ev.data["from"]["phase"] != ev.data["to"]["phase"]:
        s["supply_checked"] = False
    if ev.data.get("murmansk_received"):
        fold_murmansk_receipt(s)
    return s


# --- declare_options / declare_war --------------------------------------------------------------


def _options_arg(cmd: Command) -> dict[str, str]:
    raw = cmd.args.get("options")
    if raw is None:
        raw = {k: v for k, v in cmd.args.items() if k != "power"}
    if not isinstance(raw, dict) or not raw:
        raise InputError("args.options", "give {front: option} for one or more fronts")
    return {parse_front(f).value: parse_option(str(o)).value for f, o in raw.items()}


def _payer(state: JSON, cmd: Command) -> str:
    powers = _side_powers(state, cmd.player)
    econ_powers = {p.value for p in _econ(state).powers}
    power = cmd.args.get("power")
    if power is None:
        payable = [p for p in powers if p in econ_powers]
        if not payable:
            raise IllegalOrder("TR-03", f"{cmd.player} has no power with a BRP economy")
        return payable[0]
    if not isinstance(power, str) or power not in powers:
        raise IllegalOrder("TR-01", f"{power!r} is not a power of {cmd.player}")
    if power not in econ_powers:
        raise IllegalOrder("TR-03", f"{power} has no BRP economy in this game")
    return power


def _open_turn(econ: Economy, state: JSON, side: str) -> Economy:
    for p in _side_powers(state, side):
        if p in {x.value for x in econ.powers}:
            econ = begin_player_turn(econ, p)
    return econ


def verify_declare_options(ctx: Context, state: JSON, cmd: Command) -> None:
    opts = _options_arg(cmd)
    power = _payer(state, cmd)
    if power in state.get("options_powers", {}):
        raise IllegalOrder("TR-03", f"{power} has already declared its options this turn")
    econ = _econ(state) if cmd.player in state["options"] else \
        _open_turn(_econ(state), state, cmd.player)
    cost = options_cost(opts, econ.year)
    verify_spend(econ, power, cost, "TR-03")


def execute_declare_options(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    opts = _options_arg(cmd)
    power = _payer(state, cmd)
    cost = options_cost(opts, _econ(state).year)
    return [Event("options_declared", {"side": cmd.player, "power": power, "options": opts,
                                       "cost": cost})]


def fold_options_declared(state: JSON, ev: Event) -> JSON:
    s = state
    d = ev.data
    econ = _econ(state) if d["side"] in state["options"] else \
        _open_turn(_econ(state), state, d["side"])
    cause = ", ".join(f"{f} {o}" for f, o in sorted(d["options"].items()))
    econ, _ = spend(econ, d["power"], d["cost"], "TR-03", f"options: {cause}", build=False)
    s["economy"] = econ.to_json()
    # TR-03: each power picks its own option per front; the side plays a front's phases by
    # the widest option any of its powers took there (offensive > attrition > pass).
    side = s["options"].setdefault(d["side"], {})
    for f, o in d["options"].items():
        had = side.get(f)
        if had is None or OPTION_RANK[o] > OPTION_RANK[had["option"]]:
            side[f] = {"option": o, "power": d["power"]}
    s.setdefault("options_powers", {})[d["power"]] = dict(d["options"])
    return s


OPTION_RANK = {"pass": 0, "attrition": 1, "offensive": 2}


def _dow_args(cmd: Command) -> tuple[list[str], list[str]]:
    minors, majors = cmd.args.get("minors", []), cmd.args.get("majors", [])
    for name, v in (("minors", minors), ("majors", majors)):
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise InputError(f"args.{name}", "a list of country names")
    if not minors and not majors:
        raise InputError("args", "declare war on at least one minor or major")
    for m in majors:
        if m not in {p.value for p in Power}:
            raise InputError("args.majors", f"{m!r} is not a major power")
    return list(minors), list(majors)


def _dow_cost(state: JSON, power: str, minors: list[str], majors: list[str]) -> int:
    paid = state["dow_minor_paid"].get(power) == state["turn"]
    return dow_cost(len(minors), len(majors), paid)


def verify_declare_war(ctx: Context, state: JSON, cmd: Command) -> None:
    minors, majors = _dow_args(cmd)
    power = _payer(state, cmd)
    mine = set(_side_powers(state, cmd.player))
    for t in minors + majors:
        if t in mine:
            raise IllegalOrder("TR-25", f"{t} is on {cmd.player}'s own side")
        if any(w["target"] == t and w["power"] == power for w in state["wars"]):
            raise IllegalOrder("TR-25", f"{power} is already at war with {t}")
    econ = _open_turn(_econ(state), state, cmd.player) if cmd.player not in state["options"] \
        else _econ(state)
    verify_spend(econ, power, _dow_cost(state, power, minors, majors), "TR-25")


def execute_declare_war(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    minors, majors = _dow_args(cmd)
    power = _payer(state, cmd)
    return [Event("war_declared", {"side": cmd.player, "power": power, "minors": minors,
                                   "majors": majors,
                                   "cost": _dow_cost(state, power, minors, majors)})]


def fold_war_declared(state: JSON, ev: Event) -> JSON:
    s = state
    d = ev.data
    econ = _econ(state)
    if d["side"] not in state["options"]:
        econ = _open_turn(econ, state, d["side"])
    targets = ", ".join(d["minors"] + d["majors"])
    econ, _ = spend(econ, d["power"], d["cost"], "TR-25", f"{d['power']} declares war on "
                    f"{targets}", build=False)
    econ = econ_declare_war(econ, d["power"], on_germany="germany" in d["majors"])
    if d["power"] == "germany":
        for m in d["majors"]:
            econ = econ_declare_war(econ, m, on_germany=True)
    if d["minors"]:
        s["dow_minor_paid"][d["power"]] = state["turn"]
    s["wars"] = [*state["wars"], *({"power": d["power"], "target": t, "turn": state["turn"]}
                                   for t in d["minors"] + d["majors"])]
    s["economy"] = econ.to_json()
    return s


# --- build ------------------------------------------------------------------------------------------

BASKET_FIELDS = ("infantry_factors", "armor_factors", "air_factors", "airborne_factors",
                 "naval_fleets", "replacements")


def _basket(cmd: Command) -> Basket:
    vals = {}
    for f in BASKET_FIELDS:
        v = cmd.args.get(f, 0)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError(f"args.{f}", f"a whole number >= 0, not {v!r}")
        vals[f] = v
    if not any(vals.values()):
        raise InputError("args", f"buy something ({', '.join(BASKET_FIELDS)})")
    return Basket(**vals)


def _turn_basket(state: JSON, power: str, add: Basket) -> Basket:
    before = state["built"].get(power, {})
    return Basket(**{f: int(before.get(f, 0)) + getattr(add, f) for f in BASKET_FIELDS})


def verify_build(ctx: Context, state: JSON, cmd: Command) -> None:
    basket = _basket(cmd)
    power = _payer(state, cmd)
    econ = _econ(state)
    verify_purchase(power, econ.year, _turn_basket(state, power, basket))
    buy(econ, power, basket)


def execute_build(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    basket = _basket(cmd)
    return [Event("units_bought", {"power": _payer(state, cmd),
                                   "basket": {f: getattr(basket, f) for f in BASKET_FIELDS},
                                   "cost": basket.cost()})]


def fold_units_bought(state: JSON, ev: Event) -> JSON:
    s = state
    basket = Basket(**ev.data["basket"])
    econ, _ = buy(_econ(state), ev.data["power"], basket)
    s["economy"] = econ.to_json()
    total = _turn_basket(state, ev.data["power"], basket)
    s["built"][ev.data["power"]] = {f: getattr(total, f) for f in BASKET_FIELDS}
    return s


# --- year_start -------------------------------------------------------------------------------------


def verify_year_start_cmd(ctx: Context, state: JSON, cmd: Command) -> None:
    verify_year_start(_econ(state))


def execute_year_start(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    _, rec = year_start(_econ(state))
    return [Event("year_started", {"record": rec.to_json(), "rules": year_start_rules(rec)})]


def year_start_rules(rec: YearStartRecord) -> list[str]:
    """The Year Start rules one record applied (named in the event, so docs/FEATURES.md
    counts a rule as played only when a game used it): the special Spring 1940 Year Start
    (TR-07) or the regular sequence (TR-09) with growth (TR-10) when a power saved BRPs;
    USSR city losses (TR-12), SW hits (TR-13), the SW limits (TR-80), forced fleet
    conversions (TR-81)."""
    if rec.special_1940:
        rules = {"TR-07"}
    else:
        rules = {"TR-09", "TR-80"}
        if any(p.growth for p in rec.powers):
            rules.add("TR-10")
        if any(p.ussr_cities for p in rec.powers):
            rules.add("TR-12")
        if any(p.sw_hits for p in rec.powers):
            rules.add("TR-13")
        if any(p.fleet_conversion for p in rec.powers):
            rules.add("TR-81")
    return sorted(rules)


def fold_year_started(state: JSON, ev: Event) -> JSON:
    s = state
    econ, _ = year_start(_econ(state))
    s["economy"] = econ.to_json()
    return s


# --- supply_check -----------------------------------------------------------------------------------


def _check(ctx: Context, state: JSON, side: str) -> Any:
    return side_supply_check(ctx, state, side)


def verify_supply_check(ctx: Context, state: JSON, cmd: Command) -> None:
    if state["supply_checked"]:
        raise IllegalOrder("TR-72", "the supply check of this phase is done")
    breakout = cmd.args.get("breakout", [])
    if not isinstance(breakout, list) or not all(isinstance(x, str) for x in breakout):
        raise InputError("args.breakout", "list the hexes whose units break out")
    out_hexes = {h.hex for h in _check(ctx, state, cmd.player).hexes}
    for h in breakout:
        if h not in out_hexes:
            raise IllegalOrder("TR-72", f"{h} holds no out-of-supply unit of {cmd.player}")


def execute_supply_check(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    chk = _check(ctx, state, cmd.player)
    breakout = set(cmd.args.get("breakout", []))
    stream = dice.stream("third_reich.isolation")
    rolls, eliminated, broke = [], [], []
    for h in chk.hexes:
        if h.hex in breakout:
            broke += h.units
            continue
        r = stream.roll("2d6")
        rec = h.roll(r.total, isolation_table(ctx.tables),
                     weather_table=ctx.tables.get(WEATHER_TABLE_ID))
        rolls.append({"hex": h.hex, "dice": list(r.dice), **rec.to_json()})
        if rec.eliminated:
            eliminated += h.units
    return [Event("supply_checked", {**chk.to_json(), "breakout": sorted(broke),
                                     "rolls": rolls, "eliminated": sorted(eliminated)})]


def fold_supply_checked(state: JSON, ev: Event) -> JSON:
    s = state
    d = ev.data
    _eliminate(s, list(d["breakout"]) + list(d["eliminated"]))
    for uid, u in s["units"].items():
        if u["side"] == d["side"] and u["status"] == "active" and u["hex"] is not None:
            u["supply"] = "out" if uid in d["out_of_supply"] else "in"
    s["supply_checked"] = True
    return s


def view(state: JSON, player: str) -> JSON:
    """C-HIDDEN: other players' secrets (the Murmansk U-boat count) and face-down units go."""
    return hide_secrets(state, player)


view.secrets_only = True  # type: ignore[attr-defined]  # exactly hide_secrets: bots share it


COMMANDS: Mapping[str, CommandSpec] = {
    "move": CommandSpec("move", verify_move, execute_move,
                        "TR-27/TR-28 Move a ground unit along a path (3R costs and ZOCs).",
                        {"unit": "ge-inf2", "path": ["B6"]}),
    "air_stage": CommandSpec("air_stage", verify_air_stage, execute_air_stage,
                             "TR-29 Stage an air unit city to city within 2x its range.",
                             {"unit": "ge-air2", "to": "C11"}),
    "airdrop": CommandSpec("airdrop", verify_airdrop, execute_airdrop,
                           "TR-51 Air-land an airborne unit (escorts/interceptors fight; 1D10s "
                           "from third_reich.airborne).",
                           {"unit": "ge-para1", "to": "B9", "escorts": ["ge-air2"]}),
    "naval_transport": CommandSpec(
        "naval_transport", verify_naval_transport, execute_naval_transport,
        "TR-57 Carry ground units port to port in one zone (interception TR-55/56; dice from "
        "third_reich.naval).", {"fleets": ["ge-fleet2"], "units": ["ge-inf5"], "to": "F5"}),
    "invade": CommandSpec(
        "invade", verify_invade, execute_invade,
        "TR-61..TR-63 Amphibious invasion of a beach from offshore hexes (interception, CRT with "
        "the amphibious shift, bridgehead; dice from third_reich.invasion).",
        {"beach": "F4", "groups": [{"hex": "G4", "fleets": ["ge-fleet2"],
                                    "cargo": {"ge-fleet2": ["ge-inf5"]}}]}),
    "counter_air": CommandSpec(
        "counter_air", verify_counter_air, execute_counter_air,
        "TR-44 Counter air: one air-to-air round (1D10s from third_reich.counter_air), then as "
        "many enemy air factors neutralised as were sent.", {"air": ["ge-air2"], "target": "C11"}),
    "sr": CommandSpec("sr", verify_sr_any, execute_sr_any,
                      "TR-66..TR-70 Strategic redeployment by land, sea (kind=sea: escorts, "
                      "interception from third_reich.sea_sr), a fleet's own (kind=fleet) or "
                      "TR-53 an airborne unit's air-landing SR (kind=air_landing).",
                      {"unit": "ge-inf2", "to": "C7"}),
    "end_phase": CommandSpec("end_phase", verify_end_phase, execute_end_phase,
                             "TR-02 End the phase (skips phases the options do not use)."),
    "declare_options": CommandSpec("declare_options", verify_declare_options,
                                   execute_declare_options,
                                   "TR-03 Declare an option per front (cost to the ledger).",
                                   {"power": "germany", "options": {"eastern": "offensive"}}),
    "declare_war": CommandSpec("declare_war", verify_declare_war, execute_declare_war,
                               "TR-25 Declare war on minors (5) or majors (15 each).",
                               {"power": "germany", "minors": ["poland"]}),
    "build": CommandSpec("build", verify_build, execute_build,
                         "TR-31/TR-75 Buy units (half-of-total cap, purchase caps).",
                         {"power": "germany", "infantry_factors": 3}),
    "year_start": CommandSpec("year_start", verify_year_start_cmd, execute_year_start,
                              "TR-07..TR-13 Run the Spring Year Start."),
    "attack": CommandSpec("attack", verify_attack, execute_attack,
                          "TR-32..TR-36 Land attack on a hex (2D6 from third_reich.combat).",
                          {"hex": "C9", "attackers": ["ge-arm1"]}),
    "attrition": CommandSpec("attrition", verify_attrition, execute_attrition,
                             "TR-38/TR-39 Attrition on a front (2D6 from third_reich.attrition).",
                             {"front": "western"}),
    "take_hexes": CommandSpec("take_hexes", verify_take_hexes, execute_take_hexes,
                              "TR-40 Name the hexes an HN result wins.", {"hexes": ["D4"]}),
    "withdraw": CommandSpec("withdraw", verify_withdraw, execute_withdraw,
                            "TR-40 The defender's retreat hex (or null: removal) per unit in "
                            "the hexes taken; then the named attackers advance.",
                            {"retreats": {"fr-inf1": "D3"}}),
    "save_attrition_losses": CommandSpec(
        "save_attrition_losses", verify_save_attrition_losses, execute_save_attrition_losses,
        "TR-41 Swap units removed by attrition for friendly replacements (cost - 4 BRPs).",
        {"saves": {"ge-inf1": "ge-rep1"}}),
    "supply_check": CommandSpec("supply_check", verify_supply_check, execute_supply_check,
                                "TR-72/TR-73 Supply check and isolation rolls.",
                                {"breakout": []}),
    "murmansk_commit": CommandSpec("murmansk_commit", verify_murmansk_commit,
                                   execute_murmansk_commit,
                                   "TR-20 Germany commits to the Murmansk box (U-boats hidden).",
                                   {"subs": 6}),
    "murmansk_ship": CommandSpec("murmansk_ship", verify_murmansk_ship, execute_murmansk_ship,
                                 "TR-19/TR-20 The UK or US places 20 lend-lease BRPs in the "
                                 "Murmansk box (before Germany commits).", {"sender": "uk"}),
    "murmansk_escort": CommandSpec("murmansk_escort", verify_murmansk_escort,
                                   execute_murmansk_escort,
                                   "TR-20/TR-21 The Allies commit escorts; the box combat "
                                   "follows (1D10s from third_reich.murmansk).",
                                   {"naval": 9, "asw": 2}),
}

#: The folds as written (the ledger postings kept); the system folds through current_facts.
FOLDS: Mapping[str, Fold] = {
    "unit_moved": fold_unit_moved,
    "sr_made": fold_sr_made,
    "sea_sr_made": fold_sea_sr_made,
    "counter_air_flown": fold_counter_air_flown,
    "invaded": fold_invaded,
    "naval_transported": fold_naval_transported,
    "air_staged": fold_air_staged,
    "airdropped": fold_airdropped,
    "phase_ended": fold_phase_ended,
    "options_declared": fold_options_declared,
    "war_declared": fold_war_declared,
    "units_bought": fold_units_bought,
    "year_started": fold_year_started,
    "battle_resolved": fold_battle_resolved,
    "attrition_resolved": fold_attrition_resolved,
    "hexes_taken": fold_hexes_taken,
    "withdrawn": fold_withdrawn,
    "attrition_losses_saved": fold_attrition_losses_saved,
    "supply_checked": fold_supply_checked,
    "murmansk_committed": fold_murmansk_committed,
    "murmansk_escorted": fold_murmansk_escorted,
    "murmansk_shipped": fold_murmansk_shipped,
    "murmansk_resolved": fold_murmansk_resolved,
    "reaction_owed": fold_reaction_owed,
    "reaction_made": fold_reaction_made,
    "retreated": fold_retreated,
}
#: The orders as the rules modules check them (the defender's reactions named in the args)
#: and the folds with the campaign around them (ledger postings kept: history.py).
ORDERS, LEDGER_FOLDS = sw_units_install(*sw_install(*install(COMMANDS, FOLDS, _next_position)))
COMMANDS = with_legal({
    **{k: reacting(spec) if k in REACTIONS else spec for k, spec in ORDERS.items()},
    "intercept": reaction_spec(
        "intercept", ORDERS, "TR-51/TR-55..TR-57/TR-61/TR-69 The defender's interception of "
        "the pending order: its fleets/air units (or none).", {"interceptors": ["uk-fleet1"]}),
    "defensive_air": reaction_spec(
        "defensive_air", ORDERS, "TR-35/TR-48 The defender's air units flying defensive "
        "support into the attacked hex (or none).", {"defensive_air": ["fr-air1"]}),
    "retreat": CommandSpec("retreat", verify_retreat, execute_retreat,
                           "TR-32 The defender's retreat hex after a combat result.",
                           {"to": "D3"}, legal=legal_retreat),
})


THIRD_REICH = RuleSystem(
    name=NAME,
    commands=COMMANDS,
    folds={k: current_facts(f) for k, f in LEDGER_FOLDS.items()},
    initial_state=initial_state,
    view=view,
    description="Revised Third Reich: options per front drive the phases; BRP ledger; combat, "
                "attrition, supply and isolation on the map.",
    default_sequence=default_sequence,
    game_over=game_over,
    decisions=decisions,
    event_view=murmansk_event_view,
    phase_prompt=phase_prompt,
    turn_label=turn_label,
)
register_system(THIRD_REICH)

__all__ = ["COMMANDS", "NAME", "THIRD_REICH", "default_sequence", "initial_state", "view"]
