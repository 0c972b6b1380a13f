"""``grognard 3r ...`` commands of the strategic layer (calendar, economy, lend lease, SW)."""

from __future__ import annotations

import typer


def register(tr_app: typer.Typer) -> None:
    """Add the strategic-layer commands to ``grognard 3r``."""
