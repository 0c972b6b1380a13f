"""``grognard europa surprise ...`` (Europa rule 47). Filled in by the surprise issue."""

from __future__ import annotations

import typer


def register(europa_app: typer.Typer) -> None:
    """Attach the ``surprise`` command group to ``grognard europa``."""
    app = typer.Typer(help="Europa rule 47: surprise turns (SUR-01..SUR-26).", no_args_is_help=True)
    europa_app.add_typer(app, name="surprise")
