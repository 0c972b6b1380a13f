"""core/hexgrid: axial math, hexsides and printed labels (C-HEX)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grognard.core.errors import InputError
from grognard.core.hexgrid import (
    DIRECTIONS,
    Hex,
    Layout,
    direction_to,
    distance,
    hex_range,
    hexside,
    hexside_between,
    hexside_hexes,
    line,
    neighbor,
    neighbors,
    ring,
)

coords = st.integers(-60, 60)
hexes = st.builds(Hex, coords, coords)
layouts = st.builds(Layout, offset=st.sampled_from(["odd-q", "even-q", "odd-r", "even-r"]),
                    style=st.sampled_from(["numeric", "letter"]))


@given(hexes, hexes)
def test_distance_symmetric_and_zero_only_on_self(a, b):
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_triangle_inequality(a, b, c):
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes)
def test_neighbors_at_distance_one_and_directions_invert(h):
    for d, n in enumerate(neighbors(h)):
        assert distance(h, n) == 1
        assert direction_to(h, n) == d
        assert neighbor(n, d + 3) == h


@given(hexes, st.integers(0, 6))
def test_ring_and_range_sizes(h, radius):
    r = ring(h, radius)
    assert len(r) == (6 * radius if radius else 1)
    assert all(distance(h, x) == radius for x in r)
    assert len(set(hex_range(h, radius))) == 3 * radius * (radius + 1) + 1


@given(hexes, hexes)
def test_line_is_connected_and_minimal(a, b):
    ln = line(a, b)
    assert ln[0] == a and ln[-1] == b and len(ln) == distance(a, b) + 1
    assert all(distance(x, y) == 1 for x, y in itertools.pairwise(ln))


@given(hexes, st.integers(0, 5))
def test_hexside_key_is_shared_by_both_hexes(h, d):
    n = neighbor(h, d)
    assert hexside(h, d) == hexside(n, d + 3) == hexside_between(n, h)
    assert set(hexside_hexes(hexside(h, d))) == {h, n}
    assert hexside(h, d).direction in (0, 1, 2)


def test_six_distinct_hexsides():
    assert len({hexside(Hex(0, 0), d) for d in range(6)}) == 6
    assert len(DIRECTIONS) == 6


@given(layouts, st.integers(0, 98), st.integers(0, 98))
def test_label_round_trip(layout, col, row):
    h = layout.from_offset(col, row)
    assert layout.to_offset(h) == (col, row)
    assert layout.from_label(layout.to_label(h)) == h


def test_printed_labels():
    lay = Layout()  # odd-q, numeric, origin 1
    h = lay.from_label("0412")
    assert lay.to_offset(h) == (3, 11)
    assert lay.to_label(h) == "0412"
    letter = Layout(offset="odd-r", style="letter")
    assert letter.to_label(letter.from_label("M10")) == "M10"
    assert letter.to_offset(letter.from_label("M10")) == (9, 12)
    assert letter.to_label(letter.from_offset(0, 26)) == "AA1"


@pytest.mark.parametrize("bad", ["412", "04x2", "", "12345"])
def test_bad_numeric_labels(bad):
    with pytest.raises(InputError, match="hex label"):
        Layout().from_label(bad)


def test_not_adjacent():
    with pytest.raises(InputError, match="not adjacent"):
        direction_to(Hex(0, 0), Hex(2, 0))
