"""A guided EuroFront game: a few Activation Phases of ``eurofront-1941`` with narrated results.

Both sides are played by a simple greedy policy (strongest chit; armour into the nearest enemy
hex; losses on the strongest block; production on the weakest blocks), every step through
the engine's referee (``Game.active``, ``Game.legal``, ``Game.apply``). Each event is narrated
in one line; the fog of war is shown as the Allies see the Axis.
"""

from __future__ import annotations

from typing import Any

from grognard.engine.commands import Command
from grognard.engine.events import Event
from grognard.engine.game import Game
from grognard.engine.state import JSON

SCENARIO = "eurofront-1941"


def _choose(g: Game, player: str, cmds: list[Command]) -> Command:
    state = g.state
    kinds = {c.kind for c in cmds}
    units = state["units"]
    if "place_chit" in kinds:
        return max(cmds, key=lambda c: (c.args["strength"] * 10 + c.args["count"]))
    if "take_loss" in kinds:
        return max(cmds, key=lambda c: (units[c.args["block"]]["steps"], c.args["block"]))
    if "retreat" in kinds:
        return cmds[0]
    if "build" in kinds:
        builds = [c for c in cmds if c.kind == "build"]
        return min(builds, key=lambda c: (units[c.args["block"]]["steps"], c.args["block"]))
    if "end_production" in kinds:
        return next(c for c in cmds if c.kind == "end_production")
    if "activate_hq" in kinds:
        return cmds[0]
    moves = [c for c in cmds if c.kind == "move"]
    if moves:
        enemy = {u["hex"] for u in units.values() if u["side"] != player}
        attacks = [c for c in moves if c.args["to"] in enemy and units[c.args["block"]]["fp"] >= 2]
        moved = sum(1 for u in units.values()
                    if u["side"] == player and u["moved"] == state["activation"]["phase"])
        if attacks and moved < 4:
            return attacks[0]
    if "end_operation" in kinds:
        return next(c for c in cmds if c.kind == "end_operation")
    return cmds[0]


def narrate(ev: Event, g: Game) -> str | None:
    """One line for an event (the referee's log: both sides' secrets as they come out)."""
    d = ev.data
    t = ev.type
    if t == "weather_rolled":
        return f"Activation Phase {d['phase']}: weather {d['weather']} (d6 {d['roll']})"
    if t == "chit_placed":
        return f"{d['side'].title()} places its chit face down (the other side sees only " \
               "that a chit is there)"
    if t == "chits_revealed":
        c = d["chits"]
        return (f"Chits revealed together: Axis {c['axis'][1]} HQ(s) of strength "
                f"{c['axis'][0]}, Allies {c['allies'][1]} of strength {c['allies'][0]}")
    if t == "initiative_rolled":
        if d["month_over"]:
            return (f"Both chits are zero: the month ends; production income "
                    f"Axis {d['income']['axis']} PP, Allies {d['income']['allies']} PP")
        s = d["scores"]
        if d["tie"]:
            return f"Initiative tie {s['axis']} v {s['allies']}: re-roll"
        return (f"Initiative Axis {d['rolls']['axis']}->{s['axis']} v Allies "
                f"{d['rolls']['allies']}->{s['allies']}: {d['first'].title()} is First "
                f"Player and activates {d['first_activates']} HQ(s) first")
    if t == "hq_activated":
        return (f"{d['side'].title()} activates HQ {d['hq']} in {d['hex']} (strength "
                f"{d['strength']}, command range {d['range']} hexes); it is revealed")
    if t in ("block_moved", "rail_moved", "para_moved"):
        how = {"block_moved": "moves", "rail_moved": "rails", "para_moved": "paradrops"}[t]
        return f"  {d['block']} {how} {d['from']} -> {d['to']}"
    if t == "apd_resolved":
        return (f"  HQ {d['hq']} rolls for Airpower Disruption on {d['target']}: "
                f"{d['rolls']} -> {d['results']}"
                f"{' (hex disrupted)' if d['effective'] else ''}")
    if t == "battle_started":
        blocks = ", ".join(f"{b}({v['steps']} steps, fp {v['fp']})"
                           for b, v in sorted(d["blocks"].items()))
        return (f"  Battle in {d['hex']}: {d['attacker']} attacks {d['defender']}; blocks "
                f"revealed: {blocks}; air support {d['air_dice']} dice")
    if t == "battle_fire":
        dice = "; ".join(f"{b} {r}" for b, r in sorted(d["rolls"].items()))
        air = f" + air {d['air_rolls']}" if d["air_rolls"] else ""
        return f"    {d['side'].title()} fires ({d['role']}): {dice}{air} -> {d['hits']} hit(s)"
    if t == "step_lost":
        tail = " (destroyed" + (", face down" if d["face_down"] else "") + ")" \
            if d["steps"] == 0 else ""
        return f"    {d['side'].title()} takes a step loss on {d['block']}: {d['steps']} left{tail}"
    if t == "losses_forced":
        return f"    {d['side'].title()} loses every block in {d['hex']}: {', '.join(d['blocks'])}"
    if t == "retreat_ordered":
        return f"    {d['side'].title()} scored fewer hits and must retreat from {d['hex']}"
    if t == "block_retreated":
        return f"    {d['block']} retreats {d['from']} -> {d['to']}"
    if t == "block_eliminated":
        return f"    {d['block']} has nowhere to retreat and is destroyed"
    if t == "battle_ended":
        return f"  {d['winner'].title()} holds {d['hex']}; the blocks stand up again"
    if t == "activation_phase_ended":
        oos = d["out_of_supply"]
        return "End of the phase: supply tested" + (
            f"; out of supply: {', '.join(f'{b}->{s}' for b, s in sorted(oos.items()))}"
            if oos else "; every block in supply")
    if t == "step_built":
        return f"  {d['side'].title()} builds a step on {d['block']} ({d['cost']} PP)"
    if t == "block_rebuilt":
        return f"  {d['side'].title()} rebuilds {d['block']} at {d['at']}"
    if t == "month_started":
        return f"--- {g.status()['date']} begins ---"
    return None


def fog_line(g: Game, viewer: str = "allies") -> str:
    v: JSON = g.view(viewer)
    enemy = [u for u in v["units"].values() if u["side"] != viewer and u.get("hidden")]
    hexes = sorted({u["hex"] for u in enemy if u["hex"]})
    return (f"What the {viewer.title()} see of the enemy: {len(enemy)} face-down blocks in "
            f"{len(hexes)} hexes (side and hex only: no type, steps or firepower)")


def run_demo(seed: int = 1941, phases: int = 6) -> dict[str, Any]:
    """Play ``phases`` Activation Phases (and any month end between) and narrate them."""
    g = Game.new(SCENARIO, seed)
    lines = [f"{g.scenario.title}: {g.status()['date']}, seed {seed}", fog_line(g)]
    ended = 0
    battles = 0
    while not g.over and ended < phases:
        player = g.active()[0]
        cmd = _choose(g, player, g.legal(player))
        for ev in g.apply(cmd):
            battles += ev.type == "battle_started"
            ended += ev.type == "activation_phase_ended"
            text = narrate(ev, g)
            if text:
                lines.append(text)
    lines.append(fog_line(g))
    return {"scenario": SCENARIO, "seed": seed, "commands": len(g.commands),
            "battles": battles, "date": g.status()["date"], "lines": lines,
            "state_hash": g.state_hash()}
