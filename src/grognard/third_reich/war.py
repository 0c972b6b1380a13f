"""War and peace in the ``third_reich`` engine system (issue 23 items 1-2): the state's
``diplomacy`` (a :class:`~grognard.third_reich.conquest.diplomacy.Diplomacy` as JSON) and the
checks every Order makes against it.

* ``state["diplomacy"]`` starts from the scenario (``[third_reich.wars]``, TR-25) and is
  changed only by folds: a declaration (TR-25, with the minors joining, TR-24), the Axis
  minors' and the US's entries by date (TR-24, TR-86), Vichy (TR-26), a minor conquered
  (TR-22), Ribbentrop-Molotov (TR-87). The economy's war record (``belligerent``,
  ``at_war_with_germany``: lend lease TR-15..TR-17) follows it (:func:`sync_economy`).
* An order that enters, attacks or crosses a hex asks :func:`refusal` (verify) or
  :func:`closed_mask` (the enumerators' filter, the movement range's impassable hexes): a
  hex is closed to a power unless the hex is sea/off-map, the power's own or an ally's, or
  the country's belligerent is at war with the power (TR-25; ZOC TR-27; SR TR-68). Once
  Vichy forms, the hexes of the map's Vichy zone belong to the minor Vichy France, not to
  France out of the war (TR-26, :func:`vichy_zone`).
* Above :mod:`~grognard.third_reich.board` (never imported by it): the position's facts
  judged against the war - the hexes a stack may retreat into (:func:`retreat_options`) and a
  side's supply check (:func:`side_supply_check`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

import numpy as np

from grognard.core.errors import IllegalOrder, InputError, member
from grognard.core.memo import IdentityMemo
from grognard.core.paths import edge_tables, hex_index
from grognard.core.units import GROUND_TYPES
from grognard.engine.context import Context
from grognard.engine.state import JSON
from grognard.third_reich.board import (
    BLOCK,
    economy_of,
    forces_of_state,
    placement_key,
    position_cached,
    side_bridgeheads,
    side_zoc,
    units_cached,
)
from grognard.third_reich.conquest import diplomacy as dip
from grognard.third_reich.economy.economy import Economy, declare_war
from grognard.third_reich.state import FLEET_TYPES
from grognard.third_reich.state_types import EconomyJSON, TRState
from grognard.third_reich.supply.supply_map import SupplyCheck, SupplyWar, supply_check
from grognard.third_reich.turn.calendar import WEATHER_TABLE_ID
from grognard.third_reich.turn.powers import Power

_DIP_MEMO: IdentityMemo[Any, dip.Diplomacy] = IdentityMemo()
_MASK_MEMO: dict[tuple[int, str, str], tuple[Any, Any, np.ndarray]] = {}


def diplomacy(state: TRState) -> dip.Diplomacy:
    """The state's diplomacy (parsed once per JSON object: folds replace the object)."""
    raw = state.get("diplomacy")
    if raw is None:
        raise InputError("diplomacy", "this state has no diplomacy (not a 3R campaign state)")
    return _DIP_MEMO.get(raw, dip.from_json)


def set_diplomacy(state: TRState, d: dip.Diplomacy) -> None:
    """Write ``d`` into the state (a new object, so the memos see the change)."""
    state["diplomacy"] = dip.to_json(d)


def has_diplomacy(state: TRState) -> bool:
    return state.get("diplomacy") is not None


def vichy_zone(state: TRState, d: dip.Diplomacy) -> frozenset[str]:
    """TR-26: the hexes of the map's Vichy zone that are Vichy France's home territory (the
    minor ``vichy`` of the diplomacy, formed when France makes peace); empty before Vichy
    forms (and in a state whose diplomacy has no Vichy minor)."""
    camp = state.get("campaign") or {}
    if camp.get("vichy") is None or "vichy" not in d.minors:
        return frozenset()
    zone = camp.get("areas", {}).get("vichy", [])
    hit = _ZONE_MEMO.get(id(zone))
    if hit is not None and hit[0] is zone:
        return hit[1]
    got = frozenset(zone)
    _ZONE_MEMO.clear()
    _ZONE_MEMO[id(zone)] = (zone, got)
    return got


_ZONE_MEMO: dict[int, tuple[Any, frozenset[str]]] = {}


def _out_controller(state: TRState, belligerent: str, label: str,
                    vichy_zone: set[str] | None = None) -> str | None:
    """The side controlling a hex of a country out of the war: a conquered minor is its
    conqueror's side's (TR-22, Vichy France conquered too); France after Vichy is the Axis's
    outside the Vichy zone (TR-26: the zone itself is Vichy France's, see :func:`vichy_zone`;
    neutral here in a state without the Vichy minor); a major out of the war is held by the
    enemy side. ``vichy_zone``: the Vichy zone's hexes when the caller has read them already."""
    camp = state.get("campaign") or {}
    if belligerent == "france" and camp.get("vichy") is not None:
        zone = set(camp.get("areas", {}).get("vichy", [])) if vichy_zone is None else vichy_zone
        if label in zone:
            return None
        return str(state["power_sides"].get("germany")) if "germany" in \
            state["power_sides"] else None
    m = camp.get("minors", {}).get(belligerent)
    if m is not None:
        side_m = m.get("side")
        return str(side_m) if side_m is not None else None
    side = state["power_sides"].get(belligerent)
    if side is None:
        return None
    others = sorted({s for s in state["power_sides"].values() if s != side})
    return others[0] if others else None


def _out_controllers(state: TRState, belligerent: str, m: Any, hexes: list[int]
                     ) -> list[str | None]:
    """:func:`_out_controller` of each of ``hexes`` (map numbers) of ``belligerent``'s
    country: only France after Vichy depends on the hex (the Vichy zone), so the others are
    asked once."""
    camp = state.get("campaign") or {}
    if belligerent == "france" and camp.get("vichy") is not None:
        zone = set(camp.get("areas", {}).get("vichy", []))  # read once for every hex
        return [_out_controller(state, belligerent, m.label(h), zone) for h in hexes]
    if not hexes:
        return []
    return [_out_controller(state, belligerent, m.label(hexes[0]))] * len(hexes)


#: The actions whose closed hexes differ from a move's (TR-68: an SR enters enemy territory
#: only where its side controls it; TR-19: lend lease goes only to friends): every other
#: action is refused in the same countries as a move (:func:`dip.may_enter`), so they share
#: one mask.
_OWN_MASK = frozenset({dip.Action.SR, dip.Action.LEND_LEASE})


def closed_mask(ctx: Context, state: TRState, power: str, action: dip.Action | str
                ) -> np.ndarray:
    """A bool per map hex: True where ``power``'s order of kind ``action`` may not go
    (TR-25/TR-27/TR-68). Sea and off-map hexes are open. Computed once per (diplomacy,
    power, action)."""
    act = member(dip.Action, action)
    if act not in _OWN_MASK:  # TR-25: these refuse the same countries (the rule text aside)
        act = dip.Action.MOVE
    m = ctx.scenario.map
    raw = state.get("diplomacy")
    if raw is None:
        return np.zeros(m.n, dtype=bool)
    key = (id(m), power, act.value)
    hit = _MASK_MEMO.get(key)
    camp_raw = (state.get("campaign") or {}).get("vichy")
    if hit is not None and hit[0] is raw and hit[1] == camp_raw:
        return hit[2]
    d = diplomacy(state)
    mine = dip.side_of(d, power) or state["power_sides"].get(power)
    names = m.country_names
    lut = np.zeros(len(names), dtype=bool)
    per_hex: list[int] = []
    for ci, name in enumerate(names):
        if not name:
            continue
        b = dip.belligerent_of(d, name)
        if b in d.out:
            per_hex.append(ci)
            continue
        ctl = mine if act is dip.Action.SR else None
        lut[ci] = dip.may_enter(d, power, name, act, ctl) is not None
    mask = lut[np.asarray(m.country, dtype=np.int64)]
    if per_hex:
        by_country = _country_hexes(m)
        zone = vichy_zone(state, d)
        for ci in per_hex:
            b = dip.belligerent_of(d, names[ci])
            hexes = by_country.get(ci, [])
            if b == "france" and zone:  # TR-26: the Vichy zone is Vichy France's
                inside = [h for h in hexes if m.label(h) in zone]
                if inside:
                    shut_v = _vichy_shut(state, d, power, act, mine)
                    mask[inside] = shut_v
                    hexes = [h for h in hexes if m.label(h) not in zone]
            # the hexes by their controller (one but for France after Vichy), each group
            # judged once (may_enter is pure) and written at once
            groups: dict[str | None, list[int]] = {}
            for h, ctl in zip(hexes, _out_controllers(state, b, m, hexes), strict=True):
                groups.setdefault(ctl, []).append(h)
            for ctl, group in groups.items():
                mask[group] = dip.may_enter(d, power, names[ci], act, ctl) is not None
    mask.setflags(write=False)
    _MASK_MEMO[key] = (raw, camp_raw, mask)
    return mask


def _country_hexes(m: Any) -> dict[int, list[int]]:
    """Each country's hexes (map numbers, in order) by its index in the map's country names,
    once per map (the last few maps are kept)."""
    return _COUNTRY_HEXES.get(m, _hexes_by_country)


def _hexes_by_country(m: Any) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for h, ci in enumerate(np.asarray(m.country, dtype=np.int64).tolist()):
        out.setdefault(ci, []).append(h)
    return out


_COUNTRY_HEXES: IdentityMemo[Any, dict[int, list[int]]] = IdentityMemo(4)


def _vichy_shut(state: TRState, d: dip.Diplomacy, power: str, act: dip.Action,
                mine: str | None) -> bool:
    """TR-25/TR-26: whether a hex of the Vichy zone is closed to ``power`` (as the closed
    masks ask it: every hex of the zone alike): neutral Vichy France is closed, at war open
    (an SR only where its side controls the hex: as for any enemy country, the zone's own
    hexes are judged in :func:`refusal`), a conquered Vichy follows its conqueror's side."""
    if "vichy" in d.out:
        ctl = _out_controller(state, "vichy", "")
    else:
        ctl = mine if act is dip.Action.SR else None
    return dip.may_enter(d, power, "vichy", act, ctl) is not None


def refusal(ctx: Context, state: TRState, power: str, labels: Iterable[str],
            action: dip.Action | str) -> dip.Refusal | None:
    """The first hex of ``labels`` closed to ``power`` for ``action``, as a refusal naming
    the rule and the hex (None: all open, or no diplomacy in this state)."""
    if not has_diplomacy(state) or not power:
        return None
    m = ctx.scenario.map
    d = diplomacy(state)
    act = member(dip.Action, action)
    mine = dip.side_of(d, power) or state["power_sides"].get(power)
    zone = vichy_zone(state, d)
    for lab in labels:
        try:
            h = m.index_of_label(lab)
        except (KeyError, IndexError, ValueError):
            continue  # the order's own hex checks name a bad label
        country = m.country_names[int(m.country[h])]
        if not country:
            continue
        if zone and lab in zone and dip.belligerent_of(d, country) == "france":
            country = "vichy"  # TR-26: the Vichy zone is Vichy France's home territory
        b = dip.belligerent_of(d, country)
        if b in d.out:
            ctl = _out_controller(state, b, lab)
        elif act is dip.Action.SR:
            ctl = hex_control(state, lab) if dip.at_war(d, power, b) else mine
        else:
            ctl = None
        r = dip.may_enter(d, power, country, act, ctl)
        if r is not None:
            return dip.Refusal(r.rule, f"{lab}: {r.reason}")
    return None


def hex_control(state: TRState, label: str) -> str | None:
    """TR-22/TR-68 (reading): the side controlling a hex of an enemy country: its city's
    controller (control by occupation), else the side of a ground unit standing there, else
    none (uncontrolled enemy home territory)."""
    for city in state.get("city_hexes", {}).get(label, []):
        side = state["control"].get(city)
        if side is not None:
            return str(side)
    for u in state["units"].values():
        if u.get("hex") == label and u.get("status") == "active" and \
                u.get("type") in GROUND_TYPES:
            return str(u["side"])
    return None


def verify_enter(ctx: Context, state: TRState, power: str, labels: Iterable[str],
                 action: dip.Action | str) -> None:
    """:func:`refusal`, raised as IllegalOrder naming the rule."""
    r = refusal(ctx, state, power, labels, action)
    if r is not None:
        r.raise_()


def verify_at_war_with_units(state: TRState, power: str, defenders: Iterable[str],
                             rule: str = "TR-25") -> None:
    """TR-25: ``power`` attacks only units of countries it is at war with."""
    if not has_diplomacy(state):
        return
    d = diplomacy(state)
    for uid in defenders:
        other = str(state["units"][uid].get("power") or "")
        if other and not dip.at_war(d, power, other):
            dip.Refusal(rule, f"{power} is not at war with {other} ({uid}): a declaration "
                              "of war comes first").raise_()


def verify_interceptor(state: TRState, fleet: str, player: str, moved: Iterable[str]) -> JSON:
    """TR-55: ``fleet`` is an active enemy fleet on the map; TR-25 (issue 23): its power is at
    war with the powers of every ``moved`` unit, so it may intercept them. Its record."""
    u = state["units"].get(fleet)
    if u is None or u["type"] not in FLEET_TYPES or u["side"] == player or \
            u["status"] != "active" or u["hex"] is None:
        raise IllegalOrder("TR-55", f"{fleet} is not an enemy fleet on the map")
    verify_at_war_with_units(state, str(u.get("power") or ""), moved)
    return u


def power_of(state: TRState, uid: str) -> str:
    return str(state["units"][uid].get("power") or "")


def sync_economy(econ: Economy, d: dip.Diplomacy) -> Economy:
    """C-SIDES/C-ECON: the economy's war record follows the diplomacy: every major in the
    economy at war with anyone is belligerent, and at war with Germany when it is (TR-15..
    TR-17 lend lease, TR-86)."""
    e = econ
    for p in e.powers:
        name = p.value
        bel = dip.is_belligerent(d, name)
        ger = p is not Power.GERMANY and dip.at_war(d, name, "germany")
        if (bel and p not in e.belligerent) or (ger and p not in e.at_war_with_germany):
            e = declare_war(e, p, on_germany=ger)
    return e


__all__ = ["closed_mask", "diplomacy", "has_diplomacy", "power_of", "refusal",
           "set_diplomacy", "sync_economy", "verify_at_war_with_units", "verify_enter"]


# --- the campaign's events on the diplomacy (folded after the campaign's own folds) --------


def _turn(state: TRState) -> int:
    return int(state["turn"])


def _econ_follows(state: TRState, d: dip.Diplomacy) -> None:

    set_diplomacy(state, d)
    if "economy" in state:
        econ = economy_of(state)
        e2 = sync_economy(econ, d)
        if e2 is not econ:
            state["economy"] = cast(EconomyJSON, e2.to_json())


def on_minor_activated(state: TRState, data: Mapping[str, Any]) -> None:
    """TR-24: a minor entering the war (by date or attacked) joins a major of its side."""
    if not has_diplomacy(state):
        return
    d = diplomacy(state)
    minor, side = str(data["minor"]), data["side"]
    if minor in d.aligned or minor not in d.minors:
        return
    patron = dip.joining_patron(d, minor)  # TR-24: the same answer as ``declare``
    if patron is None or d.sides.get(patron) != side:
        return
    cause = dip.Cause.AXIS_MINORS if data.get("rule") == "TR-24" and \
        minor in d.axis_minors and patron == "germany" else dip.Cause.MINOR_JOINS
    d2, _ = dip.join(d, minor, patron, _turn(state), cause)
    _econ_follows(state, d2)


def on_us_entered(state: TRState) -> None:
    """TR-86: the US enters at war with Germany and every country allied with it."""
    if not has_diplomacy(state):
        return
    d = diplomacy(state)
    if dip.at_war(d, "us", "germany") or "us" not in d.sides:
        return
    d2, _ = dip.enter_by_date(d, max(_turn(state), d.us_entry_turn))
    _econ_follows(state, d2)


def on_peace(state: TRState, belligerent: str, cause: dip.Cause,
             colonies: dict[str, str] | None = None) -> None:
    """TR-26 (Vichy), TR-22 (a minor conquered) or a major out of the war: its wars end."""
    if not has_diplomacy(state):
        return
    d = diplomacy(state)
    b = dip.belligerent_of(d, belligerent)
    if b in d.out:
        return
    cols = {c: a for c, a in (colonies or {}).items()
            if d.territory.get(c) == b and a in ("vichy", "free_french")}
    d2, _ = dip.make_peace(d, b, _turn(state), cause, cols)
    set_diplomacy(state, d2)


def on_annexed(state: TRState, minors: Iterable[str]) -> None:
    """TR-87: the Ribbentrop-Molotov minors become the USSR's, with no war."""
    if not has_diplomacy(state):
        return
    d2, _ = dip.annex(diplomacy(state), "ussr", list(minors), _turn(state))
    set_diplomacy(state, d2)


def closed_zoc(ctx: Context, state: TRState, zoc: Any, power: str, start: int | None = None
               ) -> Any:
    """TR-25: the mover's ZOC field with the hexes closed to ``power`` as impassable as
    enemy-held ones (its own ``start`` hex left open), so a movement range never enters or
    crosses neutral territory. The same field when nothing is closed."""
    import dataclasses

    mask = closed_mask(ctx, state, power, dip.Action.MOVE)
    m = ctx.scenario.map
    others = [m.index_of_label(cast(str, u["hex"])) for u in state["units"].values()
              if u.get("hex") and u.get("status") == "active" and u.get("side") != zoc.side
              and u.get("type") in GROUND_TYPES]
    theirs = np.zeros(m.n, dtype=bool)
    theirs[others] = True  # enemy units not at war exert no ZOC but still hold their hex
    if not mask.any() and not (theirs & ~zoc.enemy).any():
        return zoc
    block = mask | theirs
    if start is not None:
        block[start] = False
    return dataclasses.replace(zoc, enemy=zoc.enemy | block, _cache={})


# --- each power its own option (issue 23 item 3) -------------------------------------------


def option_readings(ctx: Context) -> Any:
    """The scenario's per-power option reading switches (``minor_option``,
    ``joint_attack``; turn/options.OptionReadings, documented in docs/FEATURES.md TR-03)."""
    import dataclasses

    from grognard.third_reich.turn.options import OptionReadings

    names = {f.name for f in dataclasses.fields(OptionReadings)}
    return ctx.cached("tr.option_readings", lambda: OptionReadings.from_mapping(
        {k: v for k, v in {**ctx.scenario.readings, **ctx.readings}.items() if k in names}))


def _patrons(state: TRState) -> dict[str, str]:
    if not has_diplomacy(state):
        return {}
    return dict(diplomacy(state).aligned)


def _side_majors(state: TRState, side: str) -> list[str]:
    return [p for p, s in state["power_sides"].items() if s == side and p in dip.MAJORS]


def verify_own_option(ctx: Context, state: TRState, side: str, powers: Iterable[str],
                      front: str, attrition: bool = False) -> None:
    """TR-03/TR-22: the units of ``powers`` attack (or take part in attrition) only under
    their own power's option on ``front`` (a minor ally under its patron's, unpaid)."""
    from grognard.third_reich.turn.options import may_attack, may_take_part_in_attrition

    acts = sorted({p for p in powers if p})
    if not acts:
        return
    check = may_take_part_in_attrition if attrition else may_attack
    r = check(state.get("options_powers", {}), acts, front, _patrons(state),
              _side_majors(state, side), option_readings(ctx))
    if r is not None:
        r.raise_()


def may_act(ctx: Context, state: TRState, side: str, power: str, front: str,
            attrition: bool = False) -> bool:
    """:func:`verify_own_option` for one power, as a bool (the enumerators' filter)."""
    from grognard.core.errors import IllegalOrder

    try:
        verify_own_option(ctx, state, side, [power], front, attrition)
    except IllegalOrder:
        return False
    return True


def active_powers(ctx: Context, state: TRState, side: str) -> frozenset[str]:
    """The powers (and minors) of ``side``'s active units, once per unit table and position
    (the idle-phase scan asks it of each front and phase it opens)."""
    return units_cached(ctx, state, f"tr.active_powers.{side}", lambda: frozenset(
        str(u.get("power") or "") for u in state["units"].values()
        if u.get("side") == side and u.get("status") == "active") - {""})


def attrition_participants(ctx: Context, state: TRState, side: str, front: str) -> frozenset[str]:
    """TR-03/TR-22/TR-38: the powers (and minors) of ``side`` whose units take part in an
    attrition on ``front``: each under its own attrition option (a minor under its patron's)."""
    from grognard.core.errors import IllegalOrder
    from grognard.third_reich.turn.options import may_take_part_in_attrition

    def make() -> frozenset[str]:
        powers = active_powers(ctx, state, side)
        if not powers:
            return frozenset()
        # may_act of each power, the declarations, patrons, majors and readings read once
        declared, patrons = state.get("options_powers", {}), _patrons(state)
        majors, readings = _side_majors(state, side), option_readings(ctx)

        def takes_part(p: str) -> bool:
            try:
                r = may_take_part_in_attrition(declared, [p], front, patrons, majors, readings)
            except IllegalOrder:
                return False
            return r is None
        return frozenset(p for p in powers if takes_part(p))
    return position_cached(ctx, state, f"tr.attrition_participants.{side}.{front}", make)


def at_war_with_any(state: TRState, power: str, others: Iterable[str]) -> bool:
    """TR-25: whether ``power`` is at war with one of ``others`` (True with no diplomacy)."""
    if not has_diplomacy(state):
        return True
    d = diplomacy(state)
    return any(dip.at_war(d, power, o) for o in others)


def open_to_any(ctx: Context, state: TRState, powers: Iterable[str], label: str) -> bool:
    """TR-25: whether the hex may be attacked by one of ``powers``."""
    return any(refusal(ctx, state, p, [label], dip.Action.ATTACK) is None for p in powers)


# --- ZOC, SR and supply judged against the war (issue 23, TR-27/TR-68/TR-72) ----------------


def zoc_counts_for(state: TRState, forces: Any, side: str, power: str) -> np.ndarray:
    """TR-27 ("ZOCs do not extend across political boundaries before declaration of war"): a
    bool per unit of ``forces``: whether its ZOC counts against ``power`` of ``side`` - every
    unit of another side whose power is at war with ``power`` (own side's units: False, they
    exert no ZOC on it anyway). All True for the enemy side with no diplomacy in the state."""
    code = forces.side_code(side)
    enemy: np.ndarray = np.asarray(forces.side) != code
    if not has_diplomacy(state) or not power:
        return enemy
    d = diplomacy(state)
    names, codes = _unit_powers(state["units"], forces)
    at_war = np.array([not other or dip.at_war(d, power, other) for other in names],
                      dtype=bool)
    return enemy & at_war[codes] if len(codes) else enemy.copy()


def _unit_powers(units: JSON, forces: Any) -> tuple[list[str], np.ndarray]:
    """The powers of ``forces``' units in ``units`` (the state's table), as the distinct
    names and each unit's index into them; kept for the last few (forces, table) pairs: the
    forces of a state (:func:`forces_of_state`) are made again whenever the placement, the
    units' powers included, changes, so the same forces of the same table have the same
    powers."""
    for f, table, names, codes in _POWERS:
        if f is forces and table is units:
            return names, codes
    seen = [str(units.get(uid, {}).get("power") or "") for uid in forces.ids]
    names = list(dict.fromkeys(seen))
    index = {p: i for i, p in enumerate(names)}
    codes = np.array([index[p] for p in seen], dtype=np.intp)
    _POWERS.insert(0, (forces, units, names, codes))
    del _POWERS[4:]
    return names, codes


_POWERS: list[tuple[Any, Any, list[str], np.ndarray]] = []


def war_zoc(ctx: Context, state: TRState, side: str, power: str) -> Any:
    """TR-27/TR-68: the enemy ZOC field ``power`` (of ``side``) meets: only units of powers at
    war with it project a ZOC (units not at war still hold their hexes: ``enemy`` is every
    other side's unit). The side's whole field (board.side_zoc) with no diplomacy."""
    import dataclasses

    from grognard.core.zoc import third_reich_zoc, zoc_field

    if not has_diplomacy(state) or not power:
        return side_zoc(ctx, state, side)

    def make() -> Any:
        forces = forces_of_state(ctx, state)
        counts = zoc_counts_for(state, forces, side, power)
        enemy = np.asarray(forces.side) != forces.side_code(side)
        if bool((counts == enemy).all()):
            return side_zoc(ctx, state, side)
        zc = np.where(counts, forces.zoc_class, 0).astype(np.int8)
        return zoc_field(ctx.scenario.map, dataclasses.replace(forces, zoc_class=zc), side,
                         third_reich_zoc())
    return position_cached(ctx, state, f"tr.war_zoc.{side}.{power}", make)


def supply_war(ctx: Context, state: TRState, forces: Any, side: str,
               powers: Iterable[str]) -> dict[str, Any]:
    """TR-72/TR-27 (issue 23): for each power of ``side`` tracing supply, what its lines meet
    (:class:`~grognard.third_reich.supply.supply_map.SupplyWar`): the ZOCs of units at war with
    it and the hexes closed to it (neutral countries: supply is traced as in the original,
    never through a neutral country). Empty with no diplomacy (the side-wide trace)."""

    if not has_diplomacy(state):
        return {}
    return {p: SupplyWar(zoc_counts_for(state, forces, side, p),
                         closed_mask(ctx, state, p, dip.Action.SUPPLY))
            for p in sorted(set(powers)) if p}


__all__ += ["supply_war", "war_zoc", "zoc_counts_for"]


# --- strategic warfare and lend lease judged against the war (issue 23, TR-15..TR-21, TR-79) --


def at_war_with_germany(state: TRState, power: str) -> bool:
    """Whether ``power`` is at war with Germany: the diplomacy's word when the state has one,
    else the economy's war record (``at_war_with_germany``)."""
    if has_diplomacy(state):
        return dip.at_war(diplomacy(state), power, "germany")

    try:
        return Power(power) in economy_of(state).at_war_with_germany
    except ValueError:
        return False


def verify_lend_lease_open(state: TRState, sender: str, receiver: str) -> None:
    """TR-15..TR-17: the route from ``sender`` to ``receiver`` is open in the diplomacy (the
    USSR at war with Germany for the UK's; the US too for the US's), else IllegalOrder naming
    the rule. Nothing to check with no diplomacy (the economy's own check stands)."""
    if not has_diplomacy(state):
        return
    r = dip.lend_lease_open(diplomacy(state), sender, receiver)
    if r is not None:
        r.raise_()


__all__ += ["at_war_with_germany", "verify_lend_lease_open"]


# --- the position's facts judged against the war: retreats (TR-32/TR-25) and supply (TR-72) --


def retreat_options(ctx: Context, state: TRState, side: str, target: str) -> list[str]:
    """TR-32/TR-40 The hexes a stack of ``side`` in ``target`` may retreat one hex into: open
    land across no sea/lake/impassable hexside, no enemy unit, no enemy ZOC unless a friendly
    unit is there (labels, sorted)."""
    m = ctx.scenario.map
    zoc = side_zoc(ctx, state, side)
    h = hex_index(m, target)
    et = edge_tables(m)
    # TR-25 (issue 23): never into a country one of the retreating units' powers is not at
    # war with (neutral territory is closed to a retreat as to a move)
    powers = sorted({str(u.get("power") or "") for u in state["units"].values()
                     if u.get("hex") == target and u.get("side") == side and
                     u.get("status") == "active"} - {""})
    closed = [closed_mask(ctx, state, p, "move") for p in powers]
    options = []
    for d in range(6):
        nb, ps = int(et.nbr[h, d]), int(et.pos[h, d])
        if nb < 0 or et.water[nb] or int(m.edge_features[ps]) & int(BLOCK):
            continue
        if zoc.enemy[nb] or zoc.mask("retreat")[nb]:
            continue
        if any(c[nb] for c in closed):
            continue
        options.append(m.label(nb))
    return sorted(options)


def side_supply_check(ctx: Context, state: TRState, side: str) -> SupplyCheck:
    """TR-72..TR-74 :func:`~grognard.third_reich.supply.supply_map.supply_check` of ``side`` on the
    state's map position (control, turn, home countries, bridgeheads from the state).

    Kept across commands under what it reads (the units' placement, the control of the cities,
    the turn, the side's bridgeheads, the war state): the check's verify, its execution and the
    idle-phase scan share one trace."""
    heads = side_bridgeheads(state, side)
    control = state["control"]
    # the war state as its parsed (frozen, compared by value) Diplomacy: parsed once per
    # JSON object, where the JSON text was written out on every call
    war_state = diplomacy(state) if has_diplomacy(state) else None
    key = (placement_key(ctx, state), tuple(control.items()), state["turn"], tuple(heads),
           war_state)

    def make() -> SupplyCheck:
        forces = forces_of_state(ctx, state)
        powers = {u: state["units"][u]["power"] for u in forces.ids}
        mine = [powers[u] for u, s in zip(forces.ids, forces.of_side(side).tolist(), strict=True)
                if s]
        return supply_check(
            ctx.scenario.map, forces, side, control, state["turn"],
            unit_powers=powers,
            home_countries=ctx.scenario.home_countries, bridgeheads=heads,
            weather_table=ctx.tables.get(WEATHER_TABLE_ID),
            war=supply_war(ctx, state, forces, side, mine))  # TR-27/TR-72 (issue 23)
    return ctx.keyed(f"tr.supply_check.{side}", key, make)


__all__ += ["retreat_options", "side_supply_check"]
