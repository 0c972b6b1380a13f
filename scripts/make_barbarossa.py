"""Generate src/grognard/data/scenarios/europa-barbarossa.toml: 22 June 1941 on the
europa-barbarossa map (16 miles a hex), an ORIGINAL and APPROXIMATE division-scale order of
battle placed along the border by rule.

The order of battle is data a user can replace: edit ORDER_OF_BATTLE below (or the generated
TOML) with your own. Strengths are generic Europa-style factors by division type (not copied
from any published counter mix); counts per army group and district are round approximations
of the historical deployment. Placement rule: each army group / military district owns a band
of border rows (north to south); its divisions fill the hexes of its band in rings from the
border (Axis: the non-Soviet hexes next to the Soviet border, then one hex further back;
Soviet: first echelon one hex behind the border, then three and five hexes in),
armor behind the infantry, one division per hex, cycling east-west.

The air forces of 22 June 1941 (issue 24 item 7) are placed the same way: AIR_ORDER_OF_BATTLE
lists each air fleet / military district's air units (the Axis in the wings of EUR-01, one
wing for a Geschwader, i.e. three of the original Gruppe-sized units, its tactical and
strategic ratings from data/tables/europa_air_wings.toml; Romanian, Finnish and Soviet units
with grognard's own ratings) and the band of rows and depth behind the border where its
airbases lie; the airbases are the hexes of that band at that depth (cities first), evenly
spread north to south, at most AIRBASE_LOAD units a base.

    uv run python scripts/make_barbarossa.py      # rewrite the scenario
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from grognard.engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "grognard" / "data" / "scenarios" / "europa-barbarossa.toml"
MAP_PROBE = "europa-barbarossa-map"

#: Division types: (unit type, attack, defense, movement, armor, zoc class, RE size).
TYPES = {
    "pz": ("armor", 9, 8, 10, "full", 2, 3),
    "mot": ("motorized", 6, 7, 10, "limited", 2, 3),
    "inf": ("infantry", 6, 7, 6, "none", 2, 3),
    "mtn": ("infantry", 5, 6, 6, "none", 2, 3),
    "ro-inf": ("infantry", 3, 4, 6, "none", 1, 3),
    "fi-inf": ("infantry", 4, 5, 6, "none", 2, 3),
    "hu-mot": ("motorized", 3, 3, 10, "limited", 1, 2),
    "rifle": ("infantry", 4, 5, 6, "none", 2, 3),
    "tank": ("armor", 6, 5, 10, "limited", 2, 3),
    "mech": ("motorized", 5, 4, 10, "limited", 2, 3),
    "cav": ("cavalry", 2, 3, 8, "none", 1, 1),
    # the mobilization of 1941 (REINFORCEMENTS): new rifle divisions raised in weeks, weaker
    # than the pre-war ones; tank brigades (1 RE); people's militia (opolcheniye) divisions
    "new-rifle": ("infantry", 3, 4, 6, "none", 2, 3),
    "tank-bde": ("armor", 2, 2, 10, "limited", 1, 1),
    "militia": ("infantry", 1, 2, 6, "none", 1, 2),
}

#: (side, formation, nationality, first row, last row, [(type, count)]) - rows of the map band
#: the formation holds, north to south. Approximate and original; replace freely.
ORDER_OF_BATTLE = (
    ("axis", "agn", "german", 18, 28, [("pz", 3), ("mot", 3), ("inf", 20)]),
    ("axis", "agc", "german", 29, 41, [("pz", 9), ("mot", 6), ("inf", 33)]),
    ("axis", "ags", "german", 42, 56, [("pz", 5), ("mot", 4), ("inf", 25), ("mtn", 3)]),
    ("axis", "hun", "hungarian", 50, 56, [("hu-mot", 3)]),
    ("axis", "rom", "romanian", 56, 70, [("ro-inf", 13), ("inf", 6)]),
    ("soviet", "nwf", "soviet", 14, 28, [("rifle", 19), ("tank", 4), ("mech", 2)]),
    ("soviet", "wf", "soviet", 29, 41, [("rifle", 24), ("tank", 8), ("mech", 4), ("cav", 2)]),
    ("soviet", "swf", "soviet", 42, 56, [("rifle", 32), ("tank", 10), ("mech", 5), ("cav", 2)]),
    ("soviet", "sf", "soviet", 56, 70, [("rifle", 13), ("tank", 3), ("mech", 2), ("cav", 3)]),
)

#: Turns of the game (half months from Jun II 1941 = turn 1).
T = {"Jun II": 1, "Jul I": 2, "Jul II": 3, "Aug I": 4, "Aug II": 5, "Sep I": 6, "Sep II": 7,
     "Oct I": 8, "Oct II": 9, "Nov I": 10, "Nov II": 11, "Dec I": 12, "Dec II": 13}

#: Entry hexes (cities of the map) of the reinforcements.
SMOLENSK_AREA = ["3928", "3429", "3326", "3431", "2925", "3421", "4526"]  # Smolensk, Orsha,
#   Vitebsk, Mogilev, Polotsk, Velikiye Luki, Vyazma
GOMEL_AREA = ["3637", "3431", "3135", "3742", "4534"]  # Gomel, Mogilev, Bobruisk, Chernigov,
#   Bryansk
KIEV_AREA = ["3446", "3742", "2947", "4050", "4343"]  # Kiev, Chernigov, Zhitomir, Cherkassy,
#   Konotop
MOSCOW = ["5422", "5529", "5128", "4918", "4526", "4521"]  # Moscow, Tula, Kaluga, Kalinin,
#   Vyazma, Rzhev
LENINGRAD = ["3306", "3611", "4107", "3210"]  # Leningrad, Novgorod, Tikhvin, Luga
KHARKOV = ["5348", "5054", "4849", "5240", "5444", "5057"]  # Kharkov, Dnepropetrovsk, Poltava,
#   Kursk, Belgorod, Zaporozhye
CRIMEA = ["4671", "4869", "5667"]  # Sevastopol, Simferopol, Kerch
REAR = ["5422", "5348", "3306", "5054"]  # the Soviet supply sources (always last: fallback)
AXIS_DEPOTS = ["0527", "0538", "0147"]

#: The 1941 reinforcements (EUR-22 initial phase; ORIGINAL and APPROXIMATE, judged from the
#: public outline of 1941): (side, turn, formation, entry hexes, [(type, count)]).
#: The second strategic echelon (16th, 19th, 20th, 21st, 22nd Armies) reaches the
#: Dvina-Dnieper line Jun II - Jul II, the 24th and 28th Armies behind it; then new rifle
#: divisions, tank brigades and militia by half month at Moscow, Leningrad, Kharkov, Kiev and
#: the interior; the Germans receive a few OKH reserve divisions. Each list ends with the
#: supply sources, so a formation whose cities are lost enters in the interior. Scaled by
#: SOVIET_SCALE (the tuning knob of docs/MAPS.md).
SOVIET_SCALE = 0.3
REINFORCEMENTS = (
    ("soviet", T["Jun II"], "22a", SMOLENSK_AREA, [("rifle", 6)]),
    ("soviet", T["Jun II"], "21a", GOMEL_AREA, [("rifle", 6)]),
    ("soviet", T["Jun II"], "20a", SMOLENSK_AREA, [("rifle", 6), ("tank", 2), ("mech", 1)]),
    ("soviet", T["Jul I"], "19a", SMOLENSK_AREA + KIEV_AREA, [("rifle", 6), ("tank", 1)]),
    ("soviet", T["Jul I"], "16a", SMOLENSK_AREA, [("rifle", 4), ("tank", 1)]),
    ("soviet", T["Jul I"], "kiev", KIEV_AREA, [("rifle", 4)]),
    ("soviet", T["Jul II"], "24a", MOSCOW, [("rifle", 6)]),
    ("soviet", T["Jul II"], "28a", GOMEL_AREA + MOSCOW, [("rifle", 5)]),
    ("soviet", T["Jul II"], "lenvo", LENINGRAD, [("militia", 3), ("new-rifle", 2)]),
    ("soviet", T["Jul II"], "kharvo", KHARKOV, [("new-rifle", 3)]),
    *(("soviet", t, f"mob{t}m", MOSCOW, [("new-rifle", 3), ("tank-bde", 1)])
      for t in range(T["Aug I"], T["Dec II"] + 1)),
    *(("soviet", t, f"mob{t}l", LENINGRAD, [("new-rifle", 1), ("militia", 1)])
      for t in range(T["Aug I"], T["Dec II"] + 1)),
    *(("soviet", t, f"mob{t}k", KHARKOV, [("new-rifle", 2)])
      for t in range(T["Aug I"], T["Dec II"] + 1)),
    *(("soviet", t, f"mob{t}kv", KIEV_AREA, [("new-rifle", 1)])
      for t in range(T["Aug I"], T["Sep II"] + 1)),
    ("soviet", T["Aug I"], "51a", CRIMEA, [("new-rifle", 2)]),
    ("soviet", T["Sep I"], "cri", CRIMEA, [("new-rifle", 2)]),
    ("soviet", T["Oct II"], "sib1", MOSCOW, [("rifle", 4), ("tank-bde", 2)]),
    ("soviet", T["Nov II"], "sib2", MOSCOW, [("rifle", 4), ("tank-bde", 2)]),
    ("axis", T["Jul II"], "okh1", AXIS_DEPOTS, [("inf", 3)]),
    ("axis", T["Aug I"], "okh2", AXIS_DEPOTS, [("inf", 3)]),
    ("axis", T["Aug II"], "okh3", AXIS_DEPOTS, [("inf", 2), ("pz", 1)]),
    ("axis", T["Sep II"], "okh4", AXIS_DEPOTS, [("inf", 2)]),
    ("axis", T["Oct II"], "okh5", AXIS_DEPOTS, [("inf", 2)]),
)

#: Air unit kinds: (type F/D/A/other, range in hexes, air-to-air rating, EUR-01 wing or "",
#: tactical, strategic). A wing's tactical/strategic come from europa_air_wings (the numbers
#: here are then unused); ranges and air-to-air ratings are grognard's own (MISSING in the
#: texts: "wings keep the range and air-combat values of the original type").
AIR_TYPES = {
    "Bf-109F": ("F", 8, 4, "Bf-109F", 0, 0),
    "Bf-109E": ("F", 7, 3, "Bf-109E", 0, 0),
    "Me-110": ("A", 10, 2, "Me-110", 0, 0),
    "Ju-87B": ("D", 10, 1, "Ju-87B", 0, 0),
    "Ju-88": ("other", 16, 1, "Ju-88", 0, 0),
    "He-111": ("other", 14, 1, "He-111", 0, 0),
    "Do-17": ("other", 12, 1, "Do-17", 0, 0),
    "ro-fighter": ("F", 6, 2, "", 1, 0),       # IAR-80, He-112, Hurricane
    "ro-bomber": ("other", 10, 0, "", 4, 2),    # PZL-37, SM.79
    "fi-fighter": ("F", 6, 3, "", 1, 0),        # Brewster, Fiat G.50, Morane
    "fi-bomber": ("other", 10, 0, "", 3, 2),    # Blenheim
    "su-fighter": ("F", 6, 2, "", 1, 0),        # I-16, I-153, MiG-3 air divisions
    "su-attack": ("A", 5, 1, "", 4, 0),         # I-15bis, I-153 and the first Il-2
    "su-bomber": ("other", 8, 0, "", 5, 4),     # SB, Ar-2, Pe-2 air divisions
    "su-long": ("other", 16, 0, "", 4, 8),      # DB-3 long-range (DBA) corps
}

#: Air units a base holds (the reading of EUR-27's capacity in grognard.europa.air.missions).
AIRBASE_LOAD = 3

#: (side, formation, nationality, first row, last row, depth behind the border (first, last),
#: [(unit name, kind)]): each air fleet's / district's air units, approximate and original
#: (round counts of the Geschwader of each Luftflotte, the air divisions of each district),
#: replace freely. Depth counts hexes from the border on the owner's side; a formation far from
#: the Axis border names its airbases instead (Leningrad and Novgorod; the DBA at Smolensk and
#: Kazatin). Units are dealt to the bases in turn.
AIR_ORDER_OF_BATTLE = (
    ("axis", "lf1", "german", 18, 30, (2, 4), [
        ("KG 1", "Ju-88"), ("KG 76", "Ju-88"), ("KG 77", "Ju-88"), ("JG 54", "Bf-109F")]),
    ("axis", "lf2", "german", 29, 45, (2, 4), [
        ("KG 2", "Do-17"), ("KG 3", "Ju-88"), ("KG 53", "He-111"), ("StG 1", "Ju-87B"),
        ("StG 2", "Ju-87B"), ("StG 77", "Ju-87B"), ("ZG 26", "Me-110"), ("SKG 210", "Me-110"),
        ("JG 51", "Bf-109F"), ("JG 53", "Bf-109F"), ("JG 27", "Bf-109E")]),
    ("axis", "lf4", "german", 42, 60, (2, 4), [
        ("KG 27", "He-111"), ("KG 51", "Ju-88"), ("KG 54", "Ju-88"), ("KG 55", "He-111"),
        ("JG 3", "Bf-109F"), ("JG 52", "Bf-109F"), ("JG 77", "Bf-109E")]),
    ("axis", "arr", "romanian", 58, 72, (2, 5), [
        ("ARR fighters", "ro-fighter"), ("ARR bombers", "ro-bomber")]),
    ("axis", "ilma", "finnish", 1, 6, (1, 3), [
        ("Ilmavoimat fighters", "fi-fighter"), ("Ilmavoimat bombers", "fi-bomber")]),
    ("soviet", "lmd", "soviet", 1, 16, ("3306", "3611"), [
        ("Leningrad MD IAD 1", "su-fighter"), ("Leningrad MD IAD 2", "su-fighter"),
        ("Leningrad MD IAD 3", "su-fighter"), ("Leningrad MD SAD", "su-bomber")]),
    ("soviet", "nwf", "soviet", 14, 28, (3, 6), [
        ("Baltic MD SAD 1", "su-fighter"), ("Baltic MD SAD 2", "su-fighter"),
        ("Baltic MD BAD", "su-bomber")]),
    ("soviet", "wf", "soviet", 29, 41, (3, 6), [
        ("Western MD SAD 1", "su-fighter"), ("Western MD SAD 2", "su-fighter"),
        ("Western MD IAD", "su-fighter"), ("Western MD ShAD", "su-attack"),
        ("Western MD BAD", "su-bomber")]),
    ("soviet", "swf", "soviet", 42, 56, (3, 6), [
        ("Kiev MD SAD 1", "su-fighter"), ("Kiev MD SAD 2", "su-fighter"),
        ("Kiev MD IAD 1", "su-fighter"), ("Kiev MD IAD 2", "su-fighter"),
        ("Kiev MD ShAD", "su-attack"), ("Kiev MD BAD 1", "su-bomber"),
        ("Kiev MD BAD 2", "su-bomber")]),
    ("soviet", "sf", "soviet", 56, 70, (3, 6), [
        ("Odessa MD SAD 1", "su-fighter"), ("Odessa MD SAD 2", "su-fighter"),
        ("Odessa MD BAD", "su-bomber")]),
    ("soviet", "dba", "soviet", 24, 50, ("3928", "2950"), [
        ("DBA corps 1", "su-long"), ("DBA corps 2", "su-long")]),
)

HEAD = '''# GENERATED by scripts/make_barbarossa.py - do not edit by hand; change the script (its
# ORDER_OF_BATTLE) or replace this file with your own order of battle.
# Europa: Barbarossa, 22 June 1941 - Jun II to Dec II 1941 on the europa-barbarossa map (16 miles
# a hex). An ORIGINAL, APPROXIMATE order of battle (generic division factors, round counts per
# army group and district, placed along the border by rule), not a published counter mix.
# The Fire in the East surprise turn opens the game (EUR-44); the Axis may also claim the
# invasion surprise against the USSR (SUR-25) in its Jun II initial phase.
[scenario]
id = "europa-barbarossa"
title = "Europa: Barbarossa, 22 June - December 1941 (original approximate OOB)"
system = "europa"
sides = ["axis", "soviet"]
seed = 1941
map = "europa-barbarossa"

[calendar]
start = "1941-06-II"
turn = "Jun II 1941"

[europa]
fite_surprise_turn = true
soviet_countries = ["ussr"]
invasion_countries = ["ussr"]
# Jun II 1941 .. Dec II 1941: 13 half-month turns; the game ends after the last.
last_turn = 13
# The turn's weather (EUR-20 overruns, EUR-10 frozen rivers): autumn mud, then winter.
weather = { "Oct I 1941" = "mud", "Oct II 1941" = "mud", "Nov I 1941" = "mud", "Nov II 1941" = "winter", "Dec I 1941" = "winter", "Dec II 1941" = "winter" }
# Rail hubs and cities on the map edges: German home depots, Soviet interior depots (EUR-30).
supply_sources = { axis = ["0527", "0538", "0147", "2072"], soviet = ["3306", "5422", "5348", "5054"] }
replacements = { axis = { infantry = 6, armor = 3 }, soviet = { infantry = 12, armor = 3 } }

# Victory (grognard.europa.victory; a READING - the Europa and Fire in the East texts in hand
# state no campaign victory conditions; docs/MAPS.md "Barbarossa victory"). After Dec II 1941
# the Axis scores the objectives it holds (a hex is held by the side whose ground unit last
# entered it): the two capitals of the campaign, the cities on the roads to them and the
# Dnieper-Smolensk "land bridge" line. Rostov, the southern goal of 1941, lies beyond this map's
# eastern edge: Kharkov and Dnepropetrovsk (the Donbas gate and the Dnieper bend) stand for it.
# What the Axis held historically by Dec II 1941 (Riga, Minsk, the Smolensk line, Kiev, Odessa,
# Dnepropetrovsk, Kharkov; not Leningrad, Moscow or Sevastopol) scores 14: a draw - the war
# goes on into 1942.
[europa.victory]
side = "axis"
countries = { axis = ["germany", "general_government", "romania", "hungary", "slovakia", "finland"], soviet = ["ussr"] }
objectives = [
  { name = "Moscow", hex = "5422", points = 6 },
  { name = "Leningrad", hex = "3306", points = 5 },
  { name = "Kiev", hex = "3446", points = 3 },
  { name = "Kharkov", hex = "5348", points = 3 },
  { name = "Dnepropetrovsk", hex = "5054", points = 2 },
  { name = "Odessa", hex = "3663", points = 2 },
  { name = "Smolensk line (Vitebsk, Orsha, Smolensk, Mogilev)", hexes = ["3326", "3429", "3928", "3431"], need = 3, points = 2 },
  { name = "Minsk", hex = "2631", points = 1 },
  { name = "Riga", hex = "1618", points = 1 },
  { name = "Sevastopol", hex = "4671", points = 1 },
]
levels = [
  { level = "decisive", winner = "axis", min = 23 },
  { level = "substantive", winner = "axis", min = 20 },
  { level = "marginal", winner = "axis", min = 16 },
  { level = "draw", min = 12 },
  { level = "marginal", winner = "soviet", min = 8 },
  { level = "substantive", winner = "soviet", min = 4 },
  { level = "decisive", winner = "soviet", min = 0 },
]

# EUR-37..EUR-41 Fire in the East logistics: the axis draws on the German supply rates, the
# soviet side on the Soviet ones (stockpiles 120 / 160, the 160 special SPs of the surprise
# turn). The EUR-38 lines west to east, as the hexes of their cities: Odessa-Kiev-Minsk-Riga;
# Rostov-Voronezh-Tula-Moscow-Kalinin-Leningrad; Grozny-Stalingrad-Saratov-Gorki. Rostov,
# Voronezh and the third line lie beyond this map's eastern edge: their hexes are where the
# map's own projection (scripts/geo/europa_barbarossa.toml) puts the cities (judged from
# public coordinates). "Beyond the line" is read from the rear hex 0527 (an Axis depot).
[europa.logistics]
german = "axis"
soviet = "soviet"
rear = "0527"
lines = [["3663", "3446", "2631", "1618"], ["6658", "6139", "5529", "5422", "4918", "3306"], ["9071", "8049", "8236", "7118"]]
'''


def border_bands(sc: object) -> tuple[dict[int, set[int]], dict[int, set[int]], object]:
    """Per map row: the Axis-side land hexes next to the Soviet border and the Soviet ones."""
    m = sc.map  # type: ignore[attr-defined]
    from grognard.core.mapdata import WATER_TERRAIN

    ussr = m.country_names.index("ussr")
    land = [m.terrain_of(m.hex(i)) not in WATER_TERRAIN for i in range(m.n)]
    soviet = [land[i] and int(m.country[i]) == ussr for i in range(m.n)]
    axis_c = {m.country_names.index(c) for c in ("germany", "general_government", "romania",
                                                   "hungary", "slovakia")
              if c in m.country_names}
    axis = [land[i] and int(m.country[i]) in axis_c for i in range(m.n)]
    dist_axis: dict[int, int] = {}
    dist_sov: dict[int, int] = {}
    for i in range(m.n):
        nb = [int(j) for j in m.neighbor_indices(i)]
        if axis[i] and any(soviet[j] for j in nb):
            dist_axis[i] = 0
        if soviet[i] and any(axis[j] for j in nb):
            dist_sov[i] = 0
    for dist, ok in ((dist_axis, axis), (dist_sov, soviet)):
        frontier = list(dist)
        for d in range(1, 7):
            nxt = []
            for i in frontier:
                for j in (int(x) for x in m.neighbor_indices(i)):
                    if ok[j] and j not in dist:
                        dist[j] = d
                        nxt.append(j)
            frontier = nxt
    return _rows(m, dist_axis), _rows(m, dist_sov), m


def _rows(m: object, dist: dict[int, int]) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for i, d in dist.items():
        label = m.label(i)  # type: ignore[attr-defined]
        out.setdefault(d, set()).add(i)
        _ = label
    return out


def row_of(m: object, i: int) -> int:
    return int(m.label(i)[2:])  # type: ignore[attr-defined]


def slots(m: object, rings: dict[int, set[int]], first: int, last: int, depths: tuple[int, ...]
          ) -> Iterator[str]:
    """Hexes of the band rows first..last at the given distances from the border, in order."""
    for d in depths:
        ring = sorted((i for i in rings.get(d, ()) if first <= row_of(m, i) <= last),
                      key=lambda i: (row_of(m, i), m.label(i)))  # type: ignore[attr-defined]
        for i in ring:
            yield m.label(i)  # type: ignore[attr-defined]


def units_toml(m: object, axis_rings: dict[int, set[int]], sov_rings: dict[int, set[int]]
               ) -> str:
    used: set[str] = set()
    out = []
    for side, form, nat, first, last, parts in ORDER_OF_BATTLE:
        rings = axis_rings if side == "axis" else sov_rings
        depths = (0, 1, 2, 3, 4, 5, 6) if side == "axis" else (1, 3, 5, 2, 4, 6, 0)
        free = (h for h in slots(m, rings, first, last, depths) if h not in used)
        # infantry first on the line, mobile divisions behind (the next free hexes)
        ordered = sorted(parts, key=lambda p: TYPES[p[0]][3])
        n = 0
        for kind, count in ordered:
            t, att, dfn, mv, armor, zoc, re = TYPES[kind]
            for k in range(count):
                hex_ = next(free, None)
                if hex_ is None:
                    raise SystemExit(f"{form}: no room for {kind} {k + 1} in rows {first}-{last}")
                used.add(hex_)
                n += 1
                uid = f"{'de' if side == 'axis' else 'su'}-{form}-{kind}-{k + 1}"
                out.append(
                    f'[[units]]\nid = "{uid}"\nname = "{form.upper()} {kind} {k + 1}"\n'
                    f'nationality = "{nat}"\nside = "{side}"\ntype = "{t}"\nattack = {att}\n'
                    f'defense = {dfn}\nmovement = {mv}\nre_size = {re}\ndivisional = true\n'
                    f'armor = "{armor}"\nzoc_class = {zoc}\nhex = "{hex_}"\n')
    return "\n".join(out)


def reinforcements_toml() -> str:
    """``[[europa.reinforcements]]``: one entry a formation and turn, unit records without a
    hex (the Soviet counts scaled by SOVIET_SCALE, rounded, at least one)."""
    out = ["# EUR-22 reinforcements: placed by their owner in its initial phase of the turn on a",
           "# listed hex (not enemy-occupied, not in an enemy ZOC, within stacking); an arrival",
           "# not placed waits for the next turn. ORIGINAL and APPROXIMATE (docs/MAPS.md).",
           f"# Soviet counts scaled by SOVIET_SCALE = {SOVIET_SCALE}."]
    seen: set[str] = set()
    for side, turn, form, entry, parts in REINFORCEMENTS:
        nat = "german" if side == "axis" else "soviet"
        hexes = list(dict.fromkeys([*entry, *(REAR if side == "soviet" else [])]))
        units = []
        for kind, count in parts:
            n = max(1, round(count * SOVIET_SCALE)) if side == "soviet" else count
            t, att, dfn, mv, armor, zoc, re = TYPES[kind]
            for k in range(n):
                uid = f"{'de' if side == 'axis' else 'su'}-{form}-{kind}-{k + 1}"
                assert uid not in seen, uid
                seen.add(uid)
                units.append(
                    f'  {{ id = "{uid}", name = "{form.upper()} {kind} {k + 1}", '
                    f'nationality = "{nat}", type = "{t}", attack = {att}, defense = {dfn}, '
                    f'movement = {mv}, re_size = {re}, divisional = {str(re >= 2).lower()}, '
                    f'armor = "{armor}", zoc_class = {zoc} }},')
        out += ["", "[[europa.reinforcements]]", f"turn = {turn}", f'side = "{side}"',
                f"hexes = {json_list(hexes)}", "units = [", *units, "]"]
    return "\n".join(out) + "\n"


def json_list(xs: list[str]) -> str:
    return "[" + ", ".join(f'"{x}"' for x in xs) + "]"


AIR_AXIS_COUNTRIES = ("germany", "general_government", "romania", "hungary", "slovakia",
                      "finland")


def air_depths(m: object) -> tuple[dict[int, int], dict[int, int]]:
    """Each land hex's distance from the border, on the Axis side (Finland included) and the
    Soviet side, up to 16 hexes in."""
    from grognard.core.mapdata import WATER_TERRAIN

    names = m.country_names  # type: ignore[attr-defined]
    ussr = names.index("ussr")
    axis_c = {names.index(c) for c in AIR_AXIS_COUNTRIES if c in names}
    n = m.n  # type: ignore[attr-defined]
    land = [m.terrain_of(m.hex(i)) not in WATER_TERRAIN for i in range(n)]  # type: ignore[attr-defined]
    soviet = [land[i] and int(m.country[i]) == ussr for i in range(n)]  # type: ignore[attr-defined]
    axis = [land[i] and int(m.country[i]) in axis_c for i in range(n)]  # type: ignore[attr-defined]
    out = []
    for mine, theirs in ((axis, soviet), (soviet, axis)):
        dist = {i: 0 for i in range(n) if mine[i] and any(
            theirs[int(j)] for j in m.neighbor_indices(i))}  # type: ignore[attr-defined]
        frontier = list(dist)
        for d in range(1, 17):
            nxt = []
            for i in frontier:
                for j in (int(x) for x in m.neighbor_indices(i)):  # type: ignore[attr-defined]
                    if mine[j] and j not in dist:
                        dist[j] = d
                        nxt.append(j)
            frontier = nxt
        out.append(dist)
    return out[0], out[1]


def airbases(m: object, depth: dict[int, int], first: int, last: int, near: int, far: int,
             count: int, used: set[str]) -> list[str]:
    """``count`` airbase hexes of rows first..last, ``near``..``far`` hexes behind the border:
    the band's cities first (nearest the border first), then the other hexes at ``near``,
    taken evenly spread north to south."""
    band = [i for i, d in depth.items() if near <= d <= far and first <= row_of(m, i) <= last
            and m.label(i) not in used]  # type: ignore[attr-defined]
    cities = {int(i) for i, cs in m.cities.items() if cs}  # type: ignore[attr-defined]
    ranked = sorted((i for i in band if i in cities), key=lambda i: (depth[i], row_of(m, i)))
    rest = sorted((i for i in band if i not in cities and depth[i] == near),
                  key=lambda i: (row_of(m, i), m.label(i)))  # type: ignore[attr-defined]
    picked = ranked[:count]
    if len(picked) < count and rest:
        step = len(rest) / (count - len(picked))
        picked += [rest[int(k * step)] for k in range(count - len(picked))]
    if len(picked) < count:
        raise SystemExit(f"rows {first}-{last}: room for {len(picked)} of {count} airbases")
    return sorted((m.label(i) for i in picked), key=lambda h: (int(h[2:]), h))  # type: ignore[attr-defined]


def air_toml(m: object) -> str:
    """The ``[europa.air_units]`` table: every air unit of AIR_ORDER_OF_BATTLE on its base."""
    axis_depth, sov_depth = air_depths(m)
    lines = ["# The air forces of 22 June 1941 (issue 24 item 7; docs/MAPS.md): the Luftflotten 1,",
             "# 2 and 4 in the wings of EUR-01 (one wing a Geschwader; ratings from the",
             "# europa_air_wings table), the Romanian and Finnish air forces, the VVS of the",
             "# Leningrad, Baltic, Western, Kiev and Odessa military districts and two long-range",
             "# (DBA) corps. Original and approximate, placed on airbases by rule.",
             "[europa.air_units]"]
    used: set[str] = set()
    for side, form, nat, first, last, where, wings in AIR_ORDER_OF_BATTLE:
        depth = axis_depth if side == "axis" else sov_depth
        n_bases = -(-len(wings) // AIRBASE_LOAD)
        if isinstance(where[0], str):
            bases = [str(h) for h in where]
        else:
            bases = airbases(m, depth, first, last, int(where[0]), int(where[1]), n_bases, used)
        used.update(bases)
        prefix = {"german": "de", "romanian": "ro", "finnish": "fi"}.get(nat, "su")
        for k, (name, kind) in enumerate(wings):
            t, rng, a2a, wing, tac, strat = AIR_TYPES[kind]
            uid = f"{prefix}-{form}-" + name.lower().replace("ilmavoimat ", "").replace(
                "arr ", "").replace(" md", "").replace(" ", "-")
            fields = [f'side = "{side}"', f'nationality = "{nat}"',
                      f'base = "{bases[k % len(bases)]}"', f'type = "{t}"', f"range = {rng}",
                      f"air_combat = {a2a}"]
            fields += [f'wing = "{wing}"'] if wing else [f"tactical = {tac}", f"strategic = {strat}"]
            lines.append(f"{uid} = {{ {', '.join(fields)} }}  # {name}")
    return "\n".join(lines) + "\n"


def scenario_text() -> str:
    """The whole generated scenario."""
    axis_rings, sov_rings, m = border_bands(load_scenario(MAP_PROBE))
    return (HEAD + "\n" + air_toml(m) + "\n" + reinforcements_toml() + "\n"
            + units_toml(m, axis_rings, sov_rings))


def main() -> int:
    OUT.write_text(scenario_text(), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
