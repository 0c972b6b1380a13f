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
