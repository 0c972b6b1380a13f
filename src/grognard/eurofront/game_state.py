"""The EuroFront engine state: how the activation machine, blocks and secrets live in the JSON.

Shared by :mod:`grognard.eurofront.system` (sequence, chits, initiative) and
:mod:`grognard.eurofront.operations` (moves, battles, production). State keys:

* ``activation``: the public part of :mod:`grognard.eurofront.activation`'s state (HQ lists
  are not stored: they are derived from the blocks, so a lost step or a disrupted HQ counts at
  once); the chits live in ``secrets[side]["chit"]`` until revealed (EF-18).
* ``units``: block id -> block record (:func:`grognard.eurofront.blocks.block_from_unit`);
  ``destroyed``: side -> block id -> record (``face_down`` per EF-02).
* ``control``: hex -> side; ``pp``: side -> production points on hand.
* ``operation``: the HQ activation being carried out (side, HQ, its hex, command range, air
  use), or None; ``battle`` and ``battle_queue``: the battle being fought and those to come.
* ``production``: the month-end production phase (None outside it).
* ``apd``: Airpower Disrupted markers and disrupted HQs (EF-11..EF-16); ``uboats``: the U-boat
  history (EF-04..EF-07); ``hq_uses``: activations of each HQ this month;
  ``strategic_moves``: side -> Strategic Moves left this month (EF-09);
  ``air_superiority_lost``: the Allies lack Air Superiority this month (EF-07).
* ``config``: the readings the folds need (fixed at the start of the game).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, cast

from grognard.core.errors import InputError
from grognard.engine.context import Context
from grognard.eurofront.activation import (
    ACTIVATION_STEPS,
    ActivationState,
    Step,
    player_to_act,
    state_from_json,
    state_to_json,
)
from grognard.eurofront.activation import _advance as advance_activation
from grognard.eurofront.blocks import BlockGameReadings
from grognard.eurofront.model import Side
from grognard.eurofront.readings import EuroFrontReadings, OptionalRule, OptionalRules
from grognard.eurofront.state_types import (
    Activation,
    BattleState,
    Block,
    DestroyedBlock,
    EFState,
    Operation,
    Production,
)

#: Phase indices of the default sequence (see ``system.SEQUENCE_PHASES``).
WEATHER, CHIT_AXIS, CHIT_ALLIES, INITIATIVE, ACT_AXIS, ACT_ALLIES, PHASE_END, PRODUCTION = range(8)


def side_of(player: str) -> Side:
    try:
        return Side(player)
    except ValueError:
        raise InputError("player", f"EuroFront players are axis and allies, not {player!r}") \
            from None


# --- readings -------------------------------------------------------------------------------


def ef_readings(ctx: Context) -> EuroFrontReadings:
    raw = {k: v for k, v in ctx.readings.items() if k.startswith("ef_") and k != "ef_rules"}
    return EuroFrontReadings.from_mapping(raw)


def game_readings(ctx: Context) -> BlockGameReadings:
    return ctx.cached("ef.readings", lambda: BlockGameReadings.from_mapping(
        {k: v for k, v in ctx.readings.items() if k.startswith("efg_")}))


def rules_of(readings: Mapping[str, Any]) -> OptionalRules:
    """EF-01 The optional rules in play: reading ``ef_rules`` (a list of names; default all)."""
    names = readings.get("ef_rules")
    if names is None:
        return OptionalRules.all()
    if not isinstance(names, list | tuple):
        raise InputError("readings.ef_rules", "must list optional rule names")
    return OptionalRules.from_names(names, "readings.ef_rules")


def rules(ctx: Context) -> OptionalRules:
    return rules_of(ctx.readings)


def rule_on(ctx: Context, rule: OptionalRule) -> bool:
    return rules(ctx).on(rule)


# --- the records a command exchange opens ---------------------------------------------------
# The state declares ``operation``, ``battle`` and ``production`` as optional (None outside the
# exchange that opens them); an order or fold that runs only inside one reads it through these,
# which say so once (a None here is a bug of the sequence, not a player's error).


def operation_now(state: EFState) -> Operation:
    """The HQ activation under way (EF-18 step 5; its orders and folds run only inside it)."""
    op = state["operation"]
    assert op is not None, "no HQ activation is under way"
    return op


def battle_now(state: EFState) -> BattleState:
    """The battle being fought (its decisions and folds run only while it is)."""
    b = state["battle"]
    assert b is not None, "no battle is being fought"
    return b


def production_now(state: EFState) -> Production:
    """The month-end production phase (its orders and folds run only inside it)."""
    p = state["production"]
    assert p is not None, "not in the production phase"
    return p


def on_map(u: Block) -> str:
    """The hex of a block standing on the map (a block placed in a box, or destroyed, has
    none; the orders that move or count blocks on the map pass only those)."""
    h = u["hex"]
    assert h is not None, "the block stands on the map"
    return h


# --- HQs and the activation machine ---------------------------------------------------------


def hq_disrupted(state: EFState, uid: str) -> bool:
    """EF-13/EF-15 An HQ disrupted by Airpower Disruption (own OHD result, or an enemy marker
    in its hex) cannot be activated this month."""
    u = state["units"][uid]
    apd = state["apd"]
    enemy = "allies" if u["side"] == "axis" else "axis"
    return uid in apd["hq_disrupted"] or enemy in apd["markers"].get(u["hex"] or "", [])


def eligible_hqs(state: EFState, side: str) -> dict[str, int]:
    """HQs ``side`` may still activate this month: on the map, not disrupted, not yet used
    ``hq_activations`` times; their strength points are their steps (1..3)."""
    limit = int(state["config"]["hq_activations"])
    out = {}
    for uid, u in state["units"].items():
        if (u["side"] == side and u["kind"] == "hq" and u["hex"] is not None
                and state["hq_uses"].get(uid, 0) < limit and not hq_disrupted(state, uid)):
            out[uid] = max(1, min(3, int(u["steps"])))
    return out


def act_of(state: EFState) -> ActivationState:
    """The referee's activation state: public part, HQs from the blocks, the secret chits."""
    raw: dict[str, Any] = {**state["activation"]}
    chits = dict(raw.get("chits", {}))
    for side, sec in state["secrets"].items():
        if "chit" in sec:
            chits[side] = sec["chit"]
    raw["chits"] = chits
    raw["hqs"] = {s: eligible_hqs(state, s) for s in ("axis", "allies")}
    return state_from_json(raw)


def _forfeit(state: EFState, act: ActivationState) -> ActivationState:
    """EF-18 step 5 when a side's chosen HQs can no longer activate (destroyed, reduced or
    disrupted since the chits were placed): the activations it cannot make lapse, a forced
    choice the referee makes."""
    while act.step in ACTIVATION_STEPS and state.get("operation") is None:
        who = player_to_act(act)
        assert who is not None
        chit = act.chits[who]
        left = [h for h, s in act.hqs.get(who, {}).items()
                if s == chit.strength and h not in act.activated_this_phase]
        if left:
            return act
        remaining = {**act.remaining, who: 0}
        first_initial = 0 if act.step is Step.FIRST_INITIAL else act.first_initial
        act = advance_activation(dataclasses.replace(
            act, remaining=remaining, first_initial=first_initial,
            step=Step.SECOND if act.step is Step.FIRST_INITIAL else act.step))
    return act


def phase_index(state: EFState, act: ActivationState) -> int:
    op = state.get("operation")
    if op is not None:
        return ACT_AXIS if op["side"] == "axis" else ACT_ALLIES
    if act.step is Step.WEATHER:
        return WEATHER
    if act.step is Step.MONTH_OVER:
        return PRODUCTION
    if act.step is Step.CHOOSE:
        return CHIT_ALLIES if Side.AXIS in act.chits else CHIT_AXIS
    if act.step is Step.REVEAL:
        return INITIATIVE
    if act.step is Step.PHASE_END:
        return PHASE_END
    return ACT_AXIS if player_to_act(act) is Side.AXIS else ACT_ALLIES


def store(state: EFState, act: ActivationState) -> EFState:
    """Write ``act`` back: chits into the secrets until revealed; the phase pointer."""
    s = state
    act = _forfeit(s, act)
    raw = state_to_json(act)
    del raw["hqs"]
    for side in ("axis", "allies"):
        s["secrets"].setdefault(side, {}).pop("chit", None)
    if not act.revealed:
        for side, chit in raw["chits"].items():
            s["secrets"][side]["chit"] = chit
        raw["chits"] = {}
    s["activation"] = cast(Activation, raw)  # activation.state_to_json writes it
    s["phase"] = phase_index(s, act)
    return s


def refresh(state: EFState) -> EFState:
    """Re-derive the activation after blocks changed (an HQ lost, disrupted, moved)."""
    return store(state, act_of(state))


# --- blocks --------------------------------------------------------------------------------


def destroy(state: EFState, uid: str, face_down: bool) -> None:
    """Remove a block from play into its side's destroyed pool (EF-02 ``face_down``)."""
    u = cast(DestroyedBlock, state["units"].pop(uid))  # the record itself, now destroyed
    u.update({"hex": None, "steps": 0, "hidden": True, "face_down": face_down})
    state["destroyed"][u["side"]][uid] = u
    op = state.get("operation")
    if op is not None and op["hq"] == uid:
        op["hq_lost"] = True


def block_steps(state: EFState, label: str, side: str) -> int:
    return sum(int(u["steps"]) for u in state["units"].values()
               if u["hex"] == label and u["side"] == side)


def other(side: str) -> str:
    return "allies" if side == "axis" else "axis"
