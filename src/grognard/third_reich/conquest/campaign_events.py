"""The 3R campaign in the position: conquest, Vichy, entries, end - the events the orders raise
from the conquest rules, and their folds. The ``end_phase`` order runs the player-turn and
game-turn ends, ``declare_war`` the activations, ``play/system.py`` the verdict (city control
and captures: :mod:`~grognard.third_reich.capture`):

* at the end of each player turn, a minor whose capital an enemy has held since the end of the
  previous player turn, through the defender's player turn, is conquered (TR-22): its value
  goes to the conqueror's pending base (TR-11, TR-23), its cities to the conqueror, its units
  leave the map; Poland's conquest starts the Ribbentrop-Molotov annexations (TR-87, TR-TV09);
* at the end of each game turn: Vichy when the Axis holds Paris (TR-26, one 1D6 per colony from
  ``third_reich.vichy``); a major whose capital the enemy holds surrenders (3R4, EXTERNAL:
  grognard's reading: Italy leaves the war; Germany's fall ends the game; the Axis holding
  London and Moscow ends it too);
* Summer I 1941: the Axis minors not yet activated join Germany (TR-24); Spring 1942: the US
  enters with 250 (TR-86);
* a declaration of war on a neutral minor activates it on the other side (TR-24, TR-25);
* after Summer I 1945 the game ends with the victory verdict (TR-04; :mod:`campaign`).

Events: docs/formats/tr_engine.md ("Campaign events").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

import numpy as np

from grognard.core.dice import Dice
from grognard.core.mapdata import WATER_TERRAIN
from grognard.core.units import GROUND_TYPES
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON
from grognard.third_reich import war
from grognard.third_reich.arrivals import iran_arrival
from grognard.third_reich.board import economy_of
from grognard.third_reich.conquest import diplomacy as dip
from grognard.third_reich.conquest.campaign import (
    AXIS_MINORS_JOIN_TURN,
    campaign_state,
    date_label,
    territory_brps,
)
from grognard.third_reich.conquest.conquest import (
    conquer,
    deny,
    draw_vichy_rolls,
    form_vichy,
    minor_joins,
)
from grognard.third_reich.economy.economy import Economy, declare_war, leave_economy
from grognard.third_reich.scenario_schema import third_reich_rules
from grognard.third_reich.state_types import (
    CampaignEnded,
    EconomyJSON,
    MajorSurrendered,
    MinorActivated,
    MinorConquered,
    PlayerTurnClosed,
    RibbentropMolotov,
    TRState,
    VichyFormed,
)
from grognard.third_reich.turn.calendar import date_of
from grognard.third_reich.turn.powers import Power


def turn_label(ctx: Context, state: TRState) -> str:
    """TR-04: the date of the turn ("Fall 1939", "Summer I 1941")."""
    return date_label(int(state["turn"]))


# --- helpers ------------------------------------------------------------------------------


def axis_of(state: TRState) -> str:
    return "axis" if "axis" in state["sides"] else state["sides"][0]


def _western_side(state: TRState) -> str:
    return str(state["power_sides"].get("uk", state["sides"][-1]))


def enemy_side_of(state: TRState, side: str) -> str:
    """The side a minor attacked by ``side`` joins (TR-24)."""
    return _western_side(state) if side == axis_of(state) else axis_of(state)


def _power_of_side(state: TRState, side: str, econ: Economy, prefer: Iterable[str] = ()) -> str | None:
    powers = {p.value for p in econ.powers}
    for p in prefer:
        if p in powers and state["power_sides"].get(p) == side:
            return p
    for p in (x.value for x in Power):
        if p in powers and state["power_sides"].get(p) == side:
            return p
    return None


def _country_hexes(scenario: Scenario, countries: Iterable[str]) -> list[str]:
    """The land hexes of ``countries``, in map order (once per map and set of countries)."""
    m = scenario.map
    want = frozenset(countries)
    key = (id(m), want)
    hit = _COUNTRY_HEXES.get(key)
    if hit is not None and hit[0] is m:
        return hit[1]
    # the map's arrays at once (a hex-by-hex walk cost about 4 ms a set: a minor's entry)
    codes = [i for i, name in enumerate(m.country_names) if name in want]
    land = np.isin(m.country, codes) & ~m.terrain_mask(*WATER_TERRAIN)
    out = [m.label(i) for i in np.nonzero(land)[0].tolist()]
    _COUNTRY_HEXES[key] = (m, out)
    return out


_COUNTRY_HEXES: dict[tuple[int, frozenset[str]], tuple[Any, list[str]]] = {}


def _placements(scenario: Scenario, state: TRState, owner: str, uids: list[str]
                ) -> dict[str, str]:
    """Where a minor's units appear when it enters the war: its cities first (capital first),
    at most 2 ground units a hex (3R stacking), then its other hexes."""
    countries = scenario.home_countries.get(owner, (owner,))
    cap = state["campaign"]["capitals"].get(owner)
    cities = [f["hex"] for n, f in sorted(state["cities"].items(), key=lambda kv: kv[0] != cap)
              if f["country"] in countries]
    spots = list(dict.fromkeys(cities + _country_hexes(scenario, countries)))
    taken: dict[str, int] = {}
    for u in state["units"].values():
        if u["status"] == "active" and u["hex"] in spots and u["type"] in GROUND_TYPES:
            taken[u["hex"]] = taken.get(u["hex"], 0) + 1
    out: dict[str, str] = {}
    k = 0
    for uid in uids:
        ground = state["units"][uid]["type"] in GROUND_TYPES
        while k < len(spots) and ground and taken.get(spots[k], 0) >= 2:
            k += 1
        if k >= len(spots):
            break
        out[uid] = spots[k]
        if ground:
            taken[spots[k]] = taken.get(spots[k], 0) + 1
    return out


def _waiting_units(state: TRState, owner: str) -> list[str]:
    return sorted(uid for uid, u in state["units"].items()
                  if u.get("power") == owner and u["status"] == "active" and u["hex"] is None
                  and u.get("box") == owner)


def minor_activation(ctx: Context, state: TRState, minor: str, side: str, rule: str) -> Event:
    units = _waiting_units(state, minor)
    return Event("minor_activated", {"minor": minor, "side": side, "rule": rule,
                                     "placements": _placements(ctx.scenario, state, minor,
                                                               units)})


# --- end of player turns and game turns ------------------------------------------------------


def conquests(ctx: Context, state: TRState, ending: str) -> list[Event]:
    """TR-22: minors whose capital an enemy holds now, held since an earlier player-turn end,
    at the end of the defender's player turn, are conquered."""
    camp = state["campaign"]
    n = int(camp["player_turns"]) + 1
    held: dict[str, Any] = {}
    out: list[Event] = []
    econ = economy_of(state)
    for minor, m in sorted(camp["minors"].items()):
        if m["status"] not in ("at_war", "ally") or not m["capital"]:
            continue
        holder = state["control"].get(m["capital"])
        if holder is None or holder == m["side"]:
            continue
        prev = camp["held"].get(minor)
        since = prev["since"] if prev and prev["by"] == holder else n
        held[minor] = {"by": holder, "since": since}
        if ending == m["side"] and since < n:
            cap_hex = state["cities"][m["capital"]]["hex"]
            there = [u["power"] for u in state["units"].values()
                     if u["hex"] == cap_hex and u["status"] == "active"]
            power = _power_of_side(state, holder, econ, there)
            if power is None:
                continue
            out.append(Event("minor_conquered", {"minor": minor, "side": holder, "power": power,
                                                 "value": territory_brps(camp, minor),
                                                 "rule": "TR-22"}))
            if minor == camp["rm_trigger"] and not camp["rm_done"] and \
                    "ussr" in {p.value for p in econ.powers} and \
                    Power.USSR not in econ.at_war_with_germany:
                out.append(Event("ribbentrop_molotov", {
                    "territories": list(camp["ribbentrop_molotov"]),
                    "side": state["power_sides"].get("ussr"), "rule": "TR-87"}))
    return [Event("player_turn_closed", {"held": held, "player_turns": n}), *out]


def _capital_holder(state: TRState, power: str) -> str | None:
    cap = state["campaign"]["capitals"].get(power)
    return state["control"].get(cap) if cap else None


def game_turn_end(ctx: Context, state: TRState, dice: Dice) -> list[Event]:
    camp = state["campaign"]
    econ = economy_of(state)
    out: list[Event] = []
    axis = axis_of(state)
    powers = {p.value for p in econ.powers}
    if "france" in powers and _capital_holder(state, "france") == axis:
        rolls = draw_vichy_rolls(dice.stream("third_reich.vichy"),
                                 econ.readings.vichy_alignment_granularity)
        out.append(Event("vichy_formed", {"rolls": rolls, "rule": "TR-26"}))
    for p in ("italy", "uk"):
        holder = _capital_holder(state, p)
        if p in powers and holder is not None and holder != state["power_sides"].get(p) \
                and p not in camp["majors_out"]:
            out.append(Event("major_surrendered", {"power": p, "capital_held_by": holder,
                                                   "rule": "TR-04"}))
    ended = sudden_end(state)
    if ended is not None:
        out.append(ended)
    return out


def sudden_end(state: TRState) -> Event | None:
    """TR-04's sudden death at the end of a game turn (the last one included): Germany
    surrenders when the enemy holds Berlin; the Axis wins holding London and Moscow."""
    axis = axis_of(state)
    ger = _capital_holder(state, "germany")
    if ger is not None and ger != axis:
        return Event("campaign_ended", {**_sudden(state, ger, "Germany surrenders: its "
                                                  "capital is held by the enemy")})
    if _capital_holder(state, "ussr") == axis and _capital_holder(state, "uk") == axis:
        return Event("campaign_ended", {**_sudden(state, axis, "the Axis holds London and "
                                                  "Moscow")})
    return None


def _sudden(state: TRState, winner: str, why: str) -> dict[str, Any]:
    label = date_label(int(state["turn"]))
    return {"winner": winner if winner == axis_of(state) else "allies", "reason": why,
            "rule": "TR-04", "summary": f"{winner if winner == axis_of(state) else 'allies'} wins in "
                                      f"{label}: {why}"}


def new_turn(ctx: Context, state: TRState, turn: int) -> list[Event]:
    camp = state["campaign"]
    econ = economy_of(state)
    out: list[Event] = []
    if turn == AXIS_MINORS_JOIN_TURN:
        for minor in camp["axis_minors"]:
            m = camp["minors"].get(minor)
            if m is not None and m["status"] == "neutral":
                out.append(minor_activation(ctx, state, minor, axis_of(state), "TR-24"))
    out += iran_arrival(econ, date_of(turn).season)
    if turn == camp["us_entry_turn"] and Power.US not in econ.powers and \
            "us" in state["power_sides"]:
        out.append(Event("us_entered", {"rule": "TR-86"}))
    return out


# --- wrapped commands -----------------------------------------------------------------------


# --- folds: campaign events -----------------------------------------------------------------


def fold_player_turn_closed(state: TRState, ev: Event) -> TRState:
    d = cast(PlayerTurnClosed, ev.data)
    state["campaign"]["held"] = d["held"]
    state["campaign"]["player_turns"] = d["player_turns"]
    return state


def _cities_of(state: TRState, countries: Iterable[str]) -> list[str]:
    want = set(countries)
    return [n for n, f in state["cities"].items() if f["country"] in want]


def _remove_units(state: TRState, owner: str) -> None:
    for u in state["units"].values():
        if u.get("power") == owner and u["status"] == "active":
            u["status"], u["hex"] = "eliminated", None


def fold_minor_conquered(state: TRState, ev: Event) -> TRState:
    """TR-22/TR-11/TR-23: the conqueror's base grows at the next Year Start; the cities pass
    to it; the minor's units leave the game."""
    d = cast(MinorConquered, ev.data)
    camp = state["campaign"]
    minor = d["minor"]
    econ = economy_of(state)
    if minor not in econ.conquests and minor not in econ.spent_territories:
        econ, _ = conquer(econ, minor, d["power"], d["value"])
        state["economy"] = cast(EconomyJSON, econ.to_json())
    if minor == "vichy":  # TR-26: the Vichy colonies fall with Vichy France, worth nothing
        for colony in _vichy_colonies(state):
            if colony not in econ.conquests and colony not in econ.spent_territories:
                econ, _ = deny(econ, colony, d["power"])
        state["economy"] = cast(EconomyJSON, econ.to_json())
    camp["minors"][minor]["status"] = "conquered"
    camp["minors"][minor]["side"] = d["side"]
    camp["held"].pop(minor, None)
    for name, f in state["cities"].items():
        if f["owner"] == minor:
            state["control"][name] = d["side"]
    _remove_units(state, minor)
    war.on_peace(state, minor, dip.Cause.CONQUEST)
    return state


def fold_ribbentrop_molotov(state: TRState, ev: Event) -> TRState:
    """TR-87/TR-11: the USSR annexes its Ribbentrop-Molotov share (eastern Poland 5, the
    Baltic States 10, Bessarabia 5: 90 -> 110 at Spring 1940, TR-TV09)."""
    d = cast(RibbentropMolotov, ev.data)
    camp = state["campaign"]
    econ = economy_of(state)
    side = d["side"]
    for t in d["territories"]:
        if t not in econ.conquests and t not in econ.spent_territories:
            econ, _ = conquer(econ, t, "ussr")
    state["economy"] = cast(EconomyJSON, econ.to_json())
    minors = [*d["territories"], *camp.get("rm_minors", [])]
    for t in minors:
        m = camp["minors"].get(t)
        if m is not None and m["status"] != "conquered":
            m["status"], m["side"] = "conquered", side
            _remove_units(state, t)
    hexes = {h for t in d["territories"] for h in camp.get("areas", {}).get(t, [])}
    if side is not None:
        for name, f in state["cities"].items():
            if f["hex"] in hexes or f["country"] in minors or f["owner"] in minors:
                state["control"][name] = side
    camp["rm_done"] = True
    war.on_annexed(state, camp.get("rm_minors", []))
    return state


def fold_minor_activated(state: TRState, ev: Event) -> TRState:
    """TR-24/TR-25: a minor enters the war on ``side``; its units appear on its territory."""
    d = cast(MinorActivated, ev.data)
    m = state["campaign"]["minors"][d["minor"]]
    m["status"] = "ally" if d["rule"] == "TR-24" and d["side"] == axis_of(state) and \
        d["minor"] in state["campaign"]["axis_minors"] else "at_war"
    m["side"] = d["side"]
    for name, f in state["cities"].items():
        if f["owner"] == d["minor"] and name not in state["control"]:
            state["control"][name] = d["side"]
    for uid, h in d["placements"].items():
        u = state["units"][uid]
        u["hex"], u["box"], u["side"] = h, None, d["side"]
    for uid in _waiting_units(state, d["minor"]):
        state["units"][uid]["side"] = d["side"]
    if m["status"] == "ally":
        econ = economy_of(state)
        if d["minor"] not in econ.minor_allies and d["minor"] not in econ.conquests:
            econ = minor_joins(econ, d["minor"], "germany")
            state["economy"] = cast(EconomyJSON, econ.to_json())
    war.on_minor_activated(state, d)
    if m["status"] != "ally":
        _minor_pays_patron(state, d["minor"])
    return state


def _vichy_colonies(state: TRState) -> list[str]:
    """TR-26: the colonies that rolled Vichy (Vichy France's territory in the diplomacy)."""
    if not war.has_diplomacy(state):
        return []
    return sorted(c for c, t in war.diplomacy(state).territory.items() if t == "vichy")


def _minor_pays_patron(state: TRState, minor: str) -> None:
    """TR-24 ("Minor powers join patrons when an enemy nation attacks them. If they are still
    belligerents in the next spring Year Start phase, the patron nation receives their BRPs in
    its economic base"): a minor attacked joins the major the diplomacy aligned it with; its
    BRPs (TR-87, the scenario's ``values``) go to that major's pending base, taken back if it
    is conquered before the Year Start (TR-11, ``conquer``). A minor fighting alone pays no
    one. Vichy France (TR-26) pays its 15 and each Vichy colony's 5."""
    if not war.has_diplomacy(state):
        return
    patron = war.diplomacy(state).aligned.get(minor)
    econ = economy_of(state)
    if patron is None or patron not in {p.value for p in econ.powers}:
        return
    camp = state["campaign"]
    names = [minor, *(_vichy_colonies(state) if minor == "vichy" else [])]
    before = econ
    for name in names:
        if name in econ.minor_allies or name in econ.conquests or \
                name in econ.spent_territories:
            continue
        value = territory_brps(camp, name) if name == minor else None
        econ = minor_joins(econ, name, patron, value)
    if econ is not before:
        state["economy"] = cast(EconomyJSON, econ.to_json())


def fold_vichy_formed(state: TRState, ev: Event) -> TRState:
    """TR-26: France makes peace; occupied France pays Germany 25 from the next Year Start;
    each colony goes Vichy (neutral) or Free French (the UK's) on its roll."""
    d = cast(VichyFormed, ev.data)
    econ, rec = form_vichy(economy_of(state), d["rolls"])
    state["economy"] = cast(EconomyJSON, econ.to_json())
    camp = state["campaign"]
    camp["vichy"] = dict(rec.alignment)
    camp["majors_out"] = sorted({*camp["majors_out"], "france"})
    axis = axis_of(state)
    vichy_zone = set(camp.get("areas", {}).get("vichy", []))
    for name, f in state["cities"].items():
        if f["country"] != "france" or state["control"].get(name) == axis:
            continue
        if vichy_zone and f["hex"] not in vichy_zone:
            state["control"][name] = axis  # occupied France
        else:
            state["control"].pop(name, None)  # unoccupied France: Vichy, neutral
    uk_side = _western_side(state)
    for colony, al in rec.alignment.items():
        for name in _cities_of(state, [colony]):
            if state["control"].get(name) == axis:
                continue
            if al == "free_french":
                state["control"][name] = uk_side
            else:
                state["control"].pop(name, None)
    _remove_units(state, "france")
    war.on_peace(state, "france", dip.Cause.VICHY, dict(rec.alignment))
    if war.has_diplomacy(state) and "vichy" in war.diplomacy(state).minors:
        _vichy_minor(state, _vichy_colonies(state))
    return state


def vichy_capital(state: TRState) -> str | None:
    """TR-26: Vichy France's capital: the city named Vichy in the map's Vichy zone, else the
    zone's first capital or red city, else its first city (by name); None without a zone."""
    zone = set(state["campaign"].get("areas", {}).get("vichy", []))
    names: list[str] = sorted(str(n) for n, f in state["cities"].items() if f["hex"] in zone)
    if "Vichy" in names:
        return "Vichy"
    major = {"capital", "red_victory", "red_port"}
    first = [n for n in names if major & set(state["cities"][n]["classes"])]
    pick = first or names
    return pick[0] if pick else None


def _vichy_minor(state: TRState, colonies: Iterable[str]) -> None:
    """TR-26/TR-22: Vichy France as a neutral minor of the campaign (the diplomacy's minor
    ``vichy``): its capital (:func:`vichy_capital`), its cities (the Vichy zone's and those of
    ``colonies``, the colonies that rolled Vichy) owned by ``vichy``, so a declaration of war
    activates it and holding its capital conquers it like any minor."""
    camp = state["campaign"]
    if "vichy" in camp["minors"]:
        return
    cap = vichy_capital(state)
    camp["minors"]["vichy"] = {"capital": cap, "side": None, "status": "neutral"}
    if cap is not None:
        camp["capitals"]["vichy"] = cap
    zone = set(camp.get("areas", {}).get("vichy", []))
    cols = set(colonies)
    for f in state["cities"].values():
        if (f["country"] == "france" and f["hex"] in zone) or f["country"] in cols:
            f["owner"] = "vichy"


def fold_major_surrendered(state: TRState, ev: Event) -> TRState:
    """3R4 (EXTERNAL; grognard's reading): a major whose capital the enemy holds at the end of
    a game turn leaves the war; its units leave the map."""
    d = cast(MajorSurrendered, ev.data)
    p = d["power"]
    econ = economy_of(state)
    if Power(p) in econ.powers:
        econ = leave_economy(econ, p, "3R4", f"{p} surrenders: capital held by the enemy")
        state["economy"] = cast(EconomyJSON, econ.to_json())
    state["campaign"]["majors_out"] = sorted({*state["campaign"]["majors_out"], p})
    _remove_units(state, p)
    war.on_peace(state, p, dip.Cause.CONQUEST)
    return state


def fold_us_entered(state: TRState, ev: Event) -> TRState:
    """TR-86: the US enters the war (1942) with a base of 250; its BRPs come at the Year Start."""
    econ = declare_war(economy_of(state), Power.US, on_germany=True)
    state["economy"] = cast(EconomyJSON, econ.to_json())
    war.on_us_entered(state)
    return state


def fold_campaign_ended(state: TRState, ev: Event) -> TRState:
    d = cast(CampaignEnded, ev.data)
    state["campaign"]["verdict"] = dict(d)
    return state


def game_over(ctx: Context, state: TRState) -> Mapping[str, Any] | None:
    """TR-04: the verdict once the campaign has ended (after Summer I 1945, or a surrender)."""
    camp = state.get("campaign")
    if camp is None:
        return None
    v = camp.get("verdict")
    return dict(v) if v else None


CAMPAIGN_FOLDS: dict[str, Fold] = {
    "player_turn_closed": fold_player_turn_closed,
    "minor_conquered": fold_minor_conquered,
    "ribbentrop_molotov": fold_ribbentrop_molotov,
    "minor_activated": fold_minor_activated,
    "vichy_formed": fold_vichy_formed,
    "major_surrendered": fold_major_surrendered,
    "us_entered": fold_us_entered,
    "campaign_ended": fold_campaign_ended,
}




def add_campaign_state(scenario: Scenario, s: TRState) -> JSON:
    """Add the campaign's tables to a start state (all scenarios: control, conquest, end), and
    a later start's situation (``economy``, ``start_*`` keys of ``[third_reich.campaign]``)."""
    s.update(campaign_state(scenario, s["power_sides"]))
    camp = s["campaign"]
    start = third_reich_rules(scenario).section.campaign
    axis = axis_of(s)
    if start.start_vichy:
        camp["vichy"] = {}
        for cname, f in s["cities"].items():
            if f["country"] == "france" and f["hex"] in camp["areas"].get("vichy", []):
                s["control"].pop(cname, None)
        _vichy_minor(s, ())  # TR-26: Vichy France, a neutral minor (diplomacy.start too)
    for name in start.start_conquered:  # "vichy" too: the zone occupied (November 1942)
        camp["minors"][name].update({"status": "conquered", "side": axis})
    for name in start.start_allies:
        camp["minors"][name].update({"status": "ally", "side": axis})
        units = _waiting_units(s, name)
        for uid, h in _placements(scenario, s, name, units).items():
            s["units"][uid].update({"hex": h, "box": None, "side": axis})
    for name, m in camp["minors"].items():
        for cname, f in s["cities"].items():
            if f["owner"] != name:
                continue
            if m["status"] == "neutral":
                s["control"].pop(cname, None)
            elif m["side"] is not None:
                s["control"][cname] = m["side"]
    econ = economy_of(s)
    for p in start.start_at_war:
        econ = declare_war(econ, p, on_germany=True)
    for p, v in start.economy.items():
        if Power(p) not in econ.powers:
            econ = declare_war(econ, p, on_germany=True, enters_economy_with=v.base)
        econ = econ.set(f"{p}.base", v.base, "TR-86", f"{p} base at the scenario start")
        econ = econ.set(f"{p}.brp", v.brp, "TR-86", f"{p} BRPs at the scenario start")
    for p in start.start_out:
        if Power(p) in econ.powers:
            econ = leave_economy(econ, p, "3R4", f"{p} is out of the war at the scenario start")
        camp["majors_out"] = sorted({*camp["majors_out"], p})
    for side, cities in start.start_control.items():
        for cname in cities:
            s["control"][cname] = side
    if econ is not economy_of(s):
        s["economy"] = cast(EconomyJSON, econ.to_json())
    camp["rm_done"] = camp["rm_done"] or bool(start.start_conquered)
    return s


__all__ = ["CAMPAIGN_FOLDS", "add_campaign_state", "axis_of",
           "conquests", "enemy_side_of", "game_over", "game_turn_end",
           "minor_activation", "new_turn", "sudden_end", "turn_label"]
