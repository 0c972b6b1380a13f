"""``grognard serve``, ``grognard play`` and ``grognard verify``: the game server and its dice check."""

from __future__ import annotations

import os
import socket
import threading
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from grognard.core.errors import InputError
from grognard.engine.terminal import JsonOpt, emit

DEFAULT_DB = "$XDG_DATA_HOME/grognard/games.sqlite"


def default_db() -> Path:
    """The embedded database file: ``$XDG_DATA_HOME/grognard/games.sqlite`` (``~/.local/share``),
    private to its owner: the folder 0700, the database and its WAL 0600 (an existing one
    made so: it holds every game's seed and every seat's token)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    folder = Path(base) / "grognard"
    path = folder / "games.sqlite"
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(folder, 0o700)
        for f in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            if f.exists():
                os.chmod(f, 0o600)
    except OSError as exc:
        raise InputError("--db", f"cannot prepare {folder}: {exc.strerror}") from None
    return path


def _db_url(db: str | None) -> str:
    if db is None:
        return f"sqlite:///{default_db()}"
    if "://" not in db:
        return f"sqlite:///{Path(db).resolve()}"
    return db


def _port_free(host: str, port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def _any_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _run(app: object, host: str, port: int) -> None:
    import uvicorn

    uvicorn.run(app, host=host, port=port, log_level="warning")  # type: ignore[arg-type]


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        db: Annotated[str | None, typer.Option("--db", help="Database: a SQLAlchemy URL "
                                               "(postgresql://user@host/db) or a SQLite file "
                                               f"(default {DEFAULT_DB}).")] = None,
        host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
        fsync: Annotated[bool, typer.Option(
            "--fsync", help="SQLite: flush every command to the disk before answering (survives "
            "a power loss; by default a command survives any crash of the server process).")
        ] = False,
    ) -> None:
        """Run the game server: the lobby, seats with secret links, the map UI and its API."""
        from grognard.server.app import create_app

        url = _db_url(db)
        web = create_app(url, fsync=fsync, serve=True)
        typer.echo(f"grognard server on http://{host}:{port}/ (database {url})")
        _run(web, host, port)

    @app.command("play")
    def play(
        scenario: Annotated[str, typer.Argument(help="A shipped scenario (grognard scenario "
                                                "list) to play hotseat in the browser.")],
        db: Annotated[str | None, typer.Option("--db", help="Database (default: the embedded "
                                               f"SQLite file {DEFAULT_DB}).")] = None,
        host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port")] = 8000,
        browser: Annotated[bool, typer.Option("--browser/--no-browser",
                                              help="Open a browser on the game.")] = True,
        bots: Annotated[str | None, typer.Option(
            "--bots", help="SIDE=BOT,... : bots play those sides (grognard bots list; e.g. "
                           "ussr=planner), you the others, one link each.")] = None,
    ) -> None:
        """Start the server, create a hotseat game of SCENARIO (or, with --bots, a game against
        bots) and open the browser on it."""
        from grognard.bots import parse_bots
        from grognard.server.app import create_app

        web = create_app(_db_url(db), serve=True)
        if not _port_free(host, port):
            port = _any_port(host)
        if bots is None:
            gid, tokens = web.state.referee.create(scenario, "hotseat")
            url = f"http://{host}:{port}/play/{tokens['*']}"
            typer.echo(f"game {gid} ({scenario}), hotseat: {url}")
        else:
            sides = next((list(s["sides"]) for s in web.state.referee.scenario_summaries()
                          if s["id"] == scenario), None)
            if sides is None:
                raise InputError("scenario", f"no shipped scenario {scenario!r}")
            if "=" not in bots:
                raise InputError("--bots", "name SIDE=BOT pairs, e.g. ussr=planner")
            seated = parse_bots(bots, sides, partial=True)
            people = [s for s in sides if s not in seated]
            if not people:
                raise InputError("--bots", "leave at least one side to a person")
            gid, tokens = web.state.create_with_bots(scenario, seated)
            against = ", ".join(f"{b} as {s}" for s, b in seated.items())
            for side in people:
                typer.echo(f"game {gid} ({scenario}), {side} against {against}: "
                           f"http://{host}:{port}/play/{tokens[side]}")
            url = f"http://{host}:{port}/play/{tokens[people[0]]}"
        if browser:
            def _open() -> None:
                try:
                    opened = webbrowser.open(url)
                except Exception:
                    opened = False
                if not opened:
                    typer.echo(f"no browser could be opened: open {url}")
            threading.Timer(1.0, _open).start()
        else:
            typer.echo(f"open {url}")
        _run(web, host, port)

    @app.command("verify")
    def verify(
        save: Annotated[Path, typer.Argument(help="A finished game's save (from the server's "
                                             "/api/games/ID/save), seed and commitment inside.")],
        as_json: JsonOpt = False,
    ) -> None:
        """Check a finished game's dice: the revealed seed matches the commitment published at
        creation, and replaying the log from it re-derives every recorded roll."""
        from grognard.core.inputs import read_text
        from grognard.server.dice import verify_save_text

        # through the gate: size checked before reading (a device such as /dev/zero is read
        # no further than the limit), UTF-8 named by line and byte
        report = verify_save_text(read_text(save, "save"), str(save))
        emit(report, as_json, lambda c: c.print(
            f"[green]verified[/]: {save} — seed matches commitment {report['commitment'][:16]}…; "
            f"{report['dice']} dice in {report['commands_with_rolls']} rolling commands of "
            f"{report['commands']} re-derived"))

