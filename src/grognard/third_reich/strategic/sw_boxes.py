"""TR-79..TR-82 in the ``third_reich`` engine system: the strategic warfare boxes and rounds.

``state["sw_boxes"]`` holds each power's strategic-warfare factors: Germany's ``subs`` and
``interceptors``, the UK's and the US's ``asw`` and ``bombers``. Germany starts with 3 U-boat
factors and the UK with no ASW (TR-82); a scenario may give other boxes (``[third_reich]
sw_boxes``).

* ``sw_build {power, category, factors}`` (build phase, TR-80/TR-31/TR-82): buys SW factors at 3
  BRPs each within the year's limit for the kind (:func:`~grognard.third_reich.strategic.
  strategic_warfare.buy_sw_factors`), never before Spring 1940.
* ``sw_uboats {target}`` (Germany's strategic warfare phase, TR-79): Germany chooses the UK or,
  once the US is at war with Germany, the US (TR-79 step 4, TR-13). All U-boats fire at the
  target's ASW at half factors (0.6 rule) while the ASW fires back at full factors; survivors fire
  at the economy at 2x factors. Reading: the ASW that opposes an attack on a power's economy is
  that power's own (TR-81 ties ASW and fleet conversions to "the economy actually hit"); so in
  Spring 1942 (the second happy time, TR-82) an attack on the US meets no ASW (UK ASW may not
  oppose it, US ASW does not yet exist) and rolls with +1.
* ``sw_bombing {losses_first}`` (the Western Allies' strategic warfare phase, TR-79): all UK and
  US bombers attack Germany; Germany's interceptors fire back at full factors; survivors fire
  at the economy at 1x. The bombers' owner (the Western Allies) names which power's bombers
  are lost first (``uk`` or ``us``).

Each round is the attacking player's choice, once per game turn (reading: like an attack, a
strategic warfare round is ordered, never forced; the text says when it happens, not that it
must).

Every round is one event ``sw_round_fought`` with all its 1D10s (named stream
``third_reich.strategic_warfare``; a die is drawn only when the round uses it), the losses on
both boxes and the hits, which the economy records exactly (:func:`~grognard.third_reich.
strategic.strategic_warfare.record_sw_hits`: TR-13 tally for the next Year Start, TR-08 at once
in 1945, TR-81 bomber conversions: 5 interceptor factors per new multiple of 15 hits). The Year
Start's forced fleet conversion (TR-81) adds 9 ASW factors to that power's box.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from grognard.core.dice import Dice
from grognard.core.errors import InputError
from grognard.engine.context import Context
from grognard.engine.events import Event, writes_units
from grognard.engine.state import JSON
from grognard.third_reich.board import economy_of, powers_of_side
from grognard.third_reich.economy.economy import Economy, begin_player_turn, player_turn_open
from grognard.third_reich.economy.year_start import FLEET_CONVERSION_ASW_FACTORS
from grognard.third_reich.state_types import EconomyJSON, SwRoundFought, TRState
from grognard.third_reich.strategic.murmansk_box import murmansk_held
from grognard.third_reich.strategic.strategic_readings import HappyTimeTurn, WarReadings
from grognard.third_reich.strategic.strategic_warfare import (
    SwKind,
    happy_time,
    record_sw_hits,
    sw_round,
)
from grognard.third_reich.turn.powers import Power

STREAM = "third_reich.strategic_warfare"
#: TR-81: interceptor factors one forced 5-4 air fleet conversion gives
AIR_CONVERSION_FACTORS = 5
#: TR-82: the first happy time's boxes (Germany 3 U-boat factors, the UK no ASW)
START_BOXES: dict[str, dict[str, int]] = {
    "germany": {"subs": 3, "interceptors": 0},
    "uk": {"asw": 0, "bombers": 0},
    "us": {"asw": 0, "bombers": 0},
}
WESTERN = ("uk", "us")


def initial_sw_boxes(given: Mapping[str, Mapping[str, int]] | None = None) -> dict[str, Any]:
    """TR-82: the SW boxes at the start (a scenario's ``sw_boxes`` replace the named kinds)."""
    boxes = {p: dict(kinds) for p, kinds in START_BOXES.items()}
    for power, kinds in (given or {}).items():
        if power not in boxes:
            raise InputError(f"third_reich.sw_boxes.{power}",
                             f"only {', '.join(boxes)} have strategic warfare boxes")
        for kind, n in kinds.items():
            if kind not in boxes[power]:
                raise InputError(f"third_reich.sw_boxes.{power}.{kind}",
                                 f"{power} has {', '.join(boxes[power])} factors only")
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise InputError(f"third_reich.sw_boxes.{power}.{kind}",
                                 f"a number of factors is a whole number >= 0, not {n!r}")
            boxes[power][kind] = n
    return boxes


def sw_boxes_of(state: TRState) -> dict[str, dict[str, int]]:
    b = state.get("sw_boxes")
    return b if b is not None else initial_sw_boxes()


def box_factors(state: TRState, power: str, kind: str) -> int:
    return int(sw_boxes_of(state).get(power, {}).get(kind, 0))


def economy_powers(econ: Economy) -> set[str]:
    return {p.value for p in econ.powers}


def opened_economy(econ: Economy, power: str) -> Economy:
    return econ if player_turn_open(econ, Power(power)) else begin_player_turn(econ, power)


# --- the rounds (TR-79) -----------------------------------------------------------------------------


def round_fought(state: TRState, kind: str) -> bool:
    return bool(state.get("sw_fought", {}).get(kind) == state["turn"])


def us_entry_turn(state: TRState, readings: WarReadings | None = None) -> int | None:
    """TR-82 reading ``happy_time``: the turn whose U-boat round on the US is the second happy
    time - under ``us_entry`` (default) the turn the US-Germany war began (issue 23: a German
    declaration may bring it before 1942); None: Spring 1942 as printed."""
    from grognard.third_reich.conquest import diplomacy as dip
    from grognard.third_reich.war import diplomacy, has_diplomacy

    r = readings or WarReadings()
    if r.happy_time is not HappyTimeTurn.US_ENTRY or not has_diplomacy(state):
        return None
    w = dip.war_between(diplomacy(state), "us", "germany")
    return None if w is None else int(w.since)


def war_readings(ctx: Context) -> WarReadings:
    """The scenario's (and game's) ``[readings]`` of :class:`WarReadings`."""
    import dataclasses

    names = {f.name for f in dataclasses.fields(WarReadings)}
    return ctx.cached("tr.war_readings", lambda: WarReadings.from_mapping(
        {k: v for k, v in {**ctx.scenario.readings, **ctx.readings}.items() if k in names}))


def uboat_defense(state: TRState, target: str, readings: WarReadings | None = None
                  ) -> tuple[int, int]:
    """TR-79/TR-82: the ASW opposing U-boats on ``target``'s economy, and the DRM (TR-20: ASW
    still in the Murmansk box does not oppose them)."""
    h = happy_time(int(state["turn"]), target, us_entry_turn(state, readings))
    asw = box_factors(state, target, "asw") - murmansk_held(state, target, "asw") \
        if h.us_asw_exists and h.uk_asw_allowed else 0
    return asw, h.drm


def uboat_factors(state: TRState) -> int:
    """TR-79: Germany's U-boat factors that fight the round (TR-20: not those in the Murmansk
    box this Summer I)."""
    return box_factors(state, "germany", "subs") - murmansk_held(state, "germany", "subs")


def bomber_factors(state: TRState, side: str) -> dict[str, int]:
    """TR-79: the bomber factors of ``side``'s Western powers at war with Germany (TR-25,
    issue 23: the diplomacy's word; no bombing by a power at peace with it)."""
    from grognard.third_reich.war import at_war_with_germany

    econ = economy_of(state)
    return {p: box_factors(state, p, "bombers") for p in WESTERN
            if p in powers_of_side(state, side) and p in economy_powers(econ)
            and at_war_with_germany(state, p)}


def fight_round(dice: Dice, kind: SwKind, off: int, dfn: int, drm: int) -> dict[str, Any]:
    """One round, each 1D10 drawn only when the round uses it (TR-79, TR-50)."""
    stream = dice.stream(STREAM)
    r1 = r2 = None
    if off and dfn:
        r1, r2 = stream.die(10), stream.die(10)
    probe = sw_round(kind, off, dfn, r1, r2, 1, drm)
    r3 = stream.die(10) if probe.surviving else None
    return sw_round(kind, off, dfn, r1, r2, r3, drm).to_json()


def split_losses(losses: int, have: dict[str, int], first: str) -> dict[str, int]:
    out = {}
    for p in sorted(have, key=lambda p: p != first):
        out[p] = min(losses, have[p])
        losses -= out[p]
    return out


def fold_sw_round_fought(state: TRState, ev: Event) -> TRState:
    d = cast(SwRoundFought, ev.data)
    boxes = sw_boxes_of(state)
    for power, kinds in d["losses"].items():
        for kind, n in kinds.items():
            boxes[power][kind] = int(boxes[power][kind]) - int(n)
    econ, hits = record_sw_hits(economy_of(state), d["kind"], d["target"], d["round"]["hits"])
    if hits.air_conversions:  # TR-81: each forced 5-4 conversion gives 5 interceptor factors
        boxes["germany"]["interceptors"] = int(boxes["germany"]["interceptors"]) + \
            AIR_CONVERSION_FACTORS * hits.air_conversions
    state["economy"] = cast(EconomyJSON, econ.to_json())
    state["sw_boxes"] = boxes
    state["sw_fought"] = {**state.get("sw_fought", {}), d["kind"]: state["turn"]}
    return state


# --- wiring -------------------------------------------------------------------------------------------


@writes_units()
def sw_year_start(state: TRState, ev: Event) -> JSON:
    """After ``year_started``: TR-81's forced fleet conversion places 9 ASW factors in the
    power's SW box."""
    if ev.type != "year_started":
        return state
    boxes = sw_boxes_of(state)
    for p in ev.data.get("record", {}).get("powers", []):
        if p.get("fleet_conversion") and p.get("power") in boxes:
            box = boxes[p["power"]]
            box["asw"] = int(box["asw"]) + FLEET_CONVERSION_ASW_FACTORS
    state["sw_boxes"] = boxes
    return state




__all__ = ["AIR_CONVERSION_FACTORS", "STREAM", "WESTERN", "bomber_factors", "box_factors",
           "economy_powers", "fight_round", "fold_sw_round_fought", "initial_sw_boxes",
           "opened_economy", "round_fought", "split_losses", "sw_boxes_of", "sw_year_start",
           "uboat_defense", "uboat_factors"]
