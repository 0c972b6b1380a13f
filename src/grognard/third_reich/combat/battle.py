"""TR-32..TR-36 in the ``third_reich`` engine system: the ``attack`` command.

A land attack on one hex (2D6 from ``third_reich.combat``) with declared air and naval support
(:mod:`grognard.third_reich.air_naval.support_fight`) and airborne units that air-landed in the hex
(TR-52). Formats: docs/formats/tr_engine.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, cast

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.mapdata import Fortification, HexsideFeature, MapData
from grognard.core.mapdata import Terrain as MapTerrain
from grognard.core.paths import hex_index
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.third_reich.air_naval.support_fight import (
    declared_support,
    fight_rules,
)
from grognard.third_reich.board import (
    axis_side_of,
    eliminate_units,
    ground_by_hex,
    ground_unit_of,
    hex_stacking_limit,
    side_bridgeheads,
)
from grognard.third_reich.combat.airdrops import landed_attackers
from grognard.third_reich.combat.bridgeheads import MAX_ATTACKERS_PER_HEXSIDE, attacks_out_ok
from grognard.third_reich.combat.combat import (
    Battle,
    Terrain,
    assess_battle,
    land_loss_choices,
    verify_land_losses,
)
from grognard.third_reich.russian_winter import russian_winter_in
from grognard.third_reich.state_types import AdvanceOwed, PendingBattle, PendingRetreat, TRState
from grognard.third_reich.turn.calendar import Region, weather, weather_region
from grognard.third_reich.turn.forces import GroundUnit
from grognard.third_reich.war import retreat_options

# --- attack -----------------------------------------------------------------------------------------

MAP_TERRAIN = {MapTerrain.CLEAR: Terrain.CLEAR, MapTerrain.SWAMP: Terrain.SWAMP,
                MapTerrain.MARSH: Terrain.SWAMP, MapTerrain.MOUNTAIN: Terrain.MOUNTAIN,
                MapTerrain.FOREST: Terrain.FOREST, MapTerrain.WOODS: Terrain.FOREST}
_RIVERS = HexsideFeature.RIVER | HexsideFeature.MAJOR_RIVER


def defenders_of(ctx: Context, state: TRState, side: str, target: str) -> list[str]:
    """The enemy ground units in ``target`` as ``side`` sees them, in sorted order."""
    units = state["units"]
    return [uid for uid in ground_by_hex(ctx, state).get(target, ())
            if units[uid]["side"] != side]


def verify_bridgehead_hexsides(state: TRState, side: str, attackers: list[str],
                               target: str) -> None:
    """TR-63 (Bridgeheads) "All 4 units may attack out of the bridgehead, but no more than 2
    may attack across the same hexside" in a phase: at most 2 of the attackers may come from
    any one of ``side``'s bridgehead hexes (a hex is attacked once a phase, TR-32).
    Air-landed units (TR-52) attack their landing hex, across no hexside."""
    heads = set(side_bridgeheads(state, side))
    across: dict[str, int] = {}
    for uid in attackers:
        u = state["units"].get(uid)
        if u is None or uid in state["air_landed"] or u["hex"] not in heads \
                or u["hex"] == target:
            continue
        across[u["hex"]] = across.get(u["hex"], 0) + 1
    if not attacks_out_ok(list(across.values())):
        hex_, n = max(sorted(across.items()), key=lambda kv: kv[1])
        raise IllegalOrder("TR-63", f"{n} units attack out of the bridgehead {hex_} across "
                           f"one hexside into {target}: at most {MAX_ATTACKERS_PER_HEXSIDE}")


def battle_rules(drm: int, air_naval: dict[str, Any], airborne: bool) -> list[str]:
    """The rules beyond TR-32..TR-35 that took effect in one battle (the event names them, so
    docs/FEATURES.md counts them as played only when a game really used them): the armor
    superiority DRM (TR-36) when it is not 0, the air/naval fight in the hex in its order
    (TR-49) and its steps (TR-46..TR-48), air-landed attackers (TR-52)."""
    rules = set(fight_rules(air_naval.get("steps", [])))
    if drm:
        rules.add("TR-36")
    if airborne:
        rules.add("TR-52")
    return sorted(rules)


def attack_battle_of(ctx: Context, state: TRState, side: str, target: str, attackers: list[str]) -> Battle:
    """The land battle in ``target`` before support (TR-32..TR-36)."""
    m = ctx.scenario.map
    axis = axis_side_of(ctx)
    defenders = defenders_of(ctx, state, side, target)
    th = m.layout.from_label(target)
    across = [a for a in attackers if state["units"][a]["hex"] != target]  # TR-52: air-landed
    rivers = bool(across) and all(
        m.features_between(m.layout.from_label(cast(str, state["units"][a]["hex"])), th) & _RIVERS
        for a in across)
    return Battle(
        attackers=tuple(ground_unit_of(a, state["units"][a], axis) for a in attackers),
        defenders=tuple(ground_unit_of(d, state["units"][d], axis) for d in defenders),
        weather=weather(attack_region(m, hex_index(m, target)), state["turn"]),
        terrain=MAP_TERRAIN.get(m.terrain_of(th), Terrain.OTHER),
        fortified=m.fortification_of(th) is not Fortification.NONE,
        russian_winter=russian_winter_in(ctx, state, target),
        all_river=bool(rivers))


def attack_battle(ctx: Context, state: TRState, cmd: Command) -> Battle:
    """TR-32..TR-36, TR-52: the battle an ``attack`` order fights, as far as it is known before
    any die: its ground units, terrain, weather, whether each side can retreat, air-landed
    attackers, and the declared air and naval support at full strength (the air/naval fight in
    the hex, TR-49/TR-35, may still weaken it). For the odds shown before rolling."""
    target, attackers = str(cmd.args["hex"]), list(cmd.args["attackers"])
    defenders = defenders_of(ctx, state, cmd.player, target)
    if not defenders:
        raise IllegalOrder("TR-32", f"no enemy ground units in {target}")
    defender_side = state["units"][defenders[0]]["side"]
    air, fleets = declared_support(state, cmd)
    _d_opts, d_room = retreat_plan(ctx, state, defender_side, defenders)
    a_opts, a_room = retreat_plan(ctx, state, cmd.player, attackers)
    return replace(
        attack_battle_of(ctx, state, cmd.player, target, attackers),
        defender_can_retreat=bool(d_room), defender_retreat_room=sum(d_room.values()),
        attacker_can_retreat=retreat_possible(attackers, a_opts, a_room),
        air=tuple(air), fleets=tuple(fleets),
        airborne_in_hex=landed_attackers(state, attackers))


def verify_odds(ctx: Context, state: TRState, side: str, target: str, attackers: list[str]) -> None:
    """TR-32: the attack reaches the lowest declarable odds on its ground factors (engine
    reading: support is not counted, so losses in the air/naval fight before the ground
    combat can never leave an attack below the table); replacements do not attack."""
    battle = attack_battle_of(ctx, state, side, target, attackers)
    try:
        assess_battle(battle, ctx.tables)
    except InputError as exc:
        raise IllegalOrder("TR-32", exc.reason) from None


def attack_region(m: MapData, h: int) -> Region:
    return weather_region(m, h)




# --- the loser's losses and the attacker's advance (issue 23 item 4) -------------------------
#
# TR-32 (002 "Changes to land combat"): the CRT gives unit counts; "The loser chooses which
# units are lost (as 3R4)" (spec reading) and "surviving attacking units *may* advance into
# that hex up to the 2 unit stacking limit": which survivors advance, if any, is the
# attacker's. A battle resolves with ``battle_resolved``; a loss with more than one legal set
# of units is owed to its side (``land_losses``), then the defender's retreat hex (``retreat``,
# when several are open), then the attacker's advance (``advance``). Forced answers (nothing
# to choose) are applied by the engine, and the event says why (``forced``).

#: at most this many answers listed by ``game legal`` for one owed loss or advance
LISTED_CHOICES = 64


def battle_units(ctx: Context, state: TRState, ids: list[str]) -> list[GroundUnit]:
    axis = axis_side_of(ctx)
    return [ground_unit_of(u, state["units"][u], axis) for u in ids]


def forced_land_losses(ctx: Context, state: TRState, ids: list[str], n: int,
                       crt_defender: bool) -> tuple[list[str] | None, str]:
    """TR-32/TR-71: the units lost when their side has no choice, with the reason; ``None``
    when the side taking the loss chooses (more than one legal set)."""
    if n <= 0:
        return [], ""
    if n >= len(ids):
        return sorted(ids), f"all {len(ids)} units lost: no choice"
    choices = land_loss_choices(battle_units(ctx, state, ids), n, crt_defender=crt_defender)
    if len(choices) == 1:
        return list(choices[0]), ("the only legal loss (TR-71: no replacement is lost while "
                                  "another unit stands)" if crt_defender else
                                  "the only legal loss")
    return None, ""


def battle_losses(ctx: Context, state: TRState,
                  sides: Iterable[tuple[str, str, list[str], int, bool]]
                  ) -> tuple[list[str], dict[str, Any], dict[str, str]]:
    """TR-32/TR-71 for each ``(role, side, units, n, crt_defender)`` of a battle: the units
    lost where the side has no choice, the losses owed to the sides that choose
    (``land_losses``), and why each forced loss was the engine's."""
    lost: list[str] = []
    owed: dict[str, Any] = {}
    forced: dict[str, str] = {}
    for who, side, ids, n, crt in sides:
        units, why = forced_land_losses(ctx, state, ids, n, crt)
        if units is None:
            owed[side] = {"n": n, "units": sorted(ids), "crt_defender": crt, "role": who}
        else:
            lost += units
            if why:
                forced[who] = why
    return lost, owed, forced


# --- retreats after combat (TR-32 with the TR-28/TR-63 stacking limit; issue 23) -------------
#
# "required retreats by either side, which are always a single hex when required" (002
# "Changes to land combat"); the retreating side chooses where its units go among the open
# hexes (``retreat``), each hex taking no more than its stacking limit (2 ground units, 4 in a
# bridgehead: ``board.hex_stacking_limit``) counting the side's units already there. Engine
# reading (the text is silent): the units of a stack may retreat to different hexes. "If a side
# is required to retreat and cannot do so, they may lose 1 additional unit to cancel the
# retreat": a retreat is impossible when the survivors cannot all be placed within stacking.

#: at most this many retreats listed by ``game legal`` (all to one hex first, then splits)
LISTED_RETREATS = 64


def retreat_room(ctx: Context, state: TRState, side: str, hexes: Iterable[str],
                 leaving: Iterable[str]) -> dict[str, int]:
    """TR-28/TR-63: how many more ground units of ``side`` each hex can take within its
    stacking limit, not counting the units ``leaving`` (the retreating ones)."""
    by_hex = ground_by_hex(ctx, state)
    gone = set(leaving)
    units = state["units"]
    out: dict[str, int] = {}
    for h in sorted(set(hexes)):
        here = sum(1 for u in by_hex.get(h, ()) if units[u]["side"] == side and u not in gone)
        out[h] = max(0, hex_stacking_limit(state, h) - here)
    return out


def retreat_plan(ctx: Context, state: TRState, side: str, units: list[str]
                 ) -> tuple[dict[str, list[str]], dict[str, int]]:
    """TR-32: each unit's open hexes one hex from where it stands (``war.retreat_options``:
    land, no enemy unit, no enemy ZOC unless a friendly unit is there, no closed country) that
    still have room for one unit, and the room of each such hex."""
    by_origin: dict[str, list[str]] = {}
    opts: dict[str, list[str]] = {}
    for u in units:
        here = str(state["units"][u]["hex"])
        if here not in by_origin:
            by_origin[here] = retreat_options(ctx, state, side, here)
        opts[u] = by_origin[here]
    room = retreat_room(ctx, state, side, {h for hs in opts.values() for h in hs}, units)
    room = {h: n for h, n in room.items() if n > 0}
    return {u: [h for h in hs if h in room] for u, hs in opts.items()}, room


def _fits(units: Iterable[str], options: Mapping[str, Iterable[str]],
          room: Mapping[str, int]) -> bool:
    """Whether every unit can be given one of its hexes with no hex over its room (a bipartite
    matching of units to the hexes' free places, by augmenting paths)."""
    taken: dict[tuple[str, int], str] = {}

    def place(u: str, seen: set[tuple[str, int]]) -> bool:
        for h in sorted(options.get(u, ())):
            for k in range(room.get(h, 0)):
                slot = (h, k)
                if slot in seen:
                    continue
                seen.add(slot)
                if slot not in taken or place(taken[slot], seen):
                    taken[slot] = u
                    return True
        return False

    return all(place(u, set()) for u in sorted(units))


def retreat_moves(units: Iterable[str], options: Mapping[str, Iterable[str]],
                  room: Mapping[str, int], limit: int | None = None) -> list[dict[str, str]]:
    """TR-32: the ways to send each of ``units`` to one of its ``options`` with no hex taking
    more than its ``room``: the whole stack into one hex first (by hex), then the splits in
    order of the units' hexes (at most ``limit``; each partial choice is kept only while the
    rest can still be placed, so the search never runs into a dead end).

    >>> retreat_moves(["a", "b"], {"a": ["X", "Y"], "b": ["X", "Y"]}, {"X": 2, "Y": 1})
    [{'a': 'X', 'b': 'X'}, {'a': 'X', 'b': 'Y'}, {'a': 'Y', 'b': 'X'}]
    >>> retreat_moves(["a", "b"], {"a": ["X"], "b": ["X"]}, {"X": 1})
    []
    """
    ids = sorted(units)
    cap = limit if limit is not None else float("inf")
    if not _fits(ids, options, room):
        return []
    found: list[dict[str, str]] = []
    for h in sorted(room):
        if len(found) < cap and room[h] >= len(ids) and all(h in options.get(u, ()) for u in ids):
            found.append({u: h for u in ids})
    left = dict(room)

    def go(i: int, acc: dict[str, str]) -> None:
        if len(found) >= cap:
            return
        if i == len(ids):
            if len(set(acc.values())) > 1:  # the whole-stack moves are listed already
                found.append(dict(acc))
            return
        for h in sorted(options.get(ids[i], ())):
            if left.get(h, 0) > 0:
                left[h] -= 1
                acc[ids[i]] = h
                if _fits(ids[i + 1:], options, left):
                    go(i + 1, acc)
                del acc[ids[i]]
                left[h] += 1

    go(0, {})
    return found


def retreat_possible(units: list[str], options: Mapping[str, Iterable[str]],
                     room: Mapping[str, int]) -> bool:
    """TR-32: whether every unit of ``units`` can retreat within stacking."""
    return _fits(units, options, room)


def settle_retreat(side: str, hex_: str, units: list[str], options: Mapping[str, list[str]],
                   room: Mapping[str, int]) -> dict[str, Any]:
    """TR-32: the retreat of ``units`` (``side``'s, after a battle for ``hex_``): made by the
    engine when only one way is legal (``retreats``, and ``forced_retreat`` says why), else
    owed to ``side`` (``retreat_choice``, answered by ``retreat``)."""
    moves = retreat_moves(units, options, room, limit=2)
    if len(moves) == 1:
        return {"retreats": moves[0], "forced_retreat": {
            "side": side, "why": "the only legal retreat (open hexes and stacking)"}}
    if not moves:  # never: the CRT result was applied with the same room
        return {"retreats": {}}
    each = {u: list(options[u]) for u in sorted(units)}
    return {"retreats": {}, "retreat_choice": {
        "side": side, "hex": hex_, "units": sorted(units),
        "options": sorted({h for hs in each.values() for h in hs}), "each": each,
        "room": {h: int(n) for h, n in sorted(room.items())}}}


def settle_battle(plan: Mapping[str, Any], lost: list[str]) -> dict[str, Any]:
    """TR-32 once every loss of a battle is known: the retreats (the defender's hex owed when
    several are open), and the advance owed to the attacker when the hex is emptied and
    attackers survive (``advance`` false in the order: none advance). The keys of the event
    that carries them: ``retreats``, ``retreat_choice``, ``advance_owed``, ``advanced``."""
    d_left = [d for d in plan["defenders"] if d not in lost]
    a_left = [a for a in plan["attackers"] if a not in lost]
    r = plan["retreat"]
    out: dict[str, Any] = {"retreats": {}, "advanced": []}
    if plan.get("kind") == "invade":
        return _settle_invasion(plan, d_left, a_left)
    if r is not None and r["side"] == "defender" and r["possible"] and d_left:
        # TR-32: the defender chooses its hexes (``retreat``) unless only one way is legal
        out |= settle_retreat(plan["defender"], plan["hex"], d_left,
                              {d: list(plan["open"]) for d in d_left}, plan["room"])
    if r is not None and r["side"] == "attacker" and r["possible"] and a_left:
        # TR-32 (AR): the attacker chooses each unit's hex, one hex from where it attacked
        out |= settle_retreat(plan["side"], plan["hex"], a_left,
                              {a: list(plan["back"][a]) for a in a_left}, plan["back_room"])
    # TR-52: air-landed attackers already stand in the hex: they do not advance, and they
    # count against the stacking limit of the hex
    present = [a for a in a_left if a in plan.get("present", [])]
    movers = sorted(a for a in a_left if a not in present)
    room = int(plan["advance_max"]) - len(present)  # = min(movers, limit - present)
    if plan["emptied"] and plan["advance"] and movers and room > 0:
        out["advance_owed"] = {"side": plan["side"], "hex": plan["hex"], "units": movers,
                               "max": room}
    return out


def _settle_invasion(plan: Mapping[str, Any], d_left: list[str], a_left: list[str]
                     ) -> dict[str, Any]:
    """TR-61/TR-62, TR-32: the defender beaten off the beach chooses its retreat hexes as in
    any battle (``retreat``; with no room it lost one more unit instead, in the CRT result);
    the invaders that do not land stay where they embarked; a successful invasion owes the
    invader its landing (``advance``, with the bridgehead it places when any unit lands)."""
    r = plan["retreat"]
    out: dict[str, Any] = {"retreats": {}, "advanced": []}
    if r is not None and r["side"] == "defender" and r["possible"] and d_left:
        out |= settle_retreat(plan["defender"], plan["hex"], d_left,
                              {d: list(plan["open"]) for d in d_left}, plan["room"])
    if plan["succeeded"] and a_left and int(plan["advance_max"]) > 0:
        out["advance_owed"] = {"side": plan["side"], "hex": plan["hex"],
                               "units": sorted(a_left), "max": int(plan["advance_max"]),
                               "invasion": {"bridgehead": plan["bridgehead"]}}
    return out


def settled_units(ev: Event) -> list[str]:
    """The units whose records a battle's folds write (:func:`apply_settlement`, the
    support losses, the eliminated and chosen units): the ``writes_units`` declaration of
    ``battle_resolved`` and ``land_losses_chosen``."""
    d = ev.data
    return [*(d.get("air_naval") or {}).get("losses", {}), *d.get("eliminated", ()),
            *d.get("units", ()), *d.get("also_eliminated", ()), *d.get("retreats", {}),
            *d.get("advanced", ())]


def apply_settlement(s: TRState, d: Mapping[str, Any]) -> None:
    """Fold the settlement of a battle (:func:`settle_battle`'s keys in event ``d``)."""
    eliminate_units(s, list(d.get("also_eliminated", [])))
    for uid, to in d["retreats"].items():
        s["units"][uid]["hex"] = to
    owed = d.get("advance_owed")
    if d.get("retreat_choice"):  # the advance follows the defender's retreat
        s["pending_retreat"] = cast(PendingRetreat, {
            **d["retreat_choice"], "advance": list(d["advanced"]),
            **({"advance_owed": owed} if owed else {})})
        return
    for uid in d["advanced"]:
        s["units"][uid]["hex"] = d["hex"]
    if owed:
        s["pending_advance"] = cast(AdvanceOwed, dict(owed))


def owed_losses(state: TRState, player: str) -> dict[str, Any]:
    p = (state.get("pending_battle") or cast(PendingBattle, {})).get("owed", {}).get(player)
    if p is None:
        raise IllegalOrder("TR-32", f"{player} owes no land-combat losses now")
    return dict(p)


def verify_land_losses_order(ctx: Context, state: TRState, cmd: Command, units: list[str]) -> None:
    """TR-32/TR-71: the units ``cmd.player`` removes for its owed CRT loss."""
    p = owed_losses(state, cmd.player)
    verify_land_losses(battle_units(ctx, state, list(p["units"])), list(units), int(p["n"]),
                       crt_defender=bool(p["crt_defender"]))


def land_loss_answers(ctx: Context, state: TRState, player: str) -> list[list[str]]:
    """TR-32: the legal sets of units ``player`` may remove for its owed loss (at most
    :data:`LISTED_CHOICES`), weakest first."""
    try:
        p = owed_losses(state, player)
    except IllegalOrder:
        return []
    strength = {u: int(state["units"][u]["attack"]) for u in p["units"]}
    choices = land_loss_choices(battle_units(ctx, state, list(p["units"])), int(p["n"]),
                                crt_defender=bool(p["crt_defender"]))
    ranked = sorted(choices, key=lambda c: (sum(strength[u] for u in c), c))
    return [list(c) for c in ranked[:LISTED_CHOICES]]


def verify_advance(state: TRState, cmd: Command, units: list[str]) -> AdvanceOwed:
    """TR-32: the surviving attackers ``cmd.player`` advances into the emptied hex: any of
    them (none is legal), at most the stacking limit."""
    p = state.get("pending_advance")
    if not p or p["side"] != cmd.player:
        raise IllegalOrder("TR-32", f"{cmd.player} has no advance after combat to make now")
    twice = sorted({u for u in units if units.count(u) > 1})
    if twice:
        raise IllegalOrder("TR-32", f"{', '.join(twice)} named twice")
    for uid in units:
        if uid not in p["units"]:
            raise IllegalOrder("TR-32", f"{uid} is not a surviving attacker of the battle for "
                               f"{p['hex']} (may advance: {', '.join(p['units'])})")
    if len(units) > int(p["max"]):
        raise IllegalOrder("TR-32", f"{len(units)} units cannot advance into {p['hex']}: at "
                           f"most {p['max']} (stacking limit)")
    return p


def advance_answers(state: TRState, player: str) -> list[list[str]]:
    """TR-32: the legal advances (largest and strongest first, then none; at most
    :data:`LISTED_CHOICES`, always with none)."""
    p = state.get("pending_advance")
    if not p or p["side"] != player:
        return []
    strength = {u: int(state["units"][u]["attack"]) for u in p["units"]}
    out: list[list[str]] = []
    for k in range(min(int(p["max"]), len(p["units"])), 0, -1):
        combos = sorted(itertools.combinations(sorted(p["units"]), k),
                        key=lambda c: (-sum(strength[u] for u in c), c))
        out += [list(c) for c in combos]
    return [*out[:LISTED_CHOICES - 1], []]
