"""TR-69 sea SR resolved with interception rolls (TR-55) and one combat round (TR-49)."""

from __future__ import annotations

import pytest

from grognard.core.dice import DiceStream
from grognard.core.errors import IllegalOrder, InputError
from grognard.third_reich.air_naval.airnaval import naval_naval
from grognard.third_reich.air_naval.naval import InterceptionAttempt
from grognard.third_reich.air_naval.naval_ops import AirZone
from grognard.third_reich.air_naval.sea_zones import sea_zones
from grognard.third_reich.movement.sr import SeaSROrder, SRStatus, UnitClass
from grognard.third_reich.movement.sr_sea import ZoneInterception, resolve_sea_sr, roll_sea_sr
from grognard.third_reich.turn.forces import Fleet
from grognard.third_reich.turn.powers import Power

SEA = sea_zones()
ORDER = SeaSROrder("inf1", UnitClass.GROUND, Power.UK, ("atlantic", "mediterranean"),
                   "portsmouth", "alexandria",
                   {"atlantic": (Fleet("h1", 9),),
                    "mediterranean": (Fleet("m1", 5), Fleet("m2", 5))})
ITALIANS = (Fleet("it1", 9),)


def med(port: str = "taranto", air: AirZone = AirZone.NONE) -> ZoneInterception:
    return ZoneInterception("mediterranean",
                            (InterceptionAttempt(port, ITALIANS, "inf1", 3),), air)


def test_tr69_interception_then_one_round_blocks_when_escort_drops_below_9() -> None:
    """002_67ce4e3275b117b3.txt: "Roll for such interception normally and conduct 1 round of
    naval combat between any such intercepting fleets and the at-sea phasing fleets in the
    zone, only." 10 escort factors vs 9: the Italians' roll 6 scores 3 hits -> 7 left."""
    assert naval_naval(10, 9, 5, 6).hits_on_phasing == 3
    res = resolve_sea_sr(ORDER, SEA, [med()], {"taranto": 5}, iter([5, 6]))
    assert res.rolls[0].intercepted and res.rolls[0].needed == 5
    assert res.record.status is SRStatus.BLOCKED and res.record.blocked_in == "mediterranean"
    assert res.record.escort_factors["mediterranean"] == 7
    assert res.to_json()["combat_rolls"] == {"mediterranean": [5, 6]}


def test_tr69_escort_holding_nine_lets_the_sr_through() -> None:
    assert naval_naval(10, 9, 5, 3).hits_on_phasing == 1
    res = resolve_sea_sr(ORDER, SEA, [med()], {"taranto": 1}, iter([5, 3]))
    assert res.record.status is SRStatus.DONE
    assert res.record.escort_factors["mediterranean"] == 9


def test_tr69_failed_interception_means_no_combat() -> None:
    res = resolve_sea_sr(ORDER, SEA, [med()], {"taranto": 6}, iter([]))
    assert not res.rolls[0].intercepted and res.combats == {}
    assert res.record.status is SRStatus.DONE


def test_tr56_tr60_interception_declarations_checked() -> None:
    with pytest.raises(IllegalOrder) as e:
        resolve_sea_sr(ORDER, SEA, [med("kiel")], {"kiel": 1}, iter([]))
    assert e.value.rule == "TR-56"
    with pytest.raises(IllegalOrder) as e:
        resolve_sea_sr(ORDER, SEA, [med(air=AirZone.FRIENDLY)], {"taranto": 1}, iter([]))
    assert e.value.rule == "TR-60"
    bad = ZoneInterception("black_sea", (InterceptionAttempt("sevastopol", ITALIANS, "x", 1),))
    with pytest.raises(IllegalOrder, match="route"):
        resolve_sea_sr(ORDER, SEA, [bad], {"sevastopol": 1}, iter([]))
    with pytest.raises(InputError):
        resolve_sea_sr(ORDER, SEA, [med(), med()], {"taranto": 1}, iter([]))


def test_tr69_rolled_with_a_seeded_stream_is_reproducible() -> None:
    a = roll_sea_sr(ORDER, SEA, [med()], DiceStream(7, "3r.sea_sr"))
    b = roll_sea_sr(ORDER, SEA, [med()], DiceStream(7, "3r.sea_sr"))
    assert a.to_json() == b.to_json()
    assert all(1 <= r.roll <= 6 for r in a.rolls)
