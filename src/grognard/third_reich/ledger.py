"""The 3R ledger a seat sees (the rule system's ``ledger`` hook): the BRPs on hand of each
power (TR-07..TR-19, the economy's ledger), read from the seat's view.

The view holds the economy's summary (``economy.summary[power]["brp"]``, exact JSON: an int or
a fraction's string); every power's BRPs are public, so each is shown, by power name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def ledger(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``("<power> BRPs", exact BRPs)`` of each power in the view's economy summary, by power
    name; nothing when the view holds no economy (a scenario without one)."""
    eco = view.get("economy")
    summary = eco.get("summary") if isinstance(eco, Mapping) else None
    if not isinstance(summary, Mapping):
        return []
    return [(f"{power} BRPs", str(acc["brp"])) for power, acc in sorted(summary.items())
            if isinstance(acc, Mapping) and "brp" in acc]


__all__ = ["ledger"]
