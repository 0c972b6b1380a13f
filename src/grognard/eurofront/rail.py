"""EF-03 Reduced Rail Moves during Surprise DOW (``003_bbc0beaac187b5b3.txt``).

A country attacked and surprised (its HQs disrupted) has its strategic rail movement cut to
5 hexes while the surprise disruption lasts (reading; in sequential play the disruption is
cancelled per EF-18, see :mod:`grognard.eurofront.activation`). The normal rail allowance is a
base-game figure (EXTERNAL) and is passed in.

>>> strategic_rail_limit(20, surprised=True), strategic_rail_limit(20, surprised=False)
(5, 20)
>>> strategic_rail_limit(20, surprised=True, rules=OptionalRules.none())
20
"""

from __future__ import annotations

from grognard.core.errors import IllegalOrder, InputError
from grognard.eurofront.readings import ALL_RULES, OptionalRule, OptionalRules

SURPRISE_RAIL_HEXES = 5


def strategic_rail_limit(normal: int, surprised: bool,
                         rules: OptionalRules = ALL_RULES) -> int:
    """EF-03 Strategic rail limit in hexes: 5 while the country's surprise disruption lasts."""
    if isinstance(normal, bool) or not isinstance(normal, int) or normal < 0:
        raise InputError("normal", f"a rail allowance is a non-negative integer, not {normal!r}")
    if surprised and rules.on(OptionalRule.SURPRISE_RAIL):
        return min(normal, SURPRISE_RAIL_HEXES)
    return normal


def verify_strategic_rail_move(hexes: int, normal: int, surprised: bool,
                               rules: OptionalRules = ALL_RULES) -> None:
    """EF-03 Refuse a strategic rail move longer than the limit in force."""
    if isinstance(hexes, bool) or not isinstance(hexes, int) or hexes < 0:
        raise InputError("hexes", f"must be a non-negative integer, not {hexes!r}")
    limit = strategic_rail_limit(normal, surprised, rules)
    if hexes > limit:
        rule = "EF-03" if limit < normal else "base rail"
        raise IllegalOrder(rule, f"a strategic rail move of {hexes} hexes exceeds the limit of "
                           f"{limit}" + (" (surprised country)" if rule == "EF-03" else ""))


def can_strategic_rail_move(hexes: int, normal: int, surprised: bool,
                            rules: OptionalRules = ALL_RULES) -> bool:
    try:
        verify_strategic_rail_move(hexes, normal, surprised, rules)
    except IllegalOrder:
        return False
    return True
