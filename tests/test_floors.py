"""The floors of grognard (issue 22 item 4): each package imports only the floors below it,
no module imports another in a circle, no sub-packages of a rule package depend on each other
both ways or in a longer cycle, and no module takes another package's private (underscore) names.

Read from the source (AST), so it sees every module, imported or not, and every import: at the
top, inside ``if``/``try``, and inside functions (a lazy import is still an arrow). Only
``if TYPE_CHECKING`` imports are left out of the circles (they never run).

ARCHITECTURE.md describes the floors:

    core, data                      the shared vocabulary
    engine                          scenario + seed + command log; the Order base and hooks
    europa, third_reich, eurofront  one package per rule document (never each other)
    bots, analysis, ai, server      through the rule-system interface only
    cli                             the thin command line: any floor below but the rule
                                    packages, whose commands it finds by the
                                    ``grognard.commands`` hook (pyproject.toml)

``DEBT`` lists each known arrow against these floors, by name; it may only shrink: a new
arrow fails, and an entry that no longer occurs fails until it is removed.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
RULES = frozenset({"europa", "third_reich", "eurofront"})
BASE = frozenset({"core", "data"})
#: package -> the top-level packages it may import (None: any).
ALLOWED: dict[str, frozenset[str] | None] = {
    "core": BASE,
    "data": BASE,
    "engine": BASE | {"engine"},
    **{r: BASE | {"engine", r} for r in RULES},
    "bots": BASE | {"engine", "bots"},
    "analysis": BASE | {"engine", "bots", "analysis"},
    "ai": BASE | {"engine", "bots", "ai"},
    "server": BASE | {"engine", "bots", "analysis", "server"},
    "cli": BASE | {"engine", "bots", "analysis", "server", "cli"},
    "": None,  # grognard/__init__, __main__
}

#: Known arrows against the floors (issue 22 removes them); the list may only shrink. A
#: ``cycle`` row names a strongly connected component of sub-packages: when an arrow out of
#: it goes, replace the row by the smaller component(s) that remain.
DEBT: frozenset[str] = frozenset()


def _modules() -> dict[str, Path]:
    out = {}
    for p in (SRC / "grognard").rglob("*.py"):
        parts = list(p.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def _nodes(body: list[ast.stmt], typing_only: bool = False
           ) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement, anywhere, with whether it is under ``if TYPE_CHECKING``."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, typing_only
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from _nodes(node.body, True)
            yield from _nodes(node.orelse, typing_only)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    yield from _nodes([child], typing_only)
                else:
                    for sub in ast.walk(child):
                        if isinstance(sub, ast.stmt):
                            yield from _nodes([sub], typing_only)


class Imports:
    """Module -> the grognard modules it imports (run-time and type-only), and the private
    names it takes from other modules."""

    def __init__(self) -> None:
        self.mods = _modules()
        self.run: dict[str, set[str]] = {}
        self.typing: dict[str, set[str]] = {}
        self.private: list[tuple[str, str, str]] = []
        for mod, path in self.mods.items():
            package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
            run, typ = set(), set()
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node, typing_only in _nodes(tree.body):
                into = typ if typing_only else run
                if isinstance(node, ast.Import):
                    into.update(t for a in node.names if (t := self.known(a.name)))
                    continue
                base = node.module or ""
                if node.level:
                    up = package
                    for _ in range(node.level - 1):
                        up = up.rpartition(".")[0]
                    base = f"{up}.{base}" if base else up
                if not base.startswith("grognard"):
                    continue
                for a in node.names:
                    target = self.known(f"{base}.{a.name}")
                    if target:
                        into.add(target)
                        if a.name.startswith("_") and not a.name.startswith("__"):
                            self.private.append((mod, target, a.name))
            self.run[mod] = run - {mod}
            self.typing[mod] = typ - {mod}

    def known(self, name: str) -> str | None:
        while name and name not in self.mods:
            name = name.rpartition(".")[0]
        return name or None


def top(mod: str) -> str:
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 and parts[1] not in ("__main__",) else ""


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan, iterative)."""
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
                if w not in graph:
                    continue
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
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


def sub_cycles(subs: dict[str, set[str]]) -> set[str]:
    """The cycles among a rule package's sub-packages (``subs``: sub-package -> the others it
    imports): each pair importing each other is a ``mutual`` row; a strongly connected
    component of three or more (a cycle of any length, e.g. combat -> conquest -> economy ->
    combat) is one ``cycle`` row naming its members. Listing every elementary cycle instead
    would name dozens of rows for one tangle; the component shrinks as its arrows go."""
    out = set()
    for a, bs in subs.items():
        for b in bs:
            if a < b and a in subs.get(b, set()):
                out.add(f"mutual: {a} <-> {b}")
    for comp in circles(subs):
        if len(comp) > 2:
            package = comp[0].rpartition(".")[0]
            out.add(f"cycle: {package}: " + ", ".join(c.rpartition(".")[2] for c in comp))
    return out


def found_debt(imp: Imports) -> set[str]:
    out = set()
    for mod in imp.mods:
        allowed = ALLOWED.get(top(mod), frozenset())
        if allowed is None:
            continue
        for dep in imp.run[mod] | imp.typing[mod]:
            if dep != "grognard" and top(dep) not in allowed:
                out.add(f"{mod} -> {dep}")
    for c in circles(imp.run):
        out.add("circle: " + ", ".join(c))
    subs: dict[str, set[str]] = {}
    for mod, deps in imp.run.items():
        if top(mod) not in RULES or mod.count(".") < 3:
            continue
        a = ".".join(mod.split(".")[:3])
        for dep in deps:
            b = ".".join(dep.split(".")[:3])
            if top(dep) == top(mod) and dep.count(".") >= 3 and a != b:
                subs.setdefault(a, set()).add(b)
    out |= sub_cycles(subs)
    # a module may take ``_name`` only from a module of its own package
    for m, t, name in imp.private:
        if m.rpartition(".")[0] != t.rpartition(".")[0] and t != m.rpartition(".")[0]:
            out.add(f"private: {m} takes {name} from {t}")
    return out


IMPORTS = Imports()


def test_circles_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_sub_cycles_of_any_length():
    """A cycle of three sub-packages is found, not only a pair importing each other."""
    three = {"g.r.a": {"g.r.b"}, "g.r.b": {"g.r.c"}, "g.r.c": {"g.r.a"}, "g.r.d": {"g.r.a"}}
    assert sub_cycles(three) == {"cycle: g.r: a, b, c"}
    pair = {"g.r.a": {"g.r.b"}, "g.r.b": {"g.r.a"}}
    assert sub_cycles(pair) == {"mutual: g.r.a <-> g.r.b"}
    assert sub_cycles({"g.r.a": {"g.r.b"}, "g.r.b": {"g.r.c"}, "g.r.c": set()}) == set()


def test_imports_inside_functions_are_seen():
    """A lazy import is an arrow too: engine/system.py imports rule packages only by name."""
    src = "def f():\n    from grognard.core import dice\n"
    nodes = list(_nodes(ast.parse(src).body))
    assert len(nodes) == 1 and not nodes[0][1]


def test_no_new_arrow_against_the_floors():
    new = sorted(found_debt(IMPORTS) - DEBT)
    assert not new, "against the floors (ARCHITECTURE.md):\n  " + "\n  ".join(new)


def test_debt_only_shrinks():
    gone = sorted(DEBT - found_debt(IMPORTS))
    assert not gone, "fixed - remove from DEBT in tests/test_floors.py:\n  " + "\n  ".join(gone)


def test_rule_packages_do_not_import_each_other():
    bad = sorted(f"{m} -> {d}" for m, deps in IMPORTS.run.items() if top(m) in RULES
                 for d in deps if top(d) in RULES and top(d) != top(m))
    assert not bad, ", ".join(bad)


def _tr_wiring(m: str) -> bool:
    """3R modules that wire rules into the engine: ``play``, each section's ``orders`` (one
    Order per command kind), the Order bases of the defender's reactions (``reactions``) and
    the system's hooks (``combat.odds``, ``words``)."""
    return m.startswith("grognard.third_reich.play") or ".orders" in m or \
        m in ("grognard.third_reich.combat.odds", "grognard.third_reich.words",
              "grognard.third_reich.reactions")


def test_third_reich_rules_do_not_import_the_engine_wiring():
    """The 3R rule modules are pure rules: only ``play`` and the sections' ``orders`` wire them
    into the engine, and no rule module imports either."""
    bad = sorted(f"{m} -> {d}" for m, deps in IMPORTS.run.items()
                 if m.startswith("grognard.third_reich.") and not _tr_wiring(m)
                 for d in deps if _tr_wiring(d))
    assert not bad, ", ".join(bad)


def _system_words() -> frozenset[str]:
    """What names a rule system: each system's name (``grognard.systems``), each rule
    package's, and each command word a package adds to the CLI (``grognard.commands``); read
    from the entry points, nothing imported."""
    from importlib.metadata import entry_points

    from grognard.engine.plugins import GENERIC, system_names

    words = {ep.name for ep in entry_points(group="grognard.commands")}
    return frozenset((set(system_names()) - {GENERIC}) | words | RULES)


def keyed_by_a_system(source: str, words: frozenset[str]) -> list[str]:
    """The string constants of ``source`` that are one of ``words`` or name a rule package's
    module (a lazy import by name)."""
    by_name = tuple(f"grognard.{r}" for r in sorted(RULES))
    found = {n.value for n in ast.walk(ast.parse(source))
             if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return sorted(c for c in found if c in words or c.startswith(by_name))


def lines_naming_a_system(source: str, words: frozenset[str]) -> list[str]:
    """``line: word`` for each line of ``source`` with one of ``words`` as a word of its own
    (not inside an id such as ``demo-europa``)."""
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(words))) + r")(?![\w-])")
    return [f"{n}: {m.group(0)}" for n, line in enumerate(source.splitlines(), 1)
            if (m := pattern.search(line))]


def test_issue22_the_system_checks_can_fail():
    words = _system_words()
    assert {"europa", "third_reich", "eurofront", "3r"} <= words
    src = ('import importlib\n'
           'def register(app):\n'
           '    importlib.import_module("grognard.third_reich.cli")\n'
           '    app.add_typer(sub, name="3r", help="See demo-europa.")  # europa\n')
    assert keyed_by_a_system(src, words) == ["3r", "grognard.third_reich.cli"]
    assert lines_naming_a_system(src, words) == ["3: third_reich", "4: 3r"]


def test_issue22_no_module_above_the_rule_packages_keys_anything_by_a_system():
    """Issue 22: outside europa/, third_reich/ and eurofront/ no string constant is a system's
    name or a command word a rule package adds to the CLI, or names a rule package's module."""
    words = _system_words()
    bad = sorted(f"{mod}: {c!r}" for mod, path in IMPORTS.mods.items() if top(mod) not in RULES
                 for c in keyed_by_a_system(path.read_text(encoding="utf-8"), words))
    assert not bad, "\n  ".join(bad)


def test_issue22_the_cli_names_no_system():
    """Issue 22: the CLI finds each system's commands through the ``grognard.commands`` hook,
    so no word of its modules (code, help, comments) is a system's name, a rule package's or a
    command word a package adds; its one line of prose naming the games it referees is in
    capitals (cli/root.py's help), which no key is."""
    words = _system_words()
    bad = [f"{mod}:{line}" for mod, path in sorted(IMPORTS.mods.items()) if top(mod) == "cli"
           for line in lines_naming_a_system(path.read_text(encoding="utf-8"), words)]
    assert not bad, "\n  ".join(bad)
