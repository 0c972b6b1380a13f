"""Conformance checks every rule system's tests share (and bots or servers may reuse).

* :func:`assert_rejected`: an illegal order is refused with a matching reason and leaves the
  game exactly as it was (state hash, command log, dice streams).
* :func:`apply_or_unchanged`: apply an order if legal; if not, check nothing changed.
* :func:`assert_replays`: a save reloads byte-identical and replays to the same state.

>>> from grognard.engine.commands import Command
>>> g = Game.new("demo-europa", seed=1)
>>> str(assert_rejected(g, Command("move", "soviet", {"unit": "su-23tank", "path": ["1004"]}),
...                     "axis's movement phase"))
"SEQ: it is axis's movement phase; soviet may not act"
>>> assert_replays(g)
"""

from __future__ import annotations

import re

from grognard.core.errors import GrognardError
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.save import dumps, loads


def _fingerprint(game: Game) -> tuple[str, int, object]:
    return game.state_hash(), len(game.commands), game.dice.snapshot()


def assert_rejected(game: Game, cmd: Command, match: str) -> GrognardError:
    """``cmd`` is refused (``can`` says no, ``apply`` raises an error matching ``match``) and
    the game is untouched. Returns the error."""
    before = _fingerprint(game)
    if game.can(cmd):
        raise AssertionError(f"{cmd.kind} was expected to be illegal but can() accepts it")
    try:
        game.apply(cmd)
    except GrognardError as exc:
        err = exc
    else:
        raise AssertionError(f"{cmd.kind} was expected to be illegal but was applied")
    if not re.search(match, str(err)):
        raise AssertionError(f"error {str(err)!r} does not match {match!r}")
    if _fingerprint(game) != before:
        raise AssertionError(f"the refused {cmd.kind} changed the game")
    return err


def apply_or_unchanged(game: Game, cmd: Command) -> bool:
    """Apply ``cmd`` if it is legal (True); otherwise check it changed nothing (False)."""
    before = _fingerprint(game)
    try:
        game.apply(cmd)
    except GrognardError:
        if _fingerprint(game) != before:
            raise AssertionError(f"the refused {cmd.kind} changed the game") from None
        return False
    return True


def assert_replays(game: Game) -> None:
    """Save, reload (byte-identical) and replay: the same state and hash."""
    text = dumps(game)
    again = loads(text)
    if again.state_hash() != game.state_hash() or again.state != game.state:
        raise AssertionError("the reloaded save replays to a different state")
    if dumps(again) != text:
        raise AssertionError("the reloaded save is not byte-identical")
