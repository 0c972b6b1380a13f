"""Issue 27, items 6, 7 and 8: private and whole on disk.

The server's database and its write-ahead log are created 0600 in a 0700 folder; a save given
as a symbolic link is written where it points, under the target's lock; the save's hash covers
all of it (the dice snapshot and the undo steps included), and a snapshot is decoded into its
typed form and checked as a position before any command reads it: a forged one is refused with
one line by ``game status``, ``game legal`` and ``game apply``."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from grognard.cli import main
from grognard.engine.game import Game
from grognard.engine.save import dumps, load_game, loads, save_game, save_hash
from grognard.engine.state import state_hash


def _mode(p: Path) -> int:
    return stat.S_IMODE(os.stat(p).st_mode)


@pytest.fixture
def umask_022() -> Any:
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_the_database_and_its_wal_are_private(tmp_path: Path, umask_022: None,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 6: games.sqlite and its WAL were created 0644 in a 0755 folder: any local user read
    every game's seed (so every future die) and every seat token."""
    from grognard.cli.server import _db_url
    from grognard.server.service import HOTSEAT, Referee
    from grognard.server.store import Store

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    url = _db_url(None)
    folder = tmp_path / "share" / "grognard"
    assert _mode(folder) == 0o700
    store = Store(url)
    ref = Referee(store)
    _gid, tokens = ref.create("demo-europa", "hotseat", seed=1)
    st = ref.state_for(tokens[HOTSEAT])
    cmd = st["legal"][0]
    ref.command(tokens[HOTSEAT], st["version"], cmd["kind"], cmd["args"], st["player"])
    db = folder / "games.sqlite"
    wal = folder / "games.sqlite-wal"
    assert wal.exists()
    for f in (db, wal, folder / "games.sqlite-shm"):
        if f.exists():
            assert _mode(f) == 0o600, f
    store.dispose()
    # any SQLite file the server creates (--db FILE) is private too
    other = tmp_path / "other.sqlite"
    Store(f"sqlite:///{other}").dispose()
    assert _mode(other) == 0o600
    # an existing default database made by an older grognard is made private
    os.chmod(db, 0o644)
    os.chmod(folder, 0o755)
    _db_url(None)
    assert _mode(db) == 0o600 and _mode(folder) == 0o700


def test_saves_and_their_locks_are_private(tmp_path: Path, umask_022: None) -> None:
    save = tmp_path / "g.json"
    assert main(["game", "new", "demo-europa", "--seed", "1", "--out", str(save)]) == 0
    cmd = json.dumps({"kind": "end_phase", "player": "axis", "args": {}})
    assert main(["game", "apply", str(save), cmd]) == 0
    for f in (save, tmp_path / "g.json.lock", tmp_path / "g.json.bak"):
        assert _mode(f) == 0o600, f


def test_a_symlinked_save_is_followed_under_the_targets_lock(tmp_path: Path) -> None:
    """Item 7: ``game apply current.json`` where current.json links to games/g42.json replaced
    the link with a regular file; g42.json never got the command, each name took its lock."""
    games = tmp_path / "games"
    games.mkdir()
    target = games / "g42.json"
    assert main(["game", "new", "demo-europa", "--seed", "1", "--out", str(target)]) == 0
    link = tmp_path / "current.json"
    link.symlink_to(target)
    cmd = json.dumps({"kind": "end_phase", "player": "axis", "args": {}})
    assert main(["game", "apply", str(link), cmd]) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert len(load_game(target).commands) == 1
    assert (games / "g42.json.lock").exists() and not (tmp_path / "current.json.lock").exists()
    assert (games / "g42.json.bak").exists()
    # a relative link, through the link again: the same file grows
    rel = games / "latest.json"
    rel.symlink_to("g42.json")
    cmd2 = json.dumps({"kind": "end_phase", "player": "soviet", "args": {}})
    main(["game", "apply", str(rel), cmd2])
    assert rel.is_symlink() and link.is_symlink()
    assert len(load_game(target).commands) == len(load_game(link).commands) >= 1


def _rolled_save(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A demo-europa save after a die was rolled (so the dice snapshot matters)."""
    from grognard.engine.commands import Command

    g = Game.new("demo-europa", 7)
    g.apply(Command("end_phase", "axis", {}))
    g.apply(Command("roll_table", "axis", {"table": "europa_revised_crt", "column": "3-1"}))
    save = tmp_path / "g.json"
    save_game(g, save)
    return save, json.loads(save.read_text())


def _rehash(data: dict[str, Any]) -> str:
    data["state_hash"] = state_hash(data["snapshot"]["state"])
    data["save_hash"] = save_hash(data)
    return json.dumps(data)


def test_the_hash_covers_the_dice_snapshot_and_the_undo_steps(tmp_path: Path) -> None:
    """Item 8: ``game apply`` trusted a save's dice snapshot and undo markers, which the hash
    did not cover: a PBEM opponent could edit the snapshot to choose or re-roll dice."""
    save, data = _rolled_save(tmp_path)
    stream = next(iter(data["snapshot"]["dice"]))
    for edit in ("draws", "steps", "state"):
        forged = json.loads(json.dumps(data))
        if edit == "draws":
            forged["snapshot"]["dice"][stream]["draws"] += 1
        elif edit == "steps":
            forged["steps"][-1]["barrier"] = None  # make the roll undoable
        else:
            forged["snapshot"]["state"]["turn"] += 1
            forged["state_hash"] = state_hash(forged["snapshot"]["state"])
        save.write_text(json.dumps(forged))
        for args in (["game", "status", str(save)], ["game", "undo", str(save), "--player",
                                                     "axis"]):
            assert main(args) == 2
        with pytest.raises(Exception, match="save_hash|snapshot was edited"):
            loads(json.dumps(forged), verify=False)
    # a save without a hash (an older one, or one whose hash was cut off) is not trusted: its
    # log is replayed, so an edited snapshot changes nothing
    forged = json.loads(json.dumps(data))
    forged["snapshot"]["dice"][stream]["draws"] += 5
    forged.pop("save_hash")
    honest = loads(json.dumps(data), verify=False)
    assert loads(json.dumps(forged), verify=False).dice.snapshot_json() == \
        honest.dice.snapshot_json()


@pytest.mark.parametrize("forge", ["phase 999", "unit x", "no units", "turn -1", "units x",
                                   "phase x", "state x", "dice x", "stream x"])
def test_a_forged_snapshot_with_its_hashes_recomputed_is_refused_with_one_line(
        tmp_path: Path, forge: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 8: a snapshot with phase = 999, "x" or no units, with its hash recomputed, crashed
    ``game status``, ``game legal`` and ``game apply``."""
    save, data = _rolled_save(tmp_path)
    snap = data["snapshot"]
    state = snap["state"]
    if forge == "phase 999":
        state["phase"] = 999
    elif forge == "unit x":
        state["units"][next(iter(state["units"]))] = "x"
    elif forge == "no units":
        del state["units"]
    elif forge == "turn -1":
        state["turn"] = -1
    elif forge == "units x":
        state["units"] = "x"
    elif forge == "phase x":
        state["phase"] = "x"
    elif forge == "state x":
        snap["state"] = {"turn": 1, "phase": 0, "units": {}, "x": "x"}
    elif forge == "dice x":
        snap["dice"] = "x"
    else:
        snap["dice"][next(iter(snap["dice"]))] = {"state": "x", "draws": 1}
    save.write_text(_rehash(data))
    cmd = json.dumps({"kind": "end_phase", "player": "axis", "args": {}})
    before = save.read_bytes()
    for args in (["game", "status", str(save)], ["game", "legal", str(save), "--player", "axis"],
                 ["game", "apply", str(save), cmd], ["game", "view", str(save), "--player",
                                                     "axis"]):
        capsys.readouterr()
        assert main(args) == 2, (forge, args)
        err = capsys.readouterr().err
        assert "Traceback" not in err and err.strip().count("\n") <= 2, err
        assert str(save) in err
    assert save.read_bytes() == before


def test_an_honest_save_still_loads_from_its_snapshot_and_reloads_byte_identical(
        tmp_path: Path) -> None:
    save, data = _rolled_save(tmp_path)
    g = load_game(save, verify=False)
    assert dumps(g) == save.read_text()
    assert data["save_hash"] == save_hash(data)
