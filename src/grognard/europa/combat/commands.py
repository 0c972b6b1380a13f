"""The Europa engine system's combat commands: ``attack`` (EUR-09, the revised CRT), the
defender's and attacker's ``allocate_losses`` (EUR-12/13), ``retreat`` (EUR-15/16) and the
attacker's ``advance`` (EUR-15), with their folds; the attack model built from the position.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from contextlib import suppress
from fractions import Fraction
from typing import Any, Literal, cast

import numpy as np

from grognard.core.dice import Dice, DiceExpr
from grognard.core.errors import GrognardError, IllegalOrder, InputError
from grognard.core.exact import exact_json
from grognard.core.hexgrid import direction_to
from grognard.core.mapdata import CityClass, Fortification, HexsideFeature
from grognard.core.movement import (
    MovementReadings,
    is_mechanized,
    move_class_of,
    overrun_allowed,
    overrun_mp,
)
from grognard.core.zoc import europa_revised_zoc, zoc_edges, zoc_field
from grognard.engine import generic
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.decisions import Decision
from grognard.engine.events import Event, unit_writes, writes_units
from grognard.engine.state import JSON, copy_state
from grognard.europa.board import (
    SURPRISE_PREFIX,
    apply_losses,
    combat_weather,
    eliminate,
    europa_rules,
    forces_of,
    hex_arg,
    on_map_hex,
    per_position,
    readings_of,
    reduce_unit,
    scenario_unit,
    unit_json,
    units_by_hex,
)
from grognard.europa.combat.attack import (
    Attack,
    Combatant,
    CombatReadings,
    Side,
    attack_from_json,
)
from grognard.europa.combat.bombardment import barrage_strength
from grognard.europa.combat.crt import applied_rules, combat_setup, outcome_json, resolve_setup
from grognard.europa.combat.losses import allocate_losses
from grognard.europa.combat.retreat import Retreat, RetreatLoss, legal_retreats, retreat_along
from grognard.europa.combat.support import ground_support_result
from grognard.europa.logistics import (
    attack_payment,
    attack_refusal,
    bonus_combat_supply,
    overrun_sp_cost,
    paid_event,
    zone_event,
)
from grognard.europa.movement import stacking_refusal
from grognard.europa.state_types import (
    AdvancedAfterCombat,
    CombatPending,
    CombatResolved,
    EuropaState,
    LossesAllocated,
    OverrunDeclared,
    OverrunState,
    UnitsRetreated,
)

COMBAT_STREAM = "europa.combat"
BARRAGE_STREAM = "europa.barrage"
_HEXSIDE_NAMES = ((HexsideFeature.MAJOR_RIVER, "major_river"), (HexsideFeature.RIVER, "river"),
                  (HexsideFeature.CANAL, "canal"))
_FROZEN_WEATHER = ("winter",)


# --- the attack model --------------------------------------------------------------------------
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


def attack_json(ctx: Context, state: EuropaState, player: str, args: Mapping[str, Any]
                ) -> dict[str, Any]:
    """EUR-09 The ATTACK.json model of an ``attack`` order, from the scenario: the attackers'
    and defenders' state, the target hex terrain (map terrain = the terrain-effects row),
    fortification and major city, per attacker the hexside it attacks across, the turn's
    weather, the fire support earned in the air phase (ground support, EUR-06) and the
    readings the game was created with. The order gives only its choices (attackers and
    the hex); ``weather`` is read from ``args`` only where the scenario has no weather table
    (a designer's calculation through this function; the Order refuses it)."""
    m = ctx.scenario.map
    ids = args.get("attackers")
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        raise IllegalOrder("EUR-09", "attackers must list one or more unit ids")
    if len(set(ids)) != len(ids):
        raise IllegalOrder("EUR-09", "a unit is listed twice among the attackers")
    target = hex_arg(ctx, args.get("defender_hex"), "defender_hex")
    label = m.layout.to_label(target)
    weather = combat_weather(ctx, state, args)
    attackers = []
    for uid in ids:
        u = state["units"].get(uid)
        if u is None:
            raise IllegalOrder("EUR-09", f"no unit {uid!r}")
        if u["side"] != player:
            raise IllegalOrder("EUR-09", f"{uid} belongs to {u['side']}, not {player}")
        if u["status"] != "active" or u["hex"] is None:
            raise IllegalOrder("EUR-09", f"{uid} is not on the map")
        sides = _attack_hexsides(ctx, u["hex"], target, label, weather in _FROZEN_WEATHER)
        if sides == "far":
            raise IllegalOrder("EUR-09", f"{uid} in {u['hex']} is not adjacent to {label}")
        if sides == "blocked":
            raise IllegalOrder("EUR-09", f"{uid} cannot attack across the hexside into {label}")
        attackers.append(dict(unit_json(uid, u), hexsides=list(sides)))
    defenders = [unit_json(uid, u) for uid, u in units_by_hex(ctx, state).get(label, ())
                 if u["side"] != player]
    if not defenders:
        raise IllegalOrder("EUR-09", f"no enemy unit in {label}")
    raw: dict[str, Any] = {
        "attackers": attackers, "defenders": defenders,
        "terrain": str(m.terrain_of(target).value),
        "fortified": m.fortification_of(target) is not Fortification.NONE,
        "major_city": any(CityClass.MAJOR_CITY in c.classes for c in m.cities_at(target)),
    }
    if args.get("overrun"):
        raw["overrun"] = True
    series = europa_rules(ctx.scenario).section.series
    if series is not None:  # the game's series (RE or factor, EUR-14), from the scenario
        raw["series"] = series
    if weather != "clear":
        raw["weather"] = weather
    if not args.get("overrun"):
        # EUR-06/EUR-22: the air phase's ground support on the hex this player turn; the
        # attacking artillery's barrage is rolled with the attack (EUR-29)
        hits = ground_support_result(state, label, player)
        if hits:
            raw["bombardment"] = hits
    raw["readings"] = _readings_json(ctx)
    return raw


def _attack_hexsides(ctx: Context, frm: str, target: Any, label: str, frozen: bool
                     ) -> tuple[str, ...] | str:
    """EUR-09 The hexside features an attack from hex ``frm`` into ``target`` (``label``)
    crosses, as the ATTACK.json model names them (frozen in winter but canals); "far" when
    the hexes are not adjacent, "blocked" across sea, lake or an impassable hexside. The
    map's alone, so found once per game (every attack model of every position reads it)."""
    known: dict[tuple[str, str, bool], tuple[str, ...] | str] = ctx.kept_table(
        "europa.attack_hexsides", ctx.scenario)
    key = (frm, label, frozen)
    got = known.get(key)
    if got is None:
        m = ctx.scenario.map
        here = m.layout.from_label(frm)
        try:
            direction_to(here, target)
        except InputError:
            got = "far"
        else:
            feats = m.features_between(here, target)
            if feats & (HexsideFeature.SEA | HexsideFeature.IMPASSABLE | HexsideFeature.LAKE):
                got = "blocked"
            else:
                got = tuple(("frozen_" if frozen and name != "canal" else "") + name
                            for flag, name in _HEXSIDE_NAMES if feats & flag)
        known[key] = got
    return got


def _readings_json(ctx: Context) -> dict[str, Any]:
    """The game's combat readings as the ATTACK.json model gives them (a new dict each
    time, made from the one kept per parsed readings: a game's readings never change)."""
    readings = readings_of(ctx, CombatReadings)
    hit = ctx.kept.get("europa.combat_readings_json")
    if hit is None or hit[0] is not readings:
        hit = (readings, {k: (v.value if hasattr(v, "value") else v)
                          for k, v in readings.to_mapping().items()})
        ctx.kept["europa.combat_readings_json"] = hit
    return dict(hit[1])


def attack_model(ctx: Context, raw: Mapping[str, Any]) -> Attack:
    """The :class:`Attack` of an ATTACK.json model (parsed once per position and model
    object: the pending combat's model is read by each decision's verify and lister)."""
    key = f"europa.attack_model.{id(raw)}"
    hit = ctx.cache.get(key)
    if hit is not None and hit[0] is raw:
        kept: Attack = hit[1]
        return kept
    attack = attack_from_json(raw, ctx.tables)
    ctx.cache[key] = (raw, attack)  # holds ``raw``: its id is not reused while kept
    return attack


#: the :class:`Attack` of recent ATTACK.json models, one object per canonical JSON (so the
#: lister's check and a bot's estimate of the same model share its parse and its setups,
#: :func:`combat_setup`): canonical JSON -> (tables, attack)
_MODELS: OrderedDict[str, tuple[Any, Attack]] = OrderedDict()
_MODELS_KEPT = 4096


def model_key(raw: Mapping[str, Any]) -> str:
    """The canonical JSON of an ATTACK.json model (equal for models of equal content)."""
    return json.dumps(raw, sort_keys=True, separators=(",", ":"), default=str)


def kept_model(ctx: Context, key: str, raw: Mapping[str, Any]) -> Attack:
    """The :class:`Attack` of the model ``raw`` whose canonical JSON is ``key``
    (:func:`model_key`) under the game's tables: the same object while the model is kept."""
    hit = _MODELS.get(key)
    if hit is not None and hit[0] is ctx.tables:
        with suppress(KeyError):  # the server's threads may drop it meanwhile: still correct
            _MODELS.move_to_end(key)
        return hit[1]
    attack = attack_from_json(raw, ctx.tables)
    _MODELS[key] = (ctx.tables, attack)
    if len(_MODELS) > _MODELS_KEPT:
        with suppress(KeyError):
            _MODELS.popitem(last=False)
    return attack


def _ordered_raw(ctx: Context, state: EuropaState, cmd: Command) -> dict[str, Any]:
    """EUR-09 The ATTACK.json model of an ``attack`` order, built once per position and
    order (verify and execute share it; the model is not changed by either)."""
    key = f"europa.ordered_attack.{cmd.player}.{cmd.args!r}"
    hit = ctx.cache.get(key)
    if hit is not None and hit[0] is state:
        kept: dict[str, Any] = hit[1]
        return kept
    raw = attack_json(ctx, state, cmd.player, cmd.args)
    ctx.cache[key] = (state, raw)
    return raw


def _ordered_attack(ctx: Context, state: EuropaState, cmd: Command) -> tuple[dict[str, Any], Attack]:
    """EUR-09 The model of an ``attack`` order and its :class:`Attack` (once per position
    and order: :func:`_ordered_raw`, :func:`attack_model`)."""
    raw = _ordered_raw(ctx, state, cmd)
    return raw, attack_model(ctx, raw)


#: whether the combat procedure takes recent ATTACK.json models (steps 1-3 refuse artillery
#: alone, EUR-03): canonical JSON of the model -> (tables, the refusal or None). The lister
#: verifies the same attacks again after each command of a combat or movement phase.
_SETUPS: OrderedDict[str, tuple[Any, GrognardError | None]] = OrderedDict()
_SETUPS_KEPT = 4096


def _setup_refusal(ctx: Context, raw: Mapping[str, Any]) -> GrognardError | None:
    """EUR-09 Why :func:`combat_setup` refuses the model ``raw`` under the game's tables (its
    barrage at a natural 7 where attacking artillery fires; None: it does not), found once per
    model (a function of the model and the tables only)."""
    key = model_key(raw)
    hit = _SETUPS.get(key)
    if hit is not None and hit[0] is ctx.tables:
        _SETUPS.move_to_end(key)
        return hit[1]
    refusal: GrognardError | None = None
    try:
        attack = kept_model(ctx, key, raw)
        combat_setup(attack, 7 if barrage_strength(attack) > 0 else None, ctx.tables)
    except GrognardError as exc:
        refusal = exc
    _SETUPS[key] = (ctx.tables, refusal)
    if len(_SETUPS) > _SETUPS_KEPT:
        _SETUPS.popitem(last=False)
    return refusal


#: The unit fields the ATTACK.json model of an order reads (:func:`attack_json`: the
#: attackers' and the target hex's units; :func:`unit_json`).
_MODEL_FIELDS = frozenset({"hex", "side", "status", "attack", "defense", "type", "armor",
                           "divisional", "cadre", "supply", "nationality", "re_size"})


def _model_refusal(ctx: Context, state: EuropaState, cmd: Command) -> GrognardError | None:
    """EUR-09 Why the model of an ``attack`` order is refused (:func:`attack_json`'s checks,
    then :func:`_setup_refusal`); None: it is not. For the game's own unit table the verdict
    is kept across positions (the lister verifies every attack again after each command of a
    combat or movement phase) and served again while nothing it reads has changed: the game
    turn (the weather), the ground support on the hex, and the records of the attackers and
    of every unit that stood in the target hex, and no unit changed has entered it (the
    game's units log says which units changed). Other tables (a view, a private copy) are
    judged afresh. tests/bots/test_europa_speed_s16.py compares it with the plain verdict."""
    try:
        label = ctx.scenario.map.layout.to_label(
            hex_arg(ctx, cmd.args.get("defender_hex"), "defender_hex"))
    except GrognardError:
        label = None
    units = state["units"]
    log = ctx.units_log
    ours = label is not None and log.changed_since(units, log.version, _MODEL_FIELDS) is not None
    if not ours:
        return _plain_model_refusal(ctx, state, cmd)
    assert label is not None
    when = (int(state["turn"]), ground_support_result(state, label, cmd.player))
    hit = ctx.kept.get("europa.attack_refusals")
    if hit is None or hit[0] is not units or hit[1][0] != when[0]:
        hit = (units, (when[0], {}))  # one game turn's verdicts of this table
        ctx.kept["europa.attack_refusals"] = hit
    kept: dict[str, Any] = hit[1][1]
    key = f"{cmd.player}.{cmd.args!r}"
    entry = kept.get(key)
    if entry is not None:
        version, was, reads, refusal = entry
        changed = log.changed_since(units, version, _MODEL_FIELDS)
        if was == when and changed is not None and not any(
                uid in reads or (uid in units and units[uid]["hex"] == label)
                for uid in changed):
            kept[key] = (log.version, was, reads, refusal)
            cached: GrognardError | None = refusal
            return cached
    refusal = _plain_model_refusal(ctx, state, cmd)
    ids = cmd.args.get("attackers")
    reads = frozenset([*(i for i in (ids if isinstance(ids, list) else ()) if isinstance(i, str)),
                       *(uid for uid, _ in units_by_hex(ctx, state).get(label, ()))])
    kept[key] = (log.version, when, reads, refusal)
    return refusal


def _plain_model_refusal(ctx: Context, state: EuropaState, cmd: Command
                         ) -> GrognardError | None:
    """:func:`_model_refusal` judged afresh from the position."""
    try:
        return _setup_refusal(ctx, _ordered_raw(ctx, state, cmd))
    except GrognardError as exc:
        return exc


# --- attack ------------------------------------------------------------------------------------
def attacked_this_phase(state: EuropaState) -> tuple[set[str], set[str]]:
    """EUR-09 (original Europa) The units that have attacked and the hexes attacked in this
    combat phase: each unit attacks once and each hex is attacked once per combat phase."""
    rec = state["combat"].get("attacked")
    if not isinstance(rec, dict) or rec.get("key") != [int(state["turn"]), int(state["phase"])]:
        return set(), set()
    return set(rec["units"]), set(rec["hexes"])


def verify_attack(ctx: Context, state: EuropaState, cmd: Command) -> None:
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
    refusal = _model_refusal(ctx, state, cmd)
    if refusal is not None:
        raise refusal.with_traceback(None)
    refusal = attack_refusal(ctx, state, cmd.player, list(cmd.args["attackers"]),
                             bool(cmd.args.get("overrun")))  # EUR-37: refused if unpaid
    if refusal is not None:
        raise refusal.with_traceback(None)


def execute_attack(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    raw, attack = _ordered_attack(ctx, state, cmd)
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
    supply = bonus_combat_supply(ctx, state, attackers)
    rules = sorted({*applied_rules(setup, ctx.tables), *supply.pop("rules", [])})
    paid = attack_payment(ctx, state, cmd.player, attackers, bool(cmd.args.get("overrun")))
    return [Event("combat_resolved", {
        "number": state["combat"]["count"] + 1, "player": cmd.player,
        "attackers": attackers,
        "defender_hex": ctx.scenario.map.layout.to_label(hex_arg(ctx, cmd.args["defender_hex"],
                                                              "defender_hex")),
        "defenders": [u["id"] for u in raw["defenders"]],
        "dice": crt_dice, "barrage_dice": barrage_dice, **record,
        "barrage_step_loss": step,
        "attacker_eliminated_units": attackers if e.attacker_eliminated else [],
        "requirements": requirements, "retreats": retreats,
        "model": model, **supply, **({"rules": rules} if rules else {}),
    }), *([paid_event(paid)] if paid is not None else [])]


def pending_combat(state: EuropaState) -> CombatPending:
    """The combat awaiting its losses, retreats or advance (the orders and folds that settle
    it run only while there is one)."""
    pending = state["combat"]["pending"]
    assert pending is not None, "no combat is pending"
    return pending


def _drop(pending: CombatPending, uids: Sequence[str]) -> CombatPending:
    gone = set(uids)
    key: Literal["requirements", "retreats"]
    for key in ("requirements", "retreats"):
        for item in pending[key]:
            item["units"] = [u for u in item["units"] if u not in gone]
        pending[key] = [i for i in pending[key] if i["units"]]
    return pending


def _settle(s: EuropaState, pending: CombatPending | None) -> CombatPending | None:
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


def _resolved_writes(ev: Event) -> list[str]:
    """The units a ``combat_resolved`` fold writes: the attackers (attacked this turn, or
    eliminated) and the unit the barrage reduced or eliminated."""
    step = ev.data["barrage_step_loss"]
    return [*ev.data["attackers"], *([step["unit"]] if step is not None else [])]


def _losses_writes(ev: Event) -> list[str]:
    """The units an event's losses write (EUR-13: reduced to cadres, eliminated)."""
    return [*ev.data["reduced"], *ev.data["eliminated"]]


@writes_units(_resolved_writes)
def fold_combat_resolved(state: EuropaState, ev: Event) -> EuropaState:
    s = state
    d = cast(CombatResolved, ev.data)
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
            reduce_unit(s, step["unit"], after["attack"], after["defense"])
    for uid in gone:
        eliminate(s, uid)
    defender = s["units"][d["defenders"][0]]["side"] if d["defenders"] else None
    pending: CombatPending = {
        "number": d["number"], "result": d["result"], "defender_hex": d["defender_hex"],
        "model": d["model"], "requirements": d["requirements"], "retreats": d["retreats"],
        "attackers": list(d["attackers"]),
        "players": {"attacker": d["player"], "defender": defender}}
    s["combat"]["pending"] = _settle(s, _drop(pending, gone))
    return s


# --- allocate_losses ---------------------------------------------------------------------------
def side_player(state: EuropaState, pending: CombatPending, side: str) -> str:
    """The player who is the ``side`` ("attacker"/"defender") of the pending combat: the side
    taking a loss picks the units (EUR-12) and chooses its retreat (EUR-15/16)."""
    players = pending.get("players") or {}
    if players.get(side):
        return str(players[side])
    key = "attackers" if side == "attacker" else "defenders"
    return str(state["units"][pending["model"][key][0]["id"]]["side"])


def _requirement(state: EuropaState, cmd: Command) -> JSON:
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


def _allocation(ctx: Context, state: EuropaState, cmd: Command) -> Any:
    req = _requirement(state, cmd)
    units = cmd.args.get("units")
    if not isinstance(units, list) or not all(isinstance(u, str) for u in units):
        raise InputError("units", "list the unit ids, one per step")
    attack = attack_model(ctx, pending_combat(state)["model"])
    for uid in units:
        if uid not in req["units"]:
            raise IllegalOrder("EUR-12", f"{uid} is not one of the {req['side']}'s units "
                               "in this combat that can still take losses")
    return allocate_losses(attack, Side(req["side"]), Fraction(req["requirement"]), units,
                           ctx.tables)


def verify_allocate_losses(ctx: Context, state: EuropaState, cmd: Command) -> None:
    _allocation(ctx, state, cmd)


def execute_allocate_losses(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
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


@writes_units(_losses_writes)
def fold_losses_allocated(state: EuropaState, ev: Event) -> EuropaState:
    s = state
    d = cast(LossesAllocated, ev.data)
    apply_losses(s, d)
    pending = pending_combat(s)
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
def _retreat(ctx: Context, state: EuropaState, cmd: Command) -> tuple[JSON, Any, list[str]]:
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
    starts = {on_map_hex(state["units"][u]) for u in units}
    if len(starts) != 1:
        raise IllegalOrder("EUR-15", "the units of one retreat order start in one hex")
    start = starts.pop()
    side = state["units"][units[0]]["side"]
    options = retreat_options_from(ctx, state, start, side, order["side"])
    entered = path[1:] if path and path[0] == start else path
    model = pending["model"]
    attack = attack_model(ctx, model)
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


def retreat_options_from(ctx: Context, state: EuropaState, start: str, side: str, role: str
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


def verify_retreat(ctx: Context, state: EuropaState, cmd: Command) -> None:
    _retreat(ctx, state, cmd)


def execute_retreat(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
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


@writes_units(lambda ev: [*ev.data["units"], *_losses_writes(ev)])
def fold_units_retreated(state: EuropaState, ev: Event) -> EuropaState:
    s = state
    d = cast(UnitsRetreated, ev.data)
    for uid in d["units"]:
        if d["path"]:
            s["units"][uid]["hex"] = d["path"][-1]
    apply_losses(s, d)
    s["combat"]["pending"] = _settle(s, _drop(pending_combat(s), d["units"]))
    return s


# --- advance after combat (EUR-15) -------------------------------------------------------------
def _advance(state: EuropaState, cmd: Command) -> tuple[JSON, list[str]]:
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


def _advance_checked(ctx: Context, state: EuropaState, cmd: Command) -> tuple[JSON, list[str]]:
    adv, units = _advance(state, cmd)
    if units:  # EUR-21: the advancing units may not overstack the hex they take
        over = stacking_refusal(ctx, state, str(state["units"][units[0]]["side"]), adv["hex"],
                                units)
        if over is not None:
            raise over
    return adv, units


def verify_advance(ctx: Context, state: EuropaState, cmd: Command) -> None:
    _advance_checked(ctx, state, cmd)


def execute_advance(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    adv, units = _advance_checked(ctx, state, cmd)
    data = {"player": cmd.player, "hex": adv["hex"], "units": units,
            "from": {uid: state["units"][uid]["hex"] for uid in units}}
    if len(units) > 1:  # EUR-21: the advancing stack was checked against the limit
        data["rules"] = ["EUR-21"]
    zone = zone_event(ctx, state, cmd.player, [adv["hex"]]) if units else None
    return [Event("advanced_after_combat", data), *([zone] if zone is not None else [])]


@writes_units(lambda ev: ev.data["units"])
def fold_advanced(state: EuropaState, ev: Event) -> EuropaState:
    d = cast(AdvancedAfterCombat, ev.data)
    s = state
    for uid in d["units"]:
        s["units"][uid]["hex"] = d["hex"]
    s["combat"]["pending"] = None
    return s


def _key(state: EuropaState) -> list[int]:
    """The game turn and phase (an overrun's record is kept per phase)."""
    return [int(state["turn"]), int(state["phase"])]


def _phase_name(ctx: Context, state: EuropaState) -> str:
    return ctx.turn_sequence.phases[int(state["phase"])].name


# --- overrun (EUR-18..EUR-20) ------------------------------------------------------------------
def _overrun_slot(state: EuropaState) -> OverrunState:
    slot = state.get("overrun")
    if not isinstance(slot, dict) or slot.get("key") != _key(state):
        pending = slot.get("pending") if isinstance(slot, dict) else None
        return {"key": _key(state), "units": [], "hexes": [], "pending": pending}
    return slot


def overrun_cost(ctx: Context, state: EuropaState, cmd: Command) -> dict[str, Any]:
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
    enemy = [uid for uid, u in units_by_hex(ctx, state).get(label, ())
             if u["side"] != cmd.player]
    if not enemy:
        raise IllegalOrder("EUR-18", f"no enemy unit in {label}")
    if label in slot["hexes"]:
        raise IllegalOrder("EUR-18", f"{label} has already been overrun this phase")
    weather = combat_weather(ctx, state, cmd.args)
    mreadings = readings_of(ctx, _movement_readings())
    allowed, entry, leaves, z2z = per_position(
        ctx, state, f"europa.overrun_way.{cmd.player}.{start}.{label}.{weather}",
        lambda: _overrun_way(ctx, state, cmd.player, start, label, weather, mreadings))
    if not allowed:
        raise IllegalOrder("EUR-20", f"no overrun into {label} ({m.terrain_of(target).value}"
                           f"{', mud' if weather == 'mud' else ''}) from {start}")
    mp: dict[str, int] = {}
    for uid in ids:
        cls = _scenario_move_class(ctx, uid, mreadings)
        cost = overrun_mp(entry, leaves, z2z, move_class=cls)
        left = state["units"][uid]["movement"] - state["units"][uid]["mp_spent"]
        if cost > left:
            raise IllegalOrder("EUR-19", f"{uid} needs {cost} MPs to overrun {label} "
                               f"and has {left}")
        mp[uid] = cost
    divisions = sum(1 for uid in ids if state["units"][uid]["divisional"]
                    and not state["units"][uid]["cadre"] and state["units"][uid]["supply"] == "in")
    sp = overrun_sp_cost(ctx, divisions)
    return {"units": list(ids), "from": start, "target": label, "mp": mp,
            "sp_cost": sp.to_json(),
            "leaves_zoc": leaves, "zoc_to_zoc": z2z, "entry_cost": entry,
            "mechanized": {uid: is_mechanized(scenario_unit(ctx.scenario, uid), mreadings)
                           for uid in ids}}


def overrun_openings(ctx: Context, state: EuropaState, player: str, start: str, label: str,
                     ids: Sequence[str]) -> list[str] | None:
    """EUR-18..EUR-20 For the overrun lister, what :func:`overrun_cost` refuses before it is
    asked: None when it refuses every stack in ``start`` overrunning ``label`` (the surprise
    turn, a hex already overrun this phase, terrain or weather, EUR-20); otherwise the units
    of ``ids`` (``player``'s, in ``start``) it does not refuse on their own - each not yet
    overrun this phase, with the MPs (EUR-19; ZOC to ZOC, EUR-17). An order naming a unit
    left out is refused, so the lister checks none; the checks are overrun_cost's own, read
    from the same per-position way (tests/bots/test_europa_speed_s15.py compares)."""
    if _phase_name(ctx, state).startswith(SURPRISE_PREFIX):
        return None
    slot = _overrun_slot(state)
    if label in slot["hexes"]:
        return None
    try:
        weather = combat_weather(ctx, state, {})
    except GrognardError:
        return None
    mreadings = readings_of(ctx, _movement_readings())
    allowed, entry, leaves, z2z = per_position(
        ctx, state, f"europa.overrun_way.{player}.{start}.{label}.{weather}",
        lambda: _overrun_way(ctx, state, player, start, label, weather, mreadings))
    if not allowed:
        return None
    out = []
    for uid in ids:
        u = state["units"].get(uid)
        if (u is None or u["side"] != player or u["status"] != "active" or u["hex"] != start
                or uid in slot["units"]):
            continue
        try:
            cost = overrun_mp(entry, leaves, z2z,
                              move_class=_scenario_move_class(ctx, uid, mreadings))
        except GrognardError:
            continue
        if cost <= u["movement"] - u["mp_spent"]:
            out.append(uid)
    return out


def _overrun_way(ctx: Context, state: EuropaState, player: str, start: str, label: str, weather: str,
                 mreadings: Any) -> tuple[bool, int, bool, bool]:
    """EUR-19/EUR-20 What an overrun from ``start`` into ``label`` meets, the same for every
    stack there (once per position): whether the terrain and weather allow it, the entry
    cost of the target hex, and whether it leaves an enemy ZOC / moves ZOC to ZOC."""
    m = ctx.scenario.map
    allowed, entry = _overrun_ground(ctx, start, label, weather, mreadings)
    if not allowed:
        return False, 0, False, False
    leaves = _in_zoc_without(ctx, state, player, label, m.index_of_label(start))
    return True, entry, leaves, leaves and _in_zoc_without(ctx, state, player, label,
                                                           m.index_of_label(label))


def _overrun_ground(ctx: Context, start: str, label: str, weather: str, mreadings: Any
                    ) -> tuple[bool, int]:
    """EUR-20 Whether the terrain and weather allow an overrun from ``start`` into ``label``,
    and the entry cost of the target hex: the map's, the weather's and the readings' alone,
    so found once per game (the overrun lister weighs every stack next to an enemy hex
    again after each command)."""
    known: dict[tuple[str, str, str], tuple[bool, int]] = ctx.kept_table(
        "europa.overrun_ground", mreadings, ctx.scenario)
    key = (start, label, weather)
    got = known.get(key)
    if got is None:
        if not overrun_allowed(ctx.scenario.map, start, label, mud=weather == "mud",
                               frozen_rivers=weather == "winter", readings=mreadings):
            got = (False, 0)
        else:
            got = (True, generic.move_cost(ctx.scenario, start, [label]))
        known[key] = got
    return got


def _scenario_move_class(ctx: Context, uid: str, mreadings: Any) -> Any:
    """The movement class of scenario unit ``uid`` (per game: a scenario unit's type and
    allowance never change, nor the game's readings)."""
    key = f"europa.scenario_move_class.{uid}"
    hit = ctx.kept.get(key)
    if hit is not None and hit[0] is mreadings:
        return hit[1]
    cls = move_class_of(scenario_unit(ctx.scenario, uid), mreadings)
    ctx.kept[key] = (mreadings, cls)
    return cls


def _zoc_sources(ctx: Context) -> dict[int, tuple[int, ...]]:
    """EUR-17 For each hex of the map, the hexes whose units' ZOC enters it (the edges
    :func:`zoc_field` spreads a ZOC over under the Europa rules: never across sea, lake or
    impassable hexsides nor into water): the map's alone, so found once per game."""
    known: dict[int, tuple[int, ...]] = ctx.kept_table("europa.zoc_sources", ctx.scenario)
    if not known:
        m = ctx.scenario.map
        s, t = zoc_edges(m, europa_revised_zoc(), np.arange(m.n, dtype=np.int32))
        into: dict[int, list[int]] = {}
        for a, b in zip(s.tolist(), t.tolist(), strict=True):
            into.setdefault(b, []).append(a)
        known.update({h: tuple(srcs) for h, srcs in into.items()})
    return known


def _in_zoc_without(ctx: Context, state: EuropaState, player: str, label: str, h: int) -> bool:
    """EUR-19 Whether hex ``h`` lies in an enemy ZOC of ``player``'s overrun of ``label``:
    every enemy unit on the map exerting one (ZOC class above 0) but those in ``label``.
    Read from the units in the hexes whose ZOC enters ``h`` (:func:`_zoc_sources`), not from
    a whole-map field (tests/bots/test_europa_speed_s18_combat.py compares the field)."""
    m = ctx.scenario.map
    target = m.index_of_label(label)
    by_hex = units_by_hex(ctx, state)
    for src in _zoc_sources(ctx).get(h, ()):
        if src == target:
            continue
        for _, u in by_hex.get(m.label(src), ()):
            if u["side"] != player and int(u.get("zoc_class", 1)) > 0:
                return True
    return False


def _movement_readings() -> type[Any]:
    return MovementReadings


def _attack_cmd(cmd: Command, priced: Mapping[str, Any]) -> Command:
    return Command("attack", cmd.player, {"attackers": list(priced["units"]),
                                          "defender_hex": priced["target"], "overrun": True})


def _priced_overrun(ctx: Context, state: EuropaState, cmd: Command) -> dict[str, Any]:
    """:func:`overrun_cost` once per position and order (verify and execute share it)."""
    key = f"europa.overrun_cost.{cmd.player}.{cmd.args!r}"
    hit = ctx.cache.get(key)
    if hit is not None and hit[0] is state:
        priced: dict[str, Any] = hit[1]
        return priced
    priced = overrun_cost(ctx, state, cmd)
    ctx.cache[key] = (state, priced)
    return priced


def verify_overrun(ctx: Context, state: EuropaState, cmd: Command) -> None:
    priced = _priced_overrun(ctx, state, cmd)
    verify_attack(ctx, state, _attack_cmd(cmd, priced))


def execute_overrun(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    priced = _priced_overrun(ctx, state, cmd)
    combat = execute_attack(ctx, state, _attack_cmd(cmd, priced), dice)
    declared = Event("overrun_declared", {"key": _key(state), "player": cmd.player, **priced,
                                          "number": combat[0].data["number"],
                                          "exploitation": _phase_name(ctx, state)
                                          == "exploitation"})
    return [declared, *combat]


@writes_units(lambda ev: ev.data["mp"])
def fold_overrun_declared(state: EuropaState, ev: Event) -> EuropaState:
    s = state
    d = cast(OverrunDeclared, ev.data)
    slot: OverrunState = copy_state(_overrun_slot(s)) if s.get("overrun", {}).get(
        "key") == d["key"] else {
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


def settle_overrun(state: EuropaState) -> EuropaState:
    """EUR-18 Once the overrun's losses and retreats are done: if the target hex is clear of
    enemy units the stack keeps its remaining MPs, otherwise it stops where it attacked from.
    ``overrun.results`` records each outcome."""
    slot = state.get("overrun")
    p = slot.get("pending") if isinstance(slot, dict) else None
    if p is None:
        return state
    if state["combat"]["pending"] is not None:
        return state
    s = state
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
    """Wrap a combat fold so an overrun settles when its combat is done. What it writes of
    the units is the fold's own declaration and the ``mp_spent`` of the overrunning stack
    (any unit: the stack is named by the state, not the event)."""
    def wrapped(state: EuropaState, ev: Event) -> EuropaState:
        return settle_overrun(fold(state, ev))
    declared = unit_writes(fold)
    if declared is None:
        return wrapped
    return writes_units(declared.named, declared.fields | {"mp_spent"})(wrapped)


# --- the decisions a combat owes ------------------------------------------------------------------
def _title(player: str) -> str:
    return player[:1].upper() + player[1:]


def combat_decisions(ctx: Context, state: EuropaState) -> list[Decision]:
    """EUR-12..EUR-16 The decisions the pending combat owes: its losses (by each side taking
    them), then its retreats, then the attacker's advance."""
    pending = state["combat"]["pending"]
    out: list[Decision] = []
    if pending is not None:
        where = pending["defender_hex"]
        if pending["requirements"]:
            for req in pending["requirements"]:
                who = side_player(state, pending, req["side"])
                out.append(Decision(
                    who, frozenset({"allocate_losses"}),
                    f"{_title(who)}: allocate {req['requirement']} SPs of {req['side']} losses "
                    f"in the combat at {where} ({pending['result']})", "EUR-12"))
        elif pending["retreats"]:
            r = pending["retreats"][0]
            who = side_player(state, pending, r["side"])
            out.append(Decision(
                who, frozenset({"retreat"}),
                f"{_title(who)}: retreat {', '.join(r['units'])} {r['hexes']} hex"
                f"{'es' if r['hexes'] > 1 else ''} from the combat at {where} "
                f"({pending['result']})", "EUR-15"))
        elif "advance" in pending:
            who = side_player(state, pending, "attacker")
            out.append(Decision(
                who, frozenset({"advance"}),
                f"{_title(who)}: advance into {where} with surviving attackers, or stay",
                "EUR-15"))
    return out
