"""``grognard eurofront ...`` (EuroFront optional rules)."""

from __future__ import annotations

import typer


def register(root: typer.Typer) -> None:
    """Attach the ``eurofront`` command group to the root app."""
    app = typer.Typer(help="EuroFront optional rules (EF-01..EF-18).", no_args_is_help=True)
    root.add_typer(app, name="eurofront")
