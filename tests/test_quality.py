"""The test command also lints: ruff over the repo, mypy (strict on core/ and engine/)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=540)


@pytest.mark.skipif(shutil.which("ruff") is None and not (ROOT / ".venv").exists(),
                    reason="ruff not installed")
def test_ruff_clean():
    r = _run("ruff", "check", "src", "tests", "bench", "scripts")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_clean():
    r = _run("mypy")
    assert r.returncode == 0, r.stdout[-5000:] + r.stderr[-2000:]


def test_no_top_level_function_is_dead():
    """Issue 22 ("no function is dead"): every undecorated top-level function or class of the
    package is named somewhere besides its own ``def`` - in the package, the tests, scripts,
    bench or the page's templates. Decorated ones (CLI commands, routes) are reached by their
    decorator."""
    import ast
    import re
    from collections import Counter

    files = [p for d in ("src", "tests", "scripts", "bench") for p in (ROOT / d).rglob("*")
             if p.suffix in {".py", ".html", ".js", ".toml"} and "__pycache__" not in p.parts]
    names: Counter[str] = Counter()
    for p in files:
        names.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", p.read_text(errors="ignore")))
    dead = []
    for p in sorted((ROOT / "src" / "grognard").rglob("*.py")):
        for node in ast.parse(p.read_text()).body:
            if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                    and not node.decorator_list and names[node.name] <= 1):
                dead.append(f"{p.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert not dead, "named nowhere but in their own def:\n  " + "\n  ".join(dead)
