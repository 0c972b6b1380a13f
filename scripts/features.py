"""Assemble docs/FEATURES.md from docs/features/*.md and the rule IDs of RULES.md.

Each area's page (docs/features/<AREA>.md) holds rows `| ID | Title | Status | Where | Notes |`.
This script lists every rule ID of ../shared/spec/RULES.md once, with the status given by the
area pages (the most advanced status wins when two pages mention an ID), `not yet` otherwise.

"Done" means played: a rule is `done` only when whole games under the engine exercise it
(docs/features/in_play.json, written by scripts/in_play.py and checked by tests/test_in_play.py).
A rule the area page calls done but no game exercises yet is shown as `built` (code and tests
citing it, not yet in play).

    uv run python scripts/features.py            # rewrite docs/FEATURES.md
    uv run python scripts/features.py --check    # exit 1 if docs/FEATURES.md is out of date
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT.parent / "shared" / "spec" / "RULES.md"
RANK = {"not yet": 0, "partial": 1, "done": 2}
IN_PLAY = ROOT / "docs" / "features" / "in_play.json"
ROW = re.compile(r"^\|\s*((?:SUR|EUR|TR|EF)-\d+)\s*\|(.*)$")
SECTIONS = [("SUR", "Europa rule 47: Surprise Turns"), ("EUR", "Europa revised"),
            ("TR", "Revised Third Reich"), ("EF", "EuroFront optional rules")]


def rule_titles() -> dict[str, str]:
    titles: dict[str, str] = {}
    if RULES.exists():
        for m in re.finditer(r"^\*\*((?:SUR|EUR|TR|EF)-\d+) — (.+?)\*\*", RULES.read_text(),
                             re.M):
            titles.setdefault(m.group(1), m.group(2).strip())
    return titles


def area_rows() -> dict[str, tuple[str, str, str, str]]:
    best: dict[str, tuple[str, str, str, str]] = {}
    for page in sorted((ROOT / "docs" / "features").glob("*.md")):
        for line in page.read_text().splitlines():
            m = ROW.match(line)
            if not m:
                continue
            cells = [c.strip() for c in m.group(2).rstrip().rstrip("|").split("|")]
            cells += [""] * (4 - len(cells))
            title, status, where, notes = cells[:4]
            status = status.lower().strip("* ")
            if status not in RANK:
                continue
            rid = m.group(1)
            notes = notes + (f" ({page.stem})" if notes else "")
            prev = best.get(rid)
            if prev is None or RANK[status] > RANK[prev[1]]:
                best[rid] = (title, status, where, notes)
            elif prev and RANK[status] == RANK[prev[1]] and where and where not in prev[2]:
                best[rid] = (prev[0], prev[1], f"{prev[2]}; {where}", prev[3])
    return best


def in_play() -> dict[str, list[str]]:
    if not IN_PLAY.exists():
        return {}
    data: dict[str, list[str]] = json.loads(IN_PLAY.read_text())
    return data


ID = re.compile(r"\b(SUR|EUR|TR|EF)-(\d+)(?:\.\.(?:SUR|EUR|TR|EF)-(\d+))?")
TEST_ID = re.compile(r"(?:\b(SUR|EUR|TR|EF)-(\d+)\b)|(?:\btest_(sur|eur|tr|ef)(\d+))")


def rule_ids(text: str) -> list[str]:
    """The rule IDs a text names, ranges ``TR-32..TR-36`` expanded."""
    out = []
    for prefix, first, last in ID.findall(text):
        out += [f"{prefix}-{n:02d}" for n in range(int(first), int(last or first) + 1)]
    return out


def _assigned(node: ast.ClassDef, name: str) -> str | None:
    for stmt in node.body:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                names = [target] if isinstance(target, ast.Name) else \
                    list(target.elts) if isinstance(target, ast.Tuple) else []
                values = [stmt.value] if isinstance(target, ast.Name) else \
                    list(stmt.value.elts) if isinstance(stmt.value, ast.Tuple) else []
                for n, v in zip(names, values, strict=False):
                    if isinstance(n, ast.Name) and n.id == name and isinstance(v, ast.Constant):
                        return str(v.value)
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and \
                stmt.target.id == name and isinstance(stmt.value, ast.Constant):
            return str(stmt.value.value)
    return None


def orders_by_rule() -> dict[str, list[str]]:
    """Rule ID -> the Orders (engine/orders.py) that cite it: ``path`` ``Class`` (kind)."""
    out: dict[str, list[str]] = {}
    src = ROOT / "src" / "grognard"
    for path in sorted(src.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef) or not any(
                    "Order" in ast.unparse(b) for b in node.bases):
                continue
            rule, kind = _assigned(node, "rule"), _assigned(node, "kind")
            if not rule or not kind:
                continue
            where = f"`{path.relative_to(src).as_posix()}` `{node.name}` ({kind})"
            for rid in rule_ids(rule):
                out.setdefault(rid, []).append(where)
    return out


def tests_by_rule() -> dict[str, list[str]]:
    """Rule ID -> the test files that cite it (by ID or by a ``test_tr25_...`` name)."""
    out: dict[str, set[str]] = {}
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT).as_posix()
        for a, b, c, d in TEST_ID.findall(text):
            rid = f"{a}-{int(b):02d}" if a else f"{c.upper()}-{int(d):02d}"
            out.setdefault(rid, set()).add(rel)
    return {k: sorted(v) for k, v in out.items()}


def _orders_tests(rid: str, orders: dict[str, list[str]], tests: dict[str, list[str]]) -> str:
    parts = []
    if rid in orders:
        parts.append("Order: " + "; ".join(orders[rid]))
    found = tests.get(rid, [])
    if found:
        shown = ", ".join(f"`{t}`" for t in found[:3])
        parts.append("tests: " + shown + (f" (+{len(found) - 3} more)" if len(found) > 3
                                            else ""))
    return "; ".join(parts) or "-"


def render() -> str:
    titles = rule_titles()
    rows = area_rows()
    played = in_play()
    orders, tests = orders_by_rule(), tests_by_rule()
    ids = sorted(set(titles) | set(rows),
                 key=lambda i: ([p for p, _ in SECTIONS].index(i.split("-")[0]),
                                int(i.split("-")[1])))
    counts = {s: 0 for s in ("done", "built", "partial", "not yet")}
    out = ["# Features: every rule ID and its status", "",
           "Generated by `scripts/features.py` from the area pages in `docs/features/`, the",
           "rule IDs of the specification (`../shared/spec/RULES.md`) and the rules whole games",
           "exercise (`docs/features/in_play.json`, from `scripts/in_play.py`). Status: `done`",
           "(code and tests citing the ID, and whole games under the engine exercise it: done",
           "means played), `built` (code and tests citing the ID, but no whole game under the",
           "engine exercises it yet), `partial` (the notes say what is missing and why),",
           "`not yet`. **In play** lists the shipped scenarios whose random legal games",
           "(engine/fuzz.py) exercise the rule; tests/test_in_play.py fails if one stops.",
           "**Order and tests** names the command Orders (engine/orders.py) whose `rule` cites",
           "the ID and the test files that cite it.", ""]
    body: list[str] = []
    for prefix, name in SECTIONS:
        body += [f"## {prefix}: {name}", "",
                 "| ID | Title | Status | In play | Where | Order and tests | Notes |",
                 "|---|---|---|---|---|---|---|"]
        for rid in ids:
            if not rid.startswith(prefix + "-"):
                continue
            title, status, where, notes = rows.get(rid, (titles.get(rid, ""), "not yet", "", ""))
            title = titles.get(rid, title)
            scenarios = played.get(rid, [])
            if status == "done" and not scenarios:
                status = "built"
            counts[status] += 1
            shown = ", ".join(scenarios) if scenarios else "no"
            body.append(f"| {rid} | {title} | {status} | {shown} | {where} | "
                        f"{_orders_tests(rid, orders, tests)} | {notes} |")
        body.append("")
    out.append(f"Totals: {counts['done']} done (played), {counts['built']} built (not yet in "
               f"play), {counts['partial']} partial, {counts['not yet']} not yet, of "
               f"{sum(counts.values())} rule IDs.")
    out.append("")
    return "\n".join(out + body)


def main() -> int:
    target = ROOT / "docs" / "FEATURES.md"
    text = render()
    if "--check" in sys.argv:
        if not target.exists() or target.read_text() != text:
            print("docs/FEATURES.md is out of date: run uv run python scripts/features.py")
            return 1
        return 0
    target.write_text(text)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
