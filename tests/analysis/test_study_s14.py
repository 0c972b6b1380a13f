"""Issue 25 item 4, session 14: the study report checked against the final plan's studies.

Faults found on the session-14 reports (tr-1939-campaign, the planner on both sides):
whole campaigns that all end in TR-04 draws were reported as "no game reached a verdict";
the winner table said "none" where the chart said "no winner"; game length did not say which
games stopped at the turn limit and which ended by the verdict; the turn axes and the capitals
table gave bare turn numbers ("{'1': 5}") where the scenario names the date; the report of a
study file never showed the claim it measures.
"""

from __future__ import annotations

import json
from pathlib import Path

from grognard.analysis.study_report import (
    add_claim,
    by_turn_text,
    chart_capitals,
    chart_length,
    chart_wins,
    no_decisive_text,
    summarize,
    write_report,
)
from grognard.cli import main

DATES = {"brp": [{"turn": 1, "date": "Fall 1939", "brp": {"germany": 10}},
                 {"turn": 2, "date": "Winter 1939", "brp": {"germany": 8}},
                 {"turn": 3, "date": "Spring 1940", "brp": {"germany": 5}}]}
DRAWS = [{"winner": "draw", "end": "over", "turns": 29, **DATES},
         {"winner": "draw", "end": "over", "turns": 29, **DATES},
         {"winner": None, "end": "max_turns", "turns": 3, **DATES}]
SPEC = {"base": {"bots": {"axis": "planner", "allies": "planner"}, "readings": {}}}


def test_draws_by_the_verdict_are_not_games_without_a_verdict(tmp_path: Path) -> None:
    s = summarize(DRAWS, ["axis", "allies"])
    assert s["decisive"] == 0 and s["verdicts"] == 2
    why = no_decisive_text(s)
    assert why is not None and "no game reached a verdict" not in why
    assert "2 games reached the rules' verdict" in why and "draws" in why
    assert "1 stopped before a verdict" in why
    page = write_report(tmp_path, "t", SPEC, {"base": DRAWS}, {"base": s}).read_text()
    assert "no game reached a verdict" not in page
    assert "2 games reached the rules&#x27; verdict" in page
    fig = chart_wins({"base": s}, tmp_path / "w.png")
    assert "every verdict a draw" in fig.axes[0].get_title()
    # games that all stopped at the limit still say so
    stopped = summarize([DRAWS[2]], ["axis", "allies"])
    assert "no game reached a verdict" in (no_decisive_text(stopped) or "")
    assert no_decisive_text(summarize([{"winner": "axis", "end": "over", "turns": 5}],
                                      ["axis", "allies"])) is None


def test_the_winner_table_and_chart_name_the_outcomes_alike(tmp_path: Path) -> None:
    s = summarize(DRAWS, ["axis", "allies"])
    page = write_report(tmp_path, "t", SPEC, {"base": DRAWS}, {"base": s}).read_text()
    assert "<td>none</td>" not in page and "<td>no verdict (stopped)</td>" in page
    assert "<td>draw (by the verdict)</td>" in page
    fig = chart_wins({"base": s}, tmp_path / "w.png")
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert "no verdict (stopped)" in labels and "draw (by the verdict)" in labels


def test_game_length_tells_the_verdicts_from_the_games_stopped_at_the_limit(
        tmp_path: Path) -> None:
    fig = chart_length({"base": DRAWS}, tmp_path / "l.png",
                       {"3": "Spring 1940", "29": "Summer I 1945"})
    ax = fig.axes[0]
    solid = [p for p in ax.patches if not p.get_hatch()]
    hatched = [p for p in ax.patches if p.get_hatch()]
    assert [(round(p.get_x() + p.get_width() / 2), p.get_height()) for p in solid] == [(29, 2)]
    assert [(round(p.get_x() + p.get_width() / 2), p.get_height()) for p in hatched] == \
        [(3, 1)]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["ended by the verdict", "stopped at a limit"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["3 Spring 1940", "29 Summer I 1945"]


def test_the_turns_are_named_by_their_dates(tmp_path: Path) -> None:
    recs = [{**r, "capitals": {"Warsaw": {"turn": 1, "country": "poland"},
                               "Paris": {"turn": 3, "country": "france"}}} for r in DRAWS]
    s = summarize(recs, ["axis", "allies"])
    fig = chart_capitals({"base": s}, tmp_path / "c.png")
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == \
        ["1 Fall 1939", "2 Winter 1939", "3 Spring 1940"]
    assert by_turn_text(s["capitals"]["Warsaw"]["by_turn"], s["turn_dates"]) == \
        "1 Fall 1939: 3 games"
    page = write_report(tmp_path, "t", SPEC, {"base": recs}, {"base": s}).read_text()
    assert "1 Fall 1939: 3 games" in page and "{&#x27;1&#x27;: 3}" not in page
    # the setting in words, not a dict's repr ("readings: {}")
    assert "bots: axis planner, allies planner; readings: the scenario;" in page


def test_the_report_of_a_study_file_opens_with_its_claim(tmp_path: Path, capsys) -> None:
    study = tmp_path / "s.toml"
    study.write_text('[study]\nid = "s"\nclaim = "Warsaw <falls> early."\nsource = "TR-86"\n'
                     'scenario = "tr-1939-two-fronts"\ngames = 1\nbots = "heuristic"\n'
                     'max_turns = 1\n[study.measure]\nkind = "capital_falls_by"\n'
                     'capital = "Warsaw"\nby_turn = 1\n', encoding="utf-8")
    rc = main(["study", str(study), "--out", str(tmp_path / "out"), "--json"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    data = json.loads(out.out)
    page = Path(data["report"]).read_text(encoding="utf-8")
    assert "<b>Claim</b>: &ldquo;Warsaw &lt;falls&gt; early.&rdquo; (TR-86)" in page
    assert f"<b>Measured</b>: {data['claim']['measured']}" in page
    add_claim(Path(data["report"]), data["claim"])  # written once, not twice
    assert Path(data["report"]).read_text(encoding="utf-8").count("<b>Claim</b>") == 1
    # the human output says why no game was decisive (the game stopped at turn 1)
    rc = main(["study", str(study), "--out", str(tmp_path / "out")])
    assert rc == 0 and "No decisive game: no game reached a verdict" in \
        capsys.readouterr().out.replace("\n", " ")


def test_the_brp_chart_shows_no_turn_the_games_did_not_play(tmp_path: Path) -> None:
    """A game stopped at ``max_turns = 2`` records the state where it stopped, dated turn 3
    (the next turn's first phase, nothing played in it): the BRPs per turn end at turn 2."""
    recs = [{"winner": None, "end": "max_turns", "turns": 2, **DATES}]
    s = summarize(recs, ["axis", "allies"])
    assert s["brp"] == {"germany": {"1": "10.0", "2": "8.0"}}
    assert s["turn_dates"] == {"1": "Fall 1939", "2": "Winter 1939"}
    # a game the verdict ended keeps every turn it played
    assert summarize([{**DRAWS[0], "turns": 3}])["brp"]["germany"] == \
        {"1": "10.0", "2": "8.0", "3": "5.0"}


def test_a_compared_settings_long_label_is_wrapped_in_the_legend(tmp_path: Path) -> None:
    label = ("third_reich.campaign.economy.france.base=85,"
             "third_reich.campaign.economy.france.brp=85")
    fig = chart_length({"base": DRAWS, label: DRAWS}, tmp_path / "l.png")
    texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert all(len(line) <= 36 for t in texts for line in t.splitlines())
    assert any("france.brp=85" in t.replace("\n", "") for t in texts)
