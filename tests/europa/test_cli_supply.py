"""CLI ``grognard europa supply ...`` (EUR-31..EUR-45), in process."""

from __future__ import annotations

import json

from grognard.cli import main


def run(capsys, *args):
    rc = main(["europa", "supply", *args, "--json"])
    out = capsys.readouterr()
    return rc, (json.loads(out.out) if rc == 0 else out.err)


def test_eur37_cli_costs_tv11(capsys):
    rc, data = run(capsys, "costs", "--mech", "2", "--motorized", "1", "--combat", "1+2:art",
                   "--air", "5")
    assert rc == 0 and data["exact"] == "7.5" and data["total"] == 8
    rc, data = run(capsys, "costs", "--mech", "2", "--motorized", "1", "--combat", "1+2:art",
                   "--air", "5", "--reading", "sp_half_rounding=exact")
    assert data["total"] == "7.5"


def test_eur41_cli_receipt(capsys):
    rc, data = run(capsys, "receipt", "german", "--zone", "1", "--date", "1941-07",
                   "--weather", "mud")
    assert rc == 0 and data["received"] == 140 and data["base"] == 200


def test_eur38_cli_stockpile_tv04(capsys):
    rc, data = run(capsys, "stockpile", "100", "--from", "2", "--to", "3")
    assert rc == 0 and (data["after"], data["reduction"]) == (75, 25)


def test_eur32_cli_isolation(capsys):
    rc, data = run(capsys, "isolation", "--roll", "7", "--strength", "12", "--adjacent-enemy")
    assert rc == 0 and data["loss"] == 6 and data["loss_chance"] == "7/12"


def test_eur31_cli_breakout_tv06(capsys):
    rc, data = run(capsys, "breakout", "12", "--modified-roll", "6")
    assert rc == 0 and data["infantry_replacements"] == 1
    rc, data = run(capsys, "breakout", "12", "--drm", "0")
    assert [o["infantry_replacements"] for o in data["odds"]] == [1, 3]
    assert data["odds"][0]["probability"] == "5/12"


def test_eur33_cli_replacements(capsys):
    rc, data = run(capsys, "replacements", "cadre_destroyed", "--pool", "armor")
    assert data["options"] == [{"action": "return_cadre", "cost": 1, "pool": "armor"}]
    rc, data = run(capsys, "replacements", "cadre_on_map", "--attacked")
    assert rc == 0 and data["options"] == []


def test_eur42_cli_soviet_rps(capsys):
    rc, data = run(capsys, "soviet-rps", "--location", "moskva", "--factories", "2")
    assert rc == 0
    assert (data["infantry"], data["armor_or_artillery"], data["total"]) == (6, 4, 10)


def test_eur35_cli_truck(capsys):
    rc, data = run(capsys, "truck", "clear", "--extended")
    assert rc == 0
    assert (data["hexes"], data["supply"]) == (8, "defensive")


def test_eur45_cli_air_surprise_tv09(capsys):
    rc, data = run(capsys, "air-surprise", "20", "7")
    assert rc == 0 and data["eliminated"] == [10, 3]


def test_cli_supply_errors_exit_2(capsys):
    rc, err = run(capsys, "costs", "--combat", "x")
    assert rc == 2 and "--combat" in err
    rc, err = run(capsys, "receipt", "italian", "--zone", "1", "--date", "1941-07")
    assert rc == 2 and "side" in err
    rc, err = run(capsys, "costs", "--reading", "nope=1")
    assert rc == 2 and "nope" in err
    rc, err = run(capsys, "breakout", "12")
    assert rc == 2


def test_eur30_cli_phase_example(capsys):
    from pathlib import Path

    ex = Path(__file__).parents[2] / "src/grognard/data/examples/europa_supply_phase.json"
    rc, data = run(capsys, "phase", str(ex))
    assert rc == 0 and data["isolated"] == ["pocket"] and data["isolated_hexes"] == ["0101"]
    rc, err = run(capsys, "phase", "/nonexistent.json")
    assert rc == 2 and "file" in err


def test_eur37_cli_costs_refuses_a_5000_digit_division_count_in_one_line(capsys):
    """Found by the long CLI fuzz: ``--combat 999...9`` (5,000 digits) raised Python's
    integer-string limit as a traceback."""
    rc, err = run(capsys, "costs", "--combat", "9" * 5000)
    assert rc == 2 and "at most 999999 divisions" in err and len(err.strip().splitlines()) == 1
    rc, err = run(capsys, "costs", "--combat", "1+" + "9" * 5000)
    assert rc == 2 and "at most 999999" in err


def test_sur15_ef13_cli_digit_strings_are_bounded_before_reading(capsys):
    """The same integer-string limit in two more parsers: a stack's ZOC size (SUR-15 markers)
    and EuroFront's airpower-disruption rolls (EF-13)."""
    rc = main(["europa", "surprise", "markers", "--result", "F", "--nationality",
               "german:" + "9" * 5000, "--distance", "1", "--level", "5", "--year", "1941"])
    err = capsys.readouterr().err
    assert rc == 2 and "at most 6 digits" in err and len(err.strip().splitlines()) == 1
    rc = main(["eurofront", "disruption", "--hq", "battle", "--strength", "1", "--difference", "1",
               "--rolls", "9" * 5000])
    err = capsys.readouterr().err
    assert rc == 2 and "at most 6 digits" in err and len(err.strip().splitlines()) == 1
