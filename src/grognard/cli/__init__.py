"""The ``grognard`` command line: thin wrappers that parse, call one rule function, render.

Errors from bad input (:class:`~grognard.core.errors.GrognardError`) become one line on
stderr and exit status 2; usage errors exit 2 as well.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from grognard import __version__

if TYPE_CHECKING:
    import typer

#: Top-level command -> the modules that register it. ``main`` imports only those (start-up
#: stays fast: a rules command never imports the server, a ``--version`` imports nothing).
#: Commands not listed here are found by registering everything (``_register_all``).
LAZY: dict[str, tuple[str, ...]] = {
    "roll": ("grognard.cli.basics",), "tables": ("grognard.cli.basics",),
    "scenario": ("grognard.cli.game",), "game": ("grognard.cli.game",),
    "demo": ("grognard.europa.cli.demo",), "fuzz": ("grognard.cli.fuzz",),
    "eurofront": ("grognard.eurofront.cli",), "map": ("grognard.cli.maps",),
    "serve": ("grognard.cli.server",), "play": ("grognard.cli.server",),
    "verify": ("grognard.cli.server",), "bots": ("grognard.cli.bots",),
    "study": ("grognard.cli.study",), "ladder": ("grognard.cli.study",),
    "europa": ("grognard.europa.cli",),
    "3r": ("grognard.third_reich.cli",),
}


def _register(app: typer.Typer, subs: dict[str, typer.Typer], command: str) -> None:
    """Register only the modules of ``command`` (see :data:`LAZY`)."""
    for module in LAZY[command]:
        mod: Any = importlib.import_module(module)
        mod.register(subs.get(command, app))
    if command in subs:
        app.add_typer(subs[command], name=command)


def _register_all(app: typer.Typer, subs: dict[str, typer.Typer]) -> None:
    """Register every module of :data:`LAZY` once (for help and unlisted names)."""
    done: set[str] = set()
    for command, modules in LAZY.items():
        for module in modules:
            if module not in done:
                done.add(module)
                mod: Any = importlib.import_module(module)
                mod.register(subs.get(command, app))
    for name, sub in subs.items():
        app.add_typer(sub, name=name)


def _command_of(args: Sequence[str]) -> str | None:
    """The top-level command named in ``args`` (skipping the root options)."""
    skip = False
    for a in args:
        if skip:
            skip = False
        elif a == "--tables":
            skip = True
        elif not a.startswith("-"):
            return a
    return None


def build_app(args: Sequence[str] = ()) -> typer.Typer:
    """The CLI app with the commands ``args`` need (all of them for help or an unknown name)."""
    from grognard.cli.root import root_app

    app, subs = root_app()
    command = _command_of(args)
    if command in LAZY:
        _register(app, subs, command)
    else:
        _register_all(app, subs)
    return app


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (console script entry point)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--version"]:
        sys.stdout.write(f"grognard {__version__}\n")
        return 0
    import typer
    from rich.text import Text

    from grognard.core.errors import GrognardError
    from grognard.engine.terminal import err_console

    for stream in (sys.stdout, sys.stderr):  # a file name that is not UTF-8 still prints
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    app = build_app(args)
    try:
        result = app(args=args, standalone_mode=False, prog_name="grognard")
    except GrognardError as exc:
        err_console.print(Text.assemble(("error: ", "bold red"), str(exc)), soft_wrap=True)
        return 2
    except OSError as exc:  # a file the command could not read or write: one line, no traceback
        from grognard.core.inputs import os_reason

        where = f"{exc.filename}: " if exc.filename is not None else ""
        err_console.print(Text.assemble(("error: ", "bold red"), where, os_reason(exc)),
                          soft_wrap=True)
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
