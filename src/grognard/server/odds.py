"""The odds of an attack before its roll, and why: what the attack panel of the page shows.

The server asks the rules (:meth:`Game.odds`, the rule system's ``odds`` hook: the 3R
TR-32..TR-36 assessment in ``third_reich/combat/odds.py``, the Europa revised CRT in
``europa/combat/odds.py``) and knows no system. A system without the hook has no odds display:
EuroFront's battles start when an activation ends, against blocks face down until then, so any
odds would tell the attacker the defenders' hidden steps and firepower.
"""

from __future__ import annotations

from typing import Any

from grognard.engine.commands import Command
from grognard.engine.game import Game


def odds_of(game: Game, cmd: Command) -> dict[str, Any]:
    """The exact odds of ``cmd`` (verified by :meth:`Game.odds`), or an :class:`IllegalOrder`
    when the rules give none."""
    return {"odds": dict(game.odds(cmd))}
