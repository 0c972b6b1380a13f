"""The Europa ledger a seat sees and its logistics events in words (the rule system's
``ledger`` and ``event_words`` hooks), beside the FitE logistics rules (:mod:`.logistics`,
EUR-37..EUR-41).

* Ledger: each side's SP stockpile, the special SPs (EUR-39) and the German supply zone
  (EUR-38), read from the seat's view (``logistics``: ``sp``, ``special``, ``zone``); nothing
  for a scenario without FitE logistics.
* Words: why a stockpile changed, one log line per posting - ``sp_paid`` (EUR-37),
  ``supply_received`` (EUR-38/40/41), ``supply_zone_entered`` (EUR-38),
  ``special_supply_expired`` (EUR-39) - citing the rules the event names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from grognard.engine.system import event_words_of


def ledger(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``("<side> SPs", stockpile)`` of each side by name, then ``("special SPs", n)`` and
    ``("supply zone", zone)``, exact; nothing when the view holds no stockpiles."""
    lg = view.get("logistics")
    if not isinstance(lg, Mapping) or not isinstance(lg.get("sp"), Mapping):
        return []
    out = [(f"{side} SPs", str(sp)) for side, sp in sorted(lg["sp"].items())]
    out.append(("special SPs", str(lg.get("special", 0))))
    out.append(("supply zone", str(lg.get("zone"))))
    return out


def _rules(d: Mapping[str, Any]) -> str:
    return ", ".join(str(r) for r in d.get("rules", []))


def _received(d: Mapping[str, Any]) -> str:
    return (f"{d['side']} receives {d['received']} SP: zone {d['zone']} rate {d['base']}"
            + (f" + {d['increment']}" if d.get("increment") else "")
            + (f", {d['weather']} -{d['reduction']}" if d.get("reduction") else "")
            + f" ({_rules(d)})")


#: The logistics events in words (why a stockpile changed), by event type.
WORDS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "sp_paid": lambda d: f"{d['side']} pays {d['charge']} SP for {d['what']} ({_rules(d)})",
    "supply_received": _received,
    "supply_zone_entered": lambda d: (f"the German advance reaches supply zone {d['to']}: "
                                      f"stockpile {d['sp_before']} x {d['factor']} = "
                                      f"{d['sp_after']} ({_rules(d)})"),
    "special_supply_expired": lambda d: (f"{d['side']} loses {d['lost']} unused special SPs "
                                         f"({_rules(d)})"),
    "reinforcement_placed": lambda d: (f"{d['player']} places reinforcement {d['unit']} at "
                                       f"{d['hex']} ({_rules(d)})"),
    "reinforcements_delayed": lambda d: (f"{d['player']}'s reinforcements not placed wait for "
                                         f"turn {d['to']}: {', '.join(d['units'])} "
                                         f"({_rules(d)})"),
}

#: The ``event_words`` hook: a logistics event's line; any other event, none.
event_words = event_words_of(WORDS)

__all__ = ["WORDS", "event_words", "ledger"]
