"""``grognard study SCENARIO --games N --bots SIDE=BOT,...``: many seeded bot games, a report.

SCENARIO is a shipped scenario name, a scenario TOML, or a study file (``studies/*.toml``: the
scenario, bots, readings, comparison, limits and the designer's claim it measures).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from grognard.analysis.study import Setting, Start, parse_readings
from grognard.analysis.study_claims import load_study_file, measure_claim
from grognard.analysis.study_paired import paired_text
from grognard.analysis.study_report import add_claim, at_stop_text, no_decisive_text
from grognard.analysis.study_run import run_study
from grognard.bots import parse_bots
from grognard.core.errors import InputError
from grognard.engine.save import load_game
from grognard.engine.scenario import load_scenario
from grognard.engine.terminal import JsonOpt, emit, grid_table


def _head(path: Path) -> bytes:
    """The first bytes of a file (is it a study file?), whatever its encoding."""
    try:
        with path.open("rb") as f:
            return f.read(2000)
    except OSError:
        return b""


def positions(source: Path, scenario: str) -> Start:
    """The positions ``--from`` names: a save, or every ``*.json`` save in a directory (in
    name order), each read and checked (one line naming a save that is not a game of
    ``scenario``)."""
    saves = sorted(source.glob("*.json")) if source.is_dir() else [source]
    if not saves:
        raise InputError("--from", f"{source}: no saves (*.json) in this directory")
    out = []
    for path in saves:
        at = load_game(path)  # one line if it is not a save of a game
        if at.scenario.id != scenario:
            raise InputError("--from", f"{path} is a game of {at.scenario.id}, not {scenario}")
        out.append((str(path), at.state_hash()))
    return Start(str(source), tuple(out))


def register(app: typer.Typer) -> None:
    _register_ladder(app)

    @app.command("study")
    def study(
        scenario: Annotated[str, typer.Argument(help="Scenario name/TOML, or a study file.")],
        games: Annotated[int | None, typer.Option("--games", help="Games per setting.")] = None,
        bots: Annotated[str | None, typer.Option("--bots", help="SIDE=BOT,... or one bot for "
                                                 "every side.")] = None,
        workers: Annotated[int, typer.Option("--workers", help="Local processes.")] = 1,
        address: Annotated[str | None, typer.Option(
            "--address", help="Ray cluster address ('local' starts a local Ray).")] = None,
        reading: Annotated[list[str] | None, typer.Option(
            "--reading", help="KEY=VALUE reading for every game (repeatable).")] = None,
        compare: Annotated[list[str] | None, typer.Option(
            "--compare", help="KEY=VALUE: a second setting with this reading, or with this "
            "scenario change for a dotted key (TABLE.KEY=VALUE; repeatable).")]
        = None,
        compare_bots: Annotated[str | None, typer.Option(
            "--compare-bots", help="SIDE=BOT,...: a second setting with these bots (and any "
            "--compare readings); the two compared seed by seed too.")] = None,
        out: Annotated[Path | None, typer.Option("--out", help="Study directory (SQLite "
                                                 "store, charts, report.html).")] = None,
        seed: Annotated[int, typer.Option("--seed", help="First seed.")] = 0,
        max_turns: Annotated[int | None, typer.Option(help="Stop each game after this "
                                                      "turn.")] = None,
        max_commands: Annotated[int | None, typer.Option(help="Stop each game after this "
                                                         "many commands.")] = None,
        start: Annotated[Path | None, typer.Option(
            "--from", help="A position study: every game goes on from this save's position "
            "(or a directory's saves, seed by seed in turn), each seed a fresh future of "
            "dice.")] = None,
        saves: Annotated[Path | None, typer.Option(
            "--saves", help="Write each game's save here when it stops (LABEL-SEED.json: "
            "positions for --from).")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Run N seeded bot games (resumable), then write win rates, BRPs, capitals' falls,
        losses and game length to a report; --compare (a reading) or --compare-bots adds a
        second setting side by side and seed by seed;
        --from plays them all on from one save's position (a position study)."""
        spec: dict[str, Any] = {}
        if scenario.endswith(".toml") and Path(scenario).is_file() and \
                b"study" in _head(Path(scenario)):
            spec = load_study_file(Path(scenario))
            scenario = str(spec["scenario"])
        sc = load_scenario(scenario)
        n = games if games is not None else int(spec.get("games", 100))
        if n < 1:
            raise InputError("--games", "at least 1")
        bots_text = bots or spec.get("bots")
        if not bots_text:
            raise InputError("--bots", "name a bot per side (SIDE=BOT,...) or one bot")
        seated = parse_bots(str(bots_text), list(sc.sides))
        readings = {**spec.get("readings", {}), **parse_readings(reading or [])}
        limits: dict[str, Any] = {"max_turns": max_turns if max_turns is not None
                                  else spec.get("max_turns")}
        mc = max_commands if max_commands is not None else spec.get("max_commands")
        if mc is not None:
            limits["max_commands"] = int(mc)
        if start is not None:
            if saves is not None:
                raise InputError("--saves", "a game played on from --from has no command "
                                 "log of its own to save: write the saves of whole games")
            if any("." in k for k in readings):
                raise InputError("--reading", "a scenario change (a dotted key) cannot "
                                 "apply to a game already under way (--from)")
            limits["start"] = positions(start, sc.id)
        if saves is not None:
            limits["saves"] = str(saves)
        settings = [Setting(sc.id, seated, readings, label="base", **limits)]
        changes = parse_readings(compare or [], "--compare") if compare else \
            dict(spec.get("compare", {}))
        if start is not None and any("." in k for k in changes):
            raise InputError("--compare", "a scenario change (a dotted key) cannot apply to "
                             "a game already under way (--from)")
        other_bots = compare_bots or spec.get("compare_bots")
        if changes or other_bots:
            label = ",".join([*(f"{k}={v}" for k, v in changes.items()),
                              *([f"bots: {other_bots}"] if other_bots else [])])
            other = seated
            if other_bots:
                try:
                    other = parse_bots(str(other_bots), list(sc.sides))
                except InputError as exc:  # name the option the bad text came from
                    raise InputError("--compare-bots", exc.reason) from None
            settings.append(Setting(sc.id, other, {**readings, **changes}, label=label,
                                    **limits))
            if settings[1].key() == settings[0].key():
                raise InputError("--compare-bots" if other_bots else "--compare",
                                 "the compared setting is the base setting itself")
        where = out or Path("studies") / (spec.get("id") or sc.id)
        total = n * len(settings)
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), disable=as_json, transient=False) as bar:
            task = bar.add_task(f"{sc.id}", total=total)
            bar.update(task, completed=0)

            def advance(label: str, rec: dict[str, Any]) -> None:
                bar.update(task, advance=1, description=f"{sc.id} [{label}] seed {rec['seed']}")

            result, records = run_study(settings, n, where, workers, address, seed, advance)
            bar.update(task, completed=total)
        if spec.get("claim"):
            result["claim"] = measure_claim(spec, records)
            if result.get("report"):
                add_claim(Path(result["report"]), result["claim"])

        def human(c: Console) -> None:
            for label, s in result["results"].items():
                c.print(f"[bold]{label}[/bold]: {s['games']} games: {s['ends_text']}")
                if why := no_decisive_text(s):
                    c.print(why)
                if stop := at_stop_text(s):
                    c.print(escape(stop))
                c.print(grid_table(["winner", "games", "rate", "95% CI"],
                                   [[w, v["games"], v["rate"], "-".join(v["ci95"])]
                                    for w, v in s["wins"].items()]))
            if "paired" in result:
                p = result["paired"]
                for line in paired_text(p, str(p["compared"]), str(p["base"])):
                    c.print(escape(line))
            if "claim" in result:
                c.print(f"claim: {result['claim']['text']}")
                c.print(f"measured: {result['claim']['measured']}")
            c.print(f"report: {result['report']}")

        emit(result, as_json, human)


def _register_ladder(app: typer.Typer) -> None:
    @app.command("ladder")
    def ladder(
        scenario: Annotated[str, typer.Argument(help="Scenario name or TOML.")],
        bots: Annotated[str, typer.Option(
            "--bots", help="The bots, comma-separated (the first is anchored at Elo 0).")]
        = "random,heuristic,planner",
        seeds: Annotated[int, typer.Option("--seeds", help="Paired seeds per pair of bots "
                                           "(each played with the sides swapped).")] = 10,
        seed: Annotated[int, typer.Option("--seed", help="First seed.")] = 0,
        depth: Annotated[str | None, typer.Option(
            "--depth", help="Search budgets for the skill-depth curve (e.g. 0,2,4,8).")]
        = None,
        depth_bot: Annotated[str, typer.Option("--depth-bot")] = "mcts",
        depth_against: Annotated[str, typer.Option("--depth-against")] = "planner",
        workers: Annotated[int, typer.Option("--workers", help="Local processes.")] = 1,
        address: Annotated[str | None, typer.Option("--address", help="Ray address.")]
        = None,
        max_turns: Annotated[int | None, typer.Option(help="Stop each game after this "
                                                      "turn.")] = None,
        max_commands: Annotated[int | None, typer.Option(help="Stop each game after this "
                                                         "many commands.")] = None,
        out: Annotated[Path | None, typer.Option("--out", help="Ladder directory (store, "
                                                 "ladder.json, charts).")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Every pair of bots on paired seeds (sides swapped), Elo ratings with 95%
        intervals, and the search bot's skill-depth curve (resumable, like a study)."""
        from grognard.analysis.ladder import run_ladder

        sc = load_scenario(scenario)
        names = [b.strip() for b in bots.split(",") if b.strip()]
        if len(names) < 2 or len(set(names)) != len(names):
            raise InputError("--bots", "name at least two different bots")
        parse_bots(",".join(f"{s}={b}" for s, b in zip(sc.sides, names[:2], strict=False)),
                   list(sc.sides), partial=True)
        for b in names:
            parse_bots(f"{sc.sides[0]}={b}", list(sc.sides), partial=True)
        if seeds < 1:
            raise InputError("--seeds", "at least 1")
        try:
            budgets = [int(x) for x in depth.split(",")] if depth else []
        except ValueError:
            raise InputError("--depth", "budgets are whole numbers: 0,2,4,8") from None
        if any(b < 0 for b in budgets):
            raise InputError("--depth", "budgets are at least 0")
        limits: dict[str, Any] = {"max_turns": max_turns}
        if max_commands is not None:
            limits["max_commands"] = max_commands
        where = out or Path("studies") / f"ladder-{sc.id}"
        result = run_ladder(sc.id, names, list(range(seed, seed + seeds)), where, workers,
                            address, limits, budgets, depth_bot, depth_against)

        def human(c: Console) -> None:
            c.print(grid_table(["bot", "Elo", "95% CI", "games", "score"],
                               [[b, r["elo"], f"{r['ci95'][0]} .. {r['ci95'][1]}",
                                 r["games"], r["score"]]
                                for b, r in sorted(result["ratings"].items(),
                                                   key=lambda kv: -kv[1]["elo"])]))
            for p in result["depth"]["curve"]:
                c.print(f"{depth_bot} budget {p['budget']}: {p['wins']} of {p['decisive']} "
                        f"decisive games won against {depth_against} "
                        f"(95% CI {p['ci95'][0]}-{p['ci95'][1]})")
            c.print(f"written: {where}/ladder.json, ratings.png")

        emit(result, as_json, human)
