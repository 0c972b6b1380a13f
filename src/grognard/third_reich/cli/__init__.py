"""The Revised Third Reich commands of the ``grognard`` command line: ``grognard 3r ...`` (the
calendar, BRP ledger and strategic warfare, ``strategic``; land combat, attrition and the tables,
``combat``; air zones, airdrops and movement ranges, ``air``; naval operations and SRs,
``naval``).

The CLI knows none of them by name: ``3r`` is an entry point of the ``grognard.commands`` group
in pyproject.toml (docs/ARCHITECTURE.md), imported only when the command runs.
"""

from __future__ import annotations

import typer

from grognard.engine.terminal import command_group

#: The ``grognard 3r --help`` line.
HELP = "Revised Third Reich."


def register(root: typer.Typer) -> None:
    """Attach the ``3r`` command group to the root app."""
    from grognard.third_reich.cli import air, combat, naval, strategic

    command_group(root, "3r", HELP, (strategic, combat, air, naval))
