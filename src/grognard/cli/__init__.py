"""The ``grognard`` command line: thin wrappers that parse, call one rule function, render.

Errors from bad input (:class:`~grognard.core.errors.GrognardError`) become one line on
stderr and exit status 2; usage errors exit 2 as well.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from grognard import __version__
from grognard.cli import (
    eurofront,
    europa_air,
    europa_combat,
    europa_supply,
    europa_surprise,
    tr_air,
    tr_combat,
    tr_naval,
    tr_strategic,
)
from grognard.cli.render import STATE, err_console
from grognard.core.errors import GrognardError

app = typer.Typer(
    name="grognard",
    help="Rules engine, referee and playtest lab for Europa, Revised Third Reich and EuroFront.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
europa_app = typer.Typer(help="Europa: rule 47 surprise turns and Europa revised.",
                         no_args_is_help=True)
tr_app = typer.Typer(help="Revised Third Reich.", no_args_is_help=True)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"grognard {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
    tables: Annotated[Path | None, typer.Option("--tables", help="Directory of table files "
                                                "overriding the shipped ones (same id).")] = None,
) -> None:
    """grognard."""
    STATE.tables_dir = tables


def _register_all() -> None:
    from grognard.cli import basics, demo, fuzz, game

    basics.register(app)
    game.register(app)
    demo.register(app)
    fuzz.register(app)
    europa_surprise.register(europa_app)
    europa_combat.register(europa_app)
    europa_air.register(europa_app)
    europa_supply.register(europa_app)
    tr_strategic.register(tr_app)
    tr_combat.register(tr_app)
    tr_air.register(tr_app)
    tr_naval.register(tr_app)
    eurofront.register(app)
    app.add_typer(europa_app, name="europa")
    app.add_typer(tr_app, name="3r")


_register_all()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (console script entry point)."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        result = app(args=args, standalone_mode=False, prog_name="grognard")
    except GrognardError as exc:
        err_console.print(Text.assemble(("error: ", "bold red"), str(exc)), soft_wrap=True)
        return 2
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        err_console.print("aborted")
        return 1
    except typer.TyperException as exc:  # usage errors: show usage and the message
        show = getattr(exc, "show", None)
        if callable(show):
            show()
        else:
            err_console.print(Text.assemble(("error: ", "bold red"), exc.format_message()),
                              soft_wrap=True)
        return 2
    return result if isinstance(result, int) else 0


def entry() -> None:
    sys.exit(main())
