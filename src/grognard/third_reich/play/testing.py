"""Test helpers of the ``third_reich`` system: orders whose defender reacts (TR-35/TR-55...).

An order written the old way, naming the defender's reacting units (``defensive_air``,
``interceptors``, ``air_interceptors``), is played as the referee plays it: the phasing
player's order without them, then the defender's own ``defensive_air`` / ``intercept``
command naming them (or none).
"""

from __future__ import annotations

from grognard.engine.commands import Command
from grognard.engine.events import Event
from grognard.engine.game import Game
from grognard.engine.testing import assert_rejected
from grognard.third_reich.reactions import REACTIONS


def split_order(cmd: Command) -> tuple[Command, dict[str, object]]:
    """The phasing player's part of ``cmd`` and the defender's arguments."""
    r = REACTIONS.get(cmd.kind)
    if r is None:
        return cmd, {}
    mine = {k: v for k, v in cmd.args.items() if k not in r.keys}
    theirs = {k: v for k, v in cmd.args.items() if k in r.keys and v}
    return Command(cmd.kind, cmd.player, mine), theirs


def reaction_after(game: Game, cmd: Command) -> Command:
    """Apply the phasing part of ``cmd``; the defender's reaction command it awaits (naming
    the units ``cmd`` named). Fails if no reaction is owed."""
    order, theirs = split_order(cmd)
    game.apply(order)
    p = game.state.get("pending_reaction")
    if not p:
        raise AssertionError(f"{cmd.kind} did not wait for the defender's reaction")
    return Command(p["reaction"], p["defender"], theirs)


BOOKKEEPING = frozenset({"reaction_owed", "reaction_made"})


def play_order(game: Game, cmd: Command) -> list[Event]:
    """Apply ``cmd`` as the referee does: the phasing part, then (when a reaction is owed) the
    defender's part; the order's events (without ``reaction_owed``/``reaction_made``)."""
    order, theirs = split_order(cmd)
    events = game.apply(order)
    p = game.state.get("pending_reaction")
    if p:
        events = [*events, *game.apply(Command(p["reaction"], p["defender"], theirs))]
    elif theirs:
        raise AssertionError(f"{cmd.kind}: no reaction was owed, yet {sorted(theirs)} named")
    return [e for e in events if e.type not in BOOKKEEPING]


def assert_reaction_rejected(game: Game, cmd: Command, match: str) -> None:
    """On a copy of ``game``: the phasing part of ``cmd`` waits for the defender, whose
    reaction naming the units ``cmd`` named is refused with an error matching ``match``."""
    copy = Game.replay(game.scenario, game.seed, game.commands, readings=game.readings)
    assert_rejected(copy, reaction_after(copy, cmd), match)


def assert_no_reaction(game: Game, cmd: Command) -> list[Event]:
    """The phasing part of ``cmd`` runs at once: the defender has no unit that may react
    (the defender's arguments in ``cmd`` are dropped); its events."""
    order, _ = split_order(cmd)
    events = game.apply(order)
    if game.state.get("pending_reaction"):
        raise AssertionError(f"{cmd.kind} waits for a reaction: {game.state['pending_reaction']}")
    return events


#: TR-32 answers owed after a battle: the loser's units lost, the attacker's advance.
BATTLE_ANSWERS = frozenset({"land_losses", "advance"})


def settle_battle(game: Game, advance: bool = True) -> list[Event]:
    """Answer the decisions a battle still owes with the first listed answer (the weakest
    units lost; the largest, strongest advance, or none with ``advance`` false); their
    events."""
    events: list[Event] = []
    while True:
        owed = [d for d in game.decisions() if d.kinds & BATTLE_ANSWERS]
        if not owed:
            return events
        d = owed[0]
        (kind,) = sorted(d.kinds & BATTLE_ANSWERS)
        legal = game.legal(d.player, kind)
        events += game.apply(legal[0] if advance or kind != "advance" else legal[-1])
