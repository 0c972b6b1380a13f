"""Issue 22 (session 14): the kept and faster forms of 3R facts equal the plain computations
they replace, on the recorded heuristic game and on random games (each test fails when the
kept form answers differently)."""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from grognard.core.errors import GrognardError
from grognard.core.hexgrid import distance
from grognard.engine.commands import Command
from grognard.engine.fuzz import choose
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario
from grognard.third_reich.board import on_map_ground
from grognard.third_reich.combat.orders.attack import Attack
from grognard.third_reich.state import AIR_TYPES

BENCH = Path(__file__).resolve().parents[2] / "bench" / "data"


def _recorded(every: int) -> Iterator[Game]:
    """The recorded heuristic tr-1939-campaign game, yielded every ``every`` commands."""
    rec = json.loads(gzip.decompress((BENCH / "tr-1939-campaign-heuristic-1.json.gz")
                                     .read_bytes()))
    g = Game(load_scenario("tr-1939-campaign"), rec["seed"])
    for i, raw in enumerate(rec["commands"]):
        g.apply(Command.from_json(raw))
        if i % every == 0:
            yield g


def _random(scenario: str, seed: int, n: int, every: int) -> Iterator[Game]:
    g = Game(load_scenario(scenario), seed)
    rng = random.Random(seed)
    for i in range(n):
        if g.over:
            return
        cmd = choose(g, rng)
        if cmd is None:
            return
        g.apply(cmd)
        if i % every == 0:
            yield g


def _verdict(verify: Any, ctx: Any, state: Any, cmd: Command) -> tuple[str, str] | None:
    try:
        verify(ctx, state, cmd)
    except GrognardError as exc:
        return type(exc).__name__, str(exc)
    return None


def _attack_trials(g: Game) -> Iterator[tuple[dict[str, Any], Command]]:
    """Attack orders in each combat phase opened at ``g``'s position: every unit of the
    phasing player next to or in an enemy hex alone, pairs of them, all of them, each with
    and without one defending air unit (what the reaction options try), the same hex and
    attackers asked more than once."""
    ctx, m = g.context, g.context.scenario.map
    for idx, phase in enumerate(ctx.turn_sequence.phases):
        if phase.name not in ("combat", "mech_combat"):
            continue
        s = {**g.state, "phase": idx, "attacked": [], "attacked_hexes": []}
        player = phase.player
        units = s["units"]
        mine = sorted(uid for uid, u in units.items() if on_map_ground(u) and
                      u["side"] == player)
        air = sorted(uid for uid, u in units.items() if u["type"] in AIR_TYPES and
                     u["status"] == "active" and u["hex"] is not None and
                     u["side"] != player)[:3]
        targets = sorted({u["hex"] for u in units.values() if on_map_ground(u) and
                          u["side"] != player})
        for t in targets:
            th = m.layout.from_label(t)
            near = [uid for uid in mine
                    if distance(m.layout.from_label(units[uid]["hex"]), th) <= 1]
            if not near:
                continue
            groups = [[a] for a in near] + [near[:2], near, near[:1]]
            for grp in groups:
                for extra in ([], *([d] for d in air)):
                    args: dict[str, Any] = {"hex": t, "attackers": grp}
                    if extra:
                        args["defensive_air"] = extra
                    yield s, Command("attack", player, args)


def _check(games: Iterator[Game]) -> tuple[int, int]:
    """Each attack trial's verdict with the verdicts kept in the position (asked in turn, as
    the scan and the reaction options ask) equals a cold verify (the position's cache
    cleared before it). Returns (trials, passed)."""
    verify = Attack().raw_spec().verify
    n = ok = 0
    for g in games:
        ctx = g.context
        trials = list(_attack_trials(g))
        warm = [_verdict(verify, ctx, s, cmd) for s, cmd in trials]
        for (s, cmd), got in zip(trials, warm, strict=True):
            ctx.cache.clear()
            assert got == _verdict(verify, ctx, s, cmd), cmd
        ctx.cache.clear()
        n += len(trials)
        ok += sum(v is None for v in warm)
    return n, ok


def test_tr32_attack_verdicts_kept_per_position_equal_cold_verifies_recorded() -> None:
    """TR-03/TR-25/TR-32/TR-35: on the recorded game the kept hex and odds verdicts give
    every attack trial the verdict (refusal and words) of a verify from scratch."""
    n, ok = _check(_recorded(97))
    assert n > 500 and 0 < ok < n


def test_tr32_attack_verdicts_kept_per_position_equal_cold_verifies_random() -> None:
    """The same on random games of two scenarios."""
    n = 0
    for scenario, seed in (("tr-1939-campaign", 4), ("tr-1939-invasion", 6)):
        got, _ok = _check(_random(scenario, seed, 400, 37))
        n += got
    assert n > 100


# --- kept small values: dates by turn, ground units by their record's fields -------------------


def test_tr04_dates_kept_by_turn_equal_the_computed_dates() -> None:
    """TR-04: every campaign turn's date, asked twice (made, then kept), equals the arithmetic;
    a turn out of the campaign or not an integer is refused every time (never kept)."""
    from grognard.core.errors import InputError
    from grognard.third_reich.turn import calendar as cal

    for turn in range(cal.FIRST_TURN, cal.LAST_TURN + 1):
        k = turn - cal.SPRING_1940
        want = cal.GameDate(turn, 1940 + k // cal.TURNS_PER_YEAR,
                            cal.SEASONS[k % cal.TURNS_PER_YEAR])
        assert cal.date_of(turn) == want and cal.date_of(turn) == want
    assert cal.date_of(1).year == 1939 and cal.date_of(2).season.value == "winter"
    for bad in (0, -3, cal.LAST_TURN + cal.TURNS_PER_YEAR + 1, True, "5"):
        for _ in range(2):
            try:
                cal.date_of(bad)  # type: ignore[arg-type]
            except InputError:
                continue
            raise AssertionError(bad)


def test_tr32_ground_units_kept_equal_fresh_values() -> None:
    """TR-32/TR-27: the ground unit of every record of the recorded game (every 50 commands)
    and of records with one field changed at a time equals a freshly made one."""
    from grognard.third_reich import board
    from grognard.third_reich.turn.forces import GroundKind, GroundUnit, Side

    def fresh(uid: str, u: dict[str, Any], axis: str) -> GroundUnit:
        kind = {"armor": GroundKind.ARMOR, "airborne": GroundKind.AIRBORNE,
                "replacement": GroundKind.REPLACEMENT}.get(u["type"], GroundKind.INFANTRY)
        return GroundUnit(uid, u["nationality"], Side.AXIS if u["side"] == axis else
                          Side.ALLIES, kind, int(u["attack"]), int(u["movement"]))

    n = 0
    for g in _recorded(50):
        for uid, u in g.state["units"].items():
            if "attack" not in u or u["type"] not in {"armor", "infantry", "airborne",
                                                      "replacement"}:
                continue
            for rec in (u, {**u, "attack": int(u["attack"]) + 1}, {**u, "type": "armor"},
                        {**u, "side": "allies" if u["side"] == "axis" else "axis"},
                        {**u, "movement": int(u["movement"]) + 1}):
                for axis in ("axis", "allies"):
                    got = board.ground_unit_of(uid, rec, axis)
                    assert got == fresh(uid, rec, axis), (uid, rec)
                    n += 1
    assert n > 1000


def test_tr40_ground_units_in_a_hex_equal_the_scan() -> None:
    """TR-38/TR-40: the units of each hex an attrition names (its hexes won candidates and the
    losses owed) from the position's index equal the scan of every unit, in every hex holding
    units and in empty ones, on the recorded game and a random game."""
    from grognard.third_reich.attritions import ground_units_in

    n = 0
    for g in [*_recorded(80), *_random("tr-1939-campaign", 9, 300, 40)]:
        units = g.state["units"]
        hexes = sorted({u["hex"] for u in units.values() if u["hex"] is not None})
        for h in [*hexes, "nowhere"]:
            want = sorted(uid for uid, u in units.items() if on_map_ground(u) and u["hex"] == h)
            assert ground_units_in(g.context, g.state, h) == want, h
            n += bool(want)
    assert n > 500


def test_c_econ_economy_parts_written_once_per_object_equal_fresh_forms() -> None:
    """C-ECON/TR-75: the economy's JSON and its read-back value, with the parts carried over
    unchanged written once per object, equal the forms made afresh (the kept forms cleared)
    for every economy of the recorded game (every 10 commands) and of postings made from it;
    a JSON written and then changed by its reader does not change the next one written."""
    from grognard.third_reich.board import economy_of
    from grognard.third_reich.economy import economy as E

    n = 0
    for g in _recorded(10):
        econ = economy_of(g.state)
        for e in (econ, econ.post("germany.brp", 3, "TR-75", "test"),
                  E.replace(econ, conquests={**econ.conquests, "zz": econ.powers[0]})):
            warm, warm_read = e.to_json(), E._as_read(e)
            again = e.to_json()
            for v in again.values():
                if isinstance(v, list):
                    v.append("changed")
                elif isinstance(v, dict):
                    v["changed"] = 1
            assert e.to_json() == warm
            E._FORMS.clear()
            assert warm == e.to_json() and warm_read == E._as_read(e)
            assert warm_read == E.Economy.from_json(warm)
            n += 1
    assert n > 300
