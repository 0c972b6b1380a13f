"""CLI tests of ``grognard 3r`` naval, invasion and SR commands (in-process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grognard.cli import main

INVASION = {
    "beach": "Syracuse", "beach_air_zone": "contested",
    "groups": [{"hex": "S1", "zone": "mediterranean", "air_zone": "friendly",
                "fleets": [{"id": "rn", "factors": 9}],
                "units": [{"id": "a", "side": "allies", "factors": 3}],
                "cargo": {"rn": ["a"]}}],
    "defenders": [{"id": "d", "side": "axis", "factors": 2}],
}

SEASR = {
    "unit": "inf1", "unit_class": "ground", "power": "uk",
    "route": ["atlantic", "mediterranean"], "origin": "portsmouth", "destination": "alexandria",
    "escorts": {"atlantic": [{"id": "h1", "factors": 9}],
                "mediterranean": [{"id": "m1", "factors": 5}, {"id": "m2", "factors": 5}]},
    "escorts_after_combat": {"mediterranean": [{"id": "m1", "factors": 5},
                                               {"id": "m2", "factors": 3}]},
}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cli_trtv16_fleet_capacity(capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md TR-TV16: a 9-factor fleet transports 4, lifts 3, bombards with 3."""
    rc, out, _ = run(capsys, "3r", "fleet-capacity", "9", "--json")
    assert rc == 0
    assert json.loads(out) == {"factors": 9, "printed": 9, "transport": 4, "invasion": 3,
                               "bombardment": 3, "invasion_support": 3}


def test_cli_tr57_transport_and_over_capacity_error(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "3r", "transport", "9", "--cargo", "2", "--cargo", "2",
                     "--air-zone", "friendly", "--json")
    data = json.loads(out)
    assert rc == 0 and data["capacity"] == 4 and not data["naval_interception_possible"]
    rc, _, err = run(capsys, "3r", "transport", "9", "--cargo", "5", "--json")
    assert rc == 2 and "TR-57" in err


def test_cli_tr58_bombard_and_tr59_escort(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    rc, out, _ = run(capsys, "3r", "bombard", "7", "--json")
    assert rc == 0 and json.loads(out) == {"fleet": "fleet", "factors": 7, "support": 2}
    rc, out, _ = run(capsys, "3r", "escort", "5", "4", "--json")
    assert json.loads(out) == {"factors": 9, "reading": "factors9", "holds": True}
    r = tmp_path / "r.json"
    r.write_text('{"sr_escort_survival": "fleet9"}')
    rc, out, _ = run(capsys, "3r", "escort", "5", "4", "--readings", str(r), "--json")
    assert json.loads(out)["holds"] is False


def test_cli_tr61_invasion(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "inv.json"
    f.write_text(json.dumps(INVASION))
    rc, out, _ = run(capsys, "3r", "invasion", str(f), "--roll", "12", "--json")
    data = json.loads(out)
    assert rc == 0 and data["column"] == "3-2" and data["succeeded"] is True
    assert data["support"] == 3 and data["result"] == "D2R"
    empty = dict(INVASION, defenders=[])
    f.write_text(json.dumps(empty))
    rc, out, _ = run(capsys, "3r", "invasion", str(f), "--json")
    data = json.loads(out)
    assert data["automatic"] and data["must_advance"] == ["a"]
    rc, out, _ = run(capsys, "3r", "invasion", str(f), "--seed", "5", "--json")
    assert rc == 0
    bad = dict(INVASION, beach_air_zone="enemy")
    f.write_text(json.dumps(bad))
    rc, _, err = run(capsys, "3r", "invasion", str(f), "--roll", "7", "--json")
    assert rc == 2 and "TR-61" in err


def test_cli_tr66_sr_budget(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "3r", "sr-budget", "germany", "--json")
    assert json.loads(out) == {"power": "germany", "sr_actions": 9, "initial_from_us": 0}
    rc, _, err = run(capsys, "3r", "sr-budget", "narnia", "--json")
    assert rc == 2 and "power" in err


def test_cli_tr69_sea_sr_blocked(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "sr.json"
    f.write_text(json.dumps(SEASR))
    rc, out, _ = run(capsys, "3r", "sea-sr", str(f), "--json")
    data = json.loads(out)
    assert rc == 0 and data["status"] == "blocked" and data["blocked_in"] == "mediterranean"
    assert data["interception_points"] == ["J-ATL-MED", "alexandria"]
    f.write_text(json.dumps({k: v for k, v in SEASR.items() if k != "escorts_after_combat"}))
    rc, out, _ = run(capsys, "3r", "sea-sr", str(f), "--json")
    assert json.loads(out)["status"] == "done"


def test_cli_tr68_land_sr_and_tr70_fleet_sr(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    f = tmp_path / "path.json"
    f.write_text(json.dumps([{"hex": "A"}, {"hex": "F", "enemy_zoc": True}]))
    rc, out, _ = run(capsys, "3r", "land-sr", str(f), "--json")
    data = json.loads(out)
    assert rc == 0 and data["ok"] is False and data["rule"] == "TR-67"
    f.write_text(json.dumps([{"hex": "A"}, {"hex": "F", "enemy_zoc": True,
                                            "friendly_occupied": True}]))
    rc, out, _ = run(capsys, "3r", "land-sr", str(f), "--json")
    assert json.loads(out)["ok"] is True
    rc, out, _ = run(capsys, "3r", "fleet-sr", "--from-air", "contested", "--json")
    assert json.loads(out) == {"ok": True, "naval_interception": False}


def test_cli_tr56_sea_zones(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "3r", "sea-zones", "--port", "gibraltar", "--json")
    assert json.loads(out)["zones"] == ["atlantic", "mediterranean"]
    rc, out, _ = run(capsys, "3r", "sea-zones", "--json")
    assert rc == 0
    assert any(j["hex"] == "M10" for j in json.loads(out)["junctions"])


def test_cli_tr61_invasion_odds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "inv.json"
    f.write_text(json.dumps(INVASION))
    rc, out, _ = run(capsys, "3r", "invasion-odds", str(f), "--json")
    assert rc == 0 and json.loads(out) == {"beach": "Syracuse", "success": "5/18"}
