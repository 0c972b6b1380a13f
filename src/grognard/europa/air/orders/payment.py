"""EUR-37 Air units used pay SPs where the scenario keeps stockpiles: a mission's units when
assigned, interceptors when they intercept (refused if it cannot be paid; an ``sp_paid`` event
after the command's own)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.europa.logistics import air_payment, paid_event
from grognard.europa.state_types import EuropaState


def air_ids(args: Any, key: str) -> list[str]:
    """The air unit ids an order names under ``key`` (none when it names none)."""
    ids = args.get(key) if isinstance(args, Mapping) else None
    return [str(i) for i in ids] if isinstance(ids, list) else []


def verify_paid(ctx: Context, state: EuropaState, cmd: Command, key: str) -> None:
    """EUR-37 Refused when the air units named under ``key`` cannot be paid for."""
    air_payment(ctx, state, cmd.player, air_ids(cmd.args, key))


def with_payment(ctx: Context, state: EuropaState, cmd: Command, key: str, events: list[Event]
                 ) -> list[Event]:
    """``events`` followed by the ``sp_paid`` event of the air units under ``key``."""
    paid = air_payment(ctx, state, cmd.player, air_ids(cmd.args, key))
    return events if paid is None else [*events, paid_event(paid)]
