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


def attack_battle_of(tmp_path, defender_side):
    import json

    d = {"id": "d1", "side": defender_side, "kind": "infantry", "factors": 3}
    if defender_side is None:
        del d["side"]
    path = tmp_path / "battle.json"
    path.write_text(json.dumps({
        "attackers": [{"id": "a1", "side": "axis", "kind": "armor", "factors": 4}],
        "defenders": [d]}))
    return str(path)


def test_cli_tr32_no_battle_between_units_of_the_same_side(capsys, tmp_path):
    """Issue 12: a battle whose attackers and defenders are on the same side is refused (TR-32);
    a defender without a side is taken as the other side's."""
    for cmd in (["combat", attack_battle_of(tmp_path, "axis"), "--roll", "7"],
                ["combat-odds", attack_battle_of(tmp_path, "axis")]):
        rc, _, err = run(capsys, *cmd)
        assert rc == 2 and "TR-32" in err and "both axis" in err
        assert len(err.strip().splitlines()) == 1
    rc, out, _ = run(capsys, "combat", attack_battle_of(tmp_path, None), "--roll", "7", "--json")
    assert rc == 0 and out.strip()


def test_tr32_battle_refuses_same_side_and_mixed_sides():
    """TR-32 in the pure function: a Battle of one side against itself, or mixing sides among
    its attackers, cannot be built."""
    import pytest

    from grognard.core.errors import InputError
    from grognard.third_reich.combat.combat import Battle
    from grognard.third_reich.turn.forces import GroundKind, GroundUnit, Side

    ax = GroundUnit("a", "german", Side.AXIS, GroundKind.INFANTRY, 3)
    al = GroundUnit("b", "british", Side.ALLIES, GroundKind.INFANTRY, 3)
    assert Battle((ax,), (al,)).attackers == (ax,)
    with pytest.raises(InputError, match="TR-32.*both axis"):
        Battle((ax,), (ax,))
    with pytest.raises(InputError, match="TR-32.*one side"):
        Battle((ax, al), (al,))


def test_cli_tr05_no_weather_a_region_cannot_have_in_that_season(capsys):
    """Issue 12: weather is fixed by region and season (TR-05): snow in a European Summer or
    mud in an eastern Winter is refused; Spring snow in Scandinavia (and its Spring 1940 clear
    exception) are accepted."""
    base = ["isolation", "--roll", "7", "--json"]
    for wx, season, region in (("snow", "summer1", "europe"), ("mud", "winter", "east"),
                               ("snow", "spring", "mediterranean")):
        rc, _, err = run(capsys, *base, "--weather", wx, "--season", season, "--region", region)
        assert rc == 2 and "TR-05" in err and f"never {wx}" in err
        assert len(err.strip().splitlines()) == 1
    for wx in ("snow", "clear"):
        rc, _, _ = run(capsys, *base, "--weather", wx, "--season", "spring",
                       "--region", "scandinavia")
        assert rc == 0
