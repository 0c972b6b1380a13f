"""Issue 27, items 1, 2, 5 and 9 (server): every request body goes through the input gate
(core/inputs.py, engine/save.py ``command_values``) before a command is built from it; bodies
and posted scenarios are bounded; game creation is rate-limited per client. Each refusal is a
4xx with one line, changes nothing, and the game still loads, verifies and replays."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path
from typing import Any

import pytest

from grognard.engine.save import loads
from grognard.server.dice import verify_save_text
from grognard.server.service import Referee
from grognard.server.store import Store


def _game(client: Any, scenario: str = "demo-europa") -> tuple[str, str, dict[str, Any]]:
    r = client.post("/api/games", json={"scenario": scenario, "mode": "hotseat"})
    assert r.status_code == 200, r.text
    token = r.json()["seats"]["*"]
    st = client.get(f"/api/play/{token}/state").json()
    return r.json()["game"], token, st


def _legal_move(st: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in st["legal"] if c["kind"] != "end_phase")


def _post(client: Any, token: str, text: str | bytes) -> Any:
    return client.post(f"/api/play/{token}/command", content=text,
                       headers={"Content-Type": "application/json"})


def _one_line_4xx(r: Any) -> str:
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    err = r.json()["error"]
    assert "\n" not in err and "Traceback" not in err and "internal error" not in err
    return str(err)


def _nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


def test_a_deeply_nested_extra_argument_is_refused_and_the_game_survives_a_restart(
        client: Any, tmp_path: Path) -> None:
    """Item 1: an extra argument nested 947 deep was stored (200); after a restart every state
    and history request of the game answered 500 RecursionError."""
    gid, token, st = _game(client)
    cmd = _legal_move(st)
    for depth in (947, 65, 20):  # over the text's limit (64), and over the arguments' (16)
        args = json.dumps(cmd["args"])[:-1] + ', "extra": ' + _nested(depth) + "}"
        body = f'{{"version": {st["version"]}, "kind": "{cmd["kind"]}", "args": {args}}}'
        err = _one_line_4xx(_post(client, token, body))
        assert "deep" in err
    # nothing was stored; a restarted server (a fresh referee on the same database) serves it
    ref = client.app.state.referee
    assert ref.store.commands(gid) == []
    fresh = Referee(Store(ref.store.url))
    assert fresh.state_for(token)["version"] == st["version"]
    assert fresh.history(token)["entries"] == []


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity",
                                   "1" + "0" * 70,  # 71 digits: over the text's limit
                                   "1" + "0" * 30,  # 31 digits: over the arguments' bound
                                   "2.5", '"' + "x" * 5000 + '"'])
def test_an_argument_that_would_void_the_dice_proof_is_refused(client: Any, value: str) -> None:
    """Item 2: an extra argument holding NaN or a 71-digit integer was accepted; the finished
    game's page said NOT verified and ``grognard verify`` exited 2."""
    gid, token, st = _game(client)
    cmd = _legal_move(st)
    args = json.dumps(cmd["args"])[:-1] + ', "extra": ' + value + "}"
    body = f'{{"version": {st["version"]}, "kind": "{cmd["kind"]}", "args": {args}}}'
    _one_line_4xx(_post(client, token, body))
    ref = client.app.state.referee
    assert ref.store.commands(gid) == []


def test_an_accepted_game_always_saves_and_verifies(client: Any) -> None:
    """Whatever the gate lets through stores, saves and replays: a legal command with every
    argument at the bounds of the gate (when the engine accepts it) leaves a game whose save
    loads, replays and verifies."""
    gid, token, st = _game(client)
    cmd = _legal_move(st)
    r = client.post(f"/api/play/{token}/command", json={"version": st["version"], **cmd})
    assert r.status_code == 200, r.text
    ref = client.app.state.referee
    with ref.hold(gid) as loaded:
        g = loaded.game
        from grognard.engine.save import dumps
        from grognard.server.dice import signed_save

        text = json.dumps(signed_save(g, loaded.nonce, loaded.commitment))
        assert loads(dumps(g)).state_hash() == g.state_hash()
    assert verify_save_text(text)["valid"]


@pytest.mark.parametrize("body", [
    _nested(100_000),  # 100,000 deep
    '{"version": 0, "kind": "move", "args": {"unit": "\\ud800"}}',  # a lone surrogate
    '{"version": 0, "kind": "\\udfff", "args": {}}',
    b'{"version": 0, "kind": "move", "args": {"unit": "\xff"}}',  # not UTF-8
    '{"version": 0, "kind": "move", "args": [1]}',
    '{"version": 0, "kind": "move", "args": {"unit": 1e400}}',
    '{"version": 1' + "0" * 5000 + ', "kind": "move"}',  # a 5,000-digit version
    "[]", "", "nul", '{"version": 0, "kind": ' + '"x' * 300 + '"}',
])
def test_hostile_bodies_get_one_line_and_a_4xx(client: Any, body: str | bytes) -> None:
    """Item 9: a 100,000-deep body or a lone surrogate in an argument got a 500 with a
    traceback in the log."""
    _gid, token, _st = _game(client)
    for path in ("command", "undo", "odds"):
        r = client.post(f"/api/play/{token}/{path}", content=body,
                        headers={"Content-Type": "application/json"})
        _one_line_4xx(r)


def test_hostile_bodies_on_creation_and_the_editor(client: Any) -> None:
    for path in ("/api/games", "/api/editor/export"):
        for body in (_nested(100_000), '{"scenario": "\\ud800"}', b"\xff\xfe", "[1]"):
            _one_line_4xx(client.post(path, content=body,
                                      headers={"Content-Type": "application/json"}))
    r = client.post("/games", content="scenario=%ED%A0%80&mode=seats",
                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    _one_line_4xx(r)


def _raw_post(port: int, path: str, headers: dict[str, str], body: bytes = b"") -> tuple[int, str]:
    """One HTTP request over a socket (a Content-Length the client does not honour)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        head = f"POST {path} HTTP/1.1\r\nHost: x\r\n" + "".join(
            f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
        s.sendall(head.encode() + body)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    status = int(data.split(b" ", 2)[1])
    return status, data.decode("utf-8", "replace")


def test_a_huge_body_is_refused_before_it_is_read(thread_server: Any) -> None:
    """Item 5: an unauthenticated 200 MB POST to /api/games was read whole (97 MB -> 708 MB of
    server memory). A declared Content-Length over the limit is refused at once (nothing is
    sent), and a chunked body is refused as soon as it passes the limit."""
    port = thread_server.port
    for path in ("/api/games", "/games", "/api/editor/export", "/api/play/x/command"):
        status, text = _raw_post(port, path, {"Content-Type": "application/json",
                                              "Content-Length": str(200 * 1024 * 1024)})
        assert status == 413, (path, text[:200])
    chunk = b"x" * (64 * 1024)
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(40)) + b"0\r\n\r\n"
    status, _text = _raw_post(port, "/api/games", {"Content-Type": "application/json",
                                                   "Transfer-Encoding": "chunked"}, body)
    assert status == 413


def test_a_posted_scenario_is_bounded(client: Any) -> None:
    """Item 5: an 88 KB posted scenario (a 300x300 map) made a 26 MB play page built in 8-19 s
    and kept in a 64-entry cache. A posted map is at most MAX_POSTED_HEXES hexes."""
    sc = client.app.state.referee.scenario("demo-europa")
    grid = "\n".join("." * 99 for _ in range(99))  # 9,801 hexes in 10 KB
    text = re.sub(r'grid = """\n.*?"""', 'grid = """\n' + grid + '\n"""', sc.text, flags=re.S)
    r = client.post("/api/games", json={"scenario": "", "text": text})
    assert "hexes" in _one_line_4xx(r)
    r = client.post("/api/games", json={"scenario": "", "text": sc.text + "#" * 600_000})
    _one_line_4xx(r)
    assert client.get("/api/games").json()["games"] == []


def test_game_creation_is_rate_limited_per_client(tmp_path: Path) -> None:
    """Item 5: game creation had no limit (about 150 KB of database a game, 60 games a
    second)."""
    from fastapi.testclient import TestClient

    from grognard.server.app import RateLimit, create_app

    app = create_app(f"sqlite:///{tmp_path / 'g.sqlite'}", create_burst=3,
                     create_per_minute=1)
    with TestClient(app) as c:
        codes = [c.post("/api/games", json={"scenario": "demo-europa"}).status_code
                 for _ in range(5)]
        assert codes == [200, 200, 200, 429, 429]
        assert "try again" in c.post("/games", data={"scenario": "demo-europa"}).json()["error"]
        assert len(c.get("/api/games").json()["games"]) == 3
    app.state.referee.store.dispose()
    bucket = RateLimit(2, 60)
    bucket.take("a", 0.0)
    bucket.take("a", 0.0)
    bucket.take("b", 0.0)  # per client
    with pytest.raises(Exception, match="too many"):
        bucket.take("a", 0.5)
    bucket.take("a", 1.01)  # one a second refills
