"""Issue 25, session 10: the Europa attacker's pockets (bots/europa_offence.py) on small
constructed positions: the supply picture (EUR-30 as the bot sees it), the attack whose win
cuts a stack off, the exploitation move that cuts a supply path, the Schwerpunkt on the weak
hex, and attacks only at odds that pay."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tests.bots.europa_boards import Board, Sit, lab

from grognard.bots import europa_offence as off
from grognard.engine.commands import Command

W, H = 7, 5


def Grid(land: set[tuple[int, int]]) -> Board:
    """A W x H board, water except ``land``."""
    return Board(W, H, lakes={(x, y) for x in range(W) for y in range(H)} - land)


def unit(side: str, at: tuple[int, int], kind: str = "infantry", attack: int = 6,
         defense: int = 6, **more: Any) -> dict[str, Any]:
    return {"side": side, "type": kind, "attack": attack, "defense": defense,
            "hex": lab(*at), "zoc_class": 2, "re_size": 3, **more}


# row 0 and row 2 are land, joined at (0, 1) and (4, 1); the enemy's sources are east
LAND = {(x, 0) for x in range(W)} | {(x, 2) for x in range(W)} | {(0, 1), (4, 1)}


def picture(mine: dict[str, dict[str, Any]], others: list[dict[str, Any]]
            ) -> tuple[off.Picture, Sit]:
    g = Grid(LAND)
    sit = Sit(g, mine, others)
    return off.Picture.of(sit, g, [lab(0, 0)], [lab(6, 2), lab(6, 0)]), sit  # type: ignore[arg-type]


def test_enemy_supply_trace_blocked_by_our_units_and_zoc():
    """EUR-30 as the bot sees it: the enemy traces through its own hexes, not through ours
    nor our ZOC; our unit in the corridor cuts the stack west of it."""
    pic, _sit = picture({"a": unit("axis", (0, 2))}, [unit("soviet", (2, 2))])
    g = pic.g
    assert g.index_of_label(lab(2, 2)) in pic.their_supplied()
    assert pic.cut_worth(pic.their_supplied()) == 0
    cut = pic.their_supplied(add=[g.index_of_label(lab(4, 2))])
    assert g.index_of_label(lab(2, 2)) not in cut
    assert pic.cut_worth(cut) == 6


def test_the_attack_that_cuts_a_stack_off_beats_an_equal_odds_frontal_one():
    """Two attacks at the same odds and worth: the one whose win (our units in the hex, their
    ZOC around it) cuts the stack behind it off from its sources scores higher."""
    mine = {"a": unit("axis", (4, 1)), "b": unit("axis", (5, 0))}
    pocket = unit("soviet", (2, 2), defense=9)
    others = [unit("soviet", (4, 2)), pocket, unit("soviet", (6, 0))]
    pic, _sit = picture(mine, others)
    g = pic.g
    t_cut, t_front = g.index_of_label(lab(4, 2)), g.index_of_label(lab(6, 0))
    assert pic.cut_by_clearing(t_cut) == 9
    assert pic.cut_by_clearing(t_front) == 0
    p, value = Fraction(7, 12), Fraction(3)
    assert off.attack_worth(p, value, False, pic.cut_by_clearing(t_cut)) > \
        off.attack_worth(p, value, False, pic.cut_by_clearing(t_front)) > 0


def test_attacks_only_at_odds_that_pay_except_on_a_pocket():
    """A frontal attack below the 2-1 column's chance (1-1: 1/12, 3-2: 1/9) is not made
    however much the hex is worth; a pocket (defenders out of supply) is attacked at any
    gain; at the odds that pay the expected gain decides."""
    assert off.attack_worth(Fraction(1, 9), Fraction(5), False, 0.0) < 0
    assert off.attack_worth(Fraction(1, 4), Fraction(1), False, 0.0) > 0
    assert off.attack_worth(Fraction(7, 12), Fraction(-2), False, 0.0) < 0
    assert off.attack_worth(Fraction(1, 12), Fraction(1), True, 0.0) > 0
    pic, _sit = picture({}, [unit("soviet", (2, 2), supply="out"), unit("soviet", (2, 2),
                                                                       isolated=True)])
    assert pic.defense(pic.g.index_of_label(lab(2, 2))) == (12.0, True)


def _moves(uid: str, sit: Sit, hexes: list[tuple[int, int]]) -> dict[str, dict[int, Command]]:
    return {uid: {sit.map.index_of_label(lab(*h)): Command("move", "axis",
                                                          {"unit": uid, "to": lab(*h)})
                  for h in hexes}}


def test_exploitation_moves_the_armor_onto_the_enemy_supply_path():
    """The panzer may end on row 0 (no effect) or in the corridor behind the enemy stack
    (which then traces nowhere): it cuts the path."""
    mine = {"inf": unit("axis", (0, 2)), "pz": unit("axis", (3, 0), kind="armor",
                                                     attack=10, defense=8)}
    others = [unit("soviet", (2, 2))]
    pic, sit = picture(mine, others)
    plan = off.exploitation_plan(pic, _moves("pz", sit, [(5, 0), (6, 0), (4, 2)]),
                                 lambda i: 0.0)
    assert [c.args["to"] for _s, c in plan] == [lab(4, 2)]


def test_exploitation_keeps_the_spearhead_in_supply_and_alive():
    """A hex that does not trace to our sources, or next to more enemy attack than twice
    the spearhead's defense, is not a destination."""
    mine = {"inf": unit("axis", (0, 2)), "pz": unit("axis", (3, 0), kind="armor",
                                                     attack=10, defense=2)}
    others = [unit("soviet", (2, 2)), unit("soviet", (5, 2), attack=12)]
    pic, sit = picture(mine, others)
    plan = off.exploitation_plan(pic, _moves("pz", sit, [(4, 2)]), lambda i: 0.0)
    assert plan == []


def test_assault_concentrates_on_the_weak_hex():
    """Three infantry (6 attack each) can reach the side of a weak enemy hex (defense 3) or
    a strong one (defense 12): the Schwerpunkt is the weak one (18 to 3 reaches the aim of 5 to 1,
    18 to 12 below the 3 to 1 worth moving for), and every unit that moves goes beside it."""
    land = {(x, y) for x in range(W) for y in range(H)}
    g = Grid(land)
    mine = {f"i{k}": unit("axis", (0, k)) for k in range(3)}
    others = [unit("soviet", (3, 1), defense=3), unit("soviet", (3, 3), defense=12)]
    sit = Sit(g, mine, others)
    pic = off.Picture.of(sit, g, [lab(0, 0)], [lab(6, 2)])  # type: ignore[arg-type]
    reach = [(x, y) for x in range(3) for y in range(H)]
    moves = {uid: _moves(uid, sit, reach)[uid] for uid in mine}
    out, committed, targets = off.assault_plan(pic, moves, lambda i: 0.0)
    assert targets == [g.index_of_label(lab(3, 1))]
    assert committed == set(mine)
    weak = g.index_of_label(lab(3, 1))
    for _s, c in out:
        assert weak in g.nbrs[g.index_of_label(c.args["to"])]


def _axis_policy_at(hexes: dict[str, str], holder_of: dict[str, str]) -> tuple[Any, Any]:
    """The heuristic's Europa policy for the Axis of europa-barbarossa, its picture of a view
    with the units ``hexes`` moved (unit id -> hex) and the objectives held as
    ``holder_of`` says (hex -> side)."""
    import copy

    from grognard.bots.base import Seat
    from grognard.bots.heuristic import EuropaPolicy
    from grognard.engine.game import Game

    game = Game.new("europa-barbarossa", seed=1)
    pol = EuropaPolicy(Seat.of(game, "axis", 1))
    pol.situation(game.view("axis"), game)  # the seat learns it is the attacker
    view = copy.deepcopy(game.view("axis"))
    for uid, h in hexes.items():
        view["units"][uid]["hex"] = h
    sit = pol.situation(view, None)
    objs = [o.__class__(o.hex, o.name, o.value, holder_of.get(o.hex, o.holder), o.wanted_by)
            for o in game.objectives()]
    sit.memo("victory.objectives", lambda: objs)
    return pol, sit


def test_the_attacker_garrisons_the_objectives_it_holds():
    """Kiev (worth 3) held with the enemy near keeps two units, foot first (the armor drives
    on); an objective not held keeps nobody; the defender of the objectives is not the
    attacker (its own garrisons are the defence plan's)."""
    kiev = "3446"
    near = {"de-ags-pz-1": kiev, "de-ags-inf-1": kiev, "de-ags-inf-2": kiev,
            "de-ags-inf-3": kiev, "su-nwf-rifle-1": "3443"}  # the enemy 3 hexes off
    pol, sit = _axis_policy_at(near, {kiev: "axis"})
    assert pol.defending is False
    assert sit.mine["de-ags-pz-1"]["type"] == "armor"
    kept = pol.garrisons(sit)
    assert kept == {"de-ags-inf-1", "de-ags-inf-2"}
    _pol, sit2 = _axis_policy_at(near, {})
    assert pol.garrisons(sit2) == set()


def test_the_attacker_advances_after_combat_foot_first():
    """EUR-15 The attacker advances into the hex it emptied, its foot units before its
    armor; staying scores below any advance."""
    pol, sit = _axis_policy_at({}, {})

    def adv(units: list[str]) -> float:
        return pol.score_advance(sit, Command("advance", "axis", {"units": units}))

    assert adv(["de-ags-inf-1", "de-ags-inf-2"]) > adv(["de-ags-inf-1"]) > \
        adv(["de-ags-pz-1"]) > adv([]) > 0
