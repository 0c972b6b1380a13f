"""The defender's reactions in the ``third_reich`` system (002 "Naval interception", "Air
Combat" and TR-35/TR-48/TR-51/TR-55..TR-57/TR-61/TR-69): the non-phasing player decides its own
interceptions and defensive air support. An ``attack``, ``airdrop``, ``naval_transport``,
``invade`` or sea ``sr`` may not name the defender's units (``defensive_air``, ``interceptors``,
``air_interceptors``); when the defender has a unit that could legally react, the command stops
with a ``reaction_owed`` event (nothing rolled yet) and the defender answers with
``defensive_air`` or ``intercept`` (any of its eligible units, or none); the order is then
carried out as if it had named them. When no defender unit could react, the order is carried
out at once (the rules leave no choice).

Below the Orders: the orders the defender answers subclass :class:`ReactingOrder`, the answers
are :class:`ReactionOrder`; the referee (:mod:`grognard.third_reich.play.referee`) holds the
decisions and prompts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar, TypeVar, cast

from grognard.core.dice import Dice
from grognard.core.errors import GrognardError, IllegalOrder, InputError
from grognard.engine.commands import Command, CommandSpec, verified
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold, writes_units
from grognard.engine.orders import Order
from grognard.third_reich.board import on_map_ground
from grognard.third_reich.movement.sea_srs import sea_sr_check
from grognard.third_reich.state import AIR_TYPES, FLEET_TYPES
from grognard.third_reich.state_types import ReactionOwed, TRState

A = TypeVar("A")

# --- reactions (interception, defensive air) ------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reaction:
    """The defender's part of a phasing command: the argument names it fills and their shape
    (``list`` of unit ids, or ``{slot: [ids]}`` by offshore hex or sea zone)."""

    kind: str
    keys: tuple[str, ...]
    shape: str
    rule: str
    what: str


REACTIONS: Mapping[str, Reaction] = {
    "attack": Reaction("defensive_air", ("defensive_air",), "list", "TR-35",
                       "fly defensive air support into {hex}"),
    "airdrop": Reaction("intercept", ("interceptors",), "list", "TR-51",
                        "intercept the air drop on {to} with air units"),
    "naval_transport": Reaction("intercept", ("interceptors", "air_interceptors"), "list",
                                "TR-55", "intercept the naval transport to {to}"),
    "invade": Reaction("intercept", ("interceptors", "air_interceptors"), "by_hex", "TR-61",
                       "intercept the invasion of {beach}"),
    "sr": Reaction("intercept", ("interceptors",), "by_zone", "TR-69",
                   "intercept the sea SR to {to}"),
}


def _reaction(cmd: Command) -> Reaction | None:
    r = REACTIONS.get(cmd.kind)
    if r is not None and cmd.kind == "sr" and str(cmd.args.get("kind", "land")) != "sea":
        return None
    return r


def _named(value: Any) -> bool:
    return bool(value)


def refuse_defender_args(cmd: Command) -> None:
    """The phasing player may not name the defender's reacting units."""
    r = _reaction(cmd)
    if r is None:
        return
    for key in r.keys:
        if _named(cmd.args.get(key)):
            raise IllegalOrder(r.rule, f"{key} are the defender's decision: it names them "
                               f"with {r.kind} after the {cmd.kind} order")


def _key_types(cmd_kind: str, key: str) -> frozenset[str]:
    if key == "interceptors" and cmd_kind != "airdrop":
        return FLEET_TYPES
    return AIR_TYPES


def _slots(ctx: Context, state: TRState, cmd: Command, r: Reaction) -> list[str | None]:
    if r.shape == "list":
        return [None]
    if r.shape == "by_hex":
        groups = cmd.args.get("groups")
        if not isinstance(groups, list):
            return []
        return [*sorted({str(g.get("hex")) for g in groups if isinstance(g, dict)})]
    try:
        return list(sea_sr_check(ctx, state, cmd)["route"])
    except GrognardError:
        return []


def _with(args: Mapping[str, Any], key: str, slot: str | None, ids: list[str]) -> dict[str, Any]:
    out = dict(args)
    if slot is None:
        out[key] = list(ids)
    else:
        out[key] = {**dict(out.get(key) or {}), slot: list(ids)}
    return out


def reaction_options(ctx: Context, state: TRState, spec: CommandSpec, cmd: Command,
                     defender: str | None = None) -> list[tuple[str, str | None, str]]:
    """The (argument, slot, unit) each defender unit could react with alone, checked by the
    order's own verify."""
    r = _reaction(cmd)
    if r is None:
        return []
    out = []
    slots = _slots(ctx, state, cmd, r)
    for key in r.keys:
        types = _key_types(cmd.kind, key)
        units = sorted(uid for uid, u in state["units"].items()
                       if u["type"] in types and u["status"] == "active" and u["hex"] is not None
                       and u["side"] != cmd.player and (defender is None or u["side"] == defender))
        for slot in slots:
            for uid in units:
                trial = Command(cmd.kind, cmd.player, _with(cmd.args, key, slot, [uid]))
                try:
                    spec.verify(ctx, state, trial)
                except GrognardError:
                    continue
                out.append((key, slot, uid))
    return out


def _defender_of(state: TRState, cmd: Command, options: list[tuple[str, str | None, str]]) -> str:
    if cmd.kind == "attack":
        target = cmd.args.get("hex")
        for u in state["units"].values():
            if on_map_ground(u) and u["hex"] == target and u["side"] != cmd.player:
                return str(u["side"])
    return str(state["units"][options[0][2]]["side"])


def reacting(spec: CommandSpec) -> CommandSpec:
    """``spec`` with the defender's reaction: verify refuses defender arguments; execute stops
    with ``reaction_owed`` when the defender has a choice, else carries the order out."""

    def verify(ctx: Context, state: TRState, cmd: Command) -> None:
        refuse_defender_args(cmd)
        spec.verify(ctx, state, cmd)

    def execute(ctx: Context, state: TRState, cmd: Command, dice: Dice) -> list[Event]:
        return owe_reaction(ctx, state, spec, cmd, dice)

    return CommandSpec(spec.kind, verify, execute, spec.help, spec.example, spec.legal,
                       spec.undoable)


def owe_reaction(ctx: Context, state: TRState, spec: CommandSpec, cmd: Command,
                 dice: Dice) -> list[Event]:
    """The order ``cmd`` carried out by ``spec`` (its execution as if the defender's units
    were named), or stopped with ``reaction_owed`` when the defender has a unit that could
    react: the defender decides (TR-35/TR-51/TR-55/TR-61/TR-69)."""
    r = _reaction(cmd)
    options = reaction_options(ctx, state, spec, cmd) if r is not None else []
    if r is None or not options:
        return spec.execute(ctx, state, cmd, dice)
    defender = _defender_of(state, cmd, options)
    mine = [o for o in options if state["units"][o[2]]["side"] == defender]
    if not mine:
        return spec.execute(ctx, state, cmd, dice)
    # the order must be one the defender can answer: carried out with no reaction (on
    # scratch dice) it has to go through, or the decision owed could never be settled
    spec.execute(ctx, state, cmd, Dice(0))
    return [Event("reaction_owed", {
        "kind": cmd.kind, "player": cmd.player, "args": dict(cmd.args),
        "defender": defender, "reaction": r.kind, "rule": r.rule,
        "prompt": r.what.format(**{k: cmd.args.get(k, "?") for k in ("hex", "to", "beach")}),
        "options": [{"arg": k, "slot": s, "unit": u} for k, s, u in mine]})]


class ReactingOrder(Order[A]):
    """An order the defender may answer (:data:`REACTIONS`: ``attack`` -> ``defensive_air``,
    the naval and air movements -> ``intercept``). Its own ``verify``/``execute`` take the
    order as if the defender's units were named (:meth:`raw_spec`: what the reaction runs);
    as the phasing player's order the defender's arguments are refused and the order stops
    with ``reaction_owed`` while the defender has a choice."""

    def raw_spec(self) -> CommandSpec:
        """The order with the defender's units named in its arguments (no reaction owed)."""
        return super().spec()

    def spec(self) -> CommandSpec:
        raw = self.raw_spec()
        spec = replace(reacting(raw), propose=raw.propose, sample=raw.sample,
                       any_legal=raw.any_legal)
        if raw.propose is None:
            return spec
        propose = raw.propose
        return replace(spec, legal=lambda ctx, state, player: verified(
            ctx, state, spec, propose(ctx, state, player)))

    def checked(self, ctx: Context, state: TRState, cmd: Command) -> None:
        """The phasing player's order as the engine verifies it (defender arguments
        refused): for enumerators that check candidates one by one."""
        refuse_defender_args(cmd)
        self.verify(ctx, state, cmd, self.args(ctx, cmd))


@writes_units()
def fold_reaction_owed(state: TRState, ev: Event) -> TRState:
    state["pending_reaction"] = cast(ReactionOwed, ev.data)
    return state


@writes_units()
def fold_reaction_made(state: TRState, ev: Event) -> TRState:
    state.pop("pending_reaction", None)
    return state


def _merged(kind: str, inner: Mapping[str, CommandSpec], state: TRState,
            cmd: Command) -> tuple[Command, CommandSpec]:
    """The pending order with the defender's answer ``cmd`` merged into its arguments, and
    the order's own spec (as if the defender had named its units)."""
    p = state.get("pending_reaction")
    if not p or p["reaction"] != kind:
        raise IllegalOrder("TR-55" if kind == "intercept" else "TR-35",
                           f"no {p['kind'] if p else 'enemy'} order waits for {kind}")
    if cmd.player != p["defender"]:
        raise IllegalOrder(p["rule"], f"{p['defender']} decides the {kind}, not {cmd.player}")
    r = REACTIONS[p["kind"]]
    for k in cmd.args:
        if k not in r.keys:
            raise InputError(f"args.{k}", f"{kind} names only {', '.join(r.keys)}")
    return (Command(p["kind"], p["player"], {**p["args"], **dict(cmd.args)}),
            inner[p["kind"]])


def _answers(kind: str, state: TRState, player: str) -> Iterator[Command]:
    """No unit, each option alone, every option together."""
    p = state.get("pending_reaction")
    if not p or p["reaction"] != kind or p["defender"] != player:
        return
    opts = [(o["arg"], o["slot"], o["unit"]) for o in p["options"]]
    yield Command(kind, player, {})
    seen: list[dict[str, Any]] = [{}]
    for key, slot, uid in opts:
        args = _with({}, key, slot, [uid])
        seen.append(args)
        yield Command(kind, player, args)
    every: dict[str, Any] = {}
    for key, slot, uid in opts:
        cur = every.get(key)
        if slot is None:
            every[key] = [*(cur or []), uid]
        else:
            every[key] = {**(cur or {}), slot: [*((cur or {}).get(slot, [])), uid]}
    if every not in seen:
        yield Command(kind, player, every)


class ReactionOrder(Order[A]):
    """The defender's answer (``intercept`` / ``defensive_air``) to a pending order: its
    units (or none); the order then runs with them. ``inner``: the system's orders as
    :meth:`ReactingOrder.raw_spec` gives them, by kind."""

    folds: ClassVar[Mapping[str, Fold]] = {"reaction_made": fold_reaction_made}

    def __init__(self, inner: Callable[[], Mapping[str, CommandSpec]]) -> None:
        self.inner = inner

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: A) -> None:
        order, spec = _merged(self.kind, self.inner(), state, cmd)
        spec.verify(ctx, state, order)
        # the order's own execution may still refuse the reaction (TR-60: fleets may not
        # intercept in the invader's uncontested air zone); try it on scratch dice
        spec.execute(ctx, state, order, Dice(0))

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: A,
                dice: Dice) -> list[Event]:
        order, spec = _merged(self.kind, self.inner(), state, cmd)
        made = Event("reaction_made", {"side": cmd.player, "reaction": self.kind,
                                       "kind": order.kind, "args": dict(cmd.args)})
        return [made, *spec.execute(ctx, state, order, dice)]

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterator[Command]:
        return _answers(self.kind, state, player)
