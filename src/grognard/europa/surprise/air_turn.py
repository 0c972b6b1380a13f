"""Rule 47's air and supply steps as engine commands (SUR-21..SUR-24).

Air units are not on the ground map: a scenario lists them in ``[europa.air_units]`` (id ->
side, nationality, base hex, type F/D/A/other, status, range in hexes, tactical rating) and the
state keeps them in ``state["air_units"]``. Commands (events record every die):

* ``airbase_surprise`` {base, attackers} - SUR-22/SUR-24: the surprise player's operative
  tactical air units within range bomb an enemy airbase in any non-initial phase of the surprise
  turn; one die (stream ``europa.surprise.airbase``) on the success table with the Table 3
  modifiers per nation; affected = attackers + the "+ # MP" markers on the base - CAP (reading:
  the engine flies no CAP), chosen at random (stream ``europa.surprise.airbase_pick``) under the
  default ``airbase_surprise_selection``; statuses move down the SUR-24 ladder.
* ``bonus_air_recovery`` {units} - SUR-21: in the bonus supply/air phase the phasing player
  restores F/D/A air units within range of the front, one step each, up to the air units it
  used in the surprise turn (invasion: any); the defender is owed the same choice (a decision)
  at 1 SP per 3 units (recorded: the engine keeps no SP pool).
* ``bonus_supply_judgement`` {} - SUR-21: moved HQs recompute their range and supply is judged
  for both sides' units within the surprise front (``surprise_map.bonus_supply_rejudgement``).

Readings: the affected units' markers are those of the defending ground stack in the base hex
(SUR-16: markers raise the count); a unit flies once per game turn; the Table 3 date is the
turn's first day (I = 1st, II = 16th of the month).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations
from typing import Any, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import distance
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.decisions import Decision
from grognard.engine.events import Event
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON
from grognard.europa.board import europa_rules, forces_of, turn_label
from grognard.europa.state_types import (
    AirbaseSurpriseResolved,
    BonusAirRecovered,
    BonusSupplyJudged,
    EuropaState,
)
from grognard.europa.surprise.airbase import (
    AFFECTABLE,
    BaseAirUnit,
    NationOnBase,
    airbase_modifier,
    airbase_surprise,
    all_guards_or_non_soviet_major,
)
from grognard.europa.surprise.effects import (
    AirType,
    RecoveryCandidate,
    bonus_air_recovery,
)
from grognard.europa.surprise.front import SurpriseFront
from grognard.europa.surprise.general import AirStatus, BonusPhase, Nationality, SurpriseKind
from grognard.europa.surprise.map import bonus_supply_rejudgement
from grognard.europa.surprise.turn import BONUS_PHASES, active_surprise, nationality

AIRBASE_STREAM = "europa.surprise.airbase"
#: An Order's own check of candidate commands (those that pass its verify).
Check = Callable[[Context, JSON, Iterable[Command]], list[Command]]
AIRBASE_PICK_STREAM = "europa.surprise.airbase_pick"
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


# --- state ---------------------------------------------------------------------------------------
def initial_air_units(scenario: Scenario) -> dict[str, Any]:
    """``[europa.air_units]`` as the state's ``air_units`` (each unit's status and flights)."""
    from grognard.europa.air.wings import wing_for

    out: dict[str, Any] = {}
    for uid, a in sorted(europa_rules(scenario).section.air_units.items()):
        out[uid] = {"side": a.side, "nationality": a.nationality, "base": a.base,
                    "type": a.type, "status": a.status, "range": a.range,
                    "tactical": a.tactical, "guards": a.guards, "flown": None,
                    "air_combat": a.air_combat, "strategic": a.strategic}
        if a.wing:  # EUR-01: a wing's bombardment ratings from europa_air_wings
            w = wing_for(a.wing)
            out[uid].update(wing=a.wing, tactical=w.tactical, strategic=w.strategic)
    return out


def _air(state: EuropaState) -> dict[str, Any]:
    air: dict[str, Any] = state.get("air_units") or {}
    return air


def _phase(ctx: Context, state: EuropaState) -> Any:
    return ctx.turn_sequence.phases[int(state["phase"])]


def _dist(ctx: Context, a: str, b: str) -> int:
    lay = ctx.scenario.map.layout
    return int(distance(lay.from_label(a), lay.from_label(b)))


def turn_date(ctx: Context, state: EuropaState) -> dt.date:
    """The first day of the game turn ("Jun II 1941" -> 16 Jun 1941; no calendar: 22 Jun 1941)."""
    parts = turn_label(ctx, state).split()
    if len(parts) != 3 or parts[0] not in _MONTHS:
        return dt.date(1941, 6, 22)
    return dt.date(int(parts[2]), _MONTHS.index(parts[0]) + 1, 1 if parts[1] == "I" else 16)


# --- airbase surprise (SUR-22..SUR-24) -----------------------------------------------------------
def _airbase(ctx: Context, state: EuropaState, cmd: Command) -> tuple[str, list[str], list[str], JSON]:
    st = active_surprise(state)
    phase = _phase(ctx, state)
    if st is None or st["player"] != cmd.player or phase.name == "initial":
        raise IllegalOrder("SUR-22", "an airbase surprise is flown by the surprise player in a "
                           "non-initial phase of a surprise turn")
    base = cmd.args.get("base")
    if not isinstance(base, str):
        raise InputError("base", "the enemy airbase's hex label")
    attackers = cmd.args.get("attackers")
    if not isinstance(attackers, list) or not attackers or \
            not all(isinstance(a, str) for a in attackers) or len(set(attackers)) != len(attackers):
        raise InputError("attackers", "a list of distinct air unit ids")
    air = _air(state)
    turn = int(state["turn"])
    for a in attackers:
        u = air.get(a)
        if u is None or u["side"] != cmd.player:
            raise IllegalOrder("SUR-22", f"{a!r} is not one of {cmd.player}'s air units")
        if u["status"] != AirStatus.OPERATIVE.value or u["flown"] == turn:
            raise IllegalOrder("SUR-22", f"{a} is not operative or has flown this turn")
        if u["tactical"] <= 0:
            raise IllegalOrder("SUR-22", f"{a} has no tactical bombing rating")
        if _dist(ctx, u["base"], base) > u["range"]:
            raise IllegalOrder("SUR-22", f"{base} is beyond {a}'s range of {u['range']} hexes")
    defenders = sorted(uid for uid, u in air.items() if u["side"] != cmd.player
                       and u["base"] == base and u["status"] in {s.value for s in AFFECTABLE})
    if not defenders:
        raise IllegalOrder("SUR-22", f"no enemy air units that can be surprised at {base}")
    return base, list(attackers), defenders, st


def verify_airbase_surprise(ctx: Context, state: EuropaState, cmd: Command) -> None:
    _airbase(ctx, state, cmd)


def execute_airbase_surprise(ctx: Context, state: EuropaState, cmd: Command, dice: Dice
                             ) -> list[Event]:
    base, attackers, defenders, st = _airbase(ctx, state, cmd)
    air = _air(state)
    markers = max((int(u.get("mp_markers", 0)) for u in state["units"].values()
                   if u["hex"] == base and u["side"] != cmd.player and u["status"] == "active"),
                  default=0)
    surprise_phase = _phase(ctx, state).name in BONUS_PHASES
    invasion = st["kind"] == SurpriseKind.INVASION.value
    date = turn_date(ctx, state)
    m = ctx.scenario.map
    city = next((c.name for c in m.cities_at(m.layout.from_label(base))), None)
    nations: dict[Nationality, list[str]] = {}
    for uid in defenders:
        nations.setdefault(nationality(air[uid]["nationality"]), []).append(uid)
    on_base = []
    modifiers: dict[str, Any] = {}
    for nat, ids in sorted(nations.items()):
        mod = airbase_modifier(
            date=date, nationality=nat, surprise_phase=surprise_phase, invasion=invasion,
            city=city, all_guards_or_major=all_guards_or_non_soviet_major(
                [(nat, bool(air[u]["guards"])) for u in ids], date, ctx.tables),
            tables=ctx.tables)
        modifiers[nat.value] = [{"name": m.name, "value": m.value} for m in mod.modifiers]
        on_base.append(NationOnBase(nat, tuple(BaseAirUnit(u, AirStatus(air[u]["status"]), nat)
                                               for u in ids), markers=markers,
                                    modifier=mod.modifier))
    die = dice.stream(AIRBASE_STREAM).die(6)
    rec = airbase_surprise(die, len(attackers), on_base, stream=dice.stream(AIRBASE_PICK_STREAM),
                           tables=ctx.tables)
    return [Event("airbase_surprise_resolved", {
        **rec.to_json(), "player": cmd.player, "base": base, "attackers": attackers,
        "markers": markers, "cap": 0, "surprise_phase": surprise_phase,
        "date": date.isoformat(), "modifiers": modifiers, "rules": ["SUR-22", "SUR-24"]})]


def fold_airbase_surprise(state: EuropaState, ev: Event) -> EuropaState:
    d = cast(AirbaseSurpriseResolved, ev.data)
    s = state
    turn = int(s["turn"])
    for a in d["attackers"]:
        s["air_units"][a]["flown"] = turn
    for nation in d["nations"]:
        for u in nation["units"]:
            s["air_units"][u["id"]]["status"] = u["after"]
    st = s.get("surprise_turn")
    if isinstance(st, dict):
        st["air_used"] = sorted({*st.get("air_used", []), *d["attackers"]})
    return s


def legal_airbase_surprise(ctx: Context, state: EuropaState, player: str, check: Check) -> list[Command]:
    """Every enemy airbase in reach, bombed by all the surprise player's air units that reach it
    (verify also accepts any subset)."""
    st = active_surprise(state)
    if st is None or st["player"] != player or _phase(ctx, state).name == "initial":
        return []
    air = _air(state)
    turn = int(state["turn"])
    mine = [(uid, u) for uid, u in sorted(air.items()) if u["side"] == player
            and u["status"] == "operative" and u["flown"] != turn and u["tactical"] > 0]
    bases = sorted({u["base"] for u in air.values() if u["side"] != player
                    and u["status"] in {s.value for s in AFFECTABLE}})
    cands = []
    for b in bases:
        reach = [uid for uid, u in mine if _dist(ctx, u["base"], b) <= u["range"]]
        if reach:
            cands.append(Command("airbase_surprise", player, {"base": b, "attackers": reach}))
    return check(ctx, state, cands)



# --- the bonus supply-judgement / air phase (SUR-21) ---------------------------------------------
def _front(st: JSON) -> SurpriseFront:
    hexes = tuple(st["front"])
    return SurpriseFront(hexes, hexes[len(hexes) // 2], (hexes[0], hexes[-1]), len(hexes) // 2)


def _in_bonus_air(ctx: Context, state: EuropaState) -> JSON:
    st = active_surprise(state)
    if st is None or _phase(ctx, state).name != BonusPhase.BONUS_SUPPLY_AIR.value:
        raise IllegalOrder("SUR-21", "only in the bonus supply-judgement/air phase of a "
                           "surprise turn")
    return st


def _recovery_candidates(ctx: Context, state: EuropaState, player: str, st: JSON
                         ) -> list[RecoveryCandidate]:
    front = st["front"]
    out = []
    for uid, u in sorted(_air(state).items()):
        if u["side"] != player or u["status"] == "eliminated":
            continue
        near = min((_dist(ctx, u["base"], h) for h in front), default=99) <= u["range"]
        t = u["type"] if u["type"] in {a.value for a in AirType} else AirType.OTHER.value
        out.append(RecoveryCandidate(uid, AirType(t), AirStatus(u["status"]), near))
    return out


def _recovery(ctx: Context, state: EuropaState, cmd: Command) -> tuple[Any, JSON]:
    st = _in_bonus_air(ctx, state)
    if cmd.player in st.get("recovered", []):
        raise IllegalOrder("SUR-21", f"{cmd.player} has made its bonus air recovery")
    units = cmd.args.get("units", [])
    if not isinstance(units, list) or not all(isinstance(u, str) for u in units):
        raise InputError("units", "a list of air unit ids")
    cands = {c.id: c for c in _recovery_candidates(ctx, state, cmd.player, st)}
    for u in units:
        if u not in cands:
            raise IllegalOrder("SUR-21", f"{u!r} is not one of {cmd.player}'s air units")
    phasing = cmd.player == st["player"]
    rec = bonus_air_recovery([cands[u] for u in units], phasing=phasing,
                             phasing_air_used=len(st.get("air_used", [])),
                             kind=SurpriseKind(st["kind"]))
    return rec, st


def verify_bonus_air_recovery(ctx: Context, state: EuropaState, cmd: Command) -> None:
    _recovery(ctx, state, cmd)


def execute_bonus_air_recovery(ctx: Context, state: EuropaState, cmd: Command, dice: Dice
                               ) -> list[Event]:
    rec, st = _recovery(ctx, state, cmd)
    return [Event("bonus_air_recovered", {"player": cmd.player,
                                          "phasing": cmd.player == st["player"],
                                          **rec.to_json(),
                                          "rules": ["SUR-21"] if rec.restored else []})]


def fold_bonus_air_recovery(state: EuropaState, ev: Event) -> EuropaState:
    d = cast(BonusAirRecovered, ev.data)
    s = state
    for r in d["restored"]:
        s["air_units"][r["id"]]["status"] = r["to"]
    st = s["surprise_turn"]
    st["recovered"] = sorted({*st.get("recovered", []), d["player"]})
    return s


def legal_bonus_air_recovery(ctx: Context, state: EuropaState, player: str, check: Check) -> list[Command]:
    """Each unit alone and as many as the limit allows (in unit order); for the defender,
    whose decision it is, also none."""
    try:
        st = _in_bonus_air(ctx, state)
    except IllegalOrder:
        return []
    if player in st.get("recovered", []):
        return []
    ids = [c.id for c in _recovery_candidates(ctx, state, player, st)
           if c.status.value in ("inoperative", "X", "damaged")]
    picks: list[Sequence[str]] = [[i] for i in ids]
    if player != st["player"]:
        picks.insert(0, [])
    limit = len(ids) if player == st["player"] and st["kind"] == "invasion" \
        else len(st.get("air_used", []))
    if limit > 1 and len(ids) > 1:
        picks += [list(c) for c in combinations(ids, min(limit, len(ids)))][:3]
    return check(ctx, state, [
        Command("bonus_air_recovery", player, {"units": list(p)}) for p in picks])


def recovery_decisions(ctx: Context, state: EuropaState) -> list[Decision]:
    """SUR-21 In the bonus air phase the defender is owed its own recovery choice (at 1 SP per
    3 units) when it has air units to restore."""
    st = active_surprise(state)
    if st is None or _phase(ctx, state).name != BonusPhase.BONUS_SUPPLY_AIR.value:
        return []
    defender = next(s for s in state["sides"] if s != st["player"])
    if defender in st.get("recovered", []):
        return []
    if not any(u["side"] == defender and u["status"] in ("inoperative", "X", "damaged")
               for u in _air(state).values()):
        return []
    return [Decision(defender, frozenset({"bonus_air_recovery"}),
                     f"{defender.capitalize()}: restore air units in the bonus air phase "
                     "(1 SP per 3), or none", "SUR-21")]


# --- the bonus supply judgement (SUR-21) ---------------------------------------------------------
def _judgement(ctx: Context, state: EuropaState) -> Any:
    st = _in_bonus_air(ctx, state)
    if st.get("judged"):
        raise IllegalOrder("SUR-21", "supply has been judged in this bonus phase")
    cfg = europa_rules(ctx.scenario).section
    moved = set(st.get("moved", []))
    hqs = sorted(uid for uid in moved if state["units"][uid]["type"] == "hq"
                 and state["units"][uid]["status"] == "active" and state["units"][uid]["hex"])
    return bonus_supply_rejudgement(ctx.scenario.map, forces_of(ctx, state), _front(st), hqs,
                                    cfg.supply_sources, max_length=cfg.supply_max_length)


def verify_bonus_supply(ctx: Context, state: EuropaState, cmd: Command) -> None:
    _judgement(ctx, state)


def execute_bonus_supply(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    rec = _judgement(ctx, state)
    return [Event("bonus_supply_judged", {"player": cmd.player, **rec.to_json(),
                                          "rules": ["SUR-21"]})]


def fold_bonus_supply(state: EuropaState, ev: Event) -> EuropaState:
    d = cast(BonusSupplyJudged, ev.data)
    s = state
    for uid, ok in d["in_supply"].items():
        u = s["units"][uid]
        if not ok:
            u["supply"] = "out"
        elif u["supply"] == "out":
            u["supply"] = "in"
    s["surprise_turn"]["judged"] = True
    return s


def legal_bonus_supply(ctx: Context, state: EuropaState, player: str, check: Check) -> list[Command]:
    return check(ctx, state,
                     [Command("bonus_supply_judgement", player, {})])
