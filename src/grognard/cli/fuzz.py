"""``grognard fuzz``: random legal play to find crashes, dead ends and leaks (engine/fuzz.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from grognard.core.errors import InputError
from grognard.engine.terminal import JsonOpt, emit, err_console


def register(app: typer.Typer) -> None:
    @app.command("fuzz")
    def fuzz_cmd(
        scenario: Annotated[str, typer.Argument(help="Scenario TOML or shipped name.")],
        games: Annotated[int, typer.Option(help="Games to play.", min=1, max=1_000_000)] = 10,
        seed: Annotated[int, typer.Option(help="Seed of game 0 (game i uses seed + i).",
                                          min=0)] = 0,
        max_commands: Annotated[int, typer.Option(help="Commands per game at most.",
                                                  min=1, max=10_000_000)] = 2000,
        out: Annotated[Path, typer.Option(help="Folder for the saves of failing games.")]
        = Path("fuzz-failures"),
        bots: Annotated[str | None, typer.Option(
            "--bots", help="Play with this bot on every side (heuristic, search, random: see "
            "grognard bots list) instead of uniformly random legal actions.")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Play uniformly random legal actions (or, with --bots, a bot's) for every player;
        report crashes, dead ends, refused legal actions, replay mismatches and view leaks.
        Exit 1 on any failure."""
        from rich.progress import Progress

        from grognard.engine.fuzz import GameRun, fuzz
        from grognard.engine.save import dumps

        if bots is not None:
            from grognard.bots.fuzz import check_bot
            from grognard.bots.fuzz import fuzz as bot_fuzz

            check_bot(bots)

        show = not as_json and sys.stderr.isatty()
        saved: list[str] = []

        def save(run: GameRun) -> None:
            """A failing game is saved as soon as it ends (a long run stopped early keeps
            its failures), and then dropped from memory."""
            if not run.failures or run.game is None:
                return
            try:
                out.mkdir(parents=True, exist_ok=True)
                path = out / f"{run.game.scenario.id}-seed{run.seed}.json"
                path.write_text(dumps(run.game), encoding="utf-8")
            except OSError as exc:
                raise InputError("--out", f"cannot write {out}: {exc.strerror}") from None
            saved.append(str(path))
            run.game = None

        with Progress(console=err_console, disable=not show, transient=True) as bar:
            task = bar.add_task(f"fuzzing {scenario}", total=games)

            def step(run: GameRun) -> None:
                save(run)
                bar.advance(task)

            if bots is None:
                report = fuzz(scenario, games, seed, max_commands, progress=step)
            else:
                report = bot_fuzz(scenario, games, seed, max_commands, bots, progress=step)
        data = report.to_json()
        data["saved"] = saved
        data["players"] = bots or "random legal actions"

        def human(c: object) -> None:
            ends = ", ".join(f"{n} {k}" for k, n in data["ends"].items())
            print(f"{report.scenario}: {report.games} games, {report.commands} commands "
                  f"({ends}); {len(report.failures)} failures")
            for f in report.failures:
                print(f"  game {f.game} (seed {f.seed}) step {f.step}: {f.kind}: {f.detail}")
            for s in saved:
                print(f"  saved {s} (grognard game replay {s})")

        emit(data, as_json, human)
        if report.failures:
            raise typer.Exit(1)
