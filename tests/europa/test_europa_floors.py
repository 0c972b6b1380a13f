"""The Europa sub-packages form a DAG (issue 22, tests/test_floors.py): the rule sections
(``combat``, ``supply``, ``air``, ``surprise``) never import ``europa.play``, the top that
wires them into the engine, and no two sections import each other. The order, bottom up:
combat, supply, air, surprise, play, then ``cli`` (the ``grognard europa`` commands, found
through the ``grognard.commands`` hook), which may run whole turns through ``play``."""

from __future__ import annotations

import ast
from pathlib import Path

EUROPA = Path(__file__).resolve().parents[2] / "src" / "grognard" / "europa"
SECTIONS = ("combat", "supply", "air", "surprise")
ORDER = ("combat", "supply", "air", "surprise", "play", "cli")


def _section_arrows() -> set[tuple[str, str, str]]:
    """(importing module, its section, the section it imports), every import anywhere."""
    out = set()
    for path in EUROPA.rglob("*.py"):
        rel = path.relative_to(EUROPA).parts
        if len(rel) < 2:
            continue  # a root module (board, logistics, ...): below or beside the sections
        mine = rel[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                parts = name.split(".")
                if parts[:2] == ["grognard", "europa"] and len(parts) > 2 and \
                        parts[2] in ORDER and parts[2] != mine:
                    out.add(("/".join(rel), mine, parts[2]))
    return out


def test_issue22_no_section_imports_europa_play():
    bad = sorted(f"{m} -> play" for m, mine, to in _section_arrows()
                 if to == "play" and mine in SECTIONS)
    assert not bad, bad


def test_issue22_europa_sections_import_only_those_below_them():
    arrows = _section_arrows()
    assert arrows, "the scan found no arrows between sections"
    bad = sorted(f"{m}: {a} -> {b}" for m, a, b in arrows
                 if a in ORDER and ORDER.index(b) > ORDER.index(a))
    assert not bad, bad
    assert {a for _, a, _ in arrows} >= {"air", "surprise", "play"}
