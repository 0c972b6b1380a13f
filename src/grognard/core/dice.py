"""Dice (C-RNG): seeded named streams, die expressions, and exact distributions.

Every die grognard rolls comes from a :class:`DiceStream` derived from the game's seed and a
stream name, so a replay of the same commands draws the same numbers. Exact odds come from
:class:`Distribution`, which holds integer weights over a common denominator (fast numpy
integer convolution, converted to ``Fraction`` only at the edge).

>>> DiceExpr.parse("2d6+1")
DiceExpr(count=2, sides=6, modifier=1)
>>> d = Distribution.of("2d6")
>>> d.probability(7)
Fraction(1, 6)
>>> d.shift(3).clamp(2, 12).probability(12)
Fraction(5, 18)
>>> Dice(7).stream("combat").roll("2d6") == Dice(7).stream("combat").roll("2d6")
True
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from grognard.core.errors import DiceError

T = TypeVar("T", bound=Hashable)

_EXPR = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")
_CONST = re.compile(r"^\s*([+-]?\d+)\s*$")


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A die expression such as ``1d6``, ``2d6``, ``1d10`` or ``2d6+1``."""

    count: int
    sides: int
    modifier: int = 0

    @classmethod
    def parse(cls, text: str) -> DiceExpr:
        """Parse ``NdS[+-M]``; ``d6`` means ``1d6``.

        >>> DiceExpr.parse("d10"), str(DiceExpr.parse(" 2D6 - 2 "))
        (DiceExpr(count=1, sides=10, modifier=0), '2d6-2')
        """
        m = _EXPR.match(text)
        if not m:
            raise DiceError(f"cannot parse die expression {text!r} (expected e.g. 1d6, 2d6+1)")
        count = int(m.group(1)) if m.group(1) else 1
        sides = int(m.group(2))
        mod = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
        if not 1 <= count <= 1000:
            raise DiceError(f"die count must be 1..1000 in {text!r}")
        if not 2 <= sides <= 1000:
            raise DiceError(f"a die needs 2..1000 sides in {text!r}")
        return cls(count, sides, mod)

    def __str__(self) -> str:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod}"

    @property
    def minimum(self) -> int:
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.modifier


class Distribution:
    """Exact distribution over consecutive integers as integer weights.

    ``weights[i]`` is the number of equally likely ways to get ``lo + i`` out of ``total``.
    """

    __slots__ = ("lo", "total", "weights")

    def __init__(self, lo: int, weights: npt.NDArray[np.int64]) -> None:
        w = np.asarray(weights, dtype=np.int64)
        nz = np.nonzero(w)[0]
        if len(nz) == 0:
            raise DiceError("a distribution needs at least one outcome")
        self.lo = lo + int(nz[0])
        self.weights = w[nz[0] : nz[-1] + 1].copy()
        self.total = int(self.weights.sum())

    @classmethod
    def die(cls, sides: int) -> Distribution:
        return cls(1, np.ones(sides, dtype=np.int64))

    @classmethod
    def constant(cls, value: int) -> Distribution:
        return cls(value, np.ones(1, dtype=np.int64))

    @classmethod
    def of(cls, expr: str | DiceExpr) -> Distribution:
        """Distribution of a die expression by repeated integer convolution."""
        e = DiceExpr.parse(expr) if isinstance(expr, str) else expr
        one = np.ones(e.sides, dtype=np.int64)
        w = one
        for _ in range(e.count - 1):
            w = np.convolve(w, one)
        return cls(e.count + e.modifier, w)

    @property
    def hi(self) -> int:
        return self.lo + len(self.weights) - 1

    def __add__(self, other: Distribution | int) -> Distribution:
        if isinstance(other, int):
            return self.shift(other)
        return Distribution(self.lo + other.lo, np.convolve(self.weights, other.weights))

    def shift(self, m: int) -> Distribution:
        """Add a constant (a die-roll modifier)."""
        return Distribution(self.lo + m, self.weights)

    def clamp(self, lo: int, hi: int) -> Distribution:
        """Clamp outcomes to ``lo..hi`` (e.g. Europa revised modified 2D6 to 2..12)."""
        if lo > hi:
            raise DiceError(f"empty clamp range {lo}..{hi}")
        out = np.zeros(hi - lo + 1, dtype=np.int64)
        for value, weight in self.items():
            out[min(max(value, lo), hi) - lo] += weight
        return Distribution(lo, out)

    def items(self) -> Iterator[tuple[int, int]]:
        """(outcome, weight) pairs with non-zero weight."""
        for i, w in enumerate(self.weights.tolist()):
            if w:
                yield self.lo + i, int(w)

    def probability(self, value: int) -> Fraction:
        i = value - self.lo
        if 0 <= i < len(self.weights):
            return Fraction(int(self.weights[i]), self.total)
        return Fraction(0)

    def probabilities(self) -> dict[int, Fraction]:
        return {v: Fraction(w, self.total) for v, w in self.items()}

    def map(self, resolve: Callable[[int], T]) -> dict[T, Fraction]:
        """Exact distribution of ``resolve(roll)``: the one source of truth for odds.

        >>> Distribution.of("1d6").map(lambda r: r >= 5)
        {False: Fraction(2, 3), True: Fraction(1, 3)}
        """
        acc: dict[T, int] = {}
        for value, weight in self.items():
            key = resolve(value)
            acc[key] = acc.get(key, 0) + weight
        return {k: Fraction(w, self.total) for k, w in acc.items()}

    def outcome_lookup(self) -> npt.NDArray[np.int16]:
        """Each outcome repeated by its weight: index it with a uniform integer in
        ``0..total-1`` to sample (one random draw per sample, e.g. 36 entries for 2D6)."""
        values = np.arange(self.lo, self.hi + 1, dtype=np.int16)
        return np.repeat(values, self.weights)

    def expectation(self, value_of: Callable[[int], Fraction | int] | None = None) -> Fraction:
        """Exact expected value of ``value_of(roll)`` (the roll itself by default)."""
        acc = Fraction(0)
        for v, w in self.items():
            acc += Fraction(value_of(v) if value_of else v) * w
        return acc / self.total

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return self.lo == other.lo and np.array_equal(self.weights, other.weights)

    def __hash__(self) -> int:
        return hash((self.lo, tuple(self.weights.tolist())))

    def __repr__(self) -> str:
        return f"Distribution(lo={self.lo}, weights={self.weights.tolist()})"


def clamp_roll(natural: int, drm: int, lo: int, hi: int) -> int:
    """A modified roll: natural + DRM, clamped to ``lo..hi``.

    >>> clamp_roll(11, 3, 2, 12), clamp_roll(2, -4, 2, 12), clamp_roll(7, 1, 2, 12)
    (12, 2, 8)
    """
    return min(max(natural + drm, lo), hi)


def modified_roll_weights(
    base: Distribution, drms: range | list[int], lo: int, hi: int
) -> npt.NDArray[np.int64]:
    """Matrix of exact weights ``W[i, r - lo]`` of modified roll ``r`` under ``drms[i]``.

    Vectorised: one scatter-add per DRM over the base outcomes. Rows sum to ``base.total``.
    """
    values = np.arange(base.lo, base.hi + 1)
    drm_arr = np.asarray(list(drms), dtype=np.int64)
    clamped = np.clip(values[None, :] + drm_arr[:, None], lo, hi) - lo
    out = np.zeros((len(drm_arr), hi - lo + 1), dtype=np.int64)
    rows = np.repeat(np.arange(len(drm_arr)), len(values))
    np.add.at(out, (rows, clamped.ravel()), np.tile(base.weights, len(drm_arr)))
    return out


def column_outcome_weights(
    roll_weights: npt.NDArray[np.int64], codes: npt.NDArray[np.integer], n_codes: int
) -> npt.NDArray[np.int64]:
    """Exact weights of every result code of every table column under every DRM.

    ``roll_weights[d, r]`` from :func:`modified_roll_weights`; ``codes[r, c]`` is the result code
    of row ``r`` (same roll indexing) in column ``c``. Returns ``P[d, c, k]`` (integer weights).
    """
    n_rows, n_cols = codes.shape
    onehot = np.zeros((n_rows, n_cols, n_codes), dtype=np.int64)
    onehot[np.arange(n_rows)[:, None], np.arange(n_cols)[None, :], codes] = 1
    out: npt.NDArray[np.int64] = (roll_weights @ onehot.reshape(n_rows, -1)).reshape(
        len(roll_weights), n_cols, n_codes
    )
    return out


@dataclass(frozen=True, slots=True)
class Roll:
    """One roll as recorded in the event log: the expression, each die, and the total."""

    expr: str
    dice: tuple[int, ...]
    total: int

    def to_json(self) -> dict[str, object]:
        return {"expr": self.expr, "dice": list(self.dice), "total": self.total}


def _spawn_key(name: str) -> tuple[int, ...]:
    digest = hashlib.sha256(name.encode("utf-8")).digest()
    return tuple(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4))


#: Stream name -> its (bit generator state, draws) at the start of a transaction.
Journal = dict[str, tuple[dict[str, object], int]]


class DiceStream:
    """A reproducible stream of dice named ``name`` under ``seed``.

    Different names give independent streams; the same (seed, name) always gives the same rolls.
    """

    def __init__(self, seed: int, name: str) -> None:
        if seed < 0:
            raise DiceError(f"seed must be a non-negative integer, not {seed}")
        self.seed = seed
        self.name = name
        ss = np.random.SeedSequence(entropy=seed, spawn_key=_spawn_key(name))
        self._rng = np.random.Generator(np.random.PCG64(ss))
        self.draws = 0
        #: The open transaction's journal (:meth:`Dice.begin`), where the stream writes its
        #: position before its first draw in it; None when no transaction is open.
        self._journal: Journal | None = None

    def _touch(self) -> None:
        """About to draw: in a transaction, write the position down the first time."""
        j = self._journal
        if j is not None and self.name not in j:
            j[self.name] = (dict(self._rng.bit_generator.state), self.draws)

    def die(self, sides: int) -> int:
        """One die of ``sides`` faces, 1..sides."""
        self._touch()
        self.draws += 1
        return int(self._rng.integers(1, sides + 1))

    def roll(self, expr: str | DiceExpr) -> Roll:
        """Roll a die expression, recording each die."""
        e = DiceExpr.parse(expr) if isinstance(expr, str) else expr
        dice = tuple(self.die(e.sides) for _ in range(e.count))
        return Roll(str(e), dice, sum(dice) + e.modifier)

    def sample(self, expr: str | DiceExpr, n: int) -> npt.NDArray[np.int16]:
        """``n`` independent totals of ``expr`` as a numpy array (for Monte Carlo)."""
        e = DiceExpr.parse(expr) if isinstance(expr, str) else expr
        self._touch()
        dtype = np.int8 if e.count * e.sides + abs(e.modifier) < 127 else np.int16
        total = np.full(n, e.modifier, dtype=np.int16)
        for _ in range(e.count):
            total += self._rng.integers(1, e.sides + 1, size=n, dtype=dtype)
        self.draws += n * e.count
        return total

    def sample_distribution(self, dist: Distribution, n: int) -> npt.NDArray[np.int16]:
        """``n`` outcomes of an exact distribution, one uniform draw each (fast Monte Carlo)."""
        lookup = dist.outcome_lookup()
        dtype = np.int8 if dist.total <= 127 else np.int32
        self._touch()
        self.draws += n
        out: npt.NDArray[np.int16] = lookup[self._rng.integers(0, dist.total, size=n,
                                                                dtype=dtype)]
        return out

    def uniform_indices(self, total: int, n: int) -> npt.NDArray[np.integer]:
        """``n`` uniform integers in ``0..total-1`` (to index a precomputed outcome lookup)."""
        dtype = np.int8 if total <= 127 else np.int32
        self._touch()
        self.draws += n
        out: npt.NDArray[np.integer] = self._rng.integers(0, total, size=n, dtype=dtype)
        return out

    def choice(self, options: int) -> int:
        """A uniformly random index in ``0..options-1`` (random selections, e.g. SUR-22)."""
        if options < 1:
            raise DiceError("choice needs at least one option")
        self._touch()
        self.draws += 1
        return int(self._rng.integers(0, options))


class Dice:
    """All dice streams of one game, derived from its seed."""

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or seed < 0:
            raise DiceError(f"seed must be a non-negative integer, not {seed!r}")
        self.seed = seed
        self._streams: dict[str, DiceStream] = {}
        #: The open transaction (:meth:`begin`): its journal and the streams it began with.
        self._journal: Journal | None = None
        self._before: frozenset[str] = frozenset()

    def stream(self, name: str) -> DiceStream:
        s = self._streams.get(name)
        if s is None:
            s = self._streams[name] = DiceStream(self.seed, name)
            s._journal = self._journal
        return s

    def begin(self) -> None:
        """Open a transaction (a command): each stream writes its position down before its
        first draw, so :meth:`rollback` can give back what the command drew - the same as a
        :meth:`snapshot` taken now and restored, without reading every stream's position."""
        journal: Journal = {}
        self._journal = journal
        self._before = frozenset(self._streams)
        for s in self._streams.values():
            s._journal = journal

    def commit(self) -> None:
        """Close the transaction, keeping what was drawn."""
        self._journal = None
        for s in self._streams.values():
            s._journal = None

    def rollback(self) -> None:
        """Close the transaction, every stream back where it was at :meth:`begin` (streams
        created since are dropped)."""
        journal = self._journal if self._journal is not None else {}
        self.commit()
        for name in [n for n in self._streams if n not in self._before]:
            del self._streams[name]
        for name, (state, draws) in journal.items():
            s = self._streams.get(name)
            if s is not None:
                s._rng.bit_generator.state = state
                s.draws = draws

    def roll(self, expr: str | DiceExpr, stream: str = "main") -> Roll:
        return self.stream(stream).roll(expr)

    def snapshot(self) -> dict[str, tuple[dict[str, object], int]]:
        """The position of every stream, so a failed command can give back its draws."""
        return {
            name: (dict(s._rng.bit_generator.state), s.draws) for name, s in self._streams.items()
        }

    def draws(self) -> int:
        """Dice drawn so far from every stream (a command that drew any rolled a die)."""
        return sum(s.draws for s in self._streams.values())

    def snapshot_json(self) -> dict[str, object]:
        """:meth:`snapshot` as JSON data (for a save's snapshot of the game)."""
        return {name: {"state": state, "draws": draws}
                for name, (state, draws) in sorted(self.snapshot().items())}

    def restore_json(self, raw: object) -> None:
        """Restore a :meth:`snapshot_json`; raises DiceError naming what is malformed."""
        if not isinstance(raw, dict):
            raise DiceError("dice snapshot must be an object of streams")
        snap: dict[str, tuple[dict[str, object], int]] = {}
        for name, v in raw.items():
            if (not isinstance(v, dict) or not isinstance(v.get("state"), dict)
                    or isinstance(v.get("draws"), bool) or not isinstance(v.get("draws"), int)):
                raise DiceError(f"dice snapshot stream {name!r} needs a state and draws")
            snap[str(name)] = (v["state"], v["draws"])
        try:
            self.restore(snap)
        except (TypeError, ValueError, KeyError) as exc:
            raise DiceError(f"dice snapshot: {exc}") from None

    def restore(self, snap: dict[str, tuple[dict[str, object], int]]) -> None:
        """Return every stream to a :meth:`snapshot` (streams created since are dropped)."""
        for name in list(self._streams):
            if name not in snap:
                del self._streams[name]
        for name, (state, draws) in snap.items():
            s = self.stream(name)
            s._rng.bit_generator.state = state
            s.draws = draws


def fresh_seed() -> int:
    """A new game's seed when none is given: 63 bits from the operating system's entropy
    (``secrets``), never a scenario's published seed, so no one can predict the rolls. The seed
    is recorded in the save, so the game still replays exactly."""
    import secrets

    return secrets.randbits(63)
