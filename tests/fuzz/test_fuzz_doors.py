"""Fuzz: every door issue 27 names - the HTTP endpoints with generated bodies, paths and
queries; ``grognard verify`` on generated saves; study files; saves whose snapshot is forged
with its hashes recomputed.

The promises: an HTTP answer is never a 5xx and every refusal is one line (a 4xx); each answer
comes within 2 s of CPU; ``verify`` and study files accept or refuse with one GrognardError; a
forged snapshot is refused with one line or, if accepted, answers status, legal and apply.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from fuzz_support import (
    DEEP_JSON,
    HUGE_INT,
    SCRATCH,
    TOML_LITERALS,
    attempt,
    fuzz_settings,
    json_value,
    mutated_json,
    mutated_text,
)
from hypothesis import given
from hypothesis import strategies as st

from grognard.core.errors import GrognardError
from grognard.engine.game import Game
from grognard.engine.save import dumps, loads, save_hash
from grognard.engine.state import state_hash

#: CPU seconds one HTTP answer may take (issue 27: no response over 2 s).
ANSWER_S = 2.0


# --- HTTP --------------------------------------------------------------------------------------

class _Server:
    """One in-process app with a game per mode, made once (the fuzz reuses them)."""

    def __init__(self) -> None:
        from fastapi.testclient import TestClient

        from grognard.server.app import create_app

        self.app = create_app(f"sqlite:///{SCRATCH / 'http.sqlite'}", create_burst=10**9,
                              create_per_minute=10**9)
        self.client = TestClient(self.app)
        self.tokens: list[str] = []
        self.games: list[str] = []
        for scenario, mode in (("demo-europa", "hotseat"), ("demo-third-reich", "seats"),
                               ("eurofront-1941", "seats")):
            r = self.client.post("/api/games", json={"scenario": scenario, "mode": mode})
            self.tokens.extend(r.json()["seats"].values())
            self.games.append(r.json()["game"])
        # a few commands into the hotseat game, for history and positions
        tok = self.tokens[0]
        for _ in range(4):
            st_ = self.client.get(f"/api/play/{tok}/state").json()
            cmd = st_["legal"][0]
            self.client.post(f"/api/play/{tok}/command",
                             json={"version": st_["version"], **cmd, "as": st_["player"]})


_SERVER: _Server | None = None


def server() -> _Server:
    global _SERVER
    if _SERVER is None:
        _SERVER = _Server()
    return _SERVER


HOSTILE_BODIES = [DEEP_JSON, "[" * 100_000, '{"a": ' + HUGE_INT + "}", '{"x": NaN}',
                  '{"kind": "\\ud800"}', "", "{", "null", "[]", '"x"', "1e999",
                  '{"version": 0, "kind": "move", "args": {"unit": "' + "u" * 100_000 + '"}}']

POSTS = ["/api/games", "/games", "/api/editor/export", "/api/play/{t}/command",
         "/api/play/{t}/undo", "/api/play/{t}/odds"]
GETS = ["/", "/api/scenarios", "/api/games", "/api/games/{g}", "/api/games/{g}/save",
        "/games/{g}", "/play/{t}", "/editor", "/api/play/{t}/state", "/api/play/{t}/version",
        "/api/play/{t}/history", "/api/play/{t}/position/{n}", "/api/play/{t}/moves/{u}",
        "/games/{g}/created"]


@st.composite
def http_request(draw: Any) -> tuple[str, str, bytes | None, dict[str, str]]:
    srv = server()
    method = draw(st.sampled_from(["GET", "POST"]))
    template = draw(st.sampled_from(POSTS if method == "POST" else GETS))
    token = draw(st.one_of(st.sampled_from(srv.tokens), st.text(max_size=30),
                           st.sampled_from(["x", "%00", "..", "\u00e9", "a" * 500])))
    def q(value: object) -> str:
        return quote(str(value), safe="", errors="surrogatepass")

    path = template.format(
        t=q(token), g=q(draw(st.one_of(st.sampled_from(srv.games), st.text(max_size=10)))),
        n=q(draw(st.one_of(st.integers(-5, 50), st.just(HUGE_INT), st.text(max_size=5)))),
        u=q(draw(st.one_of(st.sampled_from(["de-7pz", "x", ""]), st.text(max_size=10)))))
    query = draw(st.sampled_from(["", "?as=axis", "?as=soviet", "?as=%ED%A0%80",
                                  "?moves=per_unit", "?scenario=demo-europa",
                                  "?scenario=..%2F..", "?as=" + "x" * 300, "?as=%FF"]))
    body: bytes | None = None
    if method == "POST":
        kind = draw(st.sampled_from(["json", "json", "hostile", "bytes", "form"]))
        if kind == "json":
            base: dict[str, Any] = {"version": draw(st.integers(-1, 6)),
                                    "kind": draw(st.sampled_from(["end_phase", "move", "attack",
                                                                  "x", ""])),
                                    "args": draw(json_value), "scenario": "demo-europa",
                                    "mode": draw(st.sampled_from(["hotseat", "seats", "x"]))}
            data = draw(mutated_json(base))
            body = json.dumps(data, ensure_ascii=False, allow_nan=True).encode("utf-8",
                                                                               "surrogatepass")
        elif kind == "hostile":
            body = draw(st.sampled_from(HOSTILE_BODIES)).encode("utf-8", "surrogatepass")
        elif kind == "bytes":
            body = draw(st.binary(max_size=200))
        else:
            body = draw(st.sampled_from([b"scenario=demo-europa&mode=hotseat", b"scenario=",
                                         b"scenario=%ff", b"mode=x", b"&&&", b"a=" + b"b" * 1000]))
    headers = {"Content-Type": draw(st.sampled_from(["application/json",
                                                     "application/x-www-form-urlencoded",
                                                     "text/plain"]))}
    return method, path + query, body, headers


@fuzz_settings(brief=60)
@given(http_request())
def test_fuzz_http(request: tuple[str, str, bytes | None, dict[str, str]]) -> None:
    method, path, body, headers = request
    srv = server()
    with attempt("http", request):
        cpu = time.process_time()
        try:
            r = srv.client.request(method, path, content=body, headers=headers,
                                   follow_redirects=False)
        except (UnicodeEncodeError, httpx.InvalidURL):  # the client cannot send this URL
            return
        spent = time.process_time() - cpu
        assert r.status_code < 500, (r.status_code, r.text[:300])
        if r.status_code >= 400 and r.headers.get("content-type", "").startswith(
                "application/json"):
            err = r.json().get("error", r.json().get("detail"))
            if isinstance(err, str):
                assert "\n" not in err and "Traceback" not in err, err
        assert spent < ANSWER_S, (spent, path)


# --- verify --------------------------------------------------------------------------------------

def _finished_save() -> str:
    """A signed save (seed commitment) of a short game, as the server gives a finished one."""
    from grognard.server.dice import commitment, signed_save

    g = Game.new("demo-europa", 5)
    rng = random.Random(5)
    for _ in range(8):
        moves = [c for p in g.active() for c in g.legal(p)]
        if not moves or g.over:
            break
        g.apply(rng.choice(moves))
    return json.dumps(signed_save(g, "ab", commitment(g.seed, "ab")))


SIGNED = _finished_save()


@st.composite
def verify_input(draw: Any) -> str | bytes:
    choice = draw(st.sampled_from(["json", "text", "hostile"]))
    if choice == "json":
        return json.dumps(draw(mutated_json(json.loads(SIGNED))), ensure_ascii=False)
    if choice == "text":
        return draw(mutated_text(SIGNED, "json"))
    return draw(st.sampled_from([DEEP_JSON, '{"seed": ' + HUGE_INT + "}", "", "\ud800",
                                 b"\xff\xfe", "[" * 100_000]))


@fuzz_settings(brief=40)
@given(verify_input())
def test_fuzz_verify(data: str | bytes) -> None:
    from grognard.cli import main

    f = SCRATCH / "verify.json"
    if isinstance(data, bytes):
        f.write_bytes(data)
    else:
        f.write_bytes(data.encode("utf-8", "surrogatepass"))
    with attempt("verify", data):
        assert main(["verify", str(f), "--json"]) in (0, 2)


# --- study files ---------------------------------------------------------------------------------

STUDY_FILES = [p.read_text() for p in sorted(Path("studies").glob("*.toml"))]


@st.composite
def study_text(draw: Any) -> str | bytes:
    base = draw(st.sampled_from(STUDY_FILES))
    if draw(st.booleans()):
        line = draw(st.sampled_from([ln for ln in base.splitlines() if "=" in ln]))
        key = line.split("=", 1)[0]
        return base.replace(line, f"{key}= {draw(st.sampled_from(TOML_LITERALS))}")
    return draw(mutated_text(base, "toml"))


@fuzz_settings(brief=40)
@given(study_text())
def test_fuzz_study_files(text: str | bytes) -> None:
    from grognard.analysis.study_claims import load_study_file

    f = SCRATCH / "study.toml"
    if isinstance(text, bytes):
        f.write_bytes(text)
    else:
        f.write_bytes(text.encode("utf-8", "surrogatepass"))
    with attempt("study", text):
        try:
            spec = load_study_file(f)
        except GrognardError:
            return
        json.dumps(spec)
        assert isinstance(spec["id"], str) and isinstance(spec.get("games", 1), int)


# --- forged snapshots ----------------------------------------------------------------------------

def _saves() -> list[str]:
    out = []
    for name, n in (("demo-europa", 6), ("demo-third-reich", 4), ("eurofront-1941", 5)):
        g = Game.new(name, 3)
        rng = random.Random(3)
        for _ in range(n):
            moves = [c for p in g.active() for c in g.legal(p)]
            if not moves or g.over:
                break
            g.apply(rng.choice(moves))
        out.append(dumps(g))
    return out


SNAPSHOT_SAVES = _saves()


@st.composite
def forged_snapshot(draw: Any) -> str:
    data = json.loads(draw(st.sampled_from(SNAPSHOT_SAVES)))
    part = draw(st.sampled_from(["snapshot", "steps", "snapshot"]))
    data[part] = draw(mutated_json(data[part]))
    if isinstance(data.get("snapshot"), dict):
        with contextlib.suppress(TypeError, ValueError, AttributeError):
            data["state_hash"] = state_hash(data["snapshot"].get("state"))
    with contextlib.suppress(ValueError):  # (a NaN has no hash: the save is refused anyway)
        data["save_hash"] = save_hash(data)  # the forger recomputes every hash
    return json.dumps(data, ensure_ascii=False)


@fuzz_settings(brief=40)
@given(forged_snapshot())
def test_fuzz_forged_snapshots(text: str) -> None:
    with attempt("snapshot", text):
        try:
            g = loads(text, "forged.json", verify=False)
        except GrognardError:
            return
        g.status()
        for p in g.scenario.sides:
            g.view(p)
            legal = g.legal(p)
            if legal and p in g.active():
                g.apply(legal[0])
                break
