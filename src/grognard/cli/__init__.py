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

#: The CLI's own top-level commands -> the modules that register them (each module's
#: ``register``). ``main`` imports only those (start-up stays fast: a rules command never
#: imports the server, a ``--version`` or ``roll`` no rule package).
LAZY: dict[str, tuple[str, ...]] = {
    "roll": ("grognard.cli.basics",), "tables": ("grognard.cli.basics",),
    "scenario": ("grognard.cli.game",), "game": ("grognard.cli.game",),
    "fuzz": ("grognard.cli.fuzz",), "map": ("grognard.cli.maps",),
    "serve": ("grognard.cli.server",), "play": ("grognard.cli.server",),
    "verify": ("grognard.cli.server",), "bots": ("grognard.cli.bots",),
    "study": ("grognard.cli.study",), "ladder": ("grognard.cli.study",),
}
#: The entry-point group where a package offers top-level commands of its own (a rule
#: package's adjudication commands, its guided tour): name = the command word, value =
#: ``"module:function"``, the function registering that command on the root app
#: (pyproject.toml; docs/ARCHITECTURE.md). The CLI names no rule system: it imports a
#: command's module only when that command runs, or for help, like :data:`LAZY`'s.
GROUP = "grognard.commands"


def offered() -> dict[str, str]:
    """Command word -> ``"module:function"`` of every ``grognard.commands`` entry point, by
    word (a word of :data:`LAZY` stays the CLI's own)."""
    from importlib.metadata import entry_points

    found = {ep.name: ep.value for ep in entry_points(group=GROUP) if ep.name not in LAZY}
    return dict(sorted(found.items()))


def _register(app: typer.Typer, target: str, done: set[str]) -> None:
    """Call ``target`` (``"module"`` for its ``register``, or ``"module:function"``) on the
    root app, once."""
    if target not in done:
        done.add(target)
        module, _, name = target.partition(":")
        register: Any = getattr(importlib.import_module(module), name or "register")
        register(app)


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
    """The CLI app with the commands ``args`` need (all of them for help or an unknown name):
    the CLI's own (:data:`LAZY`) first, then the packages' (:func:`offered`)."""
    from grognard.cli.root import root_app

    app = root_app()
    command = _command_of(args)
    if command in LAZY:
        targets = list(LAZY[command])
    else:  # a package's command: the hook's only; help or an unknown name: everything
        hooked = offered()
        targets = [hooked[command]] if command in hooked else \
            [*(t for ts in LAZY.values() for t in ts), *hooked.values()]
    done: set[str] = set()
    for target in targets:
        _register(app, target, done)
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
