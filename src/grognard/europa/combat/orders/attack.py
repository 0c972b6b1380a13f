"""``attack`` (EUR-09, the revised CRT): the ATTACK model is built from the position (units in
state, map terrain -> the terrain-effects row, hexsides crossed from the map; the air phase's
ground support on the hex), the barrage (stream ``europa.barrage``) and the CRT 2D6 (stream
``europa.combat``) are rolled and :func:`grognard.europa.combat.crt.resolve_setup` gives the
result; losses and retreats it demands stay pending in ``state["combat"]`` for the sides'
``allocate_losses`` and ``retreat`` (forced single choices made by the engine)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import GrognardError, InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words, as_list, hex_name, plural
from grognard.engine.state import JSON
from grognard.engine.system import Places
from grognard.europa.choices import adjacent_enemy_hexes
from grognard.europa.combat.commands import (
    attack_json,
    attacked_this_phase,
    execute_attack,
    fold_combat_resolved,
    kept_model,
    model_key,
    settled,
    verify_attack,
)
from grognard.europa.combat.commands import combat_decisions as decisions
from grognard.europa.combat.odds import attack_odds
from grognard.europa.combat.orders.allocate_losses import ALLOCATE_LOSSES
from grognard.europa.combat.orders.retreat import RETREAT
from grognard.europa.logistics import FOLDS as LOGISTICS_FOLDS
from grognard.europa.order import EuropaOrder, engine_choices
from grognard.europa.state_types import EuropaState
from grognard.europa.words import label_of, named_units, units_words


class AttackArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The attacking units and the hex attacked: the player's only choices."""

    attackers: list[str]
    defender_hex: str


#: What an attack order may not say (issue 24): the referee's facts and where it takes them.
ATTACK_FACTS: Mapping[str, str] = {
    "bombardment": "the fire support earned this turn: the air phase's ground support on the "
                   "hex and the barrage of the attacking artillery, EUR-06/EUR-29",
    "readings": "fixed when the game is created",
    "weather": "the turn's weather, from the scenario's calendar",
    "series": "the game's series, from the scenario",
    "night": "the phase of the turn",
    "barrage_target": "a barrage step loss is the defender's, EUR-06",
    "overrun": "an overrun is its own order (overrun), EUR-18",
}


class Attack(EuropaOrder[AttackArgs]):
    kind = "attack"
    rule = "EUR-09"
    help = "Europa revised combat on one hex (EUR-09)."
    example: ClassVar[Mapping[str, Any]] = {"attackers": ["de-7pz", "de-20mot"],
                                            "defender_hex": "0504"}
    Args = AttackArgs
    facts: ClassVar[Mapping[str, str]] = ATTACK_FACTS
    folds: ClassVar[Mapping[str, Fold]] = {"combat_resolved": settled(fold_combat_resolved)}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: AttackArgs) -> None:
        verify_attack(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: AttackArgs,
                dice: Dice) -> list[Event]:
        return decided(ctx, state, execute_attack(ctx, state, cmd, dice), dice, self.folds)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        """EUR-09 One attack per enemy-held hex with every unit that may join (verify accepts
        any subset). Units a one-unit attack refuses (across a lake, already attacked) are
        left out."""
        if state["combat"]["pending"] is not None:
            return []
        done_units, done_hexes = attacked_this_phase(state)
        out = []

        def check(ids: list[str], target: str) -> list[Command]:
            return self.checked(ctx, state, [
                Command("attack", player, {"attackers": ids, "defender_hex": target})])

        for target, units in sorted(adjacent_enemy_hexes(ctx, state, player).items()):
            if target in done_hexes:
                continue
            ids = [uid for uid, _ in units if uid not in done_units]
            if not ids:
                continue
            found = check(ids, target)
            if not found:
                ok = [uid for uid in ids if check([uid], target)]
                if not ok:
                    continue
                # units that cannot attack alone (artillery, EUR-03) may still join the others
                joined = [uid for uid in ids if uid in ok or check([*ok, uid], target)]
                found = check(joined, target) or check(ok, target)
            out.extend(found)
        return out

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        at = cmd.args.get("defender_hex")
        att = as_list(cmd.args.get("attackers"))
        return Words(f"Attack {hex_name(ctx, at)} with {units_words(state, att)}",
                     f"attack {at} ({plural(len(att), 'unit')})")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(label_of(cmd, "defender_hex"), None, (), named_units(cmd, "attackers"))


def decided(ctx: Context, state: EuropaState, events: list[Event], dice: Dice,
            folds: Mapping[str, Fold]) -> list[Event]:
    """A combat's events followed by the engine's forced allocations and retreats."""
    return engine_choices(ctx, state, events, dice, [ALLOCATE_LOSSES, RETREAT],
                          {**folds, **ALLOCATE_LOSSES.folds, **RETREAT.folds,
                           **LOGISTICS_FOLDS}, decisions)


def odds(ctx: Context, state: EuropaState, cmd: Command) -> Mapping[str, Any]:
    """The system's ``odds`` hook (``Game.odds``): the exact odds of a legal ``attack`` order
    as the attack panel shows them (``{"system": "europa", "odds": {..., "losses_in":
    "SPs"}}``), of the attack the referee would fight (:func:`attack_json`: the position, the
    map, the air phase's support)."""
    if cmd.kind != "attack":
        raise InputError("kind", "odds are given for attack commands")
    result = odds_of_model(ctx, attack_json(ctx, state, cmd.player, cmd.args))
    return {"system": "europa", "odds": {**result.to_json(), "losses_in": "SPs"}}


#: the exact odds of recent ATTACK.json models (a bot scores the same attacks again after each
#: command of a combat phase): canonical JSON of the model -> (tables, odds)
_ODDS: OrderedDict[str, tuple[Any, Any]] = OrderedDict()
_ODDS_KEPT = 4096


def odds_of_model(ctx: Context, raw: Mapping[str, Any]) -> Any:
    """EUR-09 :func:`attack_odds` of the ATTACK.json model ``raw`` under the game's tables,
    computed once per model (the odds are a function of the model and the tables only)."""
    key = model_key(raw)
    hit = _ODDS.get(key)
    if hit is not None and hit[0] is ctx.tables:
        _ODDS.move_to_end(key)
        return hit[1]
    result = attack_odds(kept_model(ctx, key, raw), ctx.tables)
    _ODDS[key] = (ctx.tables, result)
    if len(_ODDS) > _ODDS_KEPT:
        _ODDS.popitem(last=False)
    return result


def estimate(ctx: Context, view: JSON, player: str, target: str,
             attackers: Sequence[str]) -> dict[str, Any] | None:
    """EUR-09 The system's ``estimate`` hook: ``player``'s exact expectations of attacking
    ``target`` with ``attackers`` from its own view (the system's attack model over what the
    view shows): the hex is taken when the defenders are eliminated or retreat; losses in
    SPs. None when the view gives no attack the rules would fight."""
    try:
        result = odds_of_model(ctx, attack_json(
            ctx, view, player, {"attackers": list(attackers), "defender_hex": target}))
    except (GrognardError, KeyError, ValueError, TypeError):
        return None
    return {"p_taken": max(result.p_defender_eliminated, result.p_defender_retreat),
            "p_hex_cleared": result.p_hex_cleared,
            "expected_attacker_loss": Fraction(result.expected_attacker_loss),
            "expected_defender_loss": Fraction(result.expected_defender_loss),
            "column": str(result.setup.odds.column)}


ATTACK = Attack()
