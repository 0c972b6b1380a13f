"""Issue 25 item 5, session 18: the Europa combat phase's listings and attack checks made
faster give the same answers (a pure refactor: the oracle's bot games keep their final state
hashes, ``bench/europa_bot_oracle.py``). Each shortcut is compared here with the plain
computation it replaced, on the refactor oracle's recorded heuristic europa-barbarossa game
replayed command by command, and each comparison can fail: the game gives the plain
computation something to find (counted), and a planted error is seen to be caught."""

from __future__ import annotations

import bisect
import copy
import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from tests.bots.test_europa_speed_s12 import _oracle_game

from grognard.bots import odds as bot_odds
from grognard.core.errors import GrognardError, IllegalOrder
from grognard.core.paths import Forces
from grognard.core.units import GROUND_TYPES, UnitType
from grognard.core.zoc import europa_revised_zoc, zoc_field
from grognard.engine.commands import Command
from grognard.europa import logistics
from grognard.europa.board import on_map, units_by_hex
from grognard.europa.choices import adjacent_enemy_hexes, own_units
from grognard.europa.combat import attack as attack_mod
from grognard.europa.combat import commands, crt
from grognard.europa.combat.odds import attack_odds
from grognard.europa.combat.orders import attack as attack_orders
from grognard.europa.combat.orders.overrun import OVERRUN


def _zoc_without_plain(ctx: Any, state: Any, player: str, label: str) -> Any:
    """EUR-19 The enemy ZOC mask of ``player``'s overrun of ``label`` as it was built
    (session 17): a whole-map field of every enemy unit within two hexes of ``label`` but
    those in it."""
    m = ctx.scenario.map
    target = m.index_of_label(label)
    ring = {int(j) for i in m.neighbor_indices(target) for j in m.neighbor_indices(int(i))}
    ring |= {int(i) for i in m.neighbor_indices(target)}
    ring.discard(target)
    by_hex = units_by_hex(ctx, state)
    others = [(uid, u) for h in sorted(ring) for uid, u in by_hex.get(m.label(h), ())]
    if not others:
        return np.zeros(m.n, dtype=bool)
    forces = Forces.build(m, [u["hex"] for _, u in others], [u["side"] for _, u in others],
                          zoc_class=[int(u.get("zoc_class", 1)) for _, u in others],
                          ids=[uid for uid, _ in others], side_names=list(state["sides"]))
    return zoc_field(m, forces, player, europa_revised_zoc()).mask()


def _compare_overrun_zoc() -> dict[str, int]:
    """:func:`commands._in_zoc_without` against the plain field at every 25th command of the
    recorded game, both sides, for every enemy-held hex next to a unit of the side, at the
    hex and each of its neighbours (where an overrun into it starts)."""
    seen = {"asked": 0, "in_zoc": 0, "free": 0}
    for game in _oracle_game(25):
        ctx, state = game.context, game.state
        m = ctx.scenario.map
        by_hex = units_by_hex(ctx, state)
        for player in ("axis", "soviet"):
            ours = {h for h, us in by_hex.items() if any(u["side"] == player for _, u in us)}
            targets = sorted({m.label(int(j)) for h in ours
                              for j in m.neighbor_indices(m.index_of_label(h))
                              if any(u["side"] != player
                                     for _, u in by_hex.get(m.label(int(j)), ()))})
            for label in targets:
                plain = _zoc_without_plain(ctx, state, player, label)
                t = m.index_of_label(label)
                for h in [t, *(int(j) for j in m.neighbor_indices(t))]:
                    got = commands._in_zoc_without(ctx, state, player, label, h)
                    assert got == bool(plain[h]), (len(game.commands), player, label, h)
                    seen["asked"] += 1
                    seen["in_zoc" if got else "free"] += 1
    return seen


def test_eur19_overrun_zoc_equals_the_whole_map_field() -> None:
    """EUR-19 Whether an overrun's start and target lie in enemy ZOC (the target's own units
    left out), read from the units whose ZOC enters the hex, is the whole-map field's verdict
    at every hex an overrun reads."""
    seen = _compare_overrun_zoc()
    assert seen["in_zoc"] > 0 and seen["free"] > 0, seen


def test_eur19_overrun_zoc_comparison_catches_a_planted_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when the map's ZOC sources lose one direction (a ZOC not
    spread into a hex from its first source)."""
    real = commands._zoc_sources

    def planted(ctx: Any) -> dict[int, tuple[int, ...]]:
        return {h: srcs[1:] for h, srcs in real(ctx).items()}

    monkeypatch.setattr(commands, "_zoc_sources", planted)
    with pytest.raises(AssertionError):
        _compare_overrun_zoc()


def _verdict(call: Any, *args: Any) -> str | None:
    """The refusal's text of ``call(*args)`` (None: it passes)."""
    try:
        got = call(*args)
    except IllegalOrder as exc:
        return str(exc)
    return None if got is None or isinstance(got, dict) else str(got)


def _compare_attack_refusals() -> dict[str, int]:
    """:func:`logistics.attack_refusal` (kept across the game) against the plain
    :func:`logistics.attack_payment` at every 25th command of the recorded game, both sides:
    each enemy-held hex attacked by all the side's adjacent units and by each alone, as
    overrun and attack, on the position and on it with the side's stockpile at 1 SP and no
    special SPs (so the stockpile refuses some)."""
    seen = {"asked": 0, "refused": 0, "paid": 0}
    for game in _oracle_game(25):
        ctx, state = game.context, game.state
        lg = state.get("logistics")
        if not lg:
            continue
        for player in ("axis", "soviet"):
            poor = dict(state, logistics=dict(lg, special=0, sp=dict(lg["sp"], **{player: 1})))
            for target, units in sorted(adjacent_enemy_hexes(ctx, state, player).items()):
                ids = [uid for uid, _ in units]
                for attackers in [ids, *([uid] for uid in ids)]:
                    for overrun in (False, True):
                        for st in (state, poor):
                            asked = (ctx, st, player, attackers, overrun)
                            plain = _verdict(logistics.attack_payment, *asked)
                            got = _verdict(logistics.attack_refusal, *asked)
                            assert got == plain, (len(game.commands), player, target, attackers)
                            seen["asked"] += 1
                            seen["paid" if plain is None else "refused"] += 1
    return seen


def test_eur37_attack_refusal_equals_the_plain_payment() -> None:
    """EUR-37 The SP verdict verify asks of an attack, kept per game under what it reads,
    refuses exactly what the attack's payment refuses, with the same words."""
    seen = _compare_attack_refusals()
    assert seen["refused"] > 0 and seen["paid"] > 0, seen


def test_eur37_attack_refusal_comparison_catches_a_planted_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when the kept verdict's key forgets the side's stockpile."""
    real = logistics._refusal_key

    def planted(state: Any, *args: Any) -> tuple[Any, ...]:
        return real(state, *args)[:-1]

    monkeypatch.setattr(logistics, "_refusal_key", planted)
    with pytest.raises(AssertionError):
        _compare_attack_refusals()


def _plain_attack(raw: Any, tables: Any) -> Any:
    """EUR-09 :func:`attack_from_json` with every unit and the readings parsed afresh (the
    kept parses left as they are)."""
    kept = attack_mod._flat_key
    try:
        attack_mod._flat_key = lambda raw: None  # type: ignore[assignment]
        return attack_mod.attack_from_json(raw, tables)
    finally:
        attack_mod._flat_key = kept


def _compare_parsed_models(every: int = 25) -> dict[str, int]:
    """The ATTACK.json models the listers and the bots build (each enemy-held hex attacked by
    all the side's adjacent units and by each alone, from the position and from the side's
    view) at every 25th command of the recorded game: parsed with the kept units and readings
    (kept across the whole replay) and afresh, the same :class:`Attack`."""
    seen = {"models": 0, "units": 0, "kept": 0}
    models = []
    for game in _oracle_game(every):
        ctx = game.context
        for player in ("axis", "soviet"):
            for st in (game.state, game.view(player)):
                for target, units in sorted(adjacent_enemy_hexes(ctx, st, player).items()):
                    ids = [uid for uid, _ in units]
                    for attackers in [ids, *([uid] for uid in ids)]:
                        try:
                            raw = commands.attack_json(
                                ctx, st, player, {"attackers": attackers, "defender_hex": target})
                        except GrognardError:
                            continue
                        models.append(raw)
                        if raw["attackers"] and raw["attackers"][0].get("supply") == "in":
                            # the same unit out of supply (EUR-30): a key that forgot the
                            # supply state would serve it the parse of the one in supply
                            other = copy.deepcopy(raw)
                            other["attackers"][0]["supply"] = "out"
                            models.append(other)
                            seen["units"] += len(other["attackers"]) + len(other["defenders"])
                        got = attack_mod.attack_from_json(raw, ctx.tables)
                        seen["models"] += 1
                        seen["units"] += len(got.attackers) + len(got.defenders)
        tables = ctx.tables
    for raw in models:  # afresh after the kept parses of the whole game
        kept = attack_mod.attack_from_json(raw, tables)
        seen["kept"] += sum(1 for u in raw["attackers"] + raw["defenders"]
                            if attack_mod._COMBATANTS.get(attack_mod._flat_key(u)) is not None)
        assert kept == _plain_attack(raw, tables), raw
    return seen


def test_eur09_kept_unit_parses_give_the_same_attack() -> None:
    """EUR-09 An attack model parsed with each unit's and the readings' parse kept per content
    is the model parsed afresh, for every model of the game."""
    seen = _compare_parsed_models()
    assert seen["models"] > 1000 and seen["kept"] == seen["units"], seen


def test_eur09_kept_unit_parse_comparison_catches_a_planted_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when a unit's key forgets its supply state."""
    real = attack_mod._flat_key

    def planted(raw: Any) -> tuple[Any, ...] | None:
        return real({k: v for k, v in raw.items() if k != "supply"})

    monkeypatch.setattr(attack_mod, "_flat_key", planted)
    attack_mod._COMBATANTS.clear()
    with pytest.raises(AssertionError):
        _compare_parsed_models()
    attack_mod._COMBATANTS.clear()


def _compare_kept_odds() -> dict[str, int]:
    """EUR-09 The odds of the models the listers and the bots build (as in
    :func:`_compare_parsed_models`) at every 50th command of the recorded game, each first
    judged by the lister's setup check and then estimated (so the two share one kept model
    and its setups), against :func:`attack_odds` of the model parsed afresh (a new object:
    none of its setups kept before)."""
    seen = {"models": 0, "fires": 0, "refused": 0}
    for game in _oracle_game(50):
        ctx = game.context
        for player in ("axis", "soviet"):
            for st in (game.state, game.view(player)):
                for target, units in sorted(adjacent_enemy_hexes(ctx, st, player).items()):
                    ids = [uid for uid, _ in units]
                    for attackers in [ids, *([uid] for uid in ids)]:
                        try:
                            raw = commands.attack_json(
                                ctx, st, player, {"attackers": attackers, "defender_hex": target})
                        except GrognardError:
                            continue
                        for model in (raw, _with_artillery(raw)):
                            if commands._setup_refusal(ctx, model) is not None:
                                seen["refused"] += 1
                                continue
                            got = attack_orders.odds_of_model(ctx, model)
                            fresh = attack_mod.attack_from_json(model, ctx.tables)
                            assert got == attack_odds(fresh, ctx.tables), model
                            seen["models"] += 1
                            seen["fires"] += got.barrage is not None
    return seen


def _with_artillery(raw: dict[str, Any]) -> dict[str, Any]:
    """The model with an artillery unit (EUR-29: it fires a barrage first; alone it may not
    attack, EUR-03) joining its first attacker, or in its place when that one attacks alone."""
    first = raw["attackers"][0]
    art = dict(first, id=first["id"] + "-art", type="artillery", division=False, cadre=False,
               re_size=1, armor="none")
    return dict(raw, attackers=[*raw["attackers"][1:], art] if len(raw["attackers"]) == 1
                and len(raw["defenders"]) > 1 else [*raw["attackers"], art])


def test_eur09_kept_models_and_setups_give_the_same_odds() -> None:
    """EUR-09 An attack's odds from the model kept per canonical JSON (its setups kept per
    object, roll and tables) are the odds of the model made afresh, artillery barrages
    included (EUR-29)."""
    seen = _compare_kept_odds()
    assert seen["models"] > 500 and seen["fires"] > 0 and seen["refused"] > 0, seen


def test_eur09_kept_odds_comparison_catches_a_planted_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when models are kept under a key that forgets the attackers."""
    def planted(raw: Any) -> str:
        return commands.model_key({k: v for k, v in raw.items() if k != "attackers"})

    monkeypatch.setattr(attack_orders, "model_key", planted)
    monkeypatch.setattr(attack_orders, "_ODDS", type(attack_orders._ODDS)())
    monkeypatch.setattr(commands, "_MODELS", type(commands._MODELS)())
    with pytest.raises(AssertionError):
        _compare_kept_odds()


def _odds_column_plain(attack_strength: Fraction, defense_strength: Fraction,
                       left_shifts: int, columns: list[str], below: Any) -> Any:
    """EUR-09 :func:`crt.odds_column` as it was (session 17): each column's odds parsed and
    the columns walked for every attack."""
    cols = list(columns)
    ratios = [crt.column_ratio(c) for c in cols]
    assert ratios == sorted(ratios)
    ratio = None if defense_strength == 0 else Fraction(attack_strength) / defense_strength
    top = ratios[-1]
    if ratio is None:
        index = len(cols) - 1 + left_shifts
    elif ratio >= top:
        extra = math.floor(ratio) - math.floor(top) if top >= 1 else 0
        index = len(cols) - 1 + extra
    else:
        fits = [i for i, r in enumerate(ratios) if ratio >= r]
        index = fits[-1] if fits else -1
    shifted = index - left_shifts
    if shifted < 0:
        if below == crt.BelowLowest.CLAMP and index >= 0:
            return crt.OddsColumn(crt.odds_text(ratio), cols[0], -left_shifts, False)
        return crt.OddsColumn(crt.odds_text(ratio), None, -left_shifts, True)
    return crt.OddsColumn(crt.odds_text(ratio), cols[min(shifted, len(cols) - 1)],
                          -left_shifts, False)


def test_eur09_odds_column_equals_the_plain_walk() -> None:
    """EUR-09 The odds column found from the columns' kept odds by bisection is the plain
    walk's, at every strength 0-40 (halves included) against 1-20, every shift 0-3, both
    readings below the lowest column; the grid reaches every column, the cap and below it."""
    cols = list(crt.crt_table().columns)
    seen: set[Any] = set()
    for a2 in range(81):
        for d in range(0, 21):
            for shift in range(4):
                for below in crt.BelowLowest:
                    a = Fraction(a2, 2)
                    got = crt.odds_column(a, Fraction(d), shift, cols, below)
                    assert got == _odds_column_plain(a, Fraction(d), shift, cols, below)
                    seen.add(got.column)
    assert set(cols) | {None} <= seen, seen


def test_eur09_odds_column_comparison_catches_a_planted_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when odds exactly at a column are put in the column below."""
    monkeypatch.setattr(crt, "bisect_right", bisect.bisect_left)
    with pytest.raises(AssertionError):
        test_eur09_odds_column_equals_the_plain_walk()


def _adjacent_enemy_hexes_plain(ctx: Any, state: Any, player: str) -> dict[str, Any]:
    """:func:`adjacent_enemy_hexes` as it was (session 17): the units on the map sorted
    afresh twice a call."""
    m = ctx.scenario.map
    enemy = {u["hex"] for _, u in on_map(state) if u["side"] != player}
    out: dict[str, list[Any]] = {}
    for uid, u in own_units(state, player):
        for j in m.neighbor_indices(m.index_of_label(u["hex"])):
            label = m.label(int(j))
            if label in enemy:
                out.setdefault(label, []).append((uid, u))
    return out


def _overrun_legal_plain(ctx: Any, state: Any, player: str) -> list[Command]:
    """The EUR-18 overrun lister's stacks and targets as they were found (session 17)."""
    if state["combat"]["pending"] is not None:
        return []
    stacks: dict[str, list[str]] = {}
    for uid, u in own_units(state, player):
        if UnitType(u["type"]) in GROUND_TYPES:
            stacks.setdefault(u["hex"], []).append(uid)
    m = ctx.scenario.map
    enemy = {u["hex"] for _, u in on_map(state) if u["side"] != player}
    out: list[Command] = []

    def check(ids: list[str], target: str) -> list[Command]:
        return OVERRUN.checked(ctx, state, [
            Command("overrun", player, {"units": ids, "target": target})])

    for here, ids in sorted(stacks.items()):
        for j in m.neighbor_indices(m.index_of_label(here)):
            target = m.label(int(j))
            if target not in enemy:
                continue
            opening = commands.overrun_openings(ctx, state, player, here, target, ids)
            if opening is None:
                continue
            found = check(ids, target) if len(opening) == len(ids) else []
            if not found:
                able = [uid for uid in opening if check([uid], target)]
                if able:
                    found = check(able, target)
            out.extend(found)
    return out


def _compare_listers_units(plant: bool = False) -> dict[str, int]:
    """The attack lister's adjacent enemy hexes and the overrun lister against their plain
    forms at every 25th command of the recorded game, both sides (``plant``: the per-position
    list of the units on the map served stale from the previous position)."""
    seen = {"hexes": 0, "overruns": 0}
    stale: Any = None
    for game in _oracle_game(25):
        ctx, state = game.context, game.state
        if plant and stale is not None:
            ctx.cache["europa.on_map"] = (state, stale)
        for player in ("axis", "soviet"):
            plain = _adjacent_enemy_hexes_plain(ctx, state, player)
            assert adjacent_enemy_hexes(ctx, state, player) == plain, len(game.commands)
            listed = _overrun_legal_plain(ctx, state, player)
            assert OVERRUN.legal(ctx, state, player) == listed, len(game.commands)
            seen["hexes"] += len(plain)
            seen["overruns"] += len(listed)
        stale = [(uid, dict(u)) for uid, u in on_map(state)]  # the records as they stand
    return seen


def test_eur09_eur18_listers_read_the_units_once_per_position() -> None:
    """EUR-09/EUR-18 The attack lister's enemy hexes and the overrun lister, reading the units
    on the map once per position, list what their plain forms list."""
    seen = _compare_listers_units()
    assert seen["hexes"] > 0 and seen["overruns"] > 0, seen


def test_eur09_eur18_listers_comparison_catches_a_planted_error() -> None:
    """The comparison fails when the units on the map are those of an earlier position."""
    with pytest.raises(AssertionError):
        _compare_listers_units(plant=True)


def _from_odds_plain(got: dict[str, Any]) -> Any:
    """:func:`bots.odds.from_odds` as it was (session 17): every figure read back from its
    text."""
    def frac(x: Any) -> Fraction | None:
        return Fraction(str(x)) if x is not None else None
    taken = [frac(got.get(k)) for k in ("p_taken", "p_defender_eliminated",
                                         "p_defender_retreat")]
    return bot_odds.Estimate(max(t for t in taken if t is not None),
                             frac(got["expected_attacker_loss"]),  # type: ignore[arg-type]
                             frac(got["expected_defender_loss"]),  # type: ignore[arg-type]
                             str(got.get("column", "")),
                             frac(got.get("p_hex_cleared")))  # session 30


def _compare_estimates() -> dict[str, int]:
    """EUR-09 The bots' estimates (the system's estimate hook from the side's view, read by
    :func:`bots.odds.from_odds`) at every 50th command of the recorded game, both sides, each
    enemy-held hex attacked by all adjacent units and by each alone, against the plain
    reading; how many were not whole numbers (a reading by text or float would show)."""
    seen = {"estimates": 0, "fractional": 0}
    for game in _oracle_game(50):
        ctx = game.context
        for player in ("axis", "soviet"):
            view = game.view(player)
            for target, units in sorted(adjacent_enemy_hexes(ctx, view, player).items()):
                ids = [uid for uid, _ in units]
                for attackers in [ids, *([uid] for uid in ids)]:
                    got = attack_orders.estimate(ctx, view, player, target, attackers)
                    if got is None:
                        continue
                    est = bot_odds.from_odds(got)
                    assert est == _from_odds_plain(got), got
                    seen["estimates"] += 1
                    seen["fractional"] += est is not None and est.p_taken.denominator > 1
    return seen


def test_eur09_bot_estimates_read_exact_figures_as_they_are() -> None:
    """EUR-09 A bot's estimate read from the hook's exact figures is the estimate read back
    from their text."""
    seen = _compare_estimates()
    assert seen["estimates"] > 500 and seen["fractional"] > 0, seen


def test_eur09_bot_estimates_comparison_catches_a_planted_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when exact figures are read through a float."""
    monkeypatch.setattr(bot_odds, "_fraction",
                        lambda x: None if x is None else Fraction(float(Fraction(str(x)))))
    with pytest.raises(AssertionError):
        _compare_estimates()
