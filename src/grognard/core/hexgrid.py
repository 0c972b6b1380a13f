"""Hex grid (C-HEX): axial coordinates, hexsides and printed labels.

Axial coordinates follow Red Blob Games' conventions: ``Hex(q, r)``, ``s = -q - r``; direction
``d`` is one of six unit vectors, numbered 0..5 counter-clockwise from "east" (+q).

>>> a, b = Hex(0, 0), Hex(3, -1)
>>> distance(a, b), len(ring(a, 2)), len(hex_range(a, 2))
(3, 12, 19)
>>> LAYOUT.to_label(LAYOUT.from_label("0412"))
'0412'
>>> Layout(style="letter", offset="odd-r").to_label(Hex(0, 0))
'A1'
>>> hexside_between(Hex(0, 0), Hex(1, 0)) == hexside_between(Hex(1, 0), Hex(0, 0))
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, NamedTuple

from grognard.core.errors import InputError


class Hex(NamedTuple):
    """A hex in axial coordinates."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: tuple[int, ...]) -> Hex:  # type: ignore[override]
        return Hex(self.q + other[0], self.r + other[1])

    def __sub__(self, other: tuple[int, ...]) -> Hex:
        return Hex(self.q - other[0], self.r - other[1])


DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1),
)


def neighbor(h: Hex, direction: int) -> Hex:
    d = DIRECTIONS[direction % 6]
    return Hex(h.q + d.q, h.r + d.r)


def neighbors(h: Hex) -> list[Hex]:
    """The six adjacent hexes, in direction order 0..5."""
    return [Hex(h.q + d.q, h.r + d.r) for d in DIRECTIONS]


def direction_to(a: Hex, b: Hex) -> int:
    """The direction from ``a`` to adjacent hex ``b``."""
    try:
        return DIRECTIONS.index(Hex(b.q - a.q, b.r - a.r))
    except ValueError:
        raise InputError("hex", f"{b} is not adjacent to {a}") from None


def distance(a: Hex, b: Hex) -> int:
    """Hex distance: the number of hex steps from ``a`` to ``b``."""
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(center: Hex, radius: int) -> list[Hex]:
    """Hexes at exactly ``radius`` from ``center`` (the centre itself for radius 0)."""
    if radius < 0:
        raise InputError("radius", "must be non-negative")
    if radius == 0:
        return [center]
    out = []
    h = Hex(center.q + DIRECTIONS[4].q * radius, center.r + DIRECTIONS[4].r * radius)
    for i in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbor(h, i)
    return out


def hex_range(center: Hex, radius: int) -> list[Hex]:
    """All hexes within ``radius`` of ``center``."""
    out = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            out.append(Hex(center.q + dq, center.r + dr))
    return out


def _cube_round(fq: float, fr: float) -> Hex:
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The straight line of hexes from ``a`` to ``b`` inclusive (ties nudged consistently)."""
    n = distance(a, b)
    if n == 0:
        return [a]
    eps = 1e-6
    aq, ar = a.q + eps, a.r + eps
    bq, br = b.q + eps, b.r + eps
    return [_cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


class Hexside(NamedTuple):
    """One shared edge, keyed canonically by a hex and a direction in 0..2."""

    hex: Hex
    direction: int


def hexside(h: Hex, direction: int) -> Hexside:
    """The canonical key of the edge of ``h`` in ``direction``."""
    d = direction % 6
    if d < 3:
        return Hexside(h, d)
    return Hexside(neighbor(h, d), d - 3)


def hexside_between(a: Hex, b: Hex) -> Hexside:
    return hexside(a, direction_to(a, b))


def hexside_hexes(side: Hexside) -> tuple[Hex, Hex]:
    return side.hex, neighbor(side.hex, side.direction)


OffsetKind = Literal["odd-q", "even-q", "odd-r", "even-r"]
_NUMERIC = re.compile(r"^\s*(\d+)\s*$")
_LETTER = re.compile(r"^\s*([A-Za-z]+)\s*(\d+)\s*$")


def _letters(n: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (spreadsheet style)."""
    s = ""
    n += 1
    while n:
        n, rem = divmod(n - 1, 26)
        s = chr(65 + rem) + s
    return s


def _letters_index(text: str) -> int:
    n = 0
    for ch in text.upper():
        n = n * 26 + (ord(ch) - 64)
    return n - 1


@dataclass(frozen=True, slots=True)
class Layout:
    """How a printed map labels its hexes.

    ``style="numeric"``: column then row, each ``digits`` wide ("0412" is column 4, row 12).
    ``style="letter"``: row letters then column number ("M10", the 3R style).
    ``offset`` is Red Blob's offset layout; ``origin`` the number of the first column/row.
    """

    offset: OffsetKind = "odd-q"
    style: Literal["numeric", "letter"] = "numeric"
    origin: int = 1
    digits: int = 2

    def to_offset(self, h: Hex) -> tuple[int, int]:
        q, r = h
        if self.offset == "odd-q":
            return q, r + (q - (q & 1)) // 2
        if self.offset == "even-q":
            return q, r + (q + (q & 1)) // 2
        if self.offset == "odd-r":
            return q + (r - (r & 1)) // 2, r
        return q + (r + (r & 1)) // 2, r

    def from_offset(self, col: int, row: int) -> Hex:
        if self.offset == "odd-q":
            return Hex(col, row - (col - (col & 1)) // 2)
        if self.offset == "even-q":
            return Hex(col, row - (col + (col & 1)) // 2)
        if self.offset == "odd-r":
            return Hex(col - (row - (row & 1)) // 2, row)
        return Hex(col - (row + (row & 1)) // 2, row)

    def to_label(self, h: Hex) -> str:
        col, row = self.to_offset(h)
        c, r = col + self.origin, row + self.origin
        if self.style == "letter":
            if row < 0 or c < 0:
                raise InputError("hex", f"{h} has no letter label (negative row)")
            return f"{_letters(row)}{c}"
        if c < 0 or r < 0:
            raise InputError("hex", f"{h} has no printed label (negative column or row)")
        return f"{c:0{self.digits}d}{r:0{self.digits}d}"

    def from_label(self, label: str) -> Hex:
        if self.style == "letter":
            m = _LETTER.match(label)
            if not m:
                raise InputError("hex", f"{label!r} is not a letter-number hex label like M10")
            row = _letters_index(m.group(1))
            col = int(m.group(2)) - self.origin
            return self.from_offset(col, row)
        m = _NUMERIC.match(label)
        if not m or len(m.group(1)) != 2 * self.digits:
            raise InputError(
                "hex", f"{label!r} is not a {2 * self.digits}-digit hex label like 0412"
            )
        text = m.group(1)
        col = int(text[: self.digits]) - self.origin
        row = int(text[self.digits :]) - self.origin
        return self.from_offset(col, row)


LAYOUT = Layout()
