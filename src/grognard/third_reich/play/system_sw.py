"""TR-79..TR-82 in the ``third_reich`` engine system: the strategic warfare boxes and rounds.

``state["sw_boxes"]`` holds each power's strategic-warfare factors: Germany's ``subs`` and
``interceptors``, the UK's and the US's ``asw`` and ``bombers``. Germany starts with 3 U-boat
factors and the UK with no ASW (TR-82); a scenario may give other boxes (``[third_reich]
sw_boxes``).

* ``sw_build {power, category, factors}`` (build phase, TR-80/TR-31/TR-82): buys SW factors at 3
  BRPs each within the year's limit for the kind (:func:`~grognard.third_reich.strategic.
  strategic_warfare.buy_sw_factors`), never before Spring 1940.
* ``sw_uboats {target}`` (Germany's strategic warfare phase, TR-79): Germany chooses the UK or,
  once the US is at war with Germany, the US (TR-79 step 4, TR-13). All U-boats fire at the
  target's ASW at half factors (0.6 rule) while the ASW fires back at full factors; survivors fire
  at the economy at 2x factors. Reading: the ASW that opposes an attack on a power's economy is
  that power's own (TR-81 ties ASW and fleet conversions to "the economy actually hit"); so in
  Spring 1942 (the second happy time, TR-82) an attack on the US meets no ASW (UK ASW may not
  oppose it, US ASW does not yet exist) and rolls with +1.
* ``sw_bombing {losses_first}`` (the Western Allies' strategic warfare phase, TR-79): all UK and
  US bombers attack Germany; Germany's interceptors fire back at full factors; survivors fire
  at the economy at 1x. The bombers' owner (the Western Allies) names which power's bombers
  are lost first (``uk`` or ``us``).

Each round is the attacking player's choice, once per game turn (reading: like an attack, a
strategic warfare round is ordered, never forced; the text says when it happens, not that it
must).

Every round is one event ``sw_round_fought`` with all its 1D10s (named stream
``third_reich.strategic_warfare``; a die is drawn only when the round uses it), the losses on
both boxes and the hits, which the economy records exactly (:func:`~grognard.third_reich.
strategic.strategic_warfare.record_sw_hits`: TR-13 tally for the next Year Start, TR-08 at once
in 1945, TR-81 bomber conversions: 5 interceptor factors per new multiple of 15 hits). The Year
Start's forced fleet conversion (TR-81) adds 9 ASW factors to that power's box.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from grognard.core.dice import Dice
from grognard.core.errors import GrognardError, IllegalOrder, InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.state import JSON
from grognard.third_reich.economy.economy import Economy, _turn_open, begin_player_turn
from grognard.third_reich.economy.year_start import FLEET_CONVERSION_ASW_FACTORS
from grognard.third_reich.play.system_common import _econ, _side_powers
from grognard.third_reich.play.system_murmansk import murmansk_held
from grognard.third_reich.strategic.strategic_warfare import (
    SW_CATEGORIES,
    SW_FACTOR_BRPS,
    SwKind,
    buy_sw_factors,
    happy_time,
    record_sw_hits,
    sw_round,
    verify_sw_target,
)
from grognard.third_reich.turn.calendar import SPRING_1940
from grognard.third_reich.turn.powers import Power

STREAM = "third_reich.strategic_warfare"
#: TR-81: interceptor factors one forced 5-4 air fleet conversion gives
AIR_CONVERSION_FACTORS = 5
#: TR-82: the first happy time's boxes (Germany 3 U-boat factors, the UK no ASW)
START_BOXES: dict[str, dict[str, int]] = {
    "germany": {"subs": 3, "interceptors": 0},
    "uk": {"asw": 0, "bombers": 0},
    "us": {"asw": 0, "bombers": 0},
}
WESTERN = ("uk", "us")


def initial_sw_boxes(given: Mapping[str, Mapping[str, int]] | None = None) -> dict[str, Any]:
    """TR-82: the SW boxes at the start (a scenario's ``sw_boxes`` replace the named kinds)."""
    boxes = {p: dict(kinds) for p, kinds in START_BOXES.items()}
    for power, kinds in (given or {}).items():
        if power not in boxes:
            raise InputError(f"third_reich.sw_boxes.{power}",
                             f"only {', '.join(boxes)} have strategic warfare boxes")
        for kind, n in kinds.items():
            if kind not in boxes[power]:
                raise InputError(f"third_reich.sw_boxes.{power}.{kind}",
                                 f"{power} has {', '.join(boxes[power])} factors only")
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise InputError(f"third_reich.sw_boxes.{power}.{kind}",
                                 f"a number of factors is a whole number >= 0, not {n!r}")
            boxes[power][kind] = n
    return boxes


def _boxes(state: JSON) -> dict[str, dict[str, int]]:
    b = state.get("sw_boxes")
    return b if b is not None else initial_sw_boxes()


def _box(state: JSON, power: str, kind: str) -> int:
    return int(_boxes(state).get(power, {}).get(kind, 0))


def _powers(econ: Economy) -> set[str]:
    return {p.value for p in econ.powers}


# --- sw_build (TR-80) -----------------------------------------------------------------------------


def _build_args(state: JSON, cmd: Command) -> tuple[str, str, int]:
    power, kind, n = (cmd.args.get(k) for k in ("power", "category", "factors"))
    if not isinstance(power, str):
        raise InputError("args.power", "the power buying (germany, uk or us)")
    if not isinstance(kind, str):
        raise InputError("args.category", "subs, interceptors, asw or bombers")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError("args.factors", f"a whole number of factors >= 1, not {n!r}")
    if power not in _side_powers(state, cmd.player):
        raise IllegalOrder("TR-80", f"{power} is not a power of {cmd.player}")
    return power, kind, n


def _opened(econ: Economy, power: str) -> Economy:
    return econ if _turn_open(econ, Power(power)) else begin_player_turn(econ, power)


def verify_sw_build(ctx: Context, state: JSON, cmd: Command) -> None:
    power, kind, n = _build_args(state, cmd)
    econ = _econ(state)
    if power not in _powers(econ):
        raise IllegalOrder("TR-80", f"{power} has no BRP economy in this game yet")
    buy_sw_factors(_opened(econ, power), power, kind, n)


def execute_sw_build(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    power, kind, n = _build_args(state, cmd)
    return [Event("sw_factors_bought", {"power": power, "category": kind, "factors": n,
                                        "cost": n * SW_FACTOR_BRPS, "rule": "TR-80"})]


def fold_sw_factors_bought(state: JSON, ev: Event) -> JSON:
    d = ev.data
    econ, _ = buy_sw_factors(_opened(_econ(state), d["power"]), d["power"], d["category"],
                             d["factors"])
    state["economy"] = econ.to_json()
    boxes = _boxes(state)
    box = boxes[d["power"]]
    box[d["category"]] = int(box[d["category"]]) + int(d["factors"])
    state["sw_boxes"] = boxes
    return state


def legal_sw_build(ctx: Context, state: JSON, player: str) -> Iterable[Command]:
    """Every purchase the year's limits allow (1 factor up to the most the limit leaves)."""
    econ = _econ(state)
    if econ.turn < SPRING_1940:
        return []
    out = []
    for power in _side_powers(state, player):
        if power not in _powers(econ):
            continue
        for kind in SW_CATEGORIES.get(Power(power), ()):
            limit = econ.balance(f"{power}.sw_limit.{kind}") - \
                econ.balance(f"{power}.sw_spent.{kind}")
            for n in range(1, int(limit // SW_FACTOR_BRPS) + 1):
                cmd = Command("sw_build", player, {"power": power, "category": kind,
                                                    "factors": n})
                try:
                    verify_sw_build(ctx, state, cmd)
                except GrognardError:
                    break
                out.append(cmd)
    return out


# --- the rounds (TR-79) -----------------------------------------------------------------------------


def _fought(state: JSON, kind: str) -> bool:
    return bool(state.get("sw_fought", {}).get(kind) == state["turn"])


def _defense(state: JSON, target: str) -> tuple[int, int]:
    """TR-79/TR-82: the ASW opposing U-boats on ``target``'s economy, and the DRM (TR-20: ASW
    still in the Murmansk box does not oppose them)."""
    h = happy_time(int(state["turn"]), target)
    asw = _box(state, target, "asw") - murmansk_held(state, target, "asw") \
        if h.us_asw_exists and h.uk_asw_allowed else 0
    return asw, h.drm


def _uboats(state: JSON) -> int:
    """TR-79: Germany's U-boat factors that fight the round (TR-20: not those in the Murmansk
    box this Summer I)."""
    return _box(state, "germany", "subs") - murmansk_held(state, "germany", "subs")


def _uboat_target(state: JSON, cmd: Command) -> str:
    if "germany" not in _side_powers(state, cmd.player):
        raise IllegalOrder("TR-79", "the German player conducts submarine warfare")
    target = cmd.args.get("target", "uk")
    if not isinstance(target, str):
        raise InputError("args.target", "uk or us")
    econ = _econ(state)
    if _fought(state, SwKind.SUBS):
        raise IllegalOrder("TR-79", "one U-boat round per game turn; it has been fought")
    t = verify_sw_target(econ, SwKind.SUBS, target).value
    if t not in _powers(econ) or "germany" not in _powers(econ):
        raise IllegalOrder("TR-79", f"{t} has no economy in this game")
    if not _uboats(state):
        raise IllegalOrder("TR-79", "Germany has no U-boat factors in its SW box (outside the "
                           "Murmansk box, TR-20)")
    return t


def _bombers(state: JSON, side: str) -> dict[str, int]:
    econ = _econ(state)
    return {p: _box(state, p, "bombers") for p in WESTERN
            if p in _side_powers(state, side) and p in _powers(econ)
            and Power(p) in econ.at_war_with_germany}


def _losses_first(state: JSON, cmd: Command) -> str:
    if not any(p in _side_powers(state, cmd.player) for p in WESTERN):
        raise IllegalOrder("TR-79", "the Western Allies conduct the bombing")
    first = cmd.args.get("losses_first", "uk")
    if first not in WESTERN:
        raise InputError("args.losses_first", f"uk or us, not {first!r}")
    econ = _econ(state)
    if _fought(state, SwKind.BOMBERS):
        raise IllegalOrder("TR-79", "one bombing round per game turn; it has been fought")
    verify_sw_target(econ, SwKind.BOMBERS, "germany")
    if "germany" not in _powers(econ):
        raise IllegalOrder("TR-79", "Germany has no economy in this game")
    if not sum(_bombers(state, cmd.player).values()):
        raise IllegalOrder("TR-79", "no bomber factors in the Western Allies' SW boxes")
    return str(first)


def verify_sw_uboats(ctx: Context, state: JSON, cmd: Command) -> None:
    _uboat_target(state, cmd)


def verify_sw_bombing(ctx: Context, state: JSON, cmd: Command) -> None:
    _losses_first(state, cmd)


def _fight(dice: Dice, kind: SwKind, off: int, dfn: int, drm: int) -> dict[str, Any]:
    """One round, each 1D10 drawn only when the round uses it (TR-79, TR-50)."""
    stream = dice.stream(STREAM)
    r1 = r2 = None
    if off and dfn:
        r1, r2 = stream.die(10), stream.die(10)
    probe = sw_round(kind, off, dfn, r1, r2, 1, drm)
    r3 = stream.die(10) if probe.surviving else None
    return sw_round(kind, off, dfn, r1, r2, r3, drm).to_json()


def execute_sw_uboats(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    target = _uboat_target(state, cmd)
    asw, drm = _defense(state, target)
    rnd = _fight(dice, SwKind.SUBS, _uboats(state), asw, drm)
    _, hits = record_sw_hits(_econ(state), SwKind.SUBS, target, rnd["hits"])
    return [Event("sw_round_fought", {
        "kind": "subs", "attacker": "germany", "target": target, "round": rnd,
        "losses": {"germany": {"subs": rnd["sub_losses"]}, target: {"asw": rnd["asw_losses"]}},
        "record": hits.to_json(), "rule": "TR-79"})]


def _split(losses: int, have: dict[str, int], first: str) -> dict[str, int]:
    out = {}
    for p in sorted(have, key=lambda p: p != first):
        out[p] = min(losses, have[p])
        losses -= out[p]
    return out


def execute_sw_bombing(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    first = _losses_first(state, cmd)
    have = _bombers(state, cmd.player)
    rnd = _fight(dice, SwKind.BOMBERS, sum(have.values()), _box(state, "germany", "interceptors"),
                 0)
    _, hits = record_sw_hits(_econ(state), SwKind.BOMBERS, "germany", rnd["hits"])
    split = _split(rnd["bomber_losses"], have, first)
    losses: dict[str, dict[str, int]] = {p: {"bombers": n} for p, n in split.items()}
    losses["germany"] = {"interceptors": rnd["interceptor_losses"]}
    return [Event("sw_round_fought", {
        "kind": "bombers", "attacker": "western_allies", "target": "germany", "round": rnd,
        "bombers": have, "losses_first": first, "losses": losses, "record": hits.to_json(),
        "rule": "TR-79"})]


def fold_sw_round_fought(state: JSON, ev: Event) -> JSON:
    d = ev.data
    boxes = _boxes(state)
    for power, kinds in d["losses"].items():
        for kind, n in kinds.items():
            boxes[power][kind] = int(boxes[power][kind]) - int(n)
    econ, hits = record_sw_hits(_econ(state), d["kind"], d["target"], d["round"]["hits"])
    if hits.air_conversions:  # TR-81: each forced 5-4 conversion gives 5 interceptor factors
        boxes["germany"]["interceptors"] = int(boxes["germany"]["interceptors"]) + \
            AIR_CONVERSION_FACTORS * hits.air_conversions
    state["economy"] = econ.to_json()
    state["sw_boxes"] = boxes
    state["sw_fought"] = {**state.get("sw_fought", {}), d["kind"]: state["turn"]}
    return state


def legal_sw_uboats(ctx: Context, state: JSON, player: str) -> Iterable[Command]:
    out = []
    for target in WESTERN:
        cmd = Command("sw_uboats", player, {"target": target})
        try:
            verify_sw_uboats(ctx, state, cmd)
        except GrognardError:
            continue
        out.append(cmd)
    return out


def legal_sw_bombing(ctx: Context, state: JSON, player: str) -> Iterable[Command]:
    try:
        have = _bombers(state, player)
    except GrognardError:
        return []
    firsts = [p for p, n in have.items() if n] if len([n for n in have.values() if n]) > 1 \
        else ["uk"]
    out = []
    for first in firsts:
        cmd = Command("sw_bombing", player, {"losses_first": first})
        try:
            verify_sw_bombing(ctx, state, cmd)
        except GrognardError:
            continue
        out.append(cmd)
    return out


# --- wiring -------------------------------------------------------------------------------------------


def sw_year_start(state: JSON, ev: Event) -> JSON:
    """After ``year_started``: TR-81's forced fleet conversion places 9 ASW factors in the
    power's SW box."""
    if ev.type != "year_started":
        return state
    boxes = _boxes(state)
    for p in ev.data.get("record", {}).get("powers", []):
        if p.get("fleet_conversion") and p.get("power") in boxes:
            box = boxes[p["power"]]
            box["asw"] = int(box["asw"]) + FLEET_CONVERSION_ASW_FACTORS
    state["sw_boxes"] = boxes
    return state




__all__ = ["initial_sw_boxes", "sw_year_start"]
