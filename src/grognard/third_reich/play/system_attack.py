"""TR-32..TR-36 in the ``third_reich`` engine system: the ``attack`` command.

A land attack on one hex (2D6 from ``third_reich.combat``) with declared air and naval support
(:mod:`grognard.third_reich.play.system_support`) and airborne units that air-landed in the hex
(TR-52). Formats: docs/formats/tr_engine.md.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.mapdata import Fortification, HexsideFeature, MapData
from grognard.core.mapdata import Terrain as MapTerrain
from grognard.core.paths import hex_index
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.state import JSON
from grognard.third_reich.board import (
    axis_side_of,
    ground_unit_of,
    on_map_ground,
    retreat_hex_of,
    retreat_options,
    side_bridgeheads,
)
from grognard.third_reich.combat.bridgeheads import MAX_ATTACKERS_PER_HEXSIDE, attacks_out_ok
from grognard.third_reich.combat.combat import Battle, Terrain, assess_battle
from grognard.third_reich.combat.hex_defense import russian_winter_applies
from grognard.third_reich.conquest.campaign import map_areas
from grognard.third_reich.play.system_air import landed_attackers
from grognard.third_reich.play.system_support import (
    declared_support,
    fight_rules,
)
from grognard.third_reich.supply.supply_map import weather_region
from grognard.third_reich.turn.calendar import Region, Season, date_of, weather

# --- attack -----------------------------------------------------------------------------------------

_MAP_TERRAIN = {MapTerrain.CLEAR: Terrain.CLEAR, MapTerrain.SWAMP: Terrain.SWAMP,
                MapTerrain.MARSH: Terrain.SWAMP, MapTerrain.MOUNTAIN: Terrain.MOUNTAIN,
                MapTerrain.FOREST: Terrain.FOREST, MapTerrain.WOODS: Terrain.FOREST}
_RIVERS = HexsideFeature.RIVER | HexsideFeature.MAJOR_RIVER


def defenders_of(state: JSON, side: str, target: str) -> list[str]:
    return sorted(uid for uid, u in state["units"].items()
                  if on_map_ground(u) and u["hex"] == target and u["side"] != side)


def verify_bridgehead_hexsides(state: JSON, side: str, attackers: list[str],
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


def weakest_first(state: JSON, ids: list[str]) -> list[str]:
    return sorted(ids, key=lambda i: (int(state["units"][i]["attack"]), i))


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


def attack_battle_of(ctx: Context, state: JSON, side: str, target: str, attackers: list[str]) -> Battle:
    """The land battle in ``target`` before support (TR-32..TR-36)."""
    m = ctx.scenario.map
    axis = axis_side_of(ctx)
    defenders = defenders_of(state, side, target)
    th = m.layout.from_label(target)
    across = [a for a in attackers if state["units"][a]["hex"] != target]  # TR-52: air-landed
    rivers = bool(across) and all(
        m.features_between(m.layout.from_label(state["units"][a]["hex"]), th) & _RIVERS
        for a in across)
    return Battle(
        attackers=tuple(ground_unit_of(a, state["units"][a], axis) for a in attackers),
        defenders=tuple(ground_unit_of(d, state["units"][d], axis) for d in defenders),
        weather=weather(attack_region(m, hex_index(m, target)), state["turn"]),
        terrain=_MAP_TERRAIN.get(m.terrain_of(th), Terrain.OTHER),
        fortified=m.fortification_of(th) is not Fortification.NONE,
        russian_winter=russian_winter_in(ctx, state, target),
        all_river=bool(rivers))


def attack_battle(ctx: Context, state: JSON, cmd: Command) -> Battle:
    """TR-32..TR-36, TR-52: the battle an ``attack`` order fights, as far as it is known before
    any die: its ground units, terrain, weather, whether each side can retreat, air-landed
    attackers, and the declared air and naval support at full strength (the air/naval fight in
    the hex, TR-49/TR-35, may still weaken it). For the odds shown before rolling."""
    target, attackers = str(cmd.args["hex"]), list(cmd.args["attackers"])
    defenders = defenders_of(state, cmd.player, target)
    if not defenders:
        raise IllegalOrder("TR-32", f"no enemy ground units in {target}")
    defender_side = state["units"][defenders[0]]["side"]
    air, fleets = declared_support(state, cmd)
    return replace(
        attack_battle_of(ctx, state, cmd.player, target, attackers),
        defender_can_retreat=bool(retreat_options(ctx, state, defender_side, target)),
        attacker_can_retreat=all(
            retreat_hex_of(ctx, state, cmd.player, state["units"][a]["hex"]) is not None
            for a in attackers),
        air=tuple(air), fleets=tuple(fleets),
        airborne_in_hex=landed_attackers(state, attackers))


#: TR-84: the Russian winter's area: the USSR, the Baltic States and eastern Poland (the 1939
#: countries of the map, and the scenario's named areas)
RUSSIAN_WINTER_COUNTRIES = ("ussr", "estonia", "latvia", "lithuania")
RUSSIAN_WINTER_AREAS = ("eastern_poland", "baltic_states")


def ussr_war_turn(state: JSON) -> int | None:
    """The turn Germany and the USSR went to war in this game (a declaration either way), or
    None (not at war, or at war since before the scenario began)."""
    if state.get("diplomacy") is not None:  # TR-84 by the diplomacy (issue 23)
        from grognard.third_reich.conquest.diplomacy import war_between
        from grognard.third_reich.war import diplomacy

        w0 = war_between(diplomacy(state), "germany", "ussr")
        return int(w0.since) if w0 is not None else None
    turns = [int(w["turn"]) for w in state["wars"] if "turn" in w and
             {w["power"], w["target"]} == {"germany", "ussr"}]
    return min(turns) if turns else None


def _russian_winter_hexes(ctx: Context) -> frozenset[str]:
    m = ctx.scenario.map
    names = m.country_names
    out = {m.label(h) for h in range(m.n)
           if names[int(m.country[h])] in RUSSIAN_WINTER_COUNTRIES}
    areas = map_areas(ctx.scenario)
    for a in RUSSIAN_WINTER_AREAS:
        out.update(areas.get(a, []))
    return frozenset(out)


def russian_winter_in(ctx: Context, state: JSON, target: str) -> bool:
    """TR-84 (Russian winter): does the Russian winter strip the defense adds in ``target``
    now? The first Winter turn after Germany and the USSR went to war, in the USSR, the Baltic
    States or eastern Poland (non-Finnish Axis defenders,
    :func:`~grognard.third_reich.combat.hex_defense.hex_defense`)."""
    d = date_of(int(state["turn"]))
    start = ussr_war_turn(state)
    if d.season is not Season.WINTER or start is None:
        return False
    w = date_of(start)
    area = ctx.cached("tr.russian_winter_hexes", lambda: _russian_winter_hexes(ctx))
    return russian_winter_applies(d.year, d.season, w.year, w.season, target in area)


def verify_odds(ctx: Context, state: JSON, side: str, target: str, attackers: list[str]) -> None:
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


