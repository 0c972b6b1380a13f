"""``grognard demo``: a guided tour on the shipped demo scenario, no setup needed.

Plays a short scripted game on ``demo-europa`` with a fixed seed: shows the map, moves units,
rejects an illegal order with its rule and reason, shows the exact odds of a table roll before
rolling it, rolls, saves, reloads and replays the save to the same state hash.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from grognard.cli.game import render_map
from grognard.cli.render import console, current_tables, emit, grid_table
from grognard.core.dice import Distribution, clamp_roll
from grognard.core.errors import IllegalOrder
from grognard.core.exact import ratio_str
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.save import load_game, save_game


def run_demo(seed: int, save_to: Path) -> dict[str, object]:
    tables = current_tables()
    g = Game.new("demo-europa", seed, tables=tables)
    steps: list[dict[str, object]] = []
    script = [
        Command("move", "axis", {"unit": "de-7pz", "path": ["0504", "0604"]}),
        Command("move", "axis", {"unit": "de-20mot", "path": ["0505"]}),
        Command("move", "axis", {"unit": "de-5inf", "path": ["0403", "0503", "0603"]}),
        Command("end_phase", "axis"),
    ]
    for cmd in script:
        try:
            events = g.apply(cmd)
            steps.append({"command": cmd.to_json(), "events": [e.to_json() for e in events]})
        except IllegalOrder as exc:
            steps.append({"command": cmd.to_json(), "rejected": str(exc)})
    crt = tables.table("europa_revised_crt")
    column, drm = "3-1", 1
    odds = Distribution.of("2d6").map(lambda r: crt.lookup(clamp_roll(r, drm, 2, 12), column))
    (ev,) = g.apply(Command("roll_table", "axis",
                            {"table": crt.id, "column": column, "drm": drm}))
    save_game(g, save_to)
    again = load_game(save_to, tables)
    return {
        "scenario": g.scenario.id,
        "seed": seed,
        "steps": steps,
        "odds": {"table": crt.id, "source": str(crt.source), "column": column, "drm": drm,
                 "probabilities": {str(k): ratio_str(v) for k, v in sorted(odds.items())}},
        "roll": dict(ev.data),
        "save": str(save_to),
        "state_hash": g.state_hash(),
        "replayed_hash": again.state_hash(),
        "map": render_map(g.scenario),
    }


def register(app: typer.Typer) -> None:
    @app.command()
    def demo(
        seed: Annotated[int, typer.Option(help="Seed of the demo game.")] = 1941,
        save: Annotated[Path | None, typer.Option(help="Where to write the save.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="JSON output.")] = False,
    ) -> None:
        """A guided tour: a short game on the demo scenario, odds, a roll, save and replay."""
        target = save or Path(tempfile.mkdtemp(prefix="grognard-")) / "demo-save.json"
        data = run_demo(seed, target)

        def human(c: object = console) -> None:
            console.rule(f"grognard demo: {data['scenario']} (seed {seed})")
            console.print(str(data["map"]), markup=False, highlight=False)
            for s in data["steps"]:  # type: ignore[attr-defined]
                cmd = s["command"]
                what = f"{cmd['player']} {cmd['kind']} {json.dumps(cmd['args'])}"
                if "rejected" in s:
                    console.print(f"[red]rejected[/] {what}: {s['rejected']}", markup=True)
                else:
                    console.print(f"[green]ok[/] {what} -> "
                                  f"{', '.join(e['type'] for e in s['events'])}")
            o = data["odds"]
            console.print(grid_table(["result", "probability"],
                                     list(o["probabilities"].items()),  # type: ignore[index]
                                     title=f"Exact odds, {o['table']} ({o['source']}) "  # type: ignore[index]
                                           f"column {o['column']} DRM {o['drm']:+d}"))  # type: ignore[index]
            r = data["roll"]
            console.print(f"rolled {r['dice']} = {r['natural']}, modified {r['modified']}: "  # type: ignore[index]
                          f"[bold]{r['result']}[/]")  # type: ignore[index]
            console.print(f"saved to {data['save']}; state hash {data['state_hash']}")
            ok = data["state_hash"] == data["replayed_hash"]
            console.print(f"replay of the save: {'same hash' if ok else 'MISMATCH'}")

        emit(data, as_json, human)
