"""Small EuroFront scenarios and scripted play, for tests, the demo and bots."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.scenario import parse_scenario

GRID = """
..........
..........
..........
..........
..........
"""


def block(uid: str, side: str, hex_: str, fp: int = 1, steps: int = 3, mp: int = 2,
          kind: str = "infantry", hq: bool = False) -> dict[str, Any]:
    return {"id": uid, "side": side, "type": "hq" if hq else "block", "attack": fp,
            "defense": steps, "movement": mp, "flags": [kind], "hex": hex_}


DEFAULT_BLOCKS = (
    block("ax-hq", "axis", "0203", steps=2, mp=2, kind="battle", hq=True),
    block("ax-pz", "axis", "0303", fp=2, steps=4, mp=3, kind="armour"),
    block("ax-inf", "axis", "0302", fp=1, steps=3),
    block("ax-para", "axis", "0103", fp=2, steps=2, kind="paratroop"),
    block("al-hq", "allies", "0903", steps=2, kind="battle", hq=True),
    block("al-inf", "allies", "0503", fp=1, steps=2),
    block("al-inf2", "allies", "0803", fp=1, steps=3),
)


def scenario_text(blocks: Iterable[Mapping[str, Any]] = DEFAULT_BLOCKS,
                  calendar: Mapping[str, Any] | None = None,
                  readings: Mapping[str, Any] | None = None, grid: str = GRID,
                  countries: Mapping[str, list[str]] | None = None) -> str:
    cal = {"month": "1941-06", "last_month": "1941-08", "objectives": ["0503"],
           "axis_objectives": 1, "axis_pp": 6, "allies_pp": 6}
    cal.update(calendar or {})
    lines = ['[scenario]', 'id = "ef-unit"', 'title = "EuroFront test front"',
             'system = "eurofront"', 'sides = ["axis", "allies"]', 'seed = 7', '',
             '[calendar]']
    lines += [f"{k} = {json.dumps(v)}" for k, v in cal.items()]
    lines += ['', '[readings]']
    lines += [f"{k} = {json.dumps(v)}" for k, v in (readings or {}).items()]
    lines += ['', '[map]', 'layout = { offset = "odd-q", style = "numeric", origin = 1 }',
              'legend = { "." = "clear", "~" = "lake" }', f'grid = """{grid}"""', '',
              '[[cities]]', 'hex = "0103"', 'name = "Westburg"', 'classes = ["major_city"]',
              'country = "reich"', '',
              '[[cities]]', 'hex = "1003"', 'name = "Ostgrad"', 'classes = ["major_city"]',
              'country = "ussr"', '',
              '[[cities]]', 'hex = "0503"', 'name = "Mittelstadt"', 'classes = ["city"]', '',
              '[countries]']
    ctry = countries or {"reich": ["0101", "0102", "0103", "0104", "0105"],
                         "ussr": ["1001", "1002", "1003", "1004", "1005"]}
    lines += [f"{k} = {json.dumps(v)}" for k, v in ctry.items()]
    lines += ['',
              '[home_countries]', 'axis = ["reich"]', 'allies = ["ussr"]', '']
    for b in blocks:
        lines.append("[[units]]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in b.items()]
        lines.append("")
    return "\n".join(lines)


def new_game(seed: int = 7, **kw: Any) -> Game:
    return Game(parse_scenario(scenario_text(**kw), "ef-unit.toml"), seed)


def to_activation(g: Game, axis_chit: tuple[int, int], allies_chit: tuple[int, int]
                  ) -> dict[str, Any]:
    """Weather, both chits, initiative (re-rolled on ties): returns the initiative event."""
    g.apply(Command("roll_weather", "axis"))
    g.apply(Command("place_chit", "axis", {"strength": axis_chit[0], "count": axis_chit[1]}))
    g.apply(Command("place_chit", "allies", {"strength": allies_chit[0],
                                             "count": allies_chit[1]}))
    while True:
        ev = g.apply(Command("roll_initiative", "axis"))[0]
        if not ev.data["tie"]:
            return dict(ev.data)


def finish_month(g: Game) -> None:
    """Play out the rest of the month with zero chits and empty production."""
    while g.state["production"] is None:
        if g.state["operation"] is not None:
            g.apply(Command("end_operation", g.state["operation"]["side"]))
            continue
        owed = g.decisions()
        if owed:
            d = owed[0]
            g.apply(g.legal(d.player)[0])
            continue
        step = g.state["activation"]["step"]
        if step == "weather":
            g.apply(Command("roll_weather", "axis"))
        elif step == "choose":
            pass
        elif step == "reveal":
            g.apply(Command("roll_initiative", "axis"))
        elif step == "phase_end":
            g.apply(Command("end_activation_phase", "axis"))
        else:
            side = g.active()[0]
            g.apply(g.legal(side, "activate_hq")[0])
        for p in ("axis", "allies"):
            if "place_chit" in g.allowed(p):
                g.apply(Command("place_chit", p, {"strength": 0, "count": 0}))
    for p in ("allies", "axis"):
        g.apply(Command("end_production", p))


def random_play(g: Game, seed: int, max_commands: int = 20_000) -> int:
    """Uniformly random legal play to the end; checks every step as the fuzzer does."""
    rng = random.Random(seed)
    n = 0
    while not g.over and n < max_commands:
        active = g.active()
        assert active, "nobody acts but the game is not over"
        p = rng.choice(active)
        cmds = g.legal(p)
        assert cmds, f"dead end: {p} has no legal command ({g.prompt(p)})"
        cmd = rng.choice(cmds)
        assert g.can(cmd), f"enumerated {cmd} is refused"
        g.apply(cmd)
        n += 1
    return n
