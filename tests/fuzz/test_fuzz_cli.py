"""Fuzz: the command line. Random commands of the whole CLI with values drawn from realistic and
hostile pools: JSON input files (the shipped examples, mutated, non-UTF-8, nested 5,000 deep, a
5,000-digit integer, NaN), readings, output paths (a directory, a missing folder, a full device,
a name too long, a file name that is not UTF-8), out-of-range numbers and unknown names.

The promise: ``grognard`` exits 0, or exits 2 with a message; no exception escapes ``main``.
Output goes through a strict UTF-8 stream, as on a terminal.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import stat
from importlib import resources
from pathlib import Path

import typer
from fuzz_support import DEEP_JSON, HUGE_INT, SCRATCH, attempt, fuzz_settings, mutated_json
from hypothesis import given
from hypothesis import strategies as st

from grognard.cli import build_app, main

SKIP = {"serve", "play", "fuzz"}  # servers, and the long game fuzzer (verify is fuzzed)


def _commands() -> list[tuple[tuple[str, ...], list[object]]]:
    cmd = typer.main.get_command(build_app([]))
    out: list[tuple[tuple[str, ...], list[object]]] = []
    stack: list[tuple[object, tuple[str, ...]]] = [(cmd, ())]
    while stack:
        c, path = stack.pop()
        subs = getattr(c, "commands", None)
        if subs:
            stack.extend((s, (*path, n)) for n, s in subs.items() if n not in SKIP)
        else:
            out.append((path, list(getattr(c, "params", []))))
    return sorted(out, key=lambda x: x[0])


COMMANDS = _commands()
EXAMPLES = resources.files("grognard.data").joinpath("examples")
# copies: a command given an example as a save must not leave a lock or backup in the package
EXAMPLE_FILES = sorted(str(shutil.copy(str(e), SCRATCH / e.name)) for e in EXAMPLES.iterdir()
                       if e.name.endswith(".json"))


def _file(name: str, data: str | bytes) -> str:
    p = SCRATCH / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return str(p)


BAD_FILES = [
    _file("not-utf8.json", b'{"a": "\xff"}'), _file("deep.json", DEEP_JSON),
    _file("huge.json", '{"n": ' + HUGE_INT + "}"), _file("nan.json", '{"n": NaN}'),
    _file("empty.json", ""), _file("list.json", "[]"), _file("obj.json", "{}"),
    _file("deep.toml", "a = " + "[" * 3000 + "]" * 3000), str(SCRATCH / "missing.json"),
    str(SCRATCH), _file("tables/bad.toml", "id = 3"),
]
OUTPUTS = [str(SCRATCH / "out.json"), str(SCRATCH / "out.png"), str(SCRATCH),
           str(SCRATCH / "no-such-folder" / "x.json"), "/dev/full", "/proc/version",
           str(SCRATCH / ("n" * 300)), str(SCRATCH / "\udcff.json"), str(SCRATCH / "save.json")]
SHIPPED = ["demo-europa", "demo-third-reich", "tr-1939-sea", "europa-surprise", "nope"]
HOSTILE = ["", " ", "mars", "-1", "0", HUGE_INT, "nan", "1e400", "20.9", "\udcff", "1/0",
           "a" * 500, "99999999999999999999", "-99999999999999999999"]

BY_NAME = {
    "roll": ["1", "2", "6", "7", "10", "12", "0", "13", "-3", "11"],
    "seed": ["1", "7", "-1", "99999999999999999999"],
    "turn": ["0", "1", "3", "40", "120", "999", "-1"],
    "level": ["0", "5", "10", "20", "40", "45", "100", "-5"],
    "year": ["1939", "1941", "1944", "1946", "1900", "2100", "0"],
    "date": ["1941-06", "1941-06-II", "1939-09", "1941-13", "1946-01", "x", "1941-06-31"],
    "side": ["axis", "allies", "soviet", "ussr", "german", "mars"],
    "power": ["germany", "italy", "uk", "us", "ussr", "france", "japan", "mars"],
    "region": ["east", "west", "med", "africa", "europe", "A", "D", "mars"],
    "weather": ["clear", "mud", "snow", "frost", "winter", "storm", "mars"],
    "nationality": ["german", "soviet", "italian", "us", "british", "mars"],
    "reading": ["x=1", "rounding=floor", "nope", "a=b=c", "=", "cap=" + HUGE_INT],
    "number": ["0", "1", "2", "3", "5", "10", "20", "35", "100", "1/2", "2/3", "-3", "20.9"],
    "list": ["1,2,3", "a:1,b:2", "", ",", "1,,2", "tanks=3", "3", "x:y:z", "1-1"],
    "hex": ["0404", "0505", "0404 ", "A1", "M10", "9999", "x"],
}


def _pool(name: str, param: object) -> list[str]:
    n = name.lower()
    if any(k in n for k in ("png", "out", "save")) and getattr(param, "param_type_name",
                                                                "") == "option":
        return OUTPUTS
    keys = [k for k in BY_NAME if k in n]
    if "rolls" in n or "results" in n:
        keys.append("list")
    pool = [v for k in keys for v in BY_NAME[k]] or BY_NAME["number"] + BY_NAME["list"]
    if any(k in n for k in ("file", "ledger", "orders", "history", "state", "battle",
                            "attack", "invasion", "path", "readings", "save", "tables")):
        pool = pool + EXAMPLE_FILES + BAD_FILES + [str(SCRATCH / "save.json")]
    if "scenario" in n:
        pool = pool + SHIPPED
    return pool + HOSTILE


@st.composite
def argv(draw):
    path, params = draw(st.sampled_from(COMMANDS))
    args = list(path)
    for p in params:
        name = getattr(p, "name", "") or ""
        if name == "as_json":
            if draw(st.booleans()):
                args.append("--json")
            continue
        is_arg = getattr(p, "param_type_name", "") == "argument"
        if not is_arg and not draw(st.integers(0, 9)) < 7:
            continue
        opt = p.opts[0] if getattr(p, "opts", None) else f"--{name}"
        if getattr(p, "is_flag", False):
            args.append(opt)
            continue
        value = draw(st.sampled_from(_pool(name, p)))
        if value in EXAMPLE_FILES and draw(st.booleans()):
            raw = json.loads(Path(value).read_text(encoding="utf-8"))
            value = _file(f"m{draw(st.integers(0, 9))}.json",
                          json.dumps(draw(mutated_json(raw, rounds=2)), allow_nan=True))
        if is_arg:
            args.append(value)
        else:
            args += [opt, value]
    if draw(st.integers(0, 9)) == 0:
        args.insert(0, draw(st.sampled_from(["--tables", "--tables"])))
        args.insert(1, draw(st.sampled_from([str(SCRATCH / "tables"), str(SCRATCH / "none"),
                                             BAD_FILES[0]])))
    return args


def run_cli(args: list[str]) -> int:
    """``grognard ARGS`` in-process, stdout and stderr strict UTF-8 (like a terminal)."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    here = os.getcwd()
    os.chdir(SCRATCH)  # relative names ("3", "nan") are written in the scratch folder
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            return main(args)
    finally:
        os.chdir(here)


def _fresh_save() -> None:
    run_cli(["game", "new", "demo-europa", "--seed", "3", "--out", str(SCRATCH / "save.json")])


_fresh_save()


@fuzz_settings(brief=150)
@given(argv())
def test_fuzz_cli(args):
    with attempt("cli", args):
        code = run_cli(args)
        assert code in (0, 1, 2), (args, code)
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode), "an output replaced /dev/full"
