"""Issue 22 on the Europa system: one Order per command kind, listed once, no registry lookups
from rule code, and the system's ``odds`` hook (EUR-09)."""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

import pytest
from tests.europa.positions import demo_attack

from grognard.core.errors import InputError
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.europa.combat.commands import attack_json, attack_model
from grognard.europa.combat.odds import attack_odds
from grognard.europa.play.system import EUROPA, ORDERS

SRC = Path(__file__).resolve().parents[2] / "src" / "grognard" / "europa"


def test_issue22_every_europa_command_kind_is_one_order_listed_once():
    kinds = [o.kind for o in ORDERS]
    assert len(kinds) == len(set(kinds))
    assert set(EUROPA.commands) == {*kinds, "roll_table"}
    for o in ORDERS:
        assert o.rule.startswith(("EUR-", "SUR-")), o.kind
        assert o.help and o.folds is not None
        # each Order lives in an orders package beside its rules
        assert ".orders." in type(o).__module__, o.kind
    # every event an Order emits has its fold in the system
    for o in ORDERS:
        assert set(o.folds) <= set(EUROPA.folds)


def test_issue22_rule_code_never_reads_the_engine_registry():
    """No Europa module looks its own command specs up in the engine's registry at run time
    (the import circle play/board.command_spec -> importlib is gone)."""
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "grognard.engine.system":
                names = {a.name for a in node.names}
                assert not names & {"system_named", "registered_systems"}, path
            if isinstance(node, ast.Name):
                assert node.id not in ("command_spec", "europa_system"), path


def test_issue22_unknown_arguments_are_refused_in_one_line():
    g = Game.new("demo-europa", seed=2)
    with pytest.raises(InputError) as e:
        g.verify(Command("move", "axis", {"unit": "de-7pz", "to": "0504", "mp": 1}))
    assert "args.mp" in str(e.value) and "\n" not in str(e.value)


def test_eur09_odds_hook_is_the_exact_distribution_of_the_attack_fought():
    g, cmd = demo_attack()
    out = g.odds(cmd)
    assert out["system"] == "europa" and out["odds"]["losses_in"] == "SPs"
    want = attack_odds(attack_model(g.context, attack_json(g.context, g.state, "axis",
                                                           cmd.args)), g.context.tables)
    assert out["odds"]["column"] == "2-1" == want.setup.odds.column
    assert out["odds"]["probabilities"] == want.to_json()["probabilities"]
    assert sum(Fraction(p)
               for p in out["odds"]["probabilities"].values()) == 1
