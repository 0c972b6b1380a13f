"""``grognard 3r ...`` commands of combat resolution (land CRT, attrition, air/naval, isolation)."""

from __future__ import annotations

import typer


def register(tr_app: typer.Typer) -> None:
    """Add the combat commands to ``grognard 3r``."""
