"""TR-84 (Russian winter) in the position: when and where the Russian winter strips the
defense adds of an attack's target (the rule itself:
:func:`grognard.third_reich.combat.hex_defense.russian_winter_applies`). A position module: it
reads the war's start from the diplomacy and the winter's area from the scenario's named areas
(:func:`grognard.third_reich.conquest.campaign.map_areas`), for the battles of
:mod:`grognard.third_reich.combat.battle`.
"""

from __future__ import annotations

from grognard.engine.context import Context
from grognard.third_reich.combat.hex_defense import russian_winter_applies
from grognard.third_reich.conquest.campaign import map_areas
from grognard.third_reich.state_types import TRState
from grognard.third_reich.turn.calendar import Season, date_of

#: TR-84: the Russian winter's area: the USSR, the Baltic States and eastern Poland (the 1939
#: countries of the map, and the scenario's named areas)
RUSSIAN_WINTER_COUNTRIES = ("ussr", "estonia", "latvia", "lithuania")
RUSSIAN_WINTER_AREAS = ("eastern_poland", "baltic_states")


def ussr_war_turn(state: TRState) -> int | None:
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


def russian_winter_in(ctx: Context, state: TRState, target: str) -> bool:
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
