"""Fuzz: commands (legal ones with their arguments mutated, unknown kinds and players) given as
JSON text the way ``game apply`` and the server receive them, in games part-way through.

The promises: a command is applied, or refused with a GrognardError and the game is unchanged
(same state hash, same command count); an applied command leaves a game that saves and reloads.
"""

from __future__ import annotations

import json
import random

from fuzz_support import attempt, fuzz_settings, json_value, mutated_json
from hypothesis import given
from hypothesis import strategies as st

from grognard.core.errors import GrognardError
from grognard.core.tables import load_tables
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.save import dumps, loads, parse_command
from grognard.engine.scenario import load_scenario, shipped_scenarios

TABLESET = load_tables()
SCENARIOS = {n: load_scenario(n) for n in shipped_scenarios()}


#: (scenario, steps, seed) -> the commands played and the legal commands after them (JSON).
_PLAYED: dict[tuple[str, int, int], tuple[list[Command], list[dict]]] = {}


def _game(name: str, steps: int, seed: int) -> tuple[Game, list[dict]]:
    """``name`` after up to ``steps`` random legal commands, and the legal commands then. The
    random prefix is found once per (scenario, steps, seed) and replayed after (enumerating
    legal commands costs far more than applying them)."""
    key = (name, steps, seed)
    if key in _PLAYED:
        played, legal = _PLAYED[key]
        g = Game(SCENARIOS[name], seed, tables=TABLESET)
        for c in played:
            g.apply(c)
        return g, legal
    g = Game(SCENARIOS[name], seed, tables=TABLESET)
    rng = random.Random(seed)
    played = []
    for _ in range(steps):
        moves = [c for p in g.active() for c in g.legal(p)]
        if g.over or not moves:
            break
        c = rng.choice(moves)
        try:
            g.apply(c)
        except GrognardError:
            break
        played.append(c)
    legal = [c.to_json() for p in g.active() for c in g.legal(p)]
    _PLAYED[key] = (played, legal)
    return g, legal


@st.composite
def game_and_command(draw):
    name = draw(st.sampled_from(sorted(SCENARIOS)))
    g, legal = _game(name, draw(st.integers(0, 4)), draw(st.integers(0, 3)))
    players = list(g.scenario.sides)
    kinds = sorted(g.system.commands)
    if legal and draw(st.booleans()):
        base = json.loads(json.dumps(draw(st.sampled_from(legal))))
    else:
        kind = draw(st.sampled_from(kinds))
        base = {"kind": kind, "player": draw(st.sampled_from(players)),
                "args": dict(g.system.commands[kind].example)}
    cmd = draw(st.one_of(mutated_json(base, rounds=2), st.just(base),
                         st.fixed_dictionaries({"kind": st.sampled_from([*kinds, "nope", ""]),
                                                "player": st.sampled_from([*players, "mars"]),
                                                "args": st.dictionaries(
                                                    st.text(max_size=8), json_value,
                                                    max_size=4)})))
    return g, json.dumps(cmd, ensure_ascii=False, allow_nan=True)


@fuzz_settings(brief=80)
@given(game_and_command(), st.integers(0, 9))
def test_fuzz_commands(gc, roundtrip):
    g, text = gc
    with attempt("command", text):
        before, n = g.state_hash(), len(g.commands)
        try:
            cmd = parse_command(text)
            g.apply(cmd)
        except GrognardError:
            assert g.state_hash() == before and len(g.commands) == n
            return
        saved = dumps(g)
        if roundtrip == 0:
            assert loads(saved, "fuzz.json", TABLESET).state_hash() == g.state_hash()
