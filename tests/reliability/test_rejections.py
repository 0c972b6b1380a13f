"""Issue 16: every input that used to crash or be silently accepted is refused with one line.

Each case here was found by hand or by tests/fuzz; the message names the file, the field (and
line or hex) and what was expected, and the CLI exits 2.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from pathlib import Path

import pytest

from grognard.cli import main
from grognard.core.errors import ScenarioError
from grognard.core.inputs import (
    MAX_DEPTH,
    InputFileError,
    load_json_text,
    load_toml_text,
    write_atomic,
)
from grognard.engine.game import Game
from grognard.engine.save import (
    SaveError,
    backup_path,
    dumps,
    loads,
    parse_command,
    save_game,
    save_lock,
)
from grognard.engine.scenario import load_scenario, parse_scenario

DEMO = load_scenario("demo-europa").text
TR = load_scenario("demo-third-reich").text


def refused(text: str, match: str, file: str = "bad.toml") -> str:
    with pytest.raises(ScenarioError, match=match) as exc:
        parse_scenario(text, file)
    msg = str(exc.value)
    assert "\n" not in msg and msg.startswith(file)
    return msg


# --- scenario TOML: silently accepted before ---------------------------------------------------

def test_unknown_system_is_refused_with_the_known_list():
    msg = refused(DEMO.replace('system = "europa"', 'system = "europe"'), "unknown system")
    assert "eurofront, europa, generic, third_reich" in msg and ":7" in msg


def test_hidden_must_be_true_or_false():
    refused(DEMO.replace('hex = "0404"', 'hex = "0404"\nhidden = "no"'),
            r"units\[0\].hidden: expected true or false, not 'no'")


def test_duplicate_city_and_box_ids():
    refused(DEMO + '\n[[cities]]\nhex = "0805"\nname = "Vitebsk"\n', "duplicate city 'Vitebsk'")
    refused(TR.replace("[[boxes]]", '[[boxes]]\nid = "dup"\n\n[[boxes]]', 1)
            .replace("[[boxes]]", '[[boxes]]\nid = "dup"\n\n[[boxes]]', 1)
            if TR.count("[[boxes]]") else TR, "box")


def test_zoc_class_out_of_range():
    refused(DEMO.replace("zoc_class = 2", "zoc_class = 99"), "zoc_class: must be from 0 to 3")


def test_trailing_space_in_a_hex_label():
    refused(DEMO.replace('hex = "0404"', 'hex = "0404 "'), "not written as on the map")


def test_turn_must_be_an_integer_in_a_third_reich_scenario():
    assert re.search(r"(?m)^turn = \d+$", TR)
    refused(re.sub(r"(?m)^turn = \d+$", "turn = 1.5", TR, count=1), "calendar.turn")


def test_unknown_layout_strings():
    refused(DEMO.replace('offset = "odd-q"', 'offset = "diagonal"'), "map.layout.offset")
    refused(DEMO.replace('style = "numeric"', 'style = "roman"'), "map.layout.style")


def test_unknown_table_is_refused():
    refused(DEMO.replace("[[units]]", "[[unit]]", 1), r"unknown table \[unit\]")


# --- scenario TOML: tracebacks before -----------------------------------------------------------

@pytest.mark.parametrize(("old", "new", "match"), [
    ('features = ["river"]', "features = 3", r"hexsides\[0\].features: expected an array"),
    ('classes = ["city"]', "classes = 5", r"classes: expected an array"),
    ("origin = 1", 'origin = "x"', "map.layout.origin: expected an integer"),
    ("[europa]", "[europa]\nreplacements = 5", "europa.replacements"),
])
def test_wrong_typed_scenario_fields(old, new, match):
    refused(DEMO.replace(old, new, 1), match)


def test_non_utf8_scenario_file_names_line_and_byte(tmp_path):
    p = tmp_path / "s.toml"
    p.write_bytes(DEMO.encode().replace(b"Vitebsk", b"Vit\xffbsk"))
    with pytest.raises(ScenarioError, match=r"s.toml:\d+: not valid UTF-8 \(byte 0xff"):
        load_scenario(p)


def test_deep_nesting_and_long_numbers_are_refused_before_parsing():
    with pytest.raises(InputFileError, match=f"nested more than {MAX_DEPTH} deep"):
        load_toml_text("a = " + "[" * 100_000 + "]" * 100_000, "x.toml")
    with pytest.raises(InputFileError, match="dotted key nested"):
        load_toml_text("a" + ".a" * 50_000 + " = 1", "x.toml")
    with pytest.raises(InputFileError, match="nested more than"):
        load_json_text("[" * 100_000, "x.json")
    with pytest.raises(InputFileError, match="longer than 64 digits"):
        load_json_text('{"n": ' + "9" * 5000 + "}", "x.json")
    with pytest.raises(InputFileError, match="NaN is not a JSON number"):
        load_json_text('{"n": NaN}', "x.json")


# --- commands -----------------------------------------------------------------------------------

def test_commands_refuse_fractions_nan_and_bad_shapes():
    with pytest.raises(InputFileError, match=r"args.brps.*20.9 is not an integer"):
        parse_command('{"kind": "murmansk_ship", "player": "allies", "args": {"brps": 20.9}}')
    with pytest.raises(InputFileError, match="NaN"):
        parse_command('{"kind": "move", "player": "axis", "args": {"x": NaN}}')
    with pytest.raises(InputFileError, match="lone surrogate"):
        parse_command('{"kind": "move", "player": "axis", "args": {"x": "\\ud800"}}')
    with pytest.raises(InputFileError, match="missing required field 'kind'"):
        parse_command('{"player": "axis"}')
    with pytest.raises(InputFileError, match="a command is a JSON object"):
        parse_command("[1]")


# --- saves --------------------------------------------------------------------------------------

def _save() -> dict:
    g = Game.new("demo-europa", 3)
    g.apply(next(c for c in g.legal("axis") if c.kind == "move"))
    return json.loads(dumps(g))


@pytest.mark.parametrize(("mutate", "match"), [
    (lambda s: s["events"][0][0].pop("type"), r"events\[0\]\[0\]: missing required field"),
    (lambda s: s.update(seed="x"), "seed: expected an integer"),
    (lambda s: s.update(commands=5), "commands: expected an array"),
    (lambda s: s["commands"][0].update(kind=7), r"commands\[0\].kind: expected a string"),
    (lambda s: s.update(scenario=[]), "scenario: expected a table"),
])
def test_save_fields_missing_or_wrong_type(mutate, match):
    raw = _save()
    mutate(raw)
    with pytest.raises(SaveError, match=match):
        loads(json.dumps(raw), "s.json")


def test_nan_and_lone_surrogates_never_reach_a_save(tmp_path):
    g = Game.new("demo-europa", 3)
    path = tmp_path / "g.json"
    save_game(g, path)
    before = path.read_bytes()
    g.state["units"]["de-7pz"]["nan"] = float("nan")
    with pytest.raises(SaveError, match="cannot be saved"):
        save_game(g, path)
    g.state["units"]["de-7pz"]["nan"] = "\ud800"
    with pytest.raises(SaveError, match="cannot be saved"):
        save_game(g, path)
    assert path.read_bytes() == before
    raw = _save()
    with pytest.raises(SaveError):
        loads(json.dumps(raw).replace('"format"', '"x": NaN, "format"'), "s.json")


# --- saves: atomic, backed up, locked, unpredictable seed ---------------------------------------

def test_a_failed_write_leaves_the_old_save_and_no_temporary_file(tmp_path, monkeypatch):
    g = Game.new("demo-europa", 3)
    path = tmp_path / "g.json"
    save_game(g, path)
    before = path.read_bytes()

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    g.apply(next(c for c in g.legal("axis") if c.kind == "move"))
    with pytest.raises(InputFileError, match="no space left on the device"):
        save_game(g, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_each_write_keeps_the_previous_save_as_bak(tmp_path):
    g = Game.new("demo-europa", 3)
    path = tmp_path / "g.json"
    first = save_game(g, path)
    g.apply(next(c for c in g.legal("axis") if c.kind == "move"))
    second = save_game(g, path)
    assert backup_path(path).read_text(encoding="utf-8") == first
    assert path.read_text(encoding="utf-8") == second


def test_a_held_save_lock_refuses_a_second_writer_with_a_clear_message(tmp_path):
    path = tmp_path / "g.json"
    with save_lock(path), pytest.raises(SaveError, match="in use by another grognard"), \
            save_lock(path, wait=0.05):
        pass


def test_output_paths_that_cannot_be_written(tmp_path):
    for bad, match in [(tmp_path, "it is a directory"),
                       (tmp_path / "missing" / "x.json", "does not exist"),
                       (tmp_path / ("n" * 300), "file name too long")]:
        with pytest.raises(InputFileError, match=match):
            write_atomic(bad, "x")
    if Path("/dev/full").exists():  # a device is written in place (never renamed over)
        with pytest.raises(InputFileError, match="no space left on the device"):
            write_atomic("/dev/full", "x")
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_game_new_without_seed_draws_a_fresh_recorded_seed(capsys, tmp_path):
    seeds = set()
    for i in range(3):
        code, out, _ = run(capsys, "game", "new", "demo-europa", "--out",
                           str(tmp_path / f"g{i}.json"), "--json")
        assert code == 0
        seed = json.loads(out)["seed"]
        assert json.loads((tmp_path / f"g{i}.json").read_text())["seed"] == seed
        seeds.add(seed)
    assert len(seeds) == 3 and load_scenario("demo-europa").seed not in seeds


# --- the CLI: one line, exit 2 ------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["europa", "surprise", "markers", "--result", "S", "--nationality", "soviet",
     "--distance", "0", "--level", "10", "--year", "1800"],
    ["europa", "surprise", "delay", "--level", "20", "--turns", "1000000000"],
    ["europa", "supply", "replacements", "cadre_destroyed", "--pool", "-5"],
    ["3r", "calendar", "9999"],
    ["3r", "weather", "--region", "east", "--turn", "9999"],
    ["3r", "airdrop", "--factors", "3", "--roll", "99"],
    ["europa", "supply", "breakout", "12", "--modified-roll", "99"],  # EUR-31: 2D6 -3..+2
    ["europa", "supply", "breakout", "12", "--modified-roll", "-2"],
    ["europa", "supply", "breakout", "12", "--drm", "-9"],
    ["europa", "surprise", "airbase-modifier", "--date", "1800-01-01"],  # SUR-24: 1936..1946
    ["europa", "supply", "soviet-rps", "--factories", "100000"],  # EUR-42: at most 15
    ["eurofront", "disruption", "--hq", "battle", "--strength", "2", "--difference", "9",
     "--rolls", "1,2"],  # EF-11: QF=4 minus SF=1 is 3 at most
    ["scenario", "validate", "nope-no-such-scenario"],
])
def test_calculators_refuse_out_of_range_values(capsys, args):
    code, _, err = run(capsys, *args)
    assert code == 2 and err.startswith("error:") and err.strip().count("\n") == 0


def test_year_start_refuses_negative_ussr_cities(capsys):
    from importlib import resources

    ledger = resources.files("grognard.data").joinpath("examples",
                                                      "tr_ledger_campaign_1939.json")
    code, _, err = run(capsys, "3r", "year-start", str(ledger), "--ussr-cities", "-4")
    assert code == 2 and "ussr_cities" in err


def test_bad_input_files_and_outputs_on_the_cli(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"a": "\xff"}')
    code, _, err = run(capsys, "europa", "combat", "odds", str(bad))
    assert code == 2 and "not valid UTF-8" in err
    code, _, err = run(capsys, "europa", "crt", "--png", str(tmp_path))
    assert code == 2 and "it is a directory" in err
    code, _, _ = run(capsys, "europa", "crt", "--png", str(tmp_path / "out.json"))
    assert code == 0 and (tmp_path / "out.json").read_bytes()[:4] == b"\x89PNG"


def test_reading_pairs_take_ascii_integers_only():
    """Found by tests/fuzz: ``--reading x=²`` passed ``str.isdigit`` and crashed ``int()``."""
    from grognard.core.readings import parse_pairs

    assert parse_pairs(["a=²", "b=-3"]) == {"a": "²", "b": -3}


@pytest.mark.parametrize("date", ["1999-13", "2100-01", "x"])
def test_supply_receipt_checks_the_date_for_every_side(capsys, date):
    """EUR-40 (issue 16): a German receipt ignored its date, so any string passed."""
    code, _, err = run(capsys, "europa", "supply", "receipt", "german", "--zone", "1",
                       "--date", date)
    assert code == 2 and "date" in err


def test_calculator_ranges_come_from_the_rules():
    """SUR-24, EUR-42, EF-11 (issue 16): an airbase surprise in 1800, 100,000 Soviet factories
    and an Air Power difference of 9 were accepted; the limits are the game's years, the
    factories the stated 60-RP maximum implies, and QF minus SF. Both ends are accepted."""
    import datetime as dt

    from grognard.core.errors import InputError
    from grognard.eurofront.disruption import apd_roll
    from grognard.europa.supply.replacements import implied_factories, soviet_rps
    from grognard.europa.surprise.airbase import airbase_modifier

    assert airbase_modifier(date=dt.date(1946, 12, 31)).modifier == 0
    with pytest.raises(InputError, match="1936..1946"):
        airbase_modifier(date=dt.date(1947, 1, 1))
    assert implied_factories() == 15 and soviet_rps([], 15).armor_or_artillery == 30
    with pytest.raises(InputError, match="at most 15 factories"):
        soviet_rps([], 16)
    assert len(apd_roll(1, 3, [6])) == 1
    with pytest.raises(InputError, match="difference is 0..3"):
        apd_roll(1, 4, [6])


def test_apply_or_undo_on_a_missing_save_is_one_line_and_leaves_no_lock_file(capsys, tmp_path):
    missing = tmp_path / "nope.json"
    for args in (["game", "apply", str(missing), '{"kind": "end_phase", "player": "axis"}'],
                 ["game", "undo", str(missing), "--player", "axis"]):
        code, _out, err = run(capsys, *args)
        assert code == 2 and "no such file" in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []
