"""The bot interface: ``choose(view, legal_actions) -> Command``, seeded and deterministic.

A bot is built for one player of one game (:class:`Seat`: the player, a seed, and the game's
public context - scenario, tables, readings) and from then on sees only what that player sees:
``Game.view(player)`` and ``Game.legal(player)``. Its randomness comes from a grognard dice
stream named after the bot and the player, so the same seed and the same calls give the same
choices. :func:`legal_actions` is what a bot may choose from: the engine's enumerated commands,
plus, for an allowed kind that has no enumerator yet and takes no arguments (``end_phase``,
``year_start``), the bare command when the rules accept it.

>>> from grognard.engine.game import Game
>>> g = Game.new("demo-europa", seed=3)
>>> kinds = {c.kind for c in legal_actions(g, "axis")}
>>> "end_phase" in kinds and "move" in kinds
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, overload

from grognard.core.dice import DiceStream
from grognard.core.errors import InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.game import Game
from grognard.engine.state import JSON
from grognard.engine.views import hide_secrets


@dataclass(frozen=True)
class Seat:
    """Where a bot sits: its player, its seed, the game's public context, and the command
    kinds its rule system has (a policy is chosen by the kinds it plays, never by the system's
    name)."""

    player: str
    seed: int
    context: Context
    kinds: frozenset[str]

    @classmethod
    def of(cls, game: Game, player: str, seed: int = 0) -> Seat:
        if player not in game.scenario.sides:
            raise InputError("--player", f"{player!r} is not a side of {game.scenario.id} "
                             f"(sides: {', '.join(game.scenario.sides)})")
        return cls(player, seed, game.context, frozenset(game.system.commands))


class NoLegalAction(InputError):
    """The bot's player has no legal action now."""

    def __init__(self, player: str) -> None:
        super().__init__("legal_actions", f"{player} has no legal action")


class Bot(Protocol):
    """A player: picks one of ``legal_actions`` from ``view`` (its own player's view)."""

    name: str
    seat: Seat

    def choose(self, view: JSON, legal_actions: Sequence[Command]) -> Command: ...


def rng(seat: Seat, name: str) -> DiceStream:
    """The bot's own dice stream (never the game's: a bot's choices roll no game dice)."""
    return DiceStream(seat.seed, f"bot.{name}.{seat.player}")


def _argument_free(game: Game, kind: str) -> bool:
    spec = game.system.commands.get(kind)
    return spec is not None and spec.legal is None and not spec.example


class LegalActions(Sequence[Command]):
    """What ``player`` may choose now, enumerated kind by kind on demand.

    As a sequence it is every action (``Game.legal`` kind by kind in sorted order, plus the
    argument-free unenumerated kinds the rules accept, see :func:`legal_actions`). A bot that
    needs only some kinds asks :meth:`of` or :meth:`preferring` and the others are never
    enumerated (the engine verifies every candidate it lists, so enumerating a kind costs).
    """

    def __init__(self, game: Game, player: str) -> None:
        self.game = game
        self.player = player
        self._of: dict[str, list[Command]] = {}
        self._proposed: dict[str, list[Command]] = {}
        self._all: list[Command] | None = None
        unenum = set(game.unenumerated(player))
        self._kinds = tuple(sorted(k for k in game.allowed(player)
                                   if k not in unenum or _argument_free(game, k)))

    def kinds(self) -> tuple[str, ...]:
        """The kinds that may have legal actions now (each may still have none)."""
        return self._kinds

    def of(self, kind: str) -> list[Command]:
        """The legal actions of one kind (enumerated once)."""
        got = self._of.get(kind)
        if got is None:
            if kind not in self._kinds:
                got = []
            elif _argument_free(self.game, kind):
                cmd = Command(kind, self.player, {})
                got = [cmd] if self.game.can(cmd) else []
            else:
                got = self.game.legal(self.player, kind)
            self._of[kind] = got
        return got

    def preferring(self, kinds: Iterable[str]) -> list[Command]:
        """The actions of ``kinds`` and ``end_phase`` when the phase may end now; otherwise
        (a decision owed, the phase cannot end) every action. A bot that never plays another
        kind while it may end the phase chooses from this list exactly as from all."""
        want = set(kinds) | {"end_phase"}
        some = [c for k in self._kinds if k in want for c in self.of(k)]
        if any(c.kind == "end_phase" for c in some):
            return some
        return list(self)

    def candidates(self, kind: str) -> list[Command]:
        """Cheap candidates of one kind, not checked: the spec's proposer (a superset of the
        legal commands, see :meth:`CommandSpec.with_proposer`), else the legal actions. A bot
        ranks them and checks only the one it picks (:meth:`allows`), instead of verifying
        every candidate as :meth:`of` does."""
        if kind not in self._kinds:
            return []
        spec = self.game.system.commands.get(kind)
        if spec is None or spec.propose is None:
            return self.of(kind)
        got = self._proposed.get(kind)
        if got is None:
            got = self._proposed[kind] = list(
                spec.propose(self.game.context, self.game.state, self.player))
        return got

    def sample(self, kind: str, rng: random.Random) -> Command | None:
        """A uniformly random legal command of ``kind`` (:meth:`Game.sample`: rejection
        sampling over the proposer's candidates), or None if the kind has none now."""
        if kind not in self._kinds:
            return None
        if _argument_free(self.game, kind):
            got = self.of(kind)
            return got[0] if got else None
        return self.game.sample(self.player, kind, rng)

    def allows(self, cmd: Command) -> bool:
        """Whether ``cmd`` is legal now (the rules' own check, without enumerating)."""
        if cmd.player != self.player or cmd.kind not in self._kinds:
            return False
        listed = self._of.get(cmd.kind)
        return (listed is not None and cmd in listed) or self.game.can(cmd)

    def _every(self) -> list[Command]:
        if self._all is None:
            self._all = [c for k in self._kinds for c in self.of(k)]
        return self._all

    def __bool__(self) -> bool:
        return any(self.of(k) for k in sorted(self._kinds, key=lambda k: k != "end_phase"))

    def __len__(self) -> int:
        return len(self._every())

    def __iter__(self) -> Iterator[Command]:
        return iter(self._every())

    @overload
    def __getitem__(self, i: int) -> Command: ...
    @overload
    def __getitem__(self, i: slice) -> list[Command]: ...
    def __getitem__(self, i: int | slice) -> Command | list[Command]:
        return self._every()[i]


def shared_view(state: JSON, player: str) -> JSON:
    """:func:`~grognard.engine.views.hide_secrets` without the copy: the same content (other
    players' secrets gone, their hidden units shown by side and place only), sharing the
    state's values, which a bot reads and never changes. For rule systems whose view is
    whose view is exactly ``hide_secrets`` (:data:`_SECRETS_ONLY`); the copy was most of a bot
    decision."""
    view = dict(state)
    secrets = view.get("secrets")
    if isinstance(secrets, dict):
        view["secrets"] = {p: v for p, v in secrets.items() if p == player}
    units = view.get("units")
    if isinstance(units, dict) and any(u.get("hidden") and u.get("side") != player
                                       for u in units.values()):
        view["units"] = hide_secrets({"units": units}, player)["units"]
    view["viewer"] = player
    return view


class LazyView(Mapping[str, Any]):
    """``Game.view(player)`` made on first use: a bot that follows a plan (or ends a phase)
    never pays for copying the state. ``turn`` and ``phase`` (public) are read without
    making the view."""

    PUBLIC = frozenset({"turn", "phase"})

    def __init__(self, game: Game, player: str) -> None:
        self._game = game
        self._player = player
        self._view: JSON | None = None

    def _made(self) -> JSON:
        if self._view is None:
            view = self._game.system.view
            self._view = (shared_view(self._game.state, self._player)
                          if view in _SECRETS_ONLY or getattr(view, "secrets_only", False)
                          else self._game.view(self._player))
        return self._view

    def __getitem__(self, key: str) -> Any:
        if self._view is None and key in self.PUBLIC:
            return self._game.state[key]
        return self._made()[key]

    def get(self, key: str, default: Any = None) -> Any:
        if self._view is None and key in self.PUBLIC:
            return self._game.state.get(key, default)
        return self._made().get(key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._made())


#: Views that are exactly :func:`hide_secrets`: a system whose ``view`` is this function, or
#: a function marked ``secrets_only = True`` by its rule system (no system is named here).
_SECRETS_ONLY = frozenset({hide_secrets})


def legal_actions(game: Game, player: str) -> list[Command]:
    """What ``player`` may choose now: ``Game.legal`` plus argument-free unenumerated kinds.

    An allowed kind without an enumerator is offered only when it takes no arguments (its
    spec gives no example) and ``Game.can`` accepts the bare command; any other unenumerated
    kind cannot be chosen by a bot. (:class:`LegalActions` is the same list, enumerated
    lazily.)
    """
    return list(LegalActions(game, player))


def args_units(args: Mapping[str, Any], key: str) -> list[str]:
    """The unit ids listed under ``key`` in a command's arguments (empty if none)."""
    v = args.get(key)
    return [str(x) for x in v] if isinstance(v, list) else []
