"""``grognard study SCENARIO --games N --bots SIDE=BOT,...``: many seeded bot games, a report.

SCENARIO is a shipped scenario name, a scenario TOML, or a study file (``studies/*.toml``: the
scenario, bots, readings, comparison, limits and the designer's claim it measures).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from grognard.analysis.study import Setting, parse_readings
from grognard.analysis.study_claims import load_study_file, measure_claim
from grognard.analysis.study_run import run_study
from grognard.bots import parse_bots
from grognard.cli.render import JsonOpt, emit, grid_table
from grognard.core.errors import InputError
from grognard.engine.scenario import load_scenario


def _head(path: Path) -> bytes:
    """The first bytes of a file (is it a study file?), whatever its encoding."""
    try:
        with path.open("rb") as f:
            return f.read(2000)
    except OSError:
        return b""


def register(app: typer.Typer) -> None:
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
        out: Annotated[Path | None, typer.Option("--out", help="Study directory (SQLite "
                                                 "store, charts, report.html).")] = None,
        seed: Annotated[int, typer.Option("--seed", help="First seed.")] = 0,
        max_turns: Annotated[int | None, typer.Option(help="Stop each game after this "
                                                      "turn.")] = None,
        max_commands: Annotated[int | None, typer.Option(help="Stop each game after this "
                                                         "many commands.")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Run N seeded bot games (resumable), then write win rates, BRPs, capitals' falls,
        losses and game length to a report; --compare adds a second setting side by side."""
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
        settings = [Setting(sc.id, seated, readings, label="base", **limits)]
        changes = parse_readings(compare or [], "--compare") if compare else \
            dict(spec.get("compare", {}))
        if changes:
            label = ",".join(f"{k}={v}" for k, v in changes.items())
            settings.append(Setting(sc.id, seated, {**readings, **changes}, label=label,
                                    **limits))
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

        def human(c: Console) -> None:
            for label, s in result["results"].items():
                c.print(f"[bold]{label}[/bold]: {s['games']} games: {s['ends_text']}")
                if not s["decisive"]:
                    c.print("no decisive game: no game reached a verdict")
                c.print(grid_table(["winner", "games", "rate", "95% CI"],
                                   [[w, v["games"], v["rate"], "-".join(v["ci95"])]
                                    for w, v in s["wins"].items()]))
            if "claim" in result:
                c.print(f"claim: {result['claim']['text']}")
                c.print(f"measured: {result['claim']['measured']}")
            c.print(f"report: {result['report']}")

        emit(result, as_json, human)
