"""Rules tables as data (C-CONFIG): load, validate, override.

Every table is a TOML file with ``id``, ``title``, ``source`` (``published`` or
``reconstructed``; a user's own file may also say ``user``), ``dice``, ``row_key``, ``columns``
and ``[[rows]]`` (each a ``key`` and one result per column); free-form extras go in ``[meta]``.
Tables shipped in ``grognard/data/tables/`` can be replaced one by one: point
:func:`load_tables` (CLI ``--tables DIR``) at a directory of files using the same ``id``.

>>> t = load_tables().get("europa_revised_crt")
>>> str(t.source), t.lookup(7, "3-1")
('reconstructed', 'DR')
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from grognard.core.errors import TableError
from grognard.core.inputs import InputFileError, load_toml_file

Cell = str | int
RowKey = int | str


class TableSource(StrEnum):
    PUBLISHED = "published"
    RECONSTRUCTED = "reconstructed"
    USER = "user"


@dataclass(frozen=True)
class Table:
    """One rules table: rows keyed by a roll (or other key), one result per column."""

    id: str
    title: str
    source: TableSource
    dice: str | None
    row_key: str
    columns: tuple[str, ...]
    rows: Mapping[RowKey, tuple[Cell, ...]]
    rule_ids: tuple[str, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict)
    file: str = ""

    @property
    def row_keys(self) -> tuple[RowKey, ...]:
        return tuple(self.rows)

    def column_index(self, column: str) -> int:
        try:
            return self.columns.index(column)
        except ValueError:
            raise TableError(
                f"no such column (columns are {', '.join(self.columns)})",
                file=self.file,
                table=self.id,
                column=column,
            ) from None

    def lookup(self, row: RowKey, column: str | None = None) -> Cell:
        """The result at ``row`` in ``column`` (the only column when omitted)."""
        if column is None:
            if len(self.columns) != 1:
                raise TableError("a column is needed", table=self.id, row=row)
            col = 0
        else:
            col = self.column_index(column)
        try:
            return self.rows[row][col]
        except KeyError:
            raise TableError("no such row", file=self.file, table=self.id, row=row) from None

    def column(self, column: str) -> dict[RowKey, Cell]:
        col = self.column_index(column)
        return {k: v[col] for k, v in self.rows.items()}

    def codes(self) -> tuple[npt.NDArray[np.int16], tuple[Cell, ...]]:
        """The table as an integer code matrix ``[row, column]`` and its alphabet (for numpy)."""
        alphabet: dict[Cell, int] = {}
        for cells in self.rows.values():
            for cell in cells:
                alphabet.setdefault(cell, len(alphabet))
        mat = np.array(
            [[alphabet[c] for c in cells] for cells in self.rows.values()], dtype=np.int16
        )
        return mat, tuple(alphabet)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "source": str(self.source),
            "dice": self.dice,
            "rule_ids": list(self.rule_ids),
            "row_key": self.row_key,
            "columns": list(self.columns),
            "rows": [{"key": k, "results": list(v)} for k, v in self.rows.items()],
            "meta": dict(self.meta),
            "file": self.file,
        }


def _need(raw: Mapping[str, Any], key: str, kind: type | tuple[type, ...], file: str,
          table: str | None) -> Any:
    if key not in raw:
        raise TableError(f"missing required field '{key}'", file=file, table=table)
    value = raw[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise TableError(f"field '{key}' has the wrong type ({type(value).__name__})",
                         file=file, table=table)
    return value


def parse_table(raw: Mapping[str, Any], file: str = "<memory>") -> Table:
    """Validate a table's parsed TOML and build it; errors name file, table, column, row."""
    tid = _need(raw, "id", str, file, None)
    title = _need(raw, "title", str, file, tid)
    source_text = _need(raw, "source", str, file, tid)
    try:
        source = TableSource(source_text)
    except ValueError:
        raise TableError(
            f"source must be published, reconstructed or user, not {source_text!r}",
            file=file, table=tid,
        ) from None
    dice = raw.get("dice")
    if dice is not None and not isinstance(dice, str):
        raise TableError("field 'dice' must be a string", file=file, table=tid)
    row_key = raw.get("row_key", "roll")
    columns = _need(raw, "columns", list, file, tid)
    if not columns:
        raise TableError("a table needs at least one column", file=file, table=tid)
    for c in columns:
        if not isinstance(c, str):
            raise TableError("column names must be strings", file=file, table=tid, column=str(c))
    if len(set(columns)) != len(columns):
        dup = next(c for c in columns if columns.count(c) > 1)
        raise TableError("duplicate column", file=file, table=tid, column=dup)
    rows_raw = _need(raw, "rows", list, file, tid)
    if not rows_raw:
        raise TableError("a table needs at least one row", file=file, table=tid)
    rows: dict[RowKey, tuple[Cell, ...]] = {}
    for i, row in enumerate(rows_raw, start=1):
        if not isinstance(row, Mapping) or "key" not in row or "results" not in row:
            raise TableError(f"row {i} needs 'key' and 'results'", file=file, table=tid, row=i)
        key = row["key"]
        if isinstance(key, bool) or not isinstance(key, int | str):
            raise TableError("row key must be an integer or a string", file=file, table=tid,
                             row=key)
        if key in rows:
            raise TableError("duplicate row", file=file, table=tid, row=key)
        results = row["results"]
        if not isinstance(results, list):
            raise TableError("results must be a list", file=file, table=tid, row=key)
        if len(results) != len(columns):
            raise TableError(
                f"has {len(results)} results for {len(columns)} columns",
                file=file, table=tid, row=key,
            )
        for col, cell in zip(columns, results, strict=True):
            if isinstance(cell, bool) or not isinstance(cell, str | int):
                raise TableError("a result must be a string or an integer", file=file,
                                 table=tid, column=col, row=key)
        rows[key] = tuple(results)
    rule_ids = raw.get("rule_ids", [])
    if not isinstance(rule_ids, list) or not all(isinstance(r, str) for r in rule_ids):
        raise TableError("rule_ids must be a list of rule IDs (strings)", file=file, table=tid)
    if not isinstance(row_key, str):
        raise TableError("row_key must be a string", file=file, table=tid)
    meta = raw.get("meta", {})
    if not isinstance(meta, Mapping):
        raise TableError("[meta] must be a table", file=file, table=tid)
    return Table(tid, title, source, dice, str(row_key), tuple(columns), rows,
                 tuple(rule_ids), dict(meta), file)


def load_table_file(path: Path | str) -> Table:
    """A user's table file, read through the input gate (size, UTF-8, depth, number length)."""
    p = Path(path)
    try:
        raw = load_toml_file(p, "table")
    except InputFileError as exc:
        raise TableError(exc.reason if exc.line is None else f"line {exc.line}: {exc.reason}",
                         file=str(p)) from None
    return parse_table(raw, str(p))


class TableSet(Mapping[str, Table]):
    """The tables in force: the shipped ones, each replaceable by a user's file of the same id."""

    def __init__(self, tables: Mapping[str, Table]) -> None:
        self._tables = dict(tables)

    def __getitem__(self, key: str) -> Table:
        return self._tables[key]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._tables))

    def __len__(self) -> int:
        return len(self._tables)

    def table(self, key: str) -> Table:
        """The table named ``key``, or an error naming it."""
        try:
            return self._tables[key]
        except KeyError:
            raise TableError(f"no table named {key!r} (try 'grognard tables list')",
                             table=key) from None

    def get(self, key: str, default: Table | None = None) -> Table:  # type: ignore[override]
        """Like :meth:`table` when no default is given (a missing table is an error)."""
        if default is None:
            return self.table(key)
        return self._tables.get(key, default)


def _shipped_files() -> list[tuple[str, str]]:
    root = resources.files("grognard.data").joinpath("tables")
    out = []
    for entry in root.iterdir():
        if entry.name.endswith(".toml"):
            out.append((f"grognard/data/tables/{entry.name}", entry.read_text(encoding="utf-8")))
    return sorted(out)


_SHIPPED: dict[str, Table] | None = None


def shipped_tables() -> dict[str, Table]:
    """The tables that ship with grognard (parsed once)."""
    global _SHIPPED
    if _SHIPPED is None:
        tables: dict[str, Table] = {}
        for name, text in _shipped_files():
            try:
                raw = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                raise TableError(f"not valid TOML: {exc}", file=name) from None
            t = parse_table(raw, name)
            if t.id in tables:
                raise TableError(f"duplicate table id (also in {tables[t.id].file})",
                                 file=name, table=t.id)
            tables[t.id] = t
        _SHIPPED = tables
    return dict(_SHIPPED)


#: An override's integer may be at most this many times the shipped column's largest magnitude
#: (and at least ``_MIN_LIMIT``): it catches a slipped digit, not a house rule.
_SCALE, _MIN_LIMIT = 10, 99


def _code_shape(cell: str) -> str:
    """A result code with its numbers generalised: ``A10`` and ``A2`` share the shape ``A#``."""
    return re.sub(r"\d+", "#", cell)


def _kind(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "an array", dict: "a table"}.get(type(value), type(value).__name__)


def check_override(t: Table, shipped: Table) -> None:
    """A user's table replacing ``shipped`` (same id), checked cell by cell against it: row
    keys of the same type; every cell of the same type as the shipped column's; integers of
    the shipped column's sign and within ``_SCALE`` times its largest magnitude; in a table
    that is rolled on (``dice``), string results only of the shapes the shipped table uses
    (``A1`` allows ``A3``, not ``ZZ``); and ``[meta]`` values the code reads of the same type.
    A table may keep fewer rows or columns (a partial table), not new kinds of value."""
    key_kinds = {_kind(k) for k in shipped.rows}
    for k in t.rows:
        if _kind(k) not in key_kinds:
            raise TableError(f"row key is {_kind(k)}; the shipped table's are "
                             f"{' or '.join(sorted(key_kinds))}", file=t.file, table=t.id, row=k)
    every = [c for r in shipped.rows.values() for c in r]
    shapes = {_code_shape(c) for c in every if isinstance(c, str)}
    for j, col in enumerate(t.columns):
        i = shipped.columns.index(col) if col in shipped.columns else None
        cells = every if i is None else [r[i] for r in shipped.rows.values()]
        kinds = {_kind(c) for c in cells}
        ints = [c for c in cells if isinstance(c, int)]
        top = max([abs(c) for c in ints] or [0])
        lo = 0 if ints and min(ints) >= 0 else -max(_MIN_LIMIT, _SCALE * top)
        hi = max(_MIN_LIMIT, _SCALE * top)
        for key, row in t.rows.items():
            cell = row[j]
            if _kind(cell) not in kinds:
                raise TableError(f"{cell!r} is {_kind(cell)}; the shipped table has "
                                 f"{' or '.join(sorted(kinds))} here", file=t.file, table=t.id,
                                 column=col, row=key)
            if isinstance(cell, int) and not lo <= cell <= hi:
                raise TableError(f"{cell} is out of range {lo}..{hi}", file=t.file,
                                 table=t.id, column=col, row=key)
            if isinstance(cell, str) and shipped.dice and _code_shape(cell) not in shapes:
                known = ", ".join(sorted(repr(c) for c in {c for c in every
                                                           if isinstance(c, str)}))
                raise TableError(f"unknown result {cell!r} (the shipped table uses {known})",
                                 file=t.file, table=t.id, column=col, row=key)
    for k, v in t.meta.items():
        if k in shipped.meta and _kind(v) != _kind(shipped.meta[k]):
            raise TableError(f"meta.{k} is {_kind(v)}, expected {_kind(shipped.meta[k])}",
                             file=t.file, table=t.id)


def load_tables(override: Path | str | Sequence[Path | str] | None = None) -> TableSet:
    """Shipped tables, with every ``*.toml`` in ``override`` replacing the shipped table of its
    id, each checked cell by cell against it (:func:`check_override`)."""
    tables = shipped_tables()
    shipped = dict(tables)
    dirs: Sequence[Path | str] = (
        [] if override is None else [override] if isinstance(override, Path | str) else override
    )
    for d in dirs:
        p = Path(d)
        if not p.is_dir():
            raise TableError("table override directory does not exist", file=str(p))
        for f in sorted(p.glob("*.toml")):
            t = load_table_file(f)
            if t.id not in shipped:
                raise TableError("no shipped table has this id, so nothing would read it "
                                 "(see 'grognard tables list')", file=str(f), table=t.id)
            check_override(t, shipped[t.id])
            tables[t.id] = t
    return TableSet(tables)
