"""EUR-23 reading (europa/air/transfer.py, order ``air_transfer``): in its own air phase, while
missions are assigned, the phasing player moves a ready air unit to a new base within its range
- a land city or an airbase of the side, behind its lines, out of enemy ZOCs, with room - and
the move is the unit's flight of the game turn. Played on europa-barbarossa (seed 3), whose
Axis air units stand on their June 1941 bases (docs/MAPS.md)."""

from __future__ import annotations

import pytest
from tests.europa.positions import to_phase

from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.state import thaw
from grognard.europa.air.missions import AIRBASE_CAPACITY, ready
from grognard.europa.air.orders.air_transfer import AIR_TRANSFER
from grognard.europa.air.transfer import TRANSFER_RANGE, open_bases


@pytest.fixture
def game() -> Game:
    """europa-barbarossa, seed 3, the Axis's air phase of turn 1 (Jun II 1941)."""
    g = Game.new("europa-barbarossa", seed=3)
    to_phase(g, "air", "axis")
    return g


def transfer(unit: str, to: str, player: str = "axis") -> Command:
    return Command("air_transfer", player, {"unit": unit, "to": to})


def _country(g: Game, label: str) -> str:
    m = g.context.scenario.map
    return m.country_of(m.layout.from_label(label))


def test_eur23_the_axis_may_transfer_to_its_own_bases_and_cities_in_range(game: Game) -> None:
    """KG 1 (Ju-88, range 16, at Konigsberg 0527) may move to Lodz, Radom, Memel, Tilsit and
    Insterburg: Warsaw and the bases at 0738 and 0929 hold 3 Axis units already (full), and
    Riga, Vilnius and Kaunas are Soviet. JG 54 (Bf-109F, range 8, at Insterburg) reaches only
    Konigsberg, Memel and Tilsit."""
    legal = game.legal("axis", "air_transfer")
    to = {u: sorted(c.args["to"] for c in legal if c.args["unit"] == u)
          for u in ("de-lf1-kg-1", "de-lf1-jg-54")}
    assert to["de-lf1-kg-1"] == ["0139", "0541", "0822", "0926", "0928"]
    assert to["de-lf1-jg-54"] == ["0527", "0822", "0926"]
    air = game.state["air_units"]
    assert {air[c.args["unit"]]["side"] for c in legal} == {"axis"}
    # every Axis unit is listed, and no hex of the USSR: the front has not moved yet
    assert len({c.args["unit"] for c in legal}) == 26
    assert not [c for c in legal if _country(game, c.args["to"]) == "ussr"]
    full = {"0538", "0738", "0929", "1142"}
    assert not [c for c in legal if c.args["to"] in full]
    assert len(legal) == 131  # the count a europa-barbarossa air phase lists (measured)


def test_eur23_the_listing_and_the_check_agree(game: Game) -> None:
    """Every (Axis air unit, city or airbase hex) the order's check accepts is listed, and
    nothing else (the property the bots, the fuzzer and the web page rely on)."""
    m = game.context.scenario.map
    hexes = sorted({m.label(int(i)) for i, cs in m.cities.items() if cs}
                   | {u["base"] for u in game.state["air_units"].values()})
    accepted = set()
    for uid, u in sorted(game.state["air_units"].items()):
        if u["side"] != "axis":
            continue
        for h in hexes:
            if game.can(transfer(uid, h)):
                accepted.add((uid, h))
    listed = {(c.args["unit"], c.args["to"]) for c in game.legal("axis", "air_transfer")}
    assert accepted == listed and len(listed) == 131


def test_eur23_a_transfer_moves_the_base_and_is_the_units_flight(game: Game) -> None:
    """KG 1 moves from Konigsberg to Tilsit: based there, flown this game turn; it may not fly
    a mission, transfer again or intercept until the next turn."""
    events = game.apply(transfer("de-lf1-kg-1", "0926"))
    assert [e.to_json() for e in events] == [{"type": "air_transferred", "data": {
        "unit": "de-lf1-kg-1", "from": "0527", "to": "0926", "turn": 1}}]
    kg1 = game.state["air_units"]["de-lf1-kg-1"]
    assert (kg1["base"], kg1["flown"]) == ("0926", 1)
    assert not ready(game.state, "de-lf1-kg-1")
    assert not [c for c in game.legal("axis", "air_mission")
                if "de-lf1-kg-1" in c.args["units"]]
    assert not [c for c in game.legal("axis", "air_transfer")
                if c.args["unit"] == "de-lf1-kg-1"]
    with pytest.raises(IllegalOrder, match="de-lf1-kg-1 is operative or has flown this turn"):
        game.verify(Command("air_mission", "axis", {
            "id": "m1", "kind": "airbase_attack", "target": "1527", "units": ["de-lf1-kg-1"]}))
    with pytest.raises(IllegalOrder, match="has flown this game turn"):
        game.verify(transfer("de-lf1-kg-1", "0822"))
    # Tilsit is now an Axis airbase: KG 77, still at Konigsberg, may join KG 1 there
    assert game.can(transfer("de-lf1-kg-77", "0926"))
    assert game.describe(transfer("de-lf1-kg-77", "0926")).text == (
        "Transfer de-lf1-kg-77 (Ju-88) from 0527 (Konigsberg) to 0926 (Tilsit)")


@pytest.mark.parametrize("unit,to,why", [
    ("de-lf1-kg-99", "0926", "'de-lf1-kg-99' is not one of axis's air units"),
    ("su-nwf-baltic-sad-1", "0926", "'su-nwf-baltic-sad-1' is not one of axis's air units"),
    ("de-lf1-jg-54", "0139", "0139 (Lodz) is 15 hexes from de-lf1-jg-54's base 0928 "
                             "(Insterburg): beyond its transfer range of 8"),
    ("de-lf1-kg-1", "0830", "de-lf1-kg-1 cannot be based at 0830: it holds no city and no "
                            "airbase of axis's"),
    ("de-lf1-kg-1", "0612", "de-lf1-kg-1 cannot be based at 0612: it is sea: air units are "
                            "based on land"),
    ("de-lf1-kg-1", "1618", "de-lf1-kg-1 cannot be based at 1618 (Riga): it is held by soviet"),
    ("de-lf1-kg-1", "1928", "de-lf1-kg-1 cannot be based at 1928 (Vilnius): it is not behind "
                            "axis's lines"),
    ("de-lf1-kg-1", "1527", "de-lf1-kg-1 cannot be based at 1527 (Kaunas): it is an airbase "
                            "of soviet's air units"),
    ("de-lf4-kg-54", "2055", "de-lf4-kg-54 cannot be based at 2055 (Chernovtsy): soviet's "
                             "ground units are in it"),
    ("de-lf1-kg-1", "0538", "the airbase at 0538 (Warsaw) is full: 3 of axis's air units are "
                            "based there (at most 3)"),
    ("de-lf1-kg-1", "0527", "de-lf1-kg-1 is already based at 0527 (Konigsberg)"),
    ("de-lf1-kg-1", "zz12", "'zz12' is not a hex of the map"),
    ("de-lf1-kg-1", "9999", "'9999' is not a hex of the map"),
])
def test_eur23_bad_transfers_are_refused_in_one_line_and_change_nothing(
        game: Game, unit: str, to: str, why: str) -> None:
    assert unit.startswith("de-") or unit in game.state["air_units"]  # a real Soviet unit
    before, n = game.state_hash(), len(game.commands)
    with pytest.raises(IllegalOrder) as e:
        game.apply(transfer(unit, to))
    assert e.value.rule == "EUR-23" and str(e.value) == f"EUR-23: {why}"
    assert game.state_hash() == before and len(game.commands) == n


def test_eur23_the_capacity_read_is_three_units_a_base() -> None:
    assert AIRBASE_CAPACITY == 3 and TRANSFER_RANGE == 1


def test_eur23_no_transfer_into_an_enemy_zoc_or_of_an_inoperative_unit(game: Game) -> None:
    """A Soviet rifle division next to Memel (0822, in Germany) puts it in a Soviet ZOC: no
    Axis air unit may move there; an inoperative unit transfers nowhere."""
    assert game.can(transfer("de-lf1-kg-1", "0822"))
    s = thaw(game.state)
    rifle = next(uid for uid, u in sorted(s["units"].items()) if u["side"] == "soviet"
                 and u["hex"] and u["type"] == "infantry" and u["zoc_class"])
    s["units"][rifle]["hex"] = "0922"  # USSR, next to Memel
    spec = AIR_TRANSFER.spec()
    with pytest.raises(IllegalOrder) as e:
        spec.verify(game.context, s, transfer("de-lf1-kg-1", "0822"))
    assert str(e.value) == "EUR-23: de-lf1-kg-1 cannot be based at 0822 (Memel): it is in an " \
                           "enemy ZOC"
    assert "0822" not in open_bases(game.context, s, "axis")
    s["air_units"]["de-lf1-kg-1"]["status"] = "inoperative"
    with pytest.raises(IllegalOrder, match="de-lf1-kg-1 is inoperative: only an operative"):
        spec.verify(game.context, s, transfer("de-lf1-kg-1", "0926"))
    assert not [c for c in AIR_TRANSFER.legal(game.context, s, "axis")
                if c.args["unit"] == "de-lf1-kg-1"]


def test_eur23_transfers_while_missions_are_assigned_not_once_they_fly(game: Game) -> None:
    """The assign-or-fly decision offers transfers; a unit on a mission does not transfer; once
    the missions fly, no unit does."""
    game.apply(Command("air_mission", "axis", {
        "id": "m1", "kind": "airbase_attack", "target": "1527", "units": ["de-lf1-kg-1"]}))
    (owed,) = game.decisions()
    assert owed.kinds == {"air_mission", "air_transfer", "fly_missions"}
    assert "transfer air units" in owed.prompt
    with pytest.raises(IllegalOrder, match="de-lf1-kg-1 flies mission m1 this air phase"):
        game.verify(transfer("de-lf1-kg-1", "0926"))
    listed = game.legal("axis", "air_transfer")
    assert listed and "de-lf1-kg-1" not in {c.args["unit"] for c in listed}
    game.apply(transfer("de-lf1-kg-77", "0926"))
    game.apply(Command("fly_missions", "axis"))
    assert AIR_TRANSFER.legal(game.context, game.state, "axis") == []
    with pytest.raises(IllegalOrder, match="the missions are flying"):
        AIR_TRANSFER.spec().verify(game.context, game.state, transfer("de-lf1-jg-54", "0926"))


def test_eur23_transfers_only_in_the_players_own_air_phase() -> None:
    """Not in the movement phase before it; the Soviets never in the Axis's air phase, but in
    their own, to cities of the USSR (the Axis then may not)."""
    g = Game.new("europa-barbarossa", seed=3)
    to_phase(g, "movement", "axis")
    spec = AIR_TRANSFER.spec()
    with pytest.raises(IllegalOrder) as e:
        spec.verify(g.context, g.state, transfer("de-lf1-kg-1", "0926"))
    assert str(e.value) == ("EUR-23: axis's air units transfer in axis's own air phase, not in "
                            "axis's movement phase")
    assert AIR_TRANSFER.legal(g.context, g.state, "axis") == []
    to_phase(g, "air", "axis")
    soviet = "su-nwf-baltic-sad-1"
    assert g.state["air_units"][soviet]["side"] == "soviet"
    with pytest.raises(IllegalOrder) as e:
        spec.verify(g.context, g.state, transfer(soviet, "1928", "soviet"))
    assert str(e.value) == ("EUR-23: soviet's air units transfer in soviet's own air phase, not "
                            "in axis's air phase")
    with pytest.raises(IllegalOrder):  # the engine: not the Soviets' phase
        g.apply(transfer(soviet, "1928", "soviet"))
    assert g.legal("soviet", "air_transfer") == []
    assert AIR_TRANSFER.legal(g.context, g.state, "soviet") == []
    to_phase(g, "air", "soviet")
    listed = g.legal("soviet", "air_transfer")
    air = g.state["air_units"]
    assert listed and {air[c.args["unit"]]["side"] for c in listed} == {"soviet"}
    assert {_country(g, c.args["to"]) for c in listed} == {"ussr"}
    assert AIR_TRANSFER.legal(g.context, g.state, "axis") == []
    cmd = next(c for c in listed if c.args["unit"] == soviet)
    start = air[soviet]["base"]
    ev = g.apply(cmd)[0]
    assert ev.data == {"unit": soviet, "from": start, "to": cmd.args["to"], "turn": 1}
    assert g.state["air_units"][soviet]["base"] == cmd.args["to"]


def test_eur23_a_game_with_transfers_replays_to_the_same_state(game: Game) -> None:
    game.apply(transfer("de-lf1-kg-1", "0926"))
    game.apply(transfer("de-lf1-jg-54", "0822"))
    game.apply(Command("end_phase", "axis"))
    again = Game.replay(game.scenario, game.seed, game.commands, game.events)
    assert again.state_hash() == game.state_hash()
    assert again.state["air_units"]["de-lf1-jg-54"]["base"] == "0822"
    assert Game.replay(game.scenario, game.seed, game.commands).state_hash() == \
        game.state_hash()


def test_eur23_eur27_a_known_airbase_changes_hands_with_the_units_based_there(game: Game
                                                                             ) -> None:
    """An airbase the state knows (hits from an EUR-27 attack) that the other side owned
    becomes the side's when its air units move in: its hits stay, now the side's to repair."""
    s = thaw(game.state)
    s["air"] = {"key": None, "step": "missions", "missions": [], "zones": [], "log": [],
                "strategic_hits": {}, "airbases": {"0926": {
                    "name": "0926", "capacity": 3, "hits": 1, "active": [], "inactive": [],
                    "last_repair_turn": None, "owner": "soviet"}}}
    (ev,) = AIR_TRANSFER.spec().execute(game.context, s, transfer("de-lf1-kg-1", "0926"), None)
    before = s["air"]
    s = AIR_TRANSFER.folds["air_transferred"](s, ev)
    assert s["air"]["airbases"]["0926"]["owner"] == "axis"
    assert s["air"]["airbases"]["0926"]["hits"] == 1
    assert before["airbases"]["0926"]["owner"] == "soviet"  # the earlier slot is not written
