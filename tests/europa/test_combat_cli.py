"""``grognard europa combat resolve|odds|allocate`` and ``grognard europa crt`` (in-process)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from grognard.cli import main

EXAMPLE = str(resources.files("grognard.data").joinpath("examples", "europa_attack.json"))
WD = str(resources.files("grognard.data").joinpath("examples",
                                                   "europa_attack_western_desert.json"))

RESOLVE_KEYS = {"odds", "column", "shifts", "drm", "drm_breakdown", "roll", "modified_roll",
                "result", "loss_unit", "attacker_loss", "defender_loss", "attacker_retreat",
                "defender_retreat"}
ODDS_KEYS = {"odds", "column", "drm", "loss_unit", "probabilities", "expected_attacker_loss",
             "expected_defender_loss"}


def run(capsys, *args):
    rc = main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


def write(tmp_path: Path, data) -> str:
    p = tmp_path / "attack.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    return str(p)


def test_eur09_resolve_json_with_roll(capsys):
    rc, out, _ = run(capsys, "europa", "combat", "resolve", EXAMPLE, "--roll", "7",
                     "--barrage-roll", "9", "--json")
    assert rc == 0
    d = json.loads(out)
    assert set(d) >= RESOLVE_KEYS
    assert d["column"] == "1-1" and d["roll"] == 7
    assert d["drm_breakdown"] == {"bombardment": 1, "armor": 0}
    assert d["modified_roll"] == 8 and d["result"] == "0"
    assert d["loss_unit"] == 6 and d["barrage"]["hits"] == 1


def test_eur09_resolve_with_seed_is_reproducible(capsys):
    a = run(capsys, "europa", "combat", "resolve", EXAMPLE, "--seed", "5", "--json")[1]
    b = run(capsys, "europa", "combat", "resolve", EXAMPLE, "--seed", "5", "--json")[1]
    assert a == b and 2 <= json.loads(a)["roll"] <= 12


def test_resolve_needs_a_barrage_roll_when_artillery_fires(capsys):
    rc, _, err = run(capsys, "europa", "combat", "resolve", EXAMPLE, "--roll", "7")
    assert rc == 2 and "barrage_roll" in err


def test_resolve_needs_roll_or_seed(capsys):
    rc, _, err = run(capsys, "europa", "combat", "resolve", WD, "--json")
    assert rc == 2 and "--roll" in err


def test_eur11_resolve_western_desert_losses(capsys):
    """9 vs 4 in desert: 2-1 with the armor +1, L = 2 (half the defender's 4): roll 7 ->
    8 -> DR; roll 5 -> 6 -> X1, both lose 2."""
    rc, out, _ = run(capsys, "europa", "combat", "resolve", WD, "--roll", "7", "--json")
    d = json.loads(out)
    assert rc == 0 and d["column"] == "2-1" and d["drm"] == 1
    assert d["result"] == "DR" and d["defender_retreat"] == 2 and d["attacker_loss"] == 0
    rc, out, _ = run(capsys, "europa", "combat", "resolve", WD, "--roll", "5", "--json")
    d = json.loads(out)
    assert d["result"] == "X1" and d["attacker_loss"] == 2 and d["defender_loss"] == 2


def test_odds_json(capsys):
    rc, out, _ = run(capsys, "europa", "combat", "odds", WD, "--json")
    d = json.loads(out)
    assert rc == 0 and set(d) >= ODDS_KEYS
    assert d["column"] == "2-1" and d["drm"] == 1 and d["loss_unit"] == 2
    assert d["probabilities"]["X1"] == "1/4"  # 2-1 at +1: rolls 5,6,7 -> 9/36
    assert d["expected_attacker_loss"] == "5/9"  # 2 SP x 10/36


def test_odds_human(capsys):
    rc, out, _ = run(capsys, "europa", "combat", "odds", EXAMPLE)
    assert rc == 0 and "probability" in out


def test_eur_tv01_allocate_western_desert(capsys):
    """EUR-TV01 through the CLI: requirement 2, the 9-10 panzer to cadre: 2 armor REs."""
    rc, out, _ = run(capsys, "europa", "combat", "allocate", WD, "--side", "attacker",
                     "--requirement", "2", "--units", "21pz", "--json")
    assert rc == 0
    assert json.loads(out) == {"valid": True, "credited": 9, "excess": 7,
                               "replacements": {"series": "re", "armor": 2, "infantry": 0},
                               "reason": None}


def test_eur12_allocate_rejects_with_rule_and_unit(capsys):
    rc, out, _ = run(capsys, "europa", "combat", "allocate", EXAMPLE, "--side", "attacker",
                     "--requirement", "3", "--units", "12inf", "--json")
    d = json.loads(out)
    assert rc == 0 and d["valid"] is False and d["credited"] is None
    assert "EUR-12" in d["reason"] and "12inf" in d["reason"]


def test_eur12_allocate_fractional_requirement(capsys):
    rc, out, _ = run(capsys, "europa", "combat", "allocate", EXAMPLE, "--side", "defender",
                     "--requirement", "4.5", "--units", "10tank", "--json")
    d = json.loads(out)
    assert rc == 0 and d["valid"] is False and "short" in d["reason"]
    _rc, out, _ = run(capsys, "europa", "combat", "allocate", EXAMPLE, "--side", "defender",
                     "--requirement", "9/2", "--units", "10tank,62rifle", "--json")
    d = json.loads(out)
    assert d["valid"] is True and d["credited"] == 10 and d["excess"] == "5.5"
    # the tank's 4 is used up by the requirement; the excess 5.5 is the rifle's: 5 - 1 = 4
    assert d["replacements"] == {"series": "factor", "armor": 0, "infantry": 4}


@pytest.mark.parametrize(("args", "field"), [
    (["--side", "attacker", "--requirement", "2", "--units", "ghost"], "--units"),
    (["--side", "attacker", "--requirement", "2", "--units", "62rifle"], "--units"),
    (["--side", "middle", "--requirement", "2", "--units", "7pz"], "--side"),
    (["--side", "attacker", "--requirement", "-1", "--units", "7pz"], "--requirement"),
    (["--side", "attacker", "--requirement", "x", "--units", "7pz"], "--requirement"),
])
def test_allocate_bad_input_names_the_field(capsys, args, field):
    rc, _, err = run(capsys, "europa", "combat", "allocate", EXAMPLE, *args, "--json")
    assert rc == 2 and field in err


@pytest.mark.parametrize(("patch", "field"), [
    ({"terrain": "lava"}, "terrain"),
    ({"attackers": [{"id": "a", "attack": -4}]}, "attack"),
    ({"hexsides": ["moat"]}, "hexsides"),
    ({"bombardment": 3}, "bombardment"),
    ({"series": "points"}, "series"),
    ({"defenders": [{"id": "d", "supply": "maybe"}]}, "supply"),
])
def test_attack_json_bad_input_exits_2_naming_field(capsys, tmp_path, patch, field):
    data = json.loads(Path(WD).read_text(encoding="utf-8"))
    data.update(patch)
    rc, _, err = run(capsys, "europa", "combat", "odds", write(tmp_path, data), "--json")
    assert rc == 2 and field in err


def test_attack_json_not_json(capsys, tmp_path):
    p = tmp_path / "bad.json"
    p.write_text("{", encoding="utf-8")
    rc, _, err = run(capsys, "europa", "combat", "odds", str(p))
    assert rc == 2 and "ATTACK.json" in err


def test_crt_json(capsys):
    rc, out, _ = run(capsys, "europa", "crt", "--json")
    d = json.loads(out)
    assert rc == 0 and d["table"] == "europa_revised_crt" and d["drms"] == [-1, 0, 1, 2]
    assert len(d["rows"]) == 11 * 4
    top = next(r for r in d["rows"] if r["column"] == "7-1" and r["drm"] == 0)
    assert top == {"column": "7-1", "drm": 0, "p_attacker_loss": "1/6",
                   "e_attacker_loss_l": "1/6", "e_defender_loss_l": "65/36",
                   "p_defender_dislodged": "5/6"}


def test_crt_human_and_png(capsys, tmp_path):
    png = tmp_path / "crt.png"
    rc, out, _ = run(capsys, "europa", "crt", "--png", str(png))
    assert rc == 0 and "7-1" in out and png.read_bytes()[:4] == b"\x89PNG"


def test_crt_uses_override_table(capsys, tmp_path):
    """A user's CRT with the same id replaces the reconstruction (--tables DIR)."""
    rows = "".join(f'[[rows]]\nkey = {r}\nresults = ["A1", "D1"]\n' for r in range(2, 13))
    (tmp_path / "crt.toml").write_text(
        'id = "europa_revised_crt"\ntitle = "mine"\nsource = "user"\ndice = "2D6"\n'
        f'columns = ["1-1", "2-1"]\n{rows}', encoding="utf-8")
    rc, out, _ = run(capsys, "--tables", str(tmp_path), "europa", "crt", "--json")
    d = json.loads(out)
    assert rc == 0 and d["source"] == "user" and len(d["rows"]) == 8
    assert d["rows"][0]["p_attacker_loss"] == "1/1"
