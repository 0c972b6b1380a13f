"""TR-20, TR-21 ("The Murmansk box and interception of lend lease to the USSR"; "Murmansk convoy
escort and interception"): the Murmansk box, its hidden assets and its combat sequence.

The box follows the ``murmansk_timing`` reading (default SPRING):

* SPRING: the Allies place the lend-lease counters with their fleets and ASW face down; then
  Germany commits air, Bergen fleets and U-boats face up; the Allied units are revealed and
  one round of combat follows in the Allied Spring turn.
* SUMMER1: the Allies place the counters in Spring; Germany commits in its Summer I turn (U-boats
  inverted: the Allies see whether any are there, not how many); the Allies then commit escorts
  and combat follows in their Summer I combat phase.

Combat (Version A sequence, both timelines): German air v Allied fleets (fleets reply with 1/3
of their factors), surviving air at the BRPs; German and Allied fleets exchange fire, surviving
German fleets at the BRPs; ASW v U-boats (U-boats reply at 1/2 factors, 0.6 rule), surviving
U-boats at the BRPs with 2x factors. All BRP hits come off the shipment once.

>>> g, a = GermanAssets(subs=6), AlliedAssets()
>>> murmansk_combat(g, a, 40, MurmanskRolls(subs_vs_brps=10)).brps_delivered
33
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from typing import Any

from grognard.core.dice import DiceStream
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import exact_json
from grognard.core.tables import Table
from grognard.third_reich.air_naval.airnaval import (
    fleet_reply_factors,
    fleets_firing_at_air,
    nonphasing_air_hits,
)
from grognard.third_reich.air_naval.effectiveness import effectiveness_hits
from grognard.third_reich.economy.readings import MurmanskTiming
from grognard.third_reich.turn.combat_readings import TRCombatReadings


def _count(v: int, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise InputError(name, f"a number of factors is a whole number >= 0, not {v!r}")
    return v


@dataclass(frozen=True, slots=True)
class GermanAssets:
    """German factors in the box: air fleets from Norway, fleets from Norway, U-boats."""

    air: int = 0
    naval: int = 0
    subs: int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            _count(getattr(self, f.name), f"german.{f.name}")

    def any(self) -> bool:
        return bool(self.air or self.naval or self.subs)

    def to_json(self) -> dict[str, int]:
        return {"air": self.air, "naval": self.naval, "subs": self.subs}


@dataclass(frozen=True, slots=True)
class AlliedAssets:
    """Allied escorts in the box: fleets from England or the US, ASW (never air fleets)."""

    naval: int = 0
    asw: int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            _count(getattr(self, f.name), f"allied.{f.name}")

    def to_json(self) -> dict[str, int]:
        return {"naval": self.naval, "asw": self.asw}


@dataclass(frozen=True, slots=True)
class MurmanskRolls:
    """The 1D10 rolls of one box combat, one per fire (unused ones may be None)."""

    air_vs_fleets: int | None = None
    fleets_vs_air: int | None = None
    air_vs_brps: int | None = None
    naval_vs_fleets: int | None = None
    fleets_vs_naval: int | None = None
    naval_vs_brps: int | None = None
    asw_vs_subs: int | None = None
    subs_vs_asw: int | None = None
    subs_vs_brps: int | None = None

    def need(self, name: str) -> int:
        v = getattr(self, name)
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 10:
            raise InputError(f"rolls.{name}", f"this fire needs a 1D10 roll 1..10, not {v!r}")
        return v

    def to_json(self) -> dict[str, int | None]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def draw_rolls(stream: DiceStream) -> MurmanskRolls:
    """All nine rolls from a seeded stream, always nine draws (replays stay aligned)."""
    return MurmanskRolls(*(stream.die(10) for _ in fields(MurmanskRolls)))


@dataclass(frozen=True)
class MurmanskResult:
    """TR-21: every number of the box combat."""

    brps_sent: int
    brp_hits: int
    brps_delivered: int
    german_losses: GermanAssets
    allied_losses: AlliedAssets
    steps: tuple[dict[str, Any], ...]
    rolls: MurmanskRolls

    def to_json(self) -> dict[str, Any]:
        return {
            "brps_delivered": self.brps_delivered,
            "brps_sent": self.brps_sent,
            "brp_hits": self.brp_hits,
            "german_losses": self.german_losses.to_json(),
            "allied_losses": self.allied_losses.to_json(),
            "steps": list(self.steps),
            "rolls": self.rolls.to_json(),
        }


def air_units(factors: int) -> list[int]:
    """German air in the box as units: 5-4 air fleets, the remainder one smaller unit."""
    return [5] * (factors // 5) + ([factors % 5] if factors % 5 else [])


def fleet_units(factors: int) -> list[int]:
    """Allied fleet factors as 9-factor fleets, the remainder one damaged fleet."""
    return [9] * (factors // 9) + ([factors % 9] if factors % 9 else [])


def murmansk_combat(german: GermanAssets, allied: AlliedAssets, ll_brps: int,
                    rolls: MurmanskRolls, table: Table | None = None,
                    readings: TRCombatReadings | None = None) -> MurmanskResult:
    """TR-21 (Murmansk box combat sequence, Version A): hits on escorts, raiders and the BRPs.

    The fleets' reply to the air is TR-47's, from the general air/naval code: no more
    9-factor fleets fire than German air units fired on them
    (:func:`~grognard.third_reich.air_naval.airnaval.fleets_firing_at_air`), each with a third of its
    factors (:func:`~grognard.third_reich.air_naval.airnaval.fleet_reply_factors`, floor by
    ``naval_support_rounding``); the German air is non-phasing (the Allied turn) and rounds
    by TR-50 (:func:`~grognard.third_reich.air_naval.airnaval.nonphasing_air_hits`).
    """
    cr = readings if readings is not None else TRCombatReadings()
    sent = _count(ll_brps, "ll_brps")
    steps: list[dict[str, Any]] = []
    brp_hits = 0
    air, naval, subs = german.air, german.naval, german.subs
    fleets, asw = allied.naval, allied.asw
    if sent == 0 or not german.any():
        return MurmanskResult(sent, 0, sent, GermanAssets(), AlliedAssets(), (), rolls)

    def fire(step: str, factors: Fraction | int, roll_name: str, target_left: int,
             round06: bool = False) -> int:
        r = rolls.need(roll_name)
        h = min(target_left, effectiveness_hits(factors, r, 0, round06, table))
        steps.append({"step": step, "factors": exact_json(Fraction(factors)), "roll": r,
                      "hits": h})
        return h

    def air_fire(step: str, factors: int, roll_name: str, target_left: int) -> int:
        # TR-50: the German air is non-phasing in the box (the combat is in the Allied turn):
        # each air unit under 5 factors rounds its share by the 0.6 rule
        r = rolls.need(roll_name)
        h = min(target_left, nonphasing_air_hits(air_units(factors), r, 0, table, target_left))
        steps.append({"step": step, "factors": factors, "roll": r, "hits": h})
        return h

    # 1. German air v Allied fleets, then the fleets reply with 1/3 factors: no more 9-factor
    #    fleets fire at the air than air fleets fired on them (TR-47, as in air_naval)
    if air and fleets:
        fleets -= air_fire("air_vs_fleets", air, "air_vs_fleets", fleets)
        firing = fleets_firing_at_air(air_units(air), fleet_units(fleets))
        if firing:
            air -= fire("fleets_vs_air", fleet_reply_factors(firing, cr), "fleets_vs_air", air)
    # 2. surviving air at the BRPs
    if air:
        brp_hits += air_fire("air_vs_brps", air, "air_vs_brps", sent - brp_hits)
    # 3. German and Allied fleets, simultaneous
    if naval and fleets:
        hit_allied = fire("naval_vs_fleets", naval, "naval_vs_fleets", fleets)
        hit_german = fire("fleets_vs_naval", fleets, "fleets_vs_naval", naval)
        fleets, naval = fleets - hit_allied, naval - hit_german
    # 4. surviving German fleets at the BRPs
    if naval:
        brp_hits += fire("naval_vs_brps", naval, "naval_vs_brps", sent - brp_hits)
    # 5. ASW v U-boats, U-boats reply at half factors (0.6 rule), simultaneous
    if subs and asw:
        hit_subs = fire("asw_vs_subs", asw, "asw_vs_subs", subs)
        hit_asw = fire("subs_vs_asw", math.ceil(Fraction(subs, 2)), "subs_vs_asw", asw,
                       round06=True)
        subs, asw = subs - hit_subs, asw - hit_asw
    # 6. surviving U-boats at the BRPs with 2x factors
    if subs:
        brp_hits += fire("subs_vs_brps", 2 * subs, "subs_vs_brps", sent - brp_hits)
    g_loss = GermanAssets(german.air - air, german.naval - naval, german.subs - subs)
    a_loss = AlliedAssets(allied.naval - fleets, allied.asw - asw)
    return MurmanskResult(sent, brp_hits, sent - brp_hits, g_loss, a_loss, tuple(steps), rolls)


# --- the box as a small state machine with hidden information ------------------------------


@dataclass(frozen=True)
class MurmanskBox:
    """TR-20: the box for one year: shipments, who has committed what, and the result."""

    timing: MurmanskTiming = MurmanskTiming.SPRING
    shipments: tuple[tuple[str, int], ...] = ()
    german: GermanAssets | None = None
    allied: AlliedAssets | None = None
    result: MurmanskResult | None = None

    @property
    def brps(self) -> int:
        return sum(a for _, a in self.shipments)


def place_shipment(box: MurmanskBox, sender: str, amount: int = 20) -> MurmanskBox:
    """TR-15/TR-17/TR-20: one 20-BRP counter per western power (UK, US) in the box."""
    if sender not in ("uk", "us"):
        raise IllegalOrder("TR-19", f"only the UK and the US send northern lend lease, "
                           f"not {sender!r}")
    if amount != 20:
        raise IllegalOrder("TR-19", f"northern lend lease is exactly 20 BRPs, not {amount}")
    if any(s == sender for s, _ in box.shipments):
        raise IllegalOrder("TR-19", f"at most 20 from {sender} by the northern route")
    if box.german is not None or box.result is not None:
        raise IllegalOrder("TR-20", "shipments are placed before Germany commits")
    return replace(box, shipments=(*box.shipments, (sender, amount)))


def commit_german(box: MurmanskBox, assets: GermanAssets) -> MurmanskBox:
    """TR-20: Germany commits air (Norway), fleets (Norway/Bergen) and U-boats to the box.

    SPRING timing: after the Allies have committed face down; SUMMER1: before the Allies."""
    if box.german is not None or box.result is not None:
        raise IllegalOrder("TR-20", "Germany has already committed to the box")
    if box.timing is MurmanskTiming.SPRING and box.allied is None:
        raise IllegalOrder("TR-20", "in the Spring timeline the Allies place escorts first")
    return replace(box, german=assets)


def commit_allied(box: MurmanskBox, assets: AlliedAssets) -> MurmanskBox:
    """TR-20: the Allies commit fleets from England or the US and ASW (no air fleets)."""
    if box.allied is not None or box.result is not None:
        raise IllegalOrder("TR-20", "the Allies have already committed to the box")
    if box.timing is MurmanskTiming.SUMMER1 and box.german is None:
        raise IllegalOrder("TR-20", "in the Summer I timeline the Allies commit after seeing "
                           "the German assignments")
    return replace(box, allied=assets)


def resolve(box: MurmanskBox, rolls: MurmanskRolls, table: Table | None = None,
            readings: TRCombatReadings | None = None) -> tuple[MurmanskBox, MurmanskResult]:
    """TR-21: resolve the box once both sides have committed (or passed with nothing)."""
    if box.result is not None:
        raise IllegalOrder("TR-21", "the box has already been resolved")
    german = box.german or GermanAssets()
    allied = box.allied or AlliedAssets()
    res = murmansk_combat(german, allied, box.brps, rolls, table, readings)
    return replace(box, german=german, allied=allied, result=res), res


def view(box: MurmanskBox, player: str) -> dict[str, Any]:
    """C-HIDDEN: what ``player`` ("axis" or "allies") sees of the box.

    The Allies see whether U-boats are present, not how many, in the SUMMER1 timeline (they are
    inverted); in the SPRING timeline the Axis sees only that Allied escorts are present until
    combat reveals them. Everything is open once the box is resolved.
    """
    if player not in ("axis", "allies"):
        raise InputError("player", f"{player!r} is not axis or allies")
    out: dict[str, Any] = {"timing": box.timing.value,
                           "shipments": [{"sender": s, "brps": a} for s, a in box.shipments],
                           "resolved": box.result is not None}
    g: dict[str, Any] | None = dict(box.german.to_json()) if box.german else None
    a: dict[str, Any] | None = dict(box.allied.to_json()) if box.allied else None
    if box.result is None:
        if g is not None and player == "allies" and box.timing is MurmanskTiming.SUMMER1:
            g = {"air": g["air"], "naval": g["naval"], "subs": None,
                 "subs_present": g["subs"] > 0}
        if a is not None and player == "axis" and box.timing is MurmanskTiming.SPRING:
            a = {"naval": None, "asw": None, "present": a["naval"] + a["asw"] > 0}
    out["german"] = g
    out["allied"] = a
    out["result"] = box.result.to_json() if box.result else None
    return out
