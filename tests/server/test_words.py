"""Issue 26: every legal order of 3R and Europa in the rules' words (``describe``) and placed on
the map (``places``), through the rule-system hooks the page uses (Game.describe/places)."""

from __future__ import annotations

import random
import re

import pytest

from grognard.bots.base import legal_actions
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.system import Places

RAW = re.compile(r"[{}\[\]]|None|undefined|\bargs\b|_")


def _walk(scenario: str, seed: int, steps: int) -> dict[str, list[tuple[Command, str, str]]]:
    """Describe every legal order met over a short random game (a few per kind)."""
    g = Game.new(scenario, seed=seed)
    rnd = random.Random(seed)
    seen: dict[str, list[tuple[Command, str, str]]] = {}
    for _ in range(steps):
        if g.over:
            break
        p = g.active()[0]
        acts = legal_actions(g, p)
        for c in acts[:300]:
            if len(seen.setdefault(c.kind, [])) < 4:
                w = g.describe(c)
                assert isinstance(g.places(c), Places)
                seen[c.kind].append((c, w.text, w.short))
        non = [c for c in acts if c.kind != "end_phase"]
        ends = [c for c in acts if c.kind == "end_phase"]
        g.apply(rnd.choice(non) if non and (rnd.random() < 0.6 or not ends) else ends[0])
    return seen


@pytest.mark.parametrize("scenario", ["tr-1939-campaign", "europa-barbarossa",
                                      "tr-1939-support", "demo-europa"])
def test_issue26_every_legal_order_reads_in_words(scenario: str) -> None:
    seen = _walk(scenario, 2, 120)
    assert len(seen) >= 3
    for kind, rows in seen.items():
        for _cmd, text, short in rows:
            assert text and short, kind
            bad = [t for t in (text, short) if RAW.search(t.replace("end the phase", ""))]
            assert not bad, (kind, bad)


def test_tr03_options_declared_on_every_front_in_words() -> None:
    g = Game.new("tr-1939-campaign", seed=1)
    cmd = Command("declare_options", "axis", {"power": "germany", "options": {
        "eastern": "offensive", "western": "attrition"}})
    w = g.describe(cmd)
    assert w.text.startswith("Germany: offensive in the East; attrition in the West (")
    assert "BRPs)" in w.text
    one = g.describe(Command("declare_options", "axis", {"power": "germany",
                                                         "options": {"eastern": "offensive"}}))
    assert re.fullmatch(r"Germany: offensive in the East \(\d+ BRPs\)", one.text)


def test_tr29_air_stage_and_tr32_attack_places() -> None:
    g = Game.new("tr-1939-campaign", seed=1)
    air = next(u for u, x in g.state["units"].items() if x["type"] == "air" and x["hex"])
    a = g.state["units"][air]
    w = g.describe(Command("air_stage", "axis", {"unit": air, "to": "H36"}))
    assert w.text == f"Air stage: {a['attack']}-{a['movement']} German air fleet to H36 (Memel)"
    p = g.places(Command("attack", "axis", {"hex": "P28", "attackers": ["a", "b"], "air": [air]}))
    assert p.target == "P28" and p.units == ("a", "b", air)
    r = g.places(Command("retreat", "allies", {"to": "D3"}))
    assert r.to == "D3" and g.describe(Command("retreat", "allies", {"to": "D3"})).text == \
        "Retreat to D3"


def test_eur15_retreat_in_words_with_its_path() -> None:
    g = Game.new("europa-barbarossa", seed=1)
    uid = next(iter(g.state["units"]))
    cmd = Command("retreat", "soviet", {"units": [uid], "path": ["0704", "0703"]})
    assert g.describe(cmd).text.endswith("retreat 2 hexes to 0703")
    assert g.places(cmd) == Places(None, "0703", ("0704", "0703"), (uid,))
