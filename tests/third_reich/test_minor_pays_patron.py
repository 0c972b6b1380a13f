"""TR-24 ("Minor powers join patrons when an enemy nation attacks them. If they are still
belligerents in the next spring Year Start phase, the patron nation receives their BRPs in its
economic base. Note that only an unconquered minor ally 'pays' to its patron and only a
conquered minor enemy 'pays' to its conqueror"): every minor attacked pays the major it joins,
not only the Axis minors joining Germany by date."""

from __future__ import annotations

from grognard.engine import Command, Game
from grognard.third_reich.economy.economy import Economy

SCENARIO = "tr-1939-campaign"


def C(kind, player, **args):
    return Command(kind, player, args)


def econ(g: Game) -> Economy:
    return Economy.from_json(g.state["economy"])


def to_year_start(g: Game) -> None:
    while not (g.phase.name == "year_start" and g.can(C("year_start", "axis"))):
        g.apply(C("end_phase", g.phase.player))


def test_tr24_minors_attacked_pay_their_patrons_at_the_next_year_start():
    g = Game.new(SCENARIO)
    events = g.apply(C("declare_war", "axis", power="germany",
                       minors=["belgium", "netherlands", "norway"]))
    assert [e.data.get("side") for e in events[1:]] == ["allies"] * 3
    e = econ(g)
    # Belgium (scenario value 15) joins France, the Netherlands (10) and Norway (TR-87 5)
    # the UK: their BRPs wait in the patrons' pending bases (TR-11)
    assert e.balance("france.pending") == 15 and e.balance("uk.pending") == 15
    assert {k: v.value for k, v in e.minor_allies.items()} == {
        "belgium": "france", "netherlands": "uk", "norway": "uk"}
    assert e.base("france") == 60  # nothing before the Year Start
    to_year_start(g)
    g.apply(C("year_start", "axis"))
    e = econ(g)
    # TR-07: the Spring 1940 base takes the minor allies still belligerent
    assert e.base("france") == 75 and e.base("uk") == 140


def test_tr24_tr11_a_minor_ally_conquered_pays_its_conqueror_not_its_patron():
    from grognard.third_reich.conquest.conquest import conquer

    g = Game.new(SCENARIO)
    g.apply(C("declare_war", "axis", power="germany", minors=["belgium"]))
    e, rec = conquer(econ(g), "belgium", "germany", 15)
    assert rec.lost_by == "france" and rec.lost == 15 and rec.gained == 15
    assert e.balance("france.pending") == 0 and e.balance("germany.pending") == 15


def test_tr24_an_axis_minor_attacked_by_the_ussr_still_pays_germany_once():
    g = Game.new(SCENARIO)
    while not (g.phase.name == "declare_options" and g.phase.player == "allies"):
        g.apply(C("end_phase", g.phase.player))
    g.apply(C("declare_war", "allies", power="ussr", minors=["romania"]))
    e = econ(g)
    assert e.minor_allies["romania"].value == "germany"
    assert e.balance("germany.pending") == 15  # once (the TR-24 Axis-minor path), not twice
