"""EuroFront victory: the objectives a scenario's victory conditions count, the verdict at the end
and the standing verdict at any time (the rule system's ``objectives``, ``standing`` and
``game_over`` hooks).

EuroFront's own victory rules are EXTERNAL (the optional-rules text gives none), so victory is
the scenario's:

* **Objectives listed.** ``[calendar] objectives`` (hex labels) with ``axis_objectives`` (how
  many the Axis must hold when ``last_month`` is over; default all of them): each objective is
  worth 1; the Axis wins if it holds at least that many, else the Allies win.
* **None listed (reading).** The cities of the map are the objectives, each worth the
  production it gives (``efg_city_pp`` for a city, ``efg_major_city_pp`` for a major city or
  capital: what a side fights for in the block game); the Axis wins if it holds more than half
  of their total worth when ``last_month`` is over, else the Allies.
* **Annihilation.** A side with no block left on the map loses at once.

Both sides want every objective (the Axis to take it, the Allies to hold it). Who holds a hex
is its control (the last side to have had blocks alone in it): public information.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grognard.engine.context import Context
from grognard.engine.system import Objective
from grognard.eurofront.blocks import geo
from grognard.eurofront.game_state import game_readings, other
from grognard.eurofront.model import Turn
from grognard.eurofront.state_types import EFState

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
SIDES = ("axis", "allies")


def label(month: Turn) -> str:
    """``"September 1941"``."""
    return f"{MONTHS[month.month - 1]} {month.year}"


@dataclass(frozen=True)
class Terms:
    """The scenario's victory terms: the objectives (hex, name, worth), the worth the Axis must
    hold at the end, and where they come from (``scenario`` or ``cities``)."""

    places: tuple[tuple[str, str, int], ...]
    axis_needs: int
    source: str

    @property
    def total(self) -> int:
        return sum(v for _, _, v in self.places)


def _city_name(ctx: Context, hex_label: str) -> str:
    m = ctx.scenario.map
    g = geo(m)
    i = g.index.get(hex_label)
    cities = m.cities.get(i, ()) if i is not None else ()
    return cities[0].name if cities else hex_label


def terms(ctx: Context) -> Terms:
    """The victory terms of this game's scenario (see the module docstring)."""
    def make() -> Terms:
        cal = ctx.scenario.calendar
        listed = cal.get("objectives")
        if listed:
            hexes = [str(h) for h in listed]
            need = int(cal.get("axis_objectives", len(hexes)))
            return Terms(tuple((h, _city_name(ctx, h), 1) for h in hexes), need, "scenario")
        r = game_readings(ctx)
        worth = {"city": r.efg_city_pp, "major": r.efg_major_city_pp}
        places = tuple((h, _city_name(ctx, h), worth[kind])
                       for h, kind in sorted(geo(ctx.scenario.map).city_pp.items()))
        total = sum(v for _, _, v in places)
        return Terms(places, total // 2 + 1, "cities")
    return ctx.cached("ef.victory.terms", make)


def objectives(ctx: Context, state: EFState) -> Sequence[Objective]:
    """The objectives with who holds each now (the ``objectives`` hook)."""
    control = state["control"]
    return [Objective(h, name, value, control.get(h), SIDES)
            for h, name, value in terms(ctx).places]


def _annihilated(state: EFState) -> str | None:
    for s in SIDES:
        if not any(u["side"] == s for u in state["units"].values()):
            return s
    return None


def _objective_verdict(ctx: Context, state: EFState, when: str) -> dict[str, Any]:
    t = terms(ctx)
    control = state["control"]
    held = sorted(h for h, _, _ in t.places if control.get(h) == "axis")
    worth = sum(v for h, _, v in t.places if control.get(h) == "axis")
    winner = "axis" if worth >= t.axis_needs else "allies"
    if t.source == "scenario":
        summary = (f"{winner.title()} wins: the Axis holds {len(held)} of {len(t.places)} "
                   f"objectives ({t.axis_needs} needed) {when}")
        return {"winner": winner, "reason": "objectives", "axis_objectives": held,
                "needed": t.axis_needs, "summary": summary}
    summary = (f"{winner.title()} wins: the Axis holds cities worth {worth} of {t.total} PP "
               f"(more than half, {t.axis_needs}, needed) {when}")
    return {"winner": winner, "reason": "objectives", "axis_objectives": held,
            "needed": t.axis_needs, "worth": worth, "summary": summary}


def game_over(ctx: Context, state: EFState) -> Mapping[str, Any] | None:
    """The game ends after the last month's production (victory by objectives held) or when a
    side has no block left on the map."""
    gone = _annihilated(state)
    if gone is not None:
        return {"winner": other(gone), "reason": "annihilation",
                "summary": f"{other(gone).title()} wins: {gone} has no blocks left"}
    last = ctx.scenario.calendar.get("last_month")
    if last is None or Turn.parse(state["activation"]["month"]) <= Turn.parse(str(last)):
        return None
    return _objective_verdict(ctx, state, f"after {label(Turn.parse(str(last)))}")


def standing(ctx: Context, state: EFState) -> Mapping[str, Any]:
    """The verdict if the game ended now (the ``standing`` hook): ``leader`` (the side that
    would win), ``level`` (``victory``: the scenario knows one level), ``why`` (in words),
    ``final`` (the game is over and this is its result), the objectives the Axis holds and the
    worth it needs."""
    over = game_over(ctx, state)
    if over is not None:
        v = dict(over)
        final = True
    else:
        month = label(Turn.parse(state["activation"]["month"]))
        v = _objective_verdict(ctx, state, f"now ({month})")
        final = False
    t = terms(ctx)
    control = state["control"]
    return {"leader": v["winner"], "level": "victory", "why": v["summary"], "final": final,
            "reason": v["reason"], "source": t.source,
            "axis_holds": sorted(h for h, _, _ in t.places if control.get(h) == "axis"),
            "axis_worth": sum(w for h, _, w in t.places if control.get(h) == "axis"),
            "axis_needs": t.axis_needs, "total": t.total}
