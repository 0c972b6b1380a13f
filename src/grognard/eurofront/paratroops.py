"""EF-09 Paratroop strategic move (heading lost; follows "Modified Front Air Power Rules" in
``003_bbc0beaac187b5b3.txt``).

Either side may move a Paratroop block of 1 or 2 points up to 10 hexes to a friendly-controlled
hex in supply, at a cost of one Strategic Move per paratroop strength point (reading PER_STEP;
FLAT = one per move). Multiple moves are possible, each paying (reading). Moves into the Med
Front are possible, but Desert Acclimatisation and Maintenance costs apply if in effect; those
base rules are EXTERNAL and their generic stand-in is ``BaseRules.desert_move_cost`` extra SMs.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex, distance
from grognard.eurofront.model import DEFAULT_BASE, BaseRules, Block, BlockType, Board, Front
from grognard.eurofront.readings import (
    ALL_RULES,
    DEFAULT_READINGS,
    EuroFrontReadings,
    OptionalRule,
    OptionalRules,
    ParaCost,
)

PARA_RANGE = 10


@dataclass(frozen=True)
class ParatroopMoved:
    block_id: str
    origin: Hex
    destination: Hex
    hexes: int
    cost: int
    desert_cost: int
    strategic_moves_left: int
    rule: str = "EF-09"


def paratroop_move_cost(block: Block, board: Board, destination: Hex,
                        desert_rules: bool = False,
                        readings: EuroFrontReadings = DEFAULT_READINGS,
                        base: BaseRules = DEFAULT_BASE) -> tuple[int, int]:
    """EF-09 (strategic moves, desert extra) for moving ``block`` to ``destination``.

    One SM per strength point (PER_STEP) or one per move (FLAT); into the Med Front from
    another front, ``base.desert_move_cost`` more while the desert rules are in effect.
    """
    cost = block.strength if readings.ef_para_cost is ParaCost.PER_STEP else 1
    into_med = (board.front_of(destination) is Front.MED and block.at is not None
                and board.front.get(block.at) is not Front.MED)
    desert = base.desert_move_cost if (into_med and desert_rules) else 0
    return cost, desert


def verify_paratroop_move(board: Board, block: Block, destination: Hex, strategic_moves: int,
                          desert_rules: bool = False, rules: OptionalRules = ALL_RULES,
                          readings: EuroFrontReadings = DEFAULT_READINGS,
                          base: BaseRules = DEFAULT_BASE) -> None:
    """EF-09 Refuse an illegal paratroop strategic move, naming the reason."""
    if isinstance(strategic_moves, bool) or not isinstance(strategic_moves, int) \
            or strategic_moves < 0:
        raise InputError("strategic_moves", "must be a non-negative integer")
    if not rules.on(OptionalRule.PARATROOP_MOVE):
        raise IllegalOrder("EF-09", "the paratroop strategic move is not in play")
    if block.type is not BlockType.PARATROOP:
        raise IllegalOrder("EF-09", f"block {block.id} is not a Paratroop block")
    if not 1 <= block.strength <= 2:
        raise IllegalOrder("EF-09", f"only 1 or 2 point Paratroop blocks may move "
                           f"(block {block.id} has {block.strength})")
    if block.at is None:
        raise InputError(f"block {block.id}.at", "the block is not on the map")
    if not board.on_map(destination):
        raise InputError("destination", f"{tuple(destination)} is not on the map")
    hexes = distance(block.at, destination)
    if hexes > PARA_RANGE:
        raise IllegalOrder("EF-09", f"{hexes} hexes is beyond the {PARA_RANGE}-hex limit")
    if board.controller(destination) is not block.side:
        raise IllegalOrder("EF-09", "the destination must be a friendly-controlled hex")
    if not board.in_supply(block.side, destination):
        raise IllegalOrder("EF-09", "the destination must be in supply")
    cost, desert = paratroop_move_cost(block, board, destination, desert_rules, readings, base)
    if cost + desert > strategic_moves:
        raise IllegalOrder("EF-09", f"the move costs {cost + desert} Strategic Moves; "
                           f"{strategic_moves} left")


def can_paratroop_move(board: Board, block: Block, destination: Hex, strategic_moves: int,
                       desert_rules: bool = False, rules: OptionalRules = ALL_RULES,
                       readings: EuroFrontReadings = DEFAULT_READINGS,
                       base: BaseRules = DEFAULT_BASE) -> bool:
    try:
        verify_paratroop_move(board, block, destination, strategic_moves, desert_rules, rules,
                              readings, base)
    except IllegalOrder:
        return False
    return True


def paratroop_strategic_move(board: Board, block: Block, destination: Hex, strategic_moves: int,
                             desert_rules: bool = False, rules: OptionalRules = ALL_RULES,
                             readings: EuroFrontReadings = DEFAULT_READINGS,
                             base: BaseRules = DEFAULT_BASE) -> tuple[Block, ParatroopMoved]:
    """EF-09 Move a Paratroop block strategically: the moved block and the record."""
    verify_paratroop_move(board, block, destination, strategic_moves, desert_rules, rules,
                          readings, base)
    assert block.at is not None
    cost, desert = paratroop_move_cost(block, board, destination, desert_rules, readings, base)
    moved = dataclasses.replace(block, at=destination)
    return moved, ParatroopMoved(block.id, block.at, destination, distance(block.at, destination),
                                 cost + desert, desert, strategic_moves - cost - desert)
