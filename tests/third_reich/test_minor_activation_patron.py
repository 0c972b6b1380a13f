"""TR-24 "Minor powers join patrons when an enemy nation attacks them": the engine's activation
of an attacked minor (the ``minor_activated`` fold) and ``diplomacy.declare`` give the same
patron, from one function (``diplomacy.joining_patron``, issue 23).

Before the fix the fold joined a minor that ``declare`` left fighting alone to the first major
of its campaign side: the USSR's declaration on Estonia in Fall 1939 (no patron, no Axis major
at war with the USSR) put Estonia beside Germany and at war with the UK and France.
"""

from __future__ import annotations

from grognard.engine import Command, Game
from grognard.engine.scenario import load_scenario
from grognard.third_reich.conquest import diplomacy as dip
from grognard.third_reich.war import diplomacy


def C(kind: str, player: str, **args: object) -> Command:
    return Command(kind, player, args)


def fall_1939_allied_options() -> Game:
    g = Game(load_scenario("tr-1939-campaign"), 1)
    while not (g.phase.name == "declare_options" and g.phase.player == "allies"):
        g.apply(C("end_phase", g.phase.player))
    return g


def test_tr24_a_minor_with_no_patron_attacked_by_the_ussr_fights_alone() -> None:
    g = fall_1939_allied_options()
    evs = g.apply(C("declare_war", "allies", power="ussr", minors=["estonia"]))
    war = next(e for e in evs if e.type == "war_declared").data["war"]
    assert war["joined"] == {}  # declare: Estonia joins no one
    d = diplomacy(g.state)
    assert d.aligned.get("estonia") is None  # the activation agrees
    assert dip.at_war(d, "estonia", "ussr")
    assert not dip.at_war(d, "estonia", "uk") and not dip.at_war(d, "estonia", "france")
    assert not dip.at_war(d, "estonia", "germany")


def test_tr24_every_declaration_and_its_activation_name_the_same_patron() -> None:
    """Each declaration on one neutral minor the Allies may make in Fall 1939: the patron
    ``declare`` records is the one the folded diplomacy has the minor aligned with."""
    base = fall_1939_allied_options()
    cmds = [c for c in base.legal("allies", "declare_war") if c.args.get("minors")]
    assert len(cmds) > 20
    for c in cmds:
        g = fall_1939_allied_options()
        evs = g.apply(c)
        joined = next(e for e in evs if e.type == "war_declared").data["war"]["joined"]
        minor = c.args["minors"][0]
        d = diplomacy(g.state)
        assert d.aligned.get(minor) == joined.get(minor), (c.args, joined, d.aligned.get(minor))
        assert dip.joining_patron(d, minor) == joined.get(minor), c.args


def test_tr24_the_axis_minors_not_attacked_join_germany_by_date() -> None:
    g = fall_1939_allied_options()
    d = diplomacy(g.state)
    for m in ("hungary", "romania", "bulgaria", "finland"):
        assert dip.joining_patron(d, m) == "germany"
    assert dip.joining_patron(d, "sweden") is None  # not attacked, not an Axis minor
