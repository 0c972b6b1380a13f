"""Europa rule 47 on a map: the map layer's front line and ZOCs feed the rule functions.

The mechanism is the map layer's (``core/zoc``: ZOC fields; ``core/front``: the ordered front
line and the centre-hex facts; ``core/supply``: supply tracing); the rule arithmetic is
:mod:`grognard.europa.surprise.front` (which facts make a valid centre, how far a level-``L``
front reaches, who must take part) and :mod:`grognard.europa.surprise.effects` (the bonus
supply-judgement phase). This module is the only place the two meet:

* SUR-07 :func:`centre_hex_on_map` / :func:`valid_centre_on_map` / :func:`verify_centre_on_map`;
* SUR-12 :func:`marked_front` (counted along ``core.front.front_line``);
* SUR-13 :func:`hexes_from_front`, :func:`units_near_front`, :func:`participation_candidates`;
* SUR-21 :func:`bonus_supply_rejudgement` (``core.supply.trace_supply`` for the units to judge).

>>> from grognard.core.mapgen import map_from_rows
>>> from grognard.core.paths import Forces
>>> m = map_from_rows(["cccccc"] * 6)
>>> f = Forces.build(m, ["0103", "0401", "0402", "0403", "0404", "0405", "0406"],
...                  ["axis"] + ["allies"] * 6)
>>> marked_front(m, f, "axis", "0304", 2).hexes
('0303', '0304', '0305')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import Exact
from grognard.core.front import FrontLine, centre_facts, front_line
from grognard.core.mapdata import MapData
from grognard.core.paths import Forces, HexRef, hex_indices
from grognard.core.supply import SupplyRules, europa_revised_supply, trace_supply
from grognard.core.zoc import ZocField, ZocRules, europa_revised_zoc, zoc_field
from grognard.europa.surprise.effects import BonusSupplyJudgement, bonus_supply_judgement
from grognard.europa.surprise.front import (
    Candidate,
    CentreHex,
    SurpriseFront,
    centre_hex_problems,
    surprise_front,
)
from grognard.europa.surprise.general import DEFAULT_READINGS, SurpriseReadings

#: SUR-13 Units within this many hexes of the front lines must be counted.
MANDATORY_HEXES = 5
#: SUR-13 Ground and air units up to this many hexes away may be counted.
OPTIONAL_HEXES = 20


@dataclass(frozen=True, eq=False)
class FrontFields:
    """The map facts rule 47 needs for ``side``: the enemy front line it faces, the enemy's ZOC
    as the side sees it, and the side's own ZOC as the enemy sees it."""

    map: MapData
    forces: Forces
    side: str
    front: FrontLine
    enemy_zoc: ZocField
    own_zoc: ZocField


def front_fields(m: MapData, forces: Forces, side: str,
                 rules: ZocRules | None = None) -> FrontFields:
    """C-FRONT (SUR-07, SUR-12) Build the ZOC fields and the ordered front line for ``side``
    (Europa revised ZOCs unless ``rules`` says otherwise)."""
    zr = rules if rules is not None else europa_revised_zoc()
    code = forces.side_code(side)
    others = [s for i, s in enumerate(forces.side_names) if i != code]
    if not others:
        raise InputError("side", f"{side!r} has no enemy on the map")
    enemy_zoc = zoc_field(m, forces, side, zr)
    own_zoc = zoc_field(m, forces, others[0], zr)
    return FrontFields(m, forces, side, front_line(m, enemy_zoc), enemy_zoc, own_zoc)


def _fields(m: MapData, forces: Forces, side: str, rules: ZocRules | None,
            fields: FrontFields | None) -> FrontFields:
    return fields if fields is not None else front_fields(m, forces, side, rules)


def centre_hex_on_map(m: MapData, forces: Forces, side: str, centre: HexRef,
                      rules: ZocRules | None = None, *, max_gap: int = 12,
                      fields: FrontFields | None = None) -> CentreHex:
    """SUR-07 (47.A.2.c) The centre-hex facts of ``centre`` from the map (``core.front``)."""
    ff = _fields(m, forces, side, rules, fields)
    facts = centre_facts(ff.front, centre, ff.enemy_zoc, ff.own_zoc, max_gap)
    return CentreHex(**asdict(facts))


def valid_centre_on_map(m: MapData, forces: Forces, side: str, centre: HexRef,
                        rules: ZocRules | None = None, *, max_gap: int = 12,
                        fields: FrontFields | None = None) -> bool:
    """SUR-07 (47.A.2.c) Whether ``centre`` may be the centre hex of ``side``'s surprise: in an
    enemy or friendly ZOC and not behind the enemy front line; an all-sea hex on a straight line
    between two front-line hexes (gaps bridged, the SUR-07 reading)."""
    return not centre_hex_problems(centre_hex_on_map(m, forces, side, centre, rules,
                                                     max_gap=max_gap, fields=fields))


def verify_centre_on_map(m: MapData, forces: Forces, side: str, centre: HexRef,
                         rules: ZocRules | None = None, *, max_gap: int = 12,
                         fields: FrontFields | None = None) -> CentreHex:
    """SUR-07 Raise :class:`IllegalOrder` naming every problem of ``centre``; return its facts."""
    ch = centre_hex_on_map(m, forces, side, centre, rules, max_gap=max_gap, fields=fields)
    problems = centre_hex_problems(ch)
    if problems:
        raise IllegalOrder("SUR-07", "; ".join(problems))
    return ch


def marked_front(m: MapData, forces: Forces, side: str, centre: HexRef, level: int,
                 readings: SurpriseReadings = DEFAULT_READINGS, rules: ZocRules | None = None,
                 *, fields: FrontFields | None = None) -> SurpriseFront:
    """SUR-12 (47.A.2.h) The surprise front marked on the map: ``level - 1`` hexes each side of
    the centre, counted along the enemy front line (``core.front.front_line``, curves counted,
    gaps bridged). A centre off the line counts from its nearest line hex."""
    ff = _fields(m, forces, side, rules, fields)
    line = ff.front.labels()
    if not line:
        raise IllegalOrder("SUR-12", f"{side} faces no enemy front line")
    return surprise_front(line[ff.front.position(centre)], level, line, readings)


def hexes_from_front(m: MapData, front_hexes: Sequence[HexRef]) -> npt.NDArray[np.int64]:
    """SUR-13 Per map hex: the distance in hexes to the nearest hex of ``front_hexes``."""
    idx = hex_indices(m, front_hexes, "front_hexes")
    if len(idx) == 0:
        raise InputError("front_hexes", "a front has at least one hex")
    q, r = m.q.astype(np.int64), m.r.astype(np.int64)
    dq = q[:, None] - q[idx][None, :]
    dr = r[:, None] - r[idx][None, :]
    d = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    return np.asarray(d.min(axis=1), dtype=np.int64)


def units_near_front(m: MapData, forces: Forces, side: str | None, front: SurpriseFront,
                     within: int = OPTIONAL_HEXES) -> dict[str, int]:
    """SUR-13 Units (of ``side``, or of every side when ``None``) within ``within`` hexes of the
    marked surprise front, with their distance, in unit order."""
    if isinstance(within, bool) or not isinstance(within, int) or within < 0:
        raise InputError("within", f"a whole number of hexes >= 0, not {within!r}")
    d = hexes_from_front(m, [str(h) for h in front.hexes])[forces.hex]
    mask = np.ones(len(forces), dtype=bool) if side is None else forces.of_side(side)
    return {forces.ids[i]: int(d[i]) for i in np.nonzero(mask & (d <= within))[0].tolist()}


def participation_candidates(m: MapData, forces: Forces, side: str, front: SurpriseFront,
                             re_sizes: Mapping[str, Exact],
                             loaded_on_naval: Sequence[str] = ()) -> tuple[Candidate, ...]:
    """SUR-13 (47.A.2.h) The side's ground/air units within 20 hexes of the marked front as
    :class:`Candidate` s (distance measured on the map; ``re_sizes`` per unit id, SUR-02) for
    :func:`~grognard.europa.surprise.front.select_participants`: those within 5 hexes are
    mandatory, 6-20 optional. Units missing from ``re_sizes`` (not ground/air) are skipped."""
    ids = set(forces.ids)
    for uid in list(re_sizes) + list(loaded_on_naval):
        if uid not in ids:
            raise InputError("re_sizes", f"unit {uid!r} is not on the map")
    near = units_near_front(m, forces, side, front, OPTIONAL_HEXES)
    loaded = set(loaded_on_naval)
    return tuple(Candidate(uid, re_sizes[uid], hexes_from_front=d,
                           loaded_on_participating_naval=uid in loaded)
                 for uid, d in near.items() if uid in re_sizes)


@dataclass(frozen=True)
class BonusSupplyRejudgement:
    """SUR-21 The bonus supply phase on the map: who is judged, and the outcome per unit."""

    judgement: BonusSupplyJudgement
    in_supply: Mapping[str, bool]
    paths: Mapping[str, tuple[str, ...]]

    def to_json(self) -> dict[str, Any]:
        return {"hqs_moved": list(self.judgement.hqs_recompute_range),
                "units_to_judge": list(self.judgement.units_to_judge),
                "in_supply": dict(self.in_supply),
                "out_of_supply": [u for u, ok in self.in_supply.items() if not ok],
                "paths": {u: list(p) for u, p in self.paths.items()}}


def bonus_supply_rejudgement(m: MapData, forces: Forces, front: SurpriseFront,
                             hqs_moved: Sequence[str],
                             sources: Mapping[str, Sequence[HexRef]], *,
                             max_length: int | None,
                             supply_rules: SupplyRules | None = None,
                             zoc_rules: ZocRules | None = None,
                             depth: int = 1) -> BonusSupplyRejudgement:
    """SUR-21 (47.A.5.p) After the bonus phases every moved HQ recalculates its supply range,
    then supply is judged for all units of either side within the surprise front.

    Reading: "within the surprise front" = within ``depth`` hexes of a marked front hex (the
    front hexes and both sides' adjacent units); a moved HQ's new hex becomes a supply source
    of its side. Each side's units are traced with ``core.supply.trace_supply`` against that
    side's ``sources`` plus its moved HQs (lines of at most ``max_length``)."""
    for h in hqs_moved:
        if h not in forces.ids:
            raise InputError("hqs_moved", f"unit {h!r} is not on the map")
    near = units_near_front(m, forces, None, front, depth)
    judged = bonus_supply_judgement(hqs_moved, [u for u in forces.ids if u in near])
    zr = zoc_rules if zoc_rules is not None else europa_revised_zoc()
    sr = supply_rules if supply_rules is not None else europa_revised_supply()
    pos = {uid: i for i, uid in enumerate(forces.ids)}
    in_supply: dict[str, bool] = {}
    paths: dict[str, tuple[str, ...]] = {}
    for code, side in enumerate(forces.side_names):
        units = [u for u in judged.units_to_judge if int(forces.side[pos[u]]) == code]
        if not units:
            continue
        hq_hexes = [int(forces.hex[pos[h]]) for h in judged.hqs_recompute_range
                    if int(forces.side[pos[h]]) == code]
        src = list(hex_indices(m, list(sources.get(side, ())), f"sources[{side}]")) + hq_hexes
        trace = trace_supply(m, [int(forces.hex[pos[u]]) for u in units],
                             zoc_field(m, forces, side, zr), src, max_length=max_length,
                             rules=sr, ids=units)
        for i, uid in enumerate(units):
            in_supply[uid] = bool(trace.in_supply[i])
            paths[uid] = tuple(trace.path(i)) if trace.in_supply[i] else ()
    ordered = {u: in_supply[u] for u in judged.units_to_judge}
    return BonusSupplyRejudgement(judged, ordered, {u: paths[u] for u in ordered})


__all__ = [
    "MANDATORY_HEXES", "OPTIONAL_HEXES", "BonusSupplyRejudgement", "FrontFields",
    "bonus_supply_rejudgement", "centre_hex_on_map", "front_fields", "hexes_from_front",
    "marked_front", "participation_candidates", "units_near_front", "valid_centre_on_map",
    "verify_centre_on_map",
]
