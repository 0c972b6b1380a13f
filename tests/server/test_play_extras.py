"""Issue 26 on the server: games against the bots from the lobby, the words of a composed order,
per-game chat that respects seats, and the notice (webhook, e-mail) a seat gets when it must act
and only then."""

from __future__ import annotations

import http.server
import json
import re
import socketserver
import threading
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from grognard.server import notify


def _drive(client: Any, token: str, limit: int = 200) -> int:
    """The human seat ends its phases (taking the first decision owed) until the game ends or
    ``limit`` commands; the bot plays the other seat on the server in between."""
    bots = client.app.state.bots
    n = 0
    for _ in range(limit):
        assert bots.wait(120)
        st = client.get(f"/api/play/{token}/state").json()
        if st["status"]["over"]:
            break
        if st["player"] not in st["status"]["active"]:
            continue
        legal = st["legal"]
        pick = next((c for c in legal if c["kind"] == "end_phase"), legal[0] if legal else None)
        assert pick is not None, st["status"]["prompt"]
        r = client.post(f"/api/play/{token}/command", json={"version": st["version"], **{
            k: pick[k] for k in ("kind", "args")}})
        assert r.status_code in (200, 409), r.text
        n += 1
    return n


def test_issue26_a_bot_plays_its_seat_on_the_server(client: Any) -> None:
    r = client.post("/games/bots", data={"scenario": "demo-europa", "human": "axis",
                                         "bot": "heuristic"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/play/")
    token = r.headers["location"].rsplit("/", 1)[1]
    _drive(client, token, 400)
    ref = client.app.state.referee
    gid, _ = ref.seat(token)
    with ref.hold(gid) as loaded:
        g = loaded.game
        players = {c.player for c in g.commands}
        assert "soviet" in players and "axis" in players
        assert g.over or g.turn >= 3
    assert not client.app.state.bots.errors


def test_issue26_describe_a_composed_order(client: Any) -> None:
    g = client.post("/api/games", json={"scenario": "tr-1939-campaign"}).json()
    axis = g["seats"]["axis"]
    good = client.post(f"/api/play/{axis}/describe", json={"kind": "declare_options", "args": {
        "power": "germany", "options": {"eastern": "offensive", "western": "attrition"}}}).json()
    assert good["legal"] and good["words"]["text"].startswith(
        "Germany: offensive in the East; attrition in the West")
    bad = client.post(f"/api/play/{axis}/describe", json={"kind": "declare_options", "args": {
        "power": "germany", "options": {"eastern": "blitz"}}}).json()
    assert not bad["legal"] and bad["why"]


def test_issue26_chat_respects_seats(client: Any) -> None:
    g = client.post("/api/games", json={"scenario": "tr-1939-campaign-3p"}).json()
    seats = g["seats"]
    a, b, c = sorted(seats)
    client.post(f"/api/play/{seats[a]}/chat", json={"text": "hello everyone"})
    r = client.post(f"/api/play/{seats[a]}/chat", json={"text": "secret pact", "to": b})
    assert r.status_code == 200
    assert client.post(f"/api/play/{seats[a]}/chat", json={"text": ""}).status_code == 400
    assert client.post(f"/api/play/{seats[a]}/chat",
                       json={"text": "x", "to": "nobody"}).status_code == 400
    read = {p: [m["text"] for m in client.get(f"/api/play/{seats[p]}/chat").json()["messages"]]
            for p in seats}
    assert read[a] == ["hello everyone", "secret pact"]
    assert read[b] == ["hello everyone", "secret pact"]
    assert read[c] == ["hello everyone"]
    # the third seat's every page and answer holds nothing of the private message
    seen = "".join(client.get(u).text for u in (
        f"/play/{seats[c]}", f"/api/play/{seats[c]}/state", f"/api/play/{seats[c]}/history",
        f"/api/play/{seats[c]}/chat", "/"))
    assert "secret pact" not in seen


class _Hook(http.server.BaseHTTPRequestHandler):
    got: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        n = int(self.headers["Content-Length"])
        _Hook.got.append(json.loads(self.rfile.read(n)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *_a: Any) -> None:
        pass


class _Smtp(socketserver.StreamRequestHandler):
    """Just enough SMTP for smtplib.send_message (loopback only)."""

    mails: ClassVar[list[str]] = []

    def handle(self) -> None:
        w = self.wfile.write
        w(b"220 test\r\n")
        data = False
        buf: list[str] = []
        while True:
            line = self.rfile.readline().decode()
            if not line:
                return
            if data:
                if line.rstrip("\r\n") == ".":
                    data = False
                    _Smtp.mails.append("".join(buf))
                    w(b"250 ok\r\n")
                else:
                    buf.append(line)
                continue
            cmd = line[:4].upper()
            if cmd in ("EHLO", "HELO"):
                w(b"250 test\r\n")
            elif cmd == "DATA":
                data = True
                w(b"354 go\r\n")
            elif cmd == "QUIT":
                w(b"221 bye\r\n")
                return
            else:
                w(b"250 ok\r\n")


@pytest.fixture
def listeners(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, int]]:
    hook = http.server.HTTPServer(("127.0.0.1", 0), _Hook)
    smtp = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Smtp)
    for s in (hook, smtp):
        threading.Thread(target=s.serve_forever, daemon=True).start()
    monkeypatch.setenv("GROGNARD_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("GROGNARD_SMTP_PORT", str(smtp.server_address[1]))
    _Hook.got.clear()
    _Smtp.mails.clear()
    notify.SENT.clear()
    yield f"http://127.0.0.1:{hook.server_address[1]}/hook", smtp.server_address[1]
    hook.shutdown()
    smtp.shutdown()


def test_issue26_a_seat_is_told_when_it_must_act_and_only_then(client: Any,
                                                               listeners: tuple[str, int]
                                                               ) -> None:
    import time

    hook, _port = listeners
    g = client.post("/api/games", json={"scenario": "demo-europa"}).json()
    axis, soviet = g["seats"]["axis"], g["seats"]["soviet"]
    r = client.post(f"/api/play/{soviet}/notify", json={"webhook": hook,
                                                         "email": "soviet@example.org"})
    assert r.status_code == 200
    assert client.post(f"/api/play/{soviet}/notify",
                       json={"webhook": "ftp://x"}).status_code == 400
    client.post(f"/api/play/{axis}/notify", json={"webhook": hook})
    # the axis moves: nobody new must act, nobody is told
    st = client.get(f"/api/play/{axis}/state").json()
    mv = next(c for c in st["legal"] if c["kind"] == "move")
    client.post(f"/api/play/{axis}/command", json={"version": st["version"], **{
        k: mv[k] for k in ("kind", "args")}})
    time.sleep(0.3)
    assert notify.SENT == [] and _Hook.got == []
    # the axis ends its phases until the soviet must act: the soviet is told, once
    for _ in range(30):
        st = client.get(f"/api/play/{axis}/state").json()
        if "soviet" in st["status"]["active"]:
            break
        client.post(f"/api/play/{axis}/command", json={"version": st["version"],
                                                        "kind": "end_phase", "args": {}})
    deadline = time.monotonic() + 10
    while len(notify.SENT) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    kinds = sorted(k for k, _a, _t in notify.SENT)
    assert kinds == ["email", "webhook"], notify.SENT
    assert [h["player"] for h in _Hook.got] == ["soviet"]
    assert "Your turn in" in _Hook.got[0]["text"] and soviet in _Hook.got[0]["link"]
    assert len(_Smtp.mails) == 1 and "soviet@example.org" in _Smtp.mails[0]
    assert axis not in _Smtp.mails[0]


def test_issue25_the_lobby_offers_the_planner_first(client: Any) -> None:
    """The lobby's "vs bot" form picks the strongest bot that plays every scenario (the
    planner) unless the person chooses another; the form's default is the same."""
    lobby = client.get("/").text
    assert re.search(r'<option value="planner"[^>]*selected', lobby)
    assert not re.search(r'<option value="heuristic"[^>]*selected', lobby)
    r = client.post("/games/bots", data={"scenario": "demo-europa", "human": "axis"},
                    follow_redirects=False)
    assert r.status_code == 303
    token = r.headers["location"].rsplit("/", 1)[1]
    ref = client.app.state.referee
    gid, _ = ref.seat(token)
    from grognard.server import bot_seats
    assert {b for b, _tok in bot_seats.seats_of(ref.store, gid).values()} == {"planner"}
