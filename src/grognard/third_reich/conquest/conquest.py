"""TR-22..TR-26 ("Conquests, minor allies, and BRP gains from them"; "Post playtest
refinements"): conquest of minors and regions, second conquests, minor allies, Vichy France.

Conquests and minor allies change the base only at the next Spring Year Start (the
``<power>.pending`` account, TR-11).

>>> minor_conquered([("axis", "axis"), ("allies", "axis")], "axis", "allies")
1
>>> minor_conquered([("axis", "axis"), ("allies", "allies")], "axis", "allies") is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from grognard.core.dice import DiceStream
from grognard.core.errors import IllegalOrder, InputError
from grognard.third_reich.economy.economy import Economy, add_pending, leave_economy
from grognard.third_reich.economy.readings import VichyAlignment
from grognard.third_reich.economy.start_values import axis_minors, french_colonies, territory_value
from grognard.third_reich.turn.calendar import Season, turn_number
from grognard.third_reich.turn.powers import Power, is_axis, parse_power


def minor_conquered(history: Sequence[tuple[str, str]], conqueror: str,
                    defender: str) -> int | None:
    """TR-22: index of the player turn at whose end a minor is conquered, or None.

    ``history`` lists, per player turn in order, (phasing side, controller of the capital at
    the end of that player turn). The capital must be held through the end of the defender's
    next player turn after it was taken.
    """
    held_since: int | None = None
    for i, item in enumerate(history):
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise InputError(f"history[{i}]", "expected (phasing side, capital controller)")
        phasing, controller = item
        if controller != conqueror:
            held_since = None
            continue
        if held_since is None:
            held_since = i
            continue
        if phasing == defender:
            return i
    return None


def region_conquered(city_controllers: Mapping[str, str], conqueror: str) -> bool:
    """TR-22: a region (e.g. French Syria) is conquered when the conqueror controls every city."""
    if not city_controllers:
        raise InputError("city_controllers", "a region has at least one city")
    return all(c == conqueror for c in city_controllers.values())


@dataclass(frozen=True)
class ConquestRecord:
    """What a conquest did to the bases (all changes take effect at the next Year Start)."""

    territory: str
    conqueror: str
    value: int
    gained: int
    lost_by: str | None = None
    lost: int = 0
    rule: str = "TR-11"

    def to_json(self) -> dict[str, Any]:
        return {"territory": self.territory, "conqueror": self.conqueror, "value": self.value,
                "gained": self.gained, "lost_by": self.lost_by, "lost": self.lost,
                "rule": self.rule}


def conquer(econ: Economy, territory: str, conqueror: Power | str,
            value: int | None = None) -> tuple[Economy, ConquestRecord]:
    """TR-11/TR-23/TR-24/TR-26: credit the conquest of a minor country or region.

    * first conquest: the conqueror's base grows by the value at the next Year Start (TR-11);
    * a second conquest (or a conquered minor ally): the power credited loses the value, the
      new conqueror gains nothing (TR-23) — except a minor ally conquered by the enemy, which
      pays its conqueror (only conquered minor enemies pay, TR-11);
    * Vichy: annexing it gives ``vichy_annex_value`` (0) to an Axis conqueror; conquered or
      liberated Vichy or mainland France are worth nothing (TR-26).
    """
    c = parse_power(str(conqueror), "conqueror")
    if c not in econ.powers:
        raise InputError("conqueror", f"{c.value} has no economy in this game")
    name = territory.lower().replace(" ", "_").replace("-", "_")
    v = territory_value(name, econ.readings) if value is None else value
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise InputError("value", f"a territory value is a whole number >= 0, not {v!r}")
    e = econ
    if name in e.spent_territories:
        return e, ConquestRecord(name, c.value, v, 0, rule="TR-23")
    if name == "vichy":
        # TR-26: conquered or liberated Vichy is worth nothing to its conqueror (or the
        # ``vichy_annex_value`` reading's 5 to an Axis one: "If Germany invades and annexes
        # the rest of metropolitan France, it gains 5 more BRPs income"); it only deprives
        # the power it had joined (TR-24) of its BRPs, as a second conquest does (TR-23)
        gain = e.readings.vichy_annex_value if is_axis(c) else 0
        e, rec = deny(e, name, c, v)
        if gain:
            e = add_pending(e, c, gain, "TR-26", "annexed the rest of metropolitan France")
        return e, replace(rec, gained=gain)
    previous = e.conquests.get(name) or e.minor_allies.get(name)
    if previous is not None and previous == c:
        raise IllegalOrder("TR-22", f"{name} is already {c.value}'s")
    if previous is not None and previous in e.powers:
        if name in e.minor_allies:
            # a minor ally taken by the enemy: the patron loses it, the conqueror gains it
            e = add_pending(e, previous, -v, "TR-11", f"minor ally {name} conquered by {c.value}")
            allies = {k: p for k, p in e.minor_allies.items() if k != name}
            conquests = {**e.conquests, name: c}
            e = add_pending(e, c, v, "TR-11", f"conquered {name} (a minor enemy)")
            e = replace(e, minor_allies=allies, conquests=conquests)
            return e, ConquestRecord(name, c.value, v, v, previous.value, v)
        e = add_pending(e, previous, -v, "TR-23", f"{name} conquered a second time by {c.value}")
        conquests = {k: p for k, p in e.conquests.items() if k != name}
        e = replace(e, conquests=conquests, spent_territories=e.spent_territories | {name})
        return e, ConquestRecord(name, c.value, v, 0, previous.value, v, rule="TR-23")
    e = add_pending(e, c, v, "TR-11", f"conquered {name}")
    e = replace(e, conquests={**e.conquests, name: c})
    return e, ConquestRecord(name, c.value, v, v)


def deny(econ: Economy, territory: str, conqueror: Power | str,
         value: int | None = None) -> tuple[Economy, ConquestRecord]:
    """TR-26 ("Conquered or liberated Vichy or mainland France are not worth anything, they
    only deprive the other guy of those BRPs as with 'second conquests'"): ``territory`` (Vichy
    France, a Vichy colony falling with it) conquered: the power it had joined as a minor ally
    (TR-24) loses its value at the next Year Start; the conqueror gains nothing; the
    territory is worth nothing more (spent)."""
    c = parse_power(str(conqueror), "conqueror")
    name = territory.lower().replace(" ", "_").replace("-", "_")
    v = territory_value(name, econ.readings) if value is None else value
    e = econ
    patron = e.minor_allies.get(name)
    lost = 0
    if patron is not None and patron != c and patron in e.powers:
        e = add_pending(e, patron, -v, "TR-26", f"{name} conquered by {c.value}: worth nothing "
                                                "to the conqueror")
        lost = v
    e = replace(e, spent_territories=e.spent_territories | {name},
                minor_allies={k: p for k, p in e.minor_allies.items() if k != name})
    return e, ConquestRecord(name, c.value, v, 0, patron.value if lost and patron else None,
                             lost, rule="TR-26")


def minor_joins(econ: Economy, minor: str, patron: Power | str,
                value: int | None = None) -> Economy:
    """TR-11/TR-24: a minor joins its patron; its BRPs join the patron's base at the next
    Year Start if it is still belligerent (an enemy conquest before then cancels it)."""
    p = parse_power(str(patron), "patron")
    name = minor.lower().replace(" ", "_")
    if name in econ.minor_allies or name in econ.conquests:
        raise IllegalOrder("TR-24", f"{name} is already allied or conquered")
    v = territory_value(name, econ.readings) if value is None else value
    e = add_pending(econ, p, v, "TR-24", f"minor ally {name} joins {p.value}")
    return replace(e, minor_allies={**e.minor_allies, name: p})


def axis_minors_join(econ: Economy) -> tuple[Economy, tuple[str, ...]]:
    """TR-24: Hungary, Romania, Bulgaria and Finland, if not activated before, join Germany in
    Summer I 1941; their BRPs join Germany's base at Spring 1942 unless conquered meanwhile."""
    if econ.turn != turn_number(1941, Season.SUMMER1):
        raise IllegalOrder("TR-24", "the Axis minors join Germany in Summer I 1941 (turn 9)")
    e = econ
    joined = []
    for m in axis_minors():
        if m in e.minor_allies or m in e.conquests or m in e.spent_territories:
            continue
        e = minor_joins(e, m, Power.GERMANY)
        joined.append(m)
    return e, tuple(joined)


@dataclass(frozen=True)
class VichyRecord:
    """TR-26: the alignment rolls (1D6: 1-3 Vichy, 4-6 Free French) and what they paid."""

    rolls: Mapping[str, int]
    alignment: Mapping[str, str] = field(default_factory=dict)
    germany_gain: int = 0
    uk_gain: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"rolls": dict(self.rolls), "alignment": dict(self.alignment),
                "germany_gain": self.germany_gain, "uk_gain": self.uk_gain}


def vichy_roll_keys(granularity: VichyAlignment) -> tuple[str, ...]:
    if granularity is VichyAlignment.NORTH_AFRICA_TOGETHER:
        return ("north_africa", "syria")
    return french_colonies()


def draw_vichy_rolls(stream: DiceStream, granularity: VichyAlignment) -> dict[str, int]:
    """TR-26: one 1D6 per alignment roll, drawn from a seeded stream."""
    return {k: stream.die(6) for k in vichy_roll_keys(granularity)}


def form_vichy(econ: Economy, rolls: Mapping[str, int]) -> tuple[Economy, VichyRecord]:
    """TR-26 (If Paris is controlled by the Axis...; Post playtest refinements): France makes
    peace. Occupied France gives Germany 25 a year (from the next Year Start); each colony rolls
    50-50 Vichy (1-3) or Free French (4-6); Free French colonies pay the UK (5 each)."""
    if Power.FRANCE not in econ.powers:
        raise IllegalOrder("TR-26", "France has already made peace")
    keys = vichy_roll_keys(econ.readings.vichy_alignment_granularity)
    for k in keys:
        r = rolls.get(k)
        if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= 6:
            raise InputError(f"rolls.{k}", f"a 1D6 roll is 1..6, not {r!r}")
    e = econ
    occupied = territory_value("occupied_france", e.readings)
    e = add_pending(e, Power.GERMANY, occupied, "TR-26", "occupied France (Vichy formed)")
    e = replace(e, conquests={**e.conquests, "occupied_france": Power.GERMANY})
    alignment: dict[str, str] = {}
    for colony in french_colonies():
        key = colony if colony in keys else ("syria" if colony == "syria" else "north_africa")
        alignment[colony] = "vichy" if rolls[key] <= 3 else "free_french"
    uk_gain = 0
    if Power.UK in e.powers:
        for colony, side in alignment.items():
            if side == "free_french":
                v = territory_value(colony, e.readings)
                e = add_pending(e, Power.UK, v, "TR-26", f"{colony} goes Free French")
                e = replace(e, minor_allies={**e.minor_allies, colony: Power.UK})
                uk_gain += v
    e = leave_economy(e, Power.FRANCE, "TR-26", "France makes peace: Vichy France forms")
    return e, VichyRecord(dict(rolls), alignment, occupied, uk_gain)
