"""Reading untrusted input: one gate for every file, text and value grognard is given.

Every input (a JSON file, a command, a scenario or table in TOML, a readings file, a save) comes
through here before it is parsed:

* its size is checked before it is read (:data:`MAX_BYTES`);
* it must be UTF-8; otherwise the error names the line and the offending byte in hex;
* nesting depth (:data:`MAX_DEPTH`) and the length of every number (:data:`MAX_DIGITS`) are
  checked on the text *before* the parser sees it, so no parser recurses without bound or
  converts a 5,000-digit integer;
* JSON may not hold ``NaN`` or ``Infinity`` (they are not JSON and cannot be saved);
* parsed data is checked against a typed schema (:func:`convert`, msgspec Structs) whose
  failures name the field.

Every failure is an :class:`InputFileError`: one line naming the file, the line or field, and
what was expected. Output files are written through :func:`write_output` (atomic, with clear
errors for a directory, a missing folder, no permission, a name too long or a full disk).

>>> load_json_text('{"a": [1, 2]}', "x.json")
{'a': [1, 2]}
>>> load_json_text("[" * 100 + "]" * 100, "x.json")
Traceback (most recent call last):
...
grognard.core.inputs.InputFileError: x.json:1: nested more than 64 deep
>>> decode_utf8(b'a = 1\\nb = "\\xff"', "s.toml")
Traceback (most recent call last):
...
grognard.core.inputs.InputFileError: s.toml:2: not valid UTF-8 (byte 0xff at offset 11)
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import re
import stat
import tempfile
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import msgspec.inspect
import numpy as np

from grognard.core.errors import InputError

T = TypeVar("T")

#: Largest input file read (bytes). A 40,000-hex scenario with 5,000 units is about 1 MB.
MAX_BYTES = 64 * 1024 * 1024
#: Deepest nesting of arrays and tables/objects in any JSON or TOML input.
MAX_DEPTH = 64
#: Longest run of digits in a number (seeds are at most 20 digits).
MAX_DIGITS = 64


class InputFileError(InputError):
    """Bad input in a file or text: names the file (``where``), the line or field, the reason."""

    def __init__(self, where: str, reason: str, *, line: int | None = None,
                 field: str | None = None) -> None:
        self.where = where
        self.line = line
        self.path = field
        loc = where if line is None else f"{where}:{line}"
        if field:
            loc = f"{loc}, field {field}"
        super().__init__(loc, reason)


def _line_at(text: str | bytes, offset: int) -> int:
    nl: Any = b"\n" if isinstance(text, bytes) else "\n"
    return text.count(nl, 0, offset) + 1


def decode_utf8(data: bytes, where: str) -> str:
    """``data`` as text, or an error naming the line and the first bad byte."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start]
        raise InputFileError(where, f"not valid UTF-8 (byte 0x{bad:02x} at offset {exc.start})",
                             line=_line_at(data, exc.start)) from None
    return text.removeprefix("\ufeff")


def read_bytes(path: str | Path, what: str = "file", max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of ``path``: refused when missing, unreadable, a directory or too large."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > max_bytes:
                raise InputFileError(str(p), f"{what} is {size:,} bytes; the limit is "
                                     f"{max_bytes:,}")
            data = f.read(max_bytes + 1)
    except OSError as exc:
        raise InputFileError(str(p), f"cannot read {what}: {os_reason(exc)}") from None
    if len(data) > max_bytes:
        raise InputFileError(str(p), f"{what} is larger than the limit of {max_bytes:,} bytes")
    return data


def read_text(path: str | Path, what: str = "file", max_bytes: int = MAX_BYTES) -> str:
    """A UTF-8 text file, size-checked before it is read."""
    return decode_utf8(read_bytes(path, what, max_bytes), str(path))


# --- limits checked on the text before parsing ---------------------------------------------

# Strings (and TOML comments) are skipped; the patterns are "unrolled" (runs of ordinary
# characters, then an escape) so a multi-megabyte string is skipped at C speed.
_JSON_SKIP = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?')
_TOML_SKIP = re.compile(r'"""[\s\S]*?(?:"""|\Z)|\'\'\'[\s\S]*?(?:\'\'\'|\Z)'
                        r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"?|\'[^\'\n]*\'?|#[^\n]*')
_BRACKET = re.compile(r"[\[\]{}]")
_LONG_NUMBER = re.compile(r"[0-9_]{" + str(MAX_DIGITS + 1) + ",}")
_KEY_PART = r'(?:[A-Za-z0-9_-]+|"")[ \t]*'
_DOTTED_KEY = re.compile(_KEY_PART + r"(?:\.[ \t]*" + _KEY_PART + "){" + str(MAX_DEPTH) + ",}")


def _blank(m: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", m.group(0))


_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def _deeper_than(bare: str, limit: int) -> bool:
    """Whether the brackets of ``bare`` may nest past ``limit`` - False only when they
    surely do not (they never close more than they opened and never go deeper), found from
    the brackets alone at once instead of one by one (a save has tens of thousands)."""
    brackets = _NOT_BRACKET.sub("", bare).encode("ascii")
    if not brackets:
        return False
    b = np.frombuffer(brackets, dtype=np.uint8)
    depth = np.cumsum(np.where((b == ord("[")) | (b == ord("{")), 1, -1))
    return bool(depth.min() < 0 or depth.max() > limit)


def _violation(bare: str, kind: str) -> tuple[int, str] | None:
    """The offset and reason of the first limit ``bare`` (strings blanked) breaks."""
    m = _LONG_NUMBER.search(bare)
    if m:
        return m.start(), f"a number longer than {MAX_DIGITS} digits"
    if kind == "toml":
        d = _DOTTED_KEY.search(bare)
        if d:
            return d.start(), f"a dotted key nested more than {MAX_DEPTH} deep"
    if not _deeper_than(bare, MAX_DEPTH):
        return None
    depth = 0
    for b in _BRACKET.finditer(bare):
        if b.group(0) in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return b.start(), f"nested more than {MAX_DEPTH} deep"
        else:
            depth = max(depth - 1, 0)
    return None


def check_limits(text: str, where: str, kind: str = "json",
                 max_bytes: int = MAX_BYTES) -> None:
    """Refuse text that is too large, nested more than :data:`MAX_DEPTH` deep (brackets, or
    TOML dotted keys), or has a number longer than :data:`MAX_DIGITS` digits. Strings and
    comments are skipped. Linear in the text; runs before any parser sees it."""
    if len(text) > max_bytes:
        raise InputFileError(where, f"larger than the limit of {max_bytes:,} characters")
    skip = _TOML_SKIP if kind == "toml" else _JSON_SKIP
    if _violation(skip.sub('""', text), kind) is None:
        return
    bare = skip.sub(_blank, text)  # same length as text, so offsets give lines
    found = _violation(bare, kind)
    if found is not None:
        raise InputFileError(where, found[1], line=_line_at(bare, found[0]))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def load_json_text(text: str, where: str, max_bytes: int = MAX_BYTES) -> Any:
    """Parse JSON text after :func:`check_limits`; errors name the file and line."""
    check_limits(text, where, "json", max_bytes)
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InputFileError(where, f"not valid JSON: {exc.msg} (column {exc.colno})",
                             line=exc.lineno) from None
    except (ValueError, RecursionError) as exc:
        raise InputFileError(where, f"not valid JSON: {exc}") from None


def load_json_file(path: str | Path, what: str = "JSON file") -> Any:
    return load_json_text(read_text(path, what), str(path))


def load_toml_text(text: str, where: str, max_bytes: int = MAX_BYTES) -> dict[str, Any]:
    """Parse TOML text after :func:`check_limits`; errors name the file and line."""
    check_limits(text, where, "toml", max_bytes)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise InputFileError(where, f"not valid TOML: {exc}",
                             line=int(m.group(1)) if m else None) from None
    except (ValueError, RecursionError) as exc:
        raise InputFileError(where, f"not valid TOML: {exc}") from None
    check_values(raw, where)
    return raw


def load_toml_file(path: str | Path, what: str = "TOML file") -> dict[str, Any]:
    return load_toml_text(read_text(path, what), str(path))


def check_values(data: Any, where: str) -> None:
    """Refuse non-finite floats, strings that are not valid Unicode text (lone surrogates)
    and nesting past :data:`MAX_DEPTH` anywhere in parsed data (iteratively; no recursion).
    A first pass only looks (:func:`_values_ok`); the error, naming the field, is found by
    the second, made only when the first saw something to refuse."""
    if _values_ok(data):
        return
    _check_values(data, where)


def _text_ok(s: str) -> bool:
    if s.isascii():
        return True
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _values_ok(data: Any) -> bool:
    """Whether :func:`_check_values` accepts ``data`` (no field paths made: a save holds
    hundreds of thousands of values); False also when unsure."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        v, depth = pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(v, dict):
            if v and depth >= MAX_DEPTH:
                return False
            inner = depth + 1
            for k, x in v.items():
                if type(k) is not str or not (k.isascii() or _text_ok(k)):
                    return False
                t = type(x)
                if t is str:
                    if not (x.isascii() or _text_ok(x)):
                        return False
                elif t is not int and t is not bool and x is not None:
                    push((x, inner))
        elif isinstance(v, list | tuple):
            if v and depth >= MAX_DEPTH:
                return False
            inner = depth + 1
            for x in v:
                t = type(x)
                if t is str:
                    if not (x.isascii() or _text_ok(x)):
                        return False
                elif t is not int and t is not bool and x is not None:
                    push((x, inner))
        elif isinstance(v, float):
            if not math.isfinite(v):
                return False
        elif isinstance(v, str) and not _text_ok(v):
            return False
    return True


def _check_values(data: Any, where: str) -> None:
    """:func:`check_values`, naming the field of the first value refused."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        v, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise InputFileError(where, f"nested more than {MAX_DEPTH} deep", field=path or None)
        if isinstance(v, dict):
            for k, x in v.items():
                if not isinstance(k, str):
                    raise InputFileError(where, "keys must be strings", field=path or None)
                _check_str(k, where, path)
                stack.append((x, f"{path}.{k}" if path else k, depth + 1))
        elif isinstance(v, list | tuple):
            stack.extend((x, f"{path}[{i}]", depth + 1) for i, x in enumerate(v))
        elif isinstance(v, float):
            if not math.isfinite(v):
                raise InputFileError(where, f"{v} is not a finite number", field=path or None)
        elif isinstance(v, str):
            _check_str(v, where, path)


def _check_str(s: str, where: str, path: str) -> None:
    if s.isascii():
        return
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputFileError(where, f"text holds an invalid character U+{ord(s[exc.start]):04X}"
                             " (a lone surrogate)", field=path or None) from None


# --- typed schemas --------------------------------------------------------------------------

#: Types msgspec has converted to once in this process (their decoding info is built).
_TYPES_BUILT: set[Any] = set()
_TYPES_LOCK = threading.Lock()


def typed(raw: Any, kind: type[T], *, strict: bool = True) -> T:
    """``msgspec.convert(raw, kind, strict=strict)``, with a type's first conversion in one
    thread at a time. msgspec builds a Struct type's decoding info on its first use, calling
    back into Python (the class's annotations) midway; two threads building it at once crash
    the process (seen: a server's warm-up and its first request parsing one scenario together
    died of SIGSEGV). Once built, conversions run without the lock.

    >>> class Pair(msgspec.Struct):
    ...     a: int
    >>> typed({"a": 1}, Pair)
    Pair(a=1)
    """
    if kind in _TYPES_BUILT:
        return msgspec.convert(raw, kind, strict=strict)
    with _TYPES_LOCK:
        try:
            return msgspec.convert(raw, kind, strict=strict)
        finally:
            _TYPES_BUILT.add(kind)


def convert(raw: Any, kind: type[T], where: str, prefix: str = "") -> T:
    """``raw`` as the msgspec Struct (or type) ``kind``, or an error naming the field.

    >>> class Box(msgspec.Struct, forbid_unknown_fields=True):
    ...     id: str
    ...     hidden: bool = False
    >>> convert({"id": "b1", "hidden": "no"}, Box, "s.toml", "boxes[0]")
    Traceback (most recent call last):
    ...
    grognard.core.inputs.InputFileError: s.toml, field boxes[0].hidden: expected true or false, not 'no'
    """
    try:
        return typed(raw, kind)
    except msgspec.ValidationError as exc:
        msg = str(exc)
        field, value, found = prefix, None, False
        m = re.search(r" - at `\$(.*)`$", msg)
        path = ""
        if m:
            msg = msg[: m.start()]
            path = _dict_keys(raw, kind, m.group(1), str(exc))
            field = f"{prefix}{path}" if prefix else path.lstrip(".")
            value, found = _at_path(raw, path)
        if m2 := re.match(r"Object contains unknown field `(.*)`", msg):
            known = ", ".join(_fields_at(kind, path))
            msg = f"unknown field {m2.group(1)!r} (known: {known})"
        elif m3 := re.match(r"Object missing required field `(.*)`", msg):
            msg = f"missing required field {m3.group(1)!r}"
        elif msg.startswith("Invalid enum value") and (choices := _choices_at(kind, path)):
            msg = "expected one of " + ", ".join(repr(c) for c in choices) + (
                f", not {value!r}" if found else "")
        else:
            msg = re.sub(r", got `\w+`$", "", msg)
            msg = re.sub(r"`([^`]*)`", lambda t: " or ".join(
                _TYPE_WORDS.get(w.strip(), w.strip()) for w in t.group(1).split("|")
                if w.strip() != "null"), msg)
            msg = msg[:1].lower() + msg[1:]
            if found and not isinstance(value, dict | list):
                msg += f", not {value!r}"
        raise InputFileError(where, msg, field=field or None) from None


_TYPE_WORDS = {"int": "an integer", "str": "a string", "bool": "true or false",
               "array": "an array", "object": "a table (object)", "float": "a number"}


def _dict_keys(raw: Any, kind: type[Any], path: str, error: str) -> str:
    """The error path with each table key msgspec writes as ``[...]`` named (``.values[...]``
    -> ``.values.belgium``): the key whose entry alone still fails the same way."""
    while (i := path.find("[...]")) >= 0:
        table, found = _at_path(raw, path[:i])
        key = None
        if found and isinstance(table, dict):
            for k in table:
                try:
                    typed(_with(raw, path[:i], {k: table[k]}), kind)
                except msgspec.ValidationError as exc:
                    if str(exc) == error:
                        key = k
                        break
        if key is None:
            return path
        path = f"{path[:i]}.{key}{path[i + 5:]}"
    return path


def _with(raw: Any, path: str, value: Any) -> Any:
    """``raw`` with the value at ``path`` (``.a[2].b``, as :func:`_at_path` reads it)
    replaced by ``value`` (copies along the path; ``raw`` is unchanged)."""
    m = re.match(r"\.([^.\[]+)|\[(\d+)\]", path)
    if m is None:
        return value
    rest = path[m.end():]
    if m.group(1) is not None:
        return {**raw, m.group(1): _with(raw[m.group(1)], rest, value)}
    out = list(raw)
    out[int(m.group(2))] = _with(out[int(m.group(2))], rest, value)
    return out


def _fields_at(kind: Any, path: str) -> tuple[str, ...]:
    """The fields of the Struct at ``path`` in ``kind`` (for an unknown field's message)."""
    t = _type_at(kind, path)
    return tuple(f.encode_name for f in t.fields) if isinstance(
        t, msgspec.inspect.StructType) else ()


def _choices_at(kind: Any, path: str) -> tuple[Any, ...]:
    """The values a Literal or Enum field at ``path`` allows (for a bad choice's message)."""
    t = _type_at(kind, path)
    if isinstance(t, msgspec.inspect.LiteralType):
        return tuple(t.values)
    if isinstance(t, msgspec.inspect.EnumType):
        return tuple(m.value for m in t.cls)
    return ()


def _type_at(kind: Any, path: str) -> Any:
    """The msgspec type info at a msgspec error path in ``kind`` (None where it is lost);
    an optional's None is looked through."""
    t: Any = msgspec.inspect.type_info(kind)
    for _ in [None, *re.findall(r"\.[^.\[]+|\[\d+\]", path)]:
        if _ is not None:
            if isinstance(t, msgspec.inspect.StructType):
                t = next((f.type for f in t.fields if f.encode_name == _[1:]), None)
            elif isinstance(t, msgspec.inspect.DictType):
                t = t.value_type
            elif isinstance(t, msgspec.inspect.ListType | msgspec.inspect.VarTupleType):
                t = t.item_type
            else:
                return None
        while isinstance(t, msgspec.inspect.Metadata | msgspec.inspect.UnionType):
            t = t.type if isinstance(t, msgspec.inspect.Metadata) else next(
                (x for x in t.types if not isinstance(x, msgspec.inspect.NoneType)), None)
    return t


def _at_path(raw: Any, path: str) -> tuple[Any, bool]:
    """The value at a msgspec error path such as ``.units[3].hidden`` (best effort)."""
    v = raw
    for key, idx in re.findall(r"\.([^.\[]+)|\[(\d+)\]", path):
        try:
            v = v[key] if key else v[int(idx)]
        except (KeyError, IndexError, TypeError):
            return None, False
    return v, True


# --- writing outputs ------------------------------------------------------------------------

def os_reason(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "no space left on the device"
    if exc.errno == errno.ENAMETOOLONG:
        return "file name too long"
    if exc.errno == errno.EISDIR:
        return "it is a directory"
    if exc.errno == errno.ENOENT:
        return "no such file or folder"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EROFS:
        return "read-only file system"
    return exc.strerror or str(exc)


def output_error(path: str | Path, exc: OSError, what: str = "output") -> InputFileError:
    """The one-line error for an output that could not be written."""
    return InputFileError(str(path), f"cannot write {what}: {os_reason(exc)}")


def check_output_path(path: str | Path, what: str = "output") -> Path:
    """Refuse an output path that is a directory or whose folder does not exist, before any
    work is done."""
    p = Path(path)
    try:
        if p.is_dir():
            raise InputFileError(str(p), f"cannot write {what}: it is a directory")
        parent = p.parent if str(p.parent) else Path(".")
        if not parent.is_dir():
            raise InputFileError(str(p), f"cannot write {what}: folder {parent} does not exist")
    except OSError as exc:
        raise output_error(p, exc, what) from None
    return p


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_atomic(path: str | Path, data: bytes | str, *, what: str = "output",
                 backup: str | Path | None = None) -> None:
    """Write ``data`` to ``path`` so that ``path`` always holds either its old or its new
    contents: a temporary file in the same folder, flushed and fsynced, renamed over ``path``.

    With ``backup``, the previous contents (if any) are first hard-linked (or copied) there.
    Errors (a directory, a missing folder, no permission, a name too long, a full disk) are one
    :class:`InputFileError` line; ``path`` is then unchanged and no temporary file is left.
    """
    blob = data.encode("utf-8") if isinstance(data, str) else data
    p = Path(path)
    with open_output(p, what) as tmp:
        with tmp.open("wb") as f:
            f.write(blob)
            f.flush()
            if tmp == p:  # a device or pipe: nothing to rename or back up
                return
            os.fsync(f.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, p.stat().st_mode & 0o7777)
        if backup is not None and p.exists():
            _keep_backup(p, Path(backup), tmp.parent)
    _fsync_dir(tmp.parent)


def _special(p: Path) -> bool:
    """An existing output that is not a regular file (a device, a pipe): never renamed over."""
    try:
        return not stat.S_ISREG(os.stat(p).st_mode)
    except OSError:
        return False


def _keep_backup(p: Path, bak: Path, folder: Path) -> None:
    """Make ``bak`` a copy of ``p`` without ever removing ``p`` (link, then rename)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{bak.name[:100]}.", suffix=".tmp", dir=folder)
    os.close(fd)
    try:
        os.unlink(tmp)
        try:
            os.link(p, tmp)
        except OSError:
            with p.open("rb") as src, open(tmp, "wb") as dst:
                while chunk := src.read(1 << 20):
                    dst.write(chunk)
                dst.flush()
                os.fsync(dst.fileno())
        os.replace(tmp, bak)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


@contextlib.contextmanager
def open_output(path: str | Path, what: str = "output") -> Iterator[Path]:
    """A temporary path in the same folder as ``path``, renamed over ``path`` when the block
    ends without error (removed otherwise); OS errors become one :class:`InputFileError` line.
    For writers that need a file name (matplotlib) and for :func:`write_atomic`."""
    p = check_output_path(path, what)
    if _special(p):  # /dev/stdout, /dev/full, a pipe: written in place, never replaced
        try:
            yield p
        except OSError as exc:
            raise output_error(p, exc, what) from None
        return
    folder = p.parent if str(p.parent) else Path(".")
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name[:100]}.", suffix=p.suffix[:20], dir=folder)
        os.close(fd)
        yield Path(tmp)
        os.replace(tmp, p)
        tmp = None
    except OSError as exc:
        raise output_error(p, exc, what) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
