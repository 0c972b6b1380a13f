"""``airfield_strike`` (EUR-45): on the Fire in the East surprise turn the German player
dedicates air units to a surprise strike on a Soviet airfield; for every 2 German air units
dedicated to the strike on that airfield 1 Soviet air unit there is eliminated.

The order carries the player's choices only (the airfield and the German air units dedicated
to it); the referee supplies the rest: whether this is the surprise turn's air phase, the
airfield's Soviet air units, the number eliminated (:func:`grognard.europa.fite.air_surprise`
under the reading ``fite_air_surprise_pooling``) and which ones (drawn at random from the
stream ``europa.fite.airfield_strike``: the text names no chooser).

Readings (the original FitE air-surprise rules are EXTERNAL):

* the strike is flown in the surprise turn's air phase before any other mission is flown
  (SUR-23's "airbase attackers first" for the rule-47 surprise, applied here), by the first
  side's German air units with a tactical bombing rating, each within its range of the
  airfield, each once (a dedicated unit flies nothing else that game turn);
* each airfield is struck once (all its attackers together), so "per target airfield" counts
  them in one order; under ``pooled`` the running total over the turn's strikes is used: a
  strike eliminates floor(total after / 2) - floor(total before / 2);
* the eliminated units are at most those on the airfield (not eliminated yet).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import distance
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words, and_list, hex_name, plural
from grognard.engine.system import Places
from grognard.europa.air.missions import air_slot, flights, flying, key_of, ready
from grognard.europa.air.phase import AirStep
from grognard.europa.board import SURPRISE_PREFIX, fite_surprise_turn, readings_of
from grognard.europa.fite import air_surprise
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import AirfieldStrikes, AirfieldStruck, AirUnit, EuropaState
from grognard.europa.supply.phase import AirSurprisePooling, SupplyReadings

RULE = "EUR-45"
STREAM = "europa.fite.airfield_strike"
#: The state's record of the surprise turn's strikes: ``{"turn", "bases", "attackers"}``.
SLOT: Final = "fite_airfield_strikes"


class AirfieldStrikeArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The Soviet airfield (hex) and the German air units dedicated to its strike."""

    base: str
    attackers: list[str]


def _air(state: EuropaState) -> dict[str, AirUnit]:
    air: dict[str, AirUnit] = state.get("air_units") or {}
    return air


def _dist(ctx: Context, a: str, b: str) -> int:
    lay = ctx.scenario.map.layout
    return int(distance(lay.from_label(a), lay.from_label(b)))


def strikes(state: EuropaState) -> AirfieldStrikes:
    """This game turn's strikes so far (bases struck, German air units dedicated in all)."""
    rec = state.get(SLOT)
    if isinstance(rec, dict) and rec.get("turn") == int(state["turn"]):
        return rec
    return {"turn": int(state["turn"]), "bases": [], "attackers": 0}


def surprise_air_phase(ctx: Context, state: EuropaState, player: str) -> bool:
    """EUR-45 The FitE surprise turn's air phase, its missions not yet flown, for the German
    (first) side."""
    if not fite_surprise_turn(ctx.scenario) or int(state["turn"]) != 1:
        return False
    phase = ctx.turn_sequence.phases[int(state["phase"])]
    if phase.name != SURPRISE_PREFIX + "air" or player != ctx.scenario.sides[0]:
        return False
    slot = air_slot(state)
    return not (slot["key"] == key_of(state) and (
        flying(state) or slot["step"] != AirStep.MISSIONS.value))


def _planned(state: EuropaState) -> set[str]:
    return {x for f in flights(state) for x in [*f["escorts"], *f["strikers"]]}


def _eligible(ctx: Context, state: EuropaState, player: str, uid: str) -> str | None:
    """Why ``uid`` cannot strike (None: it can)."""
    u = _air(state).get(uid)
    if u is None or u["side"] != player:
        return f"{uid!r} is not one of {player}'s air units"
    if u["nationality"] != "german":
        return f"{uid} is not a German air unit"
    if not ready(state, uid):
        return f"{uid} is not operative or has flown this turn"
    if int(u.get("tactical", 0)) <= 0:
        return f"{uid} has no tactical bombing rating"
    if uid in _planned(state):
        return f"{uid} is already on a mission this air phase"
    return None


def soviet_air_at(state: EuropaState, player: str, base: str) -> list[str]:
    """The enemy air units on ``base`` that a strike can eliminate."""
    return sorted(uid for uid, u in _air(state).items()
                  if u["side"] != player and u["base"] == base and u["status"] != "eliminated")


def _verify(ctx: Context, state: EuropaState, cmd: Command, args: AirfieldStrikeArgs) -> list[str]:
    if not surprise_air_phase(ctx, state, cmd.player):
        raise IllegalOrder(RULE, "airfield surprise strikes are flown by the German player in "
                           "the FitE surprise turn's air phase, before its missions fly")
    m = ctx.scenario.map
    if not m.has(m.layout.from_label(args.base)):
        raise InputError("args.base", f"{args.base} is off the map")
    if not args.attackers or len(set(args.attackers)) != len(args.attackers):
        raise InputError("args.attackers", "a list of distinct air unit ids")
    if args.base in strikes(state)["bases"]:
        raise IllegalOrder(RULE, f"the airfield {args.base} has been struck this turn")
    defenders = soviet_air_at(state, cmd.player, args.base)
    if not defenders:
        raise IllegalOrder(RULE, f"no enemy air units on an airfield in {args.base}")
    for uid in args.attackers:
        why = _eligible(ctx, state, cmd.player, uid)
        if why is not None:
            raise IllegalOrder(RULE, why)
        rng = int(_air(state)[uid]["range"])
        if _dist(ctx, _air(state)[uid]["base"], args.base) > rng:
            raise IllegalOrder(RULE, f"{args.base} is beyond {uid}'s range of {rng} hexes")
    return defenders


def due(ctx: Context, state: EuropaState, attackers: int) -> int:
    """EUR-45 Soviet air units this strike eliminates before the cap (the reading decides
    per airfield or pooled over the turn)."""
    readings = readings_of(ctx, SupplyReadings)
    if readings.fite_air_surprise_pooling is AirSurprisePooling.POOLED:
        before = int(strikes(state)["attackers"])
        return air_surprise([before + attackers], readings).total - \
            air_surprise([before], readings).total
    return air_surprise([attackers], readings).total


def fold_airfield_struck(state: EuropaState, ev: Event) -> EuropaState:
    d = cast(AirfieldStruck, ev.data)
    s = state
    turn = int(s["turn"])
    for uid in d["attackers"]:
        s["air_units"][uid]["flown"] = turn
    for uid in d["eliminated"]:
        s["air_units"][uid]["status"] = "eliminated"
    rec = strikes(s)
    s[SLOT] = {"turn": turn, "bases": [*rec["bases"], d["base"]],
               "attackers": int(rec["attackers"]) + len(d["attackers"])}
    return s


class AirfieldStrike(EuropaOrder[AirfieldStrikeArgs]):
    kind = "airfield_strike"
    rule = "EUR-45"
    help = ("EUR-45 FitE surprise turn: German air units strike a Soviet airfield; 1 Soviet air "
            "unit there is eliminated per 2 German air units dedicated.")
    example: ClassVar[Mapping[str, Any]] = {"base": "0702", "attackers": ["de-kg55",
                                                                         "de-stg77"]}
    Args = AirfieldStrikeArgs
    folds: ClassVar[Mapping[str, Fold]] = {"airfield_struck": fold_airfield_struck}
    facts: ClassVar[Mapping[str, str]] = {
        "eliminated": "1 per 2 German air units dedicated, the units drawn at random, EUR-45",
        "losses": "1 per 2 German air units dedicated, EUR-45",
        "pooling": "the game's reading fite_air_surprise_pooling, EUR-45",
        "defenders": "the Soviet air units on the airfield as the state holds them, EUR-45"}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: AirfieldStrikeArgs) -> None:
        _verify(ctx, state, cmd, args)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: AirfieldStrikeArgs,
                dice: Dice) -> list[Event]:
        defenders = _verify(ctx, state, cmd, args)
        n = len(args.attackers)
        owed = due(ctx, state, n)
        pool = list(defenders)
        stream = dice.stream(STREAM)
        out = [pool.pop(stream.choice(len(pool))) for _ in range(min(owed, len(pool)))]
        readings = readings_of(ctx, SupplyReadings)
        return [Event("airfield_struck", {
            "player": cmd.player, "base": args.base, "attackers": list(args.attackers),
            "due": owed, "eliminated": out, "defenders": defenders,
            "pooling": readings.fite_air_surprise_pooling.value, "rules": [RULE]})]

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        """Each Soviet airfield in reach, struck by every German air unit that reaches it, by
        just enough of them for every Soviet air unit there, and by two (verify also accepts
        any other choice)."""
        if not surprise_air_phase(ctx, state, player):
            return []
        done = set(strikes(state)["bases"])
        mine = [uid for uid in sorted(_air(state)) if _eligible(ctx, state, player, uid) is None]
        bases = sorted({u["base"] for u in _air(state).values()
                        if u["side"] != player and u["status"] != "eliminated"} - done)
        cands = []
        for b in bases:
            reach = [uid for uid in mine
                     if _dist(ctx, _air(state)[uid]["base"], b) <= int(_air(state)[uid]["range"])]
            # all that reach; just enough for every Soviet unit there; a pair
            for k in sorted({len(reach), min(len(reach), 2 * len(soviet_air_at(state, player,
                                                                              b))), 2}):
                if 0 < k <= len(reach):
                    cands.append(Command(self.kind, player, {"base": b,
                                                             "attackers": reach[:k]}))
        return self.checked(ctx, state, cands)

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        base = cmd.args.get("base")
        att = cmd.args.get("attackers")
        n = len(att) if isinstance(att, list) else 0
        names = and_list(str(a) for a in att) if isinstance(att, list) else ""
        return Words(f"Surprise strike on the Soviet airfield at {hex_name(ctx, base)} with "
                     f"{plural(n, 'German air unit')} ({names}): 1 Soviet air unit eliminated "
                     "per 2", f"strike airfield {base} ({n})")

    def places(self, cmd: Command) -> Places:
        """Where the strike acts: the Soviet airfield struck, by the German air units named."""
        base = str(cmd.args["base"]) if cmd.args.get("base") else None
        att = cmd.args.get("attackers")
        units = tuple(str(a) for a in att) if isinstance(att, list) else ()
        return Places(base, None, (base,) if base else (), units)


AIRFIELD_STRIKE = AirfieldStrike()
