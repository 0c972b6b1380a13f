"""``grognard europa combat ...`` and ``grognard europa crt`` (Europa revised combat)."""

from __future__ import annotations

import typer


def register(europa_app: typer.Typer) -> None:
    """Attach the ``combat`` group and the ``crt`` command to ``grognard europa``."""
    app = typer.Typer(help="Europa revised combat (EUR-01..EUR-16, EUR-29).", no_args_is_help=True)
    europa_app.add_typer(app, name="combat")
