"""TR-20 (issue 12 "Also"): the Murmansk box's U-boats and ASW are the strategic warfare boxes'
factors (``state["sw_boxes"]``): what may be sent, what is lost there, and the Summer I round
they sit out ("such subs and ASW do not participate in normal strategic warfare in the same
Summer I turn")."""

from __future__ import annotations

from grognard.engine import Command
from grognard.engine.testing import assert_rejected, assert_replays
from grognard.third_reich.strategic.murmansk_box import available_subs

from .test_system_orders import spring_at_war, to_phase

BOXES = "sw_boxes = { germany = { subs = 6 }, uk = { asw = 4 } }\n"


def C(kind, player, **args):
    return Command(kind, player, args)


def _round(g) -> dict:
    (ev,) = g.events[-1]
    assert ev.type == "sw_round_fought"
    return dict(ev.data["round"])


def test_tr20_box_takes_at_most_the_sw_boxes_and_its_losses_come_off_them():
    """TR-20: Germany sends "any portion ... of [its] submarine Strategic Warfare assets", the
    Allies "their strategic warfare ASW assets": no more than the boxes hold; the box combat's
    U-boat and ASW losses come off the boxes (reading: the UK's ASW first)."""
    g = spring_at_war("spring", boxes=BOXES)
    g.apply(C("murmansk_ship", "allies", sender="uk"))
    assert_rejected(g, C("murmansk_escort", "allies", naval=9, asw=5), "TR-20.*hold 4")
    g.apply(C("murmansk_escort", "allies", naval=9, asw=3))
    assert g.state["sw_boxes"]["uk"]["asw"] == 4  # nothing moves before the combat
    assert_rejected(g, C("murmansk_commit", "axis", subs=7), "TR-20.*only 6")
    _, ev = g.apply(C("murmansk_commit", "axis", air=0, naval=0, subs=6))
    res = ev.data["result"]
    sub_lost, asw_lost = res["german_losses"]["subs"], res["allied_losses"]["asw"]
    assert ev.data["sw"] == {"germany": {"subs": 6, "lost": sub_lost},
                             "uk": {"asw": 3, "lost": asw_lost}}
    assert g.state["sw_boxes"]["germany"]["subs"] == 6 - sub_lost
    assert g.state["sw_boxes"]["uk"]["asw"] == 4 - asw_lost
    assert_replays(g)


def test_tr20_spring_timing_no_uboats_that_fought_this_turn():
    """TR-20 (Spring timing): Germany may send U-boats "that did not already conduct strategic
    warfare in the preceding German player turn"."""
    g = spring_at_war("spring", boxes=BOXES)
    g.apply(C("murmansk_ship", "allies", sender="uk"))
    g.apply(C("murmansk_escort", "allies", naval=0, asw=0))
    assert available_subs(g.state) == 6
    g.state["sw_fought"] = {"subs": g.state["turn"]}  # Germany's round of this Spring
    assert available_subs(g.state) == 0
    assert_rejected(g, C("murmansk_commit", "axis", subs=3), "TR-20.*only 0")


def test_tr20_summer1_timing_committed_uboats_sit_out_the_summer1_round():
    """TR-20 (Summer I timing): the U-boats Germany sends in its Summer I turn do not fight
    its U-boat round of that turn; the others do."""
    g = spring_at_war("summer1", boxes=BOXES)
    g.apply(C("murmansk_ship", "allies", sender="uk"))
    while g.state["turn"] == 3:
        g.apply(C("end_phase", g.phase.player))
    assert_rejected(g, C("murmansk_commit", "axis", subs=7), "TR-20.*only 6")
    g.apply(C("murmansk_commit", "axis", air=0, naval=0, subs=4))
    to_phase(g, "strategic_warfare", "axis")
    g.apply(C("sw_uboats", "axis", target="uk"))
    rnd = _round(g)
    assert (rnd["offense"], rnd["defense"]) == (2, 4)


def test_tr20_spring_timing_surviving_asw_misses_the_summer1_uboat_round():
    """TR-20 (Spring timing): "Surviving Allied ASW assets remain in the Murmansk box until the
    start of the Allied summer I turn ... they will 'miss' the German strategic warfare step of
    the summer I turn"."""
    g = spring_at_war("spring", boxes=BOXES)
    g.apply(C("murmansk_ship", "allies", sender="uk"))
    g.apply(C("murmansk_escort", "allies", naval=0, asw=3))
    _, ev = g.apply(C("murmansk_commit", "axis", air=0, naval=0, subs=0))
    lost = ev.data["sw"]["uk"]["lost"]
    while g.state["turn"] == 3:
        g.apply(C("end_phase", g.phase.player))
    to_phase(g, "strategic_warfare", "axis")
    assert g.state["sw_boxes"]["uk"]["asw"] == 4 - lost
    g.apply(C("sw_uboats", "axis", target="uk"))
    rnd = _round(g)
    assert (rnd["offense"], rnd["defense"]) == (6, 1)  # 4 - lost in the box, less 3 - lost held
