"""The play page's routes beyond the core API (issue 26), installed by ``create_app`` with one
line: an order described and checked before it is sent (multi-part forms), the combat tables'
result key, the turn sequence (the replay banner), per-game chat, per-seat notifications when a
seat must act, and games against the bots from the lobby.

Every answer to a seat is built from that seat's side only: the words of an order it composed,
the messages it may read, its own notification settings.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Form, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy import select

from grognard.bots.catalog import bot_names
from grognard.core.errors import GrognardError, InputError
from grognard.engine.commands import Command
from grognard.server import bot_seats, chat, notify
from grognard.server.present import entry, result_key
from grognard.server.service import HOTSEAT, Referee
from grognard.server.store import seats as seat_table

#: scenario groups of the lobby, by what the scenario's title says it is
TEST_WORDS = ("engine test", "map check", "examples")
CAMPAIGN_HEXES = 300


def scenario_group(s: dict[str, Any]) -> str:
    """"campaign" (a full front), "small" (a teaching or invented situation) or "test" (an
    engine test or a map check, as its title says)."""
    title = str(s.get("title", "")).lower()
    if any(w in title for w in TEST_WORDS):
        return "test"
    return "campaign" if int(s.get("hexes", 0)) >= CAMPAIGN_HEXES else "small"


def _tokens(ref: Referee, gid: str) -> dict[str, str]:
    with ref.store.engine.connect() as conn:
        rows = conn.execute(select(seat_table.c.player, seat_table.c.token)
                            .where(seat_table.c.game_id == gid)).all()
    return {str(p): str(t) for p, t in rows}


def install(app: FastAPI, ref: Referee, templates: Any) -> None:
    """Add the routes and the listeners (bots, notifications) to ``app`` over ``ref``."""
    runner = bot_seats.BotRunner(ref)
    app.state.bots = runner
    templates.env.globals["scenario_group"] = scenario_group
    templates.env.globals["bot_names"] = bot_names
    titles: dict[str, str] = {}

    def on_move(gid: str, before: tuple[str, ...], after: tuple[str, ...]) -> None:
        bots = runner.seats(gid)
        if bots and any(p in bots for p in after):
            runner.poke(gid)
        fresh = [p for p in after if p not in before and p not in bots]
        if not fresh:
            return
        toks = _tokens(ref, gid)
        with ref.hold(gid) as loaded:
            g = loaded.game
            label = g.system.turn_label
            status = {"turn": g.turn, "phase": g.phase.name,
                      "date": None if label is None else label(g.context, g.state)}
            title = titles.setdefault(gid, loaded.title)
        for p in fresh:
            tok = toks.get(p) or toks.get(HOTSEAT)
            if tok is not None:
                notify.send(ref.store, gid, p, tok, title, status)

    ref.listeners.append(on_move)

    async def body_of(request: Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except ValueError:
            raise InputError("body", "must be a JSON object") from None
        if not isinstance(body, dict):
            raise InputError("body", "must be a JSON object")
        return body

    def player_of(token: str, as_player: Any) -> tuple[str, str, str]:
        gid, seat = ref.seat(token)
        with ref.hold(gid) as loaded:
            player = ref.acting_player(loaded, seat, as_player if isinstance(as_player, str)
                                       else None)
        return gid, seat, player

    @app.post("/api/play/{token}/describe")
    async def describe(token: str, request: Request) -> Any:
        """An order the seat composed (a multi-part form): its words, places, and whether
        the rules accept it now (else why)."""
        body = await body_of(request)
        gid, seat, _p = player_of(token, body.get("as"))
        args = body.get("args", {})
        if not isinstance(args, dict):
            raise InputError("args", "must be an object")
        with ref.hold(gid) as loaded:
            player = ref.acting_player(loaded, seat, body.get("as")
                                       if isinstance(body.get("as"), str) else None)
            g = loaded.game
            cmd = Command(str(body.get("kind", "")), player, args)
            try:
                g.verify(cmd)
                why = None
            except GrognardError as exc:
                why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            try:
                out = entry(g, cmd)
            except Exception:  # a malformed composition: no words, only the refusal
                out = {"kind": cmd.kind, "args": args, "words": None, "places": None}
            return {**out, "legal": why is None, "why": why}

    @app.get("/api/play/{token}/key")
    async def key(token: str) -> Any:
        """The combat tables' result codes in the tables' words, and the turn's phases."""
        gid, _seat = ref.seat(token)
        with ref.hold(gid) as loaded:
            g = loaded.game
            return {"results": result_key(g),
                    "phases": [{"name": ph.name, "player": ph.player}
                               for ph in g.sequence.phases]}

    @app.get("/api/play/{token}/chat")
    async def chat_read(token: str, request: Request) -> Any:
        gid, _seat, player = player_of(token, request.query_params.get("as"))
        return {"player": player, "messages": chat.read(ref.store, gid, player)}

    @app.post("/api/play/{token}/chat")
    async def chat_post(token: str, request: Request) -> Any:
        body = await body_of(request)
        gid, _seat, player = player_of(token, body.get("as"))
        with ref.hold(gid) as loaded:
            sides = list(loaded.game.scenario.sides)
        chat.post(ref.store, gid, player, str(body.get("to") or chat.EVERYONE),
                  str(body.get("text", "")), sides)
        return {"player": player, "messages": chat.read(ref.store, gid, player)}

    @app.get("/api/play/{token}/notify")
    async def notify_read(token: str, request: Request) -> Any:
        gid, _seat, player = player_of(token, request.query_params.get("as"))
        return notify.settings(ref.store, gid, player)

    @app.post("/api/play/{token}/notify")
    async def notify_set(token: str, request: Request) -> Any:
        body = await body_of(request)
        gid, _seat, player = player_of(token, body.get("as"))
        return notify.configure(ref.store, gid, player, str(body.get("webhook") or ""),
                                str(body.get("email") or ""))

    @app.get("/api/bots")
    def bots_list() -> Any:
        return {"bots": bot_names()}

    def create_with_bots(scenario: str, bots: dict[str, str]) -> tuple[str, dict[str, str]]:
        names = bot_names()
        for side, b in bots.items():
            if b not in names:
                raise InputError("bot", f"unknown bot {b!r} for {side}")
        gid, tokens = ref.create(scenario, "seats")
        for side, b in bots.items():
            if side not in tokens:
                raise InputError("bots", f"{side!r} is not a side of {scenario}")
            bot_seats.give(ref.store, gid, side, b, tokens[side])
        runner.forget(gid)
        runner.poke(gid)
        return gid, tokens

    app.state.create_with_bots = create_with_bots  # ``grognard play --bots``

    @app.post("/games/bots")
    def create_bot_form(scenario: str = Form(...), human: str = Form(...),
                        bot: str = Form("planner")) -> Response:
        sides = next((s["sides"] for s in ref.scenario_summaries() if s["id"] == scenario), None)
        if sides is None:
            raise InputError("scenario", f"no shipped scenario {scenario!r}")
        if human not in sides:
            raise InputError("human", f"{human!r} is not a side of {scenario}")
        _gid, tokens = create_with_bots(scenario, {s: bot for s in sides if s != human})
        return RedirectResponse(f"/play/{tokens[human]}", status_code=303)

    @app.post("/api/games/bots")
    async def create_bot_json(request: Request) -> Any:
        body = await body_of(request)
        bots = body.get("bots")
        if not isinstance(bots, dict) or not all(isinstance(v, str) for v in bots.values()):
            raise InputError("bots", "must map sides to bot names")
        gid, tokens = create_with_bots(str(body.get("scenario", "")), dict(bots))
        return {"game": gid, "seats": {p: t for p, t in tokens.items() if p not in bots},
                "bots": bots}
