"""Seats played by the bots (``grognard.bots``): given to a bot when a game is created from the
lobby, the bot moves on the server whenever its seat must act.

A bot sees only its seat's view and legal actions (:func:`grognard.bots.base.choose`) and
plays through the referee like any seat (its command is stored, versioned and logged the same
way). One worker thread per server plays the bots' turns in the order games are poked; a game
is poked after every command, undo and creation. A bot that finds nothing to do, or whose
choice the rules refuse, ends the phase if it may and otherwise stops (the seat then waits).
"""

from __future__ import annotations

import queue
import threading
from typing import Any

from sqlalchemy import insert, select

from grognard.bots.catalog import bot_names, choose
from grognard.core.errors import GrognardError, InputError
from grognard.engine.commands import Command
from grognard.server.extras_db import bot_seats, ready
from grognard.server.store import Store

MAX_COMMANDS_PER_POKE = 400


def seats_of(store: Store, gid: str) -> dict[str, tuple[str, str]]:
    """{player: (bot, token)} of the game's bot seats."""
    with ready(store.engine).connect() as conn:
        rows = conn.execute(select(bot_seats).where(bot_seats.c.game_id == gid)).mappings()
        return {r["player"]: (r["bot"], r["token"]) for r in rows}


def give(store: Store, gid: str, player: str, bot: str, token: str) -> None:
    if bot not in bot_names():
        raise InputError("bot", f"unknown bot {bot!r} (bots: {', '.join(bot_names())})")
    with ready(store.engine).begin() as conn:
        conn.execute(insert(bot_seats).values(game_id=gid, player=player, bot=bot,
                                              token=token))


class BotRunner:
    """The worker that plays the bots' seats (:meth:`poke` a game after it changed)."""

    def __init__(self, ref: Any) -> None:
        self.ref = ref
        self.jobs: queue.Queue[str] = queue.Queue()
        self.idle = threading.Event()
        self.idle.set()
        self.thread = threading.Thread(target=self._work, daemon=True, name="grognard-bots")
        self.thread.start()
        self.errors: list[str] = []
        self._seats: dict[str, dict[str, tuple[str, str]]] = {}

    def seats(self, gid: str) -> dict[str, tuple[str, str]]:
        """The game's bot seats (read once per game: they are given at creation)."""
        got = self._seats.get(gid)
        if got is None:
            got = self._seats[gid] = seats_of(self.ref.store, gid)
        return got

    def forget(self, gid: str) -> None:
        self._seats.pop(gid, None)

    def poke(self, gid: str) -> None:
        if self.seats(gid):
            self.idle.clear()
            self.jobs.put(gid)

    def wait(self, timeout: float = 60.0) -> bool:
        """Until every poked game is played up to a human seat (tests)."""
        return self.idle.wait(timeout)

    def _work(self) -> None:
        while True:
            gid = self.jobs.get()
            try:
                self.play(gid)
            except Exception as exc:  # a bot's failure never stops the server
                self.errors.append(f"{gid}: {type(exc).__name__}: {exc}")
            if self.jobs.empty():
                self.idle.set()

    def play(self, gid: str) -> int:
        """Play the game's bot seats while one of them must act; the number of commands."""
        bots = self.seats(gid)
        n = 0
        while n < MAX_COMMANDS_PER_POKE:
            with self.ref.hold(gid) as loaded:
                g = loaded.game
                version = loaded.version
                acting = [p for p in g.active() if p in bots] if not g.over else []
                if not acting:
                    return n
                player = acting[0]
                bot, token = bots[player]
                try:
                    cmd = choose(g, player, bot, seed=len(g.commands))
                except GrognardError:
                    cmd = Command("end_phase", player, {})
            try:
                self.ref.command(token, version, cmd.kind, dict(cmd.args), per_unit=True)
            except GrognardError:
                try:  # the rules refused the bot's choice: end the phase if it may
                    self.ref.command(token, version, "end_phase", {}, per_unit=True)
                except GrognardError:
                    return n
            n += 1
        return n
