"""Write the Revised Third Reich campaign scenarios (tr-1939-campaign, tr-1944) as TOML.

    uv run python scripts/tr_campaign_scenarios.py

grognard's own choices where 3R4 owns the numbers (set-up hexes, force pools, the minors'
forces): a schematic 14 x 26 hex map of Europe and North Africa (countries as blocks in their
1939 relative positions, the capitals and main cities of each power, sea around), the TR-85..87
BRP values, and a force pool per power. A user replaces them by editing the generated TOML or
this script. The map is a stand-in until the generated map of Europe (tr-europe) is used.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROWS = "ABCDEFGHIJKLMN"
COLS = 26
OUT = Path(__file__).resolve().parent.parent / "src" / "grognard" / "data" / "scenarios"

# country -> list of (rows, first col, last col); later entries win.
BLOCKS: list[tuple[str, str, int, int]] = [
    ("norway", "AB", 8, 10), ("sweden", "AB", 11, 13), ("finland", "AB", 16, 19),
    ("ussr", "AB", 20, 26), ("ussr", "CDEFGHI", 18, 26),
    ("uk", "BCDE", 3, 5), ("eire", "CD", 1, 1), ("germany", "CDEF", 8, 12),
    ("france", "EFGH", 3, 7), ("denmark", "C", 8, 9), ("netherlands", "D", 7, 7),
    ("belgium", "E", 7, 7), ("switzerland", "G", 8, 8),
    ("germany", "G", 9, 11), ("baltic_states", "C", 14, 17), ("poland", "DEF", 13, 15),
    ("eastern_poland", "DEF", 16, 17), ("hungary", "G", 12, 13), ("romania", "GH", 14, 16),
    ("bessarabia", "GH", 17, 17), ("yugoslavia", "HI", 12, 13), ("bulgaria", "I", 14, 15),
    ("italy", "HI", 8, 10), ("italy", "J", 10, 11), ("greece", "J", 13, 14),
    ("turkey", "JK", 16, 20), ("spain", "IJK", 2, 6), ("portugal", "IJ", 1, 1),
    ("syria", "L", 19, 21), ("morocco", "MN", 2, 4), ("algeria", "MN", 5, 8),
    ("tunisia", "MN", 9, 10), ("libya", "MN", 11, 14), ("egypt", "MN", 15, 18),
    ("palestine", "M", 19, 20), ("iraq", "LM", 22, 25), ("persia", "HIJK", 24, 26),
]
TERRAIN = {"m": ["G8", "G9", "H8", "I5", "H12", "I12", "K18", "G15"],
           "s": ["E16", "F16", "D17"], "d": [f"{r}{c}" for r in "MN" for c in range(3, 19)]}

# name, hex, country, classes
CITIES = [
    ("London", "D4", "uk", ["capital"]), ("Portsmouth", "E4", "uk", ["red_port"]),
    ("Glasgow", "B4", "uk", ["black_port"]), ("Manchester", "C4", "uk", ["red_victory"]),
    ("Paris", "F5", "france", ["capital"]), ("Brest", "F3", "france", ["red_port"]),
    ("Lyon", "G6", "france", ["red_victory"]), ("Marseilles", "H6", "france", ["red_port"]),
    ("Calais", "E6", "france", ["black_city"]),
    ("Berlin", "D11", "germany", ["capital"]), ("Hamburg", "C10", "germany", ["red_port"]),
    ("Essen", "E8", "germany", ["red_victory"]), ("Munich", "G10", "germany", ["black_city"]),
    ("Vienna", "G11", "germany", ["red_victory"]), ("Breslau", "E12", "germany", ["black_city"]),
    ("Koenigsberg", "C12", "germany", ["black_port"]),
    ("Rome", "I9", "italy", ["capital"]), ("Milan", "H9", "italy", ["red_victory"]),
    ("Naples", "J10", "italy", ["red_port"]), ("Tripoli", "M11", "libya", ["black_port"]),
    ("Tobruk", "M14", "libya", ["black_port"]),
    ("Moscow", "E22", "ussr", ["capital"]), ("Leningrad", "B20", "ussr", ["red_port"]),
    ("Kiev", "G19", "ussr", ["red_victory"]), ("Minsk", "E19", "ussr", ["black_city"]),
    ("Kharkov", "G22", "ussr", ["red_victory"]), ("Stalingrad", "H25", "ussr", ["red_victory"]),
    ("Sevastopol", "I21", "ussr", ["red_port"]), ("Murmansk", "A22", "ussr", ["black_port"]),
    ("Warsaw", "E14", "poland", ["capital"]), ("Danzig", "D13", "poland", ["black_port"]),
    ("Lvov", "F16", "eastern_poland", ["black_city"]), ("Brest-Litovsk", "E17",
                                                          "eastern_poland", ["black_city"]),
    ("Riga", "C15", "baltic_states", ["capital", "black_port"]),
    ("Kishinev", "G17", "bessarabia", ["black_city"]),
    ("Bucharest", "H15", "romania", ["capital"]), ("Budapest", "G13", "hungary", ["capital"]),
    ("Sofia", "I15", "bulgaria", ["capital"]), ("Helsinki", "B17", "finland", ["capital"]),
    ("Belgrade", "H13", "yugoslavia", ["capital"]), ("Athens", "J14", "greece", ["capital"]),
    ("Brussels", "E7", "belgium", ["capital"]), ("Amsterdam", "D7", "netherlands", ["capital"]),
    ("Copenhagen", "C9", "denmark", ["capital"]), ("Oslo", "B9", "norway", ["capital"]),
    ("Stockholm", "B12", "sweden", ["capital"]), ("Madrid", "J4", "spain", ["capital"]),
    ("Ankara", "K18", "turkey", ["capital"]), ("Istanbul", "J16", "turkey", ["red_port"]),
    ("Bern", "G8", "switzerland", ["capital"]), ("Lisbon", "J1", "portugal", ["capital"]),
    ("Dublin", "D1", "eire", ["capital"]),
    ("Rabat", "M2", "morocco", ["black_port"]), ("Algiers", "M6", "algeria", ["black_port"]),
    ("Tunis", "M9", "tunisia", ["black_port"]), ("Damascus", "L20", "syria", ["black_city"]),
    ("Alexandria", "M16", "egypt", ["red_port"]), ("Cairo", "N17", "egypt", ["black_city"]),
    ("Haifa", "M19", "palestine", ["black_port"]), ("Baghdad", "L23", "iraq", ["black_city"]),
    ("Tehran", "I25", "persia", ["black_city"]),
]

HOME = {
    "germany": ["germany"], "italy": ["italy", "libya"], "ussr": ["ussr"],
    "uk": ["uk", "egypt", "palestine", "iraq"], "france": ["france", "morocco", "algeria",
                                                          "tunisia", "syria"],
    "us": [], "poland": ["poland", "eastern_poland"], "baltic_states": ["baltic_states"],
    "romania": ["romania", "bessarabia"], "hungary": ["hungary"], "bulgaria": ["bulgaria"],
    "finland": ["finland"], "yugoslavia": ["yugoslavia"], "greece": ["greece"],
    "belgium": ["belgium"], "netherlands": ["netherlands"], "denmark": ["denmark"],
    "norway": ["norway"], "sweden": ["sweden"], "spain": ["spain"], "turkey": ["turkey"],
}
NEUTRAL = ["baltic_states", "belgium", "netherlands", "denmark", "norway", "sweden",
           "yugoslavia", "greece", "spain", "turkey"]
NATIONALITY = {"germany": "german", "italy": "italian", "ussr": "soviet", "uk": "british",
               "france": "french", "us": "american", "poland": "polish"}
SIDES2 = {"germany": "axis", "italy": "axis", "ussr": "allies", "uk": "allies",
          "france": "allies", "us": "allies", "poland": "allies"}

# (power, type, attack, movement, hex or box, count, flags)
Force = tuple[str, str, int, int, str, int, list[str]]
FORCES_1939: list[Force] = [
    # Germany (TR-86 base 150): the Polish front and the West Wall
    ("germany", "infantry", 3, 3, "D12", 2, []), ("germany", "armor", 4, 6, "E12", 2, []),
    ("germany", "infantry", 3, 3, "E11", 2, []), ("germany", "armor", 4, 6, "D11", 1, []),
    ("germany", "infantry", 3, 3, "C12", 1, []), ("germany", "infantry", 3, 3, "E8", 2, []),
    ("germany", "infantry", 3, 3, "F8", 2, []), ("germany", "infantry", 3, 3, "D8", 1, []),
    ("germany", "air", 5, 4, "D11", 1, []), ("germany", "air", 5, 4, "E12", 1, []),
    ("germany", "air", 5, 4, "E8", 1, []), ("germany", "naval", 9, 0, "C10", 1, []),
    ("germany", "infantry", 3, 3, "force_pool", 8, []),
    ("germany", "armor", 4, 6, "force_pool", 3, []),
    ("germany", "armor", 5, 6, "force_pool", 2, ["available_1941"]),
    ("germany", "air", 5, 4, "force_pool", 3, []), ("germany", "airborne", 3, 3, "force_pool",
                                                      1, []),
    ("germany", "naval", 9, 0, "force_pool", 1, []),
    # Italy (50)
    ("italy", "infantry", 2, 3, "H9", 2, []), ("italy", "infantry", 2, 3, "I9", 1, []),
    ("italy", "infantry", 2, 3, "M11", 1, []), ("italy", "infantry", 2, 3, "M13", 1, []),
    ("italy", "armor", 2, 5, "H10", 1, []), ("italy", "air", 5, 4, "I9", 1, []),
    ("italy", "naval", 9, 0, "J10", 2, []),
    ("italy", "infantry", 2, 3, "force_pool", 4, []), ("italy", "armor", 3, 5, "force_pool",
                                                        1, []),
    # France (60; TR-85: one 5-4 air fleet in play, the second buildable)
    ("france", "infantry", 2, 3, "E6", 2, []), ("france", "infantry", 2, 3, "F6", 2, []),
    ("france", "infantry", 2, 3, "G7", 2, []), ("france", "infantry", 2, 3, "F5", 1, []),
    ("france", "armor", 3, 4, "F7", 1, []), ("france", "air", 5, 4, "F5", 1, []),
    ("france", "infantry", 2, 3, "M6", 1, []), ("france", "infantry", 2, 3, "L20", 1, []),
    ("france", "naval", 9, 0, "H6", 1, []), ("france", "naval", 9, 0, "F3", 1, []),
    ("france", "air", 5, 4, "force_pool", 1, []),
    ("france", "infantry", 2, 3, "force_pool", 4, []),
    ("france", "armor", 3, 4, "force_pool", 1, []),
    # UK (125; TR-85: one 2-5 armor in Egypt, the 4-5 tank corps from 1941)
    ("uk", "infantry", 2, 3, "D4", 1, []), ("uk", "infantry", 2, 3, "E4", 1, []),
    ("uk", "infantry", 2, 3, "E6", 0, []), ("uk", "armor", 2, 5, "M16", 1, []),
    ("uk", "infantry", 2, 3, "N17", 1, []), ("uk", "infantry", 2, 3, "M19", 1, []),
    ("uk", "air", 5, 4, "D4", 1, []), ("uk", "air", 5, 4, "C4", 1, []),
    ("uk", "naval", 9, 0, "E4", 2, []), ("uk", "naval", 9, 0, "B4", 1, []),
    ("uk", "naval", 9, 0, "M16", 1, []),
    ("uk", "infantry", 2, 3, "force_pool", 6, []),
    ("uk", "armor", 4, 5, "force_pool", 3, ["available_1941"]),
    ("uk", "air", 5, 4, "force_pool", 2, []), ("uk", "airborne", 3, 3, "force_pool", 1, []),
    # USSR (90)
    ("ussr", "infantry", 2, 3, "E19", 2, []), ("ussr", "infantry", 2, 3, "F19", 2, []),
    ("ussr", "infantry", 2, 3, "G19", 2, []), ("ussr", "infantry", 2, 3, "D19", 1, []),
    ("ussr", "infantry", 2, 3, "B20", 2, []), ("ussr", "infantry", 2, 3, "E22", 2, []),
    ("ussr", "armor", 3, 5, "E21", 1, []), ("ussr", "armor", 3, 5, "G21", 1, []),
    ("ussr", "air", 5, 4, "E22", 1, []), ("ussr", "air", 5, 4, "G19", 1, []),
    ("ussr", "naval", 9, 0, "B20", 1, []),
    ("ussr", "infantry", 2, 3, "force_pool", 10, []),
    ("ussr", "infantry", 3, 3, "force_pool", 6, ["available_1942"]),
    ("ussr", "armor", 4, 5, "force_pool", 4, ["available_1942"]),
    ("ussr", "air", 5, 4, "force_pool", 2, []),
    # US (enters 1942 with 250, TR-86): its whole force is in the pool
    ("us", "infantry", 3, 3, "force_pool", 6, ["available_1942"]),
    ("us", "armor", 5, 6, "force_pool", 3, ["available_1942"]),
    ("us", "air", 5, 4, "force_pool", 4, ["available_1942"]),
    ("us", "naval", 9, 0, "force_pool", 2, ["available_1942"]),
    # Poland at war from the start
    ("poland", "infantry", 2, 3, "E14", 2, []), ("poland", "infantry", 2, 3, "D13", 1, []),
    ("poland", "infantry", 2, 3, "E13", 2, []), ("poland", "infantry", 2, 3, "F14", 1, []),
    ("poland", "armor", 1, 4, "F13", 1, []),
]
# neutral and Axis minors: their forces wait in a box named after them (placed on entry)
MINOR_FORCES = {"belgium": 2, "netherlands": 2, "denmark": 1, "norway": 2, "sweden": 3,
                "yugoslavia": 3, "greece": 2, "spain": 3, "turkey": 4, "baltic_states": 1,
                "hungary": 2, "romania": 3, "bulgaria": 2, "finland": 3}
AXIS_MINORS = ["hungary", "romania", "bulgaria", "finland"]


def grid() -> tuple[str, dict[str, str]]:
    country: dict[str, str] = {}
    for name, rows, a, b in BLOCKS:
        for r in rows:
            for c in range(a, b + 1):
                country[f"{r}{c}"] = name
    lines = []
    for r in ROWS:
        row = ""
        for c in range(1, COLS + 1):
            lab = f"{r}{c}"
            if lab not in country:
                row += "~"
            elif any(lab in v for k, v in TERRAIN.items() if k == "m"):
                row += "m"
            elif lab in TERRAIN["s"]:
                row += "s"
            elif lab in TERRAIN["d"]:
                row += "d"
            else:
                row += "."
        lines.append(row)
    return "\n".join(lines), country


def _region(lab: str) -> tuple[str, str]:
    """(front, weather region) of a hex (TR-02 fronts, TR-05 regions)."""
    r, c = lab[0], int(lab[1:])
    if r in "LMN" or (r in "IJK" and c >= 8):
        return "southern", "mediterranean" if r in "LMN" or r == "K" else "europe"
    if c >= 13:
        return "eastern", "scandinavia" if r in "AB" and c <= 19 else "east"
    return "western", "scandinavia" if r in "AB" and c >= 8 else "europe"


def _q(xs: list[str]) -> str:
    return "[" + ", ".join(f'"{x}"' for x in xs) + "]"


def scenario(sid: str, title: str, turn: int, sides: list[str], side_of: dict[str, str],
             forces: list[Force], extra: str, placed_minors: dict[str, str]) -> str:
    g, country = grid()
    out = [f"# Generated by scripts/tr_campaign_scenarios.py: {title}.",
           "# grognard's own set-up, force pools and map (3R4 owns the originals; replace them",
           "# with your own file). Values TR-85..TR-87 (post-playtest).",
           "[scenario]", f'id = "{sid}"', f'title = "{title}"', 'system = "third_reich"',
           f"sides = {_q(sides)}", "seed = 1939", "", "[calendar]", f"turn = {turn}", "",
           "[map]", 'layout = { offset = "odd-r", style = "letter", origin = 1 }',
           'legend = { "." = "clear", "m" = "mountain", "s" = "swamp", "d" = "desert", '
           '"~" = "sea" }', f'grid = """\n{g}\n"""', ""]
    for name, h, ctry, classes in CITIES:
        out += ["[[cities]]", f'hex = "{h}"', f'name = "{name}"', f"classes = {_q(classes)}",
                f'country = "{ctry}"', ""]
    by_country: dict[str, list[str]] = {}
    fronts: dict[str, list[str]] = {}
    weather: dict[str, list[str]] = {}
    for r in ROWS:
        for c in range(1, COLS + 1):
            lab = f"{r}{c}"
            f, w = _region(lab)
            fronts.setdefault(f, []).append(lab)
            weather.setdefault(w, []).append(lab)
            if lab in country:
                by_country.setdefault(country[lab], []).append(lab)
    out.append("[countries]")
    out += [f"{k} = {_q(v)}" for k, v in sorted(by_country.items())]
    out += ["", "[home_countries]"]
    out += [f"{k} = {_q(v)}" for k, v in HOME.items() if v]
    out += ["", "[regions]"] + [f"{k} = {_q(v)}" for k, v in sorted(fronts.items())]
    out += ["", "[weather_zones]"] + [f"{k} = {_q(v)}" for k, v in sorted(weather.items())]
    minors = sorted(MINOR_FORCES)
    sides_tbl = ", ".join(f"{p} = \"{side_of[p]}\"" for p in ("ussr", "poland")
                          if p in side_of)
    out += ["", "[third_reich]", f"sides = {{ {sides_tbl} }}",
            'front_weather = { western = "europe", eastern = "east", southern = "mediterranean" }',
            "", "[third_reich.campaign]", f"neutral = {_q(NEUTRAL)}",
            f"axis_minors = {_q(AXIS_MINORS)}",
            'ribbentrop_molotov = ["eastern_poland", "baltic_states", "bessarabia"]',
            'rm_trigger = "poland"', "us_entry_turn = 13", extra,
            "[third_reich.campaign.victory]",
            "# grognard's default levels (3R4's are EXTERNAL): victory locations the Axis holds",
            "axis = 24", "allies = 15", ""]
    for b in ["force_pool", "murmansk", "sw", *minors]:
        out += ["[[boxes]]", f'id = "{b}"', f'name = "{b.replace("_", " ")}"',
                f'kind = "{"force_pool" if b == "force_pool" else "holding"}"', ""]
    n = 0
    for power, typ, att, mv, where, count, flags in forces:
        for _ in range(count):
            n += 1
            nat = NATIONALITY.get(power, power)
            side = side_of.get(power, "axis" if power in AXIS_MINORS else side_of["uk"])
            out += ["[[units]]", f'id = "{power[:3]}-{typ[:3]}{n}"', f'nationality = "{nat}"',
                    f'side = "{side}"', f'type = "{typ}"', f"attack = {att}",
                    f"defense = {att}", f"movement = {mv}"]
            out.append(f'hex = "{where}"' if where[0].isupper() and where[1:].isdigit()
                       else f'box = "{where}"')
            if flags:
                out.append(f"flags = {_q(flags)}")
            out.append("")
    for m in minors:
        for _ in range(MINOR_FORCES[m]):
            n += 1
            side = side_of.get("ussr") if m == "baltic_states" else (
                "axis" if m in AXIS_MINORS else side_of["uk"])
            where = placed_minors.get(m)
            out += ["[[units]]", f'id = "{m[:3]}-inf{n}"', f'nationality = "{m}"',
                    f'side = "{side}"', 'type = "infantry"', "attack = 1", "defense = 1",
                    "movement = 3", f'hex = "{where}"' if where else f'box = "{m}"', ""]
    return "\n".join(out)


def main() -> int:
    for sid, title, sides, side_of in [
        ("tr-1939-campaign", "Revised Third Reich: the 1939 campaign (two players)",
         ["axis", "allies"], SIDES2),
    ]:
        text = scenario(sid, title, 1, sides, side_of, FORCES_1939, "", {})
        (OUT / f"{sid}.toml").write_text(text)
        print(f"wrote {sid}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
