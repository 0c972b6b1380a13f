"""EUR-37..EUR-41 played through the engine: FitE supply stockpiles, receipt, zones, the costs
of moves and attacks, unfuelled divisions, the surprise turn's special SPs, and the turn's
weather as the referee's (not the order's). Small hand-drawn maps via engine.testing."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grognard.engine import Command, Game
from grognard.engine.testing import assert_rejected, assert_replays, small_game

LOGISTICS = """
[europa.logistics]
german = "axis"
soviet = "soviet"
rear = "0101"
lines = [["0701", "0704"], ["0901", "0904"], ["1201", "1204"]]
"""


def europa(start: str = "1941-06-II", weather: str = "", fite: bool = False) -> str:
    return f"""[europa]
last_turn = 4
{'fite_surprise_turn = true' if fite else ''}
{weather}

[calendar]
start = "{start}"
""" + LOGISTICS


def unit(uid: str, side: str, type_: str, hex_: str, ma: int = 10, nat: str = "",
         **extra: object) -> dict[str, object]:
    return {"id": uid, "nationality": nat or ("german" if side == "axis" else "soviet"),
            "side": side, "type": type_, "attack": 6, "defense": 5, "movement": ma,
            "re_size": 3, "divisional": True, "hex": hex_, **extra}


GRID = "\n".join(["." * 10] * 4)
FORCES = [unit("pz", "axis", "armor", "0203"), unit("mot", "axis", "motorized", "0204"),
          unit("mot2", "axis", "motorized", "0104"), unit("inf", "axis", "infantry", "0402", 6),
          unit("ro", "axis", "infantry", "0401", 6, nat="romanian"),
          unit("su", "soviet", "infantry", "0502", 6)]


def game(sections: str | None = None, units: list[dict[str, object]] | None = None,
         until: tuple[str, str] = ("movement", "axis")) -> Game:
    return small_game("europa", GRID, units or FORCES, sections=sections or europa(),
                      until=until)


def sp(g: Game, side: str = "axis") -> Fraction:
    return Fraction(g.state["logistics"]["sp"][side])


def paid(events):
    return [e for e in events if e.type == "sp_paid"]


def test_eur38_eur40_opening_stockpiles_and_the_first_sides_turn1_receipt():
    """EUR-38: German initial stockpile 120 and 200 a turn in zone 1; EUR-40: Soviet 160.
    The game opens in the Axis initial phase, so its turn-1 receipt is in the stockpile."""
    g = game(until=("initial", "axis"))
    lg = g.state["logistics"]
    assert (lg["zone"], sp(g), sp(g, "soviet")) == (1, 120 + 200, 160)
    assert lg["opening_receipt"]["received"] == 200 and lg["special"] == 0


def test_eur37_mechanized_move_pays_one_sp_once_a_turn():
    g = game()
    before = sp(g)
    evs = g.apply(Command("move", "axis", {"unit": "pz", "to": "0303"}))
    (p,) = paid(evs)
    assert (p.data["charge"], p.data["rules"]) == (1, ["EUR-37"])
    assert sp(g) == before - 1
    # its second move this turn is covered (EUR-37: 1 SP covers all its movement)
    assert not paid(g.apply(Command("move", "axis", {"unit": "pz", "to": "0304"})))
    assert sp(g) == before - 1
    assert not paid(g.apply(Command("move", "axis", {"unit": "ro", "to": "0301"})))  # foot
    assert_replays(g)


def test_eur37_motorized_halves_are_summed_exactly_and_rounded_up():
    """Reading 2 (sp_half_rounding = up): two motorized moves cost 1/2 + 1/2 = 1 SP, charged as
    the rounded-up total grows: 1 then 0."""
    g = game()
    before = sp(g)
    (p1,) = paid(g.apply(Command("move", "axis", {"unit": "mot", "to": "0304"})))
    assert (p1.data["exact"], p1.data["charge"], p1.data["owed_after"]) == ("0.5", 1, "0.5")
    (p2,) = paid(g.apply(Command("move", "axis", {"unit": "mot2", "to": "0204"})))
    assert (p2.data["charge"], p2.data["owed_after"]) == (0, 1)
    assert sp(g) == before - 1


def test_eur37_attack_pays_per_division_minor_divisions_one_per_two():
    g = game(until=("combat", "axis"))
    g.state["units"]["pz"]["hex"] = "0503"
    before = sp(g)
    evs = g.apply(Command("attack", "axis", {"attackers": ["inf", "ro", "pz"],
                                             "defender_hex": "0502"}))
    (p,) = paid(evs)
    # two divisions at 1 SP, one Romanian infantry division at 1 per 2 (ceil: 1)
    assert p.data["charge"] == 3 and p.data["what"] == "the attack"
    assert evs[0].type == "combat_resolved"
    assert sp(g) == before - 3


def test_eur37_an_attack_the_stockpile_cannot_pay_is_refused_and_changes_nothing():
    g = game(until=("combat", "axis"))
    g.state["logistics"]["sp"]["axis"] = 1
    g.state["units"]["pz"]["hex"] = "0503"
    assert_rejected(g, Command("attack", "axis", {"attackers": ["inf", "pz"],
                                                  "defender_hex": "0502"}), "EUR-37.*costs 2")
    assert not any(c.kind == "attack" and len(c.args["attackers"]) > 1
                   for c in g.legal("axis", "attack"))


def test_eur37_unfuelled_division_moves_half_its_ma_and_may_not_attack():
    g = game()
    g.state["logistics"]["sp"]["axis"] = 0
    assert_rejected(g, Command("move", "axis", {"unit": "pz", "to": "0802"}),
                    "EUR-37.*half its MA")
    (ev,) = g.apply(Command("move", "axis", {"unit": "pz", "to": "0202"}))
    assert ev.data["unfuelled"] is True and "EUR-37" in ev.data["rules"]
    assert g.state["units"]["pz"]["unfuelled_turn"] == 1
    while g.phase.name != "combat":
        g.apply(Command("end_phase", "axis"))
    g.state["logistics"]["sp"]["axis"] = 50
    g.state["units"]["pz"]["hex"] = "0503"
    assert_rejected(g, Command("attack", "axis", {"attackers": ["pz"], "defender_hex": "0502"}),
                    "EUR-37.*unfuelled")
    while g.phase.name != "exploitation":
        g.apply(Command("end_phase", "axis"))
    assert_rejected(g, Command("move", "axis", {"unit": "pz", "to": "0403"}),
                    "EUR-37.*normal movement phase")


def test_eur38_entering_a_zone_shrinks_the_german_stockpile():
    """Within 2 hexes of a city of line 1 (0701): zone 2, stockpile x 160/200."""
    g = game()
    g.state["logistics"]["sp"]["axis"] = 101
    evs = g.apply(Command("move", "axis", {"unit": "mot2", "to": "0503"}))
    assert [e.type for e in evs] == ["unit_moved", "sp_paid", "supply_zone_entered"]
    zone = evs[-1].data
    assert (zone["from"], zone["to"], zone["factor"], zone["sp_before"], zone["sp_after"]) == (
        1, 2, "0.8", 100, 80)
    assert g.state["logistics"]["zone"] == 2 and sp(g) == 80
    # the zone never moves back; the next receipt is zone 2's: 160
    g.apply(Command("move", "axis", {"unit": "mot2", "to": "0103"}))
    assert g.state["logistics"]["zone"] == 2


def _to_initial(g: Game, side: str) -> list:
    out = []
    while (g.phase.name, g.phase.player) != ("initial", side):
        out += g.apply(Command("end_phase", g.phase.player))
    return out


def test_eur41_receipt_reduced_by_the_turns_weather():
    """Turn 2 (Jul I 1941) is mud: 200 x 0.7 = 140 for the Germans, 120 x 0.7 = 84 for the
    Soviets; turn 1's Soviet receipt is clear, 120."""
    g = game(europa(weather='weather = { "Jul I 1941" = "mud" }'), until=("initial", "axis"))
    evs = _to_initial(g, "soviet")
    (r,) = [e for e in evs if e.type == "supply_received"]
    assert (r.data["received"], r.data["rules"]) == (120, ["EUR-40"])
    evs = _to_initial(g, "axis")
    (r,) = [e for e in evs if e.type == "supply_received"]
    assert (r.data["turn"], r.data["weather"], r.data["received"]) == (2, "mud", 140)
    assert r.data["rules"] == ["EUR-38", "EUR-41"]
    evs = _to_initial(g, "soviet")
    assert [e.data["received"] for e in evs if e.type == "supply_received"] == [84]


def test_eur40_soviet_increment_from_may_1942():
    g = game(europa(start="1942-05-I"), until=("initial", "axis"))
    evs = _to_initial(g, "soviet")
    (r,) = [e for e in evs if e.type == "supply_received"]
    assert (r.data["base"], r.data["increment"], r.data["received"]) == (120, 40, 160)


def test_eur39_special_sps_pay_first_on_the_surprise_turn_then_expire():
    """The surprise turn's attacks are paid from the 160 special SPs; what is left is lost
    when the surprise phases end, and the regular turn-1 receipt (200) follows."""
    g = small_game("europa", GRID, FORCES, sections=europa(fite=True),
                   until=("surprise_combat", "axis"))
    assert g.state["logistics"]["special"] == 160
    stock = sp(g)
    (p,) = paid(g.apply(Command("attack", "axis", {"attackers": ["inf", "ro"],
                                                   "defender_hex": "0502"})))
    assert (p.data["special"], p.data["sp"], p.data["rules"]) == (2, 0, ["EUR-37", "EUR-39"])
    assert g.state["logistics"]["special"] == 158 and sp(g) == stock
    evs = []
    while not g.over and g.phase.name != "initial":
        player = g.active()[0]
        legal = g.legal(player)
        cmd = next((c for c in legal if c.kind == "end_phase"), None) or legal[0]
        evs += g.apply(cmd)
    (x,) = [e for e in evs if e.type == "special_supply_expired"]
    assert (x.data["lost"], x.data["rules"]) == (158, ["EUR-39"])
    assert g.state["logistics"]["special"] == 0
    (r,) = [e for e in evs if e.type == "supply_received"]
    assert (r.data["side"], r.data["received"]) == ("axis", 200)


def test_weather_is_the_referees_an_order_naming_other_weather_is_refused():
    g = game(europa(weather='weather = { "Jun II 1941" = "mud" }'), until=("combat", "axis"))
    cmd = Command("attack", "axis", {"attackers": ["inf"], "defender_hex": "0502",
                                     "weather": "clear"})
    assert_rejected(g, cmd, "weather is not an order.s choice.*referee")
    (ev, *_rest) = g.apply(Command("attack", "axis", {"attackers": ["inf"],
                                                      "defender_hex": "0502"}))
    assert ev.data["model"]["weather"] == "mud"


@pytest.mark.parametrize("bad, field", [
    ('german = "germans"', "german"), ('lines = [["0601"]]', "lines"), ("rear = 5", "rear")])
def test_a_bad_logistics_table_names_its_field(bad, field):
    key = bad.split(" =")[0]
    text = "\n".join(line if not line.startswith(key + " ") else bad
                     for line in europa().splitlines())
    with pytest.raises(Exception, match=rf"field europa\.logistics\.{field}\b"):
        small_game("europa", GRID, FORCES, sections=text)


def _surprise_air() -> Game:
    g = Game.new("europa-fite-surprise", seed=2)
    while g.phase.name != "surprise_air":
        g.apply(Command("end_phase", g.phase.player))
    return g


def test_eur37_air_units_used_pay_one_sp_per_three_rounded_to_nearest():
    """europa-fite-surprise: the two German air units of a mission are used: round(2/3) = 1 SP,
    from the special SPs on the surprise turn (EUR-39)."""
    g = _surprise_air()
    cmd = next(c for c in g.legal("axis", "air_mission") if len(c.args["units"]) == 2)
    evs = g.apply(cmd)
    (p,) = paid(evs)
    assert (p.data["charge"], p.data["special"], p.data["air"]) == (
        1, 1, sorted(cmd.args["units"]))
    assert p.data["rules"] == ["EUR-37", "EUR-39"]
    assert g.state["logistics"]["special"] == 159
    assert g.state["logistics"]["ops"]["axis"]["air"] == sorted(cmd.args["units"])


def test_eur37_air_the_side_cannot_pay_does_not_fly():
    cmd = next(c for c in _surprise_air().legal("axis", "air_mission")
               if len(c.args["units"]) == 2)
    g = _surprise_air()
    g.state["logistics"]["special"] = 0
    g.state["logistics"]["sp"]["axis"] = 0
    assert_rejected(g, cmd, "EUR-37.*costs 1 SP")
    assert not any(len(c.args["units"]) == 2 for c in g.legal("axis", "air_mission"))


def test_eur20_overrun_in_the_turns_mud_is_refused_by_the_referee():
    """The scenario's weather table makes Jun II 1941 mud: no overrun (EUR-20), whatever the
    order says; without the table the same overrun is legal."""
    units = [unit("pz", "axis", "armor", "0402"),
             unit("su", "soviet", "infantry", "0502", 6, divisional=False)]
    muddy = game(europa(weather='weather = { "Jun II 1941" = "mud" }'), units)
    order = Command("overrun", "axis", {"units": ["pz"], "target": "0502"})
    assert_rejected(muddy, order, "EUR-20.*mud")
    assert_rejected(muddy, Command("overrun", "axis", {"units": ["pz"], "target": "0502",
                                                       "weather": "clear"}), "weather.*referee")
    clear = game(europa(), units)
    assert clear.can(order)
