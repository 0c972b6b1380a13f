"""EF-01 and RULES.md §6 item 14: which optional rules are in play, and how they are read.

Two values configure every EuroFront rule function, always passed explicitly:

* :class:`OptionalRules` (EF-01 "Any or all are optional rules"): the frozen set of optional
  rules in play. Each rule is independently switchable; a switched-off rule makes its functions
  fall back to the base-game behaviour (no delay, normal rail, no U-boat losses, historical Air
  Power, no paratroop strategic move, no Airpower Disruption, player-turn play).
* :class:`EuroFrontReadings`: one field per ambiguity switch RULES.md names for the EF rows,
  with the documented default.

>>> OptionalRules.all().on(OptionalRule.DELAYED_REBUILD)
True
>>> OptionalRules.none().with_rule(OptionalRule.SURPRISE_RAIL).on(OptionalRule.SURPRISE_RAIL)
True
>>> EuroFrontReadings().ef_initiative_bonus
<InitiativeBonus.STRENGTH: 'strength'>
>>> EuroFrontReadings.from_mapping({"ef_norway_france_mode": "either"}).ef_norway_france_mode
<NorwayFranceMode.EITHER: 'either'>
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.readings import Readings


class OptionalRule(StrEnum):
    """EF-01: the independently optional rules of the EuroFront text."""

    DELAYED_REBUILD = "delayed_rebuild"  # EF-02
    SURPRISE_RAIL = "surprise_rail"  # EF-03
    ENHANCED_UBOATS = "enhanced_uboats"  # EF-04..EF-07
    FRONT_AIR_POWER = "front_air_power"  # EF-08
    PARATROOP_MOVE = "paratroop_move"  # EF-09
    ORPHAN_RULE = "ef_orphan_rule"  # EF-10: reserved hook, rule text missing
    AIRPOWER_DISRUPTION = "airpower_disruption"  # EF-11..EF-16
    SEQUENTIAL_ACTIVATION = "sequential_activation"  # EF-17, EF-18


#: Which EF rows each optional rule covers (for docs and error messages).
RULE_IDS: dict[OptionalRule, tuple[str, ...]] = {
    OptionalRule.DELAYED_REBUILD: ("EF-02",),
    OptionalRule.SURPRISE_RAIL: ("EF-03",),
    OptionalRule.ENHANCED_UBOATS: ("EF-04", "EF-05", "EF-06", "EF-07"),
    OptionalRule.FRONT_AIR_POWER: ("EF-08",),
    OptionalRule.PARATROOP_MOVE: ("EF-09",),
    OptionalRule.ORPHAN_RULE: ("EF-10",),
    OptionalRule.AIRPOWER_DISRUPTION: ("EF-11", "EF-12", "EF-13", "EF-14", "EF-15", "EF-16"),
    OptionalRule.SEQUENTIAL_ACTIVATION: ("EF-17", "EF-18"),
}

IMPLEMENTABLE = frozenset(OptionalRule) - {OptionalRule.ORPHAN_RULE}


@dataclass(frozen=True)
class OptionalRules:
    """EF-01 Optional-rule toggles: the frozen set of EuroFront optional rules in play.

    The EF-10 hook (``ef_orphan_rule``) is reserved: its rule text is missing, so switching it
    on is refused.

    >>> OptionalRules.from_names(["ef_orphan_rule"])
    Traceback (most recent call last):
    ...
    grognard.core.errors.IllegalOrder: EF-10: the rule's text is missing from the source; the ef_orphan_rule hook is reserved and cannot be switched on
    """

    enabled: frozenset[OptionalRule] = IMPLEMENTABLE

    def __post_init__(self) -> None:
        if OptionalRule.ORPHAN_RULE in self.enabled:
            raise IllegalOrder(
                "EF-10",
                "the rule's text is missing from the source; the ef_orphan_rule hook is "
                "reserved and cannot be switched on",
            )

    @classmethod
    def all(cls) -> OptionalRules:
        """Every implementable optional rule in play (the default)."""
        return cls(IMPLEMENTABLE)

    @classmethod
    def none(cls) -> OptionalRules:
        """The base game: no optional rule in play."""
        return cls(frozenset())

    @classmethod
    def from_names(cls, names: Iterable[str], field: str = "rules") -> OptionalRules:
        """Build from rule names (``"delayed_rebuild"`` ...), naming the bad entry."""
        out = set()
        for i, name in enumerate(names):
            try:
                out.add(OptionalRule(name))
            except ValueError:
                known = ", ".join(r.value for r in OptionalRule)
                raise InputError(f"{field}[{i}]", f"unknown optional rule {name!r} "
                                 f"(known: {known})") from None
        return cls(frozenset(out))

    def on(self, rule: OptionalRule) -> bool:
        return rule in self.enabled

    def with_rule(self, rule: OptionalRule) -> OptionalRules:
        return OptionalRules(self.enabled | {rule})

    def without(self, rule: OptionalRule) -> OptionalRules:
        return OptionalRules(self.enabled - {rule})

    def names(self) -> list[str]:
        return sorted(r.value for r in self.enabled)


class UboatRollFrequency(StrEnum):
    """EF-04: do the Allied loss rolls happen once per season or every turn of the season?"""

    SEASON = "season"
    TURN = "turn"


class NorwayFranceMode(StrEnum):
    """EF-05 item 2: "If either Norway and France": both needed, or either one."""

    BOTH = "both"
    EITHER = "either"


class UboatDrmTarget(StrEnum):
    """EF-05: which roll the U-boat -1 modifiers apply to."""

    TRIGGER = "trigger"
    LOSS_ROLL = "loss_roll"


class ParaCost(StrEnum):
    """EF-09: one Strategic Move per paratroop strength point, or one per move."""

    PER_STEP = "per_step"
    FLAT = "flat"


class InitiativeBonus(StrEnum):
    """EF-18: "+3 x chit strength" read as +strength or as +strength x strength."""

    STRENGTH = "strength"
    STRENGTH_SQUARED = "strength_squared"


class SurpriseExemption(StrEnum):
    """EF-17 "Disruption due to Surprise is cancelled when the penalised side becomes the 1st
    Player (never in the first Activation Phase)": which phase is exempt.

    WAR (default): the war's first Activation Phase, the one of the surprise attack (the game's
    first); from then on, any phase in which the penalised side is First Player ends it.
    MONTH: the first Activation Phase of every month."""

    WAR = "war"
    MONTH = "month"


@dataclass(frozen=True)
class EuroFrontReadings(Readings):
    """Every RULES.md ambiguity switch of the EF rows, with the documented default.

    * ``ef_delay_all_blocks`` (EF-02): the delay applies to every destroyed block, not only
      Mechanised, Armour and Shock. Default False (the body of the rule).
    * ``ef_uboat_roll_frequency`` (EF-04): SEASON (default) or TURN.
    * ``ef_norway_france_mode`` (EF-05): BOTH (default) or EITHER.
    * ``ef_uboat_drm_target`` (EF-05): TRIGGER (default: the Axis trigger roll succeeds on
      1 + modifiers or less, a natural 6 always fails) or LOSS_ROLL.
    * ``ef_para_cost`` (EF-09): PER_STEP (default: 1 SM per strength point) or FLAT.
    * ``ef_apd_counter_removal`` (EF-14): an opposing Target Hex Disrupted result removes the
      owner's markers in that hex. Default True.
    * ``ef_initiative_bonus`` (EF-18): STRENGTH (default, +1/+2/+3) or STRENGTH_SQUARED.
    * ``ef_surprise_exemption`` (EF-17): the "first Activation Phase" in which surprise
      disruption is never cancelled: WAR (default, the war's first) or MONTH (each month's).
    * ``ef_orphan_rule`` (EF-10): the reserved hook for the rule whose text is missing. Must
      stay False (True raises ``IllegalOrder(EF-10)``), like ``OptionalRule.ORPHAN_RULE``.

    Ties in the initiative roll (EF-18) are always re-rolled (the only reading given).
    """

    ef_delay_all_blocks: bool = False
    ef_uboat_roll_frequency: UboatRollFrequency = UboatRollFrequency.SEASON
    ef_norway_france_mode: NorwayFranceMode = NorwayFranceMode.BOTH
    ef_uboat_drm_target: UboatDrmTarget = UboatDrmTarget.TRIGGER
    ef_para_cost: ParaCost = ParaCost.PER_STEP
    ef_apd_counter_removal: bool = True
    ef_initiative_bonus: InitiativeBonus = InitiativeBonus.STRENGTH
    ef_surprise_exemption: SurpriseExemption = SurpriseExemption.WAR
    ef_orphan_rule: bool = False

    def __post_init__(self) -> None:
        if self.ef_orphan_rule:
            raise IllegalOrder("EF-10", "the rule's text is missing from the source; the "
                               "ef_orphan_rule hook is reserved and cannot be switched on")


DEFAULT_READINGS = EuroFrontReadings()
ALL_RULES = OptionalRules.all()
