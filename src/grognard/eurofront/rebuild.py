"""EF-02 Destroyed blocks are not available for cadre build in the first production after
being destroyed (``003_bbc0beaac187b5b3.txt``).

Destroyed Mechanised, Armour and Shock blocks go face down when removed from play; at the end of
each production phase every face-down block turns face up and may be rebuilt in the following
phase. Each such block therefore skips exactly one production phase (EF-TV03).

>>> from grognard.eurofront.model import Block, BlockType, Side
>>> pz = Block("pz1", Side.AXIS, BlockType.ARMOUR, strength=0)
>>> pool, ev = destroy_block(DestroyedPool(), pz)
>>> ev.face_down, can_rebuild(pool, "pz1")
(True, False)
>>> pool, _ = end_production_phase(pool)
>>> can_rebuild(pool, "pz1")
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from grognard.core.errors import IllegalOrder, InputError
from grognard.eurofront.model import Block, BlockType
from grognard.eurofront.readings import (
    ALL_RULES,
    DEFAULT_READINGS,
    EuroFrontReadings,
    OptionalRule,
    OptionalRules,
)

#: The block types the rule body names.
DELAYED_TYPES = frozenset({BlockType.MECHANISED, BlockType.ARMOUR, BlockType.SHOCK})


@dataclass(frozen=True)
class DestroyedPool:
    """Destroyed blocks of one side awaiting a cadre build, keyed by block id."""

    blocks: dict[str, Block] = field(default_factory=dict)

    def face_down_ids(self) -> list[str]:
        return sorted(k for k, b in self.blocks.items() if b.face_down)


@dataclass(frozen=True)
class BlockDestroyed:
    block_id: str
    block_type: BlockType
    face_down: bool
    rule: str = "EF-02"


@dataclass(frozen=True)
class BlockRebuilt:
    block_id: str
    rule: str = "EF-02"


@dataclass(frozen=True)
class FaceDownTurnedUp:
    block_ids: tuple[str, ...]
    rule: str = "EF-02"


def is_delayed(block: Block, rules: OptionalRules = ALL_RULES,
               readings: EuroFrontReadings = DEFAULT_READINGS) -> bool:
    """EF-02 Does this destroyed block go face down (skip one production phase)?

    Mechanised, Armour and Shock only (the rule body); every block type under
    ``ef_delay_all_blocks``; none when the rule is off.

    >>> from grognard.eurofront.model import Block, BlockType, Side
    >>> inf = Block("i1", Side.ALLIES, BlockType.INFANTRY)
    >>> is_delayed(inf), is_delayed(inf, readings=EuroFrontReadings(ef_delay_all_blocks=True))
    (False, True)
    """
    if not rules.on(OptionalRule.DELAYED_REBUILD):
        return False
    return readings.ef_delay_all_blocks or block.type in DELAYED_TYPES


def destroy_block(pool: DestroyedPool, block: Block, rules: OptionalRules = ALL_RULES,
                  readings: EuroFrontReadings = DEFAULT_READINGS,
                  ) -> tuple[DestroyedPool, BlockDestroyed]:
    """EF-02 A destroyed block enters the pool, face down if the delay applies to it."""
    if block.id in pool.blocks:
        raise IllegalOrder("EF-02", f"block {block.id} is already destroyed")
    down = is_delayed(block, rules, readings)
    dead = dataclasses.replace(block, strength=0, face_down=down)
    return (DestroyedPool({**pool.blocks, block.id: dead}),
            BlockDestroyed(block.id, block.type, down))


def can_rebuild(pool: DestroyedPool, block_id: str, hex_interdicted: bool = False) -> bool:
    """EF-02 / EF-13 May this destroyed block be built as a cadre in this production phase?"""
    try:
        verify_rebuild(pool, block_id, hex_interdicted)
    except IllegalOrder:
        return False
    return True


def verify_rebuild(pool: DestroyedPool, block_id: str, hex_interdicted: bool = False) -> None:
    """EF-02 Face-down blocks cannot be rebuilt; EF-13 nor in an Airpower Disrupted hex."""
    block = pool.blocks.get(block_id)
    if block is None:
        raise InputError("block_id", f"{block_id!r} is not in the destroyed pool")
    if block.face_down:
        raise IllegalOrder("EF-02", f"block {block_id} is face down: it was destroyed since the "
                           "last production phase and cannot be rebuilt in this one")
    if hex_interdicted:
        raise IllegalOrder("EF-13", "no cadre may be built in an Airpower Disrupted hex")


def rebuild(pool: DestroyedPool, block_id: str, hex_interdicted: bool = False,
            ) -> tuple[DestroyedPool, BlockRebuilt]:
    """EF-02 Build a destroyed block as a cadre: it leaves the pool."""
    verify_rebuild(pool, block_id, hex_interdicted)
    rest = {k: v for k, v in pool.blocks.items() if k != block_id}
    return DestroyedPool(rest), BlockRebuilt(block_id)


def end_production_phase(pool: DestroyedPool) -> tuple[DestroyedPool, FaceDownTurnedUp]:
    """EF-02 At the end of each production phase every face-down block turns face up."""
    ids = tuple(pool.face_down_ids())
    up = {k: (dataclasses.replace(b, face_down=False) if b.face_down else b)
          for k, b in pool.blocks.items()}
    return DestroyedPool(up), FaceDownTurnedUp(ids)
