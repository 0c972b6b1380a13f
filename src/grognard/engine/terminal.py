"""Terminal output for the command line: JSON for scripts, rich tables for people.

On the engine floor so that the command modules of the rule packages print the same way as the
rest of the CLI. JSON output is stable: integers are numbers; other exact quantities are strings
(``"108.8"``, ``"2/3"``). Use :func:`grognard.core.exact.exact_json` and ``ratio_str``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.table import Table as RichTable

from grognard.core.errors import InputError
from grognard.core.inputs import InputFileError, load_json_file
from grognard.core.readings import Readings
from grognard.core.tables import TableSet, load_tables
from grognard.engine.scenario import Scenario

R = TypeVar("R", bound=Readings)

#: The ``--json`` flag every command takes.
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]

console = Console()
err_console = Console(stderr=True)


class _CliState:
    tables_dir: Path | None = None


STATE = _CliState()


def command_group(root: typer.Typer, name: str, help_text: str, modules: Sequence[Any]) -> None:
    """Attach ``grognard NAME ...`` to ``root``: a group whose commands each of ``modules``
    adds with its ``register(app)`` (a rule package's commands, in that order)."""
    app = typer.Typer(help=help_text, no_args_is_help=True)
    for module in modules:
        module.register(app)
    root.add_typer(app, name=name)


def current_tables() -> TableSet:
    """The tables in force for this CLI call (shipped, overridden by ``--tables DIR``)."""
    return load_tables(STATE.tables_dir)


def dump_json(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False)


def emit(data: Mapping[str, Any], as_json: bool,
         human: Callable[[Console], None] | None = None) -> None:
    """Print ``data`` as JSON (``--json``) or, for people, via ``human`` or as a key/value table."""
    if as_json:
        sys.stdout.write(dump_json(data) + "\n")
        return
    if human is not None:
        human(console)
        return
    console.print(kv_table(data))


def kv_table(data: Mapping[str, Any], title: str | None = None) -> RichTable:
    t = RichTable(title=title, show_header=False)
    t.add_column("", style="bold")
    t.add_column("")
    for k, v in data.items():
        t.add_row(str(k), v if isinstance(v, str) else json.dumps(v, ensure_ascii=False))
    return t


def grid_table(headers: Sequence[str], rows: Sequence[Sequence[Any]],
               title: str | None = None) -> RichTable:
    t = RichTable(title=title)
    for h in headers:
        t.add_column(str(h))
    for row in rows:
        t.add_row(*(str(c) for c in row))
    return t


def read_json(path: Path, name: str) -> Any:
    """A JSON input file, or an :class:`InputError` naming the argument ``name``."""
    try:
        return load_json_file(path, "JSON file")
    except InputFileError as exc:
        raise InputError(name, str(exc)) from None


def readings_file(path: Path | None, kind: type[R], name: str = "--readings") -> R:
    """Readings from a JSON object file (``--readings FILE``); the defaults when no file."""
    if path is None:
        return kind()
    raw = read_json(path, name)
    if not isinstance(raw, dict):
        raise InputError(name, "expected a JSON object of readings")
    return kind.from_mapping(raw)


def render_map(sc: Scenario) -> str:
    """A readable text map: one cell per hex in offset rows, units marked by side initial."""
    m = sc.map
    lay = m.layout
    offsets = {lay.to_offset(m.hex(i)): i for i in range(m.n)}
    cols = max(c for c, _ in offsets) + 1
    rows = max(r for _, r in offsets) + 1
    occupant: dict[str, str] = {}
    for p in sc.placements:
        if p.hex:
            occupant[p.hex] = p.unit.side[0].upper()
    glyph = {"clear": ".", "woods": "w", "forest": "f", "rough": "r", "wooded_rough": "R",
             "mountain": "m", "swamp": "s", "marsh": "s", "sea": "~", "lake": "~",
             "desert": ":", "steppe": ",", "urban": "#", "glacier": "*"}
    lines = []
    for r in range(rows):
        cells = []
        for c in range(cols):
            i = offsets.get((c, r))
            if i is None:
                cells.append("  ")
                continue
            label = m.label(i)
            t = glyph.get(str(m.terrain_of(m.hex(i)).value), "?")
            mark = occupant.get(label, "C" if i in m.cities else " ")
            cells.append(t + mark)
        lines.append(" ".join(cells))
    return "\n".join(lines)
