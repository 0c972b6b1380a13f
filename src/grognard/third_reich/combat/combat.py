"""TR-32..TR-36 ("Changes to land combat"): the 3R land battle from odds to advance.

One battle is one pure function of its inputs and the 2D6 roll (:func:`resolve_battle`):

1. final defense of the hex (TR-33, :mod:`~grognard.third_reich.combat.hex_defense`);
2. capped air and naval support (TR-35, :mod:`~grognard.third_reich.air_naval.support`);
3. odds (attack + support) / defense, rounded down to a CRT column (``tr_odds_rounding``);
4. left shifts for swamp/mountain, all-river and amphibious attacks (TR-34);
5. the armor superiority DRM (TR-36); the modified roll clamps to 2..12;
6. the CRT result (TR-32, the reconstructed ``tr_new3r_land_crt`` unless replaced) applied:
   unit losses, one-hex retreats, one extra loss instead of an impossible retreat, advance.

The exact chance of each result (:func:`battle_odds`) is the same lookup mapped over the
2D6 distribution; Monte Carlo (:func:`sample_land_results`) is the same table vectorised.

>>> parse_crt_result("D2R")
CrtResult(code='D2R', attacker_losses=0, defender_losses=2, attacker_retreats=False, defender_retreats=True)
>>> apply_land_result(parse_crt_result("D2R"), attackers=2, defenders=4,
...                   defender_can_retreat=False).defender_losses
3
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from grognard.core.dice import Distribution, clamp_roll
from grognard.core.errors import IllegalOrder, InputError, TableError
from grognard.core.exact import Exact, exact_json, ratio_str
from grognard.core.tables import Table, TableSet, load_tables
from grognard.third_reich.air_naval.support import Support, combat_support
from grognard.third_reich.combat.hex_defense import HexDefense, hex_defense
from grognard.third_reich.turn.calendar import Weather
from grognard.third_reich.turn.combat_readings import (
    OddsRounding,
    RetreatImpossible,
    TRCombatReadings,
)
from grognard.third_reich.turn.forces import (
    AirUnit,
    Fleet,
    GroundKind,
    GroundUnit,
    Side,
    as_enum,
    enum_field,
)

DEFAULT_READINGS = TRCombatReadings()
ROLL_MIN = 2
ROLL_MAX = 12
STACKING_LIMIT = 2
BRIDGEHEAD_STACKING_LIMIT = 4


class Terrain(StrEnum):
    """3R terrain of the attacked hex, as far as combat needs it."""

    CLEAR = "clear"
    FOREST = "forest"
    SWAMP = "swamp"
    MOUNTAIN = "mountain"
    OTHER = "other"


# ---------------------------------------------------------------- TR-32 odds and columns


@functools.lru_cache(maxsize=256)
def column_ratio(label: str) -> Fraction:
    """The odds ratio of a CRT column label such as ``3-2`` (a pure function of the label:
    remembered, every odds check reads the whole table's columns).

    >>> column_ratio("3-2"), column_ratio("1-3")
    (Fraction(3, 2), Fraction(1, 3))
    """
    m = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", label)
    if not m or int(m.group(2)) == 0 or int(m.group(1)) == 0:
        raise TableError(f"column {label!r} is not an odds ratio like 3-2", column=label)
    return Fraction(int(m.group(1)), int(m.group(2)))


def _ratio_label(r: Fraction) -> str:
    return f"{r.numerator}-{r.denominator}"


def crt_table(tables: TableSet | None = None,
              readings: TRCombatReadings = DEFAULT_READINGS) -> Table:
    """The land CRT in force (shipped reconstruction unless a ``--tables`` file replaces it)."""
    ts = tables if tables is not None else load_tables()
    return ts.get(readings.tr_crt_table)


def _ladder(table: Table, upto: Fraction) -> list[Fraction]:
    """The table's column ratios, extended past the top with 7-1, 8-1, ... up to ``upto``."""
    ratios = [column_ratio(c) for c in table.columns]
    if ratios != sorted(ratios) or len(set(ratios)) != len(ratios):
        raise TableError("columns must rise strictly in odds", table=table.id, file=table.file)
    top = ratios[-1]
    n = math.floor(top) + 1
    while n <= math.ceil(upto) + 1:
        if n > top:
            ratios.append(Fraction(n))
        n += 1
    return ratios


@dataclass(frozen=True, slots=True)
class OddsColumn:
    """TR-32/TR-34: the raw odds column, the shifts applied, and the final column."""

    odds: Fraction
    raw_column: str
    shifts: int
    column: str


def odds_column(
    attack: Exact,
    defense: int,
    shifts: int = 0,
    table: Table | None = None,
    readings: TRCombatReadings = DEFAULT_READINGS,
) -> OddsColumn:
    """TR-32/TR-34 Odds (attack / defense) to a CRT column, then left shifts, then the top cap.

    Raw odds below ``tr_min_declared_odds`` (1-2) may not be declared; shifts are applied on
    the ladder that continues past 6-1 (7-1, 8-1, ...) before odds above the top column use
    the top column; shifts past the lowest column stay there.

    >>> odds_column(20, 7).column, odds_column(20, 7, shifts=1).column
    ('2-1', '3-2')
    >>> odds_column(50, 6, shifts=1).column
    '6-1'
    """
    t = table if table is not None else crt_table(readings=readings)
    if defense <= 0:
        raise InputError("defense", "the attacked hex must have a positive defense strength")
    if attack < 0:
        raise InputError("attack", "cannot be negative")
    if shifts < 0:
        raise InputError("shifts", "left shifts cannot be negative")
    odds = Fraction(attack) / defense
    ladder = _ladder(t, odds)
    minimum = column_ratio(readings.tr_min_declared_odds)
    if odds < minimum:
        raise IllegalOrder("TR-32", f"odds {ratio_str(odds)} are below the lowest declarable "
                           f"odds {readings.tr_min_declared_odds}")
    below = [i for i, r in enumerate(ladder) if r <= odds]
    if not below:
        raise IllegalOrder("TR-32", f"odds {ratio_str(odds)} are below the table's lowest column")
    raw = below[-1]
    if (readings.tr_odds_rounding is OddsRounding.NEAREST and raw + 1 < len(ladder)
            and ladder[raw + 1] - odds < odds - ladder[raw]):
        raw += 1
    applied = shifts if readings.tr_shifts_cumulative else min(shifts, 1)
    final = min(max(raw - applied, 0), len(t.columns) - 1)
    return OddsColumn(odds, _ratio_label(ladder[raw]), applied, t.columns[final])


def left_shifts(
    terrain: Terrain,
    all_river: bool = False,
    amphibious: bool = False,
    airborne_in_hex: bool = False,
    readings: TRCombatReadings = DEFAULT_READINGS,
) -> int:
    """TR-34 Column shifts: one left each for swamp/mountain, an all-river attack, an invasion.

    An air-landed unit attacking its own landing hex cancels the river and the coast/invasion
    shifts (TR-52). Shifts are cumulative unless ``tr_shifts_cumulative`` is off.

    >>> left_shifts(Terrain.MOUNTAIN, all_river=True), left_shifts(Terrain.MOUNTAIN, True,
    ...                                                          airborne_in_hex=True)
    (2, 1)
    """
    n = 1 if as_enum(Terrain, terrain, "terrain") in (Terrain.SWAMP, Terrain.MOUNTAIN) else 0
    if not airborne_in_hex:
        n += int(all_river) + int(amphibious)
    return n if readings.tr_shifts_cumulative else min(n, 1)


def armor_superiority(
    attacker_armor_factors: int,
    final_defense: int,
    defender_has_armor: bool,
    attacker_has_armor: bool,
    weather: Weather,
    terrain: Terrain,
) -> int:
    """TR-36 Armor superiority DRM: +1 attacker, -1 defender, else 0.

    Only in clear or snow weather, attacking into clear terrain (across a river or onto a
    beach included); mud never allows one.

    >>> armor_superiority(6, 6, False, True, Weather.CLEAR, Terrain.CLEAR)
    1
    >>> armor_superiority(6, 6, False, True, Weather.MUD, Terrain.CLEAR)
    0
    """
    if attacker_armor_factors < 0:
        raise InputError("attacker_armor_factors", "cannot be negative")
    w = as_enum(Weather, weather, "weather")
    if w not in (Weather.CLEAR, Weather.SNOW) or as_enum(Terrain, terrain, "terrain") is not Terrain.CLEAR:
        return 0
    if attacker_armor_factors >= final_defense and not defender_has_armor:
        return 1
    if defender_has_armor and not attacker_has_armor:
        return -1
    return 0


# ---------------------------------------------------------------- TR-32 results


@dataclass(frozen=True, slots=True)
class CrtResult:
    """One land CRT cell: unit losses of each side and one-hex retreats."""

    code: str
    attacker_losses: int
    defender_losses: int
    attacker_retreats: bool
    defender_retreats: bool


_CRT_CODE = re.compile(r"^(?:(?P<side>[AD])(?P<n>\d+)?(?P<r>R)?|X(?P<x>\d+))$")


def parse_crt_result(code: Any) -> CrtResult:
    """TR-32: read a CRT cell (A1, A2, D1, D2, X1, AR, DR, D1R, D2R, ``-``)."""
    text = str(code).strip()
    if text in ("-", "–", "0", ""):
        return CrtResult(text or "-", 0, 0, False, False)
    m = _CRT_CODE.match(text)
    if not m or (m.group("side") and not m.group("n") and not m.group("r")):
        raise TableError(f"unknown land CRT result {text!r}")
    if m.group("x"):
        n = int(m.group("x"))
        return CrtResult(text, n, n, False, False)
    n = int(m.group("n") or 0)
    retreat = bool(m.group("r"))
    if m.group("side") == "A":
        return CrtResult(text, n, 0, retreat, False)
    return CrtResult(text, 0, n, False, retreat)


def crt_result(column: str, drm: int, roll: int, table: Table | None = None) -> CrtResult:
    """TR-32: the CRT result of a natural 2D6 ``roll`` with ``drm`` (clamped to 2..12)."""
    if isinstance(roll, bool) or not isinstance(roll, int) or not ROLL_MIN <= roll <= ROLL_MAX:
        raise InputError("roll", f"a 2D6 roll is 2..12, not {roll!r}")
    t = table if table is not None else crt_table()
    return parse_crt_result(t.lookup(clamp_roll(roll, drm, ROLL_MIN, ROLL_MAX), column))


@dataclass(frozen=True, slots=True)
class Retreat:
    """A retreat demanded by the CRT and what became of it."""

    side: str  # "attacker" | "defender"
    possible: bool
    units: int  # units that retreat one hex
    extra_loss: int  # units lost instead of an impossible retreat

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "possible": self.possible, "units": self.units,
                "extra_loss": self.extra_loss}


@dataclass(frozen=True, slots=True)
class LandOutcome:
    """TR-32: a CRT result applied to the units present (counts; the loser picks which)."""

    attacker_losses: int
    defender_losses: int
    retreat: Retreat | None
    hex_emptied: bool
    advance_max: int  # surviving attackers that may advance (0 when the hex is still held)


def _retreat(side: str, survivors: int, can_retreat: bool,
             readings: TRCombatReadings) -> tuple[int, Retreat | None]:
    """Extra losses and the retreat record for ``survivors`` that must retreat one hex."""
    if survivors == 0:
        return 0, None
    if can_retreat:
        return 0, Retreat(side, True, survivors, 0)
    if readings.tr_retreat_impossible is RetreatImpossible.EXTRA_LOSS:
        return 1, Retreat(side, False, 0, 1)
    return survivors, Retreat(side, False, 0, survivors)


def apply_land_result(
    result: CrtResult,
    attackers: int,
    defenders: int,
    defender_can_retreat: bool = True,
    attacker_can_retreat: bool = True,
    stacking_limit: int = STACKING_LIMIT,
    readings: TRCombatReadings = DEFAULT_READINGS,
    defender_retreat_room: int | None = None,
) -> LandOutcome:
    """TR-32 Apply a land CRT result to ``attackers`` and ``defenders`` units.

    Losses are capped by the units present. A side that must retreat but cannot loses one
    extra unit instead and stays (the bridgehead example: 4 units, D2R, backs to the sea →
    3 lost, 1 remains); the alternative reading eliminates them. If the hex is emptied,
    surviving attackers may advance up to ``stacking_limit`` (2; 4 into a bridgehead).
    ``defender_retreat_room``: how many units the open hexes next to the defender can take
    within the stacking limit (TR-28/TR-63, None: no limit); the defender's retreat is
    impossible when more survivors must retreat than there is room for.

    >>> apply_land_result(parse_crt_result("DR"), 2, 2, defender_retreat_room=1).retreat
    Retreat(side='defender', possible=False, units=0, extra_loss=1)
    >>> apply_land_result(parse_crt_result("DR"), 2, 2, defender_retreat_room=2).retreat
    Retreat(side='defender', possible=True, units=2, extra_loss=0)
    """
    if attackers < 1:
        raise InputError("attackers", "an attack needs at least one attacking unit")
    if defenders < 0:
        raise InputError("defenders", "cannot be negative")
    if stacking_limit < 1:
        raise InputError("stacking_limit", "must be at least 1")
    a_lost = min(result.attacker_losses, attackers)
    d_lost = min(result.defender_losses, defenders)
    retreat: Retreat | None = None
    d_left = defenders - d_lost
    a_left = attackers - a_lost
    if result.defender_retreats:
        room_ok = defender_retreat_room is None or d_left <= defender_retreat_room
        extra, retreat = _retreat("defender", d_left, defender_can_retreat and room_ok,
                                  readings)
        d_lost += extra
        d_left -= extra
        if retreat is not None and retreat.possible:
            d_left = 0
    if result.attacker_retreats:
        extra, retreat = _retreat("attacker", a_left, attacker_can_retreat, readings)
        a_lost += extra
        a_left = 0 if retreat is not None and retreat.possible else a_left - extra
    emptied = d_left == 0
    advance = min(a_left, stacking_limit) if emptied else 0
    return LandOutcome(a_lost, d_lost, retreat, emptied, advance)


def verify_land_losses(units: tuple[GroundUnit, ...] | list[GroundUnit], chosen: list[str],
                       required: int, *, crt_defender: bool = False) -> None:
    """TR-32: the losing side picks exactly ``required`` of its units (all of them if fewer).

    TR-71: "Defender CRT losses in enemy offensives are never recovered by replacements": a
    defender (``crt_defender``) may not meet a CRT loss with a replacement counter while a
    unit that is not a replacement is left standing in the hex (the loss would be a unit
    recovered by a replacement in all but name).
    """
    if required < 0:
        raise InputError("required", "cannot be negative")
    ids = [u.id for u in units]
    if len(set(chosen)) != len(chosen):
        raise IllegalOrder("TR-32", "a unit is chosen twice")
    for uid in chosen:
        if uid not in ids:
            raise IllegalOrder("TR-32", f"unit {uid} is not in the combat")
    if len(chosen) != min(required, len(ids)):
        raise IllegalOrder("TR-32", f"{len(chosen)} units chosen, {min(required, len(ids))} "
                           "must be lost")
    if crt_defender:
        by_id = {u.id: u for u in units}
        reps = [uid for uid in chosen if by_id[uid].kind is GroundKind.REPLACEMENT]
        standing = [u.id for u in units if u.id not in chosen
                    and u.kind is not GroundKind.REPLACEMENT]
        if reps and standing:
            raise IllegalOrder("TR-71", f"a defender's CRT loss is not met by the replacement "
                               f"{reps[0]} while {standing[0]} stands: defender CRT losses are "
                               "never recovered by replacements")


def land_loss_choices(units: tuple[GroundUnit, ...] | list[GroundUnit], required: int, *,
                      crt_defender: bool = False) -> list[tuple[str, ...]]:
    """TR-32/TR-71: every set of units the losing side may remove (sorted ids), the choice
    the rules leave to that side; one entry when only one choice exists."""
    n = min(required, len(units))
    out = []
    for combo in itertools.combinations(sorted(u.id for u in units), n):
        try:
            verify_land_losses(units, list(combo), required, crt_defender=crt_defender)
        except IllegalOrder:
            continue
        out.append(combo)
    return out


# ---------------------------------------------------------------- a whole battle


@dataclass(frozen=True)
class Battle:
    """Everything one 3R land attack needs (BATTLE.json, docs/formats/tr_combat.md)."""

    attackers: tuple[GroundUnit, ...]
    defenders: tuple[GroundUnit, ...]
    weather: Weather = Weather.CLEAR
    terrain: Terrain = Terrain.CLEAR
    fortified: bool = False
    russian_winter: bool = False
    all_river: bool = False
    amphibious: bool = False
    airborne_in_hex: bool = False
    air: tuple[AirUnit, ...] = ()
    fleets: tuple[Fleet, ...] = ()
    defender_can_retreat: bool = True
    attacker_can_retreat: bool = True
    bridgehead: bool = False
    #: TR-32 with TR-28/TR-63 stacking: units the open hexes can take (None: no limit)
    defender_retreat_room: int | None = None

    def __post_init__(self) -> None:
        """TR-32: the attackers are one side's units and the defenders the other side's."""
        for key in ("attackers", "defenders"):
            sides = {u.side for u in getattr(self, key)}
            if len(sides) > 1:
                raise InputError(f"battle.{key}", "TR-32: the units of one battle's " + key +
                                 " are all on one side, not " + " and ".join(sorted(sides)))
        common = {u.side for u in self.attackers} & {u.side for u in self.defenders}
        if common:
            raise InputError("battle.defenders", f"TR-32: attackers and defenders are both "
                             f"{common.pop()}: a battle is fought against the other side")

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Battle:
        """Read a BATTLE.json object; errors name the field."""
        if not isinstance(raw, Mapping):
            raise InputError("battle", "expected a JSON object")
        known = {"attackers", "defenders", "weather", "terrain", "fortified", "russian_winter",
                 "all_river", "amphibious", "airborne_in_hex", "air", "fleets",
                 "defender_can_retreat", "attacker_can_retreat", "bridgehead", "comment"}
        for key in raw:
            if key not in known:
                raise InputError(f"battle.{key}", "unknown field")

        def units(key: str, make: Any) -> tuple[Any, ...]:
            items = raw.get(key, [])
            if not isinstance(items, list):
                raise InputError(f"battle.{key}", "expected a list")
            return tuple(make(u, f"battle.{key}[{i}]") for i, u in enumerate(items))

        def flag(key: str) -> bool:
            v = raw.get(key, cls.__dataclass_fields__[key].default)
            if not isinstance(v, bool):
                raise InputError(f"battle.{key}", f"expected true or false, not {v!r}")
            return v

        attackers = units("attackers", GroundUnit.from_json)
        # a defender without a "side" is on the other side from the (first) attacker
        other = Side.ALLIES if attackers and attackers[0].side is Side.AXIS else Side.AXIS

        def defender(u: Any, where: str) -> GroundUnit:
            if isinstance(u, Mapping) and "side" not in u:
                u = {**u, "side": other.value}
            return GroundUnit.from_json(u, where)

        defenders = units("defenders", defender)
        if not attackers:
            raise InputError("battle.attackers", "at least one attacking unit is needed")
        if not defenders:
            raise InputError("battle.defenders", "at least one defending unit is needed")
        return cls(
            attackers=attackers,
            defenders=defenders,
            weather=enum_field(raw, "weather", Weather, "battle", "clear"),
            terrain=enum_field(raw, "terrain", Terrain, "battle", "clear"),
            fortified=flag("fortified"),
            russian_winter=flag("russian_winter"),
            all_river=flag("all_river"),
            amphibious=flag("amphibious"),
            airborne_in_hex=flag("airborne_in_hex"),
            air=units("air", AirUnit.from_json),
            fleets=units("fleets", Fleet.from_json),
            defender_can_retreat=flag("defender_can_retreat"),
            attacker_can_retreat=flag("attacker_can_retreat"),
            bridgehead=flag("bridgehead"),
        )


@dataclass(frozen=True, slots=True)
class BattleAssessment:
    """Every modifier of a battle before the roll."""

    defense: HexDefense
    ground_attack: int
    support: Support
    odds: OddsColumn
    drm: int

    @property
    def attack(self) -> Exact:
        return self.ground_attack + self.support.used


def assess_battle(
    battle: Battle,
    tables: TableSet | None = None,
    readings: TRCombatReadings = DEFAULT_READINGS,
) -> BattleAssessment:
    """TR-32..TR-36: defense, capped support, odds column with shifts, and the armor DRM."""
    table = crt_table(tables, readings)
    defense = hex_defense(battle.defenders, battle.weather, battle.fortified,
                          battle.russian_winter, readings)
    ground = sum(u.factors for u in battle.attackers if u.kind is not GroundKind.REPLACEMENT)
    if ground <= 0:
        raise InputError("battle.attackers", "replacement units cannot attack; no attack factors")
    support = combat_support(battle.air, battle.fleets, defense.total, ground, battle.weather,
                             invasion=battle.amphibious, readings=readings)
    shifts = left_shifts(battle.terrain, battle.all_river, battle.amphibious,
                         battle.airborne_in_hex, readings)
    odds = odds_column(ground + support.used, defense.total, shifts, table, readings)
    armor = sum(u.factors for u in battle.attackers if u.is_armor)
    drm = armor_superiority(armor, defense.total, any(u.is_armor for u in battle.defenders),
                            armor > 0, battle.weather, battle.terrain)
    return BattleAssessment(defense, ground, support, odds, drm)


@dataclass(frozen=True, slots=True)
class BattleOutcome:
    """The record of one resolved battle: every modifier, the roll, the result, its effect."""

    assessment: BattleAssessment
    roll: int
    modified_roll: int
    result: CrtResult
    outcome: LandOutcome

    def to_json(self) -> dict[str, Any]:
        a = self.assessment
        return {
            "defense": a.defense.total,
            "support": exact_json(a.support.used),
            "odds": ratio_str(a.odds.odds),
            "column": a.odds.column,
            "shifts": a.odds.shifts,
            "drm": a.drm,
            "roll": self.roll,
            "result": self.result.code,
            "attacker_losses": self.outcome.attacker_losses,
            "defender_losses": self.outcome.defender_losses,
            "retreat": None if self.outcome.retreat is None else self.outcome.retreat.to_json(),
        }


def resolve_battle(
    battle: Battle,
    roll: int,
    tables: TableSet | None = None,
    readings: TRCombatReadings = DEFAULT_READINGS,
) -> BattleOutcome:
    """TR-32 (Changes to land combat) Resolve one land attack with a natural 2D6 ``roll``."""
    a = assess_battle(battle, tables, readings)
    table = crt_table(tables, readings)
    result = crt_result(a.odds.column, a.drm, roll, table)
    limit = BRIDGEHEAD_STACKING_LIMIT if battle.bridgehead else STACKING_LIMIT
    outcome = apply_land_result(result, len(battle.attackers), len(battle.defenders),
                                battle.defender_can_retreat, battle.attacker_can_retreat,
                                limit, readings, battle.defender_retreat_room)
    return BattleOutcome(a, roll, clamp_roll(roll, a.drm, ROLL_MIN, ROLL_MAX), result, outcome)


def column_odds(column: str, drm: int = 0, table: Table | None = None) -> dict[str, Fraction]:
    """TR-32: exact chance of each result code in ``column`` with ``drm`` (2D6 mapped)."""
    t = table if table is not None else crt_table()
    t.column_index(column)
    dist = Distribution.of("2d6").map(lambda r: crt_result(column, drm, r, t).code)
    return dict(sorted(dist.items(), key=lambda kv: (-kv[1], kv[0])))


def battle_odds(
    battle: Battle,
    tables: TableSet | None = None,
    readings: TRCombatReadings = DEFAULT_READINGS,
) -> tuple[BattleAssessment, dict[str, Fraction]]:
    """TR-32: the assessment and the exact chance of every CRT result of a battle."""
    a = assess_battle(battle, tables, readings)
    return a, column_odds(a.odds.column, a.drm, crt_table(tables, readings))


def sample_land_results(
    column: str, drm: int, rolls: npt.NDArray[np.integer], table: Table | None = None
) -> npt.NDArray[np.int64]:
    """TR-32 Monte Carlo: result codes (indices into ``table.codes()[1]``) of natural rolls."""
    t = table if table is not None else crt_table()
    codes, _alphabet = t.codes()
    col = t.column_index(column)
    keys = np.array([int(k) for k in t.row_keys], dtype=np.int64)
    index = np.full(ROLL_MAX + 1, -1, dtype=np.int64)
    index[keys] = np.arange(len(keys))
    arr = np.asarray(rolls, dtype=np.int64)
    if arr.size and (arr.min() < ROLL_MIN or arr.max() > ROLL_MAX):
        raise InputError("rolls", "2D6 rolls are 2..12")
    rows = index[np.clip(arr + drm, ROLL_MIN, ROLL_MAX)]
    out: npt.NDArray[np.int64] = codes[rows, col].astype(np.int64)
    return out


def expected_losses(column: str, drm: int = 0, table: Table | None = None,
                    ) -> tuple[Fraction, Fraction]:
    """TR-32: expected (attacker, defender) unit losses of a column, before capping by stack."""
    t = table if table is not None else crt_table()
    d = Distribution.of("2d6")
    att = d.expectation(lambda r: crt_result(column, drm, r, t).attacker_losses)
    dfn = d.expectation(lambda r: crt_result(column, drm, r, t).defender_losses)
    return att, dfn

