"""Fuzz: scenario TOML (mutated shipped scenarios, read from a file) and table TOML.

The promise: a scenario is loaded and its game starts, or one GrognardError names the file and
what is wrong; nothing else escapes and nothing hangs.
"""

from __future__ import annotations

import contextlib
import itertools
from importlib import resources
from pathlib import Path

from fuzz_support import SCRATCH, attempt, fuzz_settings, mutated_text
from hypothesis import given
from hypothesis import strategies as st

from grognard.core.errors import GrognardError
from grognard.core.inputs import load_toml_text
from grognard.core.tables import load_table_file, load_tables, parse_table
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario, shipped_scenarios

SCENARIOS = {n: load_scenario(n).text for n in shipped_scenarios()}
TABLE_DIR = resources.files("grognard.data").joinpath("tables")
TABLES = {e.name: e.read_text(encoding="utf-8") for e in TABLE_DIR.iterdir()
          if e.name.endswith(".toml")}
TABLESET = load_tables()
_n = itertools.count()


@st.composite
def scenario_text(draw):
    name = draw(st.sampled_from(sorted(SCENARIOS)))
    return draw(mutated_text(SCENARIOS[name], "toml"))


def _file(text: str | bytes, prefix: str) -> Path:
    path = SCRATCH / f"{prefix}{next(_n) % 50}.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    return path


@fuzz_settings(brief=60)
@given(scenario_text())
def test_fuzz_scenario_files(text):
    with attempt("scenario", text):
        try:
            Game(load_scenario(_file(text, "s")), 1, tables=TABLESET)
        except GrognardError as exc:
            assert "\n" not in str(exc)


@st.composite
def table_text(draw):
    name = draw(st.sampled_from(sorted(TABLES)))
    return draw(mutated_text(TABLES[name], "toml"))


@fuzz_settings(brief=60)
@given(table_text())
def test_fuzz_table_files(text):
    with attempt("table", text):
        try:
            t = load_table_file(_file(text, "t"))
            t.to_json()
            t.codes()
        except GrognardError:
            pass
        if isinstance(text, str):
            with contextlib.suppress(GrognardError):
                parse_table(load_toml_text(text, "t.toml"), "t.toml")
