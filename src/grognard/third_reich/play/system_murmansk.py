"""TR-19..TR-21 in the ``third_reich`` engine system: the Murmansk box, both sides.

The box runs in the ``SUMMER1`` timing (:mod:`grognard.third_reich.strategic.murmansk`): the UK and the
US place their 20-BRP northern lend-lease counters (``murmansk_ship``), Germany commits air,
fleets and U-boats (``murmansk_commit``; the U-boats inverted: the count is the committing
side's secret ``state["secrets"][side]["murmansk"]``, the public box shows only that some are
there), then the Allies commit fleets and ASW (``murmansk_escort``) and the box combat
(:func:`~grognard.third_reich.strategic.murmansk.resolve`, Version A sequence) follows at once with nine
1D10 rolls from the named stream ``third_reich.murmansk``; everything is open afterwards.
``state["murmansk"]`` is the public box (:func:`~grognard.third_reich.strategic.murmansk.view` for the
Allies while it is unresolved). The BRPs delivered are recorded in the event and held on the
economy's ``ll.murmansk.due`` account (TR-21 entry); the ``end_phase`` that opens the USSR's
Summer II player turn (SUMMER1 timing: first spendable in Summer II) carries
``murmansk_received`` and credits them to ``ussr.brp`` (TR-20 entries,
:func:`~grognard.third_reich.economy.lendlease.receive_murmansk`).
"""

from __future__ import annotations

from typing import Any

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.state import JSON
from grognard.third_reich.economy.economy import at_turn
from grognard.third_reich.economy.lendlease import (
    MURMANSK_DUE,
    can_receive_murmansk,
    hold_murmansk,
    receive_murmansk,
)
from grognard.third_reich.play.system_common import _econ, _side_powers
from grognard.third_reich.strategic import murmansk
from grognard.third_reich.strategic.strategic_readings import MurmanskTiming

TIMING = MurmanskTiming.SUMMER1


def _counts(cmd: Command, names: tuple[str, ...]) -> dict[str, int]:
    vals = {}
    for f in names:
        v = cmd.args.get(f, 0)
        if isinstance(v, bool) or not isinstance(v, int):
            raise InputError(f"args.{f}", "a whole number of factors")
        vals[f] = v
    return vals


def _german(cmd: Command) -> murmansk.GermanAssets:
    return murmansk.GermanAssets(**_counts(cmd, ("air", "naval", "subs")))


def _allied(cmd: Command) -> murmansk.AlliedAssets:
    return murmansk.AlliedAssets(**_counts(cmd, ("naval", "asw")))


def _german_side(state: JSON) -> str:
    return str(state["power_sides"].get("germany", "axis"))


def box_of(state: JSON) -> murmansk.MurmanskBox:
    """The whole box (hidden counts included) from the public box and the German secret."""
    pub: dict[str, Any] = state["murmansk"] or {}
    ships = tuple((str(x["sender"]), int(x["brps"])) for x in pub.get("shipments", []))
    g = state["secrets"].get(_german_side(state), {}).get("murmansk")
    a = pub.get("allied")
    return murmansk.MurmanskBox(
        TIMING, ships, murmansk.GermanAssets(**g) if g is not None else None,
        murmansk.AlliedAssets(**a) if a is not None and a.get("naval") is not None else None)


def _public(box: murmansk.MurmanskBox) -> dict[str, Any]:
    return murmansk.view(box, "allies")


# --- murmansk_commit (Germany) ----------------------------------------------------------------


def verify_murmansk_commit(ctx: Context, state: JSON, cmd: Command) -> None:
    if "germany" not in _side_powers(state, cmd.player):
        raise IllegalOrder("TR-20", "only Germany commits to the Murmansk box")
    box = box_of(state)
    if box.german is not None:
        raise IllegalOrder("TR-20", "Germany has already committed to the box")
    murmansk.commit_german(box, _german(cmd))


def execute_murmansk_commit(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    return [Event("murmansk_committed", {"side": cmd.player, "german": _german(cmd).to_json()})]


def fold_murmansk_committed(state: JSON, ev: Event) -> JSON:
    """TR-20: the U-boats go in inverted: the public box shows only that some are there; the
    count is the committing side's secret."""
    s = state
    g = murmansk.GermanAssets(**ev.data["german"])
    box = murmansk.commit_german(box_of(state), g)
    s["murmansk"] = _public(box)
    s["secrets"].setdefault(ev.data["side"], {})["murmansk"] = g.to_json()
    return s


# --- murmansk_ship (UK/US) -----------------------------------------------------------------------


def _sender(state: JSON, cmd: Command) -> str:
    sender = cmd.args.get("sender")
    if not isinstance(sender, str):
        raise InputError("args.sender", "uk or us")
    if sender not in _side_powers(state, cmd.player):
        raise IllegalOrder("TR-19", f"{sender} is not a power of {cmd.player}")
    return sender


def _brps(cmd: Command) -> int:
    brps = cmd.args.get("brps", 20)
    if isinstance(brps, bool) or not isinstance(brps, int):
        raise InputError("args.brps", f"BRPs are a whole number, not {brps!r}")
    return brps


def verify_murmansk_ship(ctx: Context, state: JSON, cmd: Command) -> None:
    murmansk.place_shipment(box_of(state), _sender(state, cmd), _brps(cmd))


def execute_murmansk_ship(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    return [Event("murmansk_shipped", {"side": cmd.player, "sender": _sender(state, cmd),
                                       "brps": _brps(cmd)})]


def fold_murmansk_shipped(state: JSON, ev: Event) -> JSON:
    s = state
    box = murmansk.place_shipment(box_of(state), ev.data["sender"], ev.data["brps"])
    s["murmansk"] = _public(box)
    return s


# --- murmansk_escort (the Allies) and the box combat ---------------------------------------------


def verify_murmansk_escort(ctx: Context, state: JSON, cmd: Command) -> None:
    if _german_side(state) == cmd.player:
        raise IllegalOrder("TR-20", "the Allies commit the convoy escorts")
    box = box_of(state)
    if state["murmansk"] is not None and state["murmansk"].get("resolved"):
        raise IllegalOrder("TR-21", "the box has already been resolved")
    if not box.shipments:
        raise IllegalOrder("TR-20", "no lend-lease counters in the box to escort")
    murmansk.commit_allied(box, _allied(cmd))


def execute_murmansk_escort(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    box = murmansk.commit_allied(box_of(state), _allied(cmd))
    rolls = murmansk.draw_rolls(dice.stream("third_reich.murmansk"))
    box, res = murmansk.resolve(box, rolls)
    return [Event("murmansk_resolved", {"side": cmd.player, "allied": _allied(cmd).to_json(),
                                        "german": box.german.to_json() if box.german else None,
                                        "result": res.to_json()})]


def fold_murmansk_resolved(state: JSON, ev: Event) -> JSON:
    s = state
    box = box_of(state)
    r = ev.data["result"]
    res = murmansk.MurmanskResult(
        r["brps_sent"], r["brp_hits"], r["brps_delivered"],
        murmansk.GermanAssets(**r["german_losses"]), murmansk.AlliedAssets(**r["allied_losses"]),
        tuple(r["steps"]), murmansk.MurmanskRolls(**r["rolls"]))
    done = murmansk.MurmanskBox(TIMING, box.shipments,
                                murmansk.GermanAssets(**ev.data["german"]),
                                murmansk.AlliedAssets(**ev.data["allied"]), res)
    s["murmansk"] = _public(done)
    if "ussr" in {p.value for p in _econ(state).powers}:
        s["economy"] = hold_murmansk(_econ(state), int(r["brps_delivered"]),
                                     "Murmansk box survivors, held for the USSR").to_json()
    return s


# --- TR-20 delivery: the start of the USSR's turn -------------------------------------------------


def murmansk_receipt(state: JSON, side: str, turn: int) -> int:
    """TR-20: the held Murmansk BRPs the USSR receives when ``side`` opens its player turn in
    ``turn`` (0 unless ``side`` plays the USSR and it is the arrival season)."""
    if "ussr" not in _side_powers(state, side):
        return 0
    econ = _econ(state)
    if turn != state["turn"]:
        econ = at_turn(econ, turn)
    if not can_receive_murmansk(econ, TIMING):
        return 0
    return int(econ.balance(MURMANSK_DUE))


def fold_murmansk_receipt(s: JSON) -> None:
    """TR-20: credit the held Murmansk BRPs to the USSR (``s`` is already thawed)."""
    s["economy"] = receive_murmansk(_econ(s), TIMING).to_json()
