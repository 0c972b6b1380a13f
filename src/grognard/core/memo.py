"""A small memo keyed by the identity of an immutable-by-convention value.

The rule packages parse the same JSON object, or ask about the same frozen value, many times
per command; folds replace such an object whenever it changes, so its identity is a safe key.
Only the last few values are kept, so memory stays bounded.

>>> memo: IdentityMemo[object, int] = IdentityMemo(2)
>>> a, b, c = object(), object(), object()
>>> calls = []
>>> make = lambda o: calls.append(o) or len(calls)
>>> memo.get(a, make), memo.get(a, make), memo.get(b, make), memo.get(c, make)
(1, 1, 2, 3)
>>> memo.get(a, make)  # dropped: only the last two values are kept
4
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class IdentityMemo(Generic[K, V]):
    """``get(key, make)``: ``make(key)`` once per object (compared by ``is``), for the last
    ``size`` objects asked about."""

    __slots__ = ("_items", "size")

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._items: list[tuple[K, V]] = []

    def get(self, key: K, make: Callable[[K], V]) -> V:
        for obj, value in self._items:
            if obj is key:
                return value
        value = make(key)
        self._items.insert(0, (key, value))
        del self._items[self.size:]
        return value
