"""``declare_options`` (TR-03): a power's option per front - offensive, attrition or pass -
paid from its BRPs (TR-75: the power's player turn opens, the half-of-total cap applies).
Each power declares once a turn; the side plays a front's phases by the widest option any of
its powers took there (offensive > attrition > pass, TR-02).

Event ``options_declared`` ``{side, power, options, cost}``; ledger ``TR-03``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold, writes_units
from grognard.engine.orders import Order, Words, and_list
from grognard.third_reich.board import economy_of, payer, payers
from grognard.third_reich.state import paid_json, verify_payment
from grognard.third_reich.state_types import OptionsDeclared, TRState
from grognard.third_reich.turn.options import Front, options_cost, parse_front, parse_option
from grognard.third_reich.words import FRONTS, acting_power, power_name

#: TR-02: which option of two powers on one front sets the side's phases there.
OPTION_RANK: Mapping[str, int] = {"pass": 0, "attrition": 1, "offensive": 2}


class DeclareOptionsArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``options``: front -> ``offensive`` | ``attrition`` | ``pass``; ``power``: the paying
    power (None: the side's first power with an economy)."""

    options: dict[str, str]
    power: str | None = None


def declared(args: DeclareOptionsArgs) -> dict[str, str]:
    """TR-03: the options as named fronts and options (unknown names refused)."""
    if not args.options:
        raise InputError("args.options", "give {front: option} for one or more fronts")
    return {parse_front(f).value: parse_option(o).value for f, o in args.options.items()}


@writes_units()
def fold_options_declared(state: TRState, ev: Event) -> TRState:
    """TR-03/TR-75: the cost is posted; each front's option is the widest of the side's."""
    s = state
    d = cast(OptionsDeclared, ev.data)
    cause = ", ".join(f"{f} {o}" for f, o in sorted(d["options"].items()))
    s["economy"] = paid_json(state, d["side"], d["power"], d["cost"], "TR-03",
                             f"options: {cause}")
    side = s["options"].setdefault(d["side"], {})
    for f, o in d["options"].items():
        had = side.get(f)
        if had is None or OPTION_RANK[o] > OPTION_RANK[had["option"]]:
            side[f] = {"option": o, "power": d["power"]}
    s.setdefault("options_powers", {})[d["power"]] = dict(d["options"])
    return s


class DeclareOptions(Order[DeclareOptionsArgs]):
    """TR-03 Declare an option per front (cost to the ledger)."""

    kind = "declare_options"
    rule = "TR-03"
    Args = DeclareOptionsArgs
    help = "TR-03 Declare an option per front (cost to the ledger)."
    example: ClassVar[Mapping[str, object]] = {"power": "germany",
                                               "options": {"eastern": "offensive"}}
    folds: ClassVar[Mapping[str, Fold]] = {"options_declared": fold_options_declared}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: DeclareOptionsArgs) -> None:
        opts = declared(args)
        power = payer(state, cmd.player, args.power)
        if power in state.get("options_powers", {}):
            raise IllegalOrder("TR-03", f"{power} has already declared its options this turn")
        verify_payment(state, cmd.player, power, options_cost(opts, economy_of(state).year),
                       "TR-03")

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: DeclareOptionsArgs,
                dice: Dice) -> list[Event]:
        opts = declared(args)
        power = payer(state, cmd.player, args.power)
        cost = options_cost(opts, economy_of(state).year)
        return [Event("options_declared", {"side": cmd.player, "power": power, "options": opts,
                                           "cost": cost})]

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        """TR-03: per power, an offensive or attrition on one front (the rest pass), or all
        pass."""
        out = []
        for power in payers(state, player):
            out.append(Command(self.kind, player, {
                "power": power, "options": {f.value: "pass" for f in Front}}))
            for f in Front:
                for opt in ("offensive", "attrition"):
                    out.append(Command(self.kind, player, {
                        "power": power, "options": {f.value: opt}}))
        return out

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        opts = a.get("options")
        if not isinstance(opts, Mapping):
            opts = {k: v for k, v in a.items() if k in FRONTS}
        power = power_name(acting_power(state, cmd))
        by: dict[str, list[str]] = {}
        for front in ("eastern", "western", "southern"):
            if front in opts:
                by.setdefault(str(opts[front]), []).append(FRONTS[front])
        for front, o in opts.items():
            if front not in FRONTS:
                by.setdefault(str(o), []).append(str(front))
        rank = ("offensive", "attrition", "pass")
        parts = [f"{o} in {and_list(fs)}" for o, fs in
                 sorted(by.items(), key=lambda kv: rank.index(kv[0]) if kv[0] in rank else 3)]
        try:
            year = (state.get("economy") or {}).get("year")
            if year is None:
                year = economy_of(state).year
            cost: int | None = int(options_cost({str(k): str(v) for k, v in opts.items()},
                                                int(year)))
        except Exception:  # words never fail: the cost is left out
            cost = None
        what = "; ".join(parts) or "no option"
        brps = f" ({cost} BRPs)" if cost is not None else ""
        short = ", ".join(f"{FRONTS.get(str(f), str(f)).replace('the ', '')} {o}"
                          for f, o in opts.items())
        return Words(f"{power}: {what}{brps}", f"{short}{brps}")


__all__ = ["OPTION_RANK", "DeclareOptions", "DeclareOptionsArgs", "fold_options_declared"]
