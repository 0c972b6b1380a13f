"""core/tables: shipped tables, validation errors naming file/table/column/row, overrides."""

from __future__ import annotations

import json
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


def test_override_directory_replaces_by_id(tmp_path):
    mine = GOOD.replace('id = "demo"', 'id = "tr_new3r_airnaval"').replace(
        'source = "published"', 'source = "user"')
    write(tmp_path, mine)
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
    write(tmp_path, GOOD.replace('id = "demo"', 'id = "europa_success_table"').replace(
        'source = "published"', 'source = "user"'))
    assert main(["--tables", str(tmp_path), "tables", "show", "europa_success_table",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["source"] == "user" and data["columns"] == ["a", "b"]
    assert main(["tables", "list", "--json"]) == 0
    listed = {t["id"]: t for t in json.loads(capsys.readouterr().out)["tables"]}
    assert listed["europa_revised_crt"]["source"] == "reconstructed"


def test_cli_bad_table_file_exits_2_naming_it(tmp_path, capsys):
    write(tmp_path, GOOD.replace('results = ["y", "z"]', 'results = ["y"]'), "bad.toml")
    assert main(["--tables", str(tmp_path), "tables", "list"]) == 2
    err = capsys.readouterr().err
    assert "bad.toml" in err and "table demo" in err and "row 2" in err
