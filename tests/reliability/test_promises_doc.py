"""docs/RELIABILITY.md names, for each promise, the tests that check it: every test file and
test function it names must exist (the suite runs them), so the table cannot point at a test
that was renamed or removed."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "RELIABILITY.md"


def test_every_test_named_in_reliability_md_exists():
    text = DOC.read_text(encoding="utf-8")
    named = 0
    for cell in re.findall(r"`((?:tests|bench)/[^` ]*|::[a-z_0-9]+)`", text):
        if cell.startswith("::"):  # `::name`: a test in the last file named before it
            names = [cell[2:]]
        else:
            path, _, rest = cell.partition("::")
            last = ROOT / path.rstrip("/")
            assert last.exists(), f"docs/RELIABILITY.md names {path}, which does not exist"
            names = [rest] if rest else []
        for name in names:
            source = last.read_text(encoding="utf-8")
            assert re.search(rf"^def {re.escape(name)}\(", source, re.M), \
                f"docs/RELIABILITY.md names {last.relative_to(ROOT)}::{name}, which does not exist"
            named += 1
    assert named >= 20
