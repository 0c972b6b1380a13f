"""msgspec builds a Struct type's decoding info on its first conversion, calling back into Python
midway; two threads doing that first conversion at once crashed ``grognard serve`` with SIGSEGV
(its warm-up thread and its first request parsing one scenario together; seen as the durability
test's server closing the connection unanswered). ``core.inputs.typed`` lets one thread at a time
make a type's first conversion, and every conversion in the package goes through it."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from grognard.core import inputs

SRC = Path(inputs.__file__).resolve().parents[1]


def _racing_convert(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """msgspec.convert replaced by a slow stand-in that counts how many threads are inside."""
    seen = {"inside": 0, "most": 0}
    guard = threading.Lock()
    real = msgspec.convert

    def slow(raw: Any, kind: Any, **kw: Any) -> Any:
        with guard:
            seen["inside"] += 1
            seen["most"] = max(seen["most"], seen["inside"])
        time.sleep(0.05)
        with guard:
            seen["inside"] -= 1
        return real(raw, kind, **kw)

    monkeypatch.setattr(msgspec, "convert", slow)
    return seen


def _four_at_once(kind: type[Any]) -> None:
    start = threading.Barrier(4)

    def go() -> None:
        start.wait()
        assert inputs.typed({"a": 1}, kind).a == 1

    threads = [threading.Thread(target=go) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def test_a_types_first_conversion_is_made_by_one_thread_at_a_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Fresh(msgspec.Struct):
        a: int

    seen = _racing_convert(monkeypatch)
    _four_at_once(Fresh)
    assert seen["most"] == 1  # a planted plain msgspec.convert would let 4 in at once
    assert Fresh in inputs._TYPES_BUILT


def test_a_built_type_converts_in_many_threads_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    class Built(msgspec.Struct):
        a: int

    inputs.typed({"a": 0}, Built)
    seen = _racing_convert(monkeypatch)
    _four_at_once(Built)
    assert seen["most"] > 1  # no lock once the type is built


def test_a_failed_first_conversion_still_counts_as_built() -> None:
    class Strict(msgspec.Struct):
        a: int

    with pytest.raises(msgspec.ValidationError):
        inputs.typed({"a": "x"}, Strict)
    assert Strict in inputs._TYPES_BUILT


def test_every_conversion_in_the_package_goes_through_typed() -> None:
    plain = [f"{p.relative_to(SRC)}:{n}" for p in SRC.rglob("*.py")
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"msgspec\.convert\(", line) and p.name != "inputs.py"
             and not line.lstrip().startswith(("#", "``"))]
    assert plain == []
