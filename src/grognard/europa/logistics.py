"""EUR-37..EUR-41 in play: the Fire in the East supply stockpiles of a scenario that has a
``[europa.logistics]`` table (``europa-barbarossa``, ``europa-fite-surprise``).

* Stockpiles (EUR-38/EUR-40): the side named ``german`` starts with 120 SPs, the ``soviet``
  side with 160 (the rates table's meta); ``state["logistics"]["sp"]`` holds them exactly.
* Receipt (EUR-38/EUR-40/EUR-41): when a side's initial phase opens, it receives the rate of
  the current zone (Soviet: plus the May 1942 / July 1943 increments), less the weather
  reduction of the turn's weather (the scenario's ``[europa] weather``; ``winter`` is read as
  ``snow``): a ``supply_received`` event.
* Zones (EUR-38): after each move or advance of a German-side unit the unit's hex is checked
  against the scenario's three ``lines`` (hex labels of the named cities, west to east; cities
  beyond the map edge at positions judged by the map's projection); the zone never moves back;
  entering a new one shrinks the German stockpile by new rate / old rate
  (``supply_zone_entered``). Reading: the moving unit alone is checked (zones only go up, so
  no other unit can have changed it), with the scenario's ``rear`` hex for "beyond the line".
* Costs (EUR-37): a mechanized division (armor, armored infantry, mechanized) pays 1 SP the
  first time it moves in its side's game turn, a motorized division 1/2; each in-supply
  attacking division 1 SP per combat or overrun (Axis-minor infantry and cavalry 1 per 2,
  ceil per combat), artillery support 1 SP a combat. The halves are summed exactly over the
  side's game turn and the stockpile is charged the rounded-up total as it grows
  (``sp_half_rounding``): an ``sp_paid`` event after the move or combat. Cadres,
  non-divisional units and out-of-supply units pay nothing; defending is free.
* Unfuelled (EUR-37): a mechanized or motorized division whose move the stockpile cannot pay
  moves unfuelled: only in a normal movement phase, at most half its MA in the phase, and it
  may not attack this turn (``unfuelled_turn`` on the unit). An attack the stockpile cannot pay
  is refused.
* Surprise-turn allocation (EUR-39): a FitE scenario's German side also holds 160 special SPs,
  spent first on the surprise turn's fuel and attacks (overruns and exploitation are not
  played on it, EUR-44) and lost when the surprise combat phase ends
  (``special_supply_expired``). Reading: every German-side unit counts as one of Army Groups
  North, Center or South.

* Air (EUR-37): air units used pay 1 SP per 3 a game turn, the count rounded to the nearest
  point: a mission's units when it is assigned, a player's interceptors when they intercept
  (:func:`air_payment`; EUR-39 special SPs first on the surprise turn). The rule-47 airbase
  surprise's own air steps do not pay (reading: they are the surprise's, paid by its SRPs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import ceil_q, exact_json
from grognard.core.hexgrid import Hex
from grognard.core.memo import IdentityMemo
from grognard.core.tables import TableSet
from grognard.engine.context import Context
from grognard.engine.events import Event, writes_units
from grognard.engine.phases import Phase
from grognard.engine.scenario import Scenario
from grognard.europa.board import (
    SURPRISE_PREFIX,
    europa_rules,
    fite_surprise_turn,
    readings_from,
    readings_of,
    scenario_weather,
    turn_date,
)
from grognard.europa.state_types import (
    EuropaState,
    EuropaUnit,
    Logistics,
    LogisticsOps,
    SpPaid,
    SupplyReceived,
    SupplyZoneEntered,
)
from grognard.europa.supply.logistics import (
    Combat,
    Operations,
    Receipt,
    SpCost,
    ZoneLine,
    initial_stockpile,
    line_reached,
    sp_cost,
    special_allocation,
    stockpile_on_transition,
    turn_receipt,
)
from grognard.europa.supply.phase import HalfRounding, SupplyReadings
from grognard.europa.surprise.effects import surprise_attack_sp
from grognard.europa.surprise.general import BonusPhase

#: EUR-37 the unit types that move as mechanized (1 SP) and as motorized (1/2 SP).
MECHANIZED_TYPES = frozenset({"armor", "armored_infantry", "mechanized"})
MOTORIZED_TYPES = frozenset({"motorized"})
#: EUR-37 Axis-minor divisions that pay 1 SP per 2 when they attack (non-German nationality).
MINOR_TYPES = frozenset({"infantry", "cavalry", "mountain"})
#: EUR-37 the normal movement phases (an unfuelled division may move only in these).
NORMAL_MOVEMENT = frozenset({"movement", SURPRISE_PREFIX + "movement"})
#: EUR-41 Europa weather the receipt table does not name, read as one it does.
WEATHER_READING = {"winter": "snow"}


@dataclass(frozen=True)
class LogisticsConfig:
    """A scenario's ``[europa.logistics]``: which side draws on the German rates and which on
    the Soviet ones, the German rear reference hex and the three EUR-38 lines."""

    german: str
    soviet: str
    rear: Hex
    lines: tuple[ZoneLine, ...]


def _config(scenario: Scenario) -> LogisticsConfig | None:
    """``[europa.logistics]`` as the scenario's :class:`LogisticsConfig` (its types and sides
    checked when the scenario was parsed, europa/scenario_schema.py); the labels of the lines
    are read here, since a city of a line may lie beyond the map's edge."""
    lg = europa_rules(scenario).section.logistics
    if lg is None:
        return None
    where, layout = "europa.logistics", scenario.map.layout

    def at(label: str, field: str) -> Hex:
        # a city of a line may lie beyond the map's edge: the label is read, not looked up
        try:
            return layout.from_label(label)
        except (InputError, ValueError):
            raise InputError(field, f"not a hex label: {label!r}") from None

    return LogisticsConfig(lg.german, lg.soviet, at(lg.rear, f"{where}.rear"), tuple(
        ZoneLine(f"line {i}", tuple(at(h, f"{where}.lines[{i}]") for h in x))
        for i, x in enumerate(lg.lines, start=1)))


#: Each scenario's logistics, read once from its ``[europa]`` table (``Scenario.rules``).
_CONFIGS: IdentityMemo[Scenario, LogisticsConfig | None] = IdentityMemo(8)


def logistics_config(scenario: Scenario) -> LogisticsConfig | None:
    """The scenario's logistics (None: the scenario plays without SPs)."""
    return _CONFIGS.get(scenario, _config)


def _rates(cfg: LogisticsConfig, side: str) -> str:
    """EUR-38/EUR-40 whose rates ``side`` draws on: ``german`` or ``soviet``."""
    return "german" if side == cfg.german else "soviet"


def initial_logistics(scenario: Scenario, opening: Phase | None = None) -> Logistics | None:
    """EUR-38/EUR-39/EUR-40 the opening stockpiles (and the surprise turn's special SPs). A
    game that opens in a side's initial phase (not on the FitE surprise turn) has that side's
    turn-1 receipt in the stockpile already (``opening_receipt``): no phase change brings it."""
    cfg = logistics_config(scenario)
    if cfg is None:
        return None
    out: Logistics = {"zone": 1,
                 "sp": {cfg.german: exact_json(Fraction(initial_stockpile("german"))),
                        cfg.soviet: exact_json(Fraction(initial_stockpile("soviet")))},
                 "special": exact_json(Fraction(special_allocation(fite_surprise_turn(scenario)))),
                 "ops": {}}
    if opening is not None and opening.name == "initial" and opening.player in out["sp"]:
        r = _receipt(scenario, cfg, opening.player, 1, 1,
                     readings_from(scenario.readings, SupplyReadings), None)
        out["sp"][opening.player] = exact_json(Fraction(out["sp"][opening.player]) + r.received)
        out["opening_receipt"] = dict(r.to_json(), side=opening.player)
    return out


def active(ctx: Context, state: EuropaState) -> LogisticsConfig | None:
    return logistics_config(ctx.scenario) if state.get("logistics") else None


# --- the turn's date -----------------------------------------------------------------------
def turn_month(scenario: Scenario, turn: int) -> str:
    """``YYYY-MM`` of a game turn (for the EUR-40 increments); June 1941 without a dated
    calendar."""
    date = turn_date(scenario, turn)
    return "1941-06" if date is None else f"{date[0]:04d}-{date[1]:02d}"


# --- receipt (EUR-38/40/41) and the special allocation (EUR-39) ------------------------------
def _receipt(scenario: Scenario, cfg: LogisticsConfig, side: str, zone: int, turn: int,
             readings: SupplyReadings, tables: TableSet | None) -> Receipt:
    weather = scenario_weather(scenario, turn)
    return turn_receipt(_rates(cfg, side), zone, turn_month(scenario, turn),
                        WEATHER_READING.get(weather, weather), readings, tables)


def receipt_event(ctx: Context, state: EuropaState, side: str, turn: int) -> Event | None:
    """EUR-38/EUR-40/EUR-41 ``side``'s receipt as its initial phase of ``turn`` opens."""
    cfg = active(ctx, state)
    if cfg is None or side not in (cfg.german, cfg.soviet):
        return None
    lg = state["logistics"]
    r = _receipt(ctx.scenario, cfg, side, int(lg["zone"]), turn,
                 readings_of(ctx, SupplyReadings), ctx.tables)
    before = Fraction(lg["sp"][side])
    kind = _rates(cfg, side)
    rules = ["EUR-38" if kind == "german" else "EUR-40", *(["EUR-41"] if r.reduction else [])]
    return Event("supply_received", {**r.to_json(), "side": side, "rates": kind, "turn": turn,
                                     "turn_weather": scenario_weather(ctx.scenario, turn),
                                     "sp_before": exact_json(before),
                                     "sp_after": exact_json(before + r.received),
                                     "rules": rules})


def fold_supply_received(state: EuropaState, ev: Event) -> EuropaState:
    d = cast(SupplyReceived, ev.data)
    state["logistics"]["sp"][d["side"]] = d["sp_after"]
    return state


def phase_change_events(ctx: Context, state: EuropaState, to_phase: int, to_turn: int
                        ) -> list[Event]:
    """What logistics does as play moves to phase ``to_phase`` of ``to_turn``: the special
    SPs lost when the surprise phases are over (EUR-39); the receipt of the side whose
    initial phase opens (EUR-38/40/41)."""
    if active(ctx, state) is None:
        return []
    out: list[Event] = []
    phases = ctx.turn_sequence.phases
    now, nxt = phases[int(state["phase"])], phases[to_phase]
    special = Fraction(state["logistics"]["special"])
    if special and now.name.startswith(SURPRISE_PREFIX) and not nxt.name.startswith(
            SURPRISE_PREFIX):
        out.append(Event("special_supply_expired", {"side": now.player,
                                                    "lost": exact_json(special),
                                                    "rules": ["EUR-39"]}))
    if nxt.name == "initial":
        ev = receipt_event(ctx, state, nxt.player, to_turn)
        if ev is not None:
            out.append(ev)
    return out


def fold_special_expired(state: EuropaState, ev: Event) -> EuropaState:
    state["logistics"]["special"] = 0
    return state


# --- zones (EUR-38) ------------------------------------------------------------------------------
def zone_event(ctx: Context, state: EuropaState, side: str, hexes: list[str],
               spent: Fraction | int = 0) -> Event | None:
    """EUR-38 The zone the German advance enters when ``side``'s units reach ``hexes``: the
    furthest line reached, never back; the stockpile (less ``spent``, what the same command
    pays first) shrinks by new rate / old rate."""
    cfg = active(ctx, state)
    if cfg is None or side != cfg.german or not hexes:
        return None
    lg = state["logistics"]
    old = int(lg["zone"])
    layout = ctx.scenario.map.layout
    units = [layout.from_label(h) for h in hexes]
    new = old
    for z, line in enumerate(cfg.lines, start=2):
        if z > new and line_reached(units, line, cfg.rear):
            new = z
    if new == old:
        return None
    before = Fraction(lg["sp"][side]) - Fraction(spent)
    factor = stockpile_on_transition(1, old, new, "german", ctx.tables)
    return Event("supply_zone_entered", {"side": side, "from": old, "to": new,
                                         "hexes": hexes, "factor": exact_json(factor),
                                         "sp_before": exact_json(before),
                                         "sp_after": exact_json(before * factor),
                                         "rules": ["EUR-38"]})


def fold_zone_entered(state: EuropaState, ev: Event) -> EuropaState:
    d = cast(SupplyZoneEntered, ev.data)
    lg = state["logistics"]
    lg["zone"] = d["to"]
    lg["sp"][d["side"]] = exact_json(Fraction(lg["sp"][d["side"]])
                                           * Fraction(d["factor"]))
    return state


# --- costs (EUR-37) -----------------------------------------------------------------------------
def _ops(state: EuropaState, side: str) -> LogisticsOps:
    """The side's paid operations this game turn (``moved``, ``owed`` exact)."""
    rec = state["logistics"]["ops"].get(side)
    if not isinstance(rec, dict) or rec.get("turn") != int(state["turn"]):
        return {"turn": int(state["turn"]), "moved": [], "owed": "0"}
    return rec


def _paying(u: EuropaUnit) -> bool:
    return bool(u["divisional"]) and not u["cadre"] and u.get("supply", "in") == "in"


def _due(ctx: Context, owed: Fraction) -> Fraction:
    r = readings_of(ctx, SupplyReadings)
    return owed if r.sp_half_rounding == HalfRounding.EXACT else Fraction(ceil_q(owed))


def _sp_cost(ctx: Context, ops: Operations) -> SpCost:
    """EUR-37 :func:`sp_cost` of ``ops`` under the game's readings and tables, found once per
    game and operations (a function of those only; the cost is frozen: the lister prices
    every attack and move again after each command)."""
    readings = readings_of(ctx, SupplyReadings)
    costs: dict[Operations, SpCost] = ctx.kept_table("europa.sp_costs", readings, ctx.tables)
    cost = costs.get(ops)
    if cost is None:
        cost = costs[ops] = sp_cost(ops, readings, ctx.tables)
    return cost


def _payment(ctx: Context, state: EuropaState, side: str, ops: Operations, what: str,
             special_ok: bool) -> dict[str, Any] | None:
    """EUR-37 The charge of ``ops`` on top of the side's game turn so far, and where it comes
    from (EUR-39 special SPs first on the surprise turn); None if it costs nothing. Raises
    :class:`IllegalOrder` when the stockpile cannot pay."""
    cost = _sp_cost(ctx, ops)
    if cost.exact == 0:
        return None
    owed = Fraction(_ops(state, side)["owed"])
    charge = _due(ctx, owed + cost.exact) - _due(ctx, owed)
    return _charged(state, side, what, cost.to_json()["items"], cost.exact, charge,
                    special_ok, owed_after=owed + cost.exact)


def _charged(state: EuropaState, side: str, what: str, items: list[Any], exact: Fraction,
             charge: Fraction, special_ok: bool, owed_after: Fraction) -> dict[str, Any]:
    """The ``sp_paid`` data of a ``charge`` (EUR-39 special SPs first where ``special_ok``);
    :class:`IllegalOrder` when the side cannot pay it."""
    lg = state["logistics"]
    special = Fraction(lg["special"]) if special_ok else Fraction(0)
    stock = Fraction(lg["sp"][side])
    if charge > special + stock:
        raise IllegalOrder("EUR-37", f"{what} costs {exact_json(charge)} SP and {side} has "
                           f"{exact_json(special + stock)} (a move or attack that cannot be "
                           "paid is not allowed)")
    from_special = min(special, charge)
    rules = ["EUR-37", *(["EUR-39"] if from_special else [])]
    return {"side": side, "what": what, "items": items,
            "exact": exact_json(exact), "charge": exact_json(charge),
            "special": exact_json(from_special), "sp": exact_json(charge - from_special),
            "owed_after": exact_json(owed_after), "rules": rules}


def _surprise_phase(ctx: Context, state: EuropaState) -> bool:
    return ctx.turn_sequence.phases[int(state["phase"])].name.startswith(SURPRISE_PREFIX)


@dataclass(frozen=True)
class MovePayment:
    """EUR-37 what a move costs: the ``sp_paid`` data (None: free or already paid this turn)
    and whether the division moves unfuelled."""

    paid: dict[str, Any] | None
    unfuelled: bool


def move_payment(ctx: Context, state: EuropaState, uid: str, mp: int) -> MovePayment:
    """EUR-37 A mechanized division pays 1 SP, a motorized one 1/2, the first time it moves in
    its side's game turn; one the stockpile cannot pay moves unfuelled (a normal movement
    phase only, at most half its MA in the phase; IllegalOrder otherwise)."""
    cfg = active(ctx, state)
    u = state["units"][uid]
    if cfg is None or not _paying(u) or u["side"] not in (cfg.german, cfg.soviet):
        return MovePayment(None, False)
    if u["type"] not in MECHANIZED_TYPES | MOTORIZED_TYPES:
        return MovePayment(None, False)
    side = str(u["side"])
    if u.get("unfuelled_turn") == int(state["turn"]):
        return MovePayment(None, _unfuelled(ctx, state, uid, mp))
    if uid in _ops(state, side)["moved"]:
        return MovePayment(None, False)
    mech = u["type"] in MECHANIZED_TYPES
    ops = Operations(mechanized_moves=int(mech), motorized_moves=int(not mech))
    try:
        paid = _payment(ctx, state, side, ops, f"{uid}'s move",
                        special_ok=side == cfg.german and _surprise_phase(ctx, state))
    except IllegalOrder:
        return MovePayment(None, _unfuelled(ctx, state, uid, mp))
    if paid is not None:
        paid["moved"] = uid
    return MovePayment(paid, False)


def _unfuelled(ctx: Context, state: EuropaState, uid: str, mp: int) -> bool:
    u = state["units"][uid]
    phase = ctx.turn_sequence.phases[int(state["phase"])].name
    if phase not in NORMAL_MOVEMENT:
        raise IllegalOrder("EUR-37", f"{uid} has no fuel (SPs) and may move unfuelled only in "
                           "the normal movement phase")
    half = Fraction(int(u["movement"]), 2)
    if int(u["mp_spent"]) + mp > half:
        raise IllegalOrder("EUR-37", f"{uid} has no fuel (SPs): unfuelled it moves at most "
                           f"half its MA ({exact_json(half)} MPs), and this move makes "
                           f"{int(u['mp_spent']) + mp}")
    return True


def _attack_ops(ctx: Context, state: EuropaState, side: str, attackers: list[str],
                overrun: bool) -> tuple[Operations, str, bool] | None:
    """EUR-37 What an attack pays for (its operations, named for the refusal, and whether
    EUR-39 special SPs may pay); None where no SPs are kept; refused when an attacker moved
    unfuelled this turn."""
    cfg = active(ctx, state)
    if cfg is None or side not in (cfg.german, cfg.soviet):
        return None
    turn = int(state["turn"])
    divisions = minors = 0
    artillery = False
    for uid in attackers:
        u = state["units"][uid]
        if u.get("unfuelled_turn") == turn:
            raise IllegalOrder("EUR-37", f"{uid} moved unfuelled this turn and may not attack")
        if u.get("supply", "in") != "in":
            continue
        if u["type"] == "artillery":
            artillery = True
        if not _paying(u):
            continue
        if side == cfg.german and u["nationality"] != "german" and u["type"] in MINOR_TYPES:
            minors += 1
        elif u["type"] != "artillery":
            divisions += 1
    ops = Operations(combats=(Combat(divisions=divisions, minor_divisions=minors,
                                     artillery=artillery, overrun=overrun),))
    return (ops, "the overrun" if overrun else "the attack",
            side == cfg.german and _surprise_phase(ctx, state))


def attack_payment(ctx: Context, state: EuropaState, side: str, attackers: list[str], overrun: bool
                   ) -> dict[str, Any] | None:
    """EUR-37 An attack's SPs: 1 per attacking in-supply division (Axis-minor infantry and
    cavalry 1 per 2), 1 for artillery support; refused when unpayable or when an attacker
    moved unfuelled this turn."""
    got = _attack_ops(ctx, state, side, attackers, overrun)
    if got is None:
        return None
    ops, what, special_ok = got
    return _payment(ctx, state, side, ops, what, special_ok=special_ok)


def _refusal_key(state: EuropaState, side: str, ops: Operations, what: str, special_ok: bool
                 ) -> tuple[Any, ...]:
    """All :func:`_payment` reads besides the game's readings and tables."""
    lg = state["logistics"]
    return (side, ops, what, special_ok, _ops(state, side)["owed"],
            lg["special"] if special_ok else None, lg["sp"][side])


#: how many verdicts of :func:`attack_refusal` a game keeps (a new table when it is full)
_REFUSALS_KEPT = 4096


def attack_refusal(ctx: Context, state: EuropaState, side: str, attackers: list[str],
                   overrun: bool) -> IllegalOrder | None:
    """EUR-37 Why :func:`attack_payment` refuses the attack (None: it does not), for verify.
    The stockpile's verdict on the attack's operations is kept per game under all it reads
    (the side, the operations, the side's charges owed this turn, its SPs and, where they may
    pay, the special SPs): the listers verify every attack again after each command, and the
    verdict's charge arithmetic costs more than the order's other checks.
    tests/bots/test_europa_speed_s18_combat.py compares it with the plain verdict."""
    try:
        got = _attack_ops(ctx, state, side, attackers, overrun)
    except IllegalOrder as exc:
        return exc
    if got is None:
        return None
    ops, what, special_ok = got
    key = _refusal_key(state, side, ops, what, special_ok)
    known: dict[Any, IllegalOrder | None] = ctx.kept_table(
        "europa.attack_sp_refusals", readings_of(ctx, SupplyReadings), ctx.tables)
    if key in known:
        return known[key]
    refusal: IllegalOrder | None = None
    try:
        _payment(ctx, state, side, ops, what, special_ok=special_ok)
    except IllegalOrder as exc:
        refusal = exc
    if len(known) >= _REFUSALS_KEPT:
        known.clear()
    known[key] = refusal
    return refusal


def air_payment(ctx: Context, state: EuropaState, side: str, units: list[str]
                ) -> dict[str, Any] | None:
    """EUR-37 Air units used: 1 SP per 3 a game turn, the turn's count rounded to the nearest
    point; a command flying units not used yet this turn pays what the rounded total grows
    by (refused if the side cannot pay). Only the scenario's air units (``air_units``) of
    ``side`` count."""
    cfg = active(ctx, state)
    if cfg is None or side not in (cfg.german, cfg.soviet):
        return None
    air = state.get("air_units") or {}
    used = list(_ops(state, side).get("air", []))
    new = sorted({u for u in units if isinstance(air.get(u), dict)
                  and air[u].get("side") == side} - set(used))
    if not new:
        return None
    readings = readings_of(ctx, SupplyReadings)

    def cost(n: int) -> Fraction:
        return sp_cost(Operations(air_units=n), readings, ctx.tables).exact

    before, after = cost(len(used)), cost(len(used) + len(new))
    items = [{"item": f"{len(new)} air unit(s) used ({len(used) + len(new)} this turn)",
              "sp": exact_json(after - before)}]
    paid = _charged(state, side, f"air units {', '.join(new)}", items, after - before,
                    after - before, special_ok=side == cfg.german and _surprise_phase(ctx, state),
                    owed_after=Fraction(_ops(state, side)["owed"]))
    paid["air"] = new
    return paid


def paid_event(paid: dict[str, Any]) -> Event:
    return Event("sp_paid", paid)


@writes_units()
def fold_sp_paid(state: EuropaState, ev: Event) -> EuropaState:
    d = cast(SpPaid, ev.data)
    lg = state["logistics"]
    side = d["side"]
    rec = _ops(state, side).copy()
    rec["owed"] = d["owed_after"]
    if "moved" in d:
        rec["moved"] = [*rec["moved"], d["moved"]]
    if "air" in d:
        rec["air"] = [*rec.get("air", []), *d["air"]]
    lg["ops"] = {**lg["ops"], side: rec}
    lg["special"] = exact_json(Fraction(lg["special"]) - Fraction(d["special"]))
    lg["sp"][side] = exact_json(Fraction(lg["sp"][side]) - Fraction(d["sp"]))
    return state


def fold_unfuelled(state: EuropaState, uid: str) -> None:
    state["units"][uid]["unfuelled_turn"] = int(state["turn"])


FOLDS = {
    "supply_received": fold_supply_received,
    "supply_zone_entered": fold_zone_entered,
    "sp_paid": fold_sp_paid,
    "special_supply_expired": fold_special_expired,
}

__all__ = ["FOLDS", "LogisticsConfig", "MovePayment", "air_payment", "attack_payment",
           "attack_refusal",
           "initial_logistics",
           "logistics_config", "move_payment", "paid_event", "phase_change_events",
           "turn_month", "zone_event"]


# --- bonus combat (SUR-20) ----------------------------------------------------------------------
def bonus_combat_supply(ctx: Context, state: EuropaState, attackers: Sequence[str]) -> dict[str, Any]:
    """SUR-20 (47.A.5.i) An attack in the bonus combat phase needs no supply: of its EUR-37 cost
    (1 SP per attacking in-supply division) only the weather's extra part and other extras are
    paid. Reading: the engine's weather carries no supply multiplier and no extra SP costs, so
    the attack pays 0 and the event records what was waived. Empty outside the bonus combat."""
    phase = ctx.turn_sequence.phases[int(state["phase"])]
    if phase.name != BonusPhase.BONUS_COMBAT.value:
        return {}
    units = state["units"]
    divisions = sum(1 for uid in attackers if units[uid]["divisional"] and not units[uid]["cadre"]
                    and units[uid]["supply"] == "in")
    normal = sp_cost(Operations(combats=(Combat(divisions=divisions),)),
                     readings_of(ctx, SupplyReadings), ctx.tables).total
    paid = surprise_attack_sp(normal, 1, 0)
    return {"surprise_supply": {"normal": exact_json(normal), "paid": exact_json(paid)},
            "rules": ["SUR-01", "SUR-20"]}


def overrun_sp_cost(ctx: Context, divisions: int) -> Any:
    """EUR-37 The SP cost of an overrun by ``divisions`` attacking in-supply divisions (the
    supply rules' ``sp_cost`` of one overrun combat)."""
    return sp_cost(Operations(combats=(Combat(divisions=divisions, overrun=True),)),
                   readings_of(ctx, SupplyReadings), ctx.tables)
