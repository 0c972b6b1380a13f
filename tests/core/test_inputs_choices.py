"""A scenario value outside a field's allowed choices is one line that lists the choices
(core/inputs.py ``convert``; issue 27: one clear line naming what and where)."""

from __future__ import annotations

import enum
from typing import Literal

import msgspec
import pytest

from grognard.core.inputs import InputFileError, convert


class Kind(enum.Enum):
    FIGHTER = "fighter"
    BOMBER = "bomber"


class Wing(msgspec.Struct, forbid_unknown_fields=True):
    type: Kind
    series: Literal["A", "B"] = "A"
    mode: Literal["x", "y"] | None = None


@pytest.mark.parametrize(("raw", "line"), [
    ({"type": "fighter", "series": "points"},
     "s.toml, field air[0].series: expected one of 'A', 'B', not 'points'"),
    ({"type": "fighter", "mode": "z"},
     "s.toml, field air[0].mode: expected one of 'x', 'y', not 'z'"),
    ({"type": "zeppelin"},
     "s.toml, field air[0].type: expected one of 'fighter', 'bomber', not 'zeppelin'"),
])
def test_a_bad_choice_lists_the_allowed_ones(raw, line):
    with pytest.raises(InputFileError) as err:
        convert(raw, Wing, "s.toml", "air[0]")
    assert str(err.value) == line


def test_a_good_choice_converts():
    assert convert({"type": "bomber", "series": "B"}, Wing, "s.toml") == Wing(Kind.BOMBER, "B")
