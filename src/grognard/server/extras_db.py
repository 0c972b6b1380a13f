"""The tables of the play page's extras (chat, notification settings, bot seats), kept on the
game store's database beside its own tables, created on first use."""

from __future__ import annotations

from sqlalchemy import Column, Integer, MetaData, String, Table, Text
from sqlalchemy.engine import Engine

metadata = MetaData()

chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), nullable=False, index=True),
    Column("sender", String(64), nullable=False),
    Column("recipient", String(64), nullable=False),  # a side, or "all"
    Column("text", Text, nullable=False),
    Column("at", String(32), nullable=False),
)

notify = Table(
    "notify", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("webhook", String(1000), nullable=False, default=""),
    Column("email", String(320), nullable=False, default=""),
)

bot_seats = Table(
    "bot_seats", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("bot", String(64), nullable=False),
    Column("token", String(64), nullable=False),
)

_made: set[int] = set()


def ready(engine: Engine) -> Engine:
    """``engine`` with these tables created (once per engine)."""
    if id(engine) not in _made:
        metadata.create_all(engine)
        _made.add(id(engine))
    return engine
