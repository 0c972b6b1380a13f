"""The server's API: seats act and see only for themselves, stale commands are refused (409),
undo, the log and the VCR positions, hotseat hand-over, and the lobby."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from grognard.engine.commands import Command
from grognard.engine.game import Game

from .conftest import dest


def new_game(client: Any, scenario: str = "demo-europa", mode: str = "seats") -> dict[str, Any]:
    r = client.post("/api/games", json={"scenario": scenario, "mode": mode})
    assert r.status_code == 200, r.text
    return dict(r.json())


def state(client: Any, token: str, **params: str) -> dict[str, Any]:
    r = client.get(f"/api/play/{token}/state", params=params)
    assert r.status_code == 200, r.text
    return dict(r.json())


def first_move(st: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in st["legal"] if c["kind"] == "move")


def test_lobby_lists_every_shipped_scenario_and_new_games(client: Any) -> None:
    from grognard.engine.scenario import shipped_scenarios

    g = new_game(client)
    page = client.get("/").text
    for name in shipped_scenarios():
        assert f'data-scenario="{name}"' in page
    assert g["game"] in page
    assert len(g["commitment"]) == 64


def test_lobby_form_creates_hotseat_and_seat_games(client: Any) -> None:
    r = client.post("/games", data={"scenario": "demo-europa", "mode": "hotseat"},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/play/")
    r = client.post("/games", data={"scenario": "demo-europa", "mode": "seats"},
                    follow_redirects=False)
    assert r.status_code == 303
    page = client.get(r.headers["location"]).text
    assert page.count('class="seat-link"') == 2
    assert client.get(client.post("/games", data={"scenario": "demo-europa",
                                                  "mode": "hotseat"}).url).status_code == 200


def test_a_seat_acts_only_for_itself(client: Any) -> None:
    g = new_game(client)
    axis, soviet = g["seats"]["axis"], g["seats"]["soviet"]
    st = state(client, axis)
    assert st["player"] == "axis" and st["legal"]
    # the soviet token cannot give the axis move: the server fills in the seat's own player
    r = client.post(f"/api/play/{soviet}/command", json={"version": 0, **first_move(st)})
    assert r.status_code == 422 and "soviet may not act" in r.json()["error"]
    # nor ask to act or see as the other side
    r = client.post(f"/api/play/{soviet}/command",
                    json={"version": 0, "as": "axis", **first_move(st)})
    assert r.status_code == 403
    assert client.get(f"/api/play/{soviet}/state", params={"as": "axis"}).status_code == 403
    assert client.get("/api/play/not-a-token/state").status_code == 404
    assert state(client, soviet)["legal"] == []
    assert state(client, axis)["version"] == 0


def test_move_then_stale_submission_is_refused_409_and_changes_nothing(client: Any) -> None:
    g = new_game(client)
    axis = g["seats"]["axis"]
    st = state(client, axis)
    mv = first_move(st)
    r = client.post(f"/api/play/{axis}/command", json={"version": 0, **mv})
    assert r.status_code == 200
    after = r.json()
    assert after["version"] == 1
    assert after["view"]["units"][mv["args"]["unit"]]["hex"] == dest(mv["args"])
    other = next(c for c in after["legal"] if c["kind"] == "move")
    r = client.post(f"/api/play/{axis}/command", json={"version": 0, **other})
    assert r.status_code == 409
    now = state(client, axis)
    assert now["version"] == 1 and now["view"] == after["view"]
    r = client.post(f"/api/play/{axis}/command", json={"kind": "end_phase", "args": {}})
    assert r.status_code == 400 and "version" in r.json()["error"]


def test_of_two_conflicting_submissions_exactly_one_wins(client: Any) -> None:
    g = new_game(client)
    axis = g["seats"]["axis"]
    moves = [c for c in state(client, axis)["legal"] if c["kind"] == "move"]
    a, b = moves[0], next(c for c in moves if c["args"]["unit"] != moves[0]["args"]["unit"])
    codes: list[int] = []
    barrier = threading.Barrier(2)

    def submit(cmd: dict[str, Any]) -> None:
        barrier.wait()
        codes.append(client.post(f"/api/play/{axis}/command",
                                 json={"version": 0, **cmd}).status_code)

    threads = [threading.Thread(target=submit, args=(c,)) for c in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200, 409]
    assert state(client, axis)["status"]["commands"] == 1


def test_illegal_command_is_one_line_with_its_rule(client: Any) -> None:
    g = new_game(client)
    axis = g["seats"]["axis"]
    r = client.post(f"/api/play/{axis}/command",
                    json={"version": 0, "kind": "move", "args": {"unit": "de-7pz",
                                                                  "path": ["1208"]}})
    assert r.status_code == 422
    body = r.json()
    assert body["rule"] and "\n" not in body["error"]
    assert state(client, axis)["version"] == 0


def test_undo_takes_back_the_move_and_is_refused_for_the_other_seat(client: Any) -> None:
    g = new_game(client)
    axis, soviet = g["seats"]["axis"], g["seats"]["soviet"]
    before = state(client, axis)
    after = client.post(f"/api/play/{axis}/command",
                        json={"version": 0, **first_move(before)}).json()
    assert after["status"]["can_undo"] is True
    r = client.post(f"/api/play/{soviet}/undo", json={"version": 1})
    assert r.status_code == 422 and r.json()["rule"] == "UNDO"
    r = client.post(f"/api/play/{axis}/undo", json={"version": 0})
    assert r.status_code == 409
    r = client.post(f"/api/play/{axis}/undo", json={"version": 1})
    assert r.status_code == 200
    undone = r.json()
    assert undone["view"] == before["view"] and undone["version"] == 2
    assert undone["status"]["commands"] == 0


def test_log_and_vcr_positions_follow_the_game(client: Any) -> None:
    g = new_game(client)
    axis, soviet = g["seats"]["axis"], g["seats"]["soviet"]
    start = state(client, axis)
    mv = first_move(start)
    st = client.post(f"/api/play/{axis}/command", json={"version": 0, **mv}).json()
    st = client.post(f"/api/play/{axis}/command",
                     json={"version": 1, "kind": "end_phase", "args": {}}).json()
    hist = client.get(f"/api/play/{axis}/history").json()
    assert [e["kind"] for e in hist["entries"]] == ["move", "end_phase"]
    unit = start["view"]["units"][mv["args"]["unit"]]
    assert any(unit["name"] in ch and dest(mv["args"]) in ch
               for ch in hist["entries"][0]["changes"])
    # the soviet log tells the visible move without the axis order's arguments
    theirs = client.get(f"/api/play/{soviet}/history").json()["entries"]
    assert "path" not in theirs[0]["text"] and theirs[0]["changes"]
    p0 = client.get(f"/api/play/{axis}/position/0").json()
    assert p0["view"] == start["view"] and p0["of"] == 2
    p2 = client.get(f"/api/play/{axis}/position/2").json()
    assert p2["view"] == st["view"]
    assert client.get(f"/api/play/{axis}/position/3").status_code == 400


def test_hotseat_acts_for_the_side_to_move_and_hands_over(client: Any) -> None:
    g = new_game(client, mode="hotseat")
    (tok,) = g["seats"].values()
    st = state(client, tok)
    assert st["seat"] == "*" and st["player"] == "axis"
    while st["status"]["active"] == ["axis"]:
        end = next(c for c in st["legal"] if c["kind"] == "end_phase")
        st = client.post(f"/api/play/{tok}/command",
                         json={"version": st["version"], "as": "axis", **end}).json()
    nxt = st["status"]["active"][0]
    assert nxt != "axis"
    # the answer after the hand-over is still axis's view; the next side asks as itself
    assert st["player"] == "axis" and st["legal"] == []
    assert state(client, tok, **{"as": nxt})["legal"]


def test_the_seed_stays_secret_until_the_game_ends(client: Any) -> None:
    g = new_game(client)
    gid = g["game"]
    assert client.get(f"/api/games/{gid}/save").status_code == 403
    pub = client.get(f"/api/games/{gid}").json()
    assert pub["seed"] is None and pub["commitment"] == g["commitment"]
    st = state(client, g["seats"]["axis"])
    assert st["seed"] is None and "state_hash" not in str(st)
    assert "dice" in client.get(f"/games/{gid}").text


def test_referee_reloads_from_the_snapshot_without_replaying(tmp_path: Any, monkeypatch:
                                                             pytest.MonkeyPatch) -> None:
    from grognard.server.service import Referee
    from grognard.server.store import Store

    store = Store(f"sqlite:///{tmp_path / 'g.sqlite'}")
    ref = Referee(store)
    gid, seats = ref.create("demo-europa")
    st = ref.state_for(seats["axis"])
    for _ in range(3):
        mv = next(c for c in st["legal"] if c["kind"] == "move")
        st = ref.command(seats["axis"], st["version"], "move", mv["args"])
    fresh = Referee(store)

    def no_replay(*_a: Any, **_k: Any) -> Game:
        raise AssertionError("a request replayed the game")

    monkeypatch.setattr(Game, "replay", no_replay)
    again = fresh.state_for(seats["axis"])
    assert again["view"] == st["view"] and again["version"] == 3
    monkeypatch.undo()
    row = store.game(gid)
    assert row is not None
    replayed = Game.replay(ref.scenario("demo-europa"), row.seed,
                           [Command.from_json(r.command) for r in store.commands(gid)])
    assert replayed.state_hash() == store.commands(gid)[-1].state_hash
    store.dispose()


def test_answers_without_moves_and_each_units_moves_on_request(client: Any) -> None:
    """``moves=per_unit`` (what the page asks for): the answer lists every legal command but
    the moves; GET moves/{unit} gives each unit's, and together they are the full list."""
    g = new_game(client)
    axis = g["seats"]["axis"]
    full = state(client, axis)
    lean = state(client, axis, moves="per_unit")
    assert lean["moves_per_unit"] and not full["moves_per_unit"]
    assert [c for c in full["legal"] if c["kind"] != "move"] == lean["legal"]
    asked = []
    for uid, u in sorted(lean["view"]["units"].items()):
        if u.get("side") == "axis":
            got = client.get(f"/api/play/{axis}/moves/{uid}").json()["moves"]
            assert all(m["args"]["unit"] == uid for m in got)
            assert all(m["words"]["text"] and m["places"]["units"] == [uid] for m in got)
            asked += [{"kind": m["kind"], "args": m["args"]} for m in got]
    moves = [{"kind": c["kind"], "args": c["args"]} for c in full["legal"] if c["kind"] == "move"]
    assert moves and sorted(map(str, asked)) == sorted(map(str, moves))
    r = client.post(f"/api/play/{axis}/command",
                    json={"version": lean["version"], "moves": "per_unit", **moves[0]})
    assert r.status_code == 200 and r.json()["moves_per_unit"]
    assert not any(c["kind"] == "move" for c in r.json()["legal"])
    soviet = state(client, g["seats"]["soviet"], moves="per_unit")
    assert soviet["legal"] == [] and not soviet["moves_per_unit"]
