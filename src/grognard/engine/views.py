"""Per-player views (C-HIDDEN): strip what a player may not see.

Two conventions cover the generic cases:

* ``state["secrets"][player]`` holds a player's private data (chits chosen, plans); other
  players' entries are removed.
* a unit with ``"hidden": true`` (face down, inverted submarines) shows other players only its
  side and location; its identity and strengths are replaced by ``"hidden": true``.
"""

from __future__ import annotations

import hashlib

from grognard.engine.state import JSON, copy_state

PUBLIC_UNIT_KEYS = ("side", "hex", "box", "hidden")


def _place_order(item: tuple[str, JSON]) -> tuple[str, str, str]:
    uid, u = item
    where = str(u.get("hex") or "") + "|" + str(u.get("box") or "")
    return where, str(u.get("side") or ""), hashlib.sha256(uid.encode()).hexdigest()


def hide_secrets(state: JSON, player: str) -> JSON:
    """A copy of ``state`` as ``player`` may see it."""
    view = copy_state(state)
    secrets = view.get("secrets")
    if isinstance(secrets, dict):
        view["secrets"] = {p: v for p, v in secrets.items() if p == player}
    units = view.get("units")
    if isinstance(units, dict):
        shown: dict[str, JSON] = {}
        n = 0
        # hidden units are numbered by place, then by a digest of the id, so that neither
        # their ids nor the order of their ids shows through
        for uid, u in sorted(units.items(), key=_place_order):
            if u.get("hidden") and u.get("side") != player:
                n += 1
                shown[f"hidden-{n}"] = {k: u.get(k) for k in PUBLIC_UNIT_KEYS}
            else:
                shown[uid] = u
        view["units"] = shown
    view["viewer"] = player
    return view
