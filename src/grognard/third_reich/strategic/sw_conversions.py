"""TR-81 in the ``third_reich`` engine system: the units a forced conversion removes.

The strategic warfare code adds the conversion's SW factors (:mod:`~grognard.third_reich.strategic.
sw_boxes`: 5 interceptor factors per 15 bomber hits of a year, 9 ASW factors at the Year Start
after 25 BRPs lost to U-boats). This module removes the unit the rules name, chosen by its
owner: "Remove 1 5-4 from the map" (Germany: a 5-factor air fleet) and "remove one 9 factor
British (or US after entry) fleet from the map and their force pool" (the power whose economy
was hit). The unit goes to the strategic warfare box for good (``status: "converted"``, no hex;
never rebuilt: "The German build pool for 5-4 air fleets is permanently smaller").

* Each conversion the folds record (``sw_round_fought`` ``record.air_conversions``,
  ``year_started`` ``powers[].fleet_conversion``) is owed by the power's side as a decision
  (``state["sw_conversions"]`` ``{power: n}``), at once, whoever's turn it is.
* ``sw_convert {unit}`` (strategic/orders/sw_convert.py): the owner names the unit: a Germany air unit of 5 attack factors, or a
  9-factor fleet of the converting UK/US; on the map first (reading: "from the map"), a unit in
  the force pool or eliminated only when none is on the map. Event ``sw_unit_converted``
  ``{power, unit, rule}``.
* Reading: a conversion owed when the power has no such unit at all removes nothing (the SW
  factors still come); it is not owed.
"""

from __future__ import annotations

from collections.abc import Mapping

from grognard.engine.context import Context
from grognard.engine.decisions import Decision
from grognard.engine.events import Event, writes_units
from grognard.engine.state import JSON
from grognard.third_reich.state_types import TRState

#: TR-81: the unit each power's forced conversion removes: (unit type, attack factors)
CONVERTED: Mapping[str, tuple[str, int]] = {"germany": ("air", 5), "uk": ("naval", 9),
                                            "us": ("naval", 9)}
STATUS = "converted"
BOX = "strategic_warfare"


def _eligible(state: TRState, power: str) -> list[str]:
    """``power``'s units of the converted kind, wherever they are, not already converted."""
    kind, factors = CONVERTED[power]
    return [uid for uid, u in state["units"].items()
            if u.get("power") == power and u["type"] == kind and int(u["attack"]) == factors
            and u["status"] != STATUS]


def candidates(state: TRState, power: str) -> list[str]:
    """The units ``power`` may remove now: those on the map, else those off it (force pool,
    eliminated)."""
    mine = _eligible(state, power)
    on_map = [uid for uid in mine if state["units"][uid]["status"] == "active"
              and state["units"][uid]["hex"] is not None]
    return sorted(on_map or mine)


def owed(state: TRState) -> dict[str, int]:
    """Conversions owed, by power (only those with a unit to remove)."""
    return {p: int(n) for p, n in (state.get("sw_conversions") or {}).items() if int(n) > 0}


def _owe(state: TRState, power: str, n: int) -> None:
    left = len(_eligible(state, power)) - owed(state).get(power, 0)
    n = min(n, max(0, left))
    if n:
        conv = dict(state.get("sw_conversions") or {})
        conv[power] = int(conv.get(power, 0)) + n
        state["sw_conversions"] = conv


def conversion_decisions(ctx: Context, state: TRState) -> list[Decision]:
    """TR-81: each side owing a conversion names the unit (one decision per side)."""
    out = []
    sides: dict[str, list[str]] = {}
    for power in owed(state):
        sides.setdefault(str(state["power_sides"].get(power)), []).append(power)
    for side, powers in sorted(sides.items()):
        what = ", ".join(f"{p}: a {'5-factor air fleet' if p == 'germany' else '9-factor fleet'}"
                         for p in sorted(powers))
        out.append(Decision(side, frozenset({"sw_convert"}),
                            f"{side.capitalize()}: remove the unit a forced strategic warfare "
                            f"conversion takes ({what})", "TR-81"))
    return out


@writes_units()
def sw_conversions_owed(state: TRState, ev: Event) -> JSON:
    """After a bomber round (its forced air conversions) or the Year Start (forced fleet
    conversions): TR-81 - the power owes the removal of the unit converted (``sw_convert``)."""
    if ev.type == "sw_round_fought":
        n = int(ev.data.get("record", {}).get("air_conversions", 0))
        if n:
            _owe(state, "germany", n)
    elif ev.type == "year_started":
        for p in ev.data.get("record", {}).get("powers", []):
            if p.get("fleet_conversion") and p.get("power") in CONVERTED:
                _owe(state, p["power"], 1)
    return state




__all__ = ["BOX", "CONVERTED", "STATUS", "candidates", "conversion_decisions", "owed",
           "sw_conversions_owed"]
