"""EF-17/EF-18 Sequential activation as an engine rule system (``eurofront``).

Importing this module registers the :class:`~grognard.engine.system.RuleSystem` named
``eurofront``. A scenario with ``system = "eurofront"``, sides ``axis`` and ``allies`` and the
phase list :data:`SEQUENCE_PHASES` (copy it into the scenario's ``[sequence]``) then runs as a
month of Activation Phases on :mod:`grognard.eurofront.activation`:

====  ==========  =======  ====================================================
idx   phase       player   commands
====  ==========  =======  ====================================================
0     weather     axis     ``roll_weather`` (1D6 from stream ``eurofront.weather``)
1     chit        axis     ``place_chit`` {strength, count}
2     chit        allies   ``place_chit`` {strength, count}
3     initiative  axis     ``roll_initiative`` (both 1D6 from ``eurofront.initiative``;
                           the referee rolls for both)
4     activate    axis     ``activate_hq`` {hq}, ``rail_move`` {block}
5     activate    allies   ``activate_hq`` {hq}, ``rail_move`` {block}
6     phase_end   axis     ``end_activation_phase``
====  ==========  =======  ====================================================

The folds move ``state["phase"]`` to whichever of these the activation state needs next (the
First Player's opening run, the Second Player, the First Player's rest), so the engine's
"one acting player per phase" check holds. Chits stay in ``state["secrets"][side]`` until the
reveal, so the engine's ``hide_secrets`` view hides the opponent's chit. Two zero chits end the
month: the next month starts at phase 0 (``state["turn"]`` counts months).

HQs are the scenario's units of type ``hq``; an HQ's strength points are its ``attack`` value
(1..3). ``[calendar] month = "YYYY-MM"`` (default 1941-06) and optional ``surprised = "allies"``
set the month and the side under surprise disruption. Readings ``ef_*`` come from the scenario's
``[readings]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.units import UnitType
from grognard.engine.commands import Command, CommandSpec
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON
from grognard.engine.system import RuleSystem, register_system
from grognard.engine.views import hide_secrets
from grognard.eurofront.activation import (
    ActivationState,
    Chit,
    Step,
    activate_hq,
    end_phase,
    player_to_act,
    record_rail_move,
    reveal_and_roll,
    roll_weather,
    standard_weather,
    start_month,
    state_from_json,
    state_to_json,
    verify_activate_hq,
    verify_choose_chit,
    verify_reveal,
)
from grognard.eurofront.activation import choose_chit as _choose_chit
from grognard.eurofront.model import Side, Turn
from grognard.eurofront.readings import EuroFrontReadings

NAME = "eurofront"

SEQUENCE_PHASES: tuple[dict[str, Any], ...] = (
    {"name": "weather", "player": "axis", "commands": ["roll_weather"]},
    {"name": "chit", "player": "axis", "commands": ["place_chit"]},
    {"name": "chit", "player": "allies", "commands": ["place_chit"]},
    {"name": "initiative", "player": "axis", "commands": ["roll_initiative"]},
    {"name": "activate", "player": "axis", "commands": ["activate_hq", "rail_move"]},
    {"name": "activate", "player": "allies", "commands": ["activate_hq", "rail_move"]},
    {"name": "phase_end", "player": "axis", "commands": ["end_activation_phase"]},
)


def _readings(ctx: Context) -> EuroFrontReadings:
    raw = {k: v for k, v in ctx.readings.items() if k.startswith("ef_")}
    return EuroFrontReadings.from_mapping(raw)


def _side(player: str) -> Side:
    try:
        return Side(player)
    except ValueError:
        raise InputError("player", f"EuroFront players are axis and allies, not {player!r}") \
            from None


def _act(state: JSON) -> ActivationState:
    """The referee's activation state: public part plus the secret chits."""
    raw = dict(state["activation"])
    chits = dict(raw.get("chits", {}))
    for side, sec in state["secrets"].items():
        if "chit" in sec:
            chits[side] = sec["chit"]
    raw["chits"] = chits
    return state_from_json(raw)


def _phase_index(act: ActivationState) -> int:
    if act.step is Step.WEATHER or act.step is Step.MONTH_OVER:
        return 0
    if act.step is Step.CHOOSE:
        return 2 if Side.AXIS in act.chits else 1
    if act.step is Step.REVEAL:
        return 3
    if act.step is Step.PHASE_END:
        return 6
    return 4 if player_to_act(act) is Side.AXIS else 5


def _store(state: JSON, act: ActivationState) -> JSON:
    s = state
    if act.step is Step.MONTH_OVER:
        hqs = {side: dict(v) for side, v in act.hqs.items()}
        act = start_month(act.month.next(), hqs, act.surprised)
        s["turn"] = int(s["turn"]) + 1
    raw = state_to_json(act)
    for side in Side:
        s["secrets"].setdefault(side.value, {}).pop("chit", None)
    if not act.revealed:
        for side, chit in raw["chits"].items():
            s["secrets"][side]["chit"] = chit
        raw["chits"] = {}
    s["activation"] = raw
    s["phase"] = _phase_index(act)
    return s


def initial_state(scenario: Scenario) -> JSON:
    hqs: dict[Side, dict[str, int]] = {Side.AXIS: {}, Side.ALLIES: {}}
    for p in scenario.placements:
        u = p.unit
        if u.type is UnitType.HQ:
            hqs[_side(u.side)][u.id] = u.attack
    cal = scenario.calendar
    month = Turn.parse(str(cal.get("month", "1941-06")), "calendar.month")
    surprised = cal.get("surprised")
    act = start_month(month, hqs, None if surprised is None else _side(str(surprised)))
    state: JSON = {
        "scenario": scenario.id, "system": NAME, "sides": list(scenario.sides), "turn": 1,
        "phase": 0, "secrets": {s.value: {} for s in Side}, "activation": {},
    }
    return _store(state, act)


# --- commands ------------------------------------------------------------------------------


def verify_roll_weather(ctx: Context, state: JSON, cmd: Command) -> None:
    if _act(state).step is not Step.WEATHER:
        raise IllegalOrder("EF-17", "weather is rolled at the start of an Activation Phase")


def execute_roll_weather(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    act = _act(state)
    roll = dice.stream("eurofront.weather").die(6)
    _, rec = roll_weather(act, roll, standard_weather)
    return [Event("weather_rolled", {"phase": rec.phase, "roll": roll, "weather": rec.weather})]


def fold_weather_rolled(state: JSON, ev: Event) -> JSON:
    w = str(ev.data["weather"])
    act, _ = roll_weather(_act(state), ev.data["roll"], lambda m, r: w)
    return _store(state, act)


def _chit(cmd: Command) -> Chit:
    strength, count = cmd.args.get("strength"), cmd.args.get("count", 0)
    if isinstance(strength, bool) or not isinstance(strength, int):
        raise InputError("args.strength", "an integer 0..3")
    if isinstance(count, bool) or not isinstance(count, int):
        raise InputError("args.count", "an integer")
    return Chit(strength, count)


def verify_place_chit(ctx: Context, state: JSON, cmd: Command) -> None:
    verify_choose_chit(_act(state), _side(cmd.player), _chit(cmd))


def execute_place_chit(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    c = _chit(cmd)
    return [Event("chit_placed", {"side": cmd.player, "strength": c.strength, "count": c.count})]


def fold_chit_placed(state: JSON, ev: Event) -> JSON:
    act, _ = _choose_chit(_act(state), Side(ev.data["side"]),
                          Chit(ev.data["strength"], ev.data["count"]))
    return _store(state, act)


def verify_roll_initiative(ctx: Context, state: JSON, cmd: Command) -> None:
    act = _act(state)
    if act.step is not Step.REVEAL:
        raise IllegalOrder("EF-18", "initiative is rolled once both chits are placed")


def execute_roll_initiative(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    act = _act(state)
    both_zero = all(c.strength == 0 for c in act.chits.values())
    rolls = None
    if not both_zero:
        stream = dice.stream("eurofront.initiative")
        rolls = {Side.AXIS: stream.die(6), Side.ALLIES: stream.die(6)}
    verify_reveal(act, rolls)
    _, rec = reveal_and_roll(act, rolls, _readings(ctx))
    return [Event("initiative_rolled", {
        "phase": rec.phase,
        "chits": {s.value: [c.strength, c.count] for s, c in rec.chits},
        "rolls": {s.value: r for s, r in rec.rolls},
        "scores": {s.value: v for s, v in rec.scores},
        "first": rec.first.value if rec.first else None,
        "first_activates": rec.first_activates,
        "tie": rec.tie, "month_over": rec.month_over,
        "surprise_cancelled": rec.surprise_cancelled,
        "bonus": _readings(ctx).ef_initiative_bonus.value,
    })]


def fold_initiative_rolled(state: JSON, ev: Event) -> JSON:
    rolls = ev.data["rolls"]
    readings = EuroFrontReadings.from_mapping({"ef_initiative_bonus": ev.data["bonus"]})
    act, _ = reveal_and_roll(_act(state), {Side(k): v for k, v in rolls.items()} or None,
                             readings)
    return _store(state, act)


def verify_activate(ctx: Context, state: JSON, cmd: Command) -> None:
    hq = cmd.args.get("hq")
    if not isinstance(hq, str):
        raise InputError("args.hq", "name the HQ to activate")
    verify_activate_hq(_act(state), _side(cmd.player), hq)


def execute_activate(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    act = _act(state)
    return [Event("hq_activated", {"phase": act.phase, "side": cmd.player,
                                   "hq": cmd.args["hq"], "step": act.step.value})]


def fold_hq_activated(state: JSON, ev: Event) -> JSON:
    act, _ = activate_hq(_act(state), Side(ev.data["side"]), str(ev.data["hq"]))
    return _store(state, act)


def verify_rail_move(ctx: Context, state: JSON, cmd: Command) -> None:
    block = cmd.args.get("block")
    if not isinstance(block, str):
        raise InputError("args.block", "name the block moved by rail")
    record_rail_move(_act(state), block)


def execute_rail_move(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    return [Event("rail_moved", {"phase": _act(state).phase, "block": cmd.args["block"]})]


def fold_rail_moved(state: JSON, ev: Event) -> JSON:
    act, _ = record_rail_move(_act(state), str(ev.data["block"]))
    return _store(state, act)


def verify_end_activation_phase(ctx: Context, state: JSON, cmd: Command) -> None:
    if _act(state).step is not Step.PHASE_END:
        raise IllegalOrder("EF-17", "the Activation Phase still has HQs to activate")


def execute_end_activation_phase(ctx: Context, state: JSON, cmd: Command,
                                 dice: Dice) -> list[Event]:
    _, rec = end_phase(_act(state))
    return [Event("activation_phase_ended", {"phase": rec.phase, "stood_up": list(rec.stood_up),
                                             "failed_link_ups": list(rec.failed_link_ups)})]


def fold_activation_phase_ended(state: JSON, ev: Event) -> JSON:
    act, _ = end_phase(_act(state))
    return _store(state, act)


def view(state: JSON, player: str) -> JSON:
    """EF-18 The player's view: the opponent's chit is a secret until the reveal."""
    return hide_secrets(state, player)


COMMANDS: Mapping[str, CommandSpec] = {
    "roll_weather": CommandSpec("roll_weather", verify_roll_weather, execute_roll_weather,
                                "EF-17 Roll the Activation Phase's weather."),
    "place_chit": CommandSpec("place_chit", verify_place_chit, execute_place_chit,
                              "EF-18 Place a face-down HQ Activation chit.",
                              {"strength": 2, "count": 1}),
    "roll_initiative": CommandSpec("roll_initiative", verify_roll_initiative,
                                   execute_roll_initiative,
                                   "EF-18 Reveal the chits and roll 1D6 + chit bonus each."),
    "activate_hq": CommandSpec("activate_hq", verify_activate, execute_activate,
                               "EF-18 Activate one HQ of the chosen strength.", {"hq": "A1"}),
    "rail_move": CommandSpec("rail_move", verify_rail_move, execute_rail_move,
                             "EF-17 Note a block moved by rail (it stands out next phase).",
                             {"block": "inf9"}),
    "end_activation_phase": CommandSpec("end_activation_phase", verify_end_activation_phase,
                                        execute_end_activation_phase,
                                        "EF-17 End the Activation Phase (supply, stand up)."),
}

EUROFRONT = RuleSystem(
    name=NAME,
    commands=COMMANDS,
    folds={
        "weather_rolled": fold_weather_rolled,
        "chit_placed": fold_chit_placed,
        "initiative_rolled": fold_initiative_rolled,
        "hq_activated": fold_hq_activated,
        "rail_moved": fold_rail_moved,
        "activation_phase_ended": fold_activation_phase_ended,
    },
    initial_state=initial_state,
    view=view,
    description="EuroFront sequential activation (EF-17/EF-18): months of Activation Phases.",
)
register_system(EUROFRONT)
