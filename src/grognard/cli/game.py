"""``grognard scenario ...`` and ``grognard game ...``: validate, show, new, apply, view, replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from grognard.analysis.study import parse_readings
from grognard.core.dice import fresh_seed
from grognard.core.errors import InputError
from grognard.core.exact import exact_json
from grognard.core.inputs import check_output_path, read_text, write_atomic
from grognard.engine.game import Game
from grognard.engine.save import (
    check_signatures,
    cut_signatures,
    load_game,
    load_game_and_extra,
    new_seat_key,
    parse_command,
    position_digest,
    read_seat_key,
    save_game,
    save_lock,
    sign_last,
)
from grognard.engine.scenario import Scenario, load_scenario, shipped_scenarios
from grognard.engine.terminal import (
    JsonOpt,
    current_tables,
    emit,
    grid_table,
    kv_table,
    render_map,
)


def scenario_summary(sc: Scenario) -> dict[str, object]:
    m = sc.map
    return {
        "id": sc.id, "title": sc.title, "system": sc.system, "seed": sc.seed,
        "sides": list(sc.sides), "hexes": m.n,
        "cities": {m.label(i): [c.name for c in cs] for i, cs in sorted(m.cities.items())},
        "boxes": sorted(m.boxes),
        "units": [
            {"id": p.unit.id, "side": p.unit.side, "type": str(p.unit.type),
             "attack": p.unit.attack, "defense": p.unit.defense, "movement": p.unit.movement,
             "re_size": exact_json(p.unit.re_size), "hex": p.hex, "box": p.box,
             "hidden": p.hidden}
            for p in sc.placements
        ],
        "sequence": [ph.to_json() for ph in sc.sequence.phases],
    }


def register(app: typer.Typer) -> None:
    scen = typer.Typer(help="Scenario files: validate and show.", no_args_is_help=True)
    game = typer.Typer(help="Games: new, apply commands, view, replay.", no_args_is_help=True)

    @scen.command("validate")
    def validate(file: Annotated[str, typer.Argument(help="Scenario TOML (or a shipped name).")],
                 as_json: JsonOpt = False) -> None:
        """Check a scenario file; exit 0 when valid, 2 with the file, line or hex when not.

        The scenario's rule system also builds its start state, so what ``game new`` would
        refuse is refused here."""
        sc = load_scenario(file)
        Game(sc, 0, tables=current_tables())
        emit({"valid": True, "id": sc.id, "hexes": sc.map.n, "units": len(sc.placements)},
             as_json, lambda c: c.print(f"[green]valid[/]: {sc.id} ({sc.map.n} hexes, "
                                        f"{len(sc.placements)} units)"))

    @scen.command("show")
    def show(file: Annotated[str, typer.Argument(help="Scenario TOML (or a shipped name).")],
             as_json: JsonOpt = False) -> None:
        """Show the map and order of battle."""
        sc = load_scenario(file)
        data = scenario_summary(sc)

        def human(c: Console) -> None:
            c.print(f"[bold]{sc.title}[/] ({sc.id}, system {sc.system}, seed {sc.seed})")
            c.print(render_map(sc), highlight=False, markup=False)
            c.print("legend: terrain glyph then A/S/.. = side initial of a unit, C = city")
            c.print(grid_table(["unit", "side", "type", "att", "def", "mp", "where"],
                               [[u["id"], u["side"], u["type"], u["attack"], u["defense"],
                                 u["movement"], u["hex"] or f"box {u['box']}"]
                                for u in data["units"]]))  # type: ignore[attr-defined]

        emit(data, as_json, human)

    @scen.command("list")
    def list_(as_json: JsonOpt = False) -> None:
        """List the shipped scenarios."""
        names = shipped_scenarios()
        emit({"scenarios": names}, as_json, lambda c: c.print("\n".join(names)))

    @game.command("new")
    def new(scenario: Annotated[str, typer.Argument(help="Scenario TOML or shipped name.")],
            out: Annotated[Path, typer.Option("--out", help="Save file to write.")],
            seed: Annotated[int | None, typer.Option(
                min=0, max=2**63 - 1,
                help="Seed (default: a fresh random one, recorded in the save).")] = None,
            reading: Annotated[list[str] | None, typer.Option(
                help="A reading KEY=VALUE over the scenario's [readings] (repeatable; as "
                     "study --reading). Fixed for the game, recorded in the save.")] = None,
            as_json: JsonOpt = False) -> None:
        """Start a game and write its save file (the previous file, if any, kept as .bak)."""
        check_output_path(out, "save")
        sc = load_scenario(scenario)
        readings = {**sc.readings, **parse_readings(reading or [])}
        g = Game.new(sc, fresh_seed() if seed is None else seed, tables=current_tables(),
                     readings=readings)
        with save_lock(out):
            save_game(g, out)
        emit({"save": str(out), "scenario": g.scenario.id, "seed": g.seed,
              "readings": g.readings, "state_hash": g.state_hash()}, as_json)

    @game.command("apply")
    def apply(save: Annotated[Path, typer.Argument(help="Save file (updated in place).")],
              command: Annotated[str, typer.Argument(
                  help='Command JSON: {"kind": "move", "player": "axis", "args": {...}}')],
              key: Annotated[Path | None, typer.Option(
                  "--key", help="Your seat's key file (grognard game key): sign the command "
                  "(play by e-mail).")] = None,
              as_json: JsonOpt = False) -> None:
        """Apply one command; an illegal one exits 2 with the rule and reason, save untouched.

        The save is locked from reading to writing, so two ``game apply`` on one save run one
        after the other and neither command is lost; it is written atomically (old or new,
        never half) and the previous save is kept as SAVE.bak."""
        cmd = parse_command(command, "command")
        seat = read_seat_key(key) if key is not None else None
        if seat is not None and seat[0] != cmd.player:
            raise InputError("--key", f"{key} is {seat[0]}'s key; the command is {cmd.player}'s")
        with save_lock(save, existing=True):
            g, extra = load_game_and_extra(save, current_tables(), verify=False)
            received = position_digest(g)
            events = g.apply(cmd)
            if seat is not None:
                extra = sign_last(g, extra, *seat, received)
            save_game(g, save, extra)
        shown = g.events_for(cmd.player, len(g.events) - 1)[0] if events else []
        emit({"events": shown, "state_hash": g.state_hash()}, as_json)

    @game.command("view")
    def view(save: Annotated[Path, typer.Argument()],
             player: Annotated[str, typer.Option(help="Whose view.")],
             as_json: JsonOpt = False) -> None:
        """The state as one player may see it (hidden units and others' secrets removed)."""
        g = load_game(save, current_tables(), verify=False)
        v = g.view(player)
        emit(v, as_json, lambda c: c.print_json(json.dumps(v)))

    @game.command("replay")
    def replay(save: Annotated[Path, typer.Argument()], as_json: JsonOpt = False) -> None:
        """Replay a save: every command re-run, events compared, state hash checked."""
        g = load_game(save, current_tables())
        emit({"commands": len(g.commands), "state_hash": g.state_hash()}, as_json,
             lambda c: c.print(kv_table({"commands": len(g.commands),
                                         "state_hash": g.state_hash(),
                                         "turn": g.turn, "phase": g.phase.name})))

    @game.command("key")
    def key_(player: Annotated[str, typer.Option(help="Your side.")],
             out: Annotated[Path, typer.Option("--out", help="Key file to write (keep it: "
                                               "only you may read it).")],
             as_json: JsonOpt = False) -> None:
        """Make your seat's secret key for play by e-mail: sign each command you make with
        ``game apply --key``; ``game signatures`` then names any command changed after."""
        check_output_path(out, "key")
        if out.exists():
            raise InputError("--out", f"{out} exists: a seat keeps one key (not overwritten)")
        write_atomic(out, new_seat_key(player), what="key")
        emit({"key": str(out), "player": player}, as_json)

    @game.command("signatures")
    def signatures(save: Annotated[Path, typer.Argument(help="Save file.")],
                   key: Annotated[list[Path], typer.Option(
                       "--key", help="A seat's key file (repeatable: yours, or every seat's "
                       "once the game is over).")],
                   as_json: JsonOpt = False) -> None:
        """Who changed what: each given seat's commands changed after it signed them or made
        in its name unsigned, and the first command that does not replay from the seed.
        Exits 1 when anything is found."""
        keys: dict[str, bytes] = {}
        for k in key:
            player, secret = read_seat_key(k)
            keys[player] = secret
        report = check_signatures(read_text(save, "save"), keys, str(save))

        def human(c: Console) -> None:
            for p, r in report["seats"].items():
                c.print(f"{p}: {r['commands']} commands, "
                        + ("all as signed" if not r["problems"] else
                           f"{len(r['problems'])} problem(s)"), markup=False)
            for line in report["problems"]:
                c.print(f"  {line}", markup=False)
            if report["ok"]:
                c.print("the save is as its seats signed it and replays from its seed")

        emit(report, as_json, human)
        if not report["ok"]:
            raise typer.Exit(1)

    register_referee(game)
    app.add_typer(scen, name="scenario")
    app.add_typer(game, name="game")


def register_referee(game: typer.Typer) -> None:
    """``game status``, ``game legal``, ``game undo``: the referee's questions and undo."""

    @game.command("status")
    def status(save: Annotated[Path, typer.Argument(help="Save file.")],
               as_json: JsonOpt = False) -> None:
        """Turn, date, phase, who must act and why, pending decisions, whether it is over."""
        g = load_game(save, current_tables(), verify=False)
        data = {**g.status(), "readings": dict(g.readings)}
        standing = g.standing()  # the verdict if the game ended now (the system's hook)
        data["standing"] = None if standing is None else dict(standing)

        def human(c: Console) -> None:
            when = f"turn {data['turn']}" + (f" ({data['date']})" if data["date"] else "")
            c.print(f"[bold]{g.scenario.title}[/]: {when}, {data['phase']['name']} phase "
                    f"of {data['phase']['player']}")
            if data["over"]:
                c.print(f"[bold]over[/]: {json.dumps(data['result'])}")
            elif standing is not None and standing.get("why"):
                c.print(f"standing: {standing['why']}", highlight=False, markup=False)
            c.print(f"to act: {', '.join(data['active']) or 'nobody'}")
            for p, text in data["prompts"].items():
                c.print(f"  {p}: {text}", highlight=False, markup=False)
            for d in data["decisions"]:
                c.print(f"  owed by {d['player']} ({d['rule']}): {d['prompt']}", markup=False)
            if data["readings"]:
                c.print("readings: " + ", ".join(f"{k}={json.dumps(v)}"
                                                 for k, v in sorted(data["readings"].items())),
                        highlight=False, markup=False)

        emit(data, as_json, human)

    @game.command("legal")
    def legal(save: Annotated[Path, typer.Argument(help="Save file.")],
              player: Annotated[str, typer.Option(help="Whose legal commands.")],
              kind: Annotated[str | None, typer.Option(help="Only this command kind.")] = None,
              as_json: JsonOpt = False) -> None:
        """Every legal command for a player now, each ready for ``game apply``."""
        g = load_game(save, current_tables(), verify=False)
        if player not in g.scenario.sides:
            raise InputError("--player", f"{player!r} is not a side of {g.scenario.id} "
                             f"({', '.join(g.scenario.sides)})")
        cmds = [c.to_json() for c in g.legal(player, kind)]
        data = {"player": player, "prompt": g.prompt(player), "active": list(g.active()),
                "commands": cmds, "unenumerated": g.unenumerated(player)}

        def human(c: Console) -> None:
            c.print(data["prompt"], highlight=False, markup=False)
            for cmd in cmds:
                c.print(json.dumps(cmd, ensure_ascii=False), highlight=False, markup=False)
            if not cmds:
                c.print("(no legal command now)")

        emit(data, as_json, human)

    @game.command("undo")
    def undo(save: Annotated[Path, typer.Argument(help="Save file (updated in place).")],
             player: Annotated[str, typer.Option(help="Whose last command to take back.")],
             as_json: JsonOpt = False) -> None:
        """Take back the player's last command (refused across a die roll, a reveal or a
        change of the player to act)."""
        with save_lock(save, existing=True):
            g, extra = load_game_and_extra(save, current_tables(), verify=False)
            if player not in g.scenario.sides:
                raise InputError("--player", f"{player!r} is not a side of {g.scenario.id}")
            cmd = g.undo(player)
            save_game(g, save, cut_signatures(extra, len(g.commands)))
        emit({"undone": cmd.to_json(), "state_hash": g.state_hash(),
              "can_undo": g.can_undo(player)}, as_json)

