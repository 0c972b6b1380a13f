"""``grognard demo``: a guided tour on the shipped demo scenario, no setup needed.

Plays a short scripted game on ``demo-europa`` (Europa revised rules) with a fixed seed: shows
the map, moves two German divisions up to the river line, rejects an illegal order with its rule
and reason, shows the exact odds of an attack before rolling (every result as a fraction, with
the expected losses), rolls it through the engine, saves, reloads and replays the save to the
same state hash.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer

from grognard.core.errors import IllegalOrder
from grognard.core.exact import exact_json, ratio_str
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.save import load_game, save_game
from grognard.engine.terminal import console, current_tables, emit, grid_table, render_map
from grognard.europa.combat.attack import attack_from_json
from grognard.europa.combat.commands import attack_json
from grognard.europa.combat.crt_analysis import attack_odds

SCRIPT = (
    Command("move", "axis", {"unit": "de-7pz", "path": ["0504", "0604"]}),
    Command("move", "axis", {"unit": "de-20mot", "path": ["0505", "0605"]}),
    Command("move", "axis", {"unit": "de-5inf", "path": ["0403", "0503", "0603", "0703"]}),
    Command("end_phase", "axis"),
)
ATTACK = {"attackers": ["de-7pz", "de-20mot"], "defender_hex": "0705"}


def run_demo(seed: int, save_to: Path) -> dict[str, Any]:
    tables = current_tables()
    g = Game.new("demo-europa", seed, tables=tables)
    steps: list[dict[str, Any]] = []
    for cmd in SCRIPT:
        try:
            events = g.apply(cmd)
            steps.append({"command": cmd.to_json(), "events": [e.to_json() for e in events]})
        except IllegalOrder as exc:
            steps.append({"command": cmd.to_json(), "rejected": str(exc)})
    model = attack_from_json(attack_json(g.context, g.state, "axis", ATTACK), tables)
    odds = attack_odds(model, tables)
    events = g.apply(Command("attack", "axis", ATTACK))
    ev = events[0]
    # The side taking a loss allocates it, the retreating side retreats and the attacker
    # advances (EUR-12..EUR-16), each by its own command; single forced choices are the
    # engine's (``decided_by``). The demo answers each decision with its first legal command.
    answered = list(events[1:])
    for _ in range(12):
        owed = g.decisions()
        if not owed:
            break
        options = g.legal(owed[0].player)
        if not options:
            break
        answered += g.apply(options[0])
    allocations = [e.to_json() for e in answered if e.type == "losses_allocated"]
    decided = [{"type": e.type, "by": e.data.get("decided_by", "player"),
                "player": e.data.get("command", {}).get("player") or e.data.get("player")}
               for e in answered]
    save_game(g, save_to)
    again = load_game(save_to, tables)
    r = ev.data
    return {
        "scenario": g.scenario.id,
        "system": g.system.name,
        "seed": seed,
        "steps": steps,
        "attack": {
            "attackers": ATTACK["attackers"], "defender_hex": ATTACK["defender_hex"],
            "odds": r["odds"], "column": r["column"], "drm": r["drm"],
            "probabilities": {str(k): ratio_str(v) for k, v in odds.probabilities.items() if v},
            "expected_attacker_loss": exact_json(odds.expected_attacker_loss),
            "expected_defender_loss": exact_json(odds.expected_defender_loss),
        },
        "result": {k: r[k] for k in ("dice", "modified_roll", "result", "loss_unit",
                                     "attacker_loss", "defender_loss", "requirements",
                                     "retreats")},
        "allocations": allocations,
        "decisions": decided,
        "save": str(save_to),
        "state_hash": g.state_hash(),
        "replayed_hash": again.state_hash(),
        "map": render_map(g.scenario),
    }


def _human(data: dict[str, Any]) -> None:
    console.rule(f"grognard demo: {data['scenario']} ({data['system']} rules, seed {data['seed']})")
    console.print(str(data["map"]), markup=False, highlight=False)
    for s in data["steps"]:
        cmd = s["command"]
        what = f"{cmd['player']} {cmd['kind']} {json.dumps(cmd['args'])}"
        if "rejected" in s:
            console.print("[red]rejected[/] " + what + ": " + s["rejected"], highlight=False)
        else:
            console.print("[green]ok[/] " + what + " -> "
                          + ", ".join(e["type"] for e in s["events"]), highlight=False)
    a = data["attack"]
    console.print(grid_table(
        ["result", "probability"], list(a["probabilities"].items()),
        title=f"{', '.join(a['attackers'])} attack {a['defender_hex']}: odds {a['odds']}, "
              f"DRM {a['drm']:+d}"))
    console.print(f"expected losses in SPs: attacker {a['expected_attacker_loss']}, "
                  f"defender {a['expected_defender_loss']}")
    r = data["result"]
    console.print(f"rolled {r['dice']} -> modified {r['modified_roll']}: [bold]{r['result']}[/] "
                  f"(loss unit {r['loss_unit']} SPs; pending: {json.dumps(r['requirements'])})")
    for alloc in data["allocations"]:
        d = alloc["data"]
        steps = ", ".join(f"{st['unit']} {st['action']}" for st in d["steps"])
        console.print(f"{d['side']} losses: {steps}; credited {d['credited']} of "
                      f"{d['requirement']} required, excess {d['excess']} -> replacements "
                      f"{json.dumps(d['replacements'])}", highlight=False)
    ok = data["state_hash"] == data["replayed_hash"]
    console.print(f"saved to {data['save']}; state hash {data['state_hash'][:16]}...; "
                  f"replay of the save: {'same hash' if ok else 'MISMATCH'}")


def register(app: typer.Typer) -> None:
    @app.command()
    def demo(
        seed: Annotated[int, typer.Option(help="Seed of the demo game.")] = 1941,
        save: Annotated[Path | None, typer.Option(help="Where to write the save.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="JSON output.")] = False,
        surprise: Annotated[bool, typer.Option(
            "--surprise", help="A scripted rule-47 surprise opening (Europa).")] = False,
    ) -> None:
        """A guided tour: a short Europa game, exact attack odds, a roll, save and replay."""
        if surprise:
            from grognard.europa.cli.demo_surprise import human, run_surprise_demo

            found = run_surprise_demo(seed)
            emit(found, as_json, lambda c: human(found))
            return
        target = save or Path(tempfile.mkdtemp(prefix="grognard-")) / "demo-save.json"
        data = run_demo(seed, target)
        emit(data, as_json, lambda c: _human(data))
