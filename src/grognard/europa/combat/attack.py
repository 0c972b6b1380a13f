"""Europa revised: the attack model (EUR-09 inputs) and the combat readings.

An :class:`Attack` is everything a Europa revised combat needs: the attacking and defending
units (:class:`Combatant`), the target hex terrain and features, the hexsides crossed, the
weather and the air-phase bombardment result. :func:`attack_from_json` reads the ATTACK.json
format documented in ``docs/formats/europa_combat.md``; every bad field raises
:class:`~grognard.core.errors.InputError` naming it.

>>> a = attack_from_json({
...     "attackers": [{"id": "pz", "attack": 9, "defense": 10, "type": "armor",
...                    "armor": "full", "division": True}],
...     "defenders": [{"id": "rifle", "attack": 4, "defense": 6}],
...     "terrain": "clear"})
>>> a.attackers[0].is_armor_capable, a.defenders[0].re_size
(True, Fraction(1, 1))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, TypeVar

from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.core.readings import Readings
from grognard.core.tables import Table, TableSet, load_tables
from grognard.core.units import MECHANIZED_TYPES, ArmorClass, SupplyState, UnitType

T = TypeVar("T")

TERRAIN_TABLE = "europa_terrain_effects"
HEXSIDE_TABLE = "europa_hexside_effects"
CRT_TABLE = "europa_revised_crt"
BOMBARDMENT_TABLE = "europa_revised_bombardment"


class Side(StrEnum):
    ATTACKER = "attacker"
    DEFENDER = "defender"


class Series(StrEnum):
    """Replacement series of the game (EUR-14): replacement points in REs or in factors."""

    RE = "re"
    FACTOR = "factor"


class Weather(StrEnum):
    CLEAR = "clear"
    FROST = "frost"
    SNOW = "snow"
    MUD = "mud"
    WINTER = "winter"


class ArmorOddsRounding(StrEnum):
    """EUR-02 ``armor_odds_rounding``: how "rounding normally" forms the armor-only odds."""

    HALF_UP = "half_up"
    DEFENDER_FAVOUR = "defender_favour"


class BelowLowest(StrEnum):
    """Odds below the lowest CRT column (``eu_shift_below_1_4``)."""

    ELIMINATE = "eliminate"
    CLAMP = "clamp"


class ExcessMixedArmor(StrEnum):
    """EUR-14 ``excess_mixed_armor_rule``: armor REs when the excess mixes armor and others."""

    ARMOR_PART = "armor_part"
    ALL_ARMOR = "all_armor"


class OosDefense(StrEnum):
    """Defense strength of a unit marked out of supply (base-game rule, EXTERNAL).

    Default ``full``: a unit is marked out of supply in its own supply phase and is isolated at
    its next one (EUR-30), so it defends in its first turn out of supply, which in the original
    rules keeps full defense strength (001: "out of supply the first turn in the original rules,
    meaning halved attack ... but full defense strength"). ``half`` is the switch."""

    HALF = "half"
    FULL = "full"


@dataclass(frozen=True)
class CombatReadings(Readings):
    """Every ambiguity switch of RULES.md rows EUR-01..EUR-16 and EUR-29, with its default."""

    armor_odds_rounding: ArmorOddsRounding = ArmorOddsRounding.HALF_UP
    below_lowest_column: BelowLowest = BelowLowest.ELIMINATE
    loss_basis_fort_multiplier: int = 2
    excess_mixed_armor_rule: ExcessMixedArmor = ExcessMixedArmor.ARMOR_PART
    oos_defense: OosDefense = OosDefense.FULL
    attacking_artillery_in_loss_basis: bool = False
    allow_surplus_units: bool = False


@dataclass(frozen=True, slots=True)
class Combatant:
    """One unit in a combat: printed strengths (cadre side when ``cadre``) and its state.

    ``cadre_attack`` / ``cadre_defense`` are the printed values of a division's cadre side;
    a division without them is a one-step unit (e.g. a FitE rifle division).
    ``hexsides`` overrides the attack's hexsides for this attacking unit.
    ``unsupported`` marks a unit lacking support under the base rules (strength halved).
    """

    id: str
    attack: int = 0
    defense: int = 0
    type: UnitType = UnitType.INFANTRY
    armor: ArmorClass = ArmorClass.NONE
    division: bool = False
    cadre: bool = False
    supply: SupplyState = SupplyState.IN
    nationality: str = ""
    re_size: Fraction = Fraction(1)
    cadre_attack: int | None = None
    cadre_defense: int | None = None
    hexsides: tuple[str, ...] | None = None
    unsupported: bool = False

    def __post_init__(self) -> None:
        if not self.id:
            raise InputError("unit.id", "a unit needs an id")
        for f in ("attack", "defense", "cadre_attack", "cadre_defense"):
            v = getattr(self, f)
            if v is not None and v < 0:
                raise InputError(f"unit {self.id}.{f}", "must not be negative")
        if self.re_size < 0:
            raise InputError(f"unit {self.id}.re_size", "must not be negative")

    @property
    def is_artillery(self) -> bool:
        return self.type == UnitType.ARTILLERY

    @property
    def is_armor_capable(self) -> bool:
        """Armor-capable (EUR-02/12): full armor class, or a 50% (limited) rated unit."""
        return self.armor in (ArmorClass.FULL, ArmorClass.LIMITED)

    @property
    def is_soft(self) -> bool:
        """A "soft" (non-armored) unit (EUR-06)."""
        return not self.is_armor_capable and self.type != UnitType.ARMOR

    @property
    def is_mechanized(self) -> bool:
        """Armor and mechanized units whose AFs water barriers halve (EUR-10)."""
        return self.type in MECHANIZED_TYPES or self.is_armor_capable

    @property
    def full_division(self) -> bool:
        """A full-strength division (reducible to cadre or, if one-step, eliminated)."""
        return self.division and not self.cadre

    @property
    def has_cadre_side(self) -> bool:
        return self.division and (self.cadre_attack is not None or self.cadre_defense is not None)

    def strength(self, side: Side) -> int:
        """Printed strength for ``side``: attack factor attacking, defense factor defending."""
        return self.attack if side == Side.ATTACKER else self.defense

    def reduced(self) -> Combatant:
        """This full-strength division flipped to its cadre side."""
        if not self.full_division or not self.has_cadre_side:
            raise InputError(f"unit {self.id}", "only a full-strength division with a cadre "
                             "side can be reduced to cadre")
        return Combatant(
            id=self.id, attack=self.cadre_attack or 0, defense=self.cadre_defense or 0,
            type=self.type, armor=self.armor, division=True, cadre=True, supply=self.supply,
            nationality=self.nationality, re_size=min(self.re_size, Fraction(1)),
            hexsides=self.hexsides, unsupported=self.unsupported,
        )


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack on one hex (EUR-09 inputs). ``bombardment`` is the air-phase result 0/1/2."""

    attackers: tuple[Combatant, ...]
    defenders: tuple[Combatant, ...]
    terrain: str = "clear"
    hexsides: tuple[str, ...] = ()
    weather: Weather = Weather.CLEAR
    fortified: bool = False
    major_city: bool = False
    bombardment: int = 0
    series: Series = Series.RE
    res_in_hex: Fraction | None = None
    night: bool = False
    barrage_target: str | None = None
    overrun: bool = False
    readings: CombatReadings = field(default_factory=CombatReadings)

    def __post_init__(self) -> None:
        if not self.attackers:
            raise InputError("attackers", "an attack needs at least one attacking unit")
        if not self.defenders:
            raise InputError("defenders", "an attack needs at least one defending unit")
        if self.bombardment not in (0, 1, 2):
            raise InputError("bombardment", f"must be 0, 1 or 2, not {self.bombardment!r}")
        if self.overrun and self.bombardment:
            raise IllegalOrder("EUR-18", "an overrun may not use air support: no air-phase "
                               "bombardment result applies to it")
        ids = [u.id for u in (*self.attackers, *self.defenders)]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise InputError("units", f"duplicate unit id {dup[0]!r}")
        if self.res_in_hex is not None and self.res_in_hex < 0:
            raise InputError("res_in_hex", "must not be negative")

    @property
    def hex_re(self) -> Fraction:
        """REs in the target hex (EUR-04): given, or the defenders' RE sizes summed."""
        if self.res_in_hex is not None:
            return self.res_in_hex
        return sum((u.re_size for u in self.defenders), Fraction(0))

    def unit(self, uid: str) -> tuple[Side, Combatant]:
        for u in self.attackers:
            if u.id == uid:
                return Side.ATTACKER, u
        for u in self.defenders:
            if u.id == uid:
                return Side.DEFENDER, u
        raise InputError("units", f"unit {uid!r} is not in the attack")

    def side_units(self, side: Side) -> tuple[Combatant, ...]:
        return self.attackers if side == Side.ATTACKER else self.defenders


def validate_terrain(attack: Attack, tables: TableSet | None = None) -> None:
    """Check the terrain and hexside names against the terrain tables in force."""
    ts = tables if tables is not None else load_tables()
    terrain: Table = ts.get(TERRAIN_TABLE)
    if attack.terrain not in terrain.rows or attack.terrain in ("fortified", "major_city"):
        known = ", ".join(str(k) for k in terrain.rows if k not in ("fortified", "major_city"))
        raise InputError("terrain", f"unknown terrain {attack.terrain!r} (known: {known})")
    sides: Table = ts.get(HEXSIDE_TABLE)
    for where, names in [("hexsides", attack.hexsides)] + [
        (f"unit {u.id}.hexsides", u.hexsides or ()) for u in attack.attackers
    ]:
        for h in names:
            if h not in sides.rows:
                known = ", ".join(str(k) for k in sides.rows)
                raise InputError(where, f"unknown hexside {h!r} (known: {known})")


# --- ATTACK.json -------------------------------------------------------------------------------


def _enum(kind: type[StrEnum], raw: Any, where: str) -> Any:
    return parse_enum(kind, raw, where)


def _int(raw: Mapping[str, Any], key: str, where: str, default: int | None = 0) -> int | None:
    v = raw.get(key, default)
    if v is None and default is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise InputError(f"{where}.{key}", f"must be an integer, not {v!r}")
    if v < 0:
        raise InputError(f"{where}.{key}", f"must not be negative ({v})")
    return v


def _bool(raw: Mapping[str, Any], key: str, where: str | None) -> bool:
    v = raw.get(key, False)
    if not isinstance(v, bool):
        raise InputError(f"{where}.{key}" if where else key, f"must be true or false, not {v!r}")
    return v


def _exact(v: Any, where: str) -> Fraction:
    if isinstance(v, bool | float):
        raise InputError(where, f"must be an integer or an exact string like \"3/2\", not {v!r}")
    try:
        x = Fraction(str(v))
    except (ValueError, ZeroDivisionError):
        raise InputError(where, f"not an exact number: {v!r}") from None
    if x < 0:
        raise InputError(where, "must not be negative")
    return x


def _strings(v: Any, where: str) -> tuple[str, ...]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise InputError(where, "must be a list of strings")
    return tuple(v)


def combatant_from_json(raw: Any, where: str) -> Combatant:
    """One unit of ATTACK.json (see docs/formats/europa_combat.md)."""
    if not isinstance(raw, Mapping):
        raise InputError(where, "a unit must be an object")
    uid = raw.get("id")
    if not isinstance(uid, str) or not uid:
        raise InputError(f"{where}.id", "a unit needs a string id")
    w = f"unit {uid}"
    utype = _enum(UnitType, raw.get("type", "infantry"), f"{w}.type")
    armor = _enum(ArmorClass, raw.get("armor", "none"), f"{w}.armor")
    supply = _enum(SupplyState, raw.get("supply", "in"), f"{w}.supply")
    division = _bool(raw, "division", w)
    cadre = _bool(raw, "cadre", w)
    if cadre and not division:
        raise InputError(f"{w}.cadre", "only a division can be a cadre")
    default_re = Fraction(1) if (cadre or not division) else Fraction(3)
    re_size = _exact(raw["re_size"], f"{w}.re_size") if "re_size" in raw else default_re
    hexsides = _strings(raw["hexsides"], f"{w}.hexsides") if "hexsides" in raw else None
    return Combatant(
        id=uid,
        attack=_int(raw, "attack", w) or 0,
        defense=_int(raw, "defense", w) or 0,
        type=utype, armor=armor, division=division, cadre=cadre, supply=supply,
        nationality=str(raw.get("nationality", "")), re_size=re_size,
        cadre_attack=_int(raw, "cadre_attack", w, None),
        cadre_defense=_int(raw, "cadre_defense", w, None),
        hexsides=hexsides, unsupported=_bool(raw, "unsupported", w),
    )


def _flat_key(raw: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """A hashable key equal only for JSON objects of the same fields, values and value types
    (so 1, 1.0 and true differ), lists of scalars included; None for anything else."""
    out = []
    for k, v in raw.items():
        if isinstance(v, list):
            if not all(isinstance(x, str | int | float | bool) for x in v):
                return None
            v = tuple((type(x), x) for x in v)
        elif not isinstance(v, str | int | float | bool | None):
            return None
        out.append((k, type(v), v))
    out.sort(key=lambda kv: kv[0])
    return tuple(out)


#: the parsed units and readings of recent ATTACK.json models, keyed by :func:`_flat_key`
#: (a unit stands in many models: each order the listers check, each estimate a bot asks)
_COMBATANTS: dict[tuple[Any, ...], Combatant] = {}
_READINGS: dict[tuple[Any, ...], CombatReadings] = {}
_PARSED_KEPT = 8192


def _parsed(kept: dict[tuple[Any, ...], T], raw: Any, make: Callable[[], T]) -> T:
    """``make()``, the parse of the JSON object ``raw`` (a function of its content alone:
    :func:`combatant_from_json`, the readings), kept in ``kept`` for another object of the
    same content; a parse that raises is not kept."""
    key = _flat_key(raw) if type(raw) is dict else None
    if key is None:
        return make()
    hit = kept.get(key)
    if hit is None:
        hit = make()
        if len(kept) >= _PARSED_KEPT:
            kept.clear()
        kept[key] = hit
    return hit


def _combatant(raw: Any, where: str) -> Combatant:
    """:func:`combatant_from_json`, kept per unit content (:func:`_parsed`)."""
    return _parsed(_COMBATANTS, raw, lambda: combatant_from_json(raw, where))


_ATTACK_KEYS = {
    "attackers", "defenders", "terrain", "hexsides", "weather", "fortified", "major_city",
    "bombardment", "series", "res_in_hex", "night", "barrage_target", "overrun", "readings",
    "name", "note",
}


def attack_from_json(raw: Any, tables: TableSet | None = None) -> Attack:
    """Build an :class:`Attack` from parsed ATTACK.json, validating every field.

    >>> attack_from_json({"attackers": [], "defenders": []})
    Traceback (most recent call last):
    ...
    grognard.core.errors.InputError: attackers: an attack needs at least one attacking unit
    """
    if not isinstance(raw, Mapping):
        raise InputError("attack", "ATTACK.json must hold an object")
    unknown = sorted(set(raw) - _ATTACK_KEYS)
    if unknown:
        raise InputError(unknown[0], f"unknown field (known: {', '.join(sorted(_ATTACK_KEYS))})")
    units: dict[str, tuple[Combatant, ...]] = {}
    for key in ("attackers", "defenders"):
        lst = raw.get(key, [])
        if not isinstance(lst, Sequence) or isinstance(lst, str):
            raise InputError(key, "must be a list of units")
        units[key] = tuple(_combatant(u, f"{key}[{i}]") for i, u in enumerate(lst))
    terrain = raw.get("terrain", "clear")
    if not isinstance(terrain, str):
        raise InputError("terrain", "must be a string")
    bomb = raw.get("bombardment", 0)
    if isinstance(bomb, bool) or bomb not in (0, 1, 2):
        raise InputError("bombardment", f"must be 0, 1 or 2, not {bomb!r}")
    readings_raw = raw.get("readings", {})
    if not isinstance(readings_raw, Mapping):
        raise InputError("readings", "must be an object")
    target = raw.get("barrage_target")
    if target is not None and not isinstance(target, str):
        raise InputError("barrage_target", "must be a unit id")
    attack = Attack(
        attackers=units["attackers"],
        defenders=units["defenders"],
        terrain=terrain,
        hexsides=_strings(raw.get("hexsides", []), "hexsides"),
        weather=_enum(Weather, raw.get("weather", "clear"), "weather"),
        fortified=_bool(raw, "fortified", None),
        major_city=_bool(raw, "major_city", None),
        bombardment=bomb,
        series=_enum(Series, raw.get("series", "re"), "series"),
        res_in_hex=_exact(raw["res_in_hex"], "res_in_hex") if "res_in_hex" in raw else None,
        night=_bool(raw, "night", None),
        barrage_target=target,
        overrun=_bool(raw, "overrun", None),
        readings=_parsed(_READINGS, readings_raw,
                         lambda: CombatReadings.from_mapping(readings_raw)),
    )
    if target is not None:
        side, _ = attack.unit(target)
        if side != Side.DEFENDER:
            raise InputError("barrage_target", f"{target!r} is not a defending unit")
    validate_terrain(attack, tables)
    return attack
