"""Issue 12: the ``grognard 3r`` calculators refuse what the rules forbid, with one line naming
the rule (exit 2): strategic warfare before Spring 1940 (TR-08), mechanized movement in snow or
mud (TR-06), air drops of 0 factors (TR-51), fleets of more than 9 factors (TR-76), half-BRP
spending (TR-31)."""

from __future__ import annotations

from grognard.cli import main


def run(capsys, *args):
    rc = main(["3r", *args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cli_tr08_no_strategic_warfare_before_spring_1940(capsys):
    rc, _, err = run(capsys, "sw", "--subs", "3", "--rolls", "5,5", "--turn", "2")
    assert rc == 2 and "TR-08" in err and len(err.strip().splitlines()) == 1
    rc, _, _ = run(capsys, "sw", "--subs", "3", "--rolls", "5,5", "--turn", "3", "--json")
    assert rc == 0


def test_cli_tr06_no_mechanized_movement_in_snow_or_mud(capsys):
    for wx in ("snow", "mud"):
        rc, _, err = run(capsys, "move-range", "--row", "ccccc", "--at", "0101", "--unit",
                         "armor:4-5", "--phase", "mechanized", "--weather", wx)
        assert rc == 2 and "TR-06" in err
    rc, _, _ = run(capsys, "move-range", "--row", "ccccc", "--at", "0101", "--unit",
                   "armor:4-5", "--phase", "mechanized", "--json")
    assert rc == 0


def test_cli_tr51_no_air_drop_of_0_factors(capsys):
    rc, _, err = run(capsys, "airdrop", "--factors", "0")
    assert rc == 2 and "factor" in err


def test_cli_tr76_no_fleet_over_9_factors(capsys):
    rc, _, err = run(capsys, "fleet-capacity", "12")
    assert rc == 2 and "TR-76" in err


def test_cli_tr31_no_half_brp_spending(capsys, tmp_path):
    path = tmp_path / "l.json"
    assert main(["3r", "ledger", "new", "--out", str(path)]) == 0
    capsys.readouterr()
    rc, _, err = run(capsys, "ledger", "spend", str(path), "--power", "germany", "--amount",
                     "5/2")
    assert rc == 2 and "TR-31" in err
