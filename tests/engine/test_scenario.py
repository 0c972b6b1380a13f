"""engine/scenario: the TOML scenario format and its precise errors."""

from __future__ import annotations

import ast
import dataclasses
import re
import tomllib
from importlib import resources
from importlib.metadata import EntryPoint
from pathlib import Path

import msgspec
import pytest

from grognard.core.errors import ScenarioError
from grognard.core.hexgrid import Hex
from grognard.core.mapdata import CityClass, HexsideFeature, Terrain
from grognard.engine import plugins
from grognard.engine import scenario as scenario_module
from grognard.engine.scenario import (
    ScenarioSection,
    SectionContext,
    load_scenario,
    parse_scenario,
    shipped_scenarios,
)
from grognard.engine.system import system_named
from grognard.europa import ledger as europa_ledger

DEMO = resources.files("grognard.data").joinpath("scenarios", "demo-europa.toml").read_text()


def test_shipped_demos_load():
    assert {"demo-europa", "demo-third-reich"} <= set(shipped_scenarios())
    eu = load_scenario("demo-europa")
    assert eu.map.n == 96 and len(eu.placements) == 7 and eu.sides == ("axis", "soviet")
    lay = eu.map.layout
    assert eu.map.terrain_of(lay.from_label("0301")) is Terrain.WOODS
    assert eu.map.features_between(lay.from_label("0505"), lay.from_label("0605")) \
        & HexsideFeature.MAJOR_RIVER
    assert CityClass.MAJOR_CITY in eu.map.cities_at(lay.from_label("0805"))[0].classes
    tr = load_scenario("demo-third-reich")
    assert tr.map.layout.style == "letter"
    assert tr.map.country_of(tr.map.layout.from_label("C8")) == "germany"
    assert {"murmansk", "sw"} <= set(tr.map.boxes)
    assert any(p.hidden for p in tr.placements)
    assert tr.home_countries["germany"] == ("germany",)


def test_home_countries_must_exist():
    text = resources.files("grognard.data").joinpath("scenarios", "demo-third-reich.toml") \
        .read_text().replace('germany = ["germany"]', 'germany = ["prussia"]')
    with pytest.raises(ScenarioError, match="home_countries.germany.*unknown country 'prussia'"):
        parse_scenario(text, "x.toml")


def test_grid_builds_adjacency():
    eu = load_scenario("demo-europa")
    i = eu.map.index(eu.map.layout.from_label("0505"))
    assert eu.map.degree(i) == 6
    corner = eu.map.index(eu.map.layout.from_label("0101"))
    assert eu.map.degree(corner) < 6


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda s: s.replace('grid = """\n..ww', 'grid = """\n..wx'),
         "hex 0401: unknown terrain code 'x'"),
        (lambda s: s.replace('hex = "0404"', 'hex = "2020"'),
         "hex 2020: unit de-7pz is stacked off-map"),
        (lambda s: s.replace('id = "de-20mot"', 'id = "de-7pz"'), "duplicate unit id 'de-7pz'"),
        (lambda s: s.replace('side = "soviet"\ntype = "armor"', 'side = "allies"\ntype = "armor"'),
         "unit su-23tank has side 'allies'"),
        (lambda s: s.replace('between = ["0503", "0603"]', 'between = ["0503", "0903"]'),
         "0503 and 0903 are not adjacent"),
        (lambda s: s.replace('classes = ["major_city"]', 'classes = ["megacity"]'),
         "unknown city class 'megacity'"),
        (lambda s: s.replace('features = ["river"]', 'features = ["lava"]', 1),
         "unknown hexside feature 'lava'"),
        (lambda s: s.replace('type = "motorized"', 'type = "hovercraft"'),
         "unit de-20mot.type: unknown unit type 'hovercraft'"),
        (lambda s: s.replace("seed = 1941", "seed = -3"), "scenario.seed: expected an integer >= 0"),
        (lambda s: s.replace("[scenario]", "[scenario", 1), "not valid TOML"),
        (lambda s: s.replace('hex = "0904"', 'box = "nowhere"') if 'hex = "0904"' in s
         else s.replace('hex = "0905"', 'box = "nowhere"'), "unknown box 'nowhere'"),
    ],
)
def test_bad_scenarios_get_specific_errors(mutate, expected):
    bad = mutate(DEMO)
    assert bad != DEMO
    with pytest.raises(ScenarioError) as exc:
        parse_scenario(bad, "bad.toml")
    assert expected in str(exc.value)
    assert str(exc.value).startswith("bad.toml")


def test_terrain_error_names_the_line():
    bad = DEMO.replace('grid = """\n..ww', 'grid = """\n..wx')
    with pytest.raises(ScenarioError) as exc:
        parse_scenario(bad, "bad.toml")
    grid_line = next(i for i, ln in enumerate(bad.splitlines(), 1) if ln.startswith("grid"))
    assert exc.value.line == grid_line + 1


def test_missing_file():
    with pytest.raises(ScenarioError, match="cannot read"):
        load_scenario("/nonexistent/scenario.toml")


def test_hex_list_map_and_letter_labels():
    text = """
[scenario]
id = "tiny"
sides = ["a", "b"]
[map]
layout = { offset = "odd-r", style = "letter" }
hexes = [{ hex = "A1", terrain = "clear" }, { hex = "A2", terrain = "swamp" }]
[[units]]
id = "u1"
side = "a"
hex = "A2"
"""
    sc = parse_scenario(text)
    assert sc.map.n == 2 and sc.map.terrain_of(sc.map.layout.from_label("A2")) is Terrain.SWAMP
    assert sc.map.has(Hex(0, 0))


def test_a_ground_unit_may_not_start_on_a_lake_or_sea_hex():
    """A scenario placing a division on water is refused with one line naming the unit and
    the hex (the shipped demo sector had its artillery on the lake at 0304)."""
    text = (Path(__file__).parent / "data" / "generic.toml").read_text(encoding="utf-8")
    bad = text.replace('re_size = 1\nhex = "0305"', 're_size = 1\nhex = "0304"')
    with pytest.raises(ScenarioError, match=r"units\[3\]\.hex.*0304.*de-art stands on a lake"):
        parse_scenario(bad)


# --- a rule system's own table: the scenario_section hook (issue 22 items 2-3) ------------------

GENERIC = (Path(__file__).parent / "data" / "generic.toml").read_text(encoding="utf-8")


def test_issue22_the_system_section_is_parsed_once_into_scenario_rules():
    """The scenario's own system table is validated by that system's ``scenario_section``
    hook and kept, typed, on ``Scenario.rules`` (the rule packages read it there)."""
    eu = load_scenario("demo-europa")
    section = system_named(eu.system).scenario_section
    assert section is not None and section.name == eu.system
    assert isinstance(eu.rules.section, section.schema)
    assert eu.rules.table == tomllib.loads(eu.text)[section.name]
    victory = eu.rules.section.victory  # converted: a typed value, not the TOML table
    assert victory is not None and not isinstance(victory, dict) and victory.levels
    assert victory.levels[0].min == eu.rules.table["victory"]["levels"][0]["min"]
    tr = load_scenario("demo-third-reich")
    tr_section = system_named(tr.system).scenario_section
    assert tr_section is not None and isinstance(tr.rules.section, tr_section.schema)
    assert load_scenario("eurofront-1941").rules is None  # a system with no table of its own
    assert parse_scenario(GENERIC).rules is None


def test_issue22_a_section_check_names_file_field_and_line(monkeypatch):
    """A system's check raises through the engine's error helper: file, line, field, hex."""

    class Toy(msgspec.Struct, forbid_unknown_fields=True):
        base: str = ""
        depth: int = 0

    def check(value: Toy, ctx: SectionContext) -> tuple[str, int]:
        if value.base:
            ctx.label_hex(value.base, "toy.base", ctx.line)
        if (err := ctx.unknown_side("nobody", "toy.side", ctx.line)) is not None and \
                value.depth > 5:
            raise err
        return value.base, value.depth

    toy = dataclasses.replace(system_named("generic"), name="toy",
                              scenario_section=ScenarioSection("toy", Toy, check, ("toy_extra",)))
    monkeypatch.setitem(plugins._SYSTEMS, "toy", toy)
    text = GENERIC.replace('system = "generic"', 'system = "toy"')
    assert parse_scenario(text + '\n[toy]\nbase = "0503"\n').rules == ("0503", 0)
    assert parse_scenario(text + "\n[[toy_extra]]\nx = 1\n").rules == ("", 0)
    key = len(text.splitlines()) + 3  # the line of the key under [toy]
    for extra, match in (
            ('base = "2020"', r"x.toml:\d+, field toy.base, hex 2020: hex is off the map"),
            ("depth = 9", r"x.toml:\d+, field toy.side: unknown side 'nobody' \(sides: axis, "),
            ('depth = "9"', rf"x.toml:{key}, field toy.depth: expected an integer")):
        with pytest.raises(ScenarioError, match=match):
            parse_scenario(text + f"\n[toy]\n{extra}\n", "x.toml")


def test_issue22_other_systems_tables_are_tolerated_not_checked():
    """A table named after another rule system is accepted and left alone (a map file may
    carry several systems' facts; ``grognard map draw`` reads a map as a generic scenario);
    the tables only one system reads are refused elsewhere."""
    assert parse_scenario(GENERIC + "\n[europa]\nreplacements = 5\n").rules is None
    with pytest.raises(ScenarioError, match=r"x.toml:\d+, field air_situations: unknown table "
                                            r"\[air_situations\]"):
        parse_scenario(GENERIC + '\n[[air_situations]]\nid = "a"\n', "x.toml")
    tr = load_scenario("tr-air-zones")
    assert tr.rules.air_situations and tr.rules.air_situations[0]["id"]


def test_issue22_no_rule_package_parses_the_scenario_text_again():
    """The rule packages read their table from ``Scenario.rules``: none imports tomllib or
    hands ``scenario.text`` to a parser (the engine parsed it once)."""
    src = Path(__file__).resolve().parents[2] / "src" / "grognard"
    bad = []
    for package in ("europa", "third_reich", "eurofront"):
        for path in sorted((src / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if "import tomllib" in text or "include_map" in text or \
                    re.search(r"loads\([\w.]*\.text\b", text):
                bad.append(str(path.relative_to(src)))
    assert not bad, bad


def test_issue22_rule_packages_read_the_typed_section():
    """The 3R and Europa readers see the scenario's tables as the engine typed them: the 3R
    start state's sides, weather fronts and SW boxes, a Europa scenario's victory."""
    from grognard.engine.game import Game

    sc = load_scenario("tr-1939-campaign")
    raw = tomllib.loads(sc.text)["third_reich"]
    state = Game.new(sc, 1).state
    assert state["front_weather"] == raw.get("front_weather", {})
    assert all(state["power_sides"][p] == s for p, s in raw.get("sides", {}).items())
    eu = load_scenario("europa-barbarossa")
    written = tomllib.loads(eu.text)["europa"]["victory"]["objectives"]
    hexes = {h for ob in written for h in ob.get("hexes") or [ob["hex"]]}
    assert hexes and {o.hex for o in Game.new(eu, 1).objectives()} == hexes


def test_issue22_systems_come_from_entry_points(monkeypatch):
    """The rule systems are the ``grognard.systems`` entry points of the installed packages
    (pyproject.toml), plus the engine's generic one; the engine's code names none."""
    names = plugins.plugins()
    assert names[plugins.GENERIC] == "grognard.engine.generic"
    for name, module in names.items():
        assert system_named(name).name == name, module
    fake = [EntryPoint("toy", "toy_package.rules:SYSTEM", plugins.GROUP)]
    monkeypatch.setattr(plugins, "entry_points", lambda group: fake if group == plugins.GROUP
                        else [])
    assert plugins.plugins.__wrapped__() == {"generic": "grognard.engine.generic",
                                             "toy": "toy_package.rules"}


def test_issue22_without_entry_points_the_unknown_system_error_says_why(monkeypatch):
    """A stale install (no ``grognard.systems`` entry points) knows only the generic system:
    the one-line error says how to install the others."""
    text = GENERIC.replace('system = "generic"', 'system = "europe"')
    with pytest.raises(ScenarioError, match="unknown system 'europe'") as err:
        parse_scenario(text, "x.toml")
    assert "uv sync" not in str(err.value)
    only_generic = lambda: {"generic": "grognard.engine.generic"}  # noqa: E731
    monkeypatch.setattr(plugins, "plugins", only_generic)
    monkeypatch.setattr(scenario_module, "plugins", only_generic)
    with pytest.raises(ScenarioError, match=r"x.toml:\d+, field scenario.system: unknown system "
                                            r"'europe' \(known: .*\); no rule system is "
                                            r"installed: `uv sync`"):
        parse_scenario(text, "x.toml")


#: State keys and event types only a system's ``ledger`` / ``event_words`` hooks read (3R
#: ``economy``, Europa ``logistics`` and its postings, EuroFront ``pp``): exact strings, so a
#: word such as "supply" or "summary" elsewhere is not caught.
_HOOKED_KEYS = frozenset({"economy", "logistics", "pp", *europa_ledger.WORDS})


@pytest.mark.parametrize("floor", ["core", "engine", "server", "analysis", "ai"])
def test_issue22_no_code_outside_the_rule_packages_names_a_system(floor):
    """No string in the code of the floors below and above the rule packages (docstrings
    aside) is a rule system's name or one of its tables (``"europa"``, ``"third_reich.wars"``,
    ``"[europa]"``; a data table id such as ``europa_revised_crt`` or a shipped scenario's
    name is data): they come from the entry points and the systems' hooks; nor is it a state
    key or event type the ledger and event-words hooks read (:data:`_HOOKED_KEYS`)."""
    src = Path(__file__).resolve().parents[2] / "src" / "grognard" / floor
    systems = {n for n in plugins.plugins() if n != plugins.GENERIC}
    named = re.compile(rf"(^|\[)({'|'.join(map(re.escape, sorted(systems)))})($|[.\]])")
    assert systems and "sp_paid" in _HOOKED_KEYS
    bad = []
    for path in sorted(src.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef
                              | ast.AsyncFunctionDef)
                and n.body and isinstance(n.body[0], ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    id(node) not in docs and (named.search(node.value)
                                              or node.value in _HOOKED_KEYS):
                bad.append(f"{path.name}:{node.lineno}: {node.value[:40]!r}")
    assert not bad, bad
