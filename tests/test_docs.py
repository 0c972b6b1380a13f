"""Docs stay true: FEATURES.md is regenerated from the area pages; the README opens with the
main command and the test command; every shipped table is listed as published or reconstructed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT.parent / "shared" / "spec" / "RULES.md"


@pytest.mark.skipif(not RULES.exists(), reason="spec not beside the repo")
def test_features_md_is_current():
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "features.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout


def test_readme_opens_with_the_two_commands():
    lines = [ln for ln in (ROOT / "README.md").read_text().splitlines() if ln.startswith("pip")]
    assert lines[0].startswith("pip install uv && uv run grognard play ")
    assert lines[1].startswith("pip install uv && uv run pytest")
    ci = (ROOT / ".ci" / "run").read_text()
    assert "uv run pytest" in ci
