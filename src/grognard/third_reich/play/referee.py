"""The referee of the ``third_reich`` system: who decides what, prompts, the date.

Reactions (the defender's interceptions and defensive air support, answering a pending
``attack``, ``airdrop``, ``naval_transport``, ``invade`` or sea ``sr``) are the Orders'
:mod:`grognard.third_reich.reactions`; the referee lists the one owed among its decisions.

Other decisions: the loser's units lost to a land CRT result (``land_losses``, TR-32), the
attacker's advance after combat (``advance``, TR-32), the defender's TR-40 withdrawal from the hexes an attrition HN result took
(``withdraw``), the retreating side's hexes after a combat result when more than one way
is legal within stacking (``retreat``: the defender of an attack or an invaded beach, or the
attacker on an AR). While any is owed the phase cannot end (:func:`decisions`); the phasing
player's own duty to name the hexes an attrition result won (``take_hexes``) also holds the
phase open (``end_phase`` refuses), without stopping its other orders.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from grognard.engine.context import Context
from grognard.engine.decisions import Decision
from grognard.engine.phases import Phase as EnginePhase
from grognard.third_reich.conquest.campaign import date_label
from grognard.third_reich.state_types import PendingWithdrawal, TRState
from grognard.third_reich.strategic.murmansk_box import murmansk_decisions
from grognard.third_reich.strategic.sw_conversions import conversion_decisions
from grognard.third_reich.turn.sequence import Phase
from grognard.third_reich.words import units_words

# --- decisions ----------------------------------------------------------------------------------


def _title(side: str) -> str:
    return side[:1].upper() + side[1:]


def withdrawal_side(ctx: Context, state: TRState) -> str:
    """TR-40: the side whose units withdraw from the hexes taken (the defender)."""
    p = cast(PendingWithdrawal, state["pending_withdrawal"])  # asked while it is owed
    for units in p["withdrawing"].values():
        if units:
            return str(state["units"][units[0]]["side"])
    return next(s for s in ctx.scenario.sides if s != p["side"])


def decisions(ctx: Context, state: TRState) -> list[Decision]:
    """The decisions owed now, each by the player the rules give it to."""
    out = []
    r = state.get("pending_reaction")
    if r:
        out.append(Decision(r["defender"], frozenset({r["reaction"]}),
                            f"{_title(r['defender'])}: {r['prompt']} "
                            f"({r['reaction']}, or {r['reaction']} with no units)", r["rule"]))
    rt = state.get("pending_retreat")
    if rt:
        out.append(Decision(rt["side"], frozenset({"retreat"}),
                            f"{_title(rt['side'])}: choose where "
                            f"{units_words(state, list(rt['units']))} retreat after the battle "
                            f"for {rt['hex']} ({', '.join(rt['options'])})", "TR-32"))
    pb = state.get("pending_battle")
    if pb:  # TR-32: the side taking a land-combat loss chooses the units lost
        for side, o in sorted(pb["owed"].items()):
            out.append(Decision(side, frozenset({"land_losses"}),
                                f"{_title(side)}: choose {o['n']} of your units in the battle "
                                f"for {pb['plan']['hex']} to lose ({units_words(state, o['units'])})",
                                "TR-32"))
    pa = state.get("pending_advance")
    if pa:  # TR-32: the attacker chooses which survivors advance, if any
        out.append(Decision(pa["side"], frozenset({"advance"}),
                            f"{_title(pa['side'])}: advance up to {pa['max']} of "
                            f"{units_words(state, pa['units'])} into {pa['hex']}, or none", "TR-32"))
    pl = state.get("pending_losses")
    if pl:  # TR-38: the side taking an attrition loss chooses the units removed
        for side, o in sorted(pl["owed"].items()):
            out.append(Decision(side, frozenset({"remove_losses"}),
                                f"{_title(side)}: remove units worth {o['n']} for the "
                                f"attrition loss on the {pl['front']} front", "TR-38"))
    w = state.get("pending_withdrawal")
    if w:
        d = withdrawal_side(ctx, state)
        out.append(Decision(d, frozenset({"withdraw"}),
                            f"{_title(d)}: withdraw your units from {', '.join(w['hexes'])} "
                            "(taken by attrition)", "TR-40"))
    return out + murmansk_decisions(ctx, state) + conversion_decisions(ctx, state)


# --- prompts and the date -------------------------------------------------------------------------

_PHASE_WORDS: Mapping[str, str] = {
    Phase.YEAR_START.value: "Year Start", Phase.DECLARE_OPTIONS.value: "declare options",
    Phase.MOVEMENT.value: "movement", Phase.AIR_MISSIONS.value: "air missions",
    Phase.INTERCEPTION.value: "interception", Phase.COMBAT.value: "combat",
    Phase.MECH_MOVEMENT.value: "mechanized movement", Phase.MECH_COMBAT.value: "mechanized combat",
    Phase.ATTRITION.value: "attrition", Phase.SUPPLY.value: "supply",
    Phase.BUILD.value: "unit construction", Phase.STRATEGIC_DEPLOYMENT.value: "strategic "
    "redeployment", Phase.STRATEGIC_WARFARE.value: "strategic warfare",
}
_ACTIONS: Mapping[str, str] = {
    "year_start": "run the Year Start", "declare_options": "declare options",
    "declare_war": "declare war", "move": "move", "air_stage": "stage air",
    "airdrop": "air drop", "naval_transport": "transport by sea", "invade": "invade",
    "counter_air": "fly counter air", "attack": "attack", "attrition": "resolve attrition",
    "remove_losses": "remove attrition losses", "land_losses": "choose land-combat losses",
    "advance": "advance after combat", "retreat": "retreat after combat", "take_hexes": "take hexes", "withdraw": "withdraw", "save_attrition_losses": "save losses",
    "supply_check": "check supply", "build": "build", "sr": "redeploy (SR)",
    "murmansk_commit": "commit to the Murmansk box", "murmansk_ship": "ship to Murmansk",
    "murmansk_escort": "escort the Murmansk convoy",
}


def turn_label(ctx: Context, state: TRState) -> str:
    """TR-04: the date of the turn ("Fall 1939", "Summer I 1941")."""
    return date_label(int(state["turn"]))


def phase_prompt(ctx: Context, state: TRState, phase: EnginePhase) -> str:
    """"Axis: Fall 1939, combat (western offensive) - attack, or end the phase"."""
    side = phase.player
    opts = state["options"].get(side, {})
    fronts = ", ".join(f"{f} {v['option']}" for f, v in sorted(opts.items())
                       if isinstance(v, Mapping) and "option" in v)
    words = _PHASE_WORDS.get(phase.name, phase.name)
    where = f" ({fronts})" if fronts and phase.name not in {Phase.YEAR_START.value,
                                                            Phase.DECLARE_OPTIONS.value} else ""
    acts = [_ACTIONS.get(k, k) for k in sorted(phase.commands) if k in _ACTIONS]
    what = " or ".join(acts)
    return (f"{_title(side)}: {turn_label(ctx, state)}, {words}{where} - "
            f"{what + ', or ' if what else ''}end the phase")
