"""The import graph of grognard: no circles, and each layer imports only the floors below it.

Read from the source (AST), so the test is fast and sees every module, imported or not. A module
imports another when a top-level statement (or one inside a top-level ``if``/``try``, but not
``if TYPE_CHECKING``) names it; importing ``a.b.c`` also runs ``a`` and ``a.b``. Imports inside
functions are deferred by design and not counted. ARCHITECTURE.md describes the layers.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

# ARCHITECTURE.md: core/ < engine/ < europa/, third_reich/, eurofront/ < bots/, analysis/, ai/,
# server/, cli/. A package may import its own floor and the floors below.
FLOOR = {"core": 0, "data": 0, "engine": 1, "europa": 2, "third_reich": 2, "eurofront": 2,
         "generic": 2}


def _modules() -> dict[str, Path]:
    out = {}
    for p in (SRC / "grognard").rglob("*.py"):
        parts = list(p.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    for node in body:
        if isinstance(node, ast.If):
            if "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            yield from _statements(node.body)
            yield from _statements(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                yield from _statements(block)
        else:
            yield node


def import_graph() -> dict[str, set[str]]:
    """Module -> the grognard modules its import runs (parent packages included)."""
    mods = _modules()

    def known(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    def with_parents(name: str | None) -> set[str]:
        out: set[str] = set()
        while name:
            if name in mods:
                out.add(name)
            name = name.rpartition(".")[0]
        return out

    graph: dict[str, set[str]] = {}
    for mod, path in mods.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        deps: set[str] = set()
        for node in _statements(ast.parse(path.read_text(encoding="utf-8")).body):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("grognard"):
                        deps |= with_parents(known(alias.name))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package
                    for _ in range(node.level - 1):
                        up = up.rpartition(".")[0]
                    base = f"{up}.{base}" if base else up
                if not base.startswith("grognard"):
                    continue
                for alias in node.names:
                    deps |= with_parents(known(f"{base}.{alias.name}"))
        deps -= with_parents(mod)  # a module never "imports" itself or its own packages
        graph[mod] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        found.append(sorted(comp))
    return found


def test_cycles_finds_a_circle():
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(g) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_among_grognard_modules():
    found = cycles(import_graph())
    assert not found, "import circles: " + "; ".join(" <-> ".join(c) for c in found)


def _floor(mod: str) -> int:
    top = mod.split(".")[1] if "." in mod else ""
    return FLOOR.get(top, 3)


def test_layers_import_only_lower_floors():
    """ARCHITECTURE.md: core < engine < rule packages < bots/analysis/ai/server/cli; rule packages
    do not import each other."""
    bad = []
    for mod, deps in import_graph().items():
        for dep in deps:
            if dep == "grognard" or mod == "grognard":
                continue
            same = dep.split(".")[1] == mod.split(".")[1]
            if not same and _floor(dep) >= _floor(mod) and _floor(mod) < 3:
                bad.append(f"{mod} -> {dep}")
    assert not bad, "imports against the layers: " + ", ".join(sorted(bad))


def _tr_wiring(m: str) -> bool:
    """3R modules that wire rules into the engine: ``play``, each section's ``orders``
    (one Order per command kind, issue 22) and the system's ``odds`` hook."""
    return m.startswith("grognard.third_reich.play") or ".orders" in m or \
        m == "grognard.third_reich.combat.odds"


def test_third_reich_rules_do_not_import_the_engine_system():
    """The 3R rule sub-packages are pure rules; only third_reich.play and the sections'
    orders wire them into the engine (no rule module imports either)."""
    bad = sorted(f"{m} -> {d}" for m, deps in import_graph().items()
                 if m.startswith("grognard.third_reich.") and not _tr_wiring(m)
                 for d in deps if _tr_wiring(d))
    assert not bad, ", ".join(bad)
