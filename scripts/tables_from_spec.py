"""Convert ../shared/spec/tables.json (the reconstructed tables) into grognard's TOML tables.

Run once when the spec changes: ``uv run python scripts/tables_from_spec.py ../shared/spec/tables.json``.
The output files are committed under src/grognard/data/tables/.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

RULE_IDS = {
    "europa_revised_crt": ["EUR-09", "EUR-11", "EUR-15"],
    "europa_revised_bombardment": ["EUR-03", "EUR-04", "EUR-05", "EUR-06", "EUR-07", "EUR-29"],
    "tr_new3r_land_crt": ["TR-32"],
    "europa_success_table": ["SUR-15", "SUR-22", "SUR-24"],
    "eurofront_airpower_disruption": ["EF-11", "EF-12"],
    "tr_new3r_attrition": ["TR-38", "TR-39", "TR-40", "TR-41", "TR-42"],
    "tr_new3r_airnaval": ["TR-50", "TR-79"],
}


def toml_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def convert(t: dict) -> str:
    keyname = next(k for k in t["rows"][0] if k != "results")
    lines = [
        f"# {t['title']}",
        "# Generated from the project spec (tables.json) by scripts/tables_from_spec.py.",
        "# A RECONSTRUCTION: replace with the published table by pointing --tables at your own file.",
        f"id = {toml_value(t['id'])}",
        f"title = {toml_value(t['title'])}",
        f"source = {toml_value(t['source'])}",
        f"rule_ids = {toml_value(RULE_IDS.get(t['id'], []))}",
        f"dice = {toml_value(t['dice'])}",
        f"row_key = {toml_value(keyname)}",
        f"columns = {toml_value(t['columns'])}",
        "",
    ]
    for row in t["rows"]:
        lines += ["[[rows]]", f"key = {toml_value(row[keyname])}",
                  f"results = {toml_value(row['results'])}", ""]
    lines.append("[meta]")
    for k, v in t.items():
        if k in ("id", "title", "source", "dice", "columns", "rows", "checks"):
            continue
        lines.append(f"{k} = {toml_value(v)}")
    return "\n".join(lines) + "\n"


def main() -> None:
    src = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/spec/tables.json")
    out = Path(__file__).resolve().parent.parent / "src/grognard/data/tables"
    data = json.loads(src.read_text())
    for t in data["tables"]:
        (out / f"{t['id']}.toml").write_text(convert(t), encoding="utf-8")
        print("wrote", t["id"])


if __name__ == "__main__":
    main()
