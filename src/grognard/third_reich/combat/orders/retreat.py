"""``retreat`` (TR-32): the retreating side's hexes after a combat result that leaves it a
choice: the defender of an attack or of an invaded beach (DR, D1R, D2R), or the attacker (AR),
each unit one hex from where it stands, no hex holding more than its stacking limit (2 ground
units, 4 in a bridgehead, TR-28/TR-63) with the side's units already there. The attackers'
advance follows a defender's retreat (``advance``, the attacker's choice).

``to``: one hex for every retreating unit, or ``{unit: hex}`` (engine reading: the units of a
stack may retreat to different hexes). Owed only when more than one way is legal; with one the
engine retreats the units and the battle's ``forced_retreat`` says why.

Event ``retreated`` ``{side, hex, units, to, moves {unit: hex}, advanced, advance_owed?}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold, writes_units
from grognard.engine.orders import Order, Words, hex_name
from grognard.engine.system import Places
from grognard.third_reich.combat.battle import LISTED_RETREATS, retreat_moves
from grognard.third_reich.state_types import AdvanceOwed, PendingRetreat, Retreated, TRState
from grognard.third_reich.words import units_words


class RetreatArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``to``: the hex every retreating unit goes to, or each unit's hex ``{unit: hex}``."""

    to: str | dict[str, str]


def _pending(state: TRState, player: str) -> PendingRetreat:
    p = state.get("pending_retreat")
    if not p:
        raise IllegalOrder("TR-32", "no units wait to retreat")
    if player != p["side"]:
        raise IllegalOrder("TR-32", f"{p['side']} chooses its retreat hexes, not {player}")
    return p


def _each(p: Mapping[str, Any]) -> dict[str, list[str]]:
    each = p.get("each")
    if each is None:  # a pending retreat recorded before per-unit options
        return {u: list(p["options"]) for u in p["units"]}
    return {u: list(hs) for u, hs in each.items()}


def _room(p: Mapping[str, Any]) -> dict[str, int]:
    room = p.get("room")
    if room is None:
        return {h: len(p["units"]) for h in p["options"]}
    return {h: int(n) for h, n in room.items()}


def retreat_of(state: TRState, player: str, to: str | Mapping[str, str]) -> tuple[
        PendingRetreat, dict[str, str]]:
    """TR-32: the retreat waiting for ``player`` and the move of each unit that ``to`` names,
    checked: every retreating unit once, into one of its open hexes, within stacking."""
    p = _pending(state, player)
    units = list(p["units"])
    each, room = _each(p), _room(p)
    moves = {u: to for u in units} if isinstance(to, str) else dict(to)
    for u in moves:
        if u not in units:
            raise IllegalOrder("TR-32", f"{u} is not one of the retreating units "
                               f"({', '.join(units)})")
    missing = [u for u in units if u not in moves]
    if missing:
        raise IllegalOrder("TR-32", f"name a retreat hex for {', '.join(missing)}: every unit "
                           "the result retreats goes one hex")
    for u, h in sorted(moves.items()):
        if h not in each[u]:
            raise IllegalOrder("TR-32", f"{u} in the battle for {p['hex']} cannot retreat to "
                               f"{h} (open: {', '.join(each[u]) or 'none'})")
    for h in sorted(set(moves.values())):
        n = sum(1 for x in moves.values() if x == h)
        if n > room.get(h, 0):
            raise IllegalOrder("TR-28", f"{n} units cannot retreat into {h}: it has room for "
                               f"{room.get(h, 0)} more within the stacking limit")
    return p, dict(sorted(moves.items()))


@writes_units(lambda ev: [*(ev.data.get("moves") or ev.data["units"]), *ev.data["advanced"]])
def fold_retreated(state: TRState, ev: Event) -> TRState:
    """TR-32: the retreating units move to the hexes chosen; after a defender's retreat the
    attacker's advance is owed (``advance``)."""
    d = cast(Retreated, ev.data)
    moves = d.get("moves") or {u: cast(str, d["to"]) for u in d["units"]}
    for uid, h in moves.items():
        state["units"][uid]["hex"] = h
    for uid in d["advanced"]:
        state["units"][uid]["hex"] = d["hex"]
    state.pop("pending_retreat", None)
    if d.get("advance_owed"):  # TR-32: the attacker's advance is its own choice (``advance``)
        state["pending_advance"] = cast(AdvanceOwed, dict(d["advance_owed"]))
    return state


class Retreat(Order[RetreatArgs]):
    """TR-32 The retreating side's hexes after a combat result."""

    kind = "retreat"
    rule = "TR-32"
    Args = RetreatArgs
    help = ("TR-32 The retreating side's hexes after a combat result: one hex for all "
            "(to: hex) or each unit's (to: {unit: hex}), within stacking.")
    example: ClassVar[Mapping[str, object]] = {"to": "D3"}
    folds: ClassVar[Mapping[str, Fold]] = {"retreated": fold_retreated}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: RetreatArgs) -> None:
        if isinstance(args.to, dict) and not args.to:
            raise InputError("args.to", "a hex, or {unit: hex} for the retreating units")
        retreat_of(state, cmd.player, args.to)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: RetreatArgs,
                dice: Dice) -> list[Event]:
        p, moves = retreat_of(state, cmd.player, args.to)
        return [Event("retreated", {"side": cmd.player, "hex": p["hex"],
                                    "units": list(p["units"]),
                                    "to": args.to if isinstance(args.to, str) else moves,
                                    "moves": moves, "advanced": list(p.get("advance", [])),
                                    **({"advance_owed": p["advance_owed"]}
                                       if p.get("advance_owed") else {})})]

    def legal(self, ctx: Context, state: TRState, player: str) -> list[Command]:
        """The legal retreats waiting for ``player``: the whole stack into each hex with
        room, then the splits (at most 64)."""
        p = state.get("pending_retreat")
        if not p or p["side"] != player:
            return []
        out = []
        for m in retreat_moves(p["units"], _each(p), _room(p), limit=LISTED_RETREATS):
            hexes = set(m.values())
            out.append(Command(self.kind, player, {"to": next(iter(hexes))}
                               if len(hexes) == 1 else {"to": m}))
        return out

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        to = cmd.args.get("to")
        if isinstance(to, Mapping):
            parts = [f"{units_words(state, [u])} to {h}" for u, h in sorted(to.items())]
            return Words("Retreat " + "; ".join(parts), "retreat " + ", ".join(
                f"{u}->{h}" for u, h in sorted(to.items())))
        return Words(f"Retreat to {hex_name(ctx, to)}", f"retreat to {to}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex(es) the units end in, the units."""
        to = cmd.args.get("to")
        if isinstance(to, Mapping):
            ends = tuple(sorted({str(h) for h in to.values()}))
            return Places(None, ends[0] if len(ends) == 1 else None, ends,
                          tuple(sorted(str(u) for u in to)))
        end = str(to) if isinstance(to, str) else None
        return Places(None, end, (end,) if end else (), ())


__all__ = ["Retreat", "RetreatArgs", "fold_retreated", "retreat_of"]
