"""Europa revised retreats (EUR-15 lengths, EUR-16 ZOC penalty).

Seed: 001_20f3acfdeb9925e5.txt ("AR means the attacker must retreat 1 hex, DR means the
defender must retreat 2 hexes..."; "Units forced to retreat through enemy ZOCs may do so, but
must reduce 1 division unit to cadre for each ZOC entered...").
"""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.europa.combat.attack import Combatant, Side
from grognard.europa.combat.crt import CrtResult
from grognard.europa.combat.retreat import (
    RetreatLoss,
    attacker_may_advance,
    retreat_hexes,
    retreat_losses,
    zoc_hexes_entered,
    zoc_penalty_count,
)


def test_eur15_retreat_lengths_and_advance():
    """EUR-15: AR = attacker 1 hex; DR = defender 2 hexes and the attacker may advance."""
    assert retreat_hexes(Side.ATTACKER, CrtResult.AR) == 1
    assert retreat_hexes(Side.DEFENDER, CrtResult.DR) == 2
    assert retreat_hexes(Side.DEFENDER, CrtResult.AR) == 0
    assert retreat_hexes(Side.ATTACKER, "X1") == 0
    assert attacker_may_advance("DR") and not attacker_may_advance("AR")


def test_eur16_one_penalty_per_enemy_zoc_hex_entered():
    """EUR-16: one penalty per ZOC hex entered; friendly units negate enemy ZOC in their hex."""
    path = ["b", "c"]
    assert zoc_hexes_entered(path, enemy_zoc={"b", "c"}) == 2
    assert zoc_hexes_entered(path, enemy_zoc={"b", "c"}, friendly_occupied={"c"}) == 1
    assert zoc_penalty_count(2, negated_by_friendly=1) == 1
    assert zoc_penalty_count(0) == 0
    with pytest.raises(InputError, match="negated_by_friendly"):
        zoc_penalty_count(1, 2)


def test_eur16_division_reduced_to_cadre_per_zoc():
    """EUR-16: "must reduce 1 division unit to cadre for each ZOC entered"."""
    stack = [Combatant("bde", defense=2), Combatant("d1", defense=6, division=True,
                                                     cadre_defense=2),
             Combatant("d2", defense=6, division=True, cadre_defense=2)]
    after, paid = retreat_losses(stack, 2)
    assert [(p.unit, p.action) for p in paid] == [("d1", "reduce"), ("d2", "reduce")]
    assert [u.cadre for u in after] == [False, True, True]
    with pytest.raises(IllegalOrder, match="EUR-16"):
        retreat_losses(stack, 1, ["bde"])


def test_eur16_no_divisions_eliminates_non_divisional_units():
    """EUR-16: "If they have no divisional units they must instead eliminate 1 non-divisional
    unit for each such hex"."""
    stack = [Combatant("b1", defense=2), Combatant("b2", defense=3)]
    after, paid = retreat_losses(stack, 1, ["b2"])
    assert [u.id for u in after] == ["b1"] and paid[0].action == "eliminate"
    after, paid = retreat_losses(stack, 5)
    assert after == () and len(paid) == 2


def test_eur16_with_a_map_uses_the_retreat_search():
    """EUR-16 with a map: the map layer's retreat search gives the legal DR paths and the ZOC
    hexes each enters; the penalty follows from that count."""
    from grognard.core.hexgrid import Hex
    from grognard.core.mapdata import MapData
    from grognard.core.paths import Forces
    from grognard.core.zoc import europa_revised_zoc, zoc_field
    from grognard.europa.combat.retreat import legal_retreats, retreat_along

    hexes = [Hex(q, r) for q in range(5) for r in range(2)]
    m = MapData.build(hexes, ["clear"] * len(hexes))
    f = Forces.build(m, [Hex(2, 0), Hex(4, 0)], ["axis", "allies"])
    z = zoc_field(m, f, "axis", europa_revised_zoc())
    opts = legal_retreats(m, Hex(2, 0), Side.DEFENDER, "DR", z)
    assert opts and all(len(o.path) == 3 for o in opts)
    assert sorted(o.zoc_entered for o in opts) == [0, 0, 0, 1, 2]
    through = next(o for o in opts if o.zoc_entered == 2)
    stack = [Combatant("d1", defense=6, division=True, cadre_defense=2), Combatant("b", defense=1)]
    r = retreat_along(stack, through)
    assert r.losses == (RetreatLoss("d1", "reduce"), RetreatLoss("b", "eliminate"))
    assert [u.id for u in r.units_after] == ["d1"] and r.units_after[0].cadre
    assert legal_retreats(m, Hex(2, 0), Side.DEFENDER, "D1", z) == []
