"""Issue 22 (session 13): the input gate's first passes (core/inputs._values_ok and
_deeper_than, engine/save._args_ok) only look; the full checks name the field. Whatever the
input, the gate refuses exactly what the full checks refuse, in the same words."""

from __future__ import annotations

import json
import random

import pytest

from grognard.core import inputs
from grognard.core.inputs import InputFileError, check_limits, check_values
from grognard.engine import save


def _verdict(check, value):  # type: ignore[no-untyped-def]
    try:
        check(value, "x")
    except InputFileError as exc:
        return str(exc)
    return None


def _nested(depth: int, leaf: object) -> object:
    v = leaf
    for i in range(depth):
        v = [v] if i % 2 else {"k": v}
    return v


CASES: list[object] = [
    {}, [], "", 0, None, True, 1.5, float("nan"), float("inf"), "ok", "Kraków", "\ud800",
    {"a": "\udfff"}, {"\ud800": 1}, {1: "x"}, {"a": [1, 2, {"b": float("-inf")}]},
    ("t", 1), [("t", float("nan"))], {"a": 2**60}, {"a": -(2**53) - 1}, {"a": 2**53},
    {"a": 20.9}, {"a": "x" * 1001}, {"x" * 1001: 1}, {"a": [0] * 10_001}, {"a": [0] * 9_000},
    {"a": object()}, {"a": b"bytes"}, {"a": False, "b": None, "c": [True, -3]},
    _nested(15, 1), _nested(16, 1), _nested(17, 1), _nested(63, "x"), _nested(64, "x"),
    _nested(65, "x"), _nested(64, []), _nested(64, {}), _nested(65, []), _nested(70, 1.0),
]


@pytest.mark.parametrize("value", CASES, ids=range(len(CASES)))
def test_value_gate_refuses_what_the_full_check_refuses(value: object) -> None:
    """Values (check_values) and command arguments (command_values)."""
    assert _verdict(check_values, value) == _verdict(inputs._check_values, value)

    def full_args(v, where):  # type: ignore[no-untyped-def]
        real = save._args_ok
        save._args_ok = lambda _v: False  # type: ignore[assignment]
        try:
            save.command_values(v, where)
        finally:
            save._args_ok = real  # type: ignore[assignment]
    assert _verdict(save.command_values, value) == _verdict(full_args, value)


def test_value_gate_on_random_documents() -> None:
    """Random JSON-like documents with a bad value planted now and then."""
    rng = random.Random(7)
    bad = [float("nan"), "\ud834", 2**54, 1.25, "y" * 1200, ("tuple",)]

    def doc(depth: int) -> object:
        r = rng.random()
        if depth > 12 or r < 0.3:
            return rng.choice([1, "a", None, True, "é", -5]) if rng.random() > 0.1 \
                else rng.choice(bad)
        if r < 0.65:
            return [doc(depth + 1) for _ in range(rng.randrange(4))]
        return {rng.choice("abcdé"): doc(depth + 1) for _ in range(rng.randrange(4))}

    refused = 0
    for _ in range(400):
        d = doc(0)
        want = _verdict(inputs._check_values, d)
        assert _verdict(check_values, d) == want
        refused += want is not None
    assert refused > 10


def _limits_full(text: str) -> str | None:
    real = inputs._deeper_than
    inputs._deeper_than = lambda _b, _l: True  # type: ignore[assignment]
    try:
        return _verdict(lambda t, w: check_limits(t, w), text)
    finally:
        inputs._deeper_than = real  # type: ignore[assignment]


@pytest.mark.parametrize("text", [
    "[]", "{}", "[" * 64 + "]" * 64, "[" * 65 + "]" * 65, "]" * 3 + "[" * 64 + "]" * 64,
    "]" * 3 + "[" * 65, '["[[[[[[", {"a": "}}}}"}]', "[" * 60 + '"' + "[" * 10 + '"' + "]" * 60,
    json.dumps({"a": [[[[1]]]], "b": "x" * 100}), "{" * 40 + "[" * 30, "}]" * 80,
    "[1, 2, 12345678901234567890123456789012345678901234567890123456789012345678901]",
])
def test_bracket_gate_refuses_what_the_bracket_walk_refuses(text: str) -> None:
    assert _verdict(lambda t, w: check_limits(t, w), text) == _limits_full(text)
