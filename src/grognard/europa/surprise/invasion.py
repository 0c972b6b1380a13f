"""Europa rule 47.B: invasion surprise (SUR-25, SUR-26).

An invasion surprise fires once per country: on the first ground attack across its border before
1942, on the first turn war is declared on it, or on the first ground attack across a colony's
border before 1942. A major country that has suffered it takes its colonies with it.

>>> h = InvasionHistory(colonies={"french_syria": "france"})
>>> h, rec = invasion_surprise(h, "france", InvasionTrigger.WAR_DECLARED, 1940)
>>> rec.fires, invasion_surprise_due(h, "french_syria", InvasionTrigger.COLONY_BORDER_ATTACK, 1941)
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from grognard.core.errors import InputError

FIRST_SAFE_YEAR = 1942
"""Border-attack triggers fire only "if it occurs before 1942"."""


class InvasionTrigger(StrEnum):
    """SUR-25 (47.B 1-3) The events that can trigger an invasion surprise."""

    BORDER_ATTACK = "border_attack"
    WAR_DECLARED = "war_declared"
    COLONY_BORDER_ATTACK = "colony_border_attack"


@dataclass(frozen=True)
class InvasionHistory:
    """SUR-25 The per-country one-shot flags, and each colony's mother country."""

    surprised: frozenset[str] = frozenset()
    colonies: Mapping[str, str] = field(default_factory=dict)

    def has_suffered(self, country: str) -> bool:
        """SUR-25 (47.B note 4) A country, or a colony whose major country, has already suffered
        invasion surprise."""
        if country in self.surprised:
            return True
        parent = self.colonies.get(country)
        return parent is not None and parent in self.surprised


def invasion_surprise_due(history: InvasionHistory, country: str, trigger: InvasionTrigger,
                          year: int) -> bool:
    """SUR-25 (47.B) Whether ``trigger`` against ``country`` in ``year`` gives an invasion surprise.

    >>> invasion_surprise_due(InvasionHistory(), "ussr", InvasionTrigger.BORDER_ATTACK, 1942)
    False
    """
    if not country:
        raise InputError("country", "name the country attacked")
    if isinstance(year, bool) or not isinstance(year, int):
        raise InputError("year", f"a year is a whole number ({year!r})")
    trigger = InvasionTrigger(trigger)
    is_colony = country in history.colonies
    if trigger is InvasionTrigger.COLONY_BORDER_ATTACK and not is_colony:
        raise InputError("country", f"{country} is not a colony (no mother country recorded)")
    if history.has_suffered(country):
        return False
    if trigger is InvasionTrigger.WAR_DECLARED:
        return True
    return year < FIRST_SAFE_YEAR


@dataclass(frozen=True)
class InvasionSurpriseRecord:
    """Record of SUR-25: whether the trigger fired and the one-shot flag set."""

    country: str
    trigger: InvasionTrigger
    year: int
    fires: bool
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"country": self.country, "trigger": self.trigger.value, "year": self.year,
                "fires": self.fires, "reason": self.reason}


def invasion_surprise(history: InvasionHistory, country: str, trigger: InvasionTrigger,
                      year: int) -> tuple[InvasionHistory, InvasionSurpriseRecord]:
    """SUR-25 (47.B) Apply a trigger: when due, an invasion surprise occurs and the country (so
    also its colonies, if a major country) is no longer vulnerable. Reading: the first trigger
    fires once, then the country is immune."""
    due = invasion_surprise_due(history, country, trigger, year)
    if due:
        new = replace(history, surprised=history.surprised | {country})
        return new, InvasionSurpriseRecord(country, InvasionTrigger(trigger), year, True,
                                           "first trigger against the country")
    if history.has_suffered(country):
        why = "already suffered invasion surprise"
        if country not in history.surprised:
            why += f" (through its major country {history.colonies[country]})"
    else:
        why = f"border attacks surprise only before {FIRST_SAFE_YEAR}"
    return history, InvasionSurpriseRecord(country, InvasionTrigger(trigger), year, False, why)


class Mobilization(StrEnum):
    """SUR-26 (47.B) The invaded country's mobilization."""

    NONE = "none"
    PARTIAL = "partial"
    FULL = "full"


class Severity(StrEnum):
    DEVASTATING = "devastating"
    SIGNIFICANT = "significant"
    SOME = "some"


CROSS_EFFECTS: tuple[tuple[str, str], ...] = (
    ("SUR-15", "+1 '+ # MP' marker on every defending stack"),
    ("SUR-16", "Soviet units moving closer to the nearest enemy HQ or border remove one marker "
               "free per hex moved"),
    ("SUR-18", "the defender gets no reaction phase"),
    ("SUR-21", "the phasing player may make any inoperative air units operative"),
    ("SUR-24", "+1* airbase surprise modifier (not in Leningrad, Baku or Moscow)"),
    ("SUR-26", "bridges may be captured intact (base rule, external)"),
)


@dataclass(frozen=True)
class InvasionEffects:
    """SUR-26 The effects of an invasion surprise: the severity of the country-specific effects
    (external country rules) and the cross-effects on the other surprise rules."""

    severity: Severity
    cross_effects: tuple[tuple[str, str], ...]
    country_rules: str = "external: see the country-specific rules"

    def to_json(self) -> dict[str, Any]:
        return {"severity": self.severity.value, "country_rules": self.country_rules,
                "cross_effects": [{"rule": r, "effect": e} for r, e in self.cross_effects]}


def invasion_effects(mobilization: Mobilization) -> InvasionEffects:
    """SUR-26 (47.B) Devastating effects with no mobilization, significant with partial, some
    with full; in addition to the normal surprise effects, possibly for several turns.

    >>> invasion_effects(Mobilization.PARTIAL).severity.value
    'significant'
    """
    try:
        m = Mobilization(mobilization)
    except ValueError:
        raise InputError("mobilization", f"unknown mobilization {mobilization!r} "
                         "(known: none, partial, full)") from None
    sev = {Mobilization.NONE: Severity.DEVASTATING, Mobilization.PARTIAL: Severity.SIGNIFICANT,
           Mobilization.FULL: Severity.SOME}[m]
    return InvasionEffects(sev, CROSS_EFFECTS)
