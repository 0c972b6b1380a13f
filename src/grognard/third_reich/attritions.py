"""TR-38..TR-41 in the position (a position module, below the combat Orders and ``play/``):
attrition, hexes won, withdrawals, saves. It reads the supply map and pays through the economy,
so it sits at the top of ``third_reich/`` rather than in ``combat/``.

Commands ``attrition`` (TR-38/TR-39), ``take_hexes`` (TR-40: the attacker names the hexes),
``withdraw`` (TR-40: the defender's retreat hexes, then the attackers' advance) and
``save_attrition_losses`` (TR-41). Formats: docs/formats/tr_engine.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, writes_units
from grognard.third_reich import war
from grognard.third_reich.board import (
    adjacent_any,
    economy_of,
    eliminate_units,
    forces_of_state,
    front_mask,
    ground_by_hex,
    ground_unit_of,
    hex_stacking_limit,
    on_map_ground,
)
from grognard.third_reich.combat.attrition import (
    attrition_table,
    exact_removals,
    removal_value,
    resolve_attrition,
    save_with_replacement,
    verify_attrition_removal,
    verify_hexes_won,
)
from grognard.third_reich.combat.combat import STACKING_LIMIT
from grognard.third_reich.economy.economy import spend, verify_spend
from grognard.third_reich.state_types import (
    AttritionLoss,
    AttritionLossesRemoved,
    AttritionLossesSaved,
    AttritionResolved,
    EconomyJSON,
    FrontOption,
    HexesTaken,
    PendingHexes,
    PendingLosses,
    PendingWithdrawal,
    TRState,
    TRUnit,
    Withdrawn,
)
from grognard.third_reich.supply.supply_map import attrition_contact, hexes_won_candidates
from grognard.third_reich.turn.forces import GroundKind
from grognard.third_reich.turn.options import parse_front, unit_cost

# --- attrition ----------------------------------------------------------------------------------------


def _front_arg(cmd: Command) -> str:
    return parse_front(str(cmd.args.get("front", ""))).value


def verify_attrition(ctx: Context, state: TRState, cmd: Command) -> None:
    front = _front_arg(cmd)
    if state["options"].get(cmd.player, {}).get(front, cast(FrontOption, {})).get("option") \
            != "attrition":
        raise IllegalOrder("TR-38", f"{cmd.player} has no attrition option on the {front} front")
    if f"{cmd.player}:{front}" in state["attrition_done"]:
        raise IllegalOrder("TR-38", f"attrition on the {front} front is done this turn")
    if not war.attrition_participants(ctx, state, cmd.player, front):
        raise IllegalOrder("TR-03", f"no power of {cmd.player} has its own attrition option "
                           f"on the {front} front")


def execute_attrition(ctx: Context, state: TRState, cmd: Command, dice: Dice) -> list[Event]:
    m = ctx.scenario.map
    front = _front_arg(cmd)
    forces = forces_of_state(ctx, state)
    mask = front_mask(m, front)
    # TR-03/TR-22 (issue 23): only units under their own power's attrition option take part;
    # TR-25: only enemy units of countries at war with a taking-part power are in contact
    takes_part = war.attrition_participants(ctx, state, cmd.player, front)
    factors = [0 if state["units"][u]["type"] == "replacement" or (
        state["units"][u]["side"] == cmd.player and
        war.power_of(state, u) not in takes_part) else
        int(state["units"][u]["attack"]) for u in forces.ids]
    mine = attrition_contact(m, forces, cmd.player, factors, mask)
    mine = replace(mine, units=tuple(u for u in mine.units
                                     if war.power_of(state, u) in takes_part))
    enemy_ids = sorted({str(state["units"][u]["side"]) for u in forces.ids} - {cmd.player})
    theirs: list[str] = []
    for e in enemy_ids:
        theirs += attrition_contact(m, forces, e, factors, None).units
    mine_hexes = cast("set[str]", {state["units"][u]["hex"] for u in mine.units})
    at_war: dict[str, bool] = {}  # TR-25 by the unit's power, asked once per power

    def warring(p: str) -> bool:
        got = at_war.get(p)
        if got is None:
            got = at_war[p] = war.at_war_with_any(state, p, takes_part)
        return got
    theirs = [u for u in theirs if adjacent_any(m, cast(str, state["units"][u]["hex"]), mine_hexes)
              and warring(war.power_of(state, u))]
    if war.has_diplomacy(state):  # in contact only with enemy units at war (TR-25)
        their_hexes = cast("set[str]", {state["units"][u]["hex"] for u in theirs})
        keep = tuple(u for u in mine.units
                     if adjacent_any(m, cast(str, state["units"][u]["hex"]), their_hexes))
        mine = replace(mine, units=keep, factors=sum(
            0 if state["units"][u]["type"] == "replacement" else int(state["units"][u]["attack"])
            for u in keep))
    roll = dice.stream("third_reich.attrition").roll("2d6")
    out = resolve_attrition(mine.factors, roll.total, attrition_table(ctx.tables))
    # TR-38: "The side taking the losses decides which units to remove": the engine removes
    # them only when there is no choice; else the loss is owed to that side (remove_losses)
    owed: dict[str, Any] = {}
    a_lost = forced_removal(state, list(mine.units), out.result.attacker_units)
    if a_lost is None:
        a_lost, owed[cmd.player] = [], {"n": out.result.attacker_units,
                                         "units": list(mine.units)}
    d_lost = forced_removal(state, theirs, out.result.defender_units)
    if d_lost is None:
        d_side = str(state["units"][theirs[0]]["side"])
        d_lost, owed[d_side] = [], {"n": out.result.defender_units, "units": list(theirs)}
    cands = hexes_won_candidates(m, forces, cmd.player, state["bridgeheads"], mask)
    eligible = [c.id for c in cands if c.eligible
                and war.open_to_any(ctx, state, takes_part, c.id)]
    extra: dict[str, Any] = {}
    if owed:
        extra["losses_owed"] = owed
        extra["hex_units"] = {h: ground_units_in(ctx, state, h) for h in eligible}
    return [Event("attrition_resolved", {
        "side": cmd.player, "front": front, "contact_units": list(mine.units),
        "factors": mine.factors, "dice": list(roll.dice) if out.column else [],
        **out.to_json(), "eliminated": sorted(a_lost + d_lost),
        "hex_candidates": [h for h in eligible
                           if not all(u in d_lost for u in ground_units_in(ctx, state, h))],
        **extra,
    })]


def ground_units_in(ctx: Context, state: TRState, label: str) -> list[str]:
    """The ground units on the map in hex ``label``, sorted (the position's
    :func:`~grognard.third_reich.board.ground_by_hex`, not a scan of every unit)."""
    return list(ground_by_hex(ctx, state).get(label, ()))


@writes_units(lambda ev: ev.data["eliminated"])
def fold_attrition_resolved(state: TRState, ev: Event) -> TRState:
    s = state
    d = cast(AttritionResolved, ev.data)
    s["attrition_losses"] = [*state["attrition_losses"], *(
        cast(AttritionLoss, {"unit": uid, "hex": state["units"][uid]["hex"], "side": d["side"]})
        for uid in d["eliminated"])]
    eliminate_units(s, list(d["eliminated"]))
    s["attrition_done"] = [*state["attrition_done"], f"{d['side']}:{d['front']}"]
    attackers = [u for u in d["contact_units"] if u not in d["eliminated"]]
    if d.get("losses_owed"):  # TR-38: the hexes won wait for the losses chosen
        s["pending_losses"] = {"side": d["side"], "front": d["front"], "hexes": d["hexes"],
                               "owed": d["losses_owed"], "candidates": {
                                   h: d["hex_units"][h] for h in d["hex_units"]},
                               "attackers": attackers}
        s["pending_hexes"] = None
        return s
    s["pending_hexes"] = ({"side": d["side"], "front": d["front"], "n": d["hexes"],
                           "candidates": d["hex_candidates"], "attackers": attackers}
                          if d["hexes"] else None)
    return s


def verify_take_hexes(ctx: Context, state: TRState, cmd: Command) -> None:
    p = state["pending_hexes"]
    if p is None or p["side"] != cmd.player:
        raise IllegalOrder("TR-40", "no hexes won by attrition are waiting to be taken")
    chosen = cmd.args.get("hexes")
    if not isinstance(chosen, list) or not all(isinstance(x, str) for x in chosen):
        raise InputError("args.hexes", "list the hexes taken")
    m = ctx.scenario.map
    forces = forces_of_state(ctx, state)
    front = hexes_won_candidates(m, forces, cmd.player, state["bridgeheads"],
                                 front_mask(m, p["front"]))
    verify_hexes_won(len(chosen), front, chosen)  # each on the front and eligible, with why
    for label in chosen:
        if label not in p["candidates"]:
            raise IllegalOrder("TR-40", f"hex {label} is not one of the hexes this result "
                               "won (closed to every attacking power, TR-25, or emptied by "
                               "the losses)")
    verify_hexes_won(int(p["n"]), takeable_hexes(ctx, state, p), chosen)
    for label, units in _advance_arg(cmd).items():
        if label not in chosen:
            raise IllegalOrder("TR-40", f"{label} is not one of the hexes taken")
        if len(units) > STACKING_LIMIT:
            raise IllegalOrder("TR-40", f"at most {STACKING_LIMIT} units advance into {label}")
        for uid in units:
            if uid not in p.get("attackers", []):
                raise IllegalOrder("TR-40", f"{uid} did not take part in the attrition")
            if not adjacent_any(m, cast(str, state["units"][uid]["hex"]), {label}):
                raise IllegalOrder("TR-40", f"{uid} is not adjacent to {label}")
    moving = [u for us in _advance_arg(cmd).values() for u in us]
    if len(set(moving)) != len(moving):
        raise IllegalOrder("TR-40", "a unit advances twice")


def takeable_hexes(ctx: Context, state: TRState, p: Mapping[str, Any]) -> tuple[Any, ...]:
    """TR-40: the front hexes the attacker may name for a pending HN result: the result's own
    candidates (open to a power taking part, TR-25; not emptied by the losses) as they stand
    now (still adjacent to a surviving attacker, not fortified, not a capital). Both ``verify``
    and ``game legal`` count from these, so an owed ``take_hexes`` always has an answer (the
    empty one when none is left)."""
    m = ctx.scenario.map
    forces = forces_of_state(ctx, state)
    keep = set(p["candidates"])
    return tuple(h for h in hexes_won_candidates(m, forces, p["side"], state["bridgeheads"],
                                                 front_mask(m, p["front"])) if h.id in keep)


def _advance_arg(cmd: Command) -> dict[str, list[str]]:
    raw = cmd.args.get("advance", {})
    if not isinstance(raw, dict) or not all(
            isinstance(v, list) and all(isinstance(u, str) for u in v) for v in raw.values()):
        raise InputError("args.advance", "an object {hex: [attacking units]}")
    return {str(k): list(v) for k, v in raw.items()}


def execute_take_hexes(ctx: Context, state: TRState, cmd: Command, dice: Dice) -> list[Event]:
    """TR-40 The attacker names all N hexes first; their defenders withdraw next (``withdraw``)."""
    withdrawing = {label: sorted(uid for uid, u in state["units"].items()
                                 if on_map_ground(u) and u["hex"] == label)
                   for label in cmd.args["hexes"]}
    taken = {"side": cmd.player, "hexes": list(cmd.args["hexes"]),
             "withdrawing": withdrawing, "advance": _advance_arg(cmd)}
    events = [Event("hexes_taken", taken)]
    if taken["hexes"]:
        forced = forced_withdrawal(ctx, state, taken)
        if forced is not None:
            events.append(forced)
    return events


def forced_withdrawal(ctx: Context, state: TRState, taken: Mapping[str, Any]) -> Event | None:
    """TR-40 (issue 23): the withdrawal the engine makes for the defender when it has only one
    answer - no unit in the hexes taken has an open hex with room to withdraw to (each is
    removed) and no unit the loss would cut off has one either - with ``forced`` saying why;
    None when the defender has a choice (``withdraw`` is owed)."""
    # the position with the withdrawal pending (a new top level: nothing below it changes)
    after = cast(TRState, {**state, "pending_withdrawal": {
        k: taken[k] for k in ("side", "hexes", "withdrawing", "advance")}})
    side = _defender(ctx, after)
    units = [uid for label in sorted(taken["withdrawing"]) for uid in taken["withdrawing"][label]]
    moving = set(units)
    for label, ids in taken["withdrawing"].items():
        if ids and withdrawal_hexes(ctx, state, side, label, taken["hexes"], moving):
            return None
    for uid in cut_off_units(ctx, after, dict.fromkeys(units)):
        if withdrawal_hexes(ctx, state, side, cast(str, state["units"][uid]["hex"]), taken["hexes"],
                            moving | {uid}):
            return None
    return Event("withdrawn", {
        "side": side, "hexes": list(taken["hexes"]), "retreats": {}, "eliminated": sorted(units),
        "advance": taken["advance"], "chosen": [],
        "forced": {"side": side, "why": (
            "the only withdrawal: no unit in the hexes taken has an open hex with room to "
            "withdraw to (each is removed)" if units else
            "the only withdrawal: no unit stands in the hexes taken") +
            " and none the loss would cut off has one"}})


def withdrawal_room(state: TRState, side: str, label: str, leaving: set[str]) -> int:
    """TR-28/TR-63 How many more of ``side``'s ground units ``label`` holds, the units in
    ``leaving`` gone from where they stand."""
    here = sum(1 for vid, v in state["units"].items() if on_map_ground(v) and v["hex"] == label
               and v["side"] == side and vid not in leaving)
    return hex_stacking_limit(state, label) - here


def withdrawal_hexes(ctx: Context, state: TRState, side: str, label: str, taken: list[str],
                     leaving: set[str]) -> list[str]:
    """TR-40 The hexes a unit of ``side`` in ``label`` may withdraw to: its retreat hexes
    (:func:`~grognard.third_reich.war.retreat_options`) that are not taken and have room."""
    return [h for h in _legal_retreats(ctx, state, side, label)
            if h not in taken and withdrawal_room(state, side, h, leaving) > 0]


@writes_units()
def fold_hexes_taken(state: TRState, ev: Event) -> TRState:
    s = state
    d = cast(HexesTaken, ev.data)
    s["pending_hexes"] = None
    s["pending_withdrawal"] = ({"side": d["side"], "hexes": d["hexes"],
                                "withdrawing": d["withdrawing"], "advance": d["advance"]}
                               if d["hexes"] else None)
    return s


# --- withdraw (TR-40: the defender's retreat hexes) ------------------------------------------


def _retreats_arg(cmd: Command) -> dict[str, str | None]:
    raw = cmd.args.get("retreats", {})
    if not isinstance(raw, dict) or not all(v is None or isinstance(v, str)
                                            for v in raw.values()):
        raise InputError("args.retreats", "an object {unit: hex, or null to remove the unit}")
    return {str(k): v for k, v in raw.items()}


def _defender(ctx: Context, state: TRState) -> str:
    p = cast(PendingWithdrawal, state["pending_withdrawal"])  # read inside its exchange
    for units in p["withdrawing"].values():
        if units:
            return str(state["units"][units[0]]["side"])
    return next(s for s in ctx.scenario.sides if s != p["side"])


def cut_off_units(ctx: Context, state: TRState, retreats: Mapping[str, str | None]) -> list[str]:
    """TR-40 The defender's units outside the taken hexes that the loss of those hexes would
    cut off: in supply now (TR-72 trace, :func:`side_supply_check`) and out of supply once
    the taken hexes are vacated (the withdrawing units at their retreat hexes, removed ones
    gone) and the declared advance stands in them (engine reading)."""
    p = cast(PendingWithdrawal, state["pending_withdrawal"])  # read inside its exchange
    side = _defender(ctx, state)
    taken = set(p["hexes"])
    now = set(war.side_supply_check(ctx, state, side).out_of_supply)
    # the position after the withdrawal: new records for the units that move, the rest shared
    units = dict(state["units"])
    for uid in {*retreats, *(u for us in p["advance"].values() for u in us)}:
        units[uid] = cast(TRUnit, dict(units[uid]))
    after: TRState = {**state, "units": units}
    for uid, to in retreats.items():
        after["units"][uid]["hex"] = to
        if to is None:
            after["units"][uid]["status"] = "eliminated"
    for label, units in p["advance"].items():
        for uid in units:
            after["units"][uid]["hex"] = label
    out = set(war.side_supply_check(ctx, after, side).out_of_supply)
    return sorted(uid for uid in out - now
                  if state["units"][uid]["hex"] not in taken and uid not in retreats)


def _cut_off_arg(cmd: Command) -> dict[str, str]:
    raw = cmd.args.get("cut_off", {})
    if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
        raise InputError("args.cut_off", "an object {unit: hex it withdraws to}")
    return {str(k): v for k, v in raw.items()}


def _withdrawals(ctx: Context, state: TRState, cmd: Command
                 ) -> tuple[dict[str, str], list[str], dict[str, str], list[str]]:
    """TR-40: every unit in a taken hex retreats one hex or is removed, as the defender names
    it (a hex, or ``null``: issue 23, every unit is named, none left to the engine); the units
    named in ``cut_off`` that the loss of the hexes would cut off withdraw one hex too
    (optional)."""
    p = cast(PendingWithdrawal, state["pending_withdrawal"])  # read inside its exchange
    given = _retreats_arg(cmd)
    moving = {uid for units in p["withdrawing"].values() for uid in units}
    for uid in given:
        if uid not in moving:
            raise IllegalOrder("TR-40", f"{uid} is not in a hex taken by attrition")
    unnamed = sorted(moving - set(given))
    if unnamed:
        raise IllegalOrder("TR-40", "name every unit in the hexes taken (a hex to withdraw "
                           f"to, or null to remove it): {', '.join(unnamed)} not named")
    retreats: dict[str, str] = {}
    removed: list[str] = []
    for label, units in sorted(p["withdrawing"].items()):
        side = state["units"][units[0]]["side"] if units else ""
        legal = [h for h in _legal_retreats(ctx, state, side, label) if h not in p["hexes"]]
        for uid in units:
            to = given[uid]
            if to is None:
                removed.append(uid)
            elif to not in legal:
                raise IllegalOrder("TR-40", f"{uid} cannot withdraw from {label} to {to} "
                                   f"(legal: {', '.join(legal) or 'none'})")
            else:
                retreats[uid] = to
    extra = _cut_off_arg(cmd)
    candidates: list[str] = []
    if extra:
        candidates = cut_off_units(ctx, state, {**retreats, **dict.fromkeys(removed)})
    for uid, to in sorted(extra.items()):
        if uid not in candidates:
            raise IllegalOrder("TR-40", f"{uid} would not be cut off by the loss of "
                               f"{', '.join(p['hexes'])} (cut off: "
                               f"{', '.join(candidates) or 'none'})")
        u = state["units"][uid]
        legal = [h for h in _legal_retreats(ctx, state, u["side"], cast(str, u["hex"]))
                 if h not in p["hexes"]]
        if to not in legal:
            raise IllegalOrder("TR-40", f"{uid} cannot withdraw from {u['hex']} to {to} "
                               f"(legal: {', '.join(legal) or 'none'})")
    moves = {**retreats, **extra}
    for to in set(moves.values()):
        side = state["units"][next(iter(moves))]["side"]
        here = sum(1 for uid, u in state["units"].items() if on_map_ground(u) and u["hex"] == to
                   and u["side"] == side and uid not in moves)
        arriving = sum(1 for v in moves.values() if v == to)
        limit = hex_stacking_limit(state, to)  # TR-63: 4 in a bridgehead
        if here + arriving > limit:
            raise IllegalOrder("TR-40", f"{to} would hold {here + arriving} units "
                               f"(stacking limit {limit})")
    return retreats, sorted(removed), extra, candidates


def _legal_retreats(ctx: Context, state: TRState, side: str, label: str) -> list[str]:
    return war.retreat_options(ctx, state, side, label) if side else []


def verify_withdraw(ctx: Context, state: TRState, cmd: Command) -> None:
    p = state.get("pending_withdrawal")
    if p is None:
        raise IllegalOrder("TR-40", "no hexes taken by attrition wait for the defender's "
                           "withdrawal")
    if _defender(ctx, state) != cmd.player:
        raise IllegalOrder("TR-40", f"{_defender(ctx, state)} withdraws its own units from the "
                           "hexes taken, not the attacker")
    _withdrawals(ctx, state, cmd)


def execute_withdraw(ctx: Context, state: TRState, cmd: Command, dice: Dice) -> list[Event]:
    p = cast(PendingWithdrawal, state["pending_withdrawal"])  # read inside its exchange
    retreats, removed, cut_off, candidates = _withdrawals(ctx, state, cmd)
    data = {"side": cmd.player, "hexes": p["hexes"], "retreats": retreats,
            "eliminated": removed, "advance": p["advance"], "chosen": sorted(_retreats_arg(cmd))}
    if cut_off:
        data |= {"cut_off": cut_off, "cut_off_candidates": candidates}
    return [Event("withdrawn", data)]


@writes_units(lambda ev: [*ev.data["eliminated"], *ev.data["retreats"],
                          *ev.data.get("cut_off", {}),
                          *(u for units in ev.data["advance"].values() for u in units)])
def fold_withdrawn(state: TRState, ev: Event) -> TRState:
    s = state
    d = cast(Withdrawn, ev.data)
    eliminate_units(s, list(d["eliminated"]))
    for uid, to in {**d["retreats"], **d.get("cut_off", {})}.items():
        s["units"][uid]["hex"] = to
    for label, units in d["advance"].items():
        for uid in units:
            s["units"][uid]["hex"] = label
    s["pending_withdrawal"] = None
    return s


# --- save_attrition_losses (TR-41) ----------------------------------------------------------


def _saves_arg(cmd: Command) -> dict[str, str]:
    raw = cmd.args.get("saves")
    if not isinstance(raw, dict) or not raw or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in raw.items()):
        raise InputError("args.saves", "an object {lost unit: friendly replacement unit}")
    return dict(raw)


def _unit_kind(u: TRUnit) -> str:
    return {"armor": "armor", "airborne": "airborne"}.get(u["type"], "infantry")


def _save_costs(state: TRState, cmd: Command) -> list[dict[str, Any]]:
    """TR-41: each saved unit swaps with a friendly replacement; (cost - 4) BRPs per unit,
    at most 5 (Germany, US), 4 (UK), 3 (Italy, France) per player turn."""
    saves = _saves_arg(cmd)
    losses = {x["unit"]: x for x in state["attrition_losses"] if x["side"] == cmd.player}
    if len(set(saves.values())) != len(saves):
        raise IllegalOrder("TR-41", "one replacement saves one unit")
    counts = dict(state["saved"])
    out: list[dict[str, Any]] = []
    for uid, rep in sorted(saves.items()):
        if uid not in losses:
            raise IllegalOrder("TR-41", f"{uid} was not removed by attrition this player turn")
        u, r = state["units"][uid], state["units"].get(rep)
        if r is None or r["type"] != "replacement" or not on_map_ground(r) or r["side"] != u["side"]:
            raise IllegalOrder("TR-41", f"{rep} is not a friendly replacement unit on the map")
        power = u["power"]
        n = int(counts.get(f"{cmd.player}:{power}", 0))
        cost = save_with_replacement(power, unit_cost(_unit_kind(u), int(u["attack"])), n)
        counts[f"{cmd.player}:{power}"] = n + 1
        out.append({"unit": uid, "replacement": rep, "power": power, "hex": r["hex"],
                    "cost": cost})
    due: dict[str, int] = {}
    for x in out:
        due[x["power"]] = due.get(x["power"], 0) + x["cost"]
    econ = economy_of(state)
    for power, cost in sorted(due.items()):
        if cost and power not in {p.value for p in econ.powers}:
            raise IllegalOrder("TR-41", f"{power} has no BRPs to pay {cost} for its saves")
        if cost:
            verify_spend(econ, power, cost, "TR-41")
    return out


def verify_save_attrition_losses(ctx: Context, state: TRState, cmd: Command) -> None:
    _save_costs(state, cmd)


def execute_save_attrition_losses(ctx: Context, state: TRState, cmd: Command,
                                  dice: Dice) -> list[Event]:
    return [Event("attrition_losses_saved", {"side": cmd.player,
                                             "saves": _save_costs(state, cmd)})]


def fold_attrition_losses_saved(state: TRState, ev: Event) -> TRState:
    s = state
    d = cast(AttritionLossesSaved, ev.data)
    econ = economy_of(state)
    for x in d["saves"]:
        u, r = s["units"][x["unit"]], s["units"][x["replacement"]]
        u["status"], u["hex"] = "active", x["hex"]
        r["status"], r["hex"] = "pool", None
        key = f"{d['side']}:{x['power']}"
        s["saved"][key] = int(s["saved"].get(key, 0)) + 1
        if x["cost"]:
            econ, _ = spend(econ, x["power"], x["cost"], "TR-41",
                            f"{x['unit']} saved by {x['replacement']}", build=False)
    s["attrition_losses"] = [x for x in state["attrition_losses"]
                             if x["unit"] not in {y["unit"] for y in d["saves"]}]
    s["economy"] = cast(EconomyJSON, econ.to_json())
    return s


# --- the loser's choice of attrition losses (issue 23 item 4) ----------------------------------

#: TR-39 choices enumerated exactly up to this many eligible units (beyond: a choice is owed)
EXACT_CHOICES = 10
#: at most this many removals listed by ``game legal`` for one owed choice
LISTED_CHOICES = 64


def removal_choices(state: TRState, contact: list[str], n: int, limit: int = LISTED_CHOICES
                    ) -> list[list[str]]:
    """TR-39: sets of units the side taking an ``n``-unit attrition loss may remove (each
    passes :func:`verify_attrition_removal`), smallest first, at most ``limit``."""
    if n <= 0:
        return [[]]
    units = [ground_unit_of(u, state["units"][u], "axis") for u in contact]
    elig = sorted((u for u in units if u.kind is not GroundKind.REPLACEMENT), key=lambda u: u.id)
    if sum((removal_value(u) for u in elig), start=Fraction(0)) <= n:
        return [[u.id for u in elig]] if elig else []  # every eligible unit goes
    return [list(c) for c in itertools.islice(exact_removals(elig, n), limit)]


def forced_removal(state: TRState, contact: list[str], n: int) -> list[str] | None:
    """The removal when the side has no choice (nothing to remove, every eligible unit goes,
    or a single legal set), else None: the side taking the losses chooses (TR-38 "The side
    taking the losses decides which units to remove")."""
    units = [ground_unit_of(u, state["units"][u], "axis") for u in contact]
    elig = [u for u in units if u.kind is not GroundKind.REPLACEMENT]
    if n <= 0 or not elig:
        return []
    if sum((removal_value(u) for u in elig), start=Fraction(0)) <= n:
        return sorted(u.id for u in elig)
    if len(elig) > EXACT_CHOICES:
        return None
    choices = removal_choices(state, contact, n, limit=2)
    return choices[0] if len(choices) == 1 else None


def verify_remove_losses(ctx: Context, state: TRState, cmd: Command) -> dict[str, Any]:
    """TR-38/TR-39: the owing side's units removed for its attrition loss."""
    p = (state.get("pending_losses") or cast(PendingLosses, {})).get("owed", {}).get(cmd.player)
    if p is None:
        raise IllegalOrder("TR-38", f"{cmd.player} owes no attrition losses now")
    chosen = cmd.args.get("units")
    if not isinstance(chosen, list) or not all(isinstance(x, str) for x in chosen):
        raise InputError("args.units", "list the units removed")
    units = [ground_unit_of(u, state["units"][u], "axis") for u in p["units"]]
    verify_attrition_removal(int(p["n"]), units, [True] * len(units), list(chosen))
    return {"side": cmd.player, "units": sorted(chosen), "n": int(p["n"]), "rule": "TR-39"}


def execute_remove_losses(ctx: Context, state: TRState, cmd: Command, dice: Dice) -> list[Event]:
    return [Event("attrition_losses_removed", verify_remove_losses(ctx, state, cmd))]


def _hexes_after(state: TRState, p: PendingLosses) -> PendingHexes | None:
    """The hexes won waiting for ``take_hexes`` once every loss is chosen: candidates whose
    defenders are all gone are no longer the defender's (as at once when no choice is owed)."""
    if not p.get("hexes"):
        return None
    gone = {uid for uid, u in state["units"].items() if u["status"] != "active"}
    cands = [h for h, units in p["candidates"].items() if not all(u in gone for u in units)]
    attackers = [u for u in p["attackers"] if u not in gone]
    return {"side": p["side"], "front": p["front"], "n": p["hexes"], "candidates": cands,
            "attackers": attackers}


@writes_units(lambda ev: ev.data["units"])
def fold_losses_removed(state: TRState, ev: Event) -> TRState:
    s = state
    d = cast(AttritionLossesRemoved, ev.data)
    p = cast(PendingLosses, s["pending_losses"])  # folded inside its exchange
    s["attrition_losses"] = [*state["attrition_losses"], *(
        cast(AttritionLoss, {"unit": uid, "hex": state["units"][uid]["hex"], "side": p["side"]})
        for uid in d["units"])]
    eliminate_units(s, list(d["units"]))
    owed = {k: v for k, v in p["owed"].items() if k != d["side"]}
    if owed:
        s["pending_losses"] = {**p, "owed": owed}
    else:
        s["pending_losses"] = None
        s["pending_hexes"] = _hexes_after(s, p)
    return s


def legal_remove_losses(ctx: Context, state: TRState, player: str) -> list[Command]:
    p = (state.get("pending_losses") or cast(PendingLosses, {})).get("owed", {}).get(player)
    if p is None:
        return []
    return [Command("remove_losses", player, {"units": c})
            for c in removal_choices(state, list(p["units"]), int(p["n"]))]
