"""Dice nobody can rig: a hash commitment to the game's seed, and the check of a finished game.

At creation the server draws a random seed and a random nonce and publishes
``sha256("grognard-seed:<nonce>:<seed>")``; the seed and nonce are revealed when the game ends.
Every die of the game comes from the seed's named streams (core/dice.py) and is recorded in the
events, so anyone holding the revealed seed and the log re-derives every roll.

>>> c = commitment(42, "ab")
>>> len(c), check_commitment(42, "ab", c), check_commitment(43, "ab", c)
(64, True, False)
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from grognard.core.errors import GrognardError
from grognard.core.inputs import InputFileError, load_json_text
from grognard.engine.game import DICE_ROLLED, Game
from grognard.engine.save import loads, save_data

COMMITMENT_FORMAT = "sha256(grognard-seed:<nonce>:<seed>)"


class VerifyError(GrognardError):
    """A save whose seed, commitment or dice do not check out: names what failed."""


def commitment(seed: int, nonce: str) -> str:
    return hashlib.sha256(f"grognard-seed:{nonce}:{seed}".encode()).hexdigest()


def check_commitment(seed: int, nonce: str, published: str) -> bool:
    return secrets.compare_digest(commitment(seed, nonce), published)


def new_seed() -> tuple[int, str]:
    """A fresh secret seed (63 random bits) and nonce (128 random bits)."""
    return secrets.randbits(63), secrets.token_hex(16)


def signed_save(game: Game, nonce: str, published: str) -> dict[str, Any]:
    """The engine's save of ``game`` plus the commitment published at its creation."""
    data = save_data(game)
    data["commitment"] = {"format": COMMITMENT_FORMAT, "sha256": published, "nonce": nonce}
    return data


def verify_save_text(text: str, where: str = "<save>") -> dict[str, Any]:
    """Check a finished game's save: the seed matches the commitment, and replaying the log from
    that seed re-derives every recorded event (every die) and the final state hash.

    Raises :class:`VerifyError` (or the engine's ReplayMismatch/SaveError) naming what failed."""
    try:
        raw = load_json_text(text, where)  # the gate: depth, digits, NaN before any parser
    except InputFileError as exc:
        raise VerifyError(str(exc)) from None
    com = raw.get("commitment") if isinstance(raw, dict) else None
    if not isinstance(com, dict) or not isinstance(com.get("sha256"), str) \
            or not isinstance(com.get("nonce"), str):
        raise VerifyError(f"{where}: no seed commitment (commitment.sha256 and nonce)")
    seed = raw.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise VerifyError(f"{where}: seed must be an integer from 0 to 2**63-1")
    if not check_commitment(seed, com["nonce"], com["sha256"]):
        raise VerifyError(f"{where}: the seed does not match the commitment published at "
                          "creation")
    game = loads(text, where)
    rolls = sum(1 for s in game.steps if s.barrier == DICE_ROLLED)
    dice = sum(len(_dice_in(evs)) for evs in raw.get("events", []))
    return {"valid": True, "commitment": com["sha256"], "seed": seed,
            "commands": len(game.commands), "commands_with_rolls": rolls, "dice": dice,
            "state_hash": game.state_hash()}


DICE_KEYS = frozenset({"dice", "barrage_dice", "die", "dice_rolled"})


def _dice_in(value: Any) -> list[int]:
    """Every die recorded under a dice key anywhere in ``value`` (events' JSON)."""
    out: list[int] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k in DICE_KEYS and isinstance(v, list) and all(type(x) is int for x in v):
                out.extend(v)
            elif k in DICE_KEYS and type(v) is int:
                out.append(v)
            else:
                out.extend(_dice_in(v))
    elif isinstance(value, list):
        for v in value:
            out.extend(_dice_in(v))
    return out
