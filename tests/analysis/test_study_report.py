"""Issue 25 item 4: the study report's faults (legends, the capitals chart, the turns played,
how games ended, a study with no decisive game)."""

from __future__ import annotations

from grognard.analysis.study_report import (
    chart_brp,
    chart_capitals,
    chart_wins,
    ends_text,
    summarize,
    write_report,
)
from grognard.bots import play_game
from grognard.engine.game import Game

RECS = [{"winner": "axis", "end": "over", "turns": t,
         "capitals": {"Warsaw": {"turn": 1, "country": "poland"},
                      "Paris": {"turn": t, "country": "france"}}} for t in (4, 5, 5)] + [
    {"winner": None, "end": "max_turns", "turns": 7,
     "capitals": {"Warsaw": {"turn": 2, "country": "poland"}}}]


def test_ends_read_as_a_sentence_not_a_setting():
    assert ends_text({"max_turns": 4, "over": 2}) == \
        "4 games stopped at the turn limit, 2 ended by the rules' verdict"
    assert summarize(RECS)["ends_text"] == \
        "3 games ended by the rules' verdict, 1 stopped at the turn limit"


def test_turns_reported_are_the_last_turn_played_not_the_limit_plus_one():
    rec = play_game(Game.new("tr-1939-two-fronts", seed=1),
                    {"axis": "heuristic", "allies": "heuristic"}, seed=1, max_turns=1)
    assert rec.end == "max_turns" and rec.turns == 1
    s = summarize([rec.to_json()])
    assert s["turns"] == {"mean": "1.00", "min": 1, "max": 1}


def test_capitals_are_a_strip_chart_not_a_line(tmp_path):
    s = summarize(RECS, ["axis", "allies"])
    fig = chart_capitals({"base": s}, tmp_path / "c.png")
    ax = fig.axes[0]
    assert not ax.lines  # no line joins the turns
    (dots,) = ax.collections
    assert sorted(map(tuple, dots.get_offsets().tolist())) == \
        [(1.0, 1.0), (2.0, 1.0), (4.0, 0.0), (5.0, 0.0)]  # Paris row 0, Warsaw row 1
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Paris", "Warsaw"]


def test_legends_stand_outside_the_plot(tmp_path):
    s = summarize(RECS, ["axis", "allies"])
    for fig in (chart_wins({"base": s, "other": s}, tmp_path / "w.png"),
                chart_brp({"base": {"brp": {"germany": {"1": "10", "2": "20"}}}},
                          tmp_path / "b.png")):
        ax = fig.axes[0]
        leg = ax.get_legend()
        fig.canvas.draw()
        box = leg.get_window_extent()
        assert box.x0 >= ax.get_window_extent().x1  # right of the axes, over no data


def test_a_study_with_no_decisive_game_says_so(tmp_path):
    recs = [{"winner": None, "end": "max_turns", "turns": 3}] * 2
    s = summarize(recs, ["axis", "allies"])
    assert s["decisive"] == 0
    html = write_report(tmp_path, "t", {"base": {"bots": {}, "readings": {}}},
                        {"base": recs}, {"base": s}).read_text()
    assert "No decisive game" in html and "2 games stopped at the turn limit" in html
    assert "max_turns" not in html


def test_a_3r_draw_verdict_is_no_decisive_game():
    """Issue 25: a 3R campaign ends with winner "draw" on victory locations (TR-04): a game
    with a verdict but no winning side is not decisive."""
    recs = [{"winner": "draw", "end": "over", "turns": 29},
            {"winner": "allies", "end": "over", "turns": 22}]
    assert summarize(recs, ["axis", "allies"])["decisive"] == 1
    assert summarize([{**r, "bots": {"axis": "planner", "allies": "heuristic"}}
                      for r in recs])["decisive"] == 1
