"""Issue 11: 3R random play draws moves without ranging every unit, and the SR proposer leaves
out only orders verify refuses (TR-27/TR-28 moves, TR-66..TR-70 SR)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from grognard.core.mapdata import WATER_TERRAIN
from grognard.engine.commands import Command
from grognard.engine.fuzz import choose
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario
from grognard.third_reich.air_naval.transports import port_at
from grognard.third_reich.board import side_zoc
from grognard.third_reich.combat import proposers as tr_legal
from grognard.third_reich.movement import proposers as tr_moves
from grognard.third_reich.movement.proposers import _land_components
from grognard.third_reich.proposals import units_of
from grognard.third_reich.turn.sequence import Phase


def _play_to(game: Game, phase: str, seed: int, limit: int = 600) -> Game:
    rng = random.Random(seed)
    for _ in range(limit):
        if game.phase.name == phase and any(game.legal(p, "move" if phase != "strategic_deployment"
                                                       else "sr") for p in game.active()):
            return game
        cmd = choose(game, rng)
        assert cmd is not None
        game.apply(cmd)
    raise AssertionError(f"no {phase} phase within {limit} commands")


@pytest.mark.parametrize("tries", [tr_moves.SAMPLE_TRIES, 0])
def test_tr27_move_sample_is_a_legal_move_drawn_uniformly(tries, monkeypatch):
    """The rejection sampler (a unit, then a slot) and the listed draw after it (``tries`` = 0)
    give every legal (unit, hex) move the same chance: a chi-square statistic over one
    position's legal moves stays near its degrees of freedom (fixed seeds: deterministic)."""
    monkeypatch.setattr(tr_moves, "SAMPLE_TRIES", tries)
    game = _play_to(Game(load_scenario("tr-1939-two-fronts"), seed=3), Phase.MOVEMENT.value, 1)
    player = game.phase.player
    legal = {repr(c) for c in game.legal(player, "move")}
    assert len(legal) > 20
    rng = random.Random(9)
    expected = 30
    draws = Counter(repr(game.sample(player, "move", rng)) for _ in range(expected * len(legal)))
    assert set(draws) == legal  # every legal move drawn, nothing else
    chi2 = sum((draws[c] - expected) ** 2 / expected for c in legal)
    dof = len(legal) - 1
    assert chi2 < dof + 4 * (2 * dof) ** 0.5  # about 4 standard deviations


def test_tr66_sr_proposer_drops_only_orders_verify_refuses():
    """TR-66..TR-70: every unit's fleet or sea SR to every port, and every land SR to every
    city, is checked by verify; each one it passes is among ``Game.legal`` (the proposer skips
    minor powers' units, non-friendly ports and ports outside the sea-zone table only because
    verify refuses them all) - land SR is listed to the farthest targets, so land orders are
    only checked to come from units that have some listed."""
    game = _play_to(Game(load_scenario("tr-1939-campaign"), seed=4), "strategic_deployment", 2,
                    limit=900)
    ctx, state = game.context, game.state
    m = ctx.scenario.map
    player = game.phase.player
    spec = game.system.commands["sr"]
    legal = {repr(c) for c in game.legal(player, "sr")}
    ports = sorted(m.label(h) for h in m.cities if port_at(m, m.label(h)) is not None)
    cities = sorted(m.label(h) for h in m.cities)
    listed_land = {c.args["unit"] for c in game.legal(player, "sr") if "kind" not in c.args}
    checked = 0
    for uid, _u in units_of(state, player):
        for kind, targets in (("fleet", ports), ("sea", ports), ("land", cities)):
            for to in targets:
                args = {"unit": uid, "to": to} if kind == "land" else \
                    {"kind": kind, "unit": uid, "to": to}
                cmd = Command("sr", player, args)
                try:
                    spec.verify(ctx, state, cmd)
                except ValueError:
                    continue
                checked += 1
                if kind == "land":
                    assert uid in listed_land, cmd
                else:
                    assert repr(cmd) in legal, cmd
    assert checked


def test_tr68_land_areas_are_connected_free_land():
    """TR-68 (land SR never enters an enemy ZOC): the SR proposer's land areas join only
    neighbouring free land hexes; water is in none."""
    game = Game(load_scenario("tr-1939-two-fronts"), seed=1)
    ctx, state = game.context, game.state
    m = ctx.scenario.map
    player = game.phase.player
    comp = _land_components(ctx, state, player)
    water = m.terrain_mask(*WATER_TERRAIN)
    assert all(comp[i] == -1 for i in range(m.n) if water[i])
    labels = {c for c in comp if c >= 0}
    assert len(labels) >= 1
    # a free hex's land neighbours that are free share its area
    zoc = side_zoc(ctx, state, player)
    free = ~(zoc.enemy | water | zoc.mask("movement"))
    for i in range(m.n):
        if not free[i]:
            continue
        for j in m.neighbor_indices(i):
            if free[int(j)]:
                assert comp[i] == comp[int(j)]


def test_tr40_withdrawals_listed_keep_stacking_and_retreat_where_room_is():
    """TR-40: every listed withdrawal passes verify (no hex over its stacking limit); when
    some withdrawing unit has a retreat hex with room, a listed withdrawal retreats it (the
    search never fills a hex past its limit, so it is not lost among overstacked products)."""
    found = 0
    for seed in range(1, 40):
        g = Game.new("tr-1939-cutoff", seed=seed)
        g.apply(Command("declare_options", "axis",
                        {"power": "germany", "options": {"western": "attrition"}}))
        while not (g.phase.name == "attrition" and g.phase.player == "axis"):
            g.apply(Command("end_phase", g.phase.player))
        g.apply(Command("attrition", "axis", {"front": "western"}))
        while g.state.get("pending_losses"):  # TR-38: the losing side chooses (issue 23)
            owing = g.decisions()[0].player
            g.apply(g.legal(owing, "remove_losses")[0])
        if not g.state["pending_hexes"]:
            continue
        g.apply(g.legal("axis", "take_hexes")[0])
        if not g.state["pending_withdrawal"]:
            continue
        found += 1
        listed = g.legal("allies", "withdraw")
        assert listed and all(g.can(c) for c in listed)
        assert len(listed) <= tr_legal.WITHDRAW_OPTIONS + 1
        retreating = [c for c in listed if any(v is not None for v in
                                               (c.args.get("retreats") or {}).values())]
        some_room = any(
            tr_legal.retreat_options(g.context, g.state, "allies", label)
            for label in g.state["pending_withdrawal"]["withdrawing"])
        assert bool(retreating) == some_room or not some_room
    assert found
