"""Issue 22 (session 13): the faster forms of 3R position facts equal the plain computations
they replace, on the shipped campaign map and on recorded and random games."""

from __future__ import annotations

import dataclasses
import gzip
import json
import random
from pathlib import Path

import numpy as np

from grognard.core.mapdata import WATER_TERRAIN, CityClass
from grognard.engine.commands import Command
from grognard.engine.fuzz import choose
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario
from grognard.third_reich import capture as capture_mod
from grognard.third_reich import war
from grognard.third_reich.capture import OccupationRule, capture_on_occupation
from grognard.third_reich.conquest import control as control_mod
from grognard.third_reich.conquest import diplomacy as dip
from grognard.third_reich.conquest.campaign_events import _COUNTRY_HEXES, _country_hexes
from grognard.third_reich.play.system import THIRD_REICH


def _country_hexes_walked(sc, countries):  # type: ignore[no-untyped-def]
    """The land hexes of ``countries`` by walking the map hex by hex, in map order."""
    m = sc.map
    out = []
    for i in range(m.n):
        h = m.hex(i)
        if m.country_of(h) in countries and m.terrain_of(h) not in WATER_TERRAIN:
            out.append(m.layout.to_label(h))
    return out


def test_tr24_minor_country_hexes_equal_the_walk() -> None:
    """TR-24: where a minor's units may appear - every country of the map alone, a minor with
    its colonies, a set with a country not on the map, and none - the same labels in the same
    order as the hex-by-hex walk."""
    sc = load_scenario("tr-1939-campaign")
    names = sorted({n for n in sc.map.country_names if n})
    assert len(names) > 20
    sets = [(n,) for n in names] + [tuple(names[:3]), ("nowhere",), (), tuple(names)]
    _COUNTRY_HEXES.clear()
    seen_land = 0
    for countries in sets:
        got = _country_hexes(sc, countries)
        assert got == _country_hexes_walked(sc, frozenset(countries)), countries
        seen_land += bool(got)
    assert seen_land > 20  # the sets name real land


# --- the war state: wars by pair, the closed masks -----------------------------------------

BENCH = Path(__file__).resolve().parents[2] / "bench" / "data"


def _recorded_positions(every: int):  # type: ignore[no-untyped-def]
    """The recorded heuristic tr-1939-campaign game, yielded every ``every`` commands and
    after each command that changed the diplomacy."""
    rec = json.loads(gzip.decompress((BENCH / "tr-1939-campaign-heuristic-1.json.gz")
                                     .read_bytes()))
    g = Game(load_scenario("tr-1939-campaign"), rec["seed"])
    last = None
    for i, raw in enumerate(rec["commands"]):
        g.apply(Command.from_json(raw))
        raw_d = g.state.get("diplomacy")
        if raw_d is not last or i % every == 0:
            last = raw_d
            yield g


def _war_scanned(d: dip.Diplomacy, a: str, b: str) -> dip.War | None:
    x, y = sorted((dip.belligerent_of(d, a), dip.belligerent_of(d, b)))
    for w in d.wars:
        if (w.a, w.b) == (x, y):
            return w
    return None


def _closed_walked(g: Game, power: str, action: str) -> np.ndarray:
    """TR-25: the closed mask hex by hex: each hex's country, the Vichy zone, the controller
    of a country out of the war (the rule as :func:`war.refusal` reads one hex)."""
    m = g.context.scenario.map
    d = war.diplomacy(g.state)
    act = dip.Action(action)
    mine = dip.side_of(d, power) or g.state["power_sides"].get(power)
    zone = war.vichy_zone(g.state, d)
    out = np.zeros(m.n, dtype=bool)
    for h in range(m.n):
        name = m.country_names[int(m.country[h])]
        if not name:
            continue
        lab = m.label(h)
        b = dip.belligerent_of(d, name)
        if b in d.out:
            if b == "france" and zone and lab in zone:
                out[h] = war._vichy_shut(g.state, d, power, act, mine)
                continue
            ctl = war._out_controller(g.state, b, lab)
        else:
            ctl = mine if act is dip.Action.SR else None
        out[h] = dip._may_enter(d, power, name, act, ctl) is not None
    return out


def test_tr25_wars_and_closed_masks_equal_the_scans() -> None:
    """TR-25/TR-26/TR-68: in the recorded game (every diplomacy it passes through: wars
    declared, minors conquered, France out and Vichy formed), the war between every pair of
    countries is the scan of the wars, and each closed mask is the hex-by-hex judgement."""
    checked = {"wars": 0, "masks": 0, "closed": 0, "out": 0}
    for g in _recorded_positions(400):
        d = war.diplomacy(g.state)
        names = sorted({*d.sides, *d.minors, *d.territory})
        for a in names:
            for b in names:
                assert dip.war_between(d, a, b) == _war_scanned(d, a, b), (a, b)
                checked["wars"] += dip.war_between(d, a, b) is not None
        checked["out"] += len(d.out)
        # the actions that share a move's mask refuse the same countries as a move
        shared = [a for a in dip.Action if a not in (dip.Action.SR, dip.Action.LEND_LEASE)]
        for power in ("germany", "uk", "ussr", "hungary"):
            for country in g.context.scenario.map.country_names:
                for ctl in (None, "axis", "allies"):
                    opened = {dip._may_enter(d, power, country, a, ctl) is None for a in shared}
                    assert len(opened) == 1, (power, country, ctl)
        for power in ("germany", "italy", "uk", "france", "ussr", "us", "hungary"):
            for action in ("move", "attack", "supply", "sr", "zoc", "air", "lend_lease"):
                got = war.closed_mask(g.context, g.state, power, action)
                assert np.array_equal(got, _closed_walked(g, power, action)), (power, action)
                checked["masks"] += 1
                checked["closed"] += int(got.sum())
    assert checked["wars"] > 100 and checked["masks"] > 300
    assert checked["out"] > 0 and checked["closed"] > 0


# --- capture on occupation from the written units ------------------------------------------


def _whole_pass_system():  # type: ignore[no-untyped-def]
    """The 3R rule system with the whole-table capture rule instead of the game's."""
    rest = tuple(r for r in THIRD_REICH.after_events if r[0] != "capture_on_occupation")
    return dataclasses.replace(THIRD_REICH, after_events=(
        ("capture_on_occupation", capture_on_occupation), *rest))


def _lockstep(scenario: str, seed: int, commands, undo_every: int = 0):  # type: ignore[no-untyped-def]
    """Apply the same commands to a game with the game's capture rule and one with the whole
    pass; the control after every command, and the whole state (its hash) after every
    command but a move and every tenth command, are the same.
    ``commands``: recorded ones, or None to choose at random in the first game."""
    sc = load_scenario(scenario)
    fast, whole = Game(sc, seed), Game(sc, seed, system=_whole_pass_system())
    rng = random.Random(seed)
    taken = 0
    for i, raw in enumerate(commands if commands is not None else range(300)):
        if fast.over:
            break
        cmd = Command.from_json(raw) if commands is not None else choose(fast, rng)
        if cmd is None:
            break
        before = dict(fast.state["control"])
        fast.apply(cmd)
        whole.apply(cmd)
        taken += sum(fast.state["control"].get(k) != v for k, v in before.items())
        assert fast.state["control"] == whole.state["control"], (scenario, i, cmd.kind)
        if i % 10 == 0 or cmd.kind != "move":
            assert fast.state_hash() == whole.state_hash(), (scenario, i, cmd.kind)
        if undo_every and i % undo_every == undo_every - 1 and fast.can_undo(cmd.player):
            fast.undo(cmd.player)
            whole.undo(cmd.player)
            assert fast.state_hash() == whole.state_hash()
    return taken


def test_tr22_capture_from_written_units_equals_the_whole_pass_recorded() -> None:
    """TR-22/TR-77: the recorded heuristic game (moves into enemy cities, battles, advances,
    minors entering, France's fall): the same control and state after every command."""
    rec = json.loads(gzip.decompress((BENCH / "tr-1939-campaign-heuristic-1.json.gz")
                                     .read_bytes()))
    assert _lockstep("tr-1939-campaign", rec["seed"], rec["commands"]) > 20


def test_tr22_capture_from_written_units_equals_the_whole_pass_random() -> None:
    """TR-22: random games of three scenarios, with an undo now and then."""
    taken = 0
    for scenario, seed in (("tr-1939-campaign", 3), ("tr-1939-invasion", 5),
                           ("tr-1939-campaign-3p", 7)):
        taken += _lockstep(scenario, seed, None, undo_every=9)
    assert taken > 0


def test_tr22_capture_rule_looks_only_where_units_moved() -> None:
    """The rule makes the whole pass only when it cannot tell (a few times a game: it relies
    on the folds' declarations, which tests/engine/test_unit_writes.py checks)."""
    rec = json.loads(gzip.decompress((BENCH / "tr-1939-campaign-heuristic-1.json.gz")
                                     .read_bytes()))
    g = Game(load_scenario("tr-1939-campaign"), rec["seed"])
    rule = dict(g.system.after_events)["capture_on_occupation"]
    assert isinstance(rule, OccupationRule)
    passes = 0
    real = control_mod.occupy_changes

    def counted(state):  # type: ignore[no-untyped-def]
        nonlocal passes
        passes += 1
        return real(state)
    capture_mod.occupy_changes = counted
    try:
        for raw in rec["commands"][:600]:
            g.apply(Command.from_json(raw))
    finally:
        capture_mod.occupy_changes = real
    moves = sum(1 for raw in rec["commands"][:600] if raw["kind"] == "move")
    assert moves > 200 and passes < moves // 4


# --- supply sources, ZOC counts, attrition powers ------------------------------------------


def test_tr72_sources_zoc_counts_and_active_powers_equal_the_scans() -> None:
    """TR-72/TR-27/TR-38: at positions of the recorded game, the supply sources of each side
    (kept capitals and ports) are the cities scanned, each power's ZOC counts the unit-by-unit
    answer, and the active powers of a side the units scanned (after the idle-phase scan and
    a move changed the table)."""
    from grognard.third_reich.board import forces_of_state
    from grognard.third_reich.supply.supply_map import PORTS, supply_sources

    seen = {"sources": 0, "counting": 0, "powers": 0}
    for g in _recorded_positions(150):
        m, s, ctx = g.context.scenario.map, g.state, g.context
        forces = forces_of_state(ctx, s)
        for side in ("axis", "allies"):
            caps = [c for p, sd in s["power_sides"].items() if sd == side
                    for c in g.scenario.home_countries.get(p, ())]
            want = sorted({h for h, cities in m.cities.items() for c in cities
                           if s["control"].get(c.name) == side and (
                               (CityClass.CAPITAL in c.classes and c.country in caps)
                               or bool(c.classes & PORTS))})
            got = supply_sources(m, s["control"], side, capital_countries=caps)
            assert got.tolist() == want, side
            seen["sources"] += len(want)
            powers = {str(u.get("power") or "") for u in s["units"].values()
                      if u.get("side") == side and u.get("status") == "active"} - {""}
            assert war.active_powers(ctx, s, side) == powers
            seen["powers"] += len(powers)
            d = war.diplomacy(s)
            for power in sorted(powers)[:4]:
                counts = war.zoc_counts_for(s, forces, side, power)
                for i, uid in enumerate(forces.ids):
                    other = str(s["units"][uid].get("power") or "")
                    enemy = s["units"][uid]["side"] != side
                    assert counts[i] == (enemy and (not other or dip.at_war(d, power, other)))
                seen["counting"] += int(counts.sum())
    assert seen["sources"] > 50 and seen["counting"] > 100 and seen["powers"] > 10


def test_tr27_forces_from_the_placement_equal_the_units_scanned() -> None:
    """The ground units on the map as Forces, made from the placement's entries, equal the
    ones packed from a scan of every unit (ids in order, hexes, sides), after every command
    of the recorded game's first 700 (moves, battles, eliminations, builds, minors)."""
    from grognard.core.paths import Forces
    from grognard.third_reich.board import forces_of_state, on_map_ground

    rec = json.loads(gzip.decompress((BENCH / "tr-1939-campaign-heuristic-1.json.gz")
                                     .read_bytes()))
    g = Game(load_scenario("tr-1939-campaign"), rec["seed"])
    sizes = set()
    for raw in rec["commands"][:700]:
        g.apply(Command.from_json(raw))
        got = forces_of_state(g.context, g.state)
        units = sorted((uid, u) for uid, u in g.state["units"].items() if on_map_ground(u))
        want = Forces.build(g.context.scenario.map, [u["hex"] for _, u in units],
                            [u["side"] for _, u in units], ids=[uid for uid, _ in units],
                            side_names=list(g.context.scenario.sides))
        assert got.ids == want.ids and got.side_names == want.side_names
        assert np.array_equal(got.hex, want.hex) and np.array_equal(got.side, want.side)
        assert np.array_equal(got.zoc_class, want.zoc_class)
        sizes.add(len(got))
    assert len(sizes) > 5


def test_c_econ_economy_written_and_read_as_the_plain_forms() -> None:
    """C-ECON: the economies of the recorded game (fractional balances from half options,
    conquests, minors), written with the remembered fraction texts and read back without
    parsing, equal the ledger's own JSON, an exact summary, and a full parse."""
    from grognard.core.exact import exact_json
    from grognard.core.ledger import Ledger
    from grognard.third_reich.board import economy_of
    from grognard.third_reich.economy.economy import Economy, _as_read, _with_ledger, ledger_json

    fractions = 0
    for g in _recorded_positions(100):
        e = economy_of(g.state)
        assert ledger_json(e.ledger) == e.ledger.to_json()
        assert e.summary() == {p.value: {"base": exact_json(e.base(p)),
                                         "brp": exact_json(e.brp(p))} for p in e.powers}
        parsed = Economy.from_json(json.loads(json.dumps(e.to_json())))
        read = _as_read(e)
        assert read == parsed and list(read.ledger.balances) == list(parsed.ledger.balances)
        assert list(read.conquests) == list(parsed.conquests)
        fractions += sum(v.denominator != 1 for v in e.ledger.balances.values())
        bare = Ledger(e.ledger.balances, ())
        assert _with_ledger(e, bare) == dataclasses.replace(e, ledger=bare)
        assert vars(_with_ledger(e, bare)) == vars(dataclasses.replace(e, ledger=bare))
    assert fractions > 0
    assert not hasattr(Economy, "__post_init__")  # what _with_ledger relies on


def test_tr27_shared_enemy_zoc_equals_a_fresh_field() -> None:
    """TR-27: the enemy part of the move ZOC field, shared by powers at war with the same
    enemy units, equals a field made afresh from those units, for four powers after every
    command of the recorded game's first 600."""
    from grognard.third_reich.board import axis_side_of, ground_unit_of
    from grognard.third_reich.movement.movement import enemy_zoc
    from grognard.third_reich.movement.moves import _enemy_entries, _unit_fields, move_zoc
    from grognard.third_reich.turn.forces import Side

    rec = json.loads(gzip.decompress((BENCH / "tr-1939-campaign-heuristic-1.json.gz")
                                     .read_bytes()))
    g = Game(load_scenario("tr-1939-campaign"), rec["seed"])
    axis = axis_side_of(g.context)
    shared = 0
    for n, raw in enumerate(rec["commands"][:600]):
        g.apply(Command.from_json(raw))
        if n % 3:
            continue
        fields = {}
        for side, power in ((Side.AXIS, "germany"), (Side.AXIS, "italy"),
                            (Side.ALLIES, "uk"), (Side.ALLIES, "france")):
            got = move_zoc(g.context, g.state, side, power)
            enemies = _enemy_entries(g.context, g.state, side, power)
            fresh = enemy_zoc(g.context.scenario.map, [
                (e[1], ground_unit_of(e[0], _unit_fields(e), axis)) for e in enemies], side)
            assert np.array_equal(got.strength, fresh.strength), (n, power)
            assert np.array_equal(got.enemy, fresh.enemy), (n, power)
            fields[power] = got.strength
        shared += sum(fields[a] is fields[b] for a, b in (("germany", "italy"),
                                                          ("uk", "france")))
    assert shared > 20


def test_czoc_blocked_hexes_kept_per_map_and_rules() -> None:
    """C-ZOC: the hexes no ZOC enters, kept per map and rules, equal the terrain,
    fortification and water masks made afresh, for the 3R and Europa rules on two maps."""
    from grognard.core.paths import edge_tables
    from grognard.core.zoc import _FORT_CODES, _blocked_into, europa_revised_zoc, third_reich_zoc

    for name in ("tr-1939-campaign", "europa-barbarossa"):
        m = load_scenario(name).map
        for rules in (third_reich_zoc(), europa_revised_zoc()):
            want = np.zeros(m.n, dtype=bool)
            if rules.not_into_terrain:
                want |= m.terrain_mask(*rules.not_into_terrain)
            if rules.not_into_fortification:
                want |= np.isin(m.fortification,
                                [_FORT_CODES[f] for f in rules.not_into_fortification])
            if rules.not_into_water:
                want |= edge_tables(m).water
            for _ in range(2):  # made, then kept
                assert np.array_equal(_blocked_into(m, rules), want), (name, rules)
            assert want.any()


def test_tr32_attack_candidates_by_hex_equal_the_distance_scan() -> None:
    """TR-32: the units that may join an attack on each enemy hex, gathered from the hex and
    its neighbours, are those within one hex by the distance scan (in the same order), in
    every combat phase opened at positions of the recorded game."""
    from grognard.third_reich.board import hex_front, on_map_ground
    from grognard.third_reich.combat.proposers import _attack_candidates
    from grognard.third_reich.proposals import distances, units_of

    seen = 0
    for g in _recorded_positions(60):
        ctx, m = g.context, g.context.scenario.map
        for idx, phase in enumerate(ctx.turn_sequence.phases):
            if phase.name not in ("combat", "mech_combat"):
                continue
            s = {**g.state, "phase": idx, "attacked": [], "attacked_hexes": []}
            player = phase.player
            mine = units_of(s, player, ground=True)
            ix = np.array([m.index_of_label(u["hex"]) for _, u in mine], dtype=np.intp)
            offensive = {f for f, o in s["options"].get(player, {}).items()
                         if o.get("option") == "offensive"}
            want = []
            for t in sorted({u["hex"] for u in s["units"].values()
                             if on_map_ground(u) and u["side"] != player}):
                th = m.index_of_label(t)
                if hex_front(m, th) not in offensive:
                    continue
                near = (distances(m, th, ix) <= 1).tolist()
                want.append((t, [uid for (uid, u), ok in zip(mine, near, strict=True) if ok and
                                 not war.closed_mask(ctx, s, str(u.get("power") or ""),
                                                     "attack")[th]]))
            got = list(_attack_candidates(ctx, s, player))
            assert got == want, (idx, player)
            seen += sum(len(c) for _, c in got)
    assert seen > 50


def test_tr27_step_edges_equal_the_row_scan() -> None:
    """TR-27: a path step's edge (the move check's cost lookup) is the first position of the
    neighbour in the hex's row of the map, and a step to a hex not adjacent is refused in the
    same words."""
    import pytest

    from grognard.core.errors import InputError
    from grognard.third_reich.movement.movement import _edge

    m = load_scenario("tr-1939-campaign").map
    checked = 0
    for a in range(0, m.n, 5):
        lo, hi = int(m.indptr[a]), int(m.indptr[a + 1])
        for b in m.indices[lo:hi].tolist():
            assert _edge(m, a, b) == lo + int(np.nonzero(m.indices[lo:hi] == b)[0][0])
            checked += 1
        far = (a + 200) % m.n
        if far not in m.indices[lo:hi]:
            with pytest.raises(InputError, match=f"{m.label(far)} is not adjacent to "
                                                 f"{m.label(a)}"):
                _edge(m, a, far)
    assert checked > 2000


def test_tr64_hexes_next_to_enemy_units_equal_the_map_walk() -> None:
    """TR-64: the hexes next to enemy ground units (where no unit is built), from the kept
    neighbour labels, equal the map's neighbours read afresh, for both sides at positions of
    the recorded game."""
    from grognard.third_reich.board import on_map_ground
    from grognard.third_reich.economy.orders.build_unit import _adjacent

    checked = 0
    for g in _recorded_positions(200):
        m = g.context.scenario.map
        for side in ("axis", "allies"):
            held = {u["hex"] for u in g.state["units"].values()
                    if on_map_ground(u) and u["side"] != side}
            want = {m.label(int(j)) for hx in held
                    for j in m.neighbor_indices(m.index(m.layout.from_label(hx)))}
            for _ in range(2):
                assert _adjacent(g.context, held) == want
            checked += len(want)
    assert checked > 500


def test_enum_member_lookup_equals_the_enum_call() -> None:
    """core.errors.member(kind, value) is kind(value): members, their values, equal values
    of other types, bad and unhashable values (the same member, or the same error)."""
    import enum

    import pytest

    from grognard.core.errors import member
    from grognard.core.mapdata import CityClass, Terrain
    from grognard.core.movement import MovementPhase
    from grognard.third_reich.turn.calendar import Region, Season, Weather
    from grognard.third_reich.turn.options import Front, Option
    from grognard.third_reich.turn.powers import Action, Power

    class Num(enum.IntEnum):
        ONE = 1
        TWO = 2

    class Flags(enum.IntFlag):
        A = 1
        B = 2

    kinds = [Power, Front, Option, Region, Season, Weather, Action, MovementPhase, CityClass,
             Terrain, Num, Flags]
    for kind in kinds:
        for m in kind:
            assert member(kind, m) is m is kind(m)
            assert member(kind, m.value) is kind(m.value)
        for bad in ("no-such", 99, None, ["list"], 1.0, True):
            try:
                want = kind(bad)
            except (ValueError, TypeError) as exc:
                with pytest.raises(type(exc)):
                    member(kind, bad)
            else:
                assert member(kind, bad) == want and type(member(kind, bad)) is type(want)
    assert member(Flags, 3) == Flags.A | Flags.B
