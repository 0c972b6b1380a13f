"""``attack`` (TR-32..TR-36): a land attack on one hex (2D6 from ``third_reich.combat``) with
declared air and naval support (TR-35, the air/naval fight in the hex TR-46..TR-49) and
airborne units that air-landed in the hex (TR-52). The defender answers with its defensive
air support (``defensive_air``, TR-35) when it has a unit that could fly it.

Event ``battle_resolved`` (docs/formats/tr_engine.md). TR-32: the loser chooses its units
(``land_losses``, when more than one set is legal), a retreat with more than one open hex
waits for the defender's ``retreat``, and the attacker chooses which survivors advance into an
emptied hex (``advance``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import GrognardError, IllegalOrder, InputError
from grognard.core.hexgrid import distance
from grognard.core.paths import hex_index
from grognard.engine.commands import Command, Verify
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold, writes_units
from grognard.engine.orders import Words, as_list, hex_name, plural
from grognard.engine.system import Places
from grognard.third_reich.air_naval.support_fight import (
    fight_for_support,
    fold_support,
    verify_support,
)
from grognard.third_reich.board import (
    BLOCK,
    eliminate_units,
    hex_front,
    on_map_ground,
    order_hex,
    phase_name,
    position_cached,
)
from grognard.third_reich.combat.airdrops import landed_attack_ok, landed_attackers
from grognard.third_reich.combat.battle import (
    apply_settlement,
    attack_battle_of,
    attack_region,
    battle_losses,
    battle_rules,
    defenders_of,
    retreat_plan,
    retreat_possible,
    settle_battle,
    settled_units,
    verify_bridgehead_hexsides,
    verify_odds,
)
from grognard.third_reich.combat.combat import resolve_battle
from grognard.third_reich.combat.proposers import any_attack, legal_attack
from grognard.third_reich.proposals import distinct
from grognard.third_reich.reactions import ReactingOrder, fold_reaction_owed
from grognard.third_reich.state_types import Battle, BattleResolved, FrontOption, TRState
from grognard.third_reich.turn.calendar import weather
from grognard.third_reich.turn.powers import Action
from grognard.third_reich.turn.sequence import Phase
from grognard.third_reich.war import (
    power_of,
    verify_at_war_with_units,
    verify_enter,
    verify_own_option,
)
from grognard.third_reich.words import label_of, named_units, units_words


class AttackArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``hex``: the defender's hex; ``attackers``: the ground units attacking; ``air``: air
    units flying ground support; ``fleet`` / ``fleets``: the fleet bombarding (TR-35: one);
    ``advance``: whether the survivors advance into an emptied hex; ``defensive_air``: the
    defender's air units (its own ``defensive_air`` answer fills it)."""

    hex: str
    attackers: list[str]
    air: list[str] = msgspec.field(default_factory=list)
    fleet: str | None = None
    fleets: list[str] = msgspec.field(default_factory=list)
    advance: bool = True
    defensive_air: list[str] = msgspec.field(default_factory=list)


@writes_units(settled_units)
def fold_battle_resolved(state: TRState, ev: Event) -> TRState:
    """TR-32: losses off the map, then (once every loss is chosen: ``land_losses``) the
    retreats and the advance (after the defender's retreat choice, when it has one; the
    attacker's ``advance`` when survivors may advance); the attackers and the hex are marked
    for the phase."""
    s = state
    d = cast(BattleResolved, ev.data)
    fold_support(s, d["air_naval"])
    eliminate_units(s, list(d["eliminated"]))
    if d.get("losses_owed"):  # TR-32: the loser chooses its units first
        s["pending_battle"] = {"owed": d["losses_owed"], "plan": d["plan"],
                               "lost": list(d["eliminated"])}
    else:
        apply_settlement(s, d)
    s["attacked"] = [*state["attacked"], *d["attackers"]]
    s["attacked_hexes"] = [*state["attacked_hexes"], d["hex"]]
    s["battles"] = [*state["battles"], cast(Battle, {k: d[k] for k in ("hex", "result", "roll",
                                                                       "column")})]
    return s


def verify_attack_hex(ctx: Context, state: TRState, player: str, target: str,
                      powers: Sequence[str]) -> None:
    """TR-03/TR-25/TR-32 the checks of an attack on ``target`` by ``player`` that read the
    hex and the acting ``powers`` (sorted), not the units: an offensive option on the hex's
    front, each power at war with the hex's country and the defenders and under its own
    option, enemy ground units in the hex, the hex not yet attacked this phase."""
    m = ctx.scenario.map
    front = hex_front(m, hex_index(m, target))
    opt = state["options"].get(player, {}).get(front, cast(FrontOption, {})).get("option")
    if opt != "offensive":
        raise IllegalOrder("TR-03", f"{target} is on the {front} front, where {player} "
                           f"has no offensive option")
    # TR-25: each attacking power at war with the hex's country and the defenders;
    # TR-03: each under its own option (air support too)
    defenders = defenders_of(ctx, state, player, target)
    for p in powers:
        verify_enter(ctx, state, p, [target], Action.ATTACK)
        verify_at_war_with_units(state, p, defenders)
    verify_own_option(ctx, state, player, list(powers), front)
    if not defenders:
        raise IllegalOrder("TR-32", f"no enemy ground units in {target}")
    if target in state["attacked_hexes"]:
        raise IllegalOrder("TR-32", f"{target} has already been attacked this phase")


def attack_verdicts(ctx: Context, state: TRState) -> dict[tuple[Any, ...], GrognardError | None]:
    """The verdicts of :func:`verify_attack_hex` and :func:`verify_odds` given in this
    position (None: passed), by what each reads (once per position: the engine clears them
    after every command; a hypothetical or opened position has its own)."""
    return position_cached(ctx, state, "tr.attack_verdicts", dict)


def kept_verdict(verdicts: dict[tuple[Any, ...], GrognardError | None], key: tuple[Any, ...],
                 check: Callable[[], None]) -> None:
    """``check()``, or the refusal it gave under ``key`` in this position raised again."""
    if key not in verdicts:
        try:
            check()
        except GrognardError as exc:
            verdicts[key] = exc
        else:
            verdicts[key] = None
    refused = verdicts[key]
    if refused is not None:
        raise refused.with_traceback(None)


class Attack(ReactingOrder[AttackArgs]):
    """TR-32..TR-36 Land attack on a hex (2D6 from third_reich.combat)."""

    kind = "attack"
    rule = "TR-32"
    Args = AttackArgs
    help = "TR-32..TR-36 Land attack on a hex (2D6 from third_reich.combat)."
    example: ClassVar[Mapping[str, object]] = {"hex": "C9", "attackers": ["ge-arm1"]}
    folds: ClassVar[Mapping[str, Fold]] = {"battle_resolved": fold_battle_resolved,
                                           "reaction_owed": fold_reaction_owed}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: AttackArgs) -> None:
        m = ctx.scenario.map
        target, attackers = args.hex, list(args.attackers)
        order_hex(m, target, "args.hex", "TR-32")
        if not attackers:
            raise InputError("args.attackers", "list the attacking units")
        twice = sorted({a for a in attackers if attackers.count(a) > 1})
        if twice:  # a unit attacks once, with its own factors (issue 27)
            raise IllegalOrder("TR-32", f"{', '.join(twice)} named twice among the attackers: "
                               "a unit attacks once")
        acting = [a for a in [*attackers, *args.air, *([args.fleet] if args.fleet else []),
                              *args.fleets]
                  if a in state["units"] and state["units"][a]["side"] == cmd.player]
        powers = tuple(sorted({power_of(state, x) for x in acting} - {""}))
        # the checks of the hex and of the whole attack are asked again and again in one
        # position (the idle scan's witness per candidate, the defender's reaction options
        # per reacting unit): their verdicts are kept per position (attack_verdicts)
        verdicts = attack_verdicts(ctx, state)
        kept_verdict(verdicts, ("hex", cmd.player, target, powers),
                     lambda: verify_attack_hex(ctx, state, cmd.player, target, powers))
        mech = phase_name(ctx, state) == Phase.MECH_COMBAT.value
        verify_bridgehead_hexsides(state, cmd.player, attackers, target)
        for uid in attackers:
            u = state["units"].get(uid)
            if u is None or not on_map_ground(u) or u["side"] != cmd.player:
                raise IllegalOrder("TR-32", f"{uid} is not a ground unit of {cmd.player} on "
                                   "the map")
            if uid in state["attacked"]:
                raise IllegalOrder("TR-32", f"{uid} has already attacked this phase")
            if mech and u["type"] != "armor":
                raise IllegalOrder("TR-02", f"{uid} is not armor: only armor attacks in the "
                                   "mechanized combat phase")
            if uid in state["air_landed"]:
                if not landed_attack_ok(state, uid, target):
                    raise IllegalOrder("TR-52", f"{uid} air-landed this turn: it attacks only "
                                       "its landing hex")
                continue
            a = m.layout.from_label(cast(str, u["hex"]))
            b = m.layout.from_label(target)
            if distance(a, b) != 1 or m.features_between(a, b) & BLOCK:
                raise IllegalOrder("TR-32", f"{uid} in {u['hex']} is not adjacent to {target}")
        kept_verdict(verdicts, ("odds", cmd.player, target, tuple(attackers)),
                     lambda: verify_odds(ctx, state, cmd.player, target, attackers))
        verify_support(ctx, state, cmd, target)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: AttackArgs,
                dice: Dice) -> list[Event]:
        m = ctx.scenario.map
        target, attackers = args.hex, list(args.attackers)
        defenders = defenders_of(ctx, state, cmd.player, target)
        h = hex_index(m, target)
        wx = weather(attack_region(m, h), state["turn"])
        defender_side = state["units"][defenders[0]]["side"]
        # TR-32 with stacking (TR-28/TR-63): the hexes each side could retreat into and the
        # room in them; a retreat that cannot place every survivor is impossible
        _, room = retreat_plan(ctx, state, defender_side, defenders)
        open_hexes = sorted(room)
        back, back_room = retreat_plan(ctx, state, cmd.player, attackers)
        battle = replace(attack_battle_of(ctx, state, cmd.player, target, attackers),
                         defender_can_retreat=bool(room),
                         defender_retreat_room=sum(room.values()),
                         attacker_can_retreat=retreat_possible(attackers, back, back_room))
        air, fleets, air_naval = fight_for_support(ctx, state, cmd, dice)
        battle = replace(battle, air=tuple(air), fleets=tuple(fleets),
                         airborne_in_hex=landed_attackers(state, attackers))
        roll = dice.stream("third_reich.combat").roll("2d6")
        out = resolve_battle(battle, roll.total, ctx.tables)
        o = out.outcome
        # TR-32: the side taking a loss chooses its units (``land_losses``) unless only one
        # set is legal; TR-71: a defender's CRT loss never falls on a replacement while a unit
        # that is not one stands (combat.verify_land_losses)
        lost, owed, forced = battle_losses(ctx, state, (
            ("attacker", cmd.player, attackers, o.attacker_losses, False),
            ("defender", defender_side, defenders, o.defender_losses, True)))
        present = sorted(a for a in attackers if state["units"][a]["hex"] == target)
        plan = {"side": cmd.player, "defender": defender_side, "hex": target,
                "attackers": attackers, "defenders": defenders,
                "retreat": None if o.retreat is None else o.retreat.to_json(),
                "open": open_hexes, "room": room, "back": back, "back_room": back_room,
                "emptied": o.hex_emptied,
                "advance_max": o.advance_max, "advance": args.advance,
                **({"present": present} if present else {})}
        then: dict[str, Any] = ({"losses_owed": owed, "plan": plan, "retreats": {},
                                 "advanced": []} if owed else settle_battle(plan, lost))
        return [Event("battle_resolved", {
            "side": cmd.player, "hex": target, "front": hex_front(m, h),
            "attackers": attackers, "defenders": defenders, "weather": wx.value,
            "dice": list(roll.dice), **out.to_json(),
            "eliminated": sorted(lost), **({"forced": forced} if forced else {}), **then,
            "air_naval": air_naval, "support_detail": out.assessment.support.to_json(),
            "rules": battle_rules(out.assessment.drm, air_naval, battle.airborne_in_hex),
        })]

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        """TR-32: per attackable hex, every ground unit that may join, with all eligible air
        units, and with each eligible fleet
        (:func:`~grognard.third_reich.combat.proposers.legal_attack`)."""
        return distinct(partial(legal_attack, verify=self.checked))(ctx, state, player)

    def any_legal(self, ctx: Context, state: TRState, player: str, verify: Verify) -> bool:
        """Whether :meth:`propose` lists an attack (the first unit that may attack alone)."""
        return any_attack(ctx, state, player, verify)

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        att = as_list(a.get("attackers"))
        air = as_list(a.get("air"))
        fleets = as_list(a.get("fleets")) + as_list(a.get("fleet"))
        t = f"Attack {hex_name(ctx, a.get('hex'))} with {units_words(state, att) or 'no ground unit'}"
        if air or fleets:
            t += f"; support: {units_words(state, air + fleets)}"
        if a.get("advance") is False:
            t += "; no advance"
        return Words(t, f"attack {a.get('hex')} ({plural(len(att), 'unit')}"
                        + (f", {len(air) + len(fleets)} support" if air or fleets else "") + ")")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(label_of(cmd, "hex"), None, (),
                      named_units(cmd, "attackers", "air", "fleet", "fleets"))


__all__ = ["Attack", "AttackArgs", "fold_battle_resolved"]
