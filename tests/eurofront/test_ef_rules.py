"""EF-01, EF-02, EF-03, EF-08, EF-09, EF-10 (003_bbc0beaac187b5b3.txt)."""

import dataclasses

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex, hex_range
from grognard.core.tables import parse_table
from grognard.eurofront.airpower import (
    AirPowerState,
    air_power_level,
    historical_air_power,
    state_from_json,
)
from grognard.eurofront.model import (
    AirPower,
    BaseRules,
    Block,
    BlockType,
    Board,
    Front,
    Side,
    Turn,
)
from grognard.eurofront.paratroops import (
    can_paratroop_move,
    paratroop_strategic_move,
    verify_paratroop_move,
)
from grognard.eurofront.rail import (
    can_strategic_rail_move,
    strategic_rail_limit,
    verify_strategic_rail_move,
)
from grognard.eurofront.readings import (
    EuroFrontReadings,
    OptionalRule,
    OptionalRules,
    ParaCost,
)
from grognard.eurofront.rebuild import (
    DestroyedPool,
    can_rebuild,
    destroy_block,
    end_production_phase,
    rebuild,
    verify_rebuild,
)

AX, AL = Side.AXIS, Side.ALLIES


# ---------------------------------------------------------------- EF-01 / EF-10


def test_ef01_each_optional_rule_independently_switchable():
    """'Any or all are optional rules'."""
    all_on = OptionalRules.all()
    for rule in all_on.enabled:
        one_off = all_on.without(rule)
        assert not one_off.on(rule)
        assert all(one_off.on(r) for r in all_on.enabled - {rule})
    assert OptionalRules.none().enabled == frozenset()
    with pytest.raises(InputError, match=r"rules\[1\]"):
        OptionalRules.from_names(["surprise_rail", "nope"])


def test_ef01_readings_defaults_follow_rules_md():
    r = EuroFrontReadings()
    assert r.to_mapping() == {
        "ef_delay_all_blocks": False, "ef_uboat_roll_frequency": "season",
        "ef_norway_france_mode": "both", "ef_uboat_drm_target": "trigger",
        "ef_para_cost": "per_step", "ef_apd_counter_removal": True,
        "ef_initiative_bonus": "strength", "ef_surprise_exemption": "war",
        "ef_orphan_rule": False}
    with pytest.raises(InputError, match="readings.ef_para_cost"):
        EuroFrontReadings.from_mapping({"ef_para_cost": "free"})


def test_ef10_orphan_rule_hook_is_reserved_and_refused():
    """EF-10: 'This has been play-tested ...' - the rule body is missing; not implemented."""
    assert OptionalRule.ORPHAN_RULE not in OptionalRules.all().enabled
    with pytest.raises(IllegalOrder, match="EF-10"):
        OptionalRules.all().with_rule(OptionalRule.ORPHAN_RULE)
    with pytest.raises(IllegalOrder, match="EF-10"):
        EuroFrontReadings.from_mapping({"ef_orphan_rule": True})


# ---------------------------------------------------------------- EF-02


def armour(bid="pz1", kind=BlockType.ARMOUR):
    return Block(bid, AX, kind, strength=2)


def test_ef02_tv03_destroyed_armour_skips_exactly_one_production_phase():
    """EF-TV03 (RULES.md §2): armour block destroyed before production phase P1 -> not buildable
    in P1, buildable in P2. 'At the end of each production phase any face-down blocks are turned
    face-up and can be rebuilt in the following phase.'"""
    pool, rec = destroy_block(DestroyedPool(), armour())
    assert rec.face_down
    assert not can_rebuild(pool, "pz1")  # production phase P1
    with pytest.raises(IllegalOrder, match="EF-02"):
        rebuild(pool, "pz1")
    pool, ended = end_production_phase(pool)  # end of P1
    assert ended.block_ids == ("pz1",)
    assert can_rebuild(pool, "pz1")  # P2
    pool, _ = rebuild(pool, "pz1")
    assert pool.blocks == {}


def test_ef02_only_mechanised_armour_shock_by_default():
    pool = DestroyedPool()
    for bid, kind in [("m", BlockType.MECHANISED), ("s", BlockType.SHOCK),
                      ("i", BlockType.INFANTRY), ("p", BlockType.PARATROOP)]:
        pool, _ = destroy_block(pool, armour(bid, kind))
    assert pool.face_down_ids() == ["m", "s"]
    assert can_rebuild(pool, "i") and can_rebuild(pool, "p")
    everyone = EuroFrontReadings(ef_delay_all_blocks=True)
    pool2, rec = destroy_block(DestroyedPool(), armour("i", BlockType.INFANTRY),
                               readings=everyone)
    assert rec.face_down and not can_rebuild(pool2, "i")


def test_ef02_rule_off_rebuilds_at_once():
    off = OptionalRules.all().without(OptionalRule.DELAYED_REBUILD)
    pool, rec = destroy_block(DestroyedPool(), armour(), rules=off)
    assert not rec.face_down and can_rebuild(pool, "pz1")


def test_ef02_bad_input():
    pool, _ = destroy_block(DestroyedPool(), armour())
    with pytest.raises(IllegalOrder, match="already destroyed"):
        destroy_block(pool, armour())
    with pytest.raises(InputError, match="block_id"):
        verify_rebuild(pool, "ghost")
    pool, _ = end_production_phase(pool)
    with pytest.raises(IllegalOrder, match="EF-13"):
        verify_rebuild(pool, "pz1", hex_interdicted=True)


# ---------------------------------------------------------------- EF-03


def test_ef03_surprised_country_rails_only_5_hexes():
    """'If a Country is attacked and is surprised (HQs disrupted) it automatically has strategic
    rail movement reduced to 5 hexes'."""
    assert strategic_rail_limit(30, surprised=True) == 5
    assert strategic_rail_limit(3, surprised=True) == 3
    assert strategic_rail_limit(30, surprised=False) == 30
    assert can_strategic_rail_move(5, 30, True) and not can_strategic_rail_move(6, 30, True)
    with pytest.raises(IllegalOrder, match="EF-03"):
        verify_strategic_rail_move(6, 30, True)
    with pytest.raises(InputError, match="normal"):
        strategic_rail_limit(-1, True)


def test_ef03_rule_off_keeps_normal_rail():
    off = OptionalRules.all().without(OptionalRule.SURPRISE_RAIL)
    assert strategic_rail_limit(30, surprised=True, rules=off) == 30
    assert can_strategic_rail_move(20, 30, True, rules=off)


# ---------------------------------------------------------------- EF-08

HIST = {AX: {Front.EAST: AirPower.DF, Front.WEST: AirPower.DF, Front.MED: AirPower.SF},
        AL: {Front.EAST: AirPower.DF, Front.WEST: AirPower.TF, Front.MED: AirPower.DF}}


def lvl(side, front, **kw):
    kw.setdefault("historical", HIST)
    return air_power_level(side, front, AirPowerState(kw.pop("turn", Turn(1940, 8)), **kw))


def test_ef08_axis_keeps_tf_in_west_before_east_front_activates():
    """'If the East Front is not activated the Axis retain TF Airpower in the West ... or may
    allocate it the Med Front whilst reducing Air power in the West to DF.'"""
    assert lvl(AX, Front.WEST) is AirPower.TF
    assert lvl(AX, Front.MED) is AirPower.SF
    assert lvl(AX, Front.MED, axis_tf_to_med=True) is AirPower.TF
    assert lvl(AX, Front.WEST, axis_tf_to_med=True) is AirPower.DF


def test_ef08_allies_at_sf_until_season_after_usa_enters():
    """'(and Allies remain at SF until the Season after USA enters the War)'."""
    assert lvl(AL, Front.WEST) is AirPower.SF
    us = Turn(1941, 12)  # Winter 41/42
    assert lvl(AL, Front.WEST, turn=Turn(1942, 3), us_entry=us) is AirPower.SF
    assert lvl(AL, Front.WEST, turn=Turn(1942, 4), us_entry=us) is AirPower.TF


def test_ef08_east_front_active_uses_historical_levels():
    """'Once East Front is activated all Air Power is at levels stated in the rules.'"""
    assert lvl(AX, Front.WEST, east_front_active=True) is AirPower.DF
    assert lvl(AL, Front.WEST, east_front_active=True) is AirPower.TF


def test_ef08_desert_victory_and_oil_supply():
    """'Should the Axis gain Desert Victory their Air power on all Fronts is upgraded to TF';
    'Axis Oils Supply ... one level of Air Power higher in either the East or West Fronts'."""
    for front in Front:
        assert lvl(AX, front, east_front_active=True, desert_victory=True) is AirPower.TF
    assert lvl(AX, Front.EAST, east_front_active=True, axis_oil_supply=True,
               oil_front=Front.EAST) is AirPower.TF
    assert lvl(AX, Front.WEST, east_front_active=True, axis_oil_supply=True,
               oil_front=Front.EAST) is AirPower.DF
    assert lvl(AX, Front.EAST, east_front_active=True, desert_victory=True,
               axis_oil_supply=True, oil_front=Front.EAST) is AirPower.QF
    with pytest.raises(InputError, match="oil_front"):
        AirPowerState(Turn(1942, 1), axis_oil_supply=True, oil_front=Front.MED)


def test_ef08_rule_off_gives_historical_levels():
    off = OptionalRules.all().without(OptionalRule.FRONT_AIR_POWER)
    assert lvl(AX, Front.WEST, rules=off) is AirPower.DF
    assert lvl(AL, Front.WEST, rules=off, desert_victory=True) is AirPower.TF


def test_ef08_historical_levels_come_from_a_replaceable_table():
    assert historical_air_power(AX, Front.EAST, Turn(1943, 6)) is AirPower.DF
    user = parse_table({"id": "ef_historical_air_power", "title": "u", "source": "user",
                        "columns": ["east", "west", "med"],
                        "rows": [{"key": "axis:1939", "results": ["QF", "QF", "QF"]}]})
    assert historical_air_power(AX, Front.MED, Turn(1943, 6), user) is AirPower.QF
    s = state_from_json({"turn": "1942-07", "east_front_active": True})
    assert air_power_level(AX, Front.MED, s, user) is AirPower.QF
    with pytest.raises(InputError, match="historical.axis.north"):
        state_from_json({"turn": "1942-07", "historical": {"axis": {"north": "TF"}}})
    with pytest.raises(InputError, match="turn"):
        state_from_json({"turn": "July"})


# ---------------------------------------------------------------- EF-09


def para_board():
    hexes = hex_range(Hex(0, 0), 12)
    return Board(control={h: (AX if h.q <= 6 else AL) for h in hexes},
                 front={h: (Front.MED if h.r >= 8 else Front.WEST) for h in hexes},
                 supplied={AX: frozenset(h for h in hexes if h.q <= 5)})


PARA_HOME = Hex(-2, 0)


def para(strength=2, at=PARA_HOME, kind=BlockType.PARATROOP):
    return Block("fj", AX, kind, strength=strength, at=at)


def test_ef09_paratroop_strategic_move_costs_one_sm_per_strength_point():
    """'move one (1 or 2 point) Paratroop block at a cost of one Strategic Move/ Paratroop
    strength point, up to 10 hexes to a Friendly-controlled hex in supply.'"""
    b = para_board()
    moved, rec = paratroop_strategic_move(b, para(2), Hex(5, 0), strategic_moves=3)
    assert moved.at == Hex(5, 0) and (rec.hexes, rec.cost, rec.strategic_moves_left) == (7, 2, 1)
    _, rec1 = paratroop_strategic_move(b, para(1), Hex(5, 0), strategic_moves=3)
    assert rec1.cost == 1
    flat = EuroFrontReadings(ef_para_cost=ParaCost.FLAT)
    _, recf = paratroop_strategic_move(b, para(2), Hex(5, 0), 3, readings=flat)
    assert recf.cost == 1


def test_ef09_limits():
    b = para_board()
    assert not can_paratroop_move(b, para(2, at=Hex(-6, 0)), Hex(5, 0), 5)  # 11 hexes
    assert not can_paratroop_move(b, para(2), Hex(7, 0), 5)  # enemy hex
    assert not can_paratroop_move(b, para(2), Hex(6, 0), 5)  # friendly, out of supply
    assert not can_paratroop_move(b, para(2), Hex(5, 0), 1)  # not enough SMs
    assert not can_paratroop_move(b, para(3), Hex(5, 0), 5)  # a 3-point block
    assert not can_paratroop_move(b, para(2, kind=BlockType.INFANTRY), Hex(5, 0), 5)
    with pytest.raises(IllegalOrder, match="10-hex"):
        verify_paratroop_move(b, para(2, at=Hex(-6, 0)), Hex(5, 0), 5)


def test_ef09_multiple_moves_each_pay():
    """'Multiple moves are possible.'"""
    b = para_board()
    sms = 4
    for bid in ("fj1", "fj2"):
        blk = dataclasses.replace(para(2), id=bid)
        _, rec = paratroop_strategic_move(b, blk, Hex(4, 0), sms)
        sms = rec.strategic_moves_left
    assert sms == 0
    assert not can_paratroop_move(b, dataclasses.replace(para(1), id="fj3"), Hex(4, 0), sms)


def test_ef09_med_front_desert_costs_apply_if_in_effect():
    """'Moves into Med Front are possible but Desert Acclimatisation and Maintenance costs apply
    if in effect.' (EXTERNAL: BaseRules.desert_move_cost)"""
    b = para_board()
    dest = Hex(-4, 8)
    assert b.front_of(dest) is Front.MED
    _, rec = paratroop_strategic_move(b, para(2), dest, 5, desert_rules=True)
    assert (rec.cost, rec.desert_cost) == (3, 1)
    _, rec = paratroop_strategic_move(b, para(2), dest, 5, desert_rules=False)
    assert rec.cost == 2
    _, rec = paratroop_strategic_move(b, para(2), dest, 5, desert_rules=True,
                                      base=BaseRules(desert_move_cost=2))
    assert rec.cost == 4


def test_ef09_rule_off_forbids_the_move():
    off = OptionalRules.all().without(OptionalRule.PARATROOP_MOVE)
    with pytest.raises(IllegalOrder, match="EF-09"):
        verify_paratroop_move(para_board(), para(), Hex(5, 0), 5, rules=off)
