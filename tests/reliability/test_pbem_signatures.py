"""Issue 27, item 8 (last sentence of "What to build" 4): for play by e-mail each seat signs the
commands it makes with a key only it keeps (``grognard game key``, ``game apply --key``), so a
tampered save names who changed what (``grognard game signatures``)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from grognard.cli import main
from grognard.engine.save import check_signatures, read_seat_key, save_hash
from grognard.engine.state import state_hash

END = {"kind": "end_phase", "args": {}}
ROLL = {"kind": "roll_table", "args": {"table": "europa_revised_crt", "column": "3-1"}}


def _apply(save: Path, player: str, cmd: dict[str, Any], key: Path | None) -> int:
    args = ["game", "apply", str(save), json.dumps({**cmd, "player": player})]
    return main(args + (["--key", str(key)] if key is not None else []))


@pytest.fixture
def pbem(tmp_path: Path) -> dict[str, Path]:
    save = tmp_path / "g.json"
    assert main(["game", "new", "demo-europa", "--seed", "3", "--out", str(save)]) == 0
    keys = {}
    for p in ("axis", "soviet"):
        keys[p] = tmp_path / f"{p}.key"
        assert main(["game", "key", "--player", p, "--out", str(keys[p])]) == 0
        assert stat.S_IMODE(os.stat(keys[p]).st_mode) == 0o600
    assert _apply(save, "axis", END, keys["axis"]) == 0
    return {"save": save, **keys}


def _keys(pbem: dict[str, Path], *players: str) -> dict[str, bytes]:
    return {p: read_seat_key(pbem[p])[1] for p in players}


def _rehashed(data: dict[str, Any]) -> str:
    data["state_hash"] = state_hash(data["snapshot"]["state"])
    data["save_hash"] = save_hash(data)
    return json.dumps(data)


def test_an_untouched_signed_save_checks_out(pbem: dict[str, Path],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert _apply(pbem["save"], "axis", ROLL, pbem["axis"]) == 0
    report = check_signatures(pbem["save"].read_text(), _keys(pbem, "axis", "soviet"))
    assert report["ok"] and report["replays"], report
    assert report["seats"]["axis"]["commands"] == 2
    capsys.readouterr()
    assert main(["game", "signatures", str(pbem["save"]), "--key", str(pbem["axis"])]) == 0
    assert "as its seats signed it" in capsys.readouterr().out


def test_a_changed_command_names_the_seat_whose_signature_breaks(pbem: dict[str, Path]) -> None:
    assert _apply(pbem["save"], "axis", ROLL, pbem["axis"]) == 0
    data = json.loads(pbem["save"].read_text())
    data["commands"][1]["args"]["column"] = "4-1"  # the opponent edits axis's attack
    pbem["save"].write_text(_rehashed(data))
    report = check_signatures(pbem["save"].read_text(), _keys(pbem, "axis"))
    assert not report["ok"]
    assert any("command 1 (roll_table) or a command before it was changed after axis signed"
               in p for p in report["problems"]), report


def test_forged_dice_name_whoever_sent_the_save(pbem: dict[str, Path]) -> None:
    """The opponent edits the dice snapshot (recomputing every hash) before axis rolls: axis's
    roll does not replay, and axis's signature shows it rolled on a position changed after the
    previous command - so the sender, not axis, changed the dice."""
    assert _apply(pbem["save"], "axis", ROLL, pbem["axis"]) == 0
    data = json.loads(pbem["save"].read_text())
    stream = next(iter(data["snapshot"]["dice"]))
    rng = data["snapshot"]["dice"][stream]["state"]  # the generator's state: re-rolls dice
    inner = rng["state"] if isinstance(rng.get("state"), dict) else rng
    inner["state"] = (int(inner["state"]) * 7 + 1) % 2**64
    pbem["save"].write_text(_rehashed(data))
    assert _apply(pbem["save"], "axis", ROLL, pbem["axis"]) == 0
    report = check_signatures(pbem["save"].read_text(), _keys(pbem, "axis"))
    assert not report["replays"] and report["first_not_replaying"] == 2, report
    assert any("made on a position changed after command 1 (axis's)" in p
               for p in report["problems"]), report
    # without a signature the same forgery is only a command that does not replay
    assert "signed by axis" not in " ".join(report["problems"])


def test_a_command_in_another_seats_name_is_named(pbem: dict[str, Path],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert _apply(pbem["save"], "axis", ROLL, None) == 0  # made unsigned (by anyone)
    capsys.readouterr()
    assert main(["game", "signatures", str(pbem["save"]), "--key", str(pbem["axis"])]) == 1
    assert "made in axis's name without its signature" in capsys.readouterr().out
    # a key of the wrong seat is refused before anything is signed
    assert _apply(pbem["save"], "axis", END, pbem["soviet"]) == 2


def test_a_seat_keeps_one_key(pbem: dict[str, Path], tmp_path: Path) -> None:
    other = tmp_path / "other.key"
    assert main(["game", "key", "--player", "axis", "--out", str(other)]) == 0
    assert main(["game", "key", "--player", "axis", "--out", str(other)]) == 2  # no overwrite
    assert _apply(pbem["save"], "axis", ROLL, other) == 2  # the save names axis's first key
