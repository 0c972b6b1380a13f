"""EUR-06/EUR-22 The fire support an attack has earned in the air phase: the ground-support
result recorded on the hex for this player turn (``state["air"]["ground_support"]``, written by
the air phase's ``ground_support`` missions). Read by the attack (the referee supplies the
fire support; the order never names it) and by the air phase itself."""

from __future__ import annotations

from typing import Any

from grognard.europa.state_types import EuropaState


def ground_support_record(state: EuropaState, hex_label: str, player: str) -> dict[str, Any] | None:
    """The air phase's ground-support record on ``hex_label`` for ``player``'s attacks this
    turn (None: no ground support flown there)."""
    air = state.get("air")
    rec = (air if isinstance(air, dict) else {}).get("ground_support", {}).get(hex_label)
    if rec and rec["turn"] == int(state["turn"]) and rec["player"] == player:
        out: dict[str, Any] = rec
        return out
    return None


def ground_support_result(state: EuropaState, hex_label: str, player: str) -> int | None:
    """EUR-06/EUR-22 The air phase's ground-support result (0/1/2) on ``hex_label`` for
    ``player``'s attacks this player turn (None: no ground support flown there)."""
    rec = ground_support_record(state, hex_label, player)
    return None if rec is None else int(rec["hits"])
