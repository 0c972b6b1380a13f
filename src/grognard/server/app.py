"""The web application: the lobby, the play page of each seat, and the JSON API behind it.

Pages are Jinja2 templates with the map as SVG; a little plain JavaScript (static/play.js)
fetches the seat's state, draws the counters and sends commands. Every ``/api/play/{token}``
answer is built from that token's seat view (see :mod:`grognard.server.service`).
"""

from __future__ import annotations

import asyncio
import gc
import json
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from msgspec import json as msgjson

from grognard.core.errors import GrognardError, IllegalOrder, InputError
from grognard.core.inputs import check_values, decode_utf8, load_json_text
from grognard.engine.scenario import parse_scenario
from grognard.server.dice import verify_save_text
from grognard.server.editor import export_scenario
from grognard.server.mapsvg import map_svg
from grognard.server.play_routes import install as install_play_routes
from grognard.server.service import Forbidden, NotFound, Referee
from grognard.server.store import StaleVersion, Store

HERE = Path(__file__).parent
#: ``moves=per_unit`` (query of GET state; key of a command's or an undo's body): the answer's
#: legal list leaves the moves out; GET moves/{unit} gives each unit's (what the page does)
PER_UNIT = "per_unit"
templates = Jinja2Templates(directory=str(HERE / "templates"))
#: Largest request body of the API (a command, an undo, odds): read no further than this.
MAX_BODY = 64 * 1024
#: Largest body that may carry a scenario's text (POST /api/games, the editor's export).
MAX_POSTED = 1024 * 1024
#: Game creation per client (its address): a burst of this many, then this many a minute.
CREATE_BURST = 100
CREATE_PER_MINUTE = 6


class TooMany(GrognardError):
    """Too many games created by one client (HTTP 429): names when to try again."""


class RateLimit:
    """A token bucket per client: ``burst`` at once, then ``per_minute``. The table of clients
    is bounded (the oldest are forgotten: a forgotten client starts a full bucket again)."""

    def __init__(self, burst: int, per_minute: float, clients: int = 10_000) -> None:
        self.burst, self.rate, self.clients = burst, per_minute / 60.0, clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, client: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, then = self._buckets.pop(client, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.rate)
            if tokens < 1.0:
                self._buckets[client] = (tokens, now)
                wait = (1.0 - tokens) / self.rate if self.rate > 0 else float("inf")
                raise TooMany(f"too many games created from {client}: try again in "
                              f"{wait:.0f} s")
            self._buckets[client] = (tokens - 1.0, now)
            while len(self._buckets) > self.clients:
                self._buckets.popitem(last=False)


def _status_of(exc: GrognardError) -> int:
    if isinstance(exc, StaleVersion):
        return 409
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, Forbidden):
        return 403
    if isinstance(exc, IllegalOrder):
        return 422
    if isinstance(exc, TooLarge):
        return 413
    if isinstance(exc, TooMany):
        return 429
    return 400


def _json(value: Any) -> Response:
    """A JSON answer encoded once (the API's values are JSON already: no FastAPI re-encoding
    of every view and legal command)."""
    return Response(msgjson.encode(value), media_type="application/json")


def _error(exc: GrognardError) -> JSONResponse:
    body: dict[str, Any] = {"error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__}
    if isinstance(exc, IllegalOrder):
        body["rule"] = exc.rule
    return JSONResponse(body, status_code=_status_of(exc))


@lru_cache(maxsize=16)
def _map_for(text: str) -> tuple[str, str, str]:
    sc = parse_scenario(text, "<game>")
    svg, centres, box = map_svg(sc)
    return svg, json.dumps(centres), " ".join(str(v) for v in box)


Scope = MutableMapping[str, Any]
ASGI = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]],
                Awaitable[None]]


class Traffic:
    """The requests in flight and when the last one ended (see :class:`CountRequests`)."""

    def __init__(self) -> None:
        self.inflight = 0
        self.last = time.monotonic()


class CountRequests:
    """ASGI middleware keeping a :class:`Traffic` up to date."""

    def __init__(self, app: ASGI, traffic: Traffic) -> None:
        self.app = app
        self.traffic = traffic

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        self.traffic.inflight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.traffic.inflight -= 1
            self.traffic.last = time.monotonic()


#: A full garbage collection of the server's heap takes tens of milliseconds (100 ms on the
#: shared 2-core machine with 100 live games); the served app runs them between requests.
QUIET_S = 0.05  # no request for this long: a quiet moment
FULL_GC_EVERY_S = 30.0  # a full collection at the first quiet moment after this
FULL_GC_AT_MOST_S = 300.0  # and at the latest after this, quiet or not


def warm(ref: Referee) -> None:
    """What every server needs, done before the first request: the lobby's scenario
    summaries, the rule systems imported; then the heap so far is frozen out of the
    collector's scans (:func:`gc.freeze`: these objects live as long as the process)."""
    from grognard.engine.system import registered_systems

    ref.scenario_summaries()
    registered_systems()
    gc.collect()
    gc.freeze()


async def collect_when_quiet(ref: Referee, traffic: Traffic) -> None:
    """Warm the process up (:func:`warm`, in a thread: requests are served meanwhile), then
    run full garbage collections only between requests: the collector's own full passes are
    off (``gc.set_threshold(..., 10**9)``); young generations are still collected as usual."""
    await asyncio.to_thread(warm, ref)
    g0, g1, _g2 = gc.get_threshold()
    gc.set_threshold(g0, g1, 10**9)
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(QUIET_S)
        now = time.monotonic()
        quiet = traffic.inflight == 0 and now - traffic.last >= QUIET_S
        if (quiet and now - last_full >= FULL_GC_EVERY_S) or now - last_full >= FULL_GC_AT_MOST_S:
            gc.collect()
            last_full = time.monotonic()


def create_app(db_url: str, *, fsync: bool = False, serve: bool = False,
               create_burst: int = CREATE_BURST,
               create_per_minute: float = CREATE_PER_MINUTE) -> FastAPI:
    """The server over the database at ``db_url`` (SQLAlchemy URL); ``fsync`` flushes each
    SQLite commit to the disk (see :class:`~grognard.server.store.Store`). ``serve`` (what
    ``grognard serve`` runs) also warms the process up (:func:`warm`) and moves full garbage
    collections between requests (:func:`collect_when_quiet`); it changes this process's
    collector, so tests that build apps in-process leave it off. Game creation is limited
    per client (:class:`RateLimit`: ``create_burst`` at once, then ``create_per_minute``)."""
    store = Store(db_url, fsync=fsync)
    ref = Referee(store)
    traffic = Traffic()
    creations = RateLimit(create_burst, create_per_minute)

    def created_by(request: Request) -> None:
        creations.take(request.client.host if request.client else "unknown")

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        task = asyncio.create_task(collect_when_quiet(ref, traffic)) if serve else None
        try:
            yield
        finally:
            if task is not None:
                task.cancel()

    app = FastAPI(title="grognard", docs_url=None, redoc_url=None, openapi_url=None,
                  lifespan=lifespan)
    app.state.referee = ref
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.exception_handler(GrognardError)
    async def _grognard_error(_req: Request, exc: GrognardError) -> JSONResponse:
        return _error(exc)

    @app.exception_handler(Exception)
    async def _internal(_req: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"error": f"internal error: {type(exc).__name__}"}, status_code=500)

    # --- pages ----------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
    def lobby(request: Request) -> Response:
        return templates.TemplateResponse(request, "lobby.html", {
            "scenarios": ref.scenario_summaries(), "games": store.list_games()})

    @app.post("/games")
    async def create_form(request: Request) -> Response:
        form = await _form(request)
        scenario, mode = form.get("scenario", ""), form.get("mode", "seats")
        if not scenario:
            raise InputError("scenario", "name a shipped scenario")
        created_by(request)
        gid, tokens = await asyncio.to_thread(ref.create, scenario, mode)
        if mode == "hotseat":
            return RedirectResponse(f"/play/{tokens['*']}", status_code=303)
        return RedirectResponse(f"/games/{gid}/created?" + "&".join(
            f"{p}={t}" for p, t in tokens.items()), status_code=303)

    @app.get("/games/{gid}/created", response_class=HTMLResponse)
    def created(request: Request, gid: str) -> Response:
        info = ref.public(gid)
        links = [(p, t) for p, t in request.query_params.items()]
        return templates.TemplateResponse(request, "created.html", {"info": info,
                                                                    "links": links})

    @app.get("/games/{gid}", response_class=HTMLResponse)
    def game_page(request: Request, gid: str) -> Response:
        info = ref.public(gid)
        report = None
        if info["over"]:
            try:
                report = verify_save_text(json.dumps(ref.export(gid)), f"game {gid}")
            except GrognardError as exc:
                report = {"valid": False, "error": str(exc)}
        return templates.TemplateResponse(request, "verify.html", {"info": info,
                                                                   "report": report})

    @app.get("/play/{token}", response_class=HTMLResponse)
    def play(request: Request, token: str) -> Response:
        gid, seat = ref.seat(token)
        with ref.hold(gid) as loaded:
            text = loaded.game.scenario.text
            title = loaded.title
            sides = list(loaded.game.scenario.sides)
        svg, centres, box = _map_for(text)
        return templates.TemplateResponse(request, "play.html", {
            "token": token, "game": gid, "seat": seat, "title": title, "svg": svg,
            "centres": centres, "viewbox": box, "sides": sides,
            "hotseat": seat == "*"})

    @app.get("/editor", response_class=HTMLResponse)
    def editor(request: Request) -> Response:
        names = ref.scenario_names()
        name = request.query_params.get("scenario") or names[0]
        sc = ref.scenario(name)
        svg, centres, box = _map_for(sc.text)
        units = [{"id": p.unit.id, "side": p.unit.side, "type": str(p.unit.type),
                  "name": p.unit.name, "attack": p.unit.attack, "defense": p.unit.defense,
                  "movement": p.unit.movement, "hex": p.hex, "box": p.box}
                 for p in sc.placements]
        return templates.TemplateResponse(request, "editor.html", {
            "scenario": name, "names": names, "title": sc.title, "svg": svg,
            "centres": centres, "viewbox": box, "sides": list(sc.sides),
            "units": json.dumps(units)})

    @app.post("/api/editor/export")
    async def editor_export(request: Request) -> Any:
        body = await _body(request, MAX_POSTED)
        sc = ref.scenario(str(body.get("scenario", "")))
        placements = body.get("placements")
        if not isinstance(placements, list) or not all(isinstance(p, dict)
                                                      for p in placements):
            raise InputError("placements", "must be a list of {id, hex}")
        text = await asyncio.to_thread(export_scenario, sc.text, placements,
                                       str(body.get("id") or f"{sc.id}-edited"))
        return {"text": text}

    # --- the JSON API ---------------------------------------------------------------------
    @app.get("/api/scenarios")
    def scenarios() -> Any:
        return {"scenarios": ref.scenario_names()}

    @app.get("/api/games")
    def games_list() -> Any:
        return {"games": [{k: (str(v) if k == "created" else v) for k, v in g.items()}
                          for g in store.list_games()]}

    @app.post("/api/games")
    async def create_json(request: Request) -> Any:
        body = await _body(request, MAX_POSTED)
        created_by(request)
        # in a thread: a big scenario takes seconds to load the first time, and the other
        # games' requests go on meanwhile
        gid, tokens = await asyncio.to_thread(
            ref.create, str(body.get("scenario", "")), str(body.get("mode", "seats")),
            text=body.get("text") if isinstance(body.get("text"), str) else None)
        info = ref.public(gid)
        return {"game": gid, "seats": tokens, "commitment": info["commitment"]}

    # The API's handlers run on the event loop (async, no thread hand-over): each is a few
    # milliseconds of CPU under the game's lock, and SQLite's commits do not wait for the disk
    # (see Store); the pages, which may read every scenario, run in the thread pool.
    @app.get("/api/games/{gid}")
    async def game_public(gid: str) -> Any:
        return _json(ref.public(gid))

    @app.get("/api/games/{gid}/save")
    def game_save(gid: str) -> Any:  # in the thread pool: a whole game's save
        return _json(ref.export(gid))

    @app.get("/api/play/{token}/state")
    async def state(token: str, request: Request) -> Any:
        q = request.query_params
        return _json(ref.state_for(token, q.get("as"), per_unit=q.get("moves") == PER_UNIT))

    @app.get("/api/play/{token}/version")
    async def version(token: str) -> Any:
        gid, _seat = ref.seat(token)
        return {"version": store.version(gid)}

    @app.post("/api/play/{token}/command")
    async def command(token: str, request: Request) -> Any:
        body = await _body(request)
        return _json(ref.command(token, _version_of(body), str(body.get("kind", "")),
                                 body.get("args", {}), _as(body),
                                 per_unit=body.get("moves") == PER_UNIT))

    @app.post("/api/play/{token}/undo")
    async def undo(token: str, request: Request) -> Any:
        body = await _body(request)
        return _json(ref.undo(token, _version_of(body), _as(body),
                              per_unit=body.get("moves") == PER_UNIT))

    @app.post("/api/play/{token}/odds")
    async def odds(token: str, request: Request) -> Any:
        body = await _body(request)
        return _json(ref.odds(token, str(body.get("kind", "attack")), body.get("args", {}),
                              _as(body)))

    @app.get("/api/play/{token}/moves/{unit}")
    async def unit_moves(token: str, unit: str, request: Request) -> Any:
        return _json(ref.unit_moves(token, unit, request.query_params.get("as")))

    # The history and the VCR's positions fold recorded events (a just-started server walks
    # a game once): in the thread pool, never on the event loop, so no other game waits.
    @app.get("/api/play/{token}/history")
    def history(token: str, request: Request) -> Any:
        return _json(ref.history(token, request.query_params.get("as")))

    @app.get("/api/play/{token}/position/{n}")
    def position(token: str, n: int, request: Request) -> Any:
        return _json(ref.position(token, n, request.query_params.get("as")))

    install_play_routes(app, ref, templates)  # issue 26: words, chat, notices, bots
    if serve:
        app.add_middleware(CountRequests, traffic=traffic)
    return app


class TooLarge(GrognardError):
    """A request body over its limit (HTTP 413), refused before it is read whole."""


async def _body(request: Request, limit: int | None = None) -> dict[str, Any]:
    """The request's JSON object, through the input gate (core/inputs.py): at most ``limit``
    bytes (checked on Content-Length and while reading, never read whole first), UTF-8, nested
    at most MAX_DEPTH deep, numbers of at most MAX_DIGITS digits, no NaN or lone surrogate."""
    raw = load_json_text(decode_utf8(await _raw(request, limit), "body"), "body",
                         MAX_BODY if limit is None else limit)
    if not isinstance(raw, dict):
        raise InputError("body", "must be a JSON object")
    check_values(raw, "body")
    return raw


async def _raw(request: Request, limit: int | None = None) -> bytes:
    """The request's body, at most ``limit`` bytes: a larger Content-Length is refused before
    anything is read, and a body without one is refused as soon as it passes the limit."""
    limit = MAX_BODY if limit is None else limit
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isascii() or not declared.isdigit()
                                 or int(declared) > limit):
        raise TooLarge(f"body: larger than the limit of {limit:,} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"body: larger than the limit of {limit:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _form(request: Request) -> dict[str, str]:
    """A small urlencoded form (the lobby's), through the same limits as the API's bodies."""
    text = decode_utf8(await _raw(request), "form")
    try:
        pairs = parse_qsl(text, keep_blank_values=True, strict_parsing=False,
                          max_num_fields=20, errors="strict")
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError("form", f"not a valid form: {exc}") from None
    out = dict(pairs)
    check_values(out, "form")
    return out


def _version_of(body: dict[str, Any]) -> int:
    v = body.get("version")
    if isinstance(v, bool) or not isinstance(v, int):
        raise InputError("version", "each command names the state version it was made against")
    return v


def _as(body: dict[str, Any]) -> str | None:
    v = body.get("as")
    return v if isinstance(v, str) else None
