"""TR-75 for lend lease (TR-14..TR-19): a shipment is a payment, so it is checked against the
sender's spending cap when ordered and when enumerated, not only when executed. Found by the
1,000-game fuzz of tr-1944 (seeds 1151, 1257): the US shipment of 20 BRPs by the Iran route was
offered and passed verify, then execution refused it (US had 73.5 to spend and had spent 55).
Issue 23 drew the Channel as water, which made that recorded game illegal from its 61st command
on: both data files are now seed 1151's game up to the Allied Spring 1945 options, its orders
that stay legal, then the US's options, the Iran route and 20 BRPs to the UK (spent 55 of 74.5). Issue 23's
war state (TR-25/TR-68) refuses 6 more of its orders (a German SR from France to Iraq among
them): they are dropped from both files, the rest replays to the same Allied Spring 1945.
Each power its own option for counter air (issue 23, TR-03/TR-44) makes two Allied air
mission phases idle (skipped): the 4 orders that no longer fit the phases (a supply check, a
counter air, two end_phase) are dropped too. The per-power mechanised movement (issue 23)
leaves one more Allied phase idle: its end_phase is dropped from both files. Session 11's
tr-1944 starts with the minors Germany overran in 1940-41 conquered (and without their units,
so later unit ids shift): the USSR's declaration of war on Luxembourg and a move of a
Bulgarian unit by its old id are dropped from both files."""

from __future__ import annotations

import json
from pathlib import Path

from grognard.engine import Command, Game
from grognard.engine.scenario import load_scenario
from grognard.engine.testing import assert_rejected

DATA = Path(__file__).parent / "data" / "fuzz_lend_lease_over_cap.json"
SHIPMENT = {"sender": "us", "receiver": "ussr", "route": "south", "amount": 20}


def test_tr75_lend_lease_over_the_spending_cap_is_neither_offered_nor_accepted():
    raw = json.loads(DATA.read_text())
    g = Game.replay(load_scenario(raw["scenario"]), raw["seed"],
                    [Command(c["kind"], c["player"], c["args"]) for c in raw["commands"]])
    before = g.state_hash()
    assert_rejected(g, Command("lend_lease", "allies", SHIPMENT),
                    "TR-75.*half of its BRP total.*spent 55, cannot add 20")
    assert all(c.args != SHIPMENT for c in g.legal("allies", "lend_lease"))
    assert g.state_hash() == before


def test_tr75_murmansk_shipment_over_the_spending_cap_is_neither_offered_nor_accepted():
    """The same for the northern route (TR-19/TR-20): the Murmansk shipment's 20 BRPs are
    paid in its fold, so its verify checks the payment (fuzz of tr-1944, seed 1934)."""
    raw = json.loads((DATA.parent / "fuzz_murmansk_over_cap.json").read_text())
    g = Game.replay(load_scenario(raw["scenario"]), raw["seed"],
                    [Command(c["kind"], c["player"], c["args"]) for c in raw["commands"]])
    before = g.state_hash()
    assert_rejected(g, Command("murmansk_ship", "allies", {"sender": "us"}),
                    "TR-75.*half of its BRP total.*cannot add 20")
    assert all(c.kind != "murmansk_ship" or c.args != {"sender": "us"}
               for c in g.legal("allies"))
    assert g.state_hash() == before
