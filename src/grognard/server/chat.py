"""Per-game chat that respects seats: a message goes to every side or to one side, and a seat
reads only the messages to every side, to itself, or from itself. Nothing in a message comes
from the game's state: players write it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import insert, or_, select

from grognard.core.errors import InputError
from grognard.server.extras_db import chat, ready
from grognard.server.store import Store

MAX_CHARS = 2000
EVERYONE = "all"


def post(store: Store, gid: str, sender: str, recipient: str, text: str,
         sides: list[str]) -> None:
    text = text.strip()
    if not text:
        raise InputError("text", "an empty message")
    if len(text) > MAX_CHARS:
        raise InputError("text", f"at most {MAX_CHARS} characters")
    if recipient not in (EVERYONE, *sides) or recipient == sender:
        raise InputError("to", f"must be {EVERYONE} or another side ({', '.join(sides)})")
    with ready(store.engine).begin() as conn:
        conn.execute(insert(chat).values(game_id=gid, sender=sender, recipient=recipient,
                                         text=text, at=dt.datetime.now(dt.UTC)
                                         .strftime("%Y-%m-%d %H:%M")))


def read(store: Store, gid: str, player: str) -> list[dict[str, Any]]:
    """The messages ``player`` may read, oldest first."""
    with ready(store.engine).connect() as conn:
        rows = conn.execute(select(chat).where(chat.c.game_id == gid).where(or_(
            chat.c.recipient == EVERYONE, chat.c.recipient == player,
            chat.c.sender == player)).order_by(chat.c.id)).mappings().all()
    return [{"from": r["sender"], "to": r["recipient"], "text": r["text"], "at": r["at"]}
            for r in rows]
