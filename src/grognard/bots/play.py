"""Bots playing whole games, and the facts of a finished game for studies.

:func:`play_game` seats one bot per side and plays until the rules say the game is over, a
player has nothing left to choose (``stuck``), or a limit of commands or turns is reached.
Each bot sees only ``Game.view(player)`` and :func:`~grognard.bots.base.legal_actions`.
:class:`GameRecord` keeps what a study reports, read from the game's state as it goes (any
fact a scenario lacks is simply absent): the result and victory level, turns and commands,
the BRPs and BRP base of every power at the end of each turn (3R economy), the turn each capital changed
hands, and the units lost by side and arm.

>>> from grognard.engine.game import Game
>>> rec = play_game(Game.new("demo-europa", seed=2), {"axis": "random", "soviet": "random"},
...                 seed=2, max_turns=2)
>>> rec.end in ("over", "stuck", "max_turns", "max_commands"), rec.commands > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from grognard.bots.base import Bot, LazyView, LegalActions, NoLegalAction, Seat
from grognard.bots.catalog import make_bot
from grognard.core.errors import GrognardError
from grognard.core.mapdata import CityClass
from grognard.engine.game import Game
from grognard.engine.state import JSON

DEFAULT_MAX_COMMANDS = 20_000


@dataclass
class GameRecord:
    """What one bot game produced (JSON-ready: ints, strings, lists, dicts)."""

    scenario: str
    seed: int
    bots: dict[str, str]
    end: str = ""
    winner: str | None = None
    level: str | None = None
    reason: str | None = None
    #: the last turn played (at most the turn limit)
    turns: int = 0
    date: str | None = None
    commands: int = 0
    refused: int = 0
    error: str | None = None
    state_hash: str = ""
    brp: list[dict[str, Any]] = field(default_factory=list)
    capitals: dict[str, dict[str, Any]] = field(default_factory=dict)
    losses: dict[str, dict[str, int]] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    #: a game stopped before its end (a turn or command limit): the verdict had it ended
    #: there (the system's ``standing`` hook, its plain values); None for a game that reached
    #: its end (``result``) or a system that judges none
    standing: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> GameRecord:
        return cls(**{k: raw[k] for k in cls.__dataclass_fields__ if k in raw})


def _date(game: Game) -> str | None:
    hook = game.system.turn_label
    return None if hook is None else hook(game.context, game.state)


def _label(game: Game, turn: int) -> str | None:
    """The date of ``turn`` (the system's turn label of a state at that turn)."""
    hook = game.system.turn_label
    return None if hook is None else hook(game.context, {**game.state, "turn": turn})


def brp_row(game: Game) -> dict[str, Any] | None:
    """The BRPs of each power now (a 3R economy), or None if the scenario keeps none."""
    econ = game.state.get("economy")
    summary = econ.get("summary") if isinstance(econ, Mapping) else None
    if not isinstance(summary, Mapping):
        return None
    rows = {p: v for p, v in sorted(summary.items()) if isinstance(v, Mapping)}
    return {"turn": game.turn, "date": _date(game),
            "brp": {p: int(v.get("brp", 0)) for p, v in rows.items()},
            "base": {p: int(v.get("base", 0)) for p, v in rows.items()}}


def capitals_of(game: Game) -> dict[str, str]:
    """Capital city name -> its country, from the map."""
    out: dict[str, str] = {}
    for cities in game.scenario.map.cities.values():
        for c in cities:
            if CityClass.CAPITAL in c.classes:
                out[c.name] = c.country or c.name
    return out


def losses_of(end: JSON) -> dict[str, dict[str, int]]:
    """Units eliminated by the end (at the start or built later), by side and arm."""
    out: dict[str, dict[str, int]] = {}
    for u in end.get("units", {}).values():
        if u.get("status") != "eliminated":
            continue
        side, arm = str(u.get("side")), str(u.get("type", "unit"))
        out.setdefault(side, {})
        out[side][arm] = out[side].get(arm, 0) + 1
    return {s: dict(sorted(v.items())) for s, v in sorted(out.items())}


def play_game(
    game: Game,
    bots: Mapping[str, str | Bot],
    seed: int = 0,
    max_commands: int = DEFAULT_MAX_COMMANDS,
    max_turns: int | None = None,
) -> GameRecord:
    """Play ``game`` with a bot per side until it ends or a limit is reached.

    A command the rules refuse although they enumerated it (a rule system's bug) ends the game
    with ``end = "error"`` and the message in ``error``, so one bad game does not stop a study.
    """
    seats = {p: (make_bot(b, Seat.of(game, p, seed)) if isinstance(b, str) else b)
             for p, b in bots.items()}
    rec = GameRecord(game.scenario.id, seed, {p: b.name for p, b in seats.items()})
    caps = capitals_of(game)
    control0 = dict(game.state.get("control", {}) or {})
    played_in = game.turn  # the turn of the last command (a capital falls in that turn)
    while True:
        row = brp_row(game)
        if row is not None:
            if rec.brp and rec.brp[-1]["turn"] == row["turn"]:
                rec.brp[-1] = row
            else:
                rec.brp.append(row)
        _capitals(game, caps, control0, rec, played_in)  # after every command
        if game.over:
            rec.end = "over"
            break
        if len(game.commands) >= max_commands:
            rec.end = "max_commands"
            break
        if max_turns is not None and game.turn > max_turns:
            rec.end = "max_turns"
            break
        moved = False
        for player in game.active():
            if player not in seats:
                continue
            actions = LegalActions(game, player)
            if not actions.kinds():
                continue
            try:  # an active player has a legal action unless the bot finds none
                cmd = seats[player].choose(LazyView(game, player), actions)
            except NoLegalAction:
                continue
            played_in = game.turn
            try:
                game.apply(cmd)
            except GrognardError as exc:
                rec.refused += 1
                ends = actions.of("end_phase")
                fallback = ends[0] if ends else actions[0]
                if fallback == cmd or cmd in actions:
                    rec.error = f"{cmd.kind} by {player} failed: {exc}"
                    break
                try:
                    game.apply(fallback)
                except GrognardError as exc2:
                    rec.error = f"{fallback.kind} by {player} failed: {exc2}"
                    break
            moved = True
            break
        if rec.error is not None:
            rec.end = "error"
            break
        if not moved:
            rec.end = "stuck"
            break
    _capitals(game, caps, control0, rec, played_in)
    res = game.result
    if res is not None:
        rec.result = _plain(res)
        rec.winner = None if res.get("winner") is None else str(res.get("winner"))
        level = res.get("level", res.get("victory"))
        rec.level = None if level is None else str(level)
        rec.reason = None if res.get("reason") is None else str(res.get("reason"))
    elif rec.error is None and (now := game.standing()) is not None and \
            now.get("level") is not None:  # a scenario that judges no victory: none
        rec.standing = _plain(now)
    # a game stopped at the turn limit has entered the next turn: its last turn played is the
    # limit (a study with --max-turns 7 reports 7, not 8)
    rec.turns = min(game.turn, max_turns) if rec.end == "max_turns" and max_turns else game.turn
    rec.date = _date(game)
    rec.commands = len(game.commands)
    rec.state_hash = game.state_hash()
    rec.losses = losses_of(game.state)
    return rec


def _plain(verdict: Mapping[str, Any]) -> dict[str, Any]:
    """A verdict's plain values (strings, whole numbers, flags, None) for the record."""
    return {k: v for k, v in verdict.items() if isinstance(v, str | int | bool | None)}


def _capitals(game: Game, caps: Mapping[str, str], control0: dict[str, Any],
              rec: GameRecord, turn: int) -> None:
    """Note the first turn each capital is held by another side than at the start: ``turn``,
    the turn in which the command that changed it was given (its last command may end the
    turn, so the game's own turn may already be the next one)."""
    control = game.state.get("control")
    if not isinstance(control, Mapping):
        return
    for name in caps:
        if name in rec.capitals:
            continue
        if control0.get(name) is None:  # a neutral's capital: its first holder (the side
            if control.get(name) is not None:  # it joins at war, TR-24/TR-25) is its owner
                control0[name] = control.get(name)
            continue
        if control.get(name) != control0.get(name):
            rec.capitals[name] = {"country": caps[name], "turn": turn,
                                  "date": _label(game, turn), "by": control.get(name)}
