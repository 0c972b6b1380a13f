"""CLI of TR-27..TR-30 and TR-51: ``grognard 3r air-zone``, ``airdrop``, ``move-range``."""

from __future__ import annotations

import json

from grognard.cli import main


def run(capsys, *args):
    rc = main(["3r", *args])
    out = capsys.readouterr()
    return rc, out


def test_cli_tr30_air_zone_tv18_lorient(capsys):
    rc, out = run(capsys, "air-zone", "--situation", "example2-harwich", "--hex", "Lorient",
                  "--json")
    assert rc == 0
    data = json.loads(out.out)
    row = data["hexes"][0]
    assert (row["place"], row["friendly"], row["enemy"], row["uncontested_enemy"]) == \
        ("Lorient", 5, 10, True)
    rc, out = run(capsys, "air-zone", "--situation", "example2-harwich", "--hex", "Lorient",
                  "--neutralize", "ge-1", "--json")
    row = json.loads(out.out)["hexes"][0]
    assert (row["enemy"], row["contested"], row["uncontested_enemy"]) == (5, True, False)


def test_cli_tr30_air_zone_all_places_and_errors(capsys):
    rc, out = run(capsys, "air-zone", "--situation", "example1", "--json")
    data = json.loads(out.out)
    by = {r["place"]: r for r in data["hexes"]}
    assert not by["Syracuse"]["uncontested_enemy"] and by["Taranto"]["uncontested_enemy"]
    assert set(data) == {"situation", "title", "side", "air", "hexes"}
    rc, out = run(capsys, "air-zone", "--situation", "nope")
    assert rc == 2 and "nope" in out.err
    rc, out = run(capsys, "air-zone", "--situation", "example1", "--neutralize", "zz")
    assert rc == 2


def test_cli_tr51_airdrop(capsys):
    rc, out = run(capsys, "airdrop", "--interceptors", "5", "--roll", "10", "--phasing-roll",
                  "1", "--json")
    data = json.loads(out.out)
    assert rc == 0 and data["outcome"] == "destroyed" and data["hits_on_airborne"] == 3
    assert data["odds"] == {"landed": "4/5", "destroyed": "1/5"}
    rc, out = run(capsys, "airdrop", "--interceptors", "5", "--seed", "7", "--json")
    data = json.loads(out.out)
    assert 1 <= data["roll"] <= 10 and data["outcome"] in ("landed", "destroyed")
    rc, out = run(capsys, "airdrop", "--interceptors", "5")
    assert rc == 2 and "--roll" in out.err


def test_cli_tr28_move_range(capsys):
    rc, out = run(capsys, "move-range", "--row", "ccccc", "--row", "ccscc", "--at", "0101",
                  "--unit", "armor:4-5", "--enemy", "0501", "--river", "0201-0301", "--json")
    data = json.loads(out.out)
    assert rc == 0 and data["allowance"] == 5
    assert data["reachable"]["0301"] == 3 and data["reachable"]["0401"] == 5
    assert "0302" not in data["reachable"]  # swamp: all MPs, one-hex move only
    rc, out = run(capsys, "move-range", "--row", "ccccc", "--at", "0101", "--unit",
                  "armor:4-5", "--weather", "mud", "--json")
    assert json.loads(out.out)["allowance"] == 2
    rc, out = run(capsys, "move-range", "--row", "ccccc", "--at", "0101", "--unit", "tank")
    assert rc == 2
