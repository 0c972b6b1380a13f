"""Fuzz: readings (every rule system's typed switches) from arbitrary JSON objects, as given by
``--readings FILE``, ``--reading KEY=VALUE``, a scenario's ``[readings]`` or a save.

The promise: the readings are built, or one GrognardError names the reading and what it takes.
"""

from __future__ import annotations

import contextlib

from fuzz_support import attempt, fuzz_settings, json_value
from hypothesis import given
from hypothesis import strategies as st

from grognard.core.errors import GrognardError
from grognard.core.readings import Readings, parse_pairs
from grognard.eurofront.readings import EuroFrontReadings
from grognard.europa.air.interdiction import InterdictionReadings
from grognard.europa.air.phase import AirPhaseReadings
from grognard.europa.air.strategic_bombing import StrategicBombingReadings
from grognard.europa.surprise.general import SurpriseReadings
from grognard.third_reich.air_naval.air_zones import AirZoneReadings
from grognard.third_reich.air_naval.naval_ops import NavalReadings
from grognard.third_reich.combat.airborne import AirborneReadings
from grognard.third_reich.economy.readings import StrategicReadings
from grognard.third_reich.turn.combat_readings import TRCombatReadings

KINDS: list[type[Readings]] = [
    EuroFrontReadings, AirPhaseReadings, InterdictionReadings, StrategicBombingReadings,
    SurpriseReadings, AirZoneReadings, AirborneReadings, TRCombatReadings, NavalReadings,
    StrategicReadings]


@st.composite
def readings(draw):
    kind = draw(st.sampled_from(KINDS))
    names = [f.name for f in kind.__dataclass_fields__.values()]
    keys = st.one_of(st.sampled_from(names), st.text(max_size=10)) if names else st.text()
    if draw(st.booleans()):
        pairs = draw(st.lists(st.one_of(
            st.builds(lambda k, v: f"{k}={v}", keys, st.text(max_size=10)),
            st.text(max_size=12)), max_size=4))
        return kind, pairs
    return kind, draw(st.dictionaries(keys, json_value, max_size=4))


@fuzz_settings(brief=60)
@given(readings())
def test_fuzz_readings(kr):
    kind, raw = kr
    with attempt("readings", kr), contextlib.suppress(GrognardError):
        r = kind.from_mapping(parse_pairs(raw) if isinstance(raw, list) else raw)
        assert kind.from_mapping(r.to_mapping()) == r
