"""TR-27/TR-28: movement ranges of many units at once (the bots' whole-phase move plans)."""

from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.third_reich.movement.moves import unit_move_range, unit_move_ranges


def _to_movement(g: Game) -> None:
    while g.phase.name != "movement":
        g.apply(g.legal(g.active()[0], "end_phase")[0])


def test_tr27_tr28_unit_move_ranges_equal_each_units_range():
    """Every unit's range computed together has the same hexes and MP costs as alone."""
    g = Game.new("tr-1939-campaign", seed=0)
    _to_movement(g)
    side = g.phase.player
    uids = sorted(uid for uid, u in g.state["units"].items() if u["side"] == side
                  and u["status"] == "active" and u["hex"] is not None
                  and u["type"] in ("infantry", "armor"))
    many = unit_move_ranges(g.context, g.state, uids)
    assert len(many) == len(uids) > 10
    g.context.cache.clear()
    for uid in uids:
        one = unit_move_range(g.context, g.state, uid)
        assert one.hexes.tolist() == many[uid].hexes.tolist()
        assert one.cost.tolist() == many[uid].cost.tolist()
        for h in many[uid].hexes[:8].tolist():  # each path is legal but for stacking
            path = many[uid].path_to(h)[1:]
            if not path:
                continue
            here = sum(1 for v in g.state["units"].values()
                       if v["hex"] == path[-1] and v["side"] == side and v["type"] != "air")
            if here < 2:
                assert g.can(Command("move", side, {"unit": uid, "path": path}))
    assert "nobody" not in unit_move_ranges(g.context, g.state, ["nobody"])
