"""``grognard bots list / move / play`` (issue 15): a person plays against a bot."""

from __future__ import annotations

import json

from grognard.cli import main


def _run(capsys, *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


def _json(capsys, *args: str) -> dict:
    rc, out, err = _run(capsys, *args)
    assert rc == 0, err
    return json.loads(out)


def _new(capsys, save) -> None:
    _json(capsys, "game", "new", "tr-1939-two-fronts", "--out", str(save), "--seed", "4",
          "--json")


def test_bots_list_json(capsys):
    names = [b["name"] for b in _json(capsys, "bots", "list", "--json")["bots"]]
    assert names == ["heuristic", "mcts", "planner", "random", "search"]


def test_bots_move_applies_one_seeded_move(tmp_path, capsys):
    save = tmp_path / "g.json"
    _new(capsys, save)
    dry = _json(capsys, "bots", "move", str(save), "--player", "axis", "--bot", "heuristic",
                "--dry-run", "--json")
    out = _json(capsys, "bots", "move", str(save), "--player", "axis", "--bot", "heuristic",
                "--json")
    assert out["command"] == dry["command"] and out["applied"] and not dry["applied"]
    assert out["state_hash"] != dry["state_hash"]
    assert _json(capsys, "game", "replay", str(save), "--json")["commands"] == 1


def test_bots_play_stops_at_the_persons_turn(tmp_path, capsys):
    save = tmp_path / "g.json"
    _new(capsys, save)
    out = _json(capsys, "bots", "play", str(save), "--bots", "axis=heuristic", "--json")
    assert out["played"] and out["active"] == ["allies"]
    assert all(c["player"] == "axis" for c in out["played"])


def test_bots_errors_are_one_line(tmp_path, capsys):
    save = tmp_path / "g.json"
    _new(capsys, save)
    for args, msg in [(["bots", "move", str(save), "--player", "allies"], "nothing to do"),
                      (["bots", "move", str(save), "--player", "axis", "--bot", "x"],
                       "unknown bot"),
                      (["bots", "play", str(save), "--bots", "heuristic"], "SIDE=BOT")]:
        rc, _out, err = _run(capsys, *args)
        assert rc == 2 and msg in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1
