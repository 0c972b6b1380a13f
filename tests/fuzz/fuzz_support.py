"""Shared pieces of the fuzz tests: budgets, counters, and generators of hostile values.

Every fuzz test feeds generated input to one entry point and checks the one promise: the input
is accepted, or refused with a :class:`~grognard.core.errors.GrognardError` (one line, exit 2
at the CLI). Anything else (a traceback, a hang) is a bug and becomes a regression test in
tests/reliability/test_rejections.py.

In the long run (``--fuzz-long``) a crash does not stop the run: :func:`attempt` records it (its
type, where it was raised and the input) and the run goes on, so one run counts everything it
finds; the test then fails listing the crashes. An input that uses more than ``HANG_SECONDS`` of
CPU time (measured by the process's CPU clock, so a loaded machine does not count) is a hang.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: Inputs tried per kind in this session (written by ``--fuzz-report``).
COUNTS: Counter[str] = Counter()

LONG = int(os.environ.get("GROGNARD_FUZZ_EXAMPLES", "0"))

#: CPU seconds one input may use before it counts as a hang.
HANG_SECONDS = 20.0

#: Crashes and hangs found in this session, per kind (long run: recorded, not raised).
FOUND: dict[str, list[dict[str, str]]] = {}

#: Per kind: CPU seconds of the slowest input, and the whole kind's wall-clock seconds.
SLOWEST: dict[str, float] = {}
WALL: Counter[str] = Counter()
CPU: Counter[str] = Counter()

#: ``--fuzz-report FILE``: rewritten every 100 inputs of a kind and at the end.
REPORT = os.environ.get("GROGNARD_FUZZ_REPORT", "")


class Hang(BaseException):
    """Raised by the CPU-time alarm inside an input that ran too long (a BaseException so the
    code under test cannot swallow it as an ordinary error)."""


def _alarm(signum: int, frame: object) -> None:
    raise Hang(f"more than {HANG_SECONDS:g} s of CPU time")


@contextlib.contextmanager
def attempt(kind: str, data: object) -> Iterator[None]:
    """Count one input of ``kind``; time it; in the long run record (and swallow) a crash or a
    hang instead of stopping the run."""
    COUNTS[kind] += 1
    wall, cpu = time.perf_counter(), time.process_time()
    old = signal.signal(signal.SIGVTALRM, _alarm)
    signal.setitimer(signal.ITIMER_VIRTUAL, HANG_SECONDS)
    try:
        yield
    except (Exception, Hang) as exc:
        if not LONG:
            raise
        tb = traceback.extract_tb(exc.__traceback__)
        where = next((f"{f.filename.split('/src/')[-1]}:{f.lineno}" for f in reversed(tb)
                      if "/grognard/" in f.filename), "?")
        FOUND.setdefault(kind, []).append({
            "error": f"{type(exc).__name__}: {str(exc)[:200]}", "where": where,
            "input": repr(data)[:400]})
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, old)
        SLOWEST[kind] = max(SLOWEST.get(kind, 0.0), time.process_time() - cpu)
        WALL[kind] += time.perf_counter() - wall
        CPU[kind] += time.process_time() - cpu
        if REPORT and COUNTS[kind] % 100 == 0:  # a long run can be read (or cut) part-way
            write_report(REPORT)


def write_report(path: str, exit_status: int | None = None) -> None:
    """Per kind: inputs tried, crashes, hangs, the slowest input's CPU seconds, the CPU and
    wall-clock seconds spent in the inputs; then every crash found (type, where, input)."""
    kinds = {k: {"tried": COUNTS[k],
                 "crashes": sum(1 for f in FOUND.get(k, []) if not f["error"].startswith("Hang")),
                 "hangs": sum(1 for f in FOUND.get(k, []) if f["error"].startswith("Hang")),
                 "slowest_cpu_s": round(SLOWEST.get(k, 0.0), 3),
                 "cpu_s": round(CPU[k], 1), "wall_s": round(WALL[k], 1)} for k in sorted(COUNTS)}
    tmp = f"{path}.part"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"kinds": kinds, "found": FOUND, "finished": exit_status is not None,
                   "exit_status": exit_status}, f, indent=1, ensure_ascii=True)
        f.write("\n")
    os.replace(tmp, path)


def fuzz_settings(brief: int) -> settings:
    """``brief`` examples in CI; ``--fuzz-examples`` (10,000) with ``--fuzz-long``."""
    if LONG:
        return settings(max_examples=LONG, derandomize=False, deadline=None, database=None,
                        suppress_health_check=list(HealthCheck), print_blob=True)
    return settings(max_examples=brief, deadline=None,
                    suppress_health_check=list(HealthCheck))


#: A scratch folder for files the fuzzers write (outputs, mutated inputs).
SCRATCH = Path(tempfile.mkdtemp(prefix="grognard-fuzz-"))

# --- hostile literals -------------------------------------------------------------------------

DEEP_JSON = "[" * 5000 + "]" * 5000
HUGE_INT = "9" * 5000

TOML_LITERALS = [
    "0", "1", "-1", "2", "99", "-99999", "1.5", "20.9", "nan", "inf", "-inf", "1e400",
    HUGE_INT, '"x"', '""', '"no"', '"mars"', '"0404 "', '" "', "true", "false", "[]", '["a"]',
    "[1, 2]", '[1, "a"]', "{}", "{ a = 1 }", '"\\u0000"', "1979-05-27", "2147483648",
    "9223372036854775808", "[" * 200 + "]" * 200, '"' + "a" * 300 + '"', "3", "5", "1000000",
]

json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70),
    st.sampled_from([0, 1, -1, 2, 3, 5, 6, 7, 10, 12, 13, 20, 99, 10**9, 2**63, -(2**63)]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["", "axis", "allies", "soviet", "ussr", "germany", "uk", "us", "0404",
                     "0404 ", "A1", "M10", "mars", "europe", "infantry", "clear", "1/2", "2/3",
                     "x", "\ud800", "end_phase", "move", "20.9", "-1", "all"]),
)
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=8)


def json_paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``data`` (keys and indexes), the root included."""
    out = [prefix]
    stack = [(data, prefix)]
    while stack:
        v, p = stack.pop()
        if isinstance(v, dict):
            for k, x in v.items():
                out.append((*p, k))
                stack.append((x, (*p, k)))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                out.append((*p, i))
                stack.append((x, (*p, i)))
    return out


def set_path(data: Any, path: tuple[Any, ...], value: Any, delete: bool = False) -> Any:
    if not path:
        return value
    parent = data
    for k in path[:-1]:
        parent = parent[k]
    if delete:
        if isinstance(parent, dict):
            parent.pop(path[-1], None)
        else:
            parent.pop(path[-1])
    else:
        parent[path[-1]] = value
    return data


@st.composite
def mutated_json(draw: Any, data: Any, rounds: int = 3) -> Any:
    """``data`` (a deep copy) with a few values replaced, deleted or retyped."""
    data = json.loads(json.dumps(data))
    for _ in range(draw(st.integers(1, rounds))):
        paths = json_paths(data)
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["replace", "replace", "delete", "wrap", "dup"]))
        if op == "delete" and path:
            data = set_path(data, path, None, delete=True)
        elif op == "wrap":
            cur = _get(data, path)
            data = set_path(data, path, draw(st.sampled_from([[cur], {"x": cur}, str(cur)])))
        elif op == "dup" and path and isinstance(_get(data, path[:-1]), list):
            parent = _get(data, path[:-1])
            parent.append(json.loads(json.dumps(parent[path[-1]])))
        else:
            data = set_path(data, path, draw(json_value))
    return data


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        data = data[k]
    return data


@st.composite
def mutated_text(draw: Any, text: str, kind: str = "toml", rounds: int = 3) -> str | bytes:
    """``text`` with a few line-level mutations; sometimes returned as bytes that are not
    UTF-8."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, rounds))):
        i = draw(st.integers(0, max(len(lines) - 1, 0)))
        op = draw(st.sampled_from(["value", "value", "value", "delete", "dup", "insert",
                                   "swap", "truncate", "space"]))
        if op == "value" and kind == "toml":
            cands = [j for j, ln in enumerate(lines) if " = " in ln]
            if cands:
                j = draw(st.sampled_from(cands))
                key = lines[j].split(" = ", 1)[0]
                lines[j] = f"{key} = {draw(st.sampled_from(TOML_LITERALS))}"
        elif op == "delete" and lines:
            del lines[i]
        elif op == "dup" and lines:
            lines.insert(i, lines[i])
        elif op == "insert":
            lines.insert(i, draw(st.one_of(st.text(max_size=30), st.sampled_from(
                ["[[units]]", "[[cities]]", "[[boxes]]", "[map]", "[scenario]", "x = 1",
                 "[europa]", "[third_reich]", "[calendar]", "a" + ".a" * 100 + " = 1"]))))
        elif op == "swap" and len(lines) > 1:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "truncate":
            lines = lines[: i + 1]
        elif op == "space" and lines:
            lines[i] = lines[i].replace('"', ' "', 1) if draw(st.booleans()) else lines[i] + " "
    out = "\n".join(lines)
    if draw(st.integers(0, 19)) == 0:
        blob = out.encode("utf-8")
        k = draw(st.integers(0, len(blob)))
        return blob[:k] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"])) + \
            blob[k:]
    return out
