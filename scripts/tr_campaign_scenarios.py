"""Write the Revised Third Reich campaign scenarios (tr-1939-campaign, tr-1944) as TOML.

    uv run python scripts/tr_campaign_scenarios.py

Both use the generated map of Europe (``[scenario] map = "tr-europe"``). grognard's own
choices where 3R4 owns the numbers (set-up hexes, force pools, the minors' forces and some
territory values): each force is given as a count of counters near an anchor city; the script
places them on the nearest land hexes of the power's home countries (at most 2 ground units a
hex, air in cities, fleets in ports). A user replaces them by editing the FORCES tables here
(or the generated TOML). BRP values are TR-85..TR-87 (post-playtest).
"""

from __future__ import annotations

import sys
from pathlib import Path

from grognard.core.hexgrid import distance
from grognard.core.mapdata import WATER_TERRAIN, CityClass
from grognard.engine.scenario import load_scenario

OUT = Path(__file__).resolve().parent.parent / "src" / "grognard" / "data" / "scenarios"

HOME = {
    "germany": ["germany", "slovakia"], "italy": ["italy", "libya", "albania"],
    "ussr": ["ussr"], "uk": ["uk", "egypt", "palestine", "iraq"],
    "france": ["france", "morocco", "algeria", "tunisia", "syria"],
    "poland": ["poland"], "estonia": ["estonia"], "latvia": ["latvia"],
    "lithuania": ["lithuania"], "finland": ["finland"], "romania": ["romania"],
    "hungary": ["hungary"], "bulgaria": ["bulgaria"], "yugoslavia": ["yugoslavia"],
    "greece": ["greece"], "belgium": ["belgium"], "netherlands": ["netherlands"],
    "luxembourg": ["luxembourg"], "denmark": ["denmark"], "norway": ["norway"],
    "sweden": ["sweden"], "spain": ["spain", "spanish_morocco"], "portugal": ["portugal"],
    "turkey": ["turkey"], "switzerland": ["switzerland"], "eire": ["eire"],
    "persia": ["persia"],
}
NEUTRAL = ["estonia", "latvia", "lithuania", "belgium", "netherlands", "luxembourg", "denmark",
           "norway", "sweden", "yugoslavia", "greece", "spain", "portugal", "turkey",
           "switzerland", "eire", "persia"]
AXIS_MINORS = ["hungary", "romania", "bulgaria", "finland"]
#: grognard's values where TR-87 gives none (3R4's are EXTERNAL): Belgium + Netherlands = 25
#: (TR-TV10); each Baltic state's share of the Baltic States' 10.
VALUES = {"belgium": 15, "netherlands": 10, "estonia": 3, "latvia": 3, "lithuania": 4,
          "portugal": 5, "switzerland": 5, "eire": 5, "persia": 5}
NATIONALITY = {"germany": "german", "italy": "italian", "ussr": "soviet", "uk": "british",
               "france": "french", "us": "american", "poland": "polish"}
SIDES2 = {"germany": "axis", "italy": "axis", "ussr": "allies", "uk": "allies",
          "france": "allies", "us": "allies", "poland": "allies"}
SIDES3 = {**SIDES2, "ussr": "ussr"}

# (power, type, attack, movement, anchor city (or "pool"), count, flags)
Force = tuple[str, str, int, int, str, int, list[str]]
FORCES_1939: list[Force] = [
    ("germany", "infantry", 3, 3, "Breslau", 4, []), ("germany", "infantry", 3, 3, "Stettin", 3, []),
    ("germany", "armor", 4, 6, "Breslau", 2, []), ("germany", "armor", 4, 6, "Stettin", 1, []),
    ("germany", "infantry", 3, 3, "Konigsberg", 2, []),
    ("germany", "infantry", 3, 3, "Cologne", 5, []), ("germany", "infantry", 3, 3, "Stuttgart", 2, []),
    ("germany", "air", 5, 4, "Breslau", 1, []), ("germany", "air", 5, 4, "Berlin", 1, []),
    ("germany", "air", 5, 4, "Essen", 1, []), ("germany", "naval", 9, 0, "Kiel", 1, []),
    ("germany", "naval", 9, 0, "Wilhelmshaven", 1, []),
    ("germany", "infantry", 3, 3, "pool", 10, []), ("germany", "armor", 4, 6, "pool", 4, []),
    ("germany", "armor", 5, 6, "pool", 2, ["available_1941"]),
    ("germany", "air", 5, 4, "pool", 3, []), ("germany", "airborne", 3, 3, "pool", 1, []),
    ("germany", "naval", 9, 0, "pool", 1, []),
    ("poland", "infantry", 2, 3, "Poznan", 3, []), ("poland", "infantry", 2, 3, "Krakow", 2, []),
    ("poland", "infantry", 2, 3, "Warsaw", 2, []), ("poland", "armor", 1, 4, "Lodz", 1, []),
    ("france", "infantry", 2, 3, "Metz", 6, []), ("france", "infantry", 2, 3, "Lille", 0, []),
    ("france", "infantry", 2, 3, "Strasbourg", 3, []), ("france", "infantry", 2, 3, "Paris", 1,
                                                        []),
    ("france", "armor", 3, 4, "Dijon", 2, []), ("france", "air", 5, 4, "Paris", 1, []),
    ("france", "infantry", 2, 3, "Oran", 1, []), ("france", "infantry", 2, 3, "Beirut", 1, []),
    ("france", "infantry", 2, 3, "Tunis", 1, []), ("france", "infantry", 2, 3, "Nice", 0, []),
    ("france", "infantry", 2, 3, "Lyon", 1, []),
    ("france", "naval", 9, 0, "Brest", 1, []), ("france", "naval", 9, 0, "Toulon", 1, []),
    ("france", "air", 5, 4, "pool", 1, []), ("france", "infantry", 2, 3, "pool", 5, []),
    ("france", "armor", 3, 4, "pool", 1, []),
    ("uk", "infantry", 2, 3, "London", 2, []), ("uk", "infantry", 2, 3, "Glasgow", 1, []),
    ("uk", "armor", 2, 5, "Alexandria", 1, []), ("uk", "infantry", 2, 3, "Mersa Matruh", 2, []),
    ("uk", "infantry", 2, 3, "Haifa", 1, []), ("uk", "infantry", 2, 3, "Baghdad", 1, []),
    ("uk", "air", 5, 4, "London", 1, []), ("uk", "air", 5, 4, "Birmingham", 1, []),
    ("uk", "naval", 9, 0, "Portsmouth", 1, []), ("uk", "naval", 9, 0, "Glasgow", 1, []),
    ("uk", "naval", 9, 0, "Liverpool", 1, []), ("uk", "naval", 9, 0, "Malta", 1, []),
    ("uk", "naval", 9, 0, "Alexandria", 1, []), ("uk", "naval", 9, 0, "Gibraltar", 1, []),
    ("uk", "infantry", 2, 3, "pool", 6, []),
    ("uk", "armor", 4, 5, "pool", 3, ["available_1941"]),
    ("uk", "air", 5, 4, "pool", 2, []), ("uk", "airborne", 3, 3, "pool", 1, []),
    ("uk", "naval", 9, 0, "pool", 1, []),
    ("italy", "infantry", 2, 3, "Turin", 3, []), ("italy", "infantry", 2, 3, "Trieste", 2, []),
    ("italy", "infantry", 2, 3, "Tripoli", 1, []), ("italy", "infantry", 2, 3, "Tobruk", 2, []),
    ("italy", "infantry", 2, 3, "Tirana", 1, []), ("italy", "armor", 2, 5, "Milan", 1, []),
    ("italy", "air", 5, 4, "Rome", 1, []), ("italy", "air", 5, 4, "Palermo", 1, []),
    ("italy", "naval", 9, 0, "Taranto", 1, []), ("italy", "naval", 9, 0, "Naples", 1, []),
    ("italy", "naval", 9, 0, "Cagliari", 1, []),
    ("italy", "infantry", 2, 3, "pool", 4, []), ("italy", "armor", 3, 5, "pool", 1, []),
    ("italy", "air", 5, 4, "pool", 1, []),
    ("ussr", "infantry", 2, 3, "Minsk", 4, []), ("ussr", "infantry", 2, 3, "Kiev", 4, []),
    ("ussr", "infantry", 2, 3, "Leningrad", 3, []), ("ussr", "infantry", 2, 3, "Moscow", 2, []),
    ("ussr", "infantry", 2, 3, "Odessa", 2, []), ("ussr", "armor", 3, 5, "Smolensk", 1, []),
    ("ussr", "armor", 3, 5, "Zhitomir", 2, []), ("ussr", "air", 5, 4, "Moscow", 1, []),
    ("ussr", "air", 5, 4, "Kiev", 1, []), ("ussr", "naval", 9, 0, "Leningrad", 1, []),
    ("ussr", "infantry", 2, 3, "pool", 10, []),
    ("ussr", "infantry", 3, 3, "pool", 6, ["available_1942"]),
    ("ussr", "armor", 4, 5, "pool", 4, ["available_1942"]), ("ussr", "air", 5, 4, "pool", 2, []),
    ("us", "infantry", 3, 3, "pool", 6, ["available_1942"]),
    ("us", "armor", 5, 6, "pool", 3, ["available_1942"]),
    ("us", "air", 5, 4, "pool", 4, ["available_1942"]),
    ("us", "naval", 9, 0, "pool", 2, ["available_1942"]),
]
#: neutral and Axis minors: infantry that waits in a box named after the country
MINOR_FORCES = {"belgium": 2, "netherlands": 2, "denmark": 1, "norway": 2, "sweden": 3,
                "yugoslavia": 4, "greece": 2, "spain": 4, "turkey": 4, "estonia": 1,
                "latvia": 1, "lithuania": 1, "hungary": 2, "romania": 3, "bulgaria": 2,
                "finland": 3, "portugal": 1, "switzerland": 1, "eire": 1, "luxembourg": 0,
                "persia": 0}

# Spring 1944 (turn 23): grognard's learning situation; France is Vichy, Poland conquered;
# Germany occupied the Vichy zone in November 1942 (Case Anton), so Vichy starts conquered,
# and the minors Germany overran in 1940-41 start conquered by the Axis, without their armies.
OCCUPIED_1944 = ["belgium", "netherlands", "luxembourg", "denmark", "norway", "yugoslavia",
                 "greece"]
FORCES_1944: list[Force] = [
    ("germany", "infantry", 3, 3, "Minsk", 6, []), ("germany", "infantry", 3, 3, "Lwow", 4, []),
    ("germany", "armor", 4, 6, "Warsaw", 3, []), ("germany", "armor", 5, 6, "Vinnitsa", 2, []),
    ("germany", "infantry", 3, 3, "Paris", 3, []), ("germany", "infantry", 3, 3, "Calais", 3, []),
    ("germany", "armor", 4, 6, "Rome", 1, []), ("germany", "infantry", 3, 3, "Naples", 2, []),
    ("germany", "air", 5, 4, "Berlin", 1, []), ("germany", "air", 5, 4, "Warsaw", 1, []),
    ("germany", "air", 5, 4, "Paris", 1, []), ("germany", "naval", 9, 0, "Kiel", 1, []),
    ("germany", "infantry", 3, 3, "pool", 6, []), ("germany", "armor", 4, 6, "pool", 2, []),
    ("germany", "air", 5, 4, "pool", 2, []),
    ("uk", "infantry", 2, 3, "London", 3, []), ("uk", "armor", 4, 5, "Portsmouth", 2, []),
    ("uk", "infantry", 2, 3, "Taranto", 2, []), ("uk", "armor", 4, 5, "Brindisi", 1, []),
    ("uk", "air", 5, 4, "London", 2, []), ("uk", "air", 5, 4, "Naples", 0, []),
    ("uk", "naval", 9, 0, "Portsmouth", 2, []), ("uk", "naval", 9, 0, "Malta", 1, []),
    ("uk", "infantry", 2, 3, "pool", 4, []), ("uk", "air", 5, 4, "pool", 2, []),
    ("us", "infantry", 3, 3, "Birmingham", 4, []), ("us", "armor", 5, 6, "Manchester", 2, []),
    ("us", "infantry", 3, 3, "Taranto", 1, []), ("us", "air", 5, 4, "Manchester", 2, []),
    ("us", "naval", 9, 0, "Plymouth", 2, []),
    ("us", "infantry", 3, 3, "pool", 6, []), ("us", "armor", 5, 6, "pool", 3, []),
    ("us", "air", 5, 4, "pool", 4, []),
    ("ussr", "infantry", 3, 3, "Smolensk", 6, []), ("ussr", "infantry", 3, 3, "Kiev", 6, []),
    ("ussr", "armor", 4, 5, "Gomel", 3, []), ("ussr", "armor", 4, 5, "Zhitomir", 2, []),
    ("ussr", "air", 5, 4, "Moscow", 2, []), ("ussr", "air", 5, 4, "Kiev", 1, []),
    ("ussr", "infantry", 3, 3, "pool", 8, []), ("ussr", "armor", 4, 5, "pool", 3, []),
]
ECONOMY_1944 = {"germany": 180, "uk": 140, "us": 270, "ussr": 130, "italy": 0}


def _q(xs: list[str]) -> str:
    return "[" + ", ".join(f'"{x}"' for x in xs) + "]"


class Placer:
    """Nearest free land hex (or city, or port) of a power's home countries to an anchor."""

    def __init__(self, home: dict[str, list[str]], control: dict[str, str] | None = None):
        self.m = load_scenario("tr-europe-map").map
        self.home = home
        self.ground: dict[str, int] = {}
        self.air: dict[str, int] = {}
        self.city_hex = {c.name: self.m.layout.to_label(self.m.hex(h))
                         for h, cs in self.m.cities.items() for c in cs}
        self.control = control or {}

    def _labels(self, countries: list[str], want: str) -> list[str]:
        m = self.m
        out = []
        for i in range(m.n):
            h = m.hex(i)
            if m.terrain_of(h) in WATER_TERRAIN:
                continue
            cities = m.cities_at(h)
            held = [self.control.get(c.name) for c in cities]
            if m.country_of(h) not in countries and not any(held):
                continue
            if want == "air" and not cities:
                continue
            if want == "naval" and not any(
                    c.classes & {CityClass.RED_PORT, CityClass.BLACK_PORT} for c in cities):
                continue
            out.append(m.layout.to_label(h))
        return out

    def place(self, power: str, typ: str, anchor: str, countries: list[str]) -> str:
        a = self.m.layout.from_label(self.city_hex[anchor])
        want = typ if typ in ("air", "naval") else "ground"
        labels = self._labels(countries, want)
        labels.sort(key=lambda lab: (distance(a, self.m.layout.from_label(lab)), lab))
        for lab in labels:
            if want == "ground" and self.ground.get(lab, 0) < 2:
                self.ground[lab] = self.ground.get(lab, 0) + 1
                return lab
            if want == "air" and self.air.get(lab, 0) < 5:
                self.air[lab] = self.air.get(lab, 0) + 5
                return lab
            if want == "naval":
                return lab
        raise SystemExit(f"no room for {power} {typ} near {anchor}")


# TR-25 (issue 23): the wars in progress at the start (third_reich/conquest/diplomacy.py) and
# the major each neutral minor joins when attacked (TR-24).
WARS_1939 = ['{ between = ["germany", "poland"], since = 1, cause = "declaration", by = "germany" }',
             '{ between = ["uk", "germany"], since = 1, cause = "declaration", by = "uk" }',
             '{ between = ["france", "germany"], since = 1, cause = "declaration", by = "france" }']
WARS_1944 = ['{ between = ["uk", "germany"], since = 1, cause = "declaration", by = "uk" }',
             '{ between = ["germany", "ussr"], since = 9, cause = "declaration", by = "germany" }',
             '{ between = ["us", "germany"], since = 13, cause = "us_entry", by = "us" }']
PATRONS = ('{ poland = "uk", belgium = "france", netherlands = "uk", luxembourg = "france", '
           'denmark = "uk", norway = "uk", sweden = "uk", yugoslavia = "uk", greece = "uk", '
           'portugal = "uk", turkey = "uk", switzerland = "france", eire = "uk", '
           'persia = "uk" }')


def scenario(sid: str, title: str, turn: int, sides: list[str], side_of: dict[str, str],
             forces: list[Force], campaign_extra: list[str], minors: dict[str, int],
             control_extra: dict[str, str] | None = None,
             where: dict[str, list[str]] | None = None,
             wars: list[str] = WARS_1939) -> str:
    placer = Placer(HOME, control_extra)
    sides_tbl = ", ".join(f'{p} = "{side_of[p]}"' for p in ("ussr", "poland", "us"))
    out = [f"# GENERATED by scripts/tr_campaign_scenarios.py: {title}.",
           "# grognard's own set-up and force pools (3R4 owns the originals): edit FORCES in",
           "# the script (or this file) to use your own. BRP values TR-85..TR-87 (post-playtest).",
           "[scenario]", f'id = "{sid}"', f'title = "{title}"', 'system = "third_reich"',
           f"sides = {_q(sides)}", "seed = 1939", 'map = "tr-europe"', "", "[calendar]",
           f"turn = {turn}", "", "[home_countries]"]
    out += [f"{k} = {_q(v)}" for k, v in HOME.items()]
    out += ["", "[third_reich]", f"sides = {{ {sides_tbl} }}",
            'front_weather = { western = "europe", eastern = "east", southern = "mediterranean" }',
            "", "[third_reich.wars]", "at_war = [", *(f"  {w}," for w in wars), "]",
            f"patrons = {PATRONS}", "", "[third_reich.campaign]", f"neutral = {_q(NEUTRAL)}",
            f"axis_minors = {_q(AXIS_MINORS)}",
            'ribbentrop_molotov = ["eastern_poland", "baltic_states", "bessarabia"]',
            'rm_minors = ["estonia", "latvia", "lithuania"]', 'rm_trigger = "poland"',
            "us_entry_turn = 13", 'build_in = { us = ["uk"] }', *campaign_extra, "",
            "[third_reich.campaign.values]",
            "# grognard's values where TR-87 gives none (3R4's are EXTERNAL)"]
    out += [f"{k} = {v}" for k, v in VALUES.items()]
    out += ["", "[third_reich.campaign.victory]",
            "# grognard's default levels (3R4's are EXTERNAL): victory locations (capitals, red",
            "# victory cities, red ports) the Axis holds after Summer I 1945",
            "axis = 30", "allies = 14", ""]
    for b in ["force_pool", *sorted(m for m, n in minors.items() if n)]:
        out += ["[[boxes]]", f'id = "{b}"', f'name = "{b.replace("_", " ")}"',
                f'kind = "{"force_pool" if b == "force_pool" else "holding"}"', ""]
    n = 0
    homes = where or {}
    for power, typ, att, mv, anchor, count, flags in forces:
        for _ in range(count):
            n += 1
            nat = NATIONALITY.get(power, power)
            out += ["[[units]]", f'id = "{power[:3]}-{typ[:3]}{n}"', f'nationality = "{nat}"',
                    f'side = "{side_of[power]}"', f'type = "{typ}"', f"attack = {att}",
                    f"defense = {att}", f"movement = {mv}"]
            if anchor == "pool":
                out.append('box = "force_pool"')
            else:
                out.append(f'hex = "{placer.place(power, typ, anchor, homes.get(power, HOME.get(power, [power])))}"')
            if flags:
                out.append(f"flags = {_q(flags)}")
            out.append("")
    for m in sorted(minors):
        for _ in range(minors[m]):
            n += 1
            side = "axis" if m in AXIS_MINORS else side_of["uk"]
            out += ["[[units]]", f'id = "{m[:3]}-inf{n}"', f'nationality = "{m}"',
                    f'side = "{side}"', 'type = "infantry"', "attack = 1", "defense = 1",
                    "movement = 3", f'box = "{m}"', ""]
    return "\n".join(out)


def main() -> int:
    text = scenario("tr-1939-campaign", "Revised Third Reich: the 1939 campaign (two players)",
                    1, ["axis", "allies"], SIDES2, FORCES_1939, [], MINOR_FORCES)
    (OUT / "tr-1939-campaign.toml").write_text(text)
    text = scenario("tr-1939-campaign-3p",
                    "Revised Third Reich: the 1939 campaign (three players: Axis, USSR, "
                    "Western Allies)", 1, ["axis", "ussr", "allies"], SIDES3, FORCES_1939, [],
                    MINOR_FORCES)
    (OUT / "tr-1939-campaign-3p.toml").write_text(text)
    econ = ", ".join(f"{p} = {{ base = {b}, brp = 0 }}" for p, b in ECONOMY_1944.items())
    held = {"Paris": "axis", "Calais": "axis", "Warsaw": "axis", "Lwow": "axis",
            "Minsk": "axis", "Vinnitsa": "axis", "Rome": "axis", "Naples": "axis"}
    text = scenario(
        "tr-1944", "Revised Third Reich: 1944 to the end (learning scenario)", 23,
        ["axis", "allies"], SIDES2, FORCES_1944,
        [f"economy = {{ {econ} }}",
         f'start_conquered = {_q(["poland", "estonia", "latvia", "lithuania", *OCCUPIED_1944, "vichy"])}',
         "start_vichy = true", 'start_out = ["france", "italy"]',
         'start_allies = ["hungary", "romania", "bulgaria", "finland"]',
         'start_at_war = ["ussr", "us"]',
         'start_control = { axis = ["Paris", "Calais", "Warsaw", "Lwow", "Minsk", "Vinnitsa", '
         '"Rome", "Naples", "Dieppe", "Le Havre", "Cherbourg", "Brest", "Lodz", "Krakow", '
         '"Lublin", "Poznan", "Bialystok", "Brest-Litovsk", "Wilno", "Kaunas", "Riga", '
         '"Tallinn", "Pskov", "Vitebsk", "Zhitomir"], allies = ["Taranto", "Brindisi", '
         '"Palermo", "Messina", "Syracuse", "Tripoli", "Benghazi", "Tobruk", "Tunis", '
         '"Bizerte", "Oran", "Casablanca", "Rabat", "Constantine"] }'],
        {m: n for m, n in MINOR_FORCES.items()
         if m not in ("estonia", "latvia", "lithuania", *OCCUPIED_1944)},
        held, {"germany": ["germany", "slovakia", "france", "poland", "italy", "ussr"],
               "uk": ["uk", "italy"], "us": ["uk", "italy"], "ussr": ["ussr"]}, WARS_1944)
    (OUT / "tr-1944.toml").write_text(text)
    print("wrote tr-1939-campaign, tr-1939-campaign-3p, tr-1944")
    return 0


if __name__ == "__main__":
    sys.exit(main())
