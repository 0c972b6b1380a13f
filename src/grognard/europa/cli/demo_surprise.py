"""``grognard demo --surprise``: a scripted rule-47 surprise opening, narrated.

On ``europa-barbarossa`` (when shipped; else ``europa-surprise``) with a fixed seed: the Axis
designates a secret local surprise (SUR-05; the Soviet log never shows it), waits out the lead
turn, starts it (SUR-04 refund, SUR-12 front, SUR-15 effects roll and "+ # MP" markers), bombs
a Soviet airbase (SUR-22/24), moves and attacks in the bonus phases (SUR-01, SUR-17, SUR-20), the
Soviet reacts (SUR-18), supply is re-judged and air units restored (SUR-21), and the regular
turn continues. Every command is one the engine lists as legal; every die is in the events.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from grognard.core.errors import IllegalOrder
from grognard.core.hexgrid import distance
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.scenario import shipped_scenarios
from grognard.europa.movement import legal_moves

#: europa-surprise first: it has air units (``[europa.air_units]``), so the airbase surprise
#: (SUR-22/24) is shown; europa-barbarossa has none.
SCENARIOS = ("europa-surprise", "europa-barbarossa")


def _scenario() -> str:
    have = set(shipped_scenarios())
    return next(s for s in SCENARIOS if s in have)


class _Script:
    """Applies commands and keeps the narration (one line per step, with its events)."""

    def __init__(self, g: Game) -> None:
        self.g = g
        self.steps: list[dict[str, Any]] = []

    def say(self, text: str, **data: Any) -> None:
        self.steps.append({"turn": self.g.turn, "phase": self.g.phase.name,
                           "text": text, **data})

    def apply(self, cmd: Command, text: str) -> list[Any]:
        events = self.g.apply(cmd)
        self.say(text, command=cmd.to_json(), events=[e.to_json() for e in events])
        return events

    def reject(self, cmd: Command, text: str) -> None:
        try:
            self.g.apply(cmd)
        except IllegalOrder as exc:
            self.say(text, command=cmd.to_json(), rejected=str(exc))
            return
        raise AssertionError(f"{cmd.kind} was accepted")  # the script's own check

    def to(self, name: str, player: str, turn: int) -> None:
        for _ in range(200):
            if (self.g.phase.name, self.g.phase.player, self.g.turn) == (name, player, turn):
                return
            self.answer()
            self.g.apply(Command("end_phase", self.g.active()[0]))
        raise AssertionError(f"never reached {name} of {player} on turn {turn}")

    def answer(self) -> None:
        """Each owed decision answered with its first legal command (losses, retreats, ...)."""
        for _ in range(20):
            owed = self.g.decisions()
            if not owed:
                return
            cmd = self.g.legal(owed[0].player)[0]
            self.apply(cmd, f"{cmd.player} answers: {cmd.kind} {json.dumps(cmd.args)}")


def _first(g: Game, player: str, kind: str, ok: Callable[[Command], bool] = lambda c: True
           ) -> Command | None:
    return next((c for c in g.legal(player, kind) if ok(c)), None)


def _near(g: Game, a: str, b: str) -> int:
    lay = g.scenario.map.layout
    return int(distance(lay.from_label(a), lay.from_label(b)))


def run_surprise_demo(seed: int) -> dict[str, Any]:
    """The scripted opening; returns the narration and the final state hash."""
    g = Game.new(_scenario(), seed)
    s = _Script(g)
    axis, soviet = g.scenario.sides
    s.to("movement", axis, 1)
    # close up to the Soviet line so a surprise centre is next to the enemy (SUR-07)
    moved: set[str] = set()
    for _ in range(3):
        mv = _first(g, axis, "move", lambda c: c.args["unit"] not in moved and any(
            _near(g, c.args["to"], u["hex"]) == 1 for u in g.state["units"].values()
            if u["side"] == soviet and u["hex"]))
        if mv is not None:
            moved.add(mv.args["unit"])
            s.apply(mv, f"{axis} closes up: {mv.args['unit']} to {mv.args['to']}")
    s.to("initial", axis, 2)
    plan = _first(g, axis, "designate_surprise",
                  lambda c: c.args["level"] == 5 and not c.args.get("reduced_planning")
                  and c.args["target_turn"] == 3)
    if plan is None:
        raise AssertionError("no surprise designation is legal")
    ev = s.apply(plan, "the Axis designates a secret level-5 surprise (SUR-03/05)")[0]
    rec = ev.data["record"]
    hidden = not any(e["type"] == "surprise_planned" for evs in g.events_for(soviet)
                     for e in evs)
    s.say(f"it costs {rec['srp_spent']} SRPs and {rec['sp_spent']} SPs, lead "
          f"{rec['lead_turns']} turn(s), {rec['re_cap']} REs may take part; the Soviet log "
          f"{'shows nothing' if hidden else 'SHOWS IT'}", secret_hidden=hidden)
    s.to("initial", axis, 3)
    ev = s.apply(Command("start_surprise", axis, {"command": plan.args["command"]}),
                 "the surprise starts: half back, the front marked and public (SUR-04/12)")[0]
    eff = ev.data["effects"]
    for r in eff["rolls"]:
        s.say(f"effects roll for {r['command']}: die {r['die']} -> {r['result']} (SUR-15)")
    marked = {st["hex"]: st["markers"] for st in eff["stacks"] if st["markers"]}
    s.say(f"'+ # MP' markers on {len(marked)} Soviet stacks: {json.dumps(marked)}")
    end = Command("end_phase", axis)
    s.apply(end, "on to the bonus movement phase (SUR-01)")
    air = _first(g, axis, "airbase_surprise")
    if air is not None:
        ev = s.apply(air, f"airbase surprise on {air.args['base']} (SUR-22/24)")[0]
        for n in ev.data["nations"]:
            s.say(f"die {ev.data['die']} {n['modifier']:+d} -> {n['result']}: "
                  + ", ".join(f"{u['id']} {u['before']}->{u['after']}" for u in n["units"]))
    movers = {c.args["unit"] for c in g.legal(axis, "move")}
    held = next((c for c in legal_moves(g.context, g.state, axis)
                 if c.args["unit"] not in movers), None)
    if held is not None:
        s.reject(held, f"{held.args['unit']} started in an enemy ZOC of its class (SUR-17)")
    mv = _first(g, axis, "move", lambda c: any(
        _near(g, c.args["to"], u["hex"]) == 1 for u in g.state["units"].values()
        if u["side"] == soviet and u["hex"]))
    if mv is not None:
        ev = s.apply(mv, f"bonus move: {mv.args['unit']} to {mv.args['to']}")[0]
        if ev.data.get("marker_mp"):
            s.say(f"it paid {ev.data['marker_mp']} MP for its markers (SUR-16)")
    s.to("reaction", soviet, 3)
    react = g.legal(soviet, "move")
    s.say(f"the Soviet may move {len({c.args['unit'] for c in react})} units within 5 hexes "
          "of the front (SUR-18)")
    if react:
        s.apply(react[0], f"reaction: {react[0].args['unit']} to {react[0].args['to']}")
    s.to("bonus_combat", axis, 3)
    atk = _first(g, axis, "attack")
    if atk is not None:
        ev = s.apply(atk, f"bonus combat on {atk.args['defender_hex']}")[0]
        s.say(f"odds {ev.data['odds']}, dice {ev.data['dice']} -> {ev.data['result']}; "
              f"supply {ev.data['surprise_supply']['normal']} SP waived (SUR-20)")
        s.answer()
    s.to("bonus_supply_air", axis, 3)
    s.answer()
    ev = s.apply(Command("bonus_supply_judgement", axis, {}),
                 "supply judged within the surprise front (SUR-21)")[0]
    s.say(f"{len(ev.data['units_to_judge'])} units judged, out of supply: "
          f"{ev.data['out_of_supply']}")
    rec_cmd = _first(g, axis, "bonus_air_recovery")
    if rec_cmd is not None:
        s.apply(rec_cmd, f"the Axis restores {rec_cmd.args['units']} (SUR-21)")
    s.to("movement", axis, 3)
    s.say("the regular turn continues: movement phase")
    return {"scenario": g.scenario.id, "seed": seed, "steps": s.steps,
            "state_hash": g.state_hash(), "commands": len(g.commands)}


def human(data: dict[str, Any]) -> None:
    from grognard.engine.terminal import console

    console.rule(f"grognard demo --surprise: {data['scenario']} (seed {data['seed']})")
    for st in data["steps"]:
        where = f"T{st['turn']} {st['phase']}"
        mark = "[red]rejected[/] " if "rejected" in st else ""
        console.print(f"{where:<22} {mark}{st['text']}"
                      + (f": {st['rejected']}" if "rejected" in st else ""), highlight=False)
    console.print(f"{data['commands']} commands; state hash {data['state_hash'][:16]}...")
