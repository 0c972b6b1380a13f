"""A whole study: settings, seeds, the store, the games still to play, the report.

``run_study`` plays seeds ``first_seed .. first_seed + games - 1`` of each setting (the base and,
with a comparison, the compared one) that the store does not hold yet, stores each game as it
ends (so the study resumes after an interruption, and a larger ``games`` extends it), then
summarizes the stored games of those seeds (two settings also seed by seed,
:mod:`grognard.analysis.study_paired`) and writes the report.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from grognard.analysis.study import Record, Setting, run_jobs
from grognard.analysis.study_paired import paired
from grognard.analysis.study_report import summarize, write_report
from grognard.analysis.study_store import StudyStore

Advance = Callable[[str, Record], None]


def run_study(
    settings: list[Setting],
    games: int,
    out: Path,
    workers: int = 1,
    address: str | None = None,
    first_seed: int = 0,
    advance: Advance | None = None,
    report: bool = True,
) -> tuple[dict[str, Any], dict[str, list[Record]]]:
    """Play what is missing, then summarize; returns the study's JSON (docs/formats/bots.md)
    and the game records of each setting."""
    out.mkdir(parents=True, exist_ok=True)
    store = StudyStore(out / "study.sqlite")
    seeds = list(range(first_seed, first_seed + games))
    played: dict[str, int] = {s.label: 0 for s in settings}
    try:
        # seed by seed across the settings, so a study stopped early has compared games
        todo = {s.label: set(store.missing(s, seeds)) for s in settings}
        jobs = [(s, seed) for seed in seeds for s in settings if seed in todo[s.label]]
        for s, rec in run_jobs(jobs, workers, address):
            store.add(s, rec)
            played[s.label] += 1
            if advance is not None:
                advance(s.label, rec)
        records = {s.label: store.records(s, seeds) for s in settings}
    finally:
        store.close()
    sides = {s.label: list(s.bots) for s in settings}
    summaries = {label: summarize(recs, sides[label]) for label, recs in records.items()}
    specs: Mapping[str, Mapping[str, Any]] = {s.label: s.to_json() for s in settings}
    # two settings on the same seeds: compared game by game too (study_paired)
    pair = None if len(settings) != 2 else {
        "base": settings[0].label, "compared": settings[1].label,
        **paired(records[settings[0].label], records[settings[1].label], sides[settings[0].label])}
    html = None
    if report:
        title = f"Study: {settings[0].scenario}, {games} games"
        html = write_report(out, title, specs, records, summaries, paired=pair)
    return {
        "scenario": settings[0].scenario,
        "games": games,
        "first_seed": first_seed,
        "played": played,
        "store": str(out / "study.sqlite"),
        "report": None if html is None else str(html),
        "settings": {label: dict(spec) for label, spec in specs.items()},
        "results": summaries,
        **({"paired": pair} if pair is not None else {}),
    }, records
