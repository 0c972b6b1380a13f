"""Issue 15 (done means): a study's report opens in a browser with every chart drawn.

The report is written from synthetic game records (no games played: this test is about the
page); Chromium loads it from disk and each chart must be a decoded image of real size, and
the bars of the win chart are the stored win rates (tests/bots/test_study.py checks the data).
"""

from __future__ import annotations

from grognard.analysis.study_report import CHARTS, summarize, write_report


def _records(n: int, axis_wins: int) -> list[dict[str, object]]:
    return [{"seed": i, "end": "over", "winner": "axis" if i < axis_wins else "allies",
             "turns": 5 + i % 3, "commands": 100 + i, "refused": 0,
             "brp": [{"turn": t, "brp": {"germany": 150 - 5 * t + i, "france": 60 - 4 * t},
                      "base": {"germany": 150, "france": 60}} for t in (1, 2, 3)],
             "capitals": {"Paris": {"country": "france", "turn": 3 + i % 2}} if i % 2 else {},
             "losses": {"allies": {"infantry": 1 + i % 3}, "axis": {"armor": i % 2}}}
            for i in range(n)]


def test_study_report_opens_in_a_browser_with_every_chart(tmp_path, browser):
    records = {"base": _records(6, 4), "france=85": _records(6, 1)}
    sides = ["axis", "allies"]
    summaries = {k: summarize(v, sides) for k, v in records.items()}
    settings = {k: {"scenario": "tr-1939-campaign", "bots": {"axis": "heuristic"},
                    "readings": {}, "label": k} for k in records}
    html = write_report(tmp_path, "Study: test", settings, records, summaries)
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        page.goto(html.as_uri())
        assert page.title() == "Study: test"
        assert page.locator("h2").all_inner_texts() == ["base", "france=85"]
        sizes = page.eval_on_selector_all(
            "img", "els => els.map(e => [e.alt, e.complete, e.naturalWidth, e.naturalHeight])")
        assert [s[0] for s in sizes] == list(CHARTS)
        assert all(done and w >= 300 and h >= 200 for _alt, done, w, h in sizes), sizes
        assert "0.667" in page.content() and "0.167" in page.content()  # 4/6 and 1/6 rates
    finally:
        page.close()
