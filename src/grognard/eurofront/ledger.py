"""The EuroFront ledger a seat sees (the rule system's ``ledger`` hook): each side's
production points on hand (spent on builds, rebuilds and the EF-04..EF-06 programmes,
earned at each month's end), read from the seat's view (``pp``: side -> PP, which the view shows for both sides: a side's blocks
are hidden, its production points are not)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def ledger(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``("<side> PPs", PP on hand)`` of each side in the view, by side name; nothing when the
    view holds no production points."""
    pp = view.get("pp")
    if not isinstance(pp, Mapping):
        return []
    return [(f"{side} PPs", str(n)) for side, n in sorted(pp.items())]


__all__ = ["ledger"]
