"""TR-22/TR-86: tr-1944 starts in Spring 1944, so the minors Germany overran in 1940-41 start
conquered by the Axis - their capitals the Axis's, their armies gone, no declaration of war on
them offered - while the true neutrals of 1944 (Sweden, Spain, Portugal, Turkey, Switzerland,
Eire) stay neutral with their armies waiting."""

from __future__ import annotations

from grognard.engine import Command, Game
from grognard.third_reich import war

OVERRUN = {"belgium": "Brussels", "netherlands": "Amsterdam", "luxembourg": "Luxembourg",
           "denmark": "Copenhagen", "norway": "Oslo", "yugoslavia": "Belgrade",
           "greece": "Athens"}


def test_tr22_tr86_tr1944_the_minors_overrun_in_1940_41_start_conquered():
    g = Game.new("tr-1944")
    minors = g.state["campaign"]["minors"]
    d = war.diplomacy(g.state)
    for name, capital in OVERRUN.items():
        assert minors[name]["status"] == "conquered" and minors[name]["side"] == "axis", name
        assert g.state["control"].get(capital) == "axis", capital
        assert name in d.out, name
        assert not any(u.get("nationality") == name for u in g.state["units"].values()), name
    for name in ("sweden", "spain", "portugal", "turkey", "switzerland", "eire"):
        assert minors[name]["status"] == "neutral", name
    assert any(u.get("nationality") == "sweden" for u in g.state["units"].values())
    while not (g.phase.name == "declare_options" and g.phase.player == "allies"):
        if g.phase.name == "year_start" and g.can(Command("year_start", "axis", {})):
            g.apply(Command("year_start", "axis", {}))
        else:
            g.apply(Command("end_phase", g.phase.player, {}))
    named = {m for c in g.legal("allies", "declare_war") for m in c.args.get("minors", [])}
    assert not named & set(OVERRUN)
    assert "sweden" in named
