"""SUR-04..SUR-14 through an order file: plan, fund, adjust, execute and audit a surprise turn.

Source: /work/shared/seeds/000_0eee5b9a7c244d48.txt (Europa rule 47.A.2).
"""

import json
from fractions import Fraction

import pytest

from grognard.cli import main
from grognard.core.errors import IllegalOrder, InputError
from grognard.europa.surprise.orders import load_orders, run_orders

BARBAROSSA = {
    "side": "axis", "command": "AGC", "continent": "europe",
    "centre": "2515", "level": 30, "turn": 1, "target_turn": 7,
    "sources": [{"kind": "national_pool", "srp": 30, "sp": 155, "label": "German pool"}],
    "centre_hex": {"in_enemy_zoc": True},
    "steps": [
        {"op": "delay", "turns": 1},
        {"op": "reduce_level", "level": 10, "turn": 8},
        {"op": "move_centre", "to": "2517", "hexes": 2},
        {"op": "start", "turn": 8},
    ],
}


def test_sur09_orders_replay_the_text_example_and_audit_every_point():
    """Seed 000 §47.A.2.e example inside a whole plan: the 30 -> 10 reduction returns 16 SRPs
    and 108.8 SPs to the national pool; every posting names its rule."""
    run = run_orders(BARBAROSSA)
    data = run.to_json()
    ops = [e["op"] for e in data["events"]]
    assert ops == ["designate", "delay", "reduce_level", "move_centre", "start"]
    red = data["events"][2]
    assert (red["srp_returned"], red["sp_returned"], red["returned_to"]) == (
        16, "108.8", "national_pool")
    # 30 + 7.5 - 16 - 5 SRPs; 155 + 38.75 - 108.8 - 7 - 6 SPs
    assert run.plan.srp_spent == Fraction(33, 2)
    assert run.plan.sp_spent == Fraction(1439, 20)
    assert [e["rule"] for e in data["plan"]["ledger"]["entries"]] == [
        "SUR-05", "SUR-05", "SUR-11", "SUR-11", "SUR-09", "SUR-09", "SUR-10", "SUR-04", "SUR-04"]
    assert data["plan"]["level"] == 8 and data["plan"]["re_cap"] == 36


def test_orders_errors_name_the_field_and_rule():
    with pytest.raises(InputError, match="level"):
        run_orders({**BARBAROSSA, "level": "thirty"})
    with pytest.raises(InputError, match=r"steps\[0\]\.op"):
        run_orders({**BARBAROSSA, "steps": [{"op": "teleport"}]})
    with pytest.raises(InputError, match=r"sources\[0\]\.kind"):
        run_orders({**BARBAROSSA, "sources": [{"kind": "bank", "srp": 30, "sp": 155}]})
    with pytest.raises(IllegalOrder, match="SUR-09"):
        run_orders({**BARBAROSSA, "steps": [{"op": "reduce_level", "level": 40, "turn": 7}]})
    with pytest.raises(IllegalOrder, match="SUR-07"):
        run_orders({**BARBAROSSA, "centre_hex": {"behind_enemy_front_line": True}})
    with pytest.raises(InputError, match="readings.nope"):
        run_orders({**BARBAROSSA, "readings": {"nope": True}})


def test_orders_cli_plan(tmp_path, capsys):
    f = tmp_path / "barbarossa.json"
    f.write_text(json.dumps(BARBAROSSA))
    assert load_orders(f)["level"] == 30
    assert main(["europa", "surprise", "plan", str(f), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["plan"]["sp_spent"] == "71.95"
    assert main(["europa", "surprise", "plan", str(tmp_path / "missing.json"), "--json"]) == 2
    assert "missing.json" in capsys.readouterr().err
