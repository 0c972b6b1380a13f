"""Fuzz: save files (mutated real saves: fields retyped, removed, duplicated; bytes corrupted).

The promise: a save loads and replays to its recorded hash, or one GrognardError names the file
and the field; nothing else escapes.
"""

from __future__ import annotations

import json
import random

from fuzz_support import attempt, fuzz_settings, mutated_json, mutated_text
from hypothesis import given
from hypothesis import strategies as st

from grognard.core.errors import GrognardError
from grognard.core.inputs import decode_utf8
from grognard.core.tables import load_tables
from grognard.engine.game import Game
from grognard.engine.save import dumps, loads

TABLESET = load_tables()


def _played(name: str, n: int, seed: int = 3) -> str:
    """A save of ``name`` after up to ``n`` random legal commands."""
    g = Game.new(name, seed, tables=TABLESET)
    rng = random.Random(seed)
    for _ in range(n):
        if g.over:
            break
        moves = [c for p in g.active() for c in g.legal(p)]
        if not moves:
            break
        try:
            g.apply(rng.choice(moves))
        except GrognardError:
            break
    return dumps(g)


SAVES = [_played("demo-europa", 6), _played("demo-third-reich", 4), _played("tr-1939-sea", 3),
         _played("europa-surprise", 3)]


@st.composite
def save_text(draw):
    base = draw(st.sampled_from(SAVES))
    if draw(st.booleans()):
        return json.dumps(draw(mutated_json(json.loads(base))), ensure_ascii=False)
    return draw(mutated_text(base, "json"))


@fuzz_settings(brief=40)
@given(save_text())
def test_fuzz_saves(text):
    with attempt("save", text):
        if isinstance(text, bytes):
            try:
                text = decode_utf8(text, "save.json")
            except GrognardError:
                return
        try:
            g = loads(text, "save.json", TABLESET)
        except GrognardError:
            return
        assert loads(dumps(g), "again.json", TABLESET).state_hash() == g.state_hash()
