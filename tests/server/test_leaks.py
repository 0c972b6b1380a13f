"""C-HIDDEN over the wire: for every shipped scenario with secrets (hidden units, secret plans),
every endpoint and page a seat can reach (the state with every legal order's words and places,
log, VCR positions, lobby and game pages, chat, the result key, unit moves with why a unit is
stuck, a composed order's words and attack odds), at every step of a game, holds none of the
other seats' hidden values; nor does the notice a seat gets when it must act (issue 26)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from grognard.engine.scenario import shipped_scenarios
from grognard.server.service import Referee

from .conftest import secret_strings, whose_turn


def _everything(client: Any, gid: str, token: str, n: int) -> str:
    """Every page and API answer one seat can reach now."""
    texts = [client.get("/").text, client.get(f"/play/{token}").text,
             client.get(f"/games/{gid}").text, client.get("/api/games").text,
             client.get(f"/api/games/{gid}").text,
             client.get(f"/api/play/{token}/state").text,
             client.get(f"/api/play/{token}/state?moves=per_unit").text,
             client.get(f"/api/play/{token}/version").text,
             client.get(f"/api/play/{token}/history").text,
             client.get(f"/api/play/{token}/chat").text,
             client.get(f"/api/play/{token}/key").text,
             client.get(f"/api/play/{token}/notify").text]
    texts += [client.get(f"/api/play/{token}/position/{k}").text for k in sorted({0, n // 2, n})]
    return "\n".join(texts)


def _on_demand(client: Any, token: str, probes: list[str]) -> str:
    """The answers a seat asks for by clicking: the moves of some of its units and the odds of
    its attacks; and the moves of ``probes``, ids of other seats' hidden units (a seat may ask
    about any id: the answer must not tell)."""
    st = client.get(f"/api/play/{token}/state").json()
    units = [u for u, x in sorted(st["view"].get("units", {}).items())
             if x.get("side") == st["player"]]
    texts = [client.get(f"/api/play/{token}/moves/{u}").text for u in units[:2]]
    for u in probes:  # the answer echoes the id asked about; nothing else may name it
        answer = client.get(f"/api/play/{token}/moves/{u}").json()
        assert answer == {"unit": u, "moves": []}
    texts += [client.post(f"/api/play/{token}/describe", json={
        "kind": c["kind"], "args": c["args"]}).text for c in st["legal"][:4]]
    texts += [client.post(f"/api/play/{token}/odds", json=c).text
              for c in st["legal"] if c["kind"] == "attack"][:3]
    return "\n".join(texts)


def _secret_commands(ref: Referee, game: Any, player: str) -> list[dict[str, Any]]:
    """The documented example of each allowed kind (surprise plans, commitments): the way
    secrets enter a game that random legal play may not reach."""
    out = []
    for kind in sorted(game.allowed(player) - {"end_phase"}):
        ex = game.system.commands[kind].example
        if ex:
            out.append({"kind": kind, "args": dict(ex.get("args", ex))})
    return out


def _with_secrets() -> list[str]:
    from grognard.engine.scenario import load_scenario

    names = []
    for name in sorted(shipped_scenarios()):
        sc = load_scenario(name)
        if any(p.hidden for p in sc.placements) or sc.system in ("europa", "eurofront"):
            names.append(name)
    return names


@pytest.mark.parametrize("scenario", _with_secrets())
def test_no_hidden_value_reaches_another_seat(client: Any, scenario: str) -> None:
    ref: Referee = client.app.state.referee
    gid, seats = ref.create(scenario, seed=11)
    rng = random.Random(scenario)
    from grognard.server import notify

    for t in seats.values():  # every seat asks for notices (to a closed loopback port)
        client.post(f"/api/play/{t}/notify", json={"webhook": "http://127.0.0.1:9/none"})
    notify.SENT.clear()
    baseline = {p: _everything(client, gid, t, 0) for p, t in seats.items()}
    steps = 0
    checked = 0
    for _ in range(8):
        turn = whose_turn(ref, gid)
        if turn is None:
            break
        game, player, version = turn
        with ref.hold(gid):
            options = _secret_commands(ref, game, player) if steps < 3 else []
            options += [{"kind": c.kind, "args": dict(c.args)}
                        for c in ref.legal(game, player)]
        applied = False
        for cmd in options[:3] + rng.sample(options[3:], min(len(options[3:]), 5)):
            r = client.post(f"/api/play/{seats[player]}/command",
                            json={"version": version, **cmd})
            if r.status_code == 200:
                applied = True
                break
        if not applied:
            break
        steps += 1
        with ref.hold(gid) as loaded:
            hidden = {p: secret_strings(loaded.game, p) for p in seats}
        for p, token in seats.items():
            secrets = {s for s in hidden[p] if s not in baseline[p]}
            if not secrets:
                continue
            seen = _everything(client, gid, token, steps)
            leaked = sorted(s for s in secrets if s in seen)
            assert not leaked, f"{scenario}: {p} sees {leaked[:3]} after {steps} commands"
            checked += 1
    assert steps > 0
    # what a seat asks for by clicking, once at the end: its units' moves, its attacks' odds
    with ref.hold(gid) as loaded:
        hidden = {p: secret_strings(loaded.game, p) for p in seats}
    for p, token in seats.items():
        asked = _on_demand(client, token, sorted(s for s in hidden[p] if s.isidentifier()
                                                 or "-" in s)[:2])
        leaked = sorted(s for s in hidden[p] if s not in baseline[p] and s in asked)
        assert not leaked, f"{scenario}: {p} sees {leaked[:3]} in moves or odds"
    import time

    time.sleep(0.2)  # the notices are sent by threads
    for _channel, _to, text in list(notify.SENT):
        leaked = sorted(s for p in seats for s in hidden[p] if s not in baseline[p] and s in text)
        assert not leaked, f"{scenario}: a notice tells {leaked[:3]}"
    if scenario in ("europa-surprise", "tr-1939-invasion"):
        assert checked, f"{scenario}: no secret was ever in play"
