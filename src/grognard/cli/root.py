"""The root ``grognard`` app: its global options (imported only when a command runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from grognard import __version__
from grognard.engine.terminal import STATE


def _version(value: bool) -> None:
    if value:
        typer.echo(f"grognard {__version__}")
        raise typer.Exit()


def root_app() -> typer.Typer:
    """A fresh root app, with no commands yet."""
    app = typer.Typer(
        name="grognard",
        help="Rules engine, referee and playtest lab for Europa, Revised Third Reich and "
             "EuroFront.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        add_completion=False,
    )

    @app.callback()
    def root(
        version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                              help="Print the version and exit.")] = False,
        tables: Annotated[Path | None, typer.Option(
            "--tables", help="Directory of table files overriding the shipped ones (same id)."
        )] = None,
    ) -> None:
        """grognard."""
        STATE.tables_dir = tables
    return app
