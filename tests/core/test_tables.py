"""core/tables: shipped tables, validation errors naming file/table/column/row, overrides."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from grognard.cli import main
from grognard.core.errors import TableError
from grognard.core.tables import TableSource, load_table_file, load_tables

SPEC_TABLES = Path(__file__).resolve().parents[3] / "shared" / "spec" / "tables.json"

GOOD = """
id = "demo"
title = "Demo"
source = "published"
dice = "1D6"
row_key = "roll"
columns = ["a", "b"]
[[rows]]
key = 1
results = ["x", "y"]
[[rows]]
key = 2
results = ["y", "z"]
"""


def write(tmp_path, text, name="t.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_shipped_reconstructed_tables_load_and_are_marked():
    ts = load_tables()
    for tid in ["europa_revised_crt", "europa_revised_bombardment", "europa_success_table",
                "tr_new3r_land_crt", "tr_new3r_attrition", "tr_new3r_airnaval",
                "eurofront_airpower_disruption"]:
        assert ts.table(tid).source is TableSource.RECONSTRUCTED


@pytest.mark.skipif(not SPEC_TABLES.exists(), reason="spec not beside the repo")
def test_shipped_tables_equal_the_spec():
    spec = json.loads(SPEC_TABLES.read_text())["tables"]
    ts = load_tables()
    for t in spec:
        ours = ts.table(t["id"])
        assert list(ours.columns) == t["columns"]
        key = next(k for k in t["rows"][0] if k != "results")
        assert {r[key]: list(r["results"]) for r in t["rows"]} == {
            k: list(v) for k, v in ours.rows.items()}


def test_good_table(tmp_path):
    t = load_table_file(write(tmp_path, GOOD))
    assert t.lookup(2, "b") == "z" and t.column("a") == {1: "x", 2: "y"}


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda s: s.replace('id = "demo"\n', ""), "missing required field 'id'"),
        (lambda s: s.replace('source = "published"', 'source = "folklore"'),
         "source must be published, reconstructed or user"),
        (lambda s: s.replace('results = ["y", "z"]', 'results = ["y"]'),
         "row 2: has 1 results for 2 columns"),
        (lambda s: s.replace("key = 2", "key = 1"), "row 1: duplicate row"),
        (lambda s: s.replace('columns = ["a", "b"]', 'columns = ["a", "a"]'),
         "column a: duplicate column"),
        (lambda s: s.replace('results = ["x", "y"]', 'results = ["x", true]'),
         "column b, row 1: a result must be"),
        (lambda s: s + "\n[[rows]\n", "not valid TOML"),
        (lambda s: s.replace('columns = ["a", "b"]', "columns = []"), "at least one column"),
    ],
)
def test_malformed_tables_name_what_and_where(tmp_path, mutate, message):
    p = write(tmp_path, mutate(GOOD))
    with pytest.raises(TableError) as exc:
        load_table_file(p)
    assert message in str(exc.value)
    assert str(p) in str(exc.value)


def mine(tid: str) -> str:
    """A user's copy of the shipped table ``tid`` (``source = "user"``)."""
    name = Path(load_tables().table(tid).file).name
    return resources.files("grognard.data").joinpath("tables", name).read_text(
        encoding="utf-8").replace(
        'source = "reconstructed"', 'source = "user"').replace(
        'source = "published"', 'source = "user"')


def test_override_directory_replaces_by_id(tmp_path):
    write(tmp_path, mine("tr_new3r_airnaval"))
    ts = load_tables(tmp_path)
    assert ts.table("tr_new3r_airnaval").source is TableSource.USER
    assert load_tables().table("tr_new3r_airnaval").source is TableSource.RECONSTRUCTED


def test_override_directory_must_exist(tmp_path):
    with pytest.raises(TableError, match="does not exist"):
        load_tables(tmp_path / "nope")


def test_unknown_table_and_column():
    ts = load_tables()
    with pytest.raises(TableError, match="no table named 'nope'"):
        ts.table("nope")
    with pytest.raises(TableError, match="column 9-1"):
        ts.table("europa_revised_crt").lookup(7, "9-1")


def test_cli_tables_show_with_override(tmp_path, capsys):
    write(tmp_path, mine("europa_success_table").replace('results = ["F*"]', 'results = ["S"]'))
    assert main(["--tables", str(tmp_path), "tables", "show", "europa_success_table",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["source"] == "user" and data["rows"][0]["results"] == ["S"]
    assert main(["tables", "list", "--json"]) == 0
    listed = {t["id"]: t for t in json.loads(capsys.readouterr().out)["tables"]}
    assert listed["europa_revised_crt"]["source"] == "reconstructed"


def test_cli_bad_table_file_exits_2_naming_it(tmp_path, capsys):
    write(tmp_path, GOOD.replace('results = ["y", "z"]', 'results = ["y"]'), "bad.toml")
    assert main(["--tables", str(tmp_path), "tables", "list"]) == 2
    err = capsys.readouterr().err
    assert "bad.toml" in err and "table demo" in err and "row 2" in err


# --- overrides checked cell by cell (issue 16) ----------------------------------------------------

@pytest.mark.parametrize(("tid", "old", "new", "message"), [
    ("europa_revised_crt", 'id = "europa_revised_crt"', 'id = "europa_revised_ctr"',
     "no shipped table has this id"),
    ("europa_success_table", 'results = ["F*"]', 'results = ["ZZ"]',
     "column result, row 0: unknown result 'ZZ'"),
    ("europa_success_table", 'results = ["F*"]', "results = [3]",
     "column result, row 0: 3 is an integer; the shipped table has a string here"),
    ("europa_success_table", "key = 0", 'key = "zero"', "row key is a string"),
    ("europa_surprise_cost", "", "", "column srp, row 1: -1 is out of range 0..400"),
    ("europa_supply_isolation_drms", "results = [-1]", "results = [-1000]",
     "column drm, row adjacent_enemy: -1000 is out of range -99..99"),
    ("europa_supply_isolation_drms", "loss_at_or_below = 6", 'loss_at_or_below = "6"',
     "meta.loss_at_or_below is a string, expected an integer"),
    ("tr_new3r_attrition", "", "", "unknown result"),
])
def test_override_tables_are_checked_cell_by_cell(tmp_path, capsys, tid, old, new, message):
    """Issue 16: a ``--tables`` file replacing a shipped table was only checked for its
    structure; a misspelled id, a cell of the wrong type, a negative cost or a result code no
    rule reads were accepted silently. Now each is one line naming file, table, column and row,
    and the shipped table's own values (a copy) pass."""
    text = mine(tid)
    write(tmp_path, text)
    assert load_tables(tmp_path).table(tid).source is TableSource.USER
    if not old:  # the first integer cell negative / the first result code unknown
        text = re.sub(r"results = \[(\d+)", r"results = [-\1", text, count=1) \
            if tid == "europa_surprise_cost" else re.sub(r'"A\d+"', '"Q1"', text, count=1)
    else:
        assert old in text
        text = text.replace(old, new, 1)
    write(tmp_path, text)
    with pytest.raises(TableError, match=re.escape(message) if "(" not in message else
                       message.split("(")[0]):
        load_tables(tmp_path)
    assert main(["--tables", str(tmp_path), "tables", "list"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "t.toml" in err
