"""Issue 25 item 5, session 15: the Europa bots' game made faster gives the same answers (a
pure refactor: the oracle's bot games keep their final state hashes,
``bench/europa_bot_oracle.py``). Each shortcut is compared here with the plain computation it
replaced, on real europa-barbarossa positions (the refactor oracle's recorded heuristic game
every 100 commands, both sides) and on made-up models where the game's positions lack a case,
and each comparison can fail: the positions give the plain computation something to find."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest
from tests.bots.test_europa_speed_s12 import _oracle_game

from grognard.core.errors import GrognardError
from grognard.europa.combat.attack import Attack, Side, attack_from_json
from grognard.europa.combat.bombardment import barrage_strength
from grognard.europa.combat.crt import CombatSetup, CrtResult, combat_setup, resolve_setup
from grognard.europa.combat.losses import keep_limit, loss_basis
from grognard.europa.combat.odds import TWO_D6, AttackOdds, attack_odds


@pytest.fixture(scope="module")
def positions() -> list[dict[str, Any]]:
    """Both sides' views of the oracle's heuristic game at commands 100, 200, ... (copies),
    with the context and a copy of the state."""
    return [{p: (game.context, copy.deepcopy(game.view(p)), copy.deepcopy(game.state))
             for p in ("axis", "soviet")} for game in _oracle_game(100)]


def _attack_odds_plain(attack: Attack, tables: Any) -> AttackOdds:
    """``europa.combat.odds.attack_odds`` as it was (session 14): each roll's outcome mapped
    over the 2D6 and summed in Fractions, the barrage's setup found again for the display."""
    fires = barrage_strength(attack) > 0
    barrage_rolls: dict[int | None, Fraction] = (
        {k: v for k, v in TWO_D6.probabilities().items()} if fires else {None: Fraction(1)})
    probs: dict[CrtResult, Fraction] = {}
    e_att = e_def = p_ar = p_dr = p_ae = p_de = p_hc = Fraction(0)
    hits: dict[int, Fraction] = {}
    cases: dict[int, tuple[Fraction, dict[CrtResult, Fraction]]] = {}
    shown: CombatSetup | None = None
    for b, pb in barrage_rolls.items():
        setup = combat_setup(attack, b, tables)
        if setup.barrage is not None:
            h = setup.barrage.outcome.hits
            hits[h] = hits.get(h, Fraction(0)) + pb
            if shown is None and h == 0:
                shown = setup
        outcomes = TWO_D6.map(lambda r, s=setup: resolve_setup(s, r, tables))
        p_case, dist = cases.get(setup.drm, (Fraction(0), {}))
        whole = loss_basis(setup.attack, Side.DEFENDER)
        keep = keep_limit(setup.attack, Side.DEFENDER, tables)  # session 30
        for o, p in outcomes.items():
            dist[o.result] = dist.get(o.result, Fraction(0)) + p * pb
            w = p * pb
            probs[o.result] = probs.get(o.result, Fraction(0)) + w
            e_att += w * o.effect.attacker_loss
            e_def += w * o.effect.defender_loss
            p_ar += w * (o.effect.attacker_retreat > 0)
            p_dr += w * (o.effect.defender_retreat > 0)
            p_ae += w * o.effect.attacker_eliminated
            p_de += w * (setup.hex_cleared or (whole > 0 and o.effect.defender_loss >= whole))
            p_hc += w * (setup.hex_cleared or o.effect.defender_retreat > 0
                         or (o.effect.defender_loss > 0 and o.effect.defender_loss > keep))
        cases[setup.drm] = (p_case + pb, dist)
    conditional = {d: (p, {r: q / p for r, q in dist.items()}) for d, (p, dist) in cases.items()}
    if shown is None:
        shown = combat_setup(attack, next(iter(barrage_rolls)), tables)
    return AttackOdds(shown, probs, e_att, e_def, p_ar, p_dr, p_ae, p_de,
                      hits if fires else None, conditional, p_hc)


def _same_odds(got: AttackOdds, want: AttackOdds) -> None:
    assert got == want
    # the same keys in the same order (the attack panel's JSON lists them so)
    assert list(got.probabilities) == list(want.probabilities)
    assert list(got.drm_cases) == list(want.drm_cases)
    for d, (_p, dist) in want.drm_cases.items():
        assert list(got.drm_cases[d][1]) == list(dist)
    if want.barrage is not None:
        assert got.barrage is not None and list(got.barrage) == list(want.barrage)
    assert got.to_json() == want.to_json()
    for f in ("expected_attacker_loss", "expected_defender_loss", "p_attacker_retreat",
              "p_defender_retreat", "p_attacker_eliminated", "p_defender_eliminated"):
        assert type(getattr(got, f)) is Fraction


_MADE_UP = [
    # attacking artillery fires a barrage first (EUR-29), defending artillery adds (EUR-08)
    {"attackers": [{"id": "i", "attack": 9}, {"id": "art", "attack": 4, "type": "artillery"}],
     "defenders": [{"id": "d", "defense": 6}, {"id": "da", "defense": 3, "type": "artillery"}]},
    {"attackers": [{"id": "i", "attack": 3}, {"id": "art", "attack": 12, "type": "artillery"}],
     "defenders": [{"id": "d", "defense": 1}], "terrain": "rough"},
    {"attackers": [{"id": "a", "attack": 10, "type": "armor"},
                   {"id": "art", "attack": 8, "type": "artillery"}],
     "defenders": [{"id": "d", "defense": 4}, {"id": "e", "defense": 2}], "bombardment": 1},
    # below the lowest column: the attacker eliminated with no roll
    {"attackers": [{"id": "i", "attack": 1}], "defenders": [{"id": "d", "defense": 9}]},
    {"attackers": [{"id": "i", "attack": 30}], "defenders": [{"id": "d", "defense": 2}]},
    {"attackers": [{"id": "a", "attack": 6, "type": "armor"}, {"id": "b", "attack": 5}],
     "defenders": [{"id": "d", "defense": 3}, {"id": "e", "defense": 4, "type": "armor"}],
     "terrain": "forest", "fortified": True},
]


def test_eur09_exact_odds_in_integer_weights_equal_the_fraction_sums(positions):
    """EUR-09/EUR-29 ``attack_odds`` (integer weights over one denominator, each result's
    effect once per setup) equals the plain Fraction sum over every roll (the session-14
    code kept above): every attack of every unit next to each enemy hex and of each single
    unit, on both sides' views of every position (over 1,000 models), and made-up models with
    a barrage (the game's positions have no attacking artillery) and an attacker below the
    lowest column. The same odds, the same key orders,
    the same JSON."""
    from grognard.europa.choices import adjacent_enemy_hexes
    from grognard.europa.combat.commands import attack_json, attack_model

    seen = {"models": 0, "fires": 0, "eliminated": 0}
    tables = None
    for pos in positions:
        for player, (ctx, view, _state) in pos.items():
            tables = ctx.tables
            for target, units in sorted(adjacent_enemy_hexes(ctx, view, player).items()):
                ids = [uid for uid, _u in units]
                for group in [ids, *([u] for u in ids)]:
                    try:
                        raw = attack_json(ctx, view, player, {"attackers": group,
                                                              "defender_hex": target})
                        want = _attack_odds_plain(attack_model(ctx, raw), ctx.tables)
                    except GrognardError:
                        continue
                    _same_odds(attack_odds(attack_model(ctx, raw), ctx.tables), want)
                    seen["models"] += 1
                    seen["fires"] += want.barrage is not None
                    seen["eliminated"] += want.setup.odds.eliminated
    for raw in _MADE_UP:
        attack = attack_from_json(raw, tables)
        want = _attack_odds_plain(attack, tables)
        _same_odds(attack_odds(attack, tables), want)
        seen["fires"] += want.barrage is not None
        seen["eliminated"] += want.setup.odds.eliminated
    assert seen["models"] > 300
    assert seen["fires"] >= 3 and seen["eliminated"] >= 1


def _overrun_legal_plain(ctx: Any, state: Any, player: str) -> list[Any]:
    """The ``overrun`` lister as it was (session 14): every stack next to an enemy hex
    checked whole, then unit by unit, each order through the Order's verify."""
    from grognard.core.units import GROUND_TYPES, UnitType
    from grognard.engine.commands import Command
    from grognard.europa.board import on_map
    from grognard.europa.choices import own_units
    from grognard.europa.combat.orders.overrun import OVERRUN

    if state["combat"]["pending"] is not None:
        return []
    stacks: dict[str, list[str]] = {}
    for uid, u in own_units(state, player):
        if UnitType(u["type"]) in GROUND_TYPES:
            stacks.setdefault(u["hex"], []).append(uid)
    m = ctx.scenario.map
    enemy = {u["hex"] for _, u in on_map(state) if u["side"] != player}
    out: list[Any] = []

    def check(ids: list[str], target: str) -> list[Any]:
        return OVERRUN.checked(ctx, state, [
            Command("overrun", player, {"units": ids, "target": target})])

    for here, ids in sorted(stacks.items()):
        for j in m.neighbor_indices(m.index_of_label(here)):
            target = m.label(int(j))
            if target not in enemy:
                continue
            found = check(ids, target)
            if not found:
                able = [uid for uid in ids if check([uid], target)]
                if able:
                    found = check(able, target)
            out.extend(found)
    return out


def test_eur18_overrun_lister_with_its_openings_lists_what_the_plain_lister_lists(positions):
    """EUR-18..EUR-20 The overrun lister, which leaves out the stacks and units
    ``overrun_openings`` finds refused (a hex already overrun, terrain or weather, a unit
    already overrun, short of MPs or ZOC to ZOC), lists the same orders in the same order as
    the plain lister that checks every stack and unit: both sides of every position, as
    played and with every unit's MPs given back (so stacks reach the overrun's checks), and
    after one overrun declared (its hex and units refused again this phase)."""
    from grognard.europa.combat.commands import overrun_openings
    from grognard.europa.combat.orders.overrun import OVERRUN

    listed = refused = 0
    for pos in positions:
        for player, (ctx, _view, state) in pos.items():
            fresh = copy.deepcopy(state)
            for u in fresh["units"].values():
                if u["side"] == player:
                    u["mp_spent"] = 0
            for s in (state, fresh):
                ctx.cache.clear()
                want = _overrun_legal_plain(ctx, s, player)
                ctx.cache.clear()
                got = OVERRUN.legal(ctx, s, player)
                assert got == want
                listed += len(want)
                if not want:
                    continue
                # one overrun declared: its hex and its units refused for the phase
                done = copy.deepcopy(s)
                first = want[0].args
                done["overrun"] = {"key": [int(done["turn"]), int(done["phase"])],
                                   "units": list(first["units"][:1]),
                                   "hexes": [first["target"]], "pending": None}
                ctx.cache.clear()
                want2 = _overrun_legal_plain(ctx, done, player)
                ctx.cache.clear()
                assert OVERRUN.legal(ctx, done, player) == want2
                assert want2 != want
            ctx.cache.clear()
            # the openings left something out (the plain lister had refusals to find)
            m = ctx.scenario.map
            for uid, u in sorted(state["units"].items()):
                if u["side"] != player or u["status"] != "active" or u["hex"] is None:
                    continue
                for j in m.neighbor_indices(m.index_of_label(u["hex"])):
                    opening = overrun_openings(ctx, state, player, u["hex"], m.label(int(j)),
                                               [uid])
                    refused += opening is None or not opening
    assert listed > 20 and refused > 1000


def _legal_moves_plain(ctx: Any, state: Any, player: str) -> list[Any]:
    """``europa.movement.legal_moves`` as it was (session 14): each hex's room found per
    unit size as the limit (``stack_limit``) less the side's REs there, in Fractions."""
    from grognard.engine.commands import Command
    from grognard.europa import movement as mv

    movers: dict[Any, list[str]] = {}
    for uid, u in sorted(state["units"].items()):
        if (u["side"] == player and u["status"] == "active" and u["hex"] is not None
                and u["type"] in mv._GROUND and mv.mp_left(u) > 0):
            movers.setdefault(mv.move_class(u), []).append(uid)
    out: list[Any] = []
    m = ctx.scenario.map
    have = mv._side_res(state, player)
    checked = mv._stacking_checked(ctx)

    def room(label: str) -> Fraction:
        if not checked:
            return Fraction(10**9)
        return mv.stack_limit(m, label) - have.get(label, Fraction(0))

    for cls, uids in movers.items():
        units = [state["units"][uid] for uid in uids]
        ranges = mv._graph(ctx, state, player, cls).ranges([mv.on_map_hex(u) for u in units],
                                                           [mv.mp_left(u) for u in units])
        for uid, u, r in zip(uids, units, ranges, strict=True):
            size = Fraction(u["re_size"])
            for h in r.labels():
                if h != u["hex"] and room(h) >= size:
                    out.append(Command("move", player, {"unit": uid, "to": h}))
    return out


def test_eur17_eur21_move_lister_with_rooms_kept_per_hex_lists_the_plain_moves(positions):
    """EUR-17/EUR-21 The move lister (each hex's room found once, as an int where the side
    has no units) lists the same moves in the same order as the plain lister (the room per
    size in Fractions): both sides of every position with every unit's MPs given back, and
    with the units packed into a few hexes so that the stacking limit refuses some moves."""
    from grognard.europa.movement import legal_moves

    listed = refused = 0
    for pos in positions:
        for player, (ctx, _view, state) in pos.items():
            fresh = copy.deepcopy(state)
            mine = sorted(uid for uid, u in fresh["units"].items() if u["side"] == player
                          and u["status"] == "active" and u["hex"] is not None)
            for uid in mine:
                fresh["units"][uid]["mp_spent"] = 0
            packed = copy.deepcopy(fresh)
            for k, uid in enumerate(mine):  # three of four units onto a neighbour's hex
                if k % 4:
                    packed["units"][uid]["hex"] = packed["units"][mine[k - k % 4]]["hex"]
            for s in (fresh, packed):
                ctx.cache.clear()
                want = _legal_moves_plain(ctx, s, player)
                ctx.cache.clear()
                got = legal_moves(ctx, s, player)
                assert got == want
                listed += len(want)
            ctx.cache.clear()
            refused += len(_legal_moves_plain(ctx, fresh, player)) - len(
                _legal_moves_plain(ctx, packed, player))
    assert listed > 10000 and refused != 0


def test_eur30_exploitation_plan_with_values_kept_per_hex_equals_the_plain_plan(positions,
                                                                                 monkeypatch):
    """EUR-30 The attacker's exploitation plan (``europa_offence.exploitation_plan``), whose
    options' fixed parts (the enemy's supply flow around a hex, the hex's value and its
    distance to the goals) are kept per hex (``kept_per_hex``), plans the same moves with the
    same scores as with each computed at every ask (``kept_per_hex`` made the identity): both
    sides of every position, every mechanized unit given back its MPs."""
    from tests.bots.test_europa_speed_s12 import SOURCES

    from grognard.bots import europa_offence as off
    from grognard.bots.heuristic import _graph, destination
    from grognard.bots.situation import Situation
    from grognard.europa.movement import legal_moves

    planned = 0
    for pos in positions[::2]:
        for player, (ctx, view, state) in pos.items():
            fresh = copy.deepcopy(state)
            for u in fresh["units"].values():
                if u["side"] == player:
                    u["mp_spent"] = 0
            ctx.cache.clear()
            cands = legal_moves(ctx, fresh, player)
            sit = Situation.of(ctx, view, player)
            g = _graph(sit.map, ctx.tables)
            enemy = "soviet" if player == "axis" else "axis"
            pic = off.Picture.of(sit, g, SOURCES[player], SOURCES[enemy])
            moves = off.moves_by_unit(sit, cands, destination)
            m = sit.map
            goals = set(SOURCES[enemy])

            def value_of(i: int, sit: Any = sit, m: Any = m, goals: Any = goals) -> float:
                return max(0.0, 1.0 - sit.nearest(m.label(i), goals) / 15)

            def goal_distance(i: int, sit: Any = sit, m: Any = m, goals: Any = goals) -> int:
                return int(sit.nearest(m.label(i), goals))

            got = off.exploitation_plan(pic, moves, value_of, goal_distance=goal_distance)
            with monkeypatch.context() as mp:
                mp.setattr(off, "kept_per_hex", lambda f: f)
                want = off.exploitation_plan(pic, moves, value_of, goal_distance=goal_distance)
            assert got == want
            planned += len(want)
    assert planned > 10


def test_eur09_attack_model_readings_kept_per_game_equal_the_parsed_readings(positions):
    """EUR-09 The ATTACK.json model's ``readings`` (made once per game's parsed readings and
    copied into each model) are the game's combat readings as parsed, each model its own
    dict (a change to one model's leaves the next as it was)."""
    from grognard.europa.board import readings_of
    from grognard.europa.choices import adjacent_enemy_hexes
    from grognard.europa.combat.attack import CombatReadings
    from grognard.europa.combat.commands import attack_json

    seen = 0
    for pos in positions:
        ctx, _view, state = pos["axis"]
        want = {k: (v.value if hasattr(v, "value") else v)
                for k, v in readings_of(ctx, CombatReadings).to_mapping().items()}
        assert want
        for target, units in sorted(adjacent_enemy_hexes(ctx, state, "axis").items())[:3]:
            raw = attack_json(ctx, state, "axis", {"attackers": [units[0][0]],
                                                   "defender_hex": target})
            assert raw["readings"] == want
            raw["readings"]["changed"] = True
            seen += 1
    assert seen >= 10


def test_eur17_range_kept_from_the_move_lister_equals_a_single_search(positions):
    """EUR-17 A unit's range kept with what its side's movers meet (``_SideMovement.ranges``:
    the move lister's windowed search, found again by a move's verify after the position
    changed) equals the single whole-map search (``_single_range``) the verify made before:
    the same hexes, costs and paths, for every unit of both sides of every position with its
    MPs given back."""
    import numpy as np

    from grognard.europa import movement as mv

    compared = 0
    for pos in positions:
        for player, (ctx, _view, state) in pos.items():
            fresh = copy.deepcopy(state)
            for u in fresh["units"].values():
                if u["side"] == player:
                    u["mp_spent"] = 0
            ctx.cache.clear()
            mv.legal_moves(ctx, fresh, player)
            ctx.cache.clear()  # another position: the lister's ranges are kept by the side
            side = mv._side(ctx, fresh, player)
            m = ctx.scenario.map
            for uid, u in sorted(fresh["units"].items()):
                if not (u["side"] == player and u["status"] == "active" and u["hex"] is not None
                        and u["type"] in mv._GROUND and mv.mp_left(u) > 0):
                    continue
                cls = mv.move_class(u)
                start = m.index_of_label(u["hex"])
                assert (cls, start, mv.mp_left(u)) in side.ranges
                got = mv.unit_range(ctx, fresh, uid)
                graph = mv._graph(ctx, fresh, player, cls)
                want = mv._single_range(graph, side.whole.setdefault(cls, mv._whole_rows(graph)),
                                        start, mv.mp_left(u))
                assert (got.start, got.mp, got.move_class) == (want.start, want.mp,
                                                               want.move_class)
                for f in ("hexes", "cost", "pred"):
                    assert np.array_equal(getattr(got, f), getattr(want, f)), (uid, f)
                compared += 1
    assert compared > 1000
