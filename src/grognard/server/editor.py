"""The position editor's export: a scenario's text with its units placed anew.

The editor page moves, removes and copies units of any shipped scenario; the server writes the
result as scenario TOML (every section of the original kept, the ``[[units]]`` rewritten) and
checks it parses, so it can be saved as a file or played at once.

>>> text = export_scenario(_demo(), [{"id": "de-7pz", "hex": "0504"}], "my-test")
>>> 'id = "my-test"' in text and 'hex = "0504"' in text and text.count("[[units]]")
1
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

from grognard.core.errors import InputError
from grognard.engine.scenario import parse_scenario

_ID = re.compile(r"^[A-Za-z0-9_.-]{1,80}$")


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    raise InputError("unit", f"cannot write {v!r} as TOML")


def _without_units(text: str) -> list[str]:
    out, skipping = [], False
    for line in text.splitlines():
        head = line.strip()
        if head.startswith("["):
            skipping = head == "[[units]]"
        if not skipping:
            out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return out


def export_scenario(text: str, placements: Sequence[Mapping[str, Any]], new_id: str) -> str:
    """``text`` with its units placed as ``placements`` ({"id", "hex" or "box", "copy_of"?}):
    units not listed are removed; ``copy_of`` copies another unit under a new id."""
    if not _ID.match(new_id):
        raise InputError("id", "letters, digits, '-', '_' and '.' only (at most 80)")
    raw = tomllib.loads(text)
    units = {str(u["id"]): u for u in raw.get("units", [])}
    lines = _without_units(text)
    section = ""
    for k, ln in enumerate(lines):
        if ln.strip().startswith("["):
            section = ln.strip()
        elif section == "[scenario]" and re.match(r"^id\s*=", ln):
            lines[k] = f'id = "{new_id}"'
            break
    seen: set[str] = set()
    for i, p in enumerate(placements):
        uid = str(p.get("id", ""))
        src = units.get(str(p.get("copy_of") or uid))
        if src is None or not _ID.match(uid) or uid in seen:
            raise InputError(f"placements[{i}]", f"unknown or repeated unit {uid!r}")
        seen.add(uid)
        u = dict(src, id=uid)
        u.pop("hex", None)
        u.pop("box", None)
        if p.get("box"):
            u["box"] = str(p["box"])
        elif p.get("hex"):
            u["hex"] = str(p["hex"])
        else:
            raise InputError(f"placements[{i}]", f"{uid} needs a hex or a box")
        lines += ["", "[[units]]", *(f"{k} = {_value(v)}" for k, v in u.items())]
    out = "\n".join(lines) + "\n"
    parse_scenario(out, f"<edited {new_id}>")
    return out


def _demo() -> str:
    from grognard.engine.scenario import load_scenario

    return load_scenario("demo-europa").text
