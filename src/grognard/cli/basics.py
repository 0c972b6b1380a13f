"""``grognard roll`` and ``grognard tables ...``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from grognard.core.dice import DiceStream
from grognard.engine.terminal import STATE, JsonOpt, console, current_tables, emit, grid_table


def register(app: typer.Typer) -> None:
    tables_app = typer.Typer(help="Rules tables: list, show, override with --tables DIR.",
                             no_args_is_help=True)

    @app.command()
    def roll(
        expr: Annotated[str, typer.Argument(help="Die expression: 1d6, 2d6, 1d10, 2d6+1.")],
        seed: Annotated[int, typer.Option(help="Seed (non-negative integer).")] = 0,
        stream: Annotated[str, typer.Option(help="Named dice stream.")] = "main",
        as_json: JsonOpt = False,
    ) -> None:
        """Roll dice from a seeded, reproducible stream."""
        r = DiceStream(seed, stream).roll(expr)
        data = {"expr": r.expr, "dice": list(r.dice), "total": r.total}
        emit(data, as_json, lambda c: c.print(f"{r.expr}: {list(r.dice)} = [bold]{r.total}[/]"))

    @tables_app.command("list")
    def tables_list(
        as_json: JsonOpt = False,
        tables: Annotated[Path | None, typer.Option("--tables", help="Override directory.")] = None,
    ) -> None:
        """List the tables in force with their provenance."""
        if tables is not None:
            STATE.tables_dir = tables
        ts = current_tables()
        rows = [
            {"id": t.id, "title": t.title, "source": str(t.source), "dice": t.dice,
             "rule_ids": list(t.rule_ids), "file": t.file}
            for t in ts.values()
        ]
        emit({"tables": rows}, as_json, lambda c: c.print(grid_table(
            ["id", "source", "dice", "rules", "title"],
            [[t.id, str(t.source), t.dice or "", " ".join(t.rule_ids), t.title]
             for t in ts.values()])))

    @tables_app.command("show")
    def tables_show(
        table_id: Annotated[str, typer.Argument(metavar="ID")],
        as_json: JsonOpt = False,
        tables: Annotated[Path | None, typer.Option("--tables", help="Override directory.")] = None,
    ) -> None:
        """Show one table with its provenance (published, reconstructed or user)."""
        if tables is not None:
            STATE.tables_dir = tables
        t = current_tables().get(table_id)

        def human(c: Console = console) -> None:
            c.print(f"[bold]{t.title}[/]\nid {t.id} - source [bold]{t.source}[/] - {t.file}")
            c.print(grid_table([t.row_key, *t.columns],
                               [[k, *v] for k, v in t.rows.items()]))

        emit(t.to_json(), as_json, human)

    app.add_typer(tables_app, name="tables")
