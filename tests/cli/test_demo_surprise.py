"""``grognard demo --surprise``: the scripted rule-47 opening plays through the engine
(SUR-01, SUR-05, SUR-15, SUR-17, SUR-18, SUR-21, SUR-22)."""

import json

from grognard.cli import main


def test_sur01_demo_surprise_plays_the_opening_and_the_turn_after(capsys):
    assert main(["demo", "--surprise", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scenario"] in ("europa-barbarossa", "europa-surprise")
    text = " ".join(s["text"] for s in data["steps"])
    for rule in ("SUR-03/05", "SUR-04/12", "SUR-15", "SUR-22/24", "SUR-18", "SUR-21"):
        assert rule in text
    assert any(s.get("secret_hidden") is True for s in data["steps"])  # SUR-05: secret plan
    assert any("SUR-17" in s.get("rejected", "") for s in data["steps"])
    started = next(s for s in data["steps"] if s.get("command", {}).get("kind")
                   == "start_surprise")
    assert started["events"][0]["data"]["effects"]["rolls"]
    last = data["steps"][-1]
    assert (last["phase"], last["turn"]) == ("movement", 3)
