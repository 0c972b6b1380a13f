"""TR-19..TR-21 in the ``third_reich`` engine system: the Murmansk box, both sides, one box a year.

The box follows the ``murmansk_timing`` reading (the scenario's ``[readings]``, kept in the
economy's :class:`~grognard.third_reich.economy.readings.StrategicReadings`; default SPRING,
:mod:`grognard.third_reich.strategic.murmansk`):

* both timings: after the Spring Year Start, in their Declare Options phase, the UK and the US
  each send exactly 20 BRPs or nothing by the northern route (``murmansk_ship``, TR-19: the
  BRPs are deducted at once through :func:`~grognard.third_reich.economy.lendlease.send_lend_lease`
  and wait on ``ll.north.<sender>``; only while the USSR is at war with Germany).
* SPRING: as soon as counters are in the box the Allies owe their escort (``murmansk_escort``,
  fleets and ASW face down: the counts are the Allies' secret ``state["secrets"][side]
  ["murmansk"]``, the public box shows only that escorts are there); then Germany owes its
  commitment (``murmansk_commit``, face up) and the box combat follows at once.
* SUMMER1: Germany owes its commitment in its Summer I player turn (U-boats inverted: the count
  is its secret, the public box shows only that some are there); the Allies then owe the
  escort in their Summer I player turn and the box combat follows at once.

The combat (:func:`~grognard.third_reich.strategic.murmansk.resolve`, Version A sequence) draws nine
1D10s from the named stream ``third_reich.murmansk``; everything is open afterwards. The
survivors come off ``ll.north.*`` onto ``ll.murmansk.due``
(:func:`~grognard.third_reich.economy.lendlease.deliver_murmansk`, TR-21) and the ``end_phase`` that
opens the USSR's Summer I (SPRING) or Summer II (SUMMER1) player turn carries
``murmansk_received`` and credits them to ``ussr.brp`` (TR-20,
:func:`~grognard.third_reich.economy.lendlease.receive_murmansk`). ``state["murmansk"]`` is the public
box of the current year (``year``), None before the first shipment.

The U-boats and the ASW come from the strategic warfare boxes (``state["sw_boxes"]``,
:mod:`~grognard.third_reich.strategic.sw_boxes`; TR-20: "any portion ... of the German player's
submarine Strategic Warfare assets", "their strategic warfare ASW assets"): Germany commits at
most its U-boat factors, the Allies at most the UK's and the US's ASW factors together; in the
SPRING timing U-boats that fought a round in the German player turn of that Spring may not be
sent. Losses in the box come off the boxes (``murmansk_resolved`` ``sw_losses``); reading: the
ASW is drawn from the UK's box first, then the US's, and loses in that order. They "do not
participate in normal strategic warfare in the same Summer I turn" (:func:`murmansk_held`):
SUMMER1: the U-boats committed in Germany's Summer I turn sit out its U-boat round; SPRING: the
surviving ASW stays in the box until the Allied Summer I turn, so it does not oppose the U-boat
round of that Summer I.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.decisions import Decision
from grognard.engine.events import Event
from grognard.third_reich.board import economy_of, powers_of_side, sequence_of
from grognard.third_reich.economy.lendlease import deliver_murmansk
from grognard.third_reich.economy.readings import MurmanskTiming
from grognard.third_reich.state import AIR_TYPES, FLEET_TYPES
from grognard.third_reich.state_types import EconomyJSON, MurmanskResolved, MurmanskResult, TRState
from grognard.third_reich.state_types import MurmanskBox as MurmanskBoxJSON
from grognard.third_reich.strategic import murmansk
from grognard.third_reich.turn.calendar import Season, date_of

#: TR-19: northern lend lease is exactly 20 BRPs from the UK or the US to the USSR
NORTHERN_BRPS = 20
#: the Western powers with ASW boxes, in the order the escort draws on them (reading)
WESTERN = ("uk", "us")


def timing(state: TRState) -> MurmanskTiming:
    """The ``murmansk_timing`` reading in force (kept in the economy's readings)."""
    return economy_of(state).readings.murmansk_timing


def box_year(state: TRState) -> int:
    return date_of(int(state["turn"])).year


def _sw(state: TRState, power: str, kind: str) -> int:
    """Factors of ``kind`` in ``power``'s strategic warfare box."""
    return int((state.get("sw_boxes") or {}).get(power, {}).get(kind, 0))


def _asw_powers(state: TRState) -> tuple[str, ...]:
    """The Western powers whose ASW may escort (UK first: the reading's order)."""
    side = _allied_side(state)
    return tuple(p for p in WESTERN if p in powers_of_side(state, side))


def available_subs(state: TRState) -> int:
    """TR-20: the U-boat factors Germany may send to the box now (SPRING timing: none that
    fought a round in this Spring's German player turn)."""
    if timing(state) is MurmanskTiming.SPRING and \
            state.get("sw_fought", {}).get("subs") == state["turn"]:
        return 0
    return _sw(state, "germany", "subs")


def available_asw(state: TRState) -> int:
    """TR-20: the ASW factors the Allies may send to the box: the UK's and the US's together."""
    return sum(_sw(state, p, "asw") for p in _asw_powers(state))


def power_factors(state: TRState, powers: tuple[str, ...], types: frozenset[str]) -> int:
    """The factors of ``powers``' active units of ``types`` on the map."""
    return sum(int(u["attack"]) for u in state["units"].values()
               if u.get("power") in powers and u["type"] in types and u["status"] == "active"
               and u["hex"] is not None)


def available_german(state: TRState, kind: str) -> int:
    """TR-20: the air (``air``) or fleet (``naval``) factors Germany has on the map - the most
    it may send to the box (issue 27: an order commits no factors its player lacks)."""
    return power_factors(state, ("germany",), AIR_TYPES if kind == "air" else FLEET_TYPES)


def available_escort(state: TRState) -> int:
    """TR-20: the fleet factors the Western Allies (UK, US) have on the map - the most the
    convoy escort may hold (they send no air fleets)."""
    return power_factors(state, _asw_powers(state), FLEET_TYPES)


def _asw_split(state: TRState, asw: int) -> dict[str, int]:
    """Reading: the escort's ASW is drawn from the UK's box first, then the US's."""
    out = {}
    for p in _asw_powers(state):
        out[p] = min(asw, _sw(state, p, "asw"))
        asw -= out[p]
    return out


def murmansk_held(state: TRState, power: str, kind: str) -> int:
    """TR-20: ``power``'s ``kind`` factors in the Murmansk box that sit out the normal
    strategic warfare round now ("such subs and ASW do not participate in normal strategic
    warfare in the same Summer I turn"): SUMMER1, in Summer I: the U-boats Germany committed;
    SPRING, in Summer I: the ASW that survived the Spring box (until the Allied Summer I turn,
    i.e. through Germany's U-boat round)."""
    if not state.get("murmansk") or date_of(int(state["turn"])).season is not Season.SUMMER1:
        return 0
    box = box_of(state)
    if kind == "subs" and power == "germany" and box.timing is MurmanskTiming.SUMMER1:
        return box.german.subs if box.german is not None else 0
    if kind == "asw" and box.timing is MurmanskTiming.SPRING and box.result is not None:
        sw = (state["murmansk"] or cast(MurmanskBoxJSON, {})).get("sw") or {}
        return int(sw.get(power, {}).get("asw", 0)) - int(sw.get(power, {}).get("lost", 0))
    return 0


def german_side(state: TRState) -> str:
    return str(state["power_sides"].get("germany", "axis"))


def _allied_side(state: TRState) -> str:
    """The side of the Western Allies (the UK's), who ship and escort."""
    return str(state["power_sides"].get("uk", "allies"))


def _result(r: Mapping[str, Any]) -> murmansk.MurmanskResult:
    return murmansk.MurmanskResult(
        r["brps_sent"], r["brp_hits"], r["brps_delivered"],
        murmansk.GermanAssets(**r["german_losses"]), murmansk.AlliedAssets(**r["allied_losses"]),
        tuple(r["steps"]), murmansk.MurmanskRolls(**r["rolls"]))


def box_of(state: TRState) -> murmansk.MurmanskBox:
    """This year's whole box (the hidden counts included) from the public box and the secrets;
    an empty box when nothing was shipped this year."""
    t = timing(state)
    pub = state["murmansk"]
    if not pub or pub.get("year") != box_year(state):
        return murmansk.MurmanskBox(t)
    ships = tuple((str(x["sender"]), int(x["brps"])) for x in pub.get("shipments", []))

    def side_assets(key: Literal["german", "allied"], side: str, kind: Any) -> Any:
        if pub.get(key) is None:
            return None
        secret = state["secrets"].get(side, {}).get("murmansk")
        return kind(**cast("Mapping[str, Any]", secret if secret is not None else pub[key]))

    g = side_assets("german", german_side(state), murmansk.GermanAssets)
    a = side_assets("allied", _allied_side(state), murmansk.AlliedAssets)
    res = _result(cast(MurmanskResult, pub["result"])) if pub.get("result") else None
    return murmansk.MurmanskBox(t, ships, g, a, res)


def public_box(box: murmansk.MurmanskBox, year: int) -> MurmanskBoxJSON:
    """The box as everyone sees it: what either side hides in this timing is hidden."""
    hidden_from = "allies" if box.timing is MurmanskTiming.SUMMER1 else "axis"
    return cast(MurmanskBoxJSON, {"year": year, **murmansk.view(box, hidden_from)})


# --- who owes what (TR-20) --------------------------------------------------------------------------


def murmansk_decisions(ctx: Context, state: TRState) -> list[Decision]:
    """TR-20: the box commitments owed now, by the ``murmansk_timing`` reading.

    SPRING: once counters are in the box the Allies place their escorts (face down, 0 allowed),
    then Germany commits (face up) and the combat follows. SUMMER1: Germany commits in its
    Summer I player turn (U-boats inverted), then the Allies escort in theirs."""
    pub = state["murmansk"]
    if not pub or not pub.get("shipments") or pub.get("year") != box_year(state):
        return []  # nothing shipped this year (box_of's empty box): asked after every command
    box = box_of(state)
    if not box.shipments or box.result is not None:
        return []
    gside, aside = german_side(state), _allied_side(state)
    phasing = sequence_of(ctx).phases[int(state["phase"])].player
    escort = Decision(aside, frozenset({"murmansk_escort"}),
                      f"{aside.capitalize()}: escort the Murmansk convoy (fleets based in England "
                      "or the US, ASW; no air fleets; 0 allowed)", "TR-20")
    commit = Decision(gside, frozenset({"murmansk_commit"}),
                      f"{gside.capitalize()}: commit air and fleets from Norway and U-boats to "
                      "the Murmansk box (0 allowed)", "TR-20")
    if box.timing is MurmanskTiming.SPRING:
        if box.allied is None:
            return [Decision(aside, frozenset({"murmansk_escort", "murmansk_ship"}),
                             escort.prompt, "TR-20")]
        return [commit] if box.german is None else []
    if date_of(int(state["turn"])).season is Season.SPRING:
        return []
    if box.german is None:
        return [commit] if phasing == gside else []
    if box.allied is None and phasing != gside:
        return [escort]
    return []


def verify_owed(ctx: Context, state: TRState, cmd: Command) -> None:
    if not any(d.player == cmd.player and cmd.kind in d.kinds
               for d in murmansk_decisions(ctx, state)):
        box = box_of(state)
        if box.result is not None:
            raise IllegalOrder("TR-21", "the box has already been resolved this year")
        if not box.shipments:
            raise IllegalOrder("TR-20", "no lend-lease counters in the Murmansk box this year")
        raise IllegalOrder("TR-20", f"{cmd.player} owes no Murmansk {cmd.kind.split('_')[1]} "
                           f"now (murmansk_timing={box.timing.value})")


def resolve_box(ctx: Context, state: TRState, box: murmansk.MurmanskBox, dice: Dice,
             side: str) -> Event:
    """TR-21: the box combat; ``sw``: each power's strategic warfare factors in the box and
    lost there (they come off ``state["sw_boxes"]``)."""
    rolls = murmansk.draw_rolls(dice.stream("third_reich.murmansk"))
    box, res = murmansk.resolve(box, rolls)
    g = box.german or murmansk.GermanAssets()
    a = box.allied or murmansk.AlliedAssets()
    sw: dict[str, dict[str, int]] = {"germany": {"subs": g.subs, "lost": res.german_losses.subs}}
    lost = res.allied_losses.asw
    for p, n in _asw_split(state, a.asw).items():
        if not n:
            continue
        sw[p] = {"asw": n, "lost": min(lost, n)}
        lost -= sw[p]["lost"]
    return Event("murmansk_resolved", {
        "side": side, "allied": box.allied.to_json() if box.allied else None,
        "german": box.german.to_json() if box.german else None, "result": res.to_json(),
        "sw": sw})


# --- the box combat (TR-21) ---------------------------------------------------------------------


def fold_murmansk_resolved(state: TRState, ev: Event) -> TRState:
    """TR-21: everything is open; the survivors are held for the USSR (``ll.murmansk.due``)."""
    d = cast(MurmanskResolved, ev.data)
    s = state
    box = box_of(state)
    res = _result(d["result"])
    done = murmansk.MurmanskBox(box.timing, box.shipments,
                                murmansk.GermanAssets(**d["german"]),
                                murmansk.AlliedAssets(**d["allied"]), res)
    s["murmansk"] = public_box(done, box_year(state))
    sw = d.get("sw", {})
    cast(MurmanskBoxJSON, s["murmansk"])["sw"] = sw
    boxes = s["sw_boxes"]
    for power, n in sw.items():
        kind = "subs" if power == "germany" else "asw"
        if n["lost"]:
            boxes[power][kind] = int(boxes[power][kind]) - int(n["lost"])
    for side in (german_side(state), _allied_side(state)):
        s["secrets"].get(side, {}).pop("murmansk", None)
    s["economy"] = cast(EconomyJSON, deliver_murmansk(economy_of(state), res.brp_hits)[0].to_json())
    return s


# --- C-HIDDEN: the log ------------------------------------------------------------------------------


def murmansk_event_view(event: Event, player: str, state: TRState) -> dict[str, Any]:
    """A box event as ``player`` may read it in the log (``state``: the position now): until
    that year's box is resolved, the other side's hidden commitment is withheld (SUMMER1: the
    U-boat count, only that some are there; SPRING: the escorts, only that they are there)."""
    d: dict[str, Any] = dict(event.data)
    pub = state.get("murmansk") or cast(MurmanskBoxJSON, {})
    open_now = d.get("year") != pub.get("year") or bool(pub.get("resolved"))
    if d.get("side") != player and not open_now:
        if event.type == "murmansk_committed" and timing(state) is MurmanskTiming.SUMMER1:
            d["german"] = {**d["german"], "subs": None, "subs_present": d["german"]["subs"] > 0}
        elif event.type == "murmansk_escorted" and timing(state) is MurmanskTiming.SPRING:
            a = d["allied"]
            d["allied"] = {"naval": None, "asw": None, "present": a["naval"] + a["asw"] > 0}
    return {"type": event.type, "data": d}
