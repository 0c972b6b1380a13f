"""Dice nobody can rig: the seed's commitment is published at creation and the seed revealed at
the end; the game's page and ``grognard verify SAVE`` re-derive every roll, and fail on a save
whose seed or any die was changed."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from grognard.cli import main
from grognard.server.dice import check_commitment, commitment

from .conftest import dest


def _short_game_text(client: Any) -> str:
    sc = client.app.state.referee.scenario("demo-europa")
    text: str = sc.text.replace("last_turn = 6", "last_turn = 1")
    assert text != sc.text
    return text


def _play_to_the_end(client: Any) -> tuple[str, dict[str, str]]:
    """A one-turn Europa game played by its seats over the API, with an attack (dice)."""
    r = client.post("/api/games", json={"scenario": "", "text": _short_game_text(client)})
    assert r.status_code == 200, r.text
    gid, seats = r.json()["game"], r.json()["seats"]
    rng = random.Random(3)
    attacked = False
    for _ in range(400):
        sts = {p: client.get(f"/api/play/{t}/state").json() for p, t in seats.items()}
        any_st = next(iter(sts.values()))
        if any_st["status"]["over"]:
            break
        p = any_st["status"]["active"][0]
        st = sts[p]
        legal = st["legal"]
        attacks = [c for c in legal if c["kind"] == "attack"]
        moves = [c for c in legal if c["kind"] == "move" and c["args"]["unit"] == "de-7pz"
                 and dest(c["args"]) == "0604"]
        if attacks and not attacked:
            cmd = attacks[0]
            attacked = True
        elif moves:
            cmd = moves[0]
        else:
            decisions = [c for c in legal if c["kind"] not in ("move", "attack", "end_phase")]
            ends = [c for c in legal if c["kind"] == "end_phase"]
            cmd = (decisions or ends or [rng.choice(legal)])[0]
        r = client.post(f"/api/play/{seats[p]}/command", json={"version": st["version"], **cmd})
        assert r.status_code == 200, r.text
    assert attacked
    return gid, seats


def test_a_finished_game_reveals_its_seed_and_every_roll_verifies(client: Any,
                                                                   tmp_path: Path) -> None:
    gid, seats = _play_to_the_end(client)
    pub = client.get(f"/api/games/{gid}").json()
    assert pub["over"] and pub["seed"] is not None
    assert check_commitment(pub["seed"]["seed"], pub["seed"]["nonce"], pub["commitment"])
    page = client.get(f"/games/{gid}").text
    assert 'class="ok" id="verdict"' in page and "Verified" in page
    st = client.get(f"/api/play/{seats['axis']}/state").json()
    assert st["seed"] == pub["seed"]
    save = client.get(f"/api/games/{gid}/save").json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(save))
    assert main(["verify", str(path), "--json"]) == 0
    rolls = [e for evs in save["events"] for e in evs if e["data"].get("dice")]
    assert rolls
    # a changed die: the replay from the seed re-derives the real one and refuses the save
    bad = json.loads(json.dumps(save))
    for evs in bad["events"]:
        for e in evs:
            if e["data"].get("dice"):
                e["data"]["dice"][0] = e["data"]["dice"][0] % 6 + 1
                break
        else:
            continue
        break
    path.write_text(json.dumps(bad))
    assert main(["verify", str(path)]) == 2
    # a changed seed no longer matches the commitment published at creation
    bad = dict(save, seed=save["seed"] + 1)
    path.write_text(json.dumps(bad))
    assert main(["verify", str(path)]) == 2
    # and a commitment forged for the changed seed does not match the published one
    assert commitment(save["seed"] + 1, save["commitment"]["nonce"]) != pub["commitment"]
