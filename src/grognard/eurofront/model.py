"""A minimal EuroFront model: just the base-game concepts the optional rules need.

EuroFront (Columbia Games) is a block game. Its base rules are not part of grognard and are not
copied here; this module models only what the optional rules (EF-01..EF-18) refer to:

* sides (:class:`Side`) and fronts/theatres (:class:`Front`: East, West, Med);
* Air Power levels (:class:`AirPower`, SF < DF < TF < QF, ranked 1..4);
* blocks (:class:`Block`) with a type (:class:`BlockType`), step strength, face-down status,
  and for HQs a class (:class:`HQClass`) and 1..3 strength points;
* the calendar: monthly turns (:class:`Turn`), grouped into two seasons a year
  (:class:`Season`: Summer and Winter);
* the map: hex control, each hex's front, and supply per side (:class:`Board`);
* :class:`BaseRules`: the parameters of EXTERNAL base rules the optional rules lean on
  (season boundaries, HQ air ranges, the Allied Atlantic shipping-loss procedure,
  Desert Acclimatisation costs). They are generic, documented stand-ins, all configurable.

>>> Turn(1941, 6).season(), Turn(1941, 10).season(), Turn(1942, 2).season()
(<Season.SUMMER: 'summer'>, <Season.WINTER: 'winter'>, <Season.WINTER: 'winter'>)
>>> Turn(1941, 10).season_index() == Turn(1942, 3).season_index()
True
>>> AirPower.DF.rank, AirPower.SF.raised(5)
(2, <AirPower.QF: 'QF'>)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from grognard.core.errors import InputError
from grognard.core.hexgrid import Hex, neighbors
from grognard.core.readings import Readings


class Side(StrEnum):
    AXIS = "axis"
    ALLIES = "allies"

    @property
    def opponent(self) -> Side:
        return Side.ALLIES if self is Side.AXIS else Side.AXIS


class Front(StrEnum):
    """The three fronts (theatres) of EuroFront."""

    EAST = "east"
    WEST = "west"
    MED = "med"


class AirPower(StrEnum):
    """Front Air Power levels (EXTERNAL names inferred from the text): single to quad fire."""

    SF = "SF"
    DF = "DF"
    TF = "TF"
    QF = "QF"

    @property
    def rank(self) -> int:
        """SF=1, DF=2, TF=3, QF=4 (the Airpower Disruption difference uses these)."""
        return _RANK[self]

    @classmethod
    def of_rank(cls, rank: int) -> AirPower:
        """The level of ``rank``, clamped to SF..QF."""
        return _LEVELS[min(max(rank, 1), 4) - 1]

    def raised(self, levels: int = 1) -> AirPower:
        return AirPower.of_rank(self.rank + levels)


_LEVELS = (AirPower.SF, AirPower.DF, AirPower.TF, AirPower.QF)
_RANK = {lvl: i + 1 for i, lvl in enumerate(_LEVELS)}


class BlockType(StrEnum):
    INFANTRY = "infantry"
    MECHANISED = "mechanised"
    ARMOUR = "armour"
    SHOCK = "shock"
    PARATROOP = "paratroop"
    CAVALRY = "cavalry"
    HQ = "hq"


class HQClass(StrEnum):
    """HQ classes named by the optional rules (EF-11 Battle/Theatre/Supreme, EF-18 Tactical)."""

    BATTLE = "battle"
    TACTICAL = "tactical"
    THEATRE = "theatre"
    SUPREME = "supreme"


class Season(StrEnum):
    """EuroFront's two seasons (EF-04 "At the start of any season (Winter/Summer)")."""

    SUMMER = "summer"
    WINTER = "winter"


@dataclass(frozen=True)
class BaseRules(Readings):
    """Parameters of EXTERNAL EuroFront base rules, as generic configurable stand-ins.

    * ``summer_first_month``: Summer is the six months from this month (default April, so
      Summer = Apr..Sep, Winter = Oct..Mar).
    * ``shipping_lot_pp`` / ``shipping_loss_max_roll``: the Allied Atlantic Shipping Losses
      procedure (EXTERNAL). Generic mechanism: one 1D6 per lot of ``shipping_lot_pp`` PP not
      resident in the UK; the lot is lost on a modified roll of ``shipping_loss_max_roll`` or
      less (default 1).
    * ``air_range_battle`` .. ``air_range_supreme``: HQ air ranges in hexes for Airpower
      Disruption targeting (EXTERNAL; Supreme HQs "have a greater air range").
    * ``desert_move_cost``: extra Strategic Moves for a paratroop strategic move into the Med
      Front while Desert Acclimatisation / Maintenance is in effect (EXTERNAL; default 1).
    """

    summer_first_month: int = 4
    shipping_lot_pp: int = 5
    shipping_loss_max_roll: int = 1
    air_range_battle: int = 3
    air_range_tactical: int = 3
    air_range_theatre: int = 4
    air_range_supreme: int = 6
    desert_move_cost: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.summer_first_month <= 12:
            raise InputError("base.summer_first_month", "must be a month 1..12")
        if self.shipping_lot_pp < 1:
            raise InputError("base.shipping_lot_pp", "must be at least 1")
        if not 0 <= self.shipping_loss_max_roll <= 6:
            raise InputError("base.shipping_loss_max_roll", "must be 0..6")
        for f in ("air_range_battle", "air_range_tactical", "air_range_theatre",
                  "air_range_supreme", "desert_move_cost"):
            if getattr(self, f) < 0:
                raise InputError(f"base.{f}", "must not be negative")

    def air_range(self, hq_class: HQClass) -> int:
        return int(getattr(self, f"air_range_{hq_class.value}"))


DEFAULT_BASE = BaseRules()


@dataclass(frozen=True, order=True)
class Turn:
    """One monthly turn."""

    year: int
    month: int

    def __post_init__(self) -> None:
        if isinstance(self.year, bool) or not isinstance(self.year, int):
            raise InputError("turn.year", f"must be an integer, not {self.year!r}")
        if isinstance(self.month, bool) or not isinstance(self.month, int) \
                or not 1 <= self.month <= 12:
            raise InputError("turn.month", f"must be a month 1..12, not {self.month!r}")

    @classmethod
    def parse(cls, text: str, field: str = "turn") -> Turn:
        """``"1941-06"`` -> ``Turn(1941, 6)``."""
        try:
            y, m = str(text).split("-")
            return cls(int(y), int(m))
        except (ValueError, InputError):
            raise InputError(field, f"expected YYYY-MM, not {text!r}") from None

    @property
    def ordinal(self) -> int:
        return self.year * 12 + self.month - 1

    @classmethod
    def of_ordinal(cls, n: int) -> Turn:
        return cls(n // 12, n % 12 + 1)

    def next(self, n: int = 1) -> Turn:
        return Turn.of_ordinal(self.ordinal + n)

    def season_index(self, base: BaseRules = DEFAULT_BASE) -> int:
        """Consecutive number of the season holding this turn (even = Summer)."""
        return (self.ordinal - (base.summer_first_month - 1)) // 6

    def season(self, base: BaseRules = DEFAULT_BASE) -> Season:
        return Season.SUMMER if self.season_index(base) % 2 == 0 else Season.WINTER

    def starts_season(self, base: BaseRules = DEFAULT_BASE) -> bool:
        return self.season_index(base) != self.next(-1).season_index(base)

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"


@dataclass(frozen=True)
class Block:
    """A block: type, current and maximum step strength, HQ class, position, face-down flag."""

    id: str
    side: Side
    type: BlockType
    strength: int = 1
    max_strength: int = 4
    hq_class: HQClass | None = None
    at: Hex | None = None
    face_down: bool = False

    def __post_init__(self) -> None:
        if not self.id:
            raise InputError("block.id", "a block needs an id")
        if not 0 <= self.strength <= self.max_strength:
            raise InputError(f"block {self.id}.strength",
                             f"must be 0..{self.max_strength}, not {self.strength}")
        if (self.type is BlockType.HQ) != (self.hq_class is not None):
            raise InputError(f"block {self.id}.hq_class", "HQ blocks (and only they) have a class")
        if self.type is BlockType.HQ and not 1 <= self.max_strength <= 3:
            raise InputError(f"block {self.id}.max_strength", "an HQ has 1..3 strength points")


@dataclass(frozen=True)
class Board:
    """Hex control, each hex's front, and the hexes in supply for each side.

    Hexes not listed in ``front`` are off the modelled map.
    """

    control: Mapping[Hex, Side] = field(default_factory=dict)
    front: Mapping[Hex, Front] = field(default_factory=dict)
    supplied: Mapping[Side, frozenset[Hex]] = field(default_factory=dict)

    def controller(self, h: Hex) -> Side | None:
        return self.control.get(h)

    def front_of(self, h: Hex) -> Front:
        try:
            return self.front[h]
        except KeyError:
            raise InputError("hex", f"{tuple(h)} is not on the map") from None

    def on_map(self, h: Hex) -> bool:
        return h in self.front

    def in_supply(self, side: Side, h: Hex) -> bool:
        return h in self.supplied.get(side, frozenset())

    def neighbours_on_map(self, h: Hex) -> list[Hex]:
        return [n for n in neighbors(h) if n in self.front]


def parse_int(raw: Mapping[str, Any], key: str, where: str, default: int | None = None,
              minimum: int | None = 0) -> int:
    """An integer field of a JSON object, naming ``where.key`` on error."""
    if key not in raw:
        if default is None:
            raise InputError(f"{where}.{key}", "missing")
        return default
    v = raw[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise InputError(f"{where}.{key}", f"must be an integer, not {v!r}")
    if minimum is not None and v < minimum:
        raise InputError(f"{where}.{key}", f"must be at least {minimum}, not {v}")
    return v


def parse_bool(raw: Mapping[str, Any], key: str, where: str, default: bool = False) -> bool:
    v = raw.get(key, default)
    if not isinstance(v, bool):
        raise InputError(f"{where}.{key}", f"must be true or false, not {v!r}")
    return v
