"""Exact arithmetic helpers (C-FRAC): rounding only where the rules say, and JSON encoding.

Game quantities are ``int`` or ``Fraction``, never ``float``.

>>> from fractions import Fraction as F
>>> ceil_q(F(7, 3)), floor_q(F(7, 3)), round_half_up(F(5, 2)), round06(F(9, 5))
(3, 2, 3, 2)
>>> exact_json(F(544, 5)), exact_json(F(16)), exact_json(F(2, 3))
('108.8', 16, '2/3')
>>> ratio_str(F(1, 36)), ratio_str(F(1))
('1/36', '1/1')
"""

from __future__ import annotations

import math
from fractions import Fraction

Exact = int | Fraction


def q(value: int | str | Fraction) -> Fraction:
    """Parse an exact quantity: ``"108.8"``, ``"2/3"``, ``5`` or a Fraction (never a float)."""
    if isinstance(value, bool | float):
        raise TypeError("exact quantities are int, Fraction or str, never float or bool")
    return Fraction(value)


def floor_q(x: Exact) -> int:
    """Round down."""
    return math.floor(x)


def ceil_q(x: Exact) -> int:
    """Round up."""
    return math.ceil(x)


def round_half_up(x: Exact) -> int:
    """Nearest integer, .5 going up (not banker's rounding)."""
    return math.floor(Fraction(x) + Fraction(1, 2))


def round06(x: Exact) -> int:
    """The 3R "0.6 rule": a fractional part of 0.6 or more rounds up, less rounds down."""
    fx = Fraction(x)
    whole = math.floor(fx)
    return whole + 1 if fx - whole >= Fraction(3, 5) else whole


def _decimal_places(x: Fraction) -> int | None:
    """Digits after the point of ``x``'s finite decimal expansion, or None if it has none."""
    d, twos, fives = x.denominator, 0, 0
    while d % 2 == 0:
        d, twos = d // 2, twos + 1
    while d % 5 == 0:
        d, fives = d // 5, fives + 1
    return max(twos, fives) if d == 1 else None


def is_terminating(x: Fraction) -> bool:
    """True when ``x`` has a finite decimal expansion (denominator of the form 2^a 5^b)."""
    return _decimal_places(x) is not None


def decimal_text(x: Fraction) -> str:
    """The exact decimal text of a terminating fraction (no floating point, no rounding).

    >>> decimal_text(Fraction(2000000000000000000000000001, 2))
    '1000000000000000000000000000.5'
    """
    places = _decimal_places(x)
    if places is None:
        raise ValueError(f"{x} has no finite decimal expansion")
    scaled = abs(x.numerator) * (10**places // x.denominator)
    digits = str(scaled).rjust(places + 1, "0")
    sign = "-" if x < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}" if places else f"{sign}{digits}"


def exact_json(x: Exact) -> int | str:
    """JSON form of an exact quantity: integers as numbers, others as exact strings.

    Terminating decimals are written as decimals (``"108.8"``), others as ``"a/b"``.
    """
    if type(x) is int:  # the common case: itself
        return x
    fx = x if type(x) is Fraction else Fraction(x)
    if fx.denominator == 1:
        return int(fx)
    if is_terminating(fx):
        return decimal_text(fx)
    return f"{fx.numerator}/{fx.denominator}"


def ratio_str(x: Exact) -> str:
    """A probability or ratio always as ``"a/b"`` (``"1/1"`` for certainty)."""
    fx = Fraction(x)
    return f"{fx.numerator}/{fx.denominator}"


def exact_text(x: Exact) -> str:
    """Human form: ``108.8``, ``16``, ``2/3``."""
    return str(exact_json(x))
