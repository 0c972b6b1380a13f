"""The packages that were untangled stay free of import circles (issue 11 item 4): a module never
imports, even inside a function, a module that imports it back. Read from the source (AST), not
by importing, so lazy imports count too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


def _modules() -> dict[str, Path]:
    out = {}
    for p in (SRC / "grognard").rglob("*.py"):
        name = ".".join(p.relative_to(SRC).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = p
    return out


def _imports(mods: dict[str, Path], name: str) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(mods[name].read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                full = f"{node.module}.{a.name}"
                out.add(full if full in mods else node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m in mods and m != name}


def _cycles(prefix: str) -> list[list[str]]:
    """The import circles among the modules under ``prefix``."""
    mods = _modules()
    inside = sorted(m for m in mods if m == prefix or m.startswith(prefix + "."))
    return _circles({m: {t for t in _imports(mods, m) if t in inside} for m in inside})


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for m in sorted(graph):
        if m not in index:
            visit(m)
    return found


@pytest.mark.parametrize("package", ["grognard.core", "grognard.engine", "grognard.europa"])
def test_no_import_circles(package: str) -> None:
    assert _cycles(package) == []


def test_the_check_sees_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []
