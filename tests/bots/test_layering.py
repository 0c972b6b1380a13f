"""Issue 25: the bot modules form no import circle, ``bots`` never imports ``analysis`` (which
runs the bots), and the system-neutral bot modules name no rule system (they use the
rule-system hooks: Game.places/odds/objectives/standing, the seat's own view)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
BOTS = SRC / "grognard" / "bots"

#: modules that may hold a system's own policy or its fallback estimates until the rule
#: systems answer Game.odds / Game.places (the per-system policies and their plans)
POLICY_MODULES = {"heuristic", "odds", "tr_plans", "planner_plans", "europa_offence",
                  "europa_defence"}
NEUTRAL = {"base", "catalog", "play", "search", "random_bot", "situation", "mcts", "planner",
           "campaign",
           "ladder", "fuzz"}


def _imports(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def _graph() -> dict[str, set[str]]:
    mods = {p.stem: p for p in BOTS.glob("*.py") if p.stem != "__init__"}
    return {m: {i.removeprefix("grognard.bots.") for i in _imports(p)
                if i.removeprefix("grognard.bots.") in mods} for m, p in mods.items()}


def _reaches(graph: dict[str, set[str]], a: str, b: str) -> bool:
    seen, todo = set(), [a]
    while todo:
        m = todo.pop()
        for n in graph.get(m, ()):
            if n == b:
                return True
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return False


def test_no_import_circle_among_the_bot_modules():
    g = _graph()
    circles = sorted(m for m in g if _reaches(g, m, m))
    assert circles == []


def test_bots_never_import_analysis():
    for p in BOTS.glob("*.py"):
        assert not any(i.startswith("grognard.analysis") for i in _imports(p)), p.name


def test_neutral_bot_modules_name_no_rule_system():
    for p in BOTS.glob("*.py"):
        if p.stem not in NEUTRAL:
            assert p.stem in POLICY_MODULES | {"__init__"}, f"classify {p.name}"
            continue
        text = p.read_text(encoding="utf-8")
        assert not any(i.startswith(("grognard.third_reich", "grognard.europa",
                                     "grognard.eurofront")) for i in _imports(p)), p.name
        code = "\n".join(line for line in text.splitlines()
                         if not line.lstrip().startswith("#"))
        assert not re.search(r"""["'](third_reich|europa|eurofront)["']""", code), p.name
        assert "defender_hex" not in code, p.name


def _string_constants(path: Path) -> set[str]:
    return {n.value for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def test_issue22_no_bot_module_names_a_rule_system():
    """Issue 22: a policy is picked by the command kinds it plays (``Seat.kinds``), so no bot
    module, per-system or neutral, keys anything by a system's name."""
    from grognard.engine.plugins import system_names

    names = set(system_names()) - {"generic"}
    for p in BOTS.glob("*.py"):
        assert not (_string_constants(p) & names), p.name


def test_issue22_each_system_gets_the_policy_that_plays_its_kinds():
    """The policy chosen for a system is the one whose own kinds (beyond the generic
    Policy's) it offers most; a system no policy knows gets the generic Policy."""
    from grognard.bots.base import Seat
    from grognard.bots.heuristic import POLICIES, Policy, fitting, policy_for
    from grognard.engine.plugins import system_named, system_names

    chosen = {}
    for name in system_names():
        seat = Seat("x", 0, None, frozenset(system_named(name).commands))  # type: ignore[arg-type]
        cls = fitting(POLICIES, seat)
        chosen[name] = cls
        if cls is None:
            assert type(policy_for(seat)) is Policy
            continue
        own = cls.kinds_of() - Policy.kinds_of()
        # it plays most of its own kinds in this system, and more than any other policy
        assert len(own & seat.kinds) * 2 > len(own), (name, cls)
    fitted = [c for c in chosen.values() if c is not None]
    assert len(set(fitted)) == len(fitted) == len(POLICIES)  # one policy per known system
