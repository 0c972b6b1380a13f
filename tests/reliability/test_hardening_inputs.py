"""Issue 27, item 9: tracebacks instead of one line. ``grognard verify`` and study files read
through the input gate (core/inputs.py): every case the issue lists exits 2 with one line
naming the file (and the field), never a traceback, and reads a device no further than the
limit."""

from __future__ import annotations

import json
import resource
from pathlib import Path

import pytest

from grognard.cli import main


def _one_line(capsys: pytest.CaptureFixture[str], args: list[str], *needles: str) -> str:
    capsys.readouterr()
    assert main(args) == 2, args
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and err.startswith("error:"), err
    assert len(err.splitlines()) <= 2, err  # one line (a long one may wrap once)
    for n in needles:
        assert n in err, (n, err)
    return err


@pytest.mark.parametrize("name,data,needle", [
    ("nonutf8.json", b'{"seed": 1, "x": "\xff"}', "not valid UTF-8"),
    ("deep.json", b"[" * 100_000 + b"]" * 100_000, "nested more than 64 deep"),
    ("digits.json", b'{"seed": ' + b"7" * 5000 + b', "commitment": {"sha256": "a", '
     b'"nonce": "b"}}', "longer than 64 digits"),
    ("nan.json", b'{"seed": NaN}', "not valid JSON"),
    ("seed.json", b'{"seed": 99999999999999999999, "commitment": {"sha256": "a", '
     b'"nonce": "b"}}', "seed must be"),
    ("list.json", b"[1, 2]", "commitment"),
    ("empty.json", b"", "not valid JSON"),
])
def test_verify_refuses_hostile_files_with_one_line(tmp_path: Path, name: str, data: bytes,
                                                    needle: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / name
    f.write_bytes(data)
    _one_line(capsys, ["verify", str(f)], str(f), needle)


def test_verify_reads_a_device_no_further_than_the_limit(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``verify /dev/zero`` ended in MemoryError; now the read stops at the size limit."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    _one_line(capsys, ["verify", "/dev/zero"], "/dev/zero", "larger than the limit")
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 200
    _one_line(capsys, ["verify", "/nonexistent/save.json"], "no such file")


STUDY = """[study]
id = "s"
scenario = "demo-europa"
games = 2
bots = "random"
max_turns = 1
"""


@pytest.mark.parametrize("change,needle", [
    (("games = 2", 'games = "abc"'), "study.games"),
    (("games = 2", "games = inf"), "study.games"),
    (("games = 2", "games = 0"), "study.games"),
    (("games = 2", "games = -3"), "study.games"),
    (("games = 2", "games = 2.5"), "study.games"),
    (("games = 2", "games = 2\nreadings = 5"), "study.readings"),
    (("games = 2", "games = 2\ncompare = 7"), "study.compare"),
    (("games = 2", "games = 2\ncompare = { a = [1] }"), "study.compare"),
    (("games = 2", "games = 2\nmax_turns = 1e999"), "not valid TOML"),
    (("games = 2", "games = 2\nmeasure = { kind = \"x\" }"), "study.measure.kind"),
    (("games = 2", "games = 2\nmeasure = { kind = \"capital_falls_by\" }"), "capital"),
    (("games = 2", "games = 2\nmeasure = 3"), "study.measure"),
    (("games = 2", "games = " + "9" * 5000), "longer than 64 digits"),
    (("games = 2", "games = 2\nwhat = 1"), "unknown field 'what'"),
    (('id = "s"', "id = 5"), "study.id"),
])
def test_bad_study_files_get_one_line(tmp_path: Path, change: tuple[str, str], needle: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``games = "abc"``, ``games = inf``, ``readings = 5``, ``compare = 7`` crashed."""
    f = tmp_path / "study.toml"
    f.write_text(STUDY.replace(*change))
    _one_line(capsys, ["study", str(f), "--out", str(tmp_path / "out"), "--json"], str(f),
              needle)


def test_a_non_utf8_study_file_gets_one_line(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "study.toml"
    f.write_bytes(STUDY.encode() + b'claim = "\xff"\n')
    _one_line(capsys, ["study", str(f), "--out", str(tmp_path / "out")], str(f),
              "not valid UTF-8")


def test_the_shipped_study_files_still_read() -> None:
    from grognard.analysis.study_claims import load_study_file

    for f in sorted(Path("studies").glob("*.toml")):
        spec = load_study_file(f)
        assert spec["games"] >= 1 and spec["measure"]["kind"]
        json.dumps(spec)
