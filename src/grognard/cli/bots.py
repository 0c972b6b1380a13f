"""``grognard bots ...``: play against a bot from the command line.

``bots list`` names the bots; ``bots move SAVE --player P --bot B`` applies one bot move for
player P to a save (a person plays the other side with ``grognard game apply``); ``bots play
SAVE --bots SIDE=BOT,...`` lets the named bots play until a side without a bot must act (the
person's turn) or the game ends.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from grognard.bots import bot_names, choose, legal_actions, parse_bots
from grognard.core.errors import InputError
from grognard.engine.save import load_game, save_game
from grognard.engine.terminal import JsonOpt, current_tables, emit, grid_table


def register(app: typer.Typer) -> None:
    bots = typer.Typer(help="Bots: list them, let one move, let bots play to your turn.",
                       no_args_is_help=True)

    @bots.command("list")
    def list_(as_json: JsonOpt = False) -> None:
        """The bots and what each does."""
        names = bot_names()
        emit({"bots": [{"name": n, "description": d} for n, d in names.items()]}, as_json,
             lambda c: c.print(grid_table(["bot", "plays"], list(names.items()))))

    @bots.command("move")
    def move(save: Annotated[Path, typer.Argument(help="Save file (updated in place).")],
             player: Annotated[str, typer.Option("--player", help="The bot's side.")],
             bot: Annotated[str, typer.Option(
                 "--bot", help="random, heuristic, search, planner or mcts "
                 "(planner@KEY=V, mcts@budget=N).")]
             = "heuristic",
             seed: Annotated[int, typer.Option(help="The bot's seed.")] = 0,
             dry_run: Annotated[bool, typer.Option("--dry-run",
                                                   help="Show the move, do not apply it.")]
             = False,
             as_json: JsonOpt = False) -> None:
        """Let a bot choose and apply one command for PLAYER (seeded: same save, same move)."""
        g = load_game(save, current_tables())
        cmd = choose(g, player, bot, seed)
        events = [] if dry_run else g.apply(cmd)
        if not dry_run:
            save_game(g, save)
        data = {"command": cmd.to_json(), "applied": not dry_run,
                "events": [e.to_json() for e in events], "state_hash": g.state_hash(),
                "prompt": g.prompt(player)}

        def human(c: Console) -> None:
            c.print(f"{bot} ({player}): {cmd.kind} {dict(cmd.args) or ''}")
            for e in events:
                c.print(f"  {e.type}")
            c.print(g.prompt(player))

        emit(data, as_json, human)

    @bots.command("play")
    def play(save: Annotated[Path, typer.Argument(help="Save file (updated in place).")],
             bots_: Annotated[str, typer.Option("--bots", help="SIDE=BOT,... (sides left out "
                                                 "are people).")],
             seed: Annotated[int, typer.Option(help="The bots' seed.")] = 0,
             max_commands: Annotated[int, typer.Option(help="Stop after this many.")] = 1000,
             as_json: JsonOpt = False) -> None:
        """Let the bots play until a side without a bot must act or the game ends."""
        g = load_game(save, current_tables())
        seated = _seats(bots_, list(g.scenario.sides))
        played: list[dict[str, object]] = []
        while not g.over and len(played) < max_commands:
            active = g.active()
            player = next((p for p in active if p in seated), None)
            if player is None or any(p not in seated for p in active):
                break
            if not legal_actions(g, player):
                break
            cmd = choose(g, player, seated[player], seed)
            g.apply(cmd)
            played.append(cmd.to_json())
        save_game(g, save)
        data = {"played": played, "active": list(g.active()), "over": g.over,
                "prompts": {p: g.prompt(p) for p in g.active()}, "state_hash": g.state_hash()}

        def human(c: Console) -> None:
            c.print(f"{len(played)} bot commands played")
            for p in g.active() or g.scenario.sides[:1]:
                c.print(g.prompt(p))

        emit(data, as_json, human)

    app.add_typer(bots, name="bots")


def _seats(text: str, sides: list[str]) -> dict[str, str]:
    """SIDE=BOT pairs; sides left out are people."""
    if "=" not in text:
        raise InputError("--bots", "name SIDE=BOT pairs, e.g. allies=heuristic")
    return parse_bots(text, sides, partial=True)
