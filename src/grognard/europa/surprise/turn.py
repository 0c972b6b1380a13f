"""Rule 47 in the Europa engine turn: a started surprise runs its turn (SUR-01, SUR-15..SUR-18,
SUR-21, SUR-25/26).

When a plan starts (``start_surprise``, local) or an invasion surprise fires
(``start_invasion_surprise``), the same command rolls the surprise effects (SUR-15: one die per
defending command on the effects table, stream ``europa.surprise.effects``) and puts the
"+ # MP" markers (Table 2) on every defending stack in range; ``state["surprise_turn"]`` then
opens the bonus phases the sequence holds after the player's initial phase (SUR-01):
bonus movement, the defender's reaction (local only, SUR-18), bonus combat and the bonus
supply-judgement phase (SUR-21); in a turn without a surprise the engine skips them.

* SUR-16: a unit under markers pays ``marker_removal_mp`` MPs extra on its first move (the
  markers then go); in an invasion surprise Soviet units moving closer to the enemy border remove
  one marker free per hex (reading: counted as hexes moved).
* SUR-17 (47.A.5.h): in the bonus movement phase a ground unit that started in an enemy ZOC of
  its own class or greater may not move (it may attack).
* SUR-18: in the reaction phase only defending units within 5 hexes of the surprise front move.

Readings (documented in docs/features/SUR.md): the scenario gives no army groups, so the
defending side is one command (a unit's ``command`` in ``[europa.commands]`` splits it); the
invasion surprise counts marker distances from the invaded country's border and uses the
largest SRP level (the whole border is surprised).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import distance
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.phases import Phase
from grognard.engine.state import JSON
from grognard.europa.board import europa_rules, on_map_hex, readings_of, turn_label
from grognard.europa.state_types import (
    EuropaState,
    InvasionSurpriseStarted,
    SurpriseStarted,
    SurpriseTurn,
)
from grognard.europa.surprise.effects import (
    SUCCESS_TABLE,
    ActionContext,
    StackMember,
    SurpriseAction,
    effects_rolls,
    marker_count,
    marker_removal_mp,
    surprise_action_problem,
)
from grognard.europa.surprise.general import (
    AfterFite,
    BonusPhase,
    FrontReadings,
    Nationality,
    SurpriseKind,
)
from grognard.europa.surprise.invasion import InvasionHistory, InvasionTrigger, invasion_surprise

EFFECTS_STREAM = "europa.surprise.effects"
BONUS_PHASES = tuple(p.value for p in BonusPhase)
#: Command kinds of each bonus phase (``end_phase`` is always allowed).
BONUS_COMMANDS: Mapping[str, tuple[str, ...]] = {
    BonusPhase.BONUS_MOVEMENT.value: ("move", "airbase_surprise"),
    BonusPhase.REACTION.value: ("move",),
    BonusPhase.BONUS_COMBAT.value: ("attack", "airbase_surprise"),
    BonusPhase.BONUS_SUPPLY_AIR.value: ("bonus_supply_judgement", "bonus_air_recovery"),
}
INVASION_LEVEL = 10
RESERVE_HEXES = 5


def bonus_phases_after_initial(phases: tuple[Phase, ...], sides: Sequence[str]
                               ) -> tuple[Phase, ...]:
    """SUR-01 The turn's phases with the bonus phases after each player's initial phase; the
    reaction phase is the other player's."""
    out: list[Phase] = []
    for p in phases:
        out.append(p)
        if p.name != "initial":
            continue
        other = next((s for s in sides if s != p.player), None)
        if other is None:  # the reaction phase is the other player's: two sides needed
            raise InputError("sides", f"a surprise turn needs two players; got {list(sides)}")
        for name in BONUS_PHASES:
            out.append(Phase(name, other if name == BonusPhase.REACTION.value else p.player,
                             frozenset(BONUS_COMMANDS[name])))
    return tuple(out)


def active_surprise(state: EuropaState) -> JSON | None:
    """The surprise turn in progress (``state["surprise_turn"]``) if it is this game turn's."""
    st = state.get("surprise_turn")
    if isinstance(st, dict) and st.get("turn") == int(state["turn"]):
        return st
    return None


def phase_open(state: EuropaState, phase: Phase, turn: int) -> bool:
    """SUR-01 A bonus phase is played only in the turn of a started surprise, by its player
    (the reaction phase by the defender, and not in an invasion surprise, SUR-18)."""
    if phase.name not in BONUS_PHASES:
        return True
    st = state.get("surprise_turn")
    if not isinstance(st, dict) or st.get("turn") != turn:
        return False
    if phase.name == BonusPhase.REACTION.value:
        return bool(st["kind"] == SurpriseKind.LOCAL.value and phase.player != st["player"])
    return bool(phase.player == st["player"])


def _year(ctx: Context, state: EuropaState) -> int:
    label = turn_label(ctx, state)
    return int(label.split()[-1]) if label[-4:].isdigit() else 1941


def nationality(text: str) -> Nationality:
    """A unit's nationality as the rule-47 tables know it (``ussr``/``russian``: Soviet;
    unknown: German)."""
    try:
        return Nationality(text)
    except ValueError:
        return Nationality.SOVIET if text in ("ussr", "russian") else Nationality.GERMAN


def _commands_of(ctx: Context, state: EuropaState, defender: str) -> dict[str, list[str]]:
    """The defending commands: ``[europa.commands]`` (command -> unit ids) or the whole side."""
    given = europa_rules(ctx.scenario).section.commands
    units = [uid for uid, u in state["units"].items()
             if u["side"] == defender and u["status"] == "active" and u["hex"]]
    out: dict[str, list[str]] = {}
    for uid in units:
        name = next((c for c, ids in given.items() if uid in ids), defender)
        out.setdefault(name, []).append(uid)
    return out


def surprise_effects(ctx: Context, state: EuropaState, player: str, kind: SurpriseKind,
                     centres: list[str], level: int, dice: Dice, *, first: bool
                     ) -> dict[str, Any]:
    """SUR-15 The effects roll per defending command near the front and the "+ # MP" markers
    per defending stack (distance from the nearest of ``centres``)."""
    m = ctx.scenario.map
    defender = next(s for s in state["sides"] if s != player)
    cmds = _commands_of(ctx, state, defender)
    hexes = [m.layout.from_label(c) for c in centres]

    def dist(label: str) -> int:
        h = m.layout.from_label(label)
        return min(distance(h, c) for c in hexes)

    near = sorted(c for c, ids in cmds.items()
                  if min(dist(on_map_hex(state["units"][u])) for u in ids) <= 20)
    rolls = effects_rolls(near, dice.stream(EFFECTS_STREAM), ctx.tables.get(SUCCESS_TABLE))
    year = _year(ctx, state)
    markers: dict[str, int] = {}
    stacks: list[dict[str, Any]] = []
    for r in rolls:
        by_hex: dict[str, list[str]] = {}
        for uid in cmds[r.command]:
            by_hex.setdefault(on_map_hex(state["units"][uid]), []).append(uid)
        for label, ids in sorted(by_hex.items()):
            stack = [StackMember(nationality(state["units"][u]["nationality"]),
                                 int(state["units"][u].get("zoc_class", 1))) for u in ids]
            mc = marker_count(r.result, stack, distance=dist(label), level=level, year=year,
                              invasion=kind is SurpriseKind.INVASION, first=first,
                              tables=ctx.tables)
            if mc.markers:
                for u in ids:
                    markers[u] = mc.markers
            stacks.append({"hex": label, "units": ids, "command": r.command, **mc.to_json()})
    return {"rolls": [r.to_json() for r in rolls], "stacks": stacks, "markers": markers,
            "year": year}


def turn_record(player: str, turn: int, kind: SurpriseKind, front: list[str], command: str
                ) -> SurpriseTurn:
    return {"player": player, "turn": turn, "kind": kind.value, "front": front,
            "command": command}


def fold_effects(s: EuropaState, d: SurpriseStarted | InvasionSurpriseStarted) -> None:
    """Put the markers on the units and open the surprise turn (shared by both starts)."""
    for uid, n in d["effects"]["markers"].items():
        s["units"][uid]["mp_markers"] = n
    s["surprise_turn"] = d["turn_record"].copy()


# --- invasion surprise (SUR-25/26) ------------------------------------------------------------
def _history(state: EuropaState) -> InvasionHistory:
    return InvasionHistory(frozenset(state.get("invasion_surprised", [])))


def _invasion(ctx: Context, state: EuropaState, cmd: Command) -> tuple[str, Any, list[str]]:
    country = cmd.args.get("country")
    allowed = europa_rules(ctx.scenario).section.invasion_countries
    if not isinstance(country, str) or country not in allowed:
        raise IllegalOrder("SUR-25", f"{country!r} is not a country this scenario may invade "
                           f"([europa] invasion_countries: {allowed})")
    if active_surprise(state) is not None:
        raise IllegalOrder("SUR-01", "a surprise turn is already under way this turn")
    if after_fite_turn(ctx, state, country):
        raise IllegalOrder("EUR-44", f"{turn_label(ctx, state)} opened with the FitE surprise "
                           f"turn across the {country} border: no second surprise on that "
                           "front this turn (reading surprise_after_fite_turn = not_both)")
    trigger = cmd.args.get("trigger", InvasionTrigger.BORDER_ATTACK.value)
    try:
        trig = InvasionTrigger(trigger)
    except ValueError:
        raise InputError("trigger", f"border_attack or war_declared, not {trigger!r}") from None
    _, rec = invasion_surprise(_history(state), country, trig, _year(ctx, state))
    if not rec.fires:
        raise IllegalOrder("SUR-25", f"no invasion surprise against {country}: {rec.reason}")
    m = ctx.scenario.map
    if country not in m.country_names:
        raise IllegalOrder("SUR-25", f"the map has no country {country}")
    code = m.country_names.index(country)
    border = sorted({m.label(i) for i in range(m.n) if int(m.country[i]) == code
                     and any(int(m.country[int(j)]) != code for j in m.neighbor_indices(i))})
    return country, rec, border


def after_fite_turn(ctx: Context, state: EuropaState, country: str) -> bool:
    """EUR-44/SUR-01 Whether ``country`` is the front of this turn's FitE surprise turn (the
    first game turn of a ``fite_surprise_turn`` scenario, across ``soviet_countries``) and the
    reading ``surprise_after_fite_turn`` allows no second surprise there."""
    cfg = europa_rules(ctx.scenario).section
    if not cfg.fite_surprise_turn or int(state["turn"]) != 1:
        return False
    if country not in cfg.soviet_countries:
        return False
    return bool(readings_of(ctx, FrontReadings).surprise_after_fite_turn is AfterFite.NOT_BOTH)


def verify_invasion(ctx: Context, state: EuropaState, cmd: Command) -> None:
    _invasion(ctx, state, cmd)


def execute_invasion(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    country, rec, border = _invasion(ctx, state, cmd)
    effects = surprise_effects(ctx, state, cmd.player, SurpriseKind.INVASION, border,
                               INVASION_LEVEL, dice, first=True)
    return [Event("invasion_surprise_started", {
        "player": cmd.player, "country": country, "record": rec.to_json(),
        "effects": effects,
        "turn_record": turn_record(cmd.player, int(state["turn"]), SurpriseKind.INVASION,
                                   border, country)})]


def fold_invasion(state: EuropaState, ev: Event) -> EuropaState:
    d = cast(InvasionSurpriseStarted, ev.data)
    s = state
    s.setdefault("invasion_surprised", []).append(d["country"])
    fold_effects(s, d)
    return s



# --- movement in a surprise turn (SUR-16, SUR-17, SUR-18) ----------------------------------------
def marker_mp(state: EuropaState, uid: str, hexes_moved: int = 0) -> int:
    """SUR-16 The MPs the unit's "+ # MP" markers cost on its move (0 without markers)."""
    n = int(state["units"][uid].get("mp_markers", 0))
    if not n:
        return 0
    st = state.get("surprise_turn")
    kind = SurpriseKind(st.get("kind", "local") if st else "local")
    soviet = state["units"][uid]["nationality"] in ("soviet", "ussr")
    return marker_removal_mp(n, kind=kind, soviet=soviet, hexes_moved_closer=hexes_moved)


def surprise_unit_problem(ctx: Context, state: EuropaState, uid: str, phase: Phase
                          ) -> IllegalOrder | None:
    """SUR-17/SUR-18 Why ``uid`` may not move at all in this phase of the surprise turn (None:
    it may), once per position and unit."""
    def make() -> IllegalOrder | None:
        u = state["units"][uid]
        if phase.name == BonusPhase.BONUS_MOVEMENT.value and u["mp_spent"] == 0:
            enemy_class = _enemy_class(ctx, state, uid)
            if enemy_class:
                problem = surprise_action_problem(SurpriseAction.GROUND_MOVE, ActionContext(
                    own_zoc_class=int(u.get("zoc_class", 1)),
                    enemy_zoc_class_at_start=enemy_class))
                if problem is not None:
                    return IllegalOrder("SUR-17", f"{uid}: {problem}")
        if phase.name == BonusPhase.REACTION.value:
            lay = ctx.scenario.map.layout
            st = active_surprise(state) or {}
            here = lay.from_label(on_map_hex(u))
            near = min((distance(here, lay.from_label(f)) for f in st.get("front", [])),
                       default=99)
            if near > RESERVE_HEXES:
                return IllegalOrder("SUR-18", f"{uid} is {near} hexes from the surprise front: "
                                    f"only units within {RESERVE_HEXES} hexes react")
        return None
    out: IllegalOrder | None = ctx.cached(f"europa.surprise_unit.{phase.name}.{uid}", make)
    return out


def verify_surprise_move(ctx: Context, state: EuropaState, cmd: Command, phase: Phase,
                         path: list[str]) -> None:
    """SUR-16..SUR-18 The surprise turn's limits on a move already legal under the normal
    rules (``path``: the hexes entered)."""
    uid = str(cmd.args["unit"])
    u = state["units"][uid]
    problem = surprise_unit_problem(ctx, state, uid, phase)
    if problem is not None:
        raise problem
    extra = marker_mp(state, uid, len(path))
    if extra:
        from grognard.engine.generic import move_cost

        cost = move_cost(ctx.scenario, on_map_hex(u), path) + extra
        left = u["movement"] - u["mp_spent"]
        if cost > left:
            raise IllegalOrder("SUR-16", f"{uid} needs {cost} MPs (with {extra} for its "
                               f"+{u['mp_markers']} MP markers) and has {left}")


def _zoc_classes(ctx: Context, state: EuropaState) -> dict[str, dict[str, int]]:
    """Per side, each hex holding its active units -> their largest ZOC class (per position)."""
    def make() -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for v in state["units"].values():
            if v["status"] == "active" and v["hex"]:
                per = out.setdefault(v["side"], {})
                per[v["hex"]] = max(per.get(v["hex"], 0), int(v.get("zoc_class", 1)))
        return out
    found: dict[str, dict[str, int]] = ctx.cached("europa.zoc_classes", make)
    return found


def _enemy_class(ctx: Context, state: EuropaState, uid: str) -> int:
    """The largest ZOC class of the enemy units adjacent to ``uid``'s hex (0: none)."""
    m = ctx.scenario.map
    u = state["units"][uid]
    enemy = [c for side, c in _zoc_classes(ctx, state).items() if side != u["side"]]
    return max((c.get(m.label(int(j)), 0) for c in enemy
                for j in m.neighbor_indices(m.index_of_label(on_map_hex(u)))), default=0)
