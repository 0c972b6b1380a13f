"""The Europa rule system for the engine (``europa``): revised combat and rule-47 plans as commands.

Importing this module registers the :class:`~grognard.engine.system.RuleSystem` named
``europa`` (``engine.system.PLUGINS`` points here). Commands (documented with their events in
``docs/formats/europa_engine.md``):

* ``move``, ``roll_table``, ``end_phase`` - the generic specs of :mod:`grognard.engine.generic`;
* ``attack`` {attackers, defender_hex, bombardment, series, weather, barrage_target, readings} -
  the ATTACK model is built from the scenario (units in state, map terrain -> the terrain-effects
  table, hexsides crossed from the map), the barrage (stream ``europa.barrage``) and the CRT
  2D6 (stream ``europa.combat``) are rolled and :func:`grognard.europa.combat.crt.resolve_setup`
  gives the result; losses and retreats it demands stay pending in ``state["combat"]``;
* ``allocate_losses`` {side, units} - checked by :func:`grognard.europa.combat.losses.allocate_losses`;
* ``retreat`` {units, path, losses} - one of ``core/retreat``'s legal retreats, ZOC penalties by
  :func:`grognard.europa.combat.retreat.retreat_along`;
* ``designate_surprise``, ``reduce_surprise``, ``move_surprise_centre``, ``delay_surprise``,
  ``start_surprise`` - a rule-47 plan (:mod:`grognard.europa.surprise.plan`) kept in
  ``state["secrets"][player]`` until it starts; the centre hex is checked on the map
  (SUR-07) and the started surprise's front is marked along the front line (SUR-12).

The referee hooks (:mod:`grognard.europa.play.referee`): the side taking a loss allocates it with
its own ``allocate_losses`` and chooses its own ``retreat``; the attacker chooses its
``advance`` into an emptied hex; forced single choices are made by the engine and logged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from grognard.core.dice import Dice, DiceExpr
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import exact_json
from grognard.core.hexgrid import Hex, direction_to, distance
from grognard.core.mapdata import CityClass, Fortification, HexsideFeature
from grognard.core.paths import Forces
from grognard.core.units import GROUND_TYPES, UnitType
from grognard.core.zoc import europa_revised_zoc, zoc_field
from grognard.engine import generic
from grognard.engine.commands import Command, CommandSpec
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.phases import TurnSequence
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON, thaw
from grognard.engine.system import RuleSystem, register_system
from grognard.engine.views import hide_secrets
from grognard.europa.air.commands import AIR_COMMAND_SPECS, AIR_FOLDS
from grognard.europa.combat.attack import (
    Attack,
    Combatant,
    CombatReadings,
    Side,
    attack_from_json,
)
from grognard.europa.combat.bombardment import barrage_strength
from grognard.europa.combat.crt import combat_setup, outcome_json, resolve_setup
from grognard.europa.combat.losses import allocate_losses
from grognard.europa.combat.retreat import Retreat, RetreatLoss, legal_retreats, retreat_along
from grognard.europa.play.referee import (
    ENUMERATORS,
    decisions,
    game_over,
    no_legal,
    phase_prompt,
    turn_label,
    with_engine_choices,
)
from grognard.europa.play.turn import (
    TURN_COMMAND_SPECS,
    TURN_FOLDS,
    initial_replacements,
    revised_sequence,
    settled,
)
from grognard.europa.surprise.front import participant_role
from grognard.europa.surprise.general import PlanKey, SurpriseKind, SurpriseReadings
from grognard.europa.surprise.map import (
    marked_front,
    participation_candidates,
    verify_centre_on_map,
)
from grognard.europa.surprise.orders import run_orders
from grognard.europa.surprise.plan import view as plan_view
from grognard.europa.surprise.turn import fold_effects, surprise_effects, turn_record

NAME = "europa"
COMBAT_STREAM = "europa.combat"
BARRAGE_STREAM = "europa.barrage"

#: The round-1 phase list (initial, movement, combat), kept for scenarios that name it; the
#: default sequence is now the revised turn (``default_sequence``).
SEQUENCE_PHASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("initial", ("designate_surprise", "reduce_surprise", "move_surprise_centre",
                 "delay_surprise", "start_surprise")),
    ("movement", ("move",)),
    ("combat", ("roll_table", "attack", "allocate_losses", "retreat")),
)

_HEXSIDE_NAMES = ((HexsideFeature.MAJOR_RIVER, "major_river"), (HexsideFeature.RIVER, "river"),
                  (HexsideFeature.CANAL, "canal"))
_FROZEN_WEATHER = ("winter",)


def _readings(ctx: Context, kind: type[Any]) -> Any:
    names = {f.name for f in dataclasses.fields(kind)}
    return kind.from_mapping({k: v for k, v in ctx.readings.items() if k in names})


# --- state -------------------------------------------------------------------------------------
def initial_state(scenario: Scenario) -> JSON:
    """The generic state plus what Europa combat needs per unit, and the combat/surprise slots."""
    s = generic.initial_state(scenario)
    for p in scenario.placements:
        u = p.unit
        s["units"][u.id].update({
            "re_size": exact_json(u.re_size), "divisional": u.divisional, "cadre": u.cadre,
            "armor": str(u.armor), "zoc_class": u.zoc_class, "supply": "in"})
    s["combat"] = {"count": 0, "pending": None}
    s["surprise"] = {}
    s["overrun"] = {"key": None, "units": [], "hexes": [], "pending": None}
    s["supply"] = {"checked": None, "attrition": None, "isolated_hexes": {}, "losses": []}
    s["replacements"] = initial_replacements(scenario)
    return s


def _on_map(state: JSON) -> list[tuple[str, JSON]]:
    return [(uid, u) for uid, u in sorted(state["units"].items())
            if u["status"] == "active" and u["hex"] is not None]


def forces_of(ctx: Context, state: JSON) -> Forces:
    """The units on the map as ``core.paths.Forces`` (side, ZOC class, id)."""
    placed = _on_map(state)
    return Forces.build(ctx.scenario.map, [u["hex"] for _, u in placed],
                        [u["side"] for _, u in placed],
                        zoc_class=[int(u.get("zoc_class", 1)) for _, u in placed],
                        ids=[uid for uid, _ in placed], side_names=list(state["sides"]))


def _hex(ctx: Context, label: Any, field: str) -> Hex:
    if not isinstance(label, str):
        raise InputError(field, "a hex label")
    h = ctx.scenario.map.layout.from_label(label)
    if not ctx.scenario.map.has(h):
        raise InputError(field, f"{label} is off the map")
    return h


# --- the attack model --------------------------------------------------------------------------
def _unit_json(uid: str, u: JSON) -> dict[str, Any]:
    return {"id": uid, "attack": u["attack"], "defense": u["defense"], "type": u["type"],
            "armor": u["armor"], "division": u["divisional"], "cadre": u["cadre"],
            "supply": u["supply"], "nationality": u["nationality"], "re_size": u["re_size"]}


def _combatant_json(c: Combatant) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": c.id, "attack": c.attack, "defense": c.defense, "type": str(c.type),
        "armor": str(c.armor), "division": c.division, "cadre": c.cadre,
        "supply": str(c.supply), "nationality": c.nationality, "re_size": exact_json(c.re_size)}
    if c.hexsides is not None:
        out["hexsides"] = list(c.hexsides)
    for f in ("cadre_attack", "cadre_defense"):
        if getattr(c, f) is not None:
            out[f] = getattr(c, f)
    return out


def attack_json(ctx: Context, state: JSON, player: str, args: Mapping[str, Any]
                ) -> dict[str, Any]:
    """EUR-09 The ATTACK.json model of an ``attack`` order, from the scenario: the attackers'
    and defenders' state, the target hex terrain (map terrain = the terrain-effects row),
    fortification and major city, and per attacker the hexside it attacks across."""
    m = ctx.scenario.map
    ids = args.get("attackers")
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        raise IllegalOrder("EUR-09", "attackers must list one or more unit ids")
    if len(set(ids)) != len(ids):
        raise IllegalOrder("EUR-09", "a unit is listed twice among the attackers")
    target = _hex(ctx, args.get("defender_hex"), "defender_hex")
    label = m.layout.to_label(target)
    attackers = []
    for uid in ids:
        u = state["units"].get(uid)
        if u is None:
            raise IllegalOrder("EUR-09", f"no unit {uid!r}")
        if u["side"] != player:
            raise IllegalOrder("EUR-09", f"{uid} belongs to {u['side']}, not {player}")
        if u["status"] != "active" or u["hex"] is None:
            raise IllegalOrder("EUR-09", f"{uid} is not on the map")
        here = m.layout.from_label(u["hex"])
        try:
            direction_to(here, target)
        except InputError:
            raise IllegalOrder("EUR-09", f"{uid} in {u['hex']} is not adjacent to {label}"
                               ) from None
        feats = m.features_between(here, target)
        if feats & (HexsideFeature.SEA | HexsideFeature.IMPASSABLE | HexsideFeature.LAKE):
            raise IllegalOrder("EUR-09", f"{uid} cannot attack across the hexside into {label}")
        frozen = str(args.get("weather", "clear")) in _FROZEN_WEATHER
        sides = [("frozen_" if frozen and name != "canal" else "") + name
                 for flag, name in _HEXSIDE_NAMES if feats & flag]
        attackers.append(dict(_unit_json(uid, u), hexsides=sides))
    defenders = [_unit_json(uid, u) for uid, u in _on_map(state)
                 if u["hex"] == label and u["side"] != player]
    if not defenders:
        raise IllegalOrder("EUR-09", f"no enemy unit in {label}")
    raw: dict[str, Any] = {
        "attackers": attackers, "defenders": defenders,
        "terrain": str(m.terrain_of(target).value),
        "fortified": m.fortification_of(target) is not Fortification.NONE,
        "major_city": any(CityClass.MAJOR_CITY in c.classes for c in m.cities_at(target)),
    }
    for key in ("bombardment", "series", "weather", "barrage_target", "night", "overrun"):
        if key in args:
            raw[key] = args[key]
    readings = dict(_readings(ctx, CombatReadings).to_mapping())
    if "readings" in args:
        if not isinstance(args["readings"], Mapping):
            raise InputError("readings", "must be an object")
        readings.update(args["readings"])
    raw["readings"] = {k: (v.value if hasattr(v, "value") else v) for k, v in readings.items()}
    return raw


def _attack(ctx: Context, raw: Mapping[str, Any]) -> Attack:
    return attack_from_json(raw, ctx.tables)


# --- attack ------------------------------------------------------------------------------------
def attacked_this_phase(state: JSON) -> tuple[set[str], set[str]]:
    """EUR-09 (original Europa) The units that have attacked and the hexes attacked in this
    combat phase: each unit attacks once and each hex is attacked once per combat phase."""
    rec = state["combat"].get("attacked")
    if not isinstance(rec, dict) or rec.get("key") != [int(state["turn"]), int(state["phase"])]:
        return set(), set()
    return set(rec["units"]), set(rec["hexes"])


def verify_attack(ctx: Context, state: JSON, cmd: Command) -> None:
    if state["combat"]["pending"] is not None:
        raise IllegalOrder("EUR-09", "the last combat's losses and retreats are still pending")
    if not cmd.args.get("overrun"):
        units, hexes = attacked_this_phase(state)
        ids = cmd.args.get("attackers")
        for uid in ids if isinstance(ids, list) else []:
            if uid in units:
                raise IllegalOrder("EUR-09", f"{uid} has already attacked this combat phase")
        if cmd.args.get("defender_hex") in hexes:
            raise IllegalOrder("EUR-09", f"{cmd.args.get('defender_hex')} has already been "
                               "attacked this combat phase")
    attack = _attack(ctx, attack_json(ctx, state, cmd.player, cmd.args))
    combat_setup(attack, 7 if barrage_strength(attack) > 0 else None, ctx.tables)


def execute_attack(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    raw = attack_json(ctx, state, cmd.player, cmd.args)
    attack = _attack(ctx, raw)
    barrage_dice: list[int] = []
    barrage_roll = None
    if barrage_strength(attack) > 0:
        r = dice.roll(DiceExpr.parse("2d6"), stream=BARRAGE_STREAM)
        barrage_dice, barrage_roll = list(r.dice), r.total
    setup = combat_setup(attack, barrage_roll, ctx.tables)
    crt_dice: list[int] = []
    roll = 0
    if not setup.hex_cleared and not setup.odds.eliminated:
        r = dice.roll(DiceExpr.parse("2d6"), stream=COMBAT_STREAM)
        crt_dice, roll = list(r.dice), r.total
    outcome = resolve_setup(setup, roll, ctx.tables)
    record = outcome_json(outcome)
    model = dict(raw, defenders=[_combatant_json(c) for c in setup.attack.defenders])
    e = outcome.effect
    attackers = [u.id for u in attack.attackers]
    defenders = [u.id for u in setup.attack.defenders]
    requirements = []
    for side, loss, units in (("attacker", e.attacker_loss, attackers),
                              ("defender", e.defender_loss, defenders)):
        if loss > 0 and not (side == "attacker" and e.attacker_eliminated):
            requirements.append({"side": side, "requirement": exact_json(loss), "units": units})
    retreats = []
    for side, n, units in (("attacker", e.attacker_retreat, attackers),
                           ("defender", e.defender_retreat, defenders)):
        if n:
            retreats.append({"side": side, "hexes": n, "units": units})
    barrage = setup.barrage
    step = None if barrage is None or barrage.step_loss is None else {
        "unit": barrage.step_loss.unit, "action": barrage.step_loss.action}
    return [Event("combat_resolved", {
        "number": state["combat"]["count"] + 1, "player": cmd.player,
        "attackers": attackers,
        "defender_hex": ctx.scenario.map.layout.to_label(_hex(ctx, cmd.args["defender_hex"],
                                                              "defender_hex")),
        "defenders": [u["id"] for u in raw["defenders"]],
        "dice": crt_dice, "barrage_dice": barrage_dice, **record,
        "barrage_step_loss": step,
        "attacker_eliminated_units": attackers if e.attacker_eliminated else [],
        "requirements": requirements, "retreats": retreats,
        "model": model,
    })]


def _eliminate(s: JSON, uid: str) -> None:
    u = s["units"][uid]
    u["status"], u["hex"] = "eliminated", None


def _reduce(s: JSON, uid: str, attack: int, defense: int) -> None:
    u = s["units"][uid]
    u["cadre"], u["attack"], u["defense"] = True, attack, defense


def _drop(pending: JSON, uids: Sequence[str]) -> JSON:
    gone = set(uids)
    for key in ("requirements", "retreats"):
        for item in pending[key]:
            item["units"] = [u for u in item["units"] if u not in gone]
        pending[key] = [i for i in pending[key] if i["units"]]
    return pending


def _settle(s: JSON, pending: JSON) -> JSON:
    """EUR-15 Once a combat's losses and retreats are done: if the defender's hex is empty and
    attackers survive in place, the attacker may advance into it (``pending["advance"]``, the
    attacker's decision; original Europa advance after combat); otherwise the combat is over.
    Overruns never advance (the stack moves on, EUR-18)."""
    if pending is None or pending["requirements"] or pending["retreats"]:
        return pending
    if pending["model"].get("overrun") or "advance" in pending:
        return None
    target = pending["defender_hex"]
    attacker = (pending.get("players") or {}).get("attacker")
    if any(u["hex"] == target and u["status"] == "active" and u["side"] != attacker
           for u in s["units"].values()):
        return None
    units = [uid for uid in pending.get("attackers", [])
             if s["units"][uid]["status"] == "active" and s["units"][uid]["hex"] is not None
             and s["units"][uid]["hex"] != target]
    if not units:
        return None
    pending["advance"] = {"hex": target, "units": units}
    return pending


def fold_combat_resolved(state: JSON, ev: Event) -> JSON:
    s = state
    d = ev.data
    s["combat"]["count"] = d["number"]
    if not d["model"].get("overrun"):  # EUR-33: units that overran may still be rebuilt
        for uid in d["attackers"]:
            s["units"][uid]["attacked_turn"] = int(s["turn"])
        key = [int(s["turn"]), int(s["phase"])]
        rec = s["combat"].get("attacked")
        if not isinstance(rec, dict) or rec.get("key") != key:
            rec = s["combat"]["attacked"] = {"key": key, "units": [], "hexes": []}
        rec["units"] += d["attackers"]
        rec["hexes"].append(d["defender_hex"])
    gone = list(d["attacker_eliminated_units"])
    step = d["barrage_step_loss"]
    if step is not None:
        if step["action"] == "eliminate":
            gone.append(step["unit"])
        else:
            after = next(u for u in d["model"]["defenders"] if u["id"] == step["unit"])
            _reduce(s, step["unit"], after["attack"], after["defense"])
    for uid in gone:
        _eliminate(s, uid)
    defender = s["units"][d["defenders"][0]]["side"] if d["defenders"] else None
    pending = {"number": d["number"], "result": d["result"], "defender_hex": d["defender_hex"],
               "model": d["model"], "requirements": d["requirements"],
               "retreats": d["retreats"], "attackers": list(d["attackers"]),
               "players": {"attacker": d["player"], "defender": defender}}
    s["combat"]["pending"] = _settle(s, _drop(pending, gone))
    return s


# --- allocate_losses ---------------------------------------------------------------------------
def side_player(state: JSON, pending: JSON, side: str) -> str:
    """The player who is the ``side`` ("attacker"/"defender") of the pending combat: the side
    taking a loss picks the units (EUR-12) and chooses its retreat (EUR-15/16)."""
    players = pending.get("players") or {}
    if players.get(side):
        return str(players[side])
    key = "attackers" if side == "attacker" else "defenders"
    return str(state["units"][pending["model"][key][0]["id"]]["side"])


def _requirement(state: JSON, cmd: Command) -> JSON:
    pending = state["combat"]["pending"]
    side = cmd.args.get("side")
    if side is not None and side not in ("attacker", "defender"):
        raise InputError("side", f"attacker or defender, not {side!r}")
    if pending is None:
        raise IllegalOrder("EUR-12", "no combat result is waiting for losses")
    mine = [r for r in pending["requirements"]
            if side_player(state, pending, r["side"]) == cmd.player]
    for req in pending["requirements"]:
        if req["side"] == side or (side is None and req in mine):
            if side_player(state, pending, req["side"]) != cmd.player:
                raise IllegalOrder("EUR-12", f"the {req['side']}'s losses are "
                                   f"{side_player(state, pending, req['side'])}'s to allocate, "
                                   f"not {cmd.player}'s")
            return req
    raise IllegalOrder("EUR-12", f"the {side or cmd.player} has no loss to allocate")


def _allocation(ctx: Context, state: JSON, cmd: Command) -> Any:
    req = _requirement(state, cmd)
    units = cmd.args.get("units")
    if not isinstance(units, list) or not all(isinstance(u, str) for u in units):
        raise InputError("units", "list the unit ids, one per step")
    attack = _attack(ctx, state["combat"]["pending"]["model"])
    for uid in units:
        if uid not in req["units"]:
            raise IllegalOrder("EUR-12", f"{uid} is not one of the {req['side']}'s units "
                               "in this combat that can still take losses")
    return allocate_losses(attack, Side(req["side"]), Fraction(req["requirement"]), units,
                           ctx.tables)


def verify_allocate_losses(ctx: Context, state: JSON, cmd: Command) -> None:
    _allocation(ctx, state, cmd)


def execute_allocate_losses(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    a = _allocation(ctx, state, cmd)
    after = {u.id: u for u in a.units_after}
    touched = list(dict.fromkeys(s.unit for s in a.steps))
    return [Event("losses_allocated", {
        "side": str(a.side), "requirement": exact_json(a.requirement),
        "steps": [{"unit": s.unit, "action": str(s.action), "credit": s.credit,
                   "armor": s.armor} for s in a.steps],
        "credited": a.credited, "excess": exact_json(a.excess),
        "replacements": a.replacements.to_json(),
        "eliminated": [u for u in touched if u not in after],
        "reduced": {u: {"attack": after[u].attack, "defense": after[u].defense}
                    for u in touched if u in after},
    })]


def fold_losses_allocated(state: JSON, ev: Event) -> JSON:
    s = state
    d = ev.data
    for uid, v in d["reduced"].items():
        _reduce(s, uid, v["attack"], v["defense"])
    for uid in d["eliminated"]:
        _eliminate(s, uid)
    pending = s["combat"]["pending"]
    pending["requirements"] = [r for r in pending["requirements"] if r["side"] != d["side"]]
    s["combat"]["pending"] = _settle(s, _drop(pending, d["eliminated"]))
    if s["combat"]["pending"] is not None:
        model = s["combat"]["pending"]["model"]
        for key in ("attackers", "defenders"):
            for u in model[key]:
                if u["id"] in d["reduced"]:
                    u.update(d["reduced"][u["id"]], cadre=True)
    return s


# --- retreat -----------------------------------------------------------------------------------
def _retreat(ctx: Context, state: JSON, cmd: Command) -> tuple[JSON, Any, list[str]]:
    pending = state["combat"]["pending"]
    if pending is None or not pending["retreats"]:
        raise IllegalOrder("EUR-15", "no retreat is pending")
    if pending["requirements"]:
        raise IllegalOrder("EUR-15", "allocate the losses before retreating")
    units, path = cmd.args.get("units"), cmd.args.get("path")
    if not isinstance(units, list) or not units or not all(isinstance(u, str) for u in units):
        raise InputError("units", "list the retreating units")
    if not isinstance(path, list) or not all(isinstance(p, str) for p in path):
        raise InputError("path", "list the hexes entered")
    order = next((r for r in pending["retreats"] if set(units) <= set(r["units"])), None)
    if order is None:
        raise IllegalOrder("EUR-15", f"{', '.join(units)} have no pending retreat")
    owner = side_player(state, pending, order["side"])
    if owner != cmd.player:
        raise IllegalOrder("EUR-15", f"the {order['side']}'s retreat is {owner}'s to choose, "
                           f"not {cmd.player}'s")
    starts = {state["units"][u]["hex"] for u in units}
    if len(starts) != 1:
        raise IllegalOrder("EUR-15", "the units of one retreat order start in one hex")
    start = starts.pop()
    side = state["units"][units[0]]["side"]
    options = retreat_options_from(ctx, state, start, side, order["side"])
    entered = path[1:] if path and path[0] == start else path
    model = pending["model"]
    attack = _attack(ctx, model)
    combatants = [attack.unit(u)[1] for u in units]
    if not options and not entered:
        # EUR-15 (original Europa): a stack that cannot retreat is eliminated.
        return order, Retreat((start,), 0, tuple(RetreatLoss(u, "eliminate") for u in units),
                              ()), units
    chosen = next((o for o in options if list(o.path[1:]) == entered), None)
    if chosen is None:
        legal = "; ".join("-".join(o.path[1:]) for o in options) or "none"
        raise IllegalOrder("EUR-16", f"{'-'.join(path) or 'no path'} is not a legal "
                           f"{order['hexes']}-hex retreat from {start} (legal: {legal})")
    choices = cmd.args.get("losses")
    if choices is not None and (not isinstance(choices, list)
                                or not all(isinstance(c, str) for c in choices)):
        raise InputError("losses", "list the units paying the ZOC penalties")
    return order, retreat_along(combatants, chosen, choices), units


def retreat_options_from(ctx: Context, state: JSON, start: str, side: str, role: str
                         ) -> list[Any]:
    """EUR-15/16 The legal retreats of ``side``'s stack in ``start`` as the ``role`` of the
    pending combat (attacker AR 1 hex, defender DR 2 hexes), cached per position."""
    def make() -> list[Any]:
        zoc = ctx.cached(f"europa.zoc.{side}", lambda: zoc_field(
            ctx.scenario.map, ctx.cached("europa.forces", lambda: forces_of(ctx, state)), side,
            europa_revised_zoc()))
        return legal_retreats(ctx.scenario.map, start, Side(role),
                              "AR" if role == "attacker" else "DR", zoc)
    out: list[Any] = ctx.cached(f"europa.retreats.{side}.{role}.{start}", make)
    return out


def verify_retreat(ctx: Context, state: JSON, cmd: Command) -> None:
    _retreat(ctx, state, cmd)


def execute_retreat(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    order, r, units = _retreat(ctx, state, cmd)
    after = {u.id: u for u in r.units_after}
    return [Event("units_retreated", {
        "side": order["side"], "units": units, "from": state["units"][units[0]]["hex"],
        "path": list(r.path[1:]), "zoc_entered": r.zoc_entered,
        "losses": [{"unit": x.unit, "action": x.action} for x in r.losses],
        "eliminated": [u for u in units if u not in after],
        "reduced": {x.unit: {"attack": after[x.unit].attack, "defense": after[x.unit].defense}
                    for x in r.losses if x.action == "reduce" and x.unit in after},
    })]


def fold_units_retreated(state: JSON, ev: Event) -> JSON:
    s = state
    d = ev.data
    for uid in d["units"]:
        if d["path"]:
            s["units"][uid]["hex"] = d["path"][-1]
    for uid, v in d["reduced"].items():
        _reduce(s, uid, v["attack"], v["defense"])
    for uid in d["eliminated"]:
        _eliminate(s, uid)
    s["combat"]["pending"] = _settle(s, _drop(s["combat"]["pending"], d["units"]))
    return s


# --- advance after combat (EUR-15) -------------------------------------------------------------
def _advance(state: JSON, cmd: Command) -> tuple[JSON, list[str]]:
    pending = state["combat"]["pending"]
    if pending is None or "advance" not in pending:
        raise IllegalOrder("EUR-15", "no advance after combat is open")
    owner = side_player(state, pending, "attacker")
    if owner != cmd.player:
        raise IllegalOrder("EUR-15", f"the advance is {owner}'s to choose, not {cmd.player}'s")
    units = cmd.args.get("units", [])
    if not isinstance(units, list) or not all(isinstance(u, str) for u in units):
        raise InputError("units", "list the advancing units (none: stay)")
    if len(set(units)) != len(units):
        raise IllegalOrder("EUR-15", "a unit is listed twice")
    adv = pending["advance"]
    for uid in units:
        if uid not in adv["units"]:
            raise IllegalOrder("EUR-15", f"{uid} is not a surviving attacker of this combat "
                               f"(may advance: {', '.join(adv['units'])})")
    return adv, units


def verify_advance(ctx: Context, state: JSON, cmd: Command) -> None:
    _advance(state, cmd)


def execute_advance(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    adv, units = _advance(state, cmd)
    return [Event("advanced_after_combat", {
        "player": cmd.player, "hex": adv["hex"], "units": units,
        "from": {uid: state["units"][uid]["hex"] for uid in units}})]


def fold_advanced(state: JSON, ev: Event) -> JSON:
    s = state
    for uid in ev.data["units"]:
        s["units"][uid]["hex"] = ev.data["hex"]
    s["combat"]["pending"] = None
    return s


# --- the surprise plan (rule 47) ---------------------------------------------------------------
def _plans(state: JSON, player: str) -> JSON:
    return state["secrets"].get(player, {}).get("surprise", {})


def _command_name(cmd: Command) -> str:
    name = cmd.args.get("command")
    if not isinstance(name, str) or not name:
        raise InputError("command", "name the front or command of the plan")
    return name


def _centre_flags(ctx: Context, state: JSON, player: str, centre: str) -> dict[str, bool]:
    ch = verify_centre_on_map(ctx.scenario.map, forces_of(ctx, state), player, centre)
    return {k: v for k, v in dataclasses.asdict(ch).items() if k != "label"}


def _surprise_orders(ctx: Context, state: JSON, cmd: Command) -> tuple[str, dict[str, Any]]:
    """The plan's order list after ``cmd`` (designation + steps), ready for ``run_orders``."""
    name = _command_name(cmd)
    plans = _plans(state, cmd.player)
    a = cmd.args
    turn = int(state["turn"])
    if cmd.kind == "designate_surprise":
        if name in plans and plans[name]["plan"]["status"] == "planned":
            raise IllegalOrder("SUR-14", f"{cmd.player} already plans a surprise for {name}")
        centre = a.get("centre")
        if not isinstance(centre, str):
            raise InputError("centre", "a hex label")
        _hex(ctx, centre, "centre")
        orders: dict[str, Any] = {
            "side": cmd.player, "command": name, "continent": a.get("continent", "europe"),
            "centre": centre, "level": a.get("level"), "turn": turn,
            "centre_hex": _centre_flags(ctx, state, cmd.player, centre), "steps": []}
        for key in ("target_turn", "weather_trigger", "reduced_planning", "sources"):
            if key in a:
                orders[key] = a[key]
        return name, orders
    if name not in plans:
        raise IllegalOrder("SUR-05", f"{cmd.player} has no surprise plan for {name}")
    orders = thaw(plans[name]["orders"])
    if cmd.kind == "reduce_surprise":
        step: dict[str, Any] = {"op": "reduce_level", "level": a.get("level"), "turn": turn}
    elif cmd.kind == "move_surprise_centre":
        to = a.get("to")
        if not isinstance(to, str):
            raise InputError("to", "a hex label")
        new = _hex(ctx, to, "to")
        old = _hex(ctx, plans[name]["plan"]["centre"], "centre")
        step = {"op": "move_centre", "to": to, "hexes": a.get("hexes", distance(old, new)),
                "centre_hex": _centre_flags(ctx, state, cmd.player, to)}
    elif cmd.kind == "delay_surprise":
        step = {"op": "delay", "turns": a.get("turns", 1),
                "weather_wait": a.get("weather_wait", False)}
    else:
        step = {"op": "start", "turn": turn}
        if "weather_met" in a:
            step["weather_met"] = a["weather_met"]
    orders["steps"].append(step)
    return name, orders


def _run(ctx: Context, state: JSON, cmd: Command) -> tuple[str, dict[str, Any], Any]:
    name, orders = _surprise_orders(ctx, state, cmd)
    active = tuple(PlanKey(p["plan"]["side"], p["plan"]["command"], p["plan"]["continent"])
                   for n, p in _plans(state, cmd.player).items()
                   if n != name and p["plan"]["status"] == "planned")
    orders.setdefault("readings", _readings(ctx, SurpriseReadings).to_mapping())
    orders["readings"] = {k: (v.value if hasattr(v, "value") else v)
                          for k, v in orders["readings"].items()}
    return name, orders, run_orders(orders, active)


def verify_surprise(ctx: Context, state: JSON, cmd: Command) -> None:
    _run(ctx, state, cmd)


def execute_surprise(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    name, orders, run = _run(ctx, state, cmd)
    turn_now = int(state["turn"])
    op, rec = run.events[-1]
    data: dict[str, Any] = {"player": cmd.player, "command": name, "op": op,
                            "record": rec.to_json(), "orders": orders,
                            "plan": run.plan.to_json()}
    if op == "start":
        front = marked_front(ctx.scenario.map, forces_of(ctx, state), cmd.player,
                             run.plan.centre, run.plan.level)
        enemy = next(s for s in state["sides"] if s != cmd.player)
        data["public"] = dict(plan_view(run.plan, enemy) or {}, front=front.to_json())
        own = {uid: Fraction(u["re_size"]) for uid, u in _on_map(state)
               if u["side"] == cmd.player and UnitType(u["type"]) in GROUND_TYPES}
        # SUR-15: the effects roll and the "+ # MP" markers; the bonus phases open (SUR-01)
        first = not any(p.get("status") == "started"
                        for p in state["surprise"].get(cmd.player, {}).values())
        data["effects"] = surprise_effects(ctx, state, cmd.player, SurpriseKind.LOCAL,
                                           [run.plan.centre], run.plan.level, dice, first=first)
        data["turn_record"] = turn_record(cmd.player, turn_now, SurpriseKind.LOCAL,
                                          [str(h) for h in front.hexes], name)
        data["candidates"] = [
            {"id": c.id, "re": exact_json(Fraction(c.re)), "hexes_from_front": c.hexes_from_front,
             "role": str(participant_role(c))}
            for c in participation_candidates(ctx.scenario.map, forces_of(ctx, state),
                                              cmd.player, front, own)]
    return [Event("surprise_planned" if op != "start" else "surprise_started", data)]


#: What the other side learns when a surprise starts (SUR-12: the front and level are public;
#: the plan's orders, sources, ledger and the candidates stay the planner's).
_STARTED_PUBLIC = ("player", "command", "op", "public", "effects", "turn_record")


def event_view(ev: Event, player: str, state: JSON) -> dict[str, Any] | None:
    """C-HIDDEN A rule-47 plan is secret until it starts: the other side never sees a
    ``surprise_planned`` event, and of ``surprise_started`` only what the started surprise
    makes public. Every other event is shown whole."""
    owner = ev.data.get("player")
    if ev.type == "surprise_planned" and owner != player:
        return None
    if ev.type == "surprise_started" and owner != player:
        return {"type": ev.type, "data": {k: ev.data[k] for k in _STARTED_PUBLIC
                                          if k in ev.data}}
    return ev.to_json()


def fold_surprise(state: JSON, ev: Event) -> JSON:
    s = state
    d = ev.data
    mine = s["secrets"].setdefault(d["player"], {}).setdefault("surprise", {})
    mine[d["command"]] = {"orders": d["orders"], "plan": d["plan"]}
    if "candidates" in d:
        mine[d["command"]]["candidates"] = d["candidates"]
    if "public" in d:
        s["surprise"].setdefault(d["player"], {})[d["command"]] = d["public"]
    if "effects" in d:
        fold_effects(s, d)
    return s


def view(state: JSON, player: str) -> JSON:
    """C-HIDDEN The engine's view: other players' plans (in ``secrets``) are removed; a started
    surprise is public in ``state["surprise"]`` (centre, level, kind and the marked front)."""
    return hide_secrets(state, player)


def default_sequence(scenario: Scenario) -> TurnSequence:
    """EUR-22 The revised player turn of ``europa.sequence`` for each side (with the air,
    overrun, supply, isolation and replacement commands); EUR-44 surprise phases first for a
    FitE scenario (``[europa] fite_surprise_turn = true``)."""
    return revised_sequence(scenario)


_SURPRISE_HELP: dict[str, tuple[str, dict[str, Any]]] = {
    "designate_surprise": ("Designate a rule-47 surprise plan (secret until it starts).",
                           {"command": "AGC", "centre": "0504", "level": 5,
                            "target_turn": 2}),
    "reduce_surprise": ("Reduce the plan's SRP level on the attack turn (80% back).",
                        {"command": "AGC", "level": 3}),
    "move_surprise_centre": ("Move the plan's centre hex (level falls one per hex).",
                             {"command": "AGC", "to": "0505"}),
    "delay_surprise": ("Delay the plan (a quarter of the designation cost per turn).",
                       {"command": "AGC", "turns": 1}),
    "start_surprise": ("Start the surprise: half refund, the front is marked and public.",
                       {"command": "AGC"}),
}

_COMMANDS: dict[str, CommandSpec] = {
        "roll_table": generic.GENERIC.commands["roll_table"],
        **TURN_COMMAND_SPECS,
        **AIR_COMMAND_SPECS,
        "attack": CommandSpec("attack", verify_attack, execute_attack,
                              "Europa revised combat on one hex (EUR-09).",
                              {"attackers": ["de-7pz", "de-20mot"], "defender_hex": "0504"}),
        "allocate_losses": CommandSpec("allocate_losses", verify_allocate_losses,
                                       execute_allocate_losses,
                                       "Allocate a side's loss requirement (EUR-12).",
                                       {"side": "defender", "units": ["su-112rifle"]}),
        "retreat": CommandSpec("retreat", verify_retreat, execute_retreat,
                               "Retreat units along a legal path (EUR-15/16).",
                               {"units": ["su-112rifle"], "path": ["0804", "0904"]}),
        "advance": CommandSpec("advance", verify_advance, execute_advance,
                               "Advance surviving attackers into the emptied hex (EUR-15); "
                               "none: stay.", {"units": ["de-7pz"]}),
        **{k: CommandSpec(k, verify_surprise, execute_surprise, h, ex)
           for k, (h, ex) in _SURPRISE_HELP.items()},
}
#: Decisions the engine answers itself when the text leaves one choice (referee.engine_choices).
_DECIDING = ("attack", "overrun", "allocate_losses", "retreat")


def _referee_spec(spec: CommandSpec) -> CommandSpec:
    legal = ENUMERATORS.get(spec.kind, no_legal)
    out = spec.with_legal(legal)
    return with_engine_choices(out) if spec.kind in _DECIDING else out


EUROPA = RuleSystem(
    name=NAME,
    commands={k: _referee_spec(v) for k, v in _COMMANDS.items()},
    folds={
        **generic.GENERIC.folds,
        "combat_resolved": settled(fold_combat_resolved),
        "losses_allocated": settled(fold_losses_allocated),
        "units_retreated": settled(fold_units_retreated),
        "advanced_after_combat": settled(fold_advanced),
        **AIR_FOLDS,
        **TURN_FOLDS,
        "surprise_planned": fold_surprise,
        "surprise_started": fold_surprise,
    },
    initial_state=initial_state,
    view=view,
    description="Europa revised player turn (EUR-22): air phase, movement and overruns, "
                "combat, supply, isolation attrition, replacements; rule-47 surprise plans.",
    default_sequence=default_sequence,
    decisions=decisions,
    game_over=game_over,
    phase_prompt=phase_prompt,
    turn_label=turn_label,
    reveal_events=frozenset({"surprise_started"}),
    event_view=event_view,
)
register_system(EUROPA)
