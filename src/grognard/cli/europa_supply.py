"""CLI commands of this area (registered by grognard.cli; filled in by the area's work)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app`` (``grognard europa`` or ``grognard 3r``)."""
