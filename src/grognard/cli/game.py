"""``grognard scenario ...`` and ``grognard game ...``."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Scenario and game commands (filled in with the engine)."""
