"""EUR-12 The loss-allocation listing of a large battle stays small and quick.

europa-barbarossa seed 5057 (planner Axis against heuristic Soviets) once ran out of memory at
24 GB: an attacker whose first loss must be armor (EUR-12) listed its allocations by walking
every order of its many non-armor units, all refused at the first step, and each probe's
decoded arguments were kept until the position changed. The listing now starts an
armor-first requirement with armor units only, looks at a bounded number of partial orders,
and a position keeps a bounded number of decoded commands.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.orders import ARGS_KEPT
from grognard.europa.choices import MAX_ENUM, MAX_STEP_NODES, step_orders
from grognard.europa.combat.attack import Side, attack_from_json
from grognard.europa.combat.losses import armor_first, can_allocate
from grognard.europa.combat.orders.allocate_losses import ALLOCATE_LOSSES, is_armor_capable


def _battle(infantry: int) -> Any:
    """Many infantry divisions and one panzer division (listed last) attack a Soviet tank
    division: the attacker's first reduced unit must be armor (EUR-12)."""
    attackers = [{"id": f"inf{i}", "attack": 7, "defense": 7, "type": "infantry",
                  "division": True} for i in range(infantry)]
    attackers.append({"id": "pz", "attack": 10, "defense": 8, "type": "armor",
                      "armor": "full", "division": True})
    return attack_from_json({
        "attackers": attackers,
        "defenders": [{"id": "tk", "attack": 6, "defense": 5, "type": "armor",
                       "armor": "full", "division": True}],
        "terrain": "clear"})


def _listing(attack: Any, need: Fraction, first: Any) -> tuple[list[list[str]], int]:
    calls = 0

    def check(choice: list[str]) -> bool:
        nonlocal calls
        calls += 1
        return can_allocate(attack, Side.ATTACKER, need, choice)

    units = list(attack.side_units(Side.ATTACKER))
    return step_orders(units, Side.ATTACKER, need, check, first=first), calls


def test_eur12_armor_first_listing_is_the_same_orders_and_starts_with_armor() -> None:
    attack = _battle(3)
    need = Fraction(20)
    assert armor_first(attack, Side.ATTACKER)
    pruned, pruned_calls = _listing(attack, need, is_armor_capable)
    full, full_calls = _listing(attack, need, None)
    assert pruned == full  # the same legal orders, in the same order
    assert pruned and all(order[0] == "pz" for order in pruned)
    assert pruned_calls < full_calls  # the refused first steps are not walked


def test_eur12_large_battle_lists_armor_first_orders_quickly() -> None:
    attack = _battle(14)  # 15 divisions: every order of them is far beyond any budget
    need = Fraction(60)
    listed, calls = _listing(attack, need, is_armor_capable)
    assert listed, "an armor-first allocation exists and must be listed"
    assert all(order[0] == "pz" for order in listed)
    assert len(listed) <= MAX_ENUM and calls <= MAX_STEP_NODES
    # Without the first-step rule the walk spends its budget on refused orders.
    unpruned, _ = _listing(attack, need, None)
    assert len(unpruned) < len(listed)


def test_eur12_decoded_commands_kept_per_position_are_bounded() -> None:
    ctx = Context(scenario=None, tables=None)  # type: ignore[arg-type]
    for i in range(5 * ARGS_KEPT):
        cmd = Command("allocate_losses", "axis", {"side": "attacker", "units": [f"u{i}"]})
        assert ALLOCATE_LOSSES.args(ctx, cmd).units == [f"u{i}"]
    assert len(ctx.cache["order.args"]) <= ARGS_KEPT
