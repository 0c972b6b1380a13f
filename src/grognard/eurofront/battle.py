"""The EuroFront block game's battles: firepower rolls, step losses and retreats.

EuroFront's battle rules are EXTERNAL; this is the generic, documented mechanism the block game
uses (see :mod:`grognard.eurofront.blocks` for the readings):

1. A battle is fought in every hex holding blocks of both sides when an HQ's activation ends
   (the activated side is the attacker). The blocks there are revealed.
2. Each round the defender fires first (EF-10's surviving note: "Defenders ... roll first"),
   then the attacker: every block rolls one d6 per step and scores a hit on a roll of at most
   its firepower (1..3). The attacker's combat air support (EF-08 levels, EF-07, EF-11..EF-13)
   adds one die per Air Power rank (SF 1 .. QF 4) hitting on ``efg_air_hit`` or less.
3. The side hit takes the losses, one step per hit, on blocks of its choice (its own decision);
   a block at 0 steps is destroyed (EF-02: armour, mechanised and shock blocks go face down).
   Hits beyond its steps are lost.
4. After ``efg_battle_rounds`` rounds, if both sides still stand, the side that scored fewer
   hits (the attacker on a tie) retreats: each of its blocks into an adjacent hex free of enemy
   blocks and not enemy-controlled, of its choice; a block with nowhere to go is destroyed.
5. The side left alone in the hex controls it; its blocks stand up (face down) again.

>>> fire_hits([("a", 2, 2), ("b", 1, 1)], [[1, 5], [1]])
2
>>> retreating_side(attacker_hits=2, defender_hits=2)
'attacker'
"""

from __future__ import annotations

from collections.abc import Sequence

from grognard.core.errors import InputError


def fire_hits(blocks: Sequence[tuple[str, int, int]], rolls: Sequence[Sequence[int]]) -> int:
    """Hits of one side's fire: ``blocks`` are (id, steps, firepower), ``rolls`` one list of
    d6 per block (one die per step); a die hits on at most the block's firepower."""
    if len(blocks) != len(rolls):
        raise InputError("rolls", f"one list of dice per block ({len(blocks)}), got {len(rolls)}")
    hits = 0
    for (bid, steps, fp), dice in zip(blocks, rolls, strict=True):
        if len(dice) != steps:
            raise InputError(f"rolls.{bid}", f"{steps} dice (one per step), got {len(dice)}")
        for d in dice:
            if not 1 <= d <= 6:
                raise InputError(f"rolls.{bid}", f"a d6 roll is 1..6, not {d}")
            hits += d <= fp
    return hits


def air_hits(rolls: Sequence[int], hit_on: int) -> int:
    """Combat air support hits: each die hits on at most ``hit_on``."""
    return sum(1 for d in rolls if d <= hit_on)


def retreating_side(attacker_hits: int, defender_hits: int) -> str:
    """Which side retreats when both still stand: the one that scored fewer hits; the
    attacker on a tie (it failed to take the hex)."""
    return "defender" if attacker_hits > defender_hits else "attacker"
