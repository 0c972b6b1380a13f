"""The Europa commands of the ``grognard`` command line: ``grognard europa ...`` (rule 47
surprise turns, combat, the air phase, supply; one module each) and ``grognard demo`` (the
guided tour, ``demo``; its surprise opening, ``demo_surprise``).

The CLI knows none of them by name: each top-level command is an entry point of the
``grognard.commands`` group in pyproject.toml (docs/ARCHITECTURE.md), imported only when that
command runs.
"""

from __future__ import annotations

import typer

from grognard.engine.terminal import command_group

#: The ``grognard europa --help`` line.
HELP = "Europa: rule 47 surprise turns and Europa revised."


def register(root: typer.Typer) -> None:
    """Attach the ``europa`` command group to the root app."""
    from grognard.europa.cli import air, combat, supply, surprise

    command_group(root, "europa", HELP, (surprise, combat, air, supply))
