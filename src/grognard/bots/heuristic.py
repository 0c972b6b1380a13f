"""The scripted ``heuristic`` bot: every legal action gets a score from a per-system policy.

The bot plays the best-scoring action while one scores above zero, then ends the phase; when
the phase cannot end (a decision is owed: losses, retreats, chits) it plays the best action
whatever its score. Ties are broken by the bot's own seeded dice stream.

Policies (all read the bot's own view only):

* every system: moves advance toward the nearest objective (enemy units, enemy-held cities,
  capitals first) and a unit in contact with the enemy keeps its place ("hold the line")
  unless it moves to another hex in contact, preferring empty hexes of the line; procedural
  steps (supply checks, weather and initiative rolls) are done before the phase ends.
* Revised Third Reich: options per front (offensive where our units touch the enemy and the
  power can pay 15 BRPs over its reserve, attrition where they touch and it cannot), wars on
  bordering minors, builds up to the BRPs above a growth reserve (armor preferred), Year Start
  at once, lend lease to the USSR when the sender can spare it; attacks by the exact 2D6 odds
  of the CRT column and the expected unit losses (:mod:`grognard.bots.odds`).
* Europa: attacks at good exact odds (expected SPs lost on each side and the chance to clear
  the hex), loss allocation that spares armor, a surprise plan when our strength in
  contact outweighs the enemy's; the victory places of ``Game.objectives`` weigh its attacks
  and draw its moves; in the air phase ground support over the hexes it will attack (up to
  three strike units and an escort each), interception of every strike mission, the FitE
  surprise turn's airfield strikes and rule-47 airbase surprise attacks. The defender of the
  objectives (the side that held them at set-up) plans its moves once a phase
  (:func:`defence_plan`): a line off the enemy covered by its ZOCs, stacks in good terrain,
  falling back from hexes it cannot hold, supply-traced hexes, garrisons, mech reserves;
  it counter-attacks and overruns only at good exact odds. The attacker (the other side)
  makes pockets (:mod:`grognard.bots.europa_offence`): Schwerpunkte in the movement phase,
  attacks and overruns at 2 to 1 and up at an expected gain (pockets at any gain),
  exploitation onto the enemy's supply paths, advance after combat, garrisons in the
  objectives it holds.
* EuroFront: weather and initiative rolls, the strongest chit the HQs can use, activation of
  the HQs nearest the enemy, rail moves toward the front.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, NamedTuple, TypeVar

import numpy as np

from grognard.bots import europa_offence as offence
from grognard.bots.base import LegalActions, NoLegalAction, Seat, args_units, rng
from grognard.bots.odds import (
    Estimate,
    europa_estimate,
    rules_estimate,
    tr_estimate,
    view_estimate,
)
from grognard.bots.situation import Situation, destination
from grognard.bots.tr_plans import build_cost, tr_front
from grognard.core.errors import GrognardError
from grognard.core.hexgrid import DIRECTIONS
from grognard.engine.commands import Command
from grognard.engine.state import JSON

Score = float


#: each policy class's scored kinds (:meth:`Policy.kinds`)
_KINDS: dict[type, frozenset[str]] = {}


class Policy:
    """Scores for the command kinds every system shares; subclasses add their own."""

    #: Kinds worth doing once before the phase ends (their score).
    procedural: ClassVar[Mapping[str, Score]] = {}
    caution = Fraction(6, 5)

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    #: kinds a search weighs by simulation (the campaign's choices, not its every move)
    macro_kinds: ClassVar[frozenset[str]] = frozenset()

    def evaluate(self, view: JSON, game: Any = None) -> float:
        """How good ``view`` is for this seat (for a search's rollouts): the game's result
        (+-1000; a draw 0), the verdict if it ended now (``Game.standing()``: +-100), the victory
        places held (``Game.objectives()``: 20 a value point), and the strength on the map
        (attack + defense of our units minus the enemy's; a face-down unit counts 3)."""
        me = self.seat.player
        score = 0.0
        if game is not None:
            over = self.result_value(game)
            if over is not None:
                return over
            standing = game.standing()
            leader = (standing or {}).get("leader")
            if leader is not None:
                score += 100.0 if leader == me else -100.0
            for o in game.objectives():
                if o.holder == me:
                    score += 20.0 * o.value
                elif o.holder is not None and me in o.wanted_by:
                    score -= 20.0 * o.value
        for u in (view.get("units") or {}).values():
            if u.get("hex") is None or u.get("status", "active") != "active":
                continue
            worth = 3.0 if u.get("hidden") and "attack" not in u else \
                float(int(u.get("attack") or 0) + int(u.get("defense") or 0))
            score += worth if u.get("side") == me else -worth
        return score

    def result_value(self, game: Any) -> float | None:
        """The game's result for this seat: +1000 won, -1000 lost, 0 a verdict that names no
        side (3R's "draw": neither side's loss); None while it goes on or with no winner
        named (Europa's draw: judged by the position)."""
        res = game.result
        winner = res.get("winner") if res is not None else None
        if winner is None:
            return None
        if winner == self.seat.player:
            return 1000.0
        return -1000.0 if winner in self.seat.context.scenario.sides else 0.0

    #: Whether the policy drives on the rules' objectives (``Game.objectives``): the places
    #: victory counts, found through the rule-system hook, never a system's state keys.
    drive_on_objectives: ClassVar[bool] = False

    def situation(self, view: JSON, game: Any = None) -> Situation:
        """The bot's picture of its own view at one decision (a planner adds its plan's
        objectives; ``game`` gives only the rule-system hooks: objectives, places, odds)."""
        sit = Situation.of(self.seat.context, view, self.seat.player)
        if self.drive_on_objectives and game is not None:
            add_victory_objectives(sit, game)
        return sit

    def victory_goals(self, sit: Situation) -> dict[str, int]:
        """The victory places this seat drives on (``Game.objectives``: those it wants and
        does not hold, and those it holds with the enemy near), each with its worth."""
        got: dict[str, int] = sit.memo("victory.goals", dict)
        return got

    def score(self, sit: Situation, cmd: Command) -> Score:
        fn: Callable[[Situation, Command], Score] | None = getattr(self, f"score_{cmd.kind}",
                                                                   None)
        if fn is not None:
            return fn(sit, cmd)
        return self.procedural.get(cmd.kind, 0.0)

    #: Kinds whose planned commands (:meth:`plan`) are played in turn as one plan.
    planned: ClassVar[frozenset[str]] = frozenset()
    #: Kinds scored afresh at every decision (never played from a plan).
    unplanned: ClassVar[frozenset[str]] = frozenset()
    #: Kinds planned from the policy's own candidates that may miss legal ones.
    rechecked: ClassVar[frozenset[str]] = frozenset()

    def supported(self, sit: Situation, cmd: Command, actions: LegalActions) -> Command:
        """``cmd`` as played (a policy may add support the rules accept)."""
        return cmd

    def repairs(self, sit: Situation, actions: LegalActions, kinds: set[str]
                ) -> list[Command]:
        """Commands to try when the enumerators list no legal one for a decision owed (an
        enumerator that lists only part of a large choice)."""
        return []

    def score_end_phase(self, sit: Situation, cmd: Command) -> Score:
        return 0.0

    def plan(self, sit: Situation, actions: LegalActions, kind: str
             ) -> list[tuple[Score, Command]] | None:
        """Scored commands of ``kind`` planned by the policy itself (not yet checked by the
        rules), or None to score the kind's candidates one by one."""
        return None

    def kinds(self) -> frozenset[str]:
        """The kinds this policy can score above zero (any other kind scores 0, so the bot
        plays it only when the phase cannot end); read once per policy class."""
        return type(self).kinds_of()

    @classmethod
    def kinds_of(cls) -> frozenset[str]:
        """:meth:`kinds` of the class (its ``score_`` methods and procedural kinds)."""
        got = _KINDS.get(cls)
        if got is None:
            got = _KINDS[cls] = frozenset(
                {n.removeprefix("score_") for n in dir(cls)
                 if n.startswith("score_") and n != "score_end_phase"} | set(cls.procedural))
        return got

    def score_move(self, sit: Situation, cmd: Command) -> Score:
        uid, to = cmd.args.get("unit", cmd.args.get("block")), destination(cmd)
        u = sit.mine.get(str(uid))
        if u is None or to is None:
            return -1.0
        here = str(u["hex"])
        if sit.in_contact(here):
            if not sit.in_contact(to):
                return -1.0  # hold the line
            # slide along the line only to fill an empty hex of it
            return 0.5 if sit.friendly_hexes.get(to, 0) == 0 and \
                sit.friendly_hexes.get(here, 0) > 1 else -0.5
        d0, d1 = sit.nearest(here, sit.objectives), sit.nearest(to, sit.objectives)
        if d1 >= d0:
            return -0.1
        fill = 0.25 if sit.in_contact(to) and sit.friendly_hexes.get(to, 0) == 0 else 0.0
        return float(d0 - d1) + fill

    def score_moves(self, sit: Situation, cmds: Sequence[Command]) -> list[Score]:
        """:meth:`score_move` of each of ``cmds`` (a policy may find what belongs to a unit
        once for all its moves)."""
        return [self.score_move(sit, c) for c in cmds]

    def hex_value(self, sit: Situation, target: str) -> int:
        return sit.value_of_hex(target)

    #: the argument naming the hex an attack order attacks, until the rule system's
    #: ``Game.places(cmd).target`` answers (the fallback of :meth:`attack_target`)
    target_arg = "hex"

    def attack_target(self, cmd: Command, game: Any = None) -> str | None:
        """The hex ``cmd`` attacks: the rules' :meth:`Game.places` target, else the policy's
        own reading of the order (:attr:`target_arg`)."""
        if game is not None:
            t = game.places(cmd).target
            if t is not None:
                return str(t)
        t = cmd.args.get(self.target_arg)
        return t if isinstance(t, str) else None

    def own_estimate(self, sit: Situation, cmd: Command) -> Estimate | None:
        """The policy's own exact estimate of an attack (no rule-system odds), or None."""
        return None

    def attack_estimate(self, sit: Situation, cmd: Command, game: Any = None
                        ) -> Estimate | None:
        """The exact estimate of an attack order: the rules' ``Game.odds`` when the system
        answers it, else the policy's own (:meth:`own_estimate`)."""
        got = rules_estimate(game, cmd)
        return got if got is not None else self.own_estimate(sit, cmd)


class ThirdReichPolicy(Policy):
    procedural: ClassVar[Mapping[str, Score]] = {"year_start": 5.0, "supply_check": 3.0, "attrition": 1.0,
                  "murmansk_commit": 1.0, "murmansk_escort": 1.0}
    planned: ClassVar[frozenset[str]] = frozenset({"move", "build_unit"})
    macro_kinds: ClassVar[frozenset[str]] = frozenset({"declare_war", "declare_options"})
    #: a BRP on hand against a strength point on the map (BRPs spent buy later gains that a
    #: rollout to the end of the turn does not see)
    brp_weight = 0.2

    def evaluate(self, view: JSON, game: Any = None) -> float:
        """The units and places (:meth:`Policy.evaluate`) and the BRPs on hand of this
        side's powers minus the enemy's (TR-07)."""
        score = super().evaluate(view, game)
        control = view.get("control")
        if isinstance(control, Mapping):  # TR-37: cities held (capitals' conquests among them)
            score += sum(3.0 if v == self.seat.player else -3.0 for v in control.values()
                         if v is not None)
        econ = view.get("economy")
        summary = econ.get("summary") if isinstance(econ, Mapping) else None
        sides = view.get("power_sides") or {}
        if isinstance(summary, Mapping):
            for power, row in summary.items():
                if isinstance(row, Mapping):
                    brp = self.brp_weight * int(row.get("brp", 0) or 0)
                    score += brp if sides.get(power) == self.seat.player else -brp
        return score

    def plan(self, sit: Situation, actions: LegalActions, kind: str
             ) -> list[tuple[Score, Command]] | None:
        """3R moves and builds are planned a phase at a time (:mod:`grognard.bots.tr_plans`)."""
        from grognard.bots.tr_plans import attack_candidates, build_plan, move_plan

        if kind == "remove_losses":
            cmd = self.removal(sit)
            return [] if cmd is None else [(1.0, cmd)]
        if kind == "move":
            return move_plan(sit, actions)
        if kind == "build_unit":
            return build_plan(self.score_build_unit, self._budget, sit, actions)
        if kind == "attack":
            return [(self.score_attack(sit, c), c) for c in attack_candidates(sit)]
        return None

    #: Kinds whose own candidates (:meth:`plan`) may miss legal ones: when none of them is
    #: accepted, the kind's enumerator is scored instead.
    rechecked: ClassVar[frozenset[str]] = frozenset({"attack", "remove_losses"})

    def score_remove_losses(self, sit: Situation, cmd: Command) -> Score:
        """TR-39: any legal removal (the enumerator's, when :meth:`removal` is refused)."""
        return 0.5

    def removal_cost(self, sit: Situation, uid: str) -> tuple[Any, ...] | None:
        """TR-39: what losing ``uid`` costs, for :meth:`removal` (None: the units go in name
        order, the first of the rules' own listing)."""
        return None

    def removal(self, sit: Situation) -> Command | None:
        """TR-38/TR-39: the units removed for an owed attrition loss of N units, built from
        the view instead of the rules' listing (every combination of the front's units,
        smallest first: seconds a call late in the war). A legal removal counts exactly N
        (a 1-3 infantry 1/2, any other unit 1; no unit superfluous), so it is f full units
        and h half ones with f + h/2 = N. Without :meth:`removal_cost`: the fewest units,
        the first set in name order (the rules' first listed choice); with it: the cheapest
        (f, h) split and the cheapest units of each. None: nothing owed in the view."""
        p = ((sit.view.get("pending_losses") or {}).get("owed") or {}).get(sit.player)
        units = sit.view.get("units", {})
        if not isinstance(p, Mapping):
            return None
        n = int(p.get("n", 0) or 0)
        elig = sorted(str(u) for u in p.get("units", []) or []
                      if units.get(u, {}).get("type") != "replacement")
        half = {u for u in elig if units[u].get("type") not in ("armor", "airborne")
                and int(units[u].get("attack") or 0) == 1
                and int(units[u].get("movement") or 0) == 3}
        fulls = [u for u in elig if u not in half]
        halves = [u for u in elig if u in half]
        if n <= 0 or len(fulls) + Fraction(len(halves), 2) < n:
            return None  # the engine removes them all itself
        h_min = 2 * max(0, n - len(fulls))
        if self.removal_cost(sit, elig[0]) is None:
            need = {False: n - h_min // 2, True: h_min}
            chosen = []
            for u in elig:  # the first set in name order (itertools' order of combinations)
                if need[u in half] > 0:
                    need[u in half] -= 1
                    chosen.append(u)
        else:
            def cost(u: str) -> tuple[Any, ...]:
                return (*(self.removal_cost(sit, u) or (0,)), u)
            fulls.sort(key=cost)
            halves.sort(key=cost)
            best: tuple[Any, ...] | None = None
            chosen = []
            for h in range(h_min, min(len(halves), 2 * n) + 1, 2):
                f = n - h // 2
                if f > len(fulls):
                    continue
                pick = fulls[:f] + halves[:h]
                total = sum(float(cost(u)[0]) for u in pick)
                if best is None or (total, len(pick)) < best:
                    best, chosen = (total, len(pick)), pick
        return Command("remove_losses", sit.player, {"units": sorted(chosen)})

    def supported(self, sit: Situation, cmd: Command, actions: LegalActions) -> Command:
        """TR-33: an attack with every air unit in range when the rules accept it (the
        estimate counts ground factors only; air support can only help)."""
        from grognard.bots.tr_plans import air_support

        if cmd.kind != "attack" or "air" in cmd.args:
            return cmd
        air = air_support(sit, str(cmd.args.get("hex")))
        if air:
            more = Command(cmd.kind, cmd.player, {**cmd.args, "air": air})
            if actions.allows(more):
                return more
        return cmd

    #: BRPs a power keeps for growth (TR-07..TR-13: unspent BRPs grow the base at Year Start).
    reserve_share = Fraction(1, 3)

    def __init__(self, seat: Seat) -> None:
        super().__init__(seat)
        self._battles: dict[Any, Any] = {}
        self._battles_turn: Any = None
    offensive_cost = 15

    def _brp(self, sit: Situation, power: str) -> tuple[int, int]:
        econ = sit.view.get("economy", {})
        row = econ.get("summary", {}).get(power, {}) if isinstance(econ, Mapping) else {}
        return int(row.get("brp", 0) or 0), int(row.get("base", 0) or 0)

    def _budget(self, sit: Situation, power: str) -> int:
        brp, base = self._brp(sit, power)
        return max(0, brp - int(base * self.reserve_share))

    def _front(self, sit: Situation, label: str) -> str:
        return tr_front(sit, label)

    def _front_strength(self, sit: Situation, power: str) -> dict[str, tuple[int, int]]:
        """Per front: the power's attack factors in contact, the enemy's defense facing them.

        A battle is on the front of the hex attacked (TR-03), so each enemy hex next to the
        power's ground units counts on its own front, with the units next to it. (Once per
        decision and power.)
        """
        return sit.memo(("front_strength", power), lambda: self._fronts(sit, power))

    def _fronts(self, sit: Situation, power: str) -> dict[str, tuple[int, int]]:
        units = sit.view.get("units", {})
        att: dict[str, set[str]] = {}
        dfn: dict[str, int] = {}
        enemy_def: dict[str, int] = {}
        for v in units.values():
            h = v.get("hex")
            if h is not None and v.get("side") != sit.player and v.get("status", "active") \
                    == "active" and v.get("type") not in ("air", "fleet"):
                enemy_def[h] = enemy_def.get(h, 0) + int(v.get("defense") or
                                                         v.get("attack") or 1)
        ours = [(uid, u) for uid, u in sit.mine.items()
                if u.get("type") not in ("air", "fleet") and u.get("power", power) == power
                and sit.in_contact(u["hex"])]
        for h, d in enemy_def.items():
            near = {uid for uid, u in ours if sit.distance(u["hex"], h) == 1}
            if not near:
                continue
            f = self._front(sit, h)
            att.setdefault(f, set()).update(near)
            dfn[f] = dfn.get(f, 0) + d
        return {f: (sum(int(sit.mine[u].get("attack") or 0) for u in us), dfn.get(f, 0))
                for f, us in att.items()}

    def score_declare_options(self, sit: Situation, cmd: Command) -> Score:
        options = cmd.args.get("options")
        power = str(cmd.args.get("power", ""))
        if not isinstance(options, Mapping):
            return 0.0
        strength = self._front_strength(sit, power)
        budget = self._budget(sit, power)
        score = 0.0
        for front, opt in options.items():
            o = opt.get("option") if isinstance(opt, Mapping) else opt
            att, dfn = strength.get(front, (0, 0))
            if o == "offensive":
                if att > 0 and budget >= self.offensive_cost:
                    score += 2.0 + 2.0 * min(2.0, att / max(1, dfn))
                else:
                    score -= 3.0
                budget -= self.offensive_cost
            elif o == "attrition":
                score += 1.0 if att > 0 else -1.0
        return score

    def score_declare_war(self, sit: Situation, cmd: Command) -> Score:
        """TR-25: war on one bordering neutral minor a turn, on a front where this side has
        declared an offensive, when the power can pay for it; never on a major."""
        power = str(cmd.args.get("power", ""))
        minors = args_units(cmd.args, "minors")
        if args_units(cmd.args, "majors") or len(minors) != 1:
            return -1.0
        paid = sit.view.get("dow_minor_paid", {})
        if isinstance(paid, Mapping) and paid.get(power):
            return -1.0
        borders = sit.memo(("borders", power), lambda: self._borders(sit, power))
        near = minors[0] in borders
        fronts = borders.get(minors[0], set())
        options = sit.view.get("options", {}).get(sit.player, {})
        offensive = any(isinstance(options.get(f), Mapping)
                        and options[f].get("option") == "offensive" for f in fronts)
        if not near or not offensive or self._budget(sit, power) < 5 + self.offensive_cost:
            return -1.0
        return 2.0

    def _borders(self, sit: Situation, power: str) -> dict[str, set[str]]:
        """Country -> the fronts of its hexes next to the power's units."""
        m = sit.map
        out: dict[str, set[str]] = {}
        for u in sit.mine.values():
            if u.get("power", power) != power:
                continue
            for n in m.neighbor_indices(m.index_of_label(u["hex"])):
                c = m.country_of(m.hex(int(n)))
                if c:
                    out.setdefault(c, set()).add(self._front(sit, m.label(int(n))))
        return out

    def score_build(self, sit: Situation, cmd: Command) -> Score:
        power = str(cmd.args.get("power", ""))
        spend = 0
        armor = 0
        for k, v in cmd.args.items():
            if isinstance(v, int) and not isinstance(v, bool) and k.endswith("factors"):
                spend += v * (2 if "armor" in k else 1)
                armor += v if "armor" in k else 0
        if isinstance(cmd.args.get("cost"), int):
            spend = int(cmd.args["cost"])
        budget = self._budget(sit, power)
        if spend > budget:
            return -float(spend - budget)
        return spend / 10 + armor / 100

    def score_build_unit(self, sit: Situation, cmd: Command) -> Score:
        """TR-75: a pool unit within the budget over the growth reserve, armor and ground
        first, placed nearest the enemy."""
        u = sit.view.get("units", {}).get(str(cmd.args.get("unit")))
        to = cmd.args.get("hex")
        if not isinstance(u, Mapping) or not isinstance(to, str):
            return -1.0
        price = build_cost(sit, str(cmd.args.get("unit")))
        if price is None or price > self._budget(sit, str(u.get("power", ""))):
            return -1.0
        worth = int(u.get("attack") or 0) / max(1, price)
        kind = str(u.get("type"))
        worth *= 1.5 if kind == "armor" else 0.5 if kind in ("air", "fleet") else 1.0
        return 0.5 + worth + 1.0 / (1 + sit.nearest(to, sit.enemy_hexes))

    def score_murmansk_ship(self, sit: Situation, cmd: Command) -> Score:
        return 2.0 if self._budget(sit, str(cmd.args.get("sender", ""))) >= 20 else -1.0

    def score_attack(self, sit: Situation, cmd: Command) -> Score:
        target = cmd.args.get("hex")
        est = self.estimate(sit, str(target), args_units(cmd.args, "attackers"))
        if est is None:
            return -1.0
        return float(est.value(self.hex_value(sit, str(target)), self.caution))

    def own_estimate(self, sit: Situation, cmd: Command) -> Estimate | None:
        target = self.attack_target(cmd)
        if target is None:
            return None
        est: Estimate | None = self.estimate(sit, target, args_units(cmd.args, "attackers"))
        return est

    def estimate(self, sit: Situation, target: str, attackers: list[str]) -> Any:
        """:func:`tr_estimate`, remembered per battle (the hex, its terrain and the units on
        both sides as the view shows them) for the rest of the game turn."""
        units = sit.view.get("units", {})
        try:
            key = (target, tuple(sorted((a, units[a].get("hex"), units[a].get("attack"),
                                         units[a].get("type"), units[a].get("nationality"))
                                        for a in attackers)),
                   tuple(sorted((d, u.get("attack"), u.get("type"), u.get("nationality"),
                                 u.get("side"), bool(u.get("hidden")))
                                for d, u in units.items() if u.get("hex") == target)))
        except KeyError:
            return None
        turn = sit.view.get("turn")
        if self._battles_turn != turn:
            self._battles, self._battles_turn = {}, turn
        if key not in self._battles:
            self._battles[key] = tr_estimate(sit, target, attackers)
        return self._battles[key]

    def score_take_hexes(self, sit: Situation, cmd: Command) -> Score:
        hexes = args_units(cmd.args, "hexes")
        return float(sum(1 + sit.value_of_hex(h) for h in hexes))

    def repairs(self, sit: Situation, actions: LegalActions, kinds: set[str]
                ) -> list[Command]:
        """TR-40: besides the enumerator's withdrawals (each within the stacking limits, at
        most ``legal.WITHDRAW_OPTIONS``), a greedy one: each unit takes the first of its listed
        hexes that still has room (2 ground units), else is removed; and one removing every
        withdrawing unit."""
        if "withdraw" not in kinds:
            return []
        options: dict[str, list[str]] = {}
        for c in actions.candidates("withdraw"):
            for uid, h in (c.args.get("retreats") or {}).items():
                hexes = options.setdefault(uid, [])  # every unit named, even if only removed
                if isinstance(h, str) and h not in hexes:
                    hexes.append(h)
        if not options:
            return []
        room = dict(sit.friendly_hexes)
        greedy: dict[str, str | None] = {}
        for uid, hexes in sorted(options.items()):
            to = next((h for h in hexes if room.get(h, 0) < 2), None)
            greedy[uid] = to
            if to is not None:
                room[to] = room.get(to, 0) + 1
        return [Command("withdraw", sit.player, {"retreats": greedy}),
                Command("withdraw", sit.player, {"retreats": {u: None for u in options}})]

    def score_withdraw(self, sit: Situation, cmd: Command) -> Score:
        retreats = cmd.args.get("retreats")
        if not isinstance(retreats, Mapping):
            return 0.0
        lost = sum(1 for v in retreats.values() if v is None)
        exposed = sum(1 for v in retreats.values()
                      if isinstance(v, str) and sit.in_contact(v))
        return -float(lost) - 0.1 * exposed

    def _factors(self, sit: Situation, cmd: Command) -> int:
        units = sit.view.get("units", {})
        return sum(int(units.get(u, {}).get("attack", 0) or 0) for u in args_units(cmd.args, "units"))

    def score_land_losses(self, sit: Situation, cmd: Command) -> Score:
        """TR-32: the bot loses its weakest units (fewest factors)."""
        return -float(self._factors(sit, cmd))

    def score_advance(self, sit: Situation, cmd: Command) -> Score:
        """TR-32: the bot advances its strongest survivors, as many as may go."""
        return float(self._factors(sit, cmd)) + len(args_units(cmd.args, "units"))

    def score_retreat(self, sit: Situation, cmd: Command) -> Score:
        """TR-32: the bot retreats out of contact where it can, keeping stacks together."""
        to = cmd.args.get("to")
        hexes = [str(h) for h in to.values()] if isinstance(to, Mapping) else [str(to)]
        return -sum(1.0 for h in hexes if sit.in_contact(h)) - 0.1 * len(set(hexes))


# --- a Europa defence (the side that holds the objectives) ------------------------------------
#: the defender's wish per distance from the enemy (hexes): the line one or two hexes off the
#: enemy, a little depth behind it, the deep rear worth least (infantry; mech one hex deeper)
_BAND = {1: 3.0, 2: 3.0, 3: 2.6, 4: 2.0, 5: 1.2, 6: 0.7, 7: 0.5, 8: 0.4}
_MECH_BAND = {1: 1.0, 2: 2.0, 3: 2.8, 4: 3.0, 5: 2.4, 6: 1.4, 7: 0.8, 8: 0.5}
#: odds the enemy can bring on a hex in contact (its attack next to it against our defense
#: there) above which a stack there falls back rather than stand
_TENABLE = 2.5
#: the enemy's reach counted against a hex (hexes: infantry, mech) and the share of its
#: attack factors there (a reach of 4 and 6 at half weight drew the line back too far:
#: 18, 20, 15, 20 Axis points on seeds 1-4 against 21, 10, 16, 12)
_REACH = (2, 2, 1.0)
_SECOND_LOOK = True


@dataclass
class _MapGraph:
    """One map's adjacency as Python lists for the defender's searches (per map)."""

    nbrs: list[list[int]]
    #: per hex, per neighbour: 2 major river, 1 river, 0 none, -1 impassable (sea, lake)
    sides: list[list[int]]
    water: list[bool]
    #: per hex: (defense multiplier, defense add, hex effects' stacking limit in REs)
    quality: list[tuple[int, int, int]]


#: per map: (the tables it was read with, the graph)
_GRAPHS: weakref.WeakKeyDictionary[Any, tuple[Any, _MapGraph]] = weakref.WeakKeyDictionary()


def _terrain_effects(tables: Any, key: tuple[str, bool, bool]) -> tuple[int, int]:
    """EUR-10 A hex's defense multiplier and defense add (plus its left shifts) from the
    game's terrain effects table (terrain, and the fortified and major-city rows: the larger
    multiplier, the adds summed); (1, 0) where the table does not say."""
    try:
        t = tables.get("europa_terrain_effects")
        rows = [key[0]] + [r for r, on in (("fortified", key[1]), ("major_city", key[2])) if on]
        mult = max(int(t.lookup(r, "defense_multiplier")) for r in rows)
        add = sum(int(t.lookup(r, "defense_add")) + int(t.lookup(r, "left_shifts"))
                  for r in rows)
    except (GrognardError, KeyError, TypeError, ValueError):
        return 1, 0
    return max(1, mult), add


def _graph(m: Any, tables: Any) -> _MapGraph:
    kept = _GRAPHS.get(m)
    if kept is not None and kept[0] is tables:
        return kept[1]
    from grognard.core.mapdata import CityClass, Fortification, HexsideFeature, Terrain
    from grognard.core.stacking import europa_revised_stacking, stacking_limits

    # the features as plain ints: the flags' own operators cost most of the map's reading
    block = int(HexsideFeature.SEA | HexsideFeature.LAKE | HexsideFeature.IMPASSABLE)
    major_river, river = int(HexsideFeature.MAJOR_RIVER), int(HexsideFeature.RIVER)
    limits = stacking_limits(m, europa_revised_stacking())  # EUR-21: 10 REs, 7 in mountain
    nbrs: list[list[int]] = []
    sides: list[list[int]] = []
    water: list[bool] = []
    quality: list[tuple[int, int, int]] = []
    effects: dict[tuple[str, bool, bool], tuple[int, int]] = {}
    for i in range(m.n):
        lo, hi = int(m.indptr[i]), int(m.indptr[i + 1])
        nbrs.append([int(j) for j in m.indices[lo:hi]])
        sides.append([-1 if f & block else 2 if f & major_river else 1 if f & river else 0
                      for f in (int(x) for x in m.edge_features[lo:hi])])
        h = m.hex(i)
        t = m.terrain_of(h)
        water.append(t in (Terrain.SEA, Terrain.LAKE))
        key = (str(t.value), m.fortification_of(h) is not Fortification.NONE,
               any(CityClass.MAJOR_CITY in c.classes for c in m.cities_at(h)))
        if key not in effects:
            effects[key] = _terrain_effects(tables, key)
        mult, add = effects[key]
        quality.append((mult, add, int(limits[i])))
    got = _MapGraph(nbrs, sides, water, quality)
    _GRAPHS[m] = (tables, got)
    return got


class _HexPart(NamedTuple):
    """What :meth:`DefencePlan.value` reads of a hex that no placement changes."""

    mult: int
    add: int
    limit: int
    d: int  # hexes to the nearest enemy ground unit (up to 9)
    base: float  # the band, terrain and facing rivers' score
    threat: float  # the threat against it times what an attack across keeps
    pocket: float | None  # the penalty of a hex that does not trace to our sources
    flank: float  # the penalty of the enemy's armor past our flank
    line: list[int]  # the line's hexes among it and its neighbours
    open: bool  # near the enemy in the open, no river facing it


@dataclass
class DefencePlan:
    """The defender's moves for one movement phase, chosen unit by unit over a shared picture:
    where the enemy is (hexes away from its nearest ground unit), which hexes still trace to
    a supply source of ours (not through an enemy unit or an enemy ZOC hex we do not hold),
    the line (the hexes one to three off the enemy) and how much of it the units placed so far
    cover with their ZOCs, the stacks so far, the garrisons the objectives want."""

    sit: Situation
    g: _MapGraph
    enemy_at: dict[int, int]  # hex -> hexes to the nearest enemy ground unit (up to 9)
    safe: set[int]  # hexes that trace to one of our supply sources
    to_safe: dict[int, int]  # hexes to the nearest safe hex
    threat: dict[int, float]  # hex -> half the enemy attack factors within reach
    behind: dict[int, int]  # hex -> enemy mech units within six hexes nearer our sources
    front: set[int]  # the line's hexes (1-3 off the enemy, safe, land)
    covered: dict[int, int] = field(default_factory=dict)  # hex -> our ZOCs on it
    stacks: dict[int, list[str]] = field(default_factory=dict)
    want: dict[int, int] = field(default_factory=dict)  # objective hex -> garrison wanted
    depth: dict[int, float] = field(default_factory=dict)  # the capitals' approaches
    _facing: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    _units: dict[str, tuple[int, bool, float, bool]] = field(default_factory=dict)
    _hexes: dict[tuple[int, bool], _HexPart] = field(default_factory=dict)
    #: hex -> the REs and defense factors of its stack (only while it has units; _stack)
    _stacked: dict[int, tuple[int, float]] = field(default_factory=dict)
    #: hex -> unit kind (:meth:`_unit`) -> its value there before the garrison and depth
    #: terms (None: the stack is full); forgotten when the hex's stack or a covered hex of
    #: its line changes (:meth:`_forget_line`)
    _values: dict[int, dict[tuple[int, bool, float, bool], float | None]] = field(
        default_factory=dict)

    def facing(self, i: int) -> tuple[float, float, float]:
        """The hexsides of ``i`` facing the enemy (toward hexes nearer it; rivers halve
        attacks): the shares of major and minor rivers and what an attack across keeps
        (once per hex and plan: ``enemy_at`` does not change)."""
        got = self._facing.get(i)
        if got is None:
            g, near = self.g, self.enemy_at.get
            d = near(i, 9)
            facing = [s for j, s in zip(g.nbrs[i], g.sides[i], strict=True) if near(j, 9) < d]
            major = facing.count(2) / len(facing) if facing else 0.0
            minor = facing.count(1) / len(facing) if facing else 0.0
            got = self._facing[i] = (major, minor, 1.0 - 0.5 * major - 0.2 * minor)
        return got

    def res(self, i: int) -> int:
        return sum(int(self.sit.mine[x].get("re_size") or 1) for x in self.stacks.get(i, []))

    def _unit(self, uid: str) -> tuple[int, bool, float, bool]:
        """What :meth:`value` reads of unit ``uid`` (its REs, mech, defense factor as the
        view shows it, whether it has a ZOC): once per unit and plan."""
        got = self._units.get(uid)
        if got is None:
            u = self.sit.mine[uid]
            got = self._units[uid] = (int(u.get("re_size") or 1),
                                      str(u.get("type")) in offence.MECH,
                                      offence.view_factor(u, "defense"),
                                      int(u.get("zoc_class", 1) or 0) > 0)
        return got

    def _hex(self, i: int, mech: bool) -> _HexPart:
        """What :meth:`value` reads of hex ``i`` for a mech unit or not that no placement
        changes (the enemy's distance, the terrain, the facing rivers, the threat, the
        pocket and flank penalties, the line's hexes around it): once per hex and plan
        (the defender's walkers ask it of every option of every unit;
        tests/bots/test_europa_speed_s17.py compares it with the plain value)."""
        got = self._hexes.get((i, mech))
        if got is None:
            mult, add, limit = self.g.quality[i]
            d = self.enemy_at.get(i, 9)
            band = (_MECH_BAND if mech else _BAND).get(d, 0.2)
            major, minor, across = self.facing(i)
            got = self._hexes[(i, mech)] = _HexPart(
                mult, add, limit, d,
                band + 0.8 * (mult - 1) + 0.4 * add + 1.2 * major + 0.5 * minor,
                self.threat.get(i, 0) * across,
                None if i in self.safe else 6.0 + 0.5 * self.to_safe.get(i, 9),
                0.5 * min(6, self.behind.get(i, 0)),
                [j for j in [i, *self.g.nbrs[i]] if j in self.front],
                d <= 3 and mult == 1 and add == 0 and not major and not minor)
        return got

    def value(self, uid: str, i: int) -> float:
        """How good hex ``i`` is for unit ``uid`` given the units placed before it.

        What it reads of the unit is its kind (:meth:`_unit`: REs, mech, defense, ZOC), so
        units of one kind share their part on a hex (:meth:`_value`), kept until the hex's
        stack or the cover of its line changes; the garrison wanted and the depth are read
        afresh (``want`` and ``depth`` are the callers' to set)."""
        kind = self._units.get(uid) or self._unit(uid)
        kept = self._values.get(i)
        if kept is None:
            kept = self._values[i] = {}
        score: float | None = kept.get(kind, _UNKNOWN)
        if score is _UNKNOWN:
            score = kept[kind] = self._value(kind, i)
        if score is None:
            return -99.0
        need = self.want.get(i, 0)
        if need:
            n = len(self.stacks.get(i, ()))
            if n < need:
                score += 3.0 + need - n
        return score + self.depth.get(i, 0.0)

    def _value(self, kind: tuple[int, bool, float, bool], i: int) -> float | None:
        """:meth:`value` of a unit of ``kind`` on hex ``i`` before the garrison and depth
        terms; None when the stack has no room for it."""
        size, mech, udef, zoc = kind
        h = self._hexes.get((i, mech)) or self._hex(i, mech)
        here = self.stacks.get(i, [])
        if here:  # the stack's REs and defense factors, kept as units are placed (_stack)
            res, held = self._stacked[i]
            if res + size > h.limit:
                return None
            defense = held + udef
        else:
            if size > h.limit:
                return None
            defense = udef
        d = h.d
        score = h.base
        odds = h.threat / max(1, (defense + h.add) * h.mult)
        if d <= 1 and odds > _TENABLE:
            score -= 2.0 + 0.3 * (odds - _TENABLE)  # fall back rather than stand to die
        elif d <= 3 and odds > _TENABLE:
            score -= 0.5 * min(8.0, odds - _TENABLE)
        if h.pocket is not None:
            score -= h.pocket  # a pocket: break out toward ours
        score -= h.flank  # the enemy's armor past our flank
        if zoc and d <= 4:
            covered = self.covered
            score += 0.25 * sum(1 for j in h.line if not covered.get(j))
        n = len(here)
        if n == 1:
            score += 1.5
        elif n == 2:
            score += 1.0
        elif n == 0 and h.open:
            score -= 0.3  # a lone picket in the open
        return score

    def _stack(self, i: int) -> None:
        """Keep the REs and defense factors of the stack on ``i`` (summed in its order, as
        :meth:`value` summed them unit by unit before session 19) when it changes, and
        forget the values kept on ``i``."""
        self._values.pop(i, None)
        here = self.stacks.get(i)
        if here:
            parts = [self._units.get(x) or self._unit(x) for x in here]
            self._stacked[i] = (sum(p[0] for p in parts), sum(p[2] for p in parts))
        else:
            self._stacked.pop(i, None)

    def place(self, uid: str, i: int) -> None:
        self.stacks.setdefault(i, []).append(uid)
        self._stack(i)
        if int(self.sit.mine[uid].get("zoc_class", 1) or 0) > 0:
            covered = self.covered
            for j in [i, *self.g.nbrs[i]]:
                n = covered.get(j, 0)
                covered[j] = n + 1
                if not n:
                    self._forget_line(j)

    def leaving(self, uid: str, here: int, to: int) -> float:
        """What ``uid`` moving from ``here`` to ``to`` costs the stack it leaves: a lone
        unit left on the line (the units placed there so far; a mech reserve leaving the
        infantry it stood with in the exploitation phase)."""
        if to == here or self.enemy_at.get(here, 9) > 3:
            return 0.0
        return 1.5 if len(self.stacks.get(here, [])) == 1 else 0.0

    def unplace(self, uid: str, i: int) -> None:
        self.stacks[i].remove(uid)
        self._stack(i)
        if int(self.sit.mine[uid].get("zoc_class", 1) or 0) > 0:
            covered = self.covered
            for j in [i, *self.g.nbrs[i]]:
                covered[j] -= 1
                if not covered[j]:
                    self._forget_line(j)

    def _forget_line(self, j: int) -> None:
        """Forget the kept values of the hexes whose line may hold ``j`` (``j`` and its
        neighbours: the line of a hex is among it and its neighbours), as ``j`` becomes
        covered or uncovered."""
        if j in self.front:
            values = self._values
            values.pop(j, None)
            for k in self.g.nbrs[j]:
                values.pop(k, None)


#: no value kept yet (:meth:`DefencePlan.value`)
_UNKNOWN: Any = object()


def set_up_holders(sit: Situation, hexes: Sequence[str]) -> dict[str, str | None]:
    """Who held each of ``hexes`` when the scenario was set up (public: the scenario's
    placements, map and victory table): the side whose ground units were set up in it, else
    its country's side (as the victory table's ``countries`` names it, else the side with the
    most ground units set up in that country), else the side of the nearest ground units set
    up (a tie or none: nobody)."""
    from collections import Counter

    from grognard.core.units import GROUND_TYPES

    m = sit.map
    placed = [(str(p.hex), str(p.unit.side)) for p in sit.context.scenario.placements
              if p.hex is not None and p.unit.type in GROUND_TYPES]
    table = getattr(sit.context.scenario.rules, "table", None)
    victory = table.get("victory", {}) if isinstance(table, Mapping) else {}
    named = victory.get("countries") if isinstance(victory, Mapping) else None
    country_side: dict[str, str] = {}
    if isinstance(named, Mapping) and named:
        country_side = {str(c): str(side) for side, cs in named.items() for c in cs or []}
    else:
        count: dict[str, Counter[str]] = {}
        for h, side in placed:
            c = m.country_of(sit.hex(h))
            if c:
                count.setdefault(c, Counter())[side] += 1
        for c, n in count.items():
            top = n.most_common(2)
            if len(top) == 1 or top[0][1] > top[1][1]:
                country_side[c] = top[0][0]
    out: dict[str, str | None] = {}
    for h in hexes:
        here = {side for x, side in placed if x == h}
        c = m.country_of(sit.hex(h))
        if len(here) == 1:
            out[h] = next(iter(here))
        elif c in country_side:
            out[h] = country_side[c]
        else:
            near = min((sit.distance(h, x) for x, _s in placed), default=None)
            closest = {side for x, side in placed if sit.distance(h, x) == near}
            out[h] = next(iter(closest)) if len(closest) == 1 else None
    return out


def garrison(sit: Situation, plan: DefencePlan, i: int,
             ground: Mapping[str, Mapping[str, Any]], placed: dict[str, int],
             at: Mapping[str, int], may_go: Callable[[str, int], bool]) -> None:
    """Fill hex ``i`` up to the plan's want: the units already there first, then those
    ``may_go(unit, i)`` lets reach it, foot units and the nearest first, while the stack has room."""
    m = sit.map
    while len(plan.stacks.get(i, [])) < plan.want[i]:
        can = [uid for uid in ground if uid not in placed and (at[uid] == i or may_go(uid, i))]
        if not can:
            break
        uid = min(can, key=lambda x: (at[x] != i, str(ground[x].get("type")) in offence.MECH,
                                      sit.distance(str(ground[x]["hex"]), m.label(i)), x))
        if plan.value(uid, i) <= -99:
            break
        plan.place(uid, i)
        placed[uid] = i


def place_on_line(plan: DefencePlan, ground: Mapping[str, Mapping[str, Any]],
                  placed: dict[str, int], at: Mapping[str, int],
                  moves: Mapping[str, Mapping[int, Command]],
                  enemy_at: Mapping[int, int]) -> list[str]:
    """The defender's units not yet placed, foot units nearest the enemy first, each to its
    best hex of the line (its value there less what leaving its hex costs; staying wins a
    tie); the units so placed, in that order."""
    rest = sorted((uid for uid in ground if uid not in placed),
                  key=lambda x: (str(ground[x].get("type")) in offence.MECH,
                                 enemy_at.get(at[x], 99), x))
    value = plan.value
    for uid in rest:
        a = at[uid]
        # what leaving costs is the same for every hex but its own (no hex is -1)
        cost = plan.leaving(uid, a, -1)
        best = max([a, *moves.get(uid, {})],
                   key=lambda i: (value(uid, i) - (0.0 if i == a else cost), i == a, -i))
        plan.place(uid, best)
        placed[uid] = best
    return rest


def placed_moves(placed: Mapping[str, int], at: Mapping[str, int],
                 moves: Mapping[str, Mapping[int, Command]],
                 enemy_at: Mapping[int, int]) -> list[tuple[Score, Command]]:
    """The move commands of a placement (the units nearest the enemy first)."""
    out: list[tuple[Score, Command]] = []
    for k, uid in enumerate(sorted(placed, key=lambda x: (enemy_at.get(at[x], 99), x))):
        i = placed[uid]
        if i != at[uid]:
            out.append((100.0 - 0.001 * k, moves[uid][i]))
    return out


@dataclass
class DefenceBoard:
    """The defender's picture of one movement phase, shared by :func:`defence_plan` and the
    planner's defence in depth (``bots/europa_defence.py``): the map's graph, each unit's
    legal destinations, the enemy ground units and their hexes, the land hexes, the enemy's
    distance (up to 9), the hexes that trace to our sources, and the scored plan."""

    g: Any
    moves: dict[str, dict[int, Command]]
    enemy: list[tuple[int, Mapping[str, Any]]]
    enemy_hexes: set[int]
    land: list[bool]
    enemy_at: dict[int, int]
    safe: set[int]
    plan: DefencePlan


def defence_board(sit: Situation, actions: LegalActions, sources: Sequence[str],
                  g: Any = None) -> DefenceBoard | None:
    """The defender's picture (:class:`DefenceBoard`) of this movement phase, or None when
    no unit may move. ``g``: the map's graph (default: the scenario map's)."""
    m = sit.map
    g = g if g is not None else _graph(m, sit.context.tables)
    idx = m.index_of_label
    moves = offence.moves_by_unit(sit, actions.candidates("move"), destination)
    if not moves:
        return None
    enemy = [(idx(str(u["hex"])), u) for u in sit.others
             if str(u.get("type")) not in offence.NOT_GROUND]
    enemy_hexes = {i for i, _u in enemy}
    land = [not w for w in g.water]
    # the whole-map searches on masks (offence.bfs of a test per hex makes the same mask
    # hex by hex: the same hexes, distances and order)
    _nbr, land_mask = offence.graph_arrays(g)
    enemy_at = {i: d for i, d in offence.bfs_mask(g, list(enemy_hexes), land_mask).items()
                if d <= 9}
    zoc = {j for i, u in enemy if int(u.get("zoc_class", 1) or 0) > 0 for j in g.nbrs[i]}
    ours = {idx(str(u["hex"])) for u in sit.mine.values()
            if str(u.get("type")) not in offence.NOT_GROUND}
    starts = [idx(s) for s in sources]
    free = land_mask.copy()  # land free of the enemy's units
    free[list(enemy_hexes)] = False
    open_ = free.copy()  # ... and of its ZOCs, but where our units stand
    open_[[j for j in zoc if j not in ours]] = False
    safe = set(offence.bfs_mask(g, starts, open_))
    to_safe = offence.bfs_mask(g, list(safe), free)
    # the enemy's reach next turn: its units within 4 hexes (mech 6); it spreads its
    # attacks over several of our hexes, so half of it counts against each
    threat: dict[int, float] = {}
    reached: dict[tuple[int, int], dict[int, int]] = {}  # the units of a stack share a search
    for i, u in enemy:
        a = offence.view_factor(u, "attack") * _REACH[2]
        reach = _REACH[1] if str(u.get("type")) in offence.MECH else _REACH[0]
        near = reached.get((i, reach))
        if near is None:
            near = reached[(i, reach)] = offence.bfs(g, [i], lambda k: land[k], reach)
        for j in near:
            threat[j] = threat.get(j, 0) + a
    cands = {i for opts in moves.values() for i in opts} | \
        {idx(str(u["hex"])) for u in sit.mine.values()}
    _far, behind = _far_and_behind(sit, list(cands), list(sources), enemy)
    front = {i for i, d in enemy_at.items() if 1 <= d <= 3 and i in safe}
    plan = DefencePlan(sit, g, enemy_at, safe, to_safe, threat, behind, front)
    return DefenceBoard(g, moves, enemy, enemy_hexes, land, enemy_at, safe, plan)


def _hex_distances(aq: Any, ar: Any, bq: Any, br: Any) -> Any:
    """The hex distances (``core.hexgrid.distance``) of each hex ``(aq, ar)`` (a row) to each
    ``(bq, br)`` (a column), as an integer array."""
    dq = aq[:, None] - bq[None, :]
    dr = ar[:, None] - br[None, :]
    return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2


def _far_and_behind(sit: Situation, cands: list[int], src_labels: list[str],
                    enemy: Sequence[tuple[int, Mapping[str, Any]]]
                    ) -> tuple[dict[int, int], dict[int, int]]:
    """For each hex of ``cands`` (map indices): hexes to our nearest supply source (``far``)
    and how many enemy mech units (raiders) stand within six hexes of it and nearer our
    sources than it by two or more (``behind``, only where some do); on arrays, once per
    phase (:func:`_far_and_behind_plain` is the unit-by-unit reference it is tested
    against)."""
    if not src_labels or not cands:
        return {}, {}
    m = sit.map
    if not (hasattr(m, "q") and hasattr(m, "r") and hasattr(sit, "hex")):
        # a board that gives only labels and distances (the tests' boards)
        return _far_and_behind_plain(sit, cands, src_labels, enemy)
    ci = np.asarray(cands, dtype=np.intp)
    cq, cr = np.asarray(m.q)[ci].astype(np.int64), np.asarray(m.r)[ci].astype(np.int64)
    src = [sit.hex(s) for s in src_labels]
    sq = np.array([h.q for h in src], dtype=np.int64)
    sr = np.array([h.r for h in src], dtype=np.int64)
    far_arr = _hex_distances(cq, cr, sq, sr).min(axis=1)
    far = dict(zip(cands, far_arr.tolist(), strict=True))
    raid = [sit.hex(str(u["hex"])) for _i, u in enemy if str(u.get("type")) in offence.MECH]
    if not raid:
        return far, {}
    rq = np.array([h.q for h in raid], dtype=np.int64)
    rr = np.array([h.r for h in raid], dtype=np.int64)
    rf = _hex_distances(rq, rr, sq, sr).min(axis=1)
    near = _hex_distances(cq, cr, rq, rr) <= 6
    counts = (near & (rf[None, :] < far_arr[:, None] - 1)).sum(axis=1)
    behind = {i: n for i, n in zip(cands, counts.tolist(), strict=True) if n}
    return far, behind


def _far_and_behind_plain(sit: Situation, cands: list[int], src_labels: list[str],
                          enemy: Sequence[tuple[int, Mapping[str, Any]]]
                          ) -> tuple[dict[int, int], dict[int, int]]:
    """:func:`_far_and_behind` hex by hex (the reference)."""
    m = sit.map
    far = {i: min(sit.distance(m.label(i), s) for s in src_labels) for i in cands} \
        if src_labels else {}
    raiders = [(str(u["hex"]), min(sit.distance(str(u["hex"]), s) for s in src_labels))
               for _i, u in enemy if str(u.get("type")) in offence.MECH] if src_labels else []
    behind = {}
    for i in cands:
        lab = m.label(i)
        n = sum(1 for h, f in raiders if f < far[i] - 1 and sit.distance(h, lab) <= 6)
        if n:
            behind[i] = n
    return far, behind


def defence_plan(sit: Situation, actions: LegalActions, objectives: Sequence[Any],
                 sources: Sequence[str]) -> list[tuple[Score, Command]]:
    """The defender's moves of one phase (:class:`DefencePlan`): the units the plan pins
    (``plan.hold``) and those that cannot move stay; the objectives get their garrisons
    (scaled to the enemy's distance and the place's worth), then the infantry nearest the
    enemy first, then the mechanized reserves, each to its best reachable hex."""
    m = sit.map
    idx = m.index_of_label
    board = defence_board(sit, actions, sources)
    if board is None:
        return []
    g, moves, enemy_hexes = board.g, board.moves, board.enemy_hexes
    land, enemy_at, plan = board.land, board.enemy_at, board.plan
    mine = {o.hex for o in objectives if o.holder == sit.player}
    enemy_labels = {m.label(i) for i in enemy_hexes}
    for o in objectives:
        i = idx(o.hex)
        if i in enemy_hexes:
            continue
        # hexes to the nearest enemy unit: its armor drives 15-20 hexes a turn in the open
        d = sit.nearest(o.hex, enemy_labels)
        value = int(o.value)
        if value >= 5:
            want = 3 if d <= 20 else 1
            if d <= 20:  # the capitals' approaches: depth around them
                for j, k in offence.bfs(g, [i], lambda x: land[x], 2).items():
                    if k:
                        plan.depth[j] = max(plan.depth.get(j, 0.0), 1.0 if k == 1 else 0.5)
        elif value >= 3:
            want = 3 if d <= 6 else 2 if d <= 14 else 1
        elif d <= 8:
            want = 2  # never a lone picket on a place the enemy is closing on
        else:
            want = 1 if (value >= 2 and d <= 12) or o.hex not in mine else 0
        if want:
            plan.want[i] = want
    fill: Mapping[str, int] = sit.memo("plan.fill", dict)
    for h, n in fill.items():
        i = idx(h)
        here = sum(1 for u in sit.mine.values() if u.get("hex") == h)
        plan.want[i] = max(plan.want.get(i, 0), here + n)
    pinned: set[str] = sit.memo("plan.hold", set)
    ground = {uid: u for uid, u in sit.mine.items() if str(u.get("type")) not in offence.NOT_GROUND}
    at = {uid: idx(str(u["hex"])) for uid, u in ground.items()}
    placed: dict[str, int] = {}
    for uid in sorted(ground):
        if uid in pinned or uid not in moves:
            plan.place(uid, at[uid])
            placed[uid] = at[uid]
    # the garrisons: the units there first, then the infantry that can reach it, nearest first
    for i in sorted(plan.want, key=lambda k: (-plan.want[k], m.label(k))):
        garrison(sit, plan, i, ground, placed, at,
                 lambda uid, j: j in moves.get(uid, {}))
    rest = place_on_line(plan, ground, placed, at, moves, enemy_at)
    # a second look at the lone units of the line: join a stack placed after them
    for uid in rest:
        i = placed[uid]
        if not _SECOND_LOOK or len(plan.stacks.get(i, [])) != 1 or enemy_at.get(i, 99) > 4:
            continue
        plan.unplace(uid, i)
        options = [at[uid], *moves.get(uid, {})]
        best = max(options, key=lambda k: (plan.value(uid, k) - plan.leaving(uid, at[uid], k),
                                           k == i, -k))
        plan.place(uid, best)
        placed[uid] = best
    return placed_moves(placed, at, moves, enemy_at)


class EuropaPolicy(Policy):
    macro_kinds: ClassVar[frozenset[str]] = frozenset({"start_surprise"})
    procedural: ClassVar[Mapping[str, Score]] = {"supply_check": 3.0, "isolation_attrition": 2.0, "take_replacement": 1.0,
                  "fly_missions": 0.05}
    overrun_score = 3.0
    drive_on_objectives = True

    target_arg = "defender_hex"

    #: the defender's moves are planned once a phase (:func:`defence_plan`)
    planned: ClassVar[frozenset[str]] = frozenset({"move"})
    #: the defender's weight of its own losses in its attacks: counter-attacks at good odds
    #: only (against weak or isolated spearheads), never a trade that loses more than it gains
    defence_caution = Fraction(5, 2)

    def __init__(self, seat: Seat) -> None:
        super().__init__(seat)
        self._air_plan: tuple[Any, list[tuple[Score, str, list[str]]]] = ((), [])
        self._transfer_plan: tuple[Any, list[tuple[Score, Command]]] = ((), [])
        #: whether this seat defends the objectives (set at its first decision with a game)
        self.defending: bool | None = None
        #: the enemy strength an attack's win cuts off, per (turn, phase, target hex)
        self._cuts: dict[tuple[Any, Any, int], float] = {}

    def supply_sources(self, sit: Situation, side: str) -> list[str]:
        """EUR-30 The scenario's supply sources of ``side`` (hex labels; public): the
        ``[europa]`` table as the scenario wrote it."""
        table = getattr(sit.context.scenario.rules, "table", None)
        sources = table.get("supply_sources", {}) if isinstance(table, Mapping) else {}
        return [str(s) for s in (sources or {}).get(side, []) or []]

    def situation(self, view: JSON, game: Any = None) -> Situation:
        """The policy's picture; at the seat's first decision with a game, whether it is the
        defender of ``Game.objectives()`` (the places both sides want: one to take, one to
        keep): the side that held most of their worth when the scenario was set up
        (:func:`set_up_holders`)."""
        sit = super().situation(view, game)
        if game is not None:
            # asked once a decision (add_victory_objectives asked it already)
            objs: list[Any] = sit.memo("victory.objectives", lambda: list(game.objectives()))
            if self.defending is None and objs:
                first = set_up_holders(sit, [str(o.hex) for o in objs])
                held = sum(int(o.value) for o in objs
                           if first.get(o.hex, o.holder) == self.seat.player)
                self.defending = 2 * held > sum(int(o.value) for o in objs)
                if self.defending:
                    self.caution = self.defence_caution
        return sit

    def score_move(self, sit: Situation, cmd: Command) -> Score:
        """Every system's move, and a unit out of contact also closes on the victory places
        it drives on (half a point a hex nearer)."""
        base = super().score_move(sit, cmd)
        goals = self.victory_goals(sit)
        uid, to = cmd.args.get("unit"), destination(cmd)
        u = sit.mine.get(str(uid))
        if not goals or u is None or to is None or sit.in_contact(str(u["hex"])):
            return base
        d0, d1 = sit.nearest(str(u["hex"]), goals), sit.nearest(to, goals)
        return base + 0.5 * (d0 - d1) if d1 < d0 else base

    # --- the air phase (EUR-23..EUR-28, EUR-45, SUR-22) -----------------------------------
    def plan(self, sit: Situation, actions: LegalActions, kind: str
             ) -> list[tuple[Score, Command]] | None:
        if kind == "air_mission":
            return self.ground_support(sit, actions)
        if kind == "air_transfer":
            return self.air_transfers(sit, actions) if self.air_forward else []
        if kind == "move" and self.defending:
            return defence_plan(sit, actions, sit.memo("victory.objectives", list),
                                self.supply_sources(sit, sit.player))
        if kind == "move" and self.defending is False:
            return self.offence_moves(sit, actions)
        return None

    # --- the attacker: Schwerpunkte, odds that pay, pockets (bots/europa_offence.py) ------
    def enemy_side(self, sit: Situation) -> str | None:
        others = [s for s in sit.context.scenario.sides if s != sit.player]
        return others[0] if len(others) == 1 else None

    def picture(self, sit: Situation) -> offence.Picture:
        """The attacker's picture of this decision (:class:`europa_offence.Picture`)."""
        def make() -> offence.Picture:
            enemy = self.enemy_side(sit)
            return offence.Picture.of(sit, _graph(sit.map, sit.context.tables),
                                      self.supply_sources(sit, sit.player),
                                      self.supply_sources(sit, enemy) if enemy else [])
        return sit.memo("offence.picture", make)

    def _phase_name(self, sit: Situation) -> str:
        phases = sit.context.turn_sequence.phases
        i = int(sit.view.get("phase") or 0)
        return str(phases[i].name) if 0 <= i < len(phases) else ""

    def offence_moves(self, sit: Situation, actions: LegalActions, busy: Collection[str] = ()
                      ) -> list[tuple[Score, Command]] | None:
        """EUR-17/EUR-30 The attacker's moves of a movement phase (Schwerpunkte:
        :func:`europa_offence.assault_plan`) or an exploitation phase (cuts:
        :func:`europa_offence.exploitation_plan`); the units they leave free keep the
        scored moves (hold the line, close on the objectives). Other phases (the surprise
        turn's, rule 47's bonus phases) or a scenario that gives the enemy no supply sources
        (no pockets to make: demo-europa): None, every candidate scored. ``busy`` units (a
        plan made before, such as the search's last assault) are neither planned nor
        scored."""
        name = self._phase_name(sit)
        enemy = self.enemy_side(sit)
        if name not in ("movement", "exploitation") or enemy is None or \
                not self.supply_sources(sit, enemy):
            return None
        cands = actions.candidates("move")
        pic = self.picture(sit)
        moves = offence.moves_by_unit(sit, cands, destination)
        m = sit.map
        goals = self.victory_goals(sit)

        @offence.kept_per_hex  # asked of every option of every unit the plans move
        def value_of(i: int) -> float:
            label = m.label(i)
            return float(self.hex_value(sit, label)) / 5 + (
                max(0.0, 1.0 - sit.nearest(label, goals) / 15) if goals else 0.0)

        @offence.kept_per_hex
        def goal_distance(i: int) -> int:
            return sit.nearest(m.label(i), goals) if goals else 0
        kept = self.garrisons(sit) | sit.memo("plan.hold", set) | set(busy)
        moves = {uid: opts for uid, opts in moves.items() if uid not in kept}
        if name == "movement":
            sieges, besiegers, _cities = offence.siege_plan(pic, moves, self.siege_cities(sit),
                                                            kept, self.siege_count(sit))
            moves = {uid: opts for uid, opts in moves.items() if uid not in besiegers}
            planned, committed, _targets = offence.assault_plan(pic, moves, value_of, kept,
                                                                besiegers)
            planned = sieges + planned
            committed |= besiegers
            # the armor no Schwerpunkt needs drives deep at once (cuts, the objectives)
            free = {uid: opts for uid, opts in moves.items() if uid not in committed}
            planned += offence.exploitation_plan(pic, free, value_of,
                                                 goal_distance=goal_distance)
        else:
            planned = offence.exploitation_plan(pic, moves, value_of,
                                                goal_distance=goal_distance)
            committed = set()
        committed |= {str(c.args.get("unit")) for _s, c in planned} | kept
        free_moves = [c for c in cands if str(c.args.get("unit")) not in committed]
        return planned + list(zip(self.score_moves(sit, free_moves), free_moves, strict=True))

    def last_turn(self, sit: Situation) -> bool:
        """Whether this is the scenario's last game turn (its ``[europa]`` ``last_turn``):
        the verdict counts the objectives held after it, whatever either side loses; or a
        turn the search plays as the last (the ``storm`` posture)."""
        last = self.scenario_last(sit.context)
        return (last is not None and int(sit.view.get("turn") or 0) >= last) or \
            self.posture_now(sit.view) == "storm"

    @staticmethod
    def scenario_last(context: Any) -> int | None:
        """The scenario's last game turn (its ``[europa]`` ``last_turn``), None if unnamed."""
        table = getattr(context.scenario.rules, "table", None)
        last = table.get("last_turn") if isinstance(table, Mapping) else None
        return last if isinstance(last, int) else None

    # --- the search bot's postures (session 23; ``mcts``: bots/mcts.py) ----------------
    #: What the seat plays for one player turn of its own, weighed by the search at the
    #: turn's first decision where a study asks (``mcts@weigh=...``; the planner never sets
    #: one, so it plays as before): ``plan``, the policy's own play; ``bold``, the
    #: attacker weighs its own losses in an attack at half its caution (more attacks, at
    #: lower odds); ``fall_back``, the defender's units the enemy's armour has outflanked
    #: fall back (:data:`FALL_BACK_ARMOUR` armour units past their flanks) instead of
    #: holding the line; ``storm``, in the :attr:`STORM_TURNS` game turns before the
    #: scenario's last, the turn played as the last - every objective the enemy holds
    #: attacked at any odds that can take it, our losses not weighed (the defender retakes
    #: its own so).
    postures: ClassVar[Mapping[str, str | None]] = {
        "plan": None, "bold": "bold", "storm": "storm", "fall_back": "fall_back"}
    #: the posture set for a player turn (its key, :meth:`posture_key`; its name)
    posture: tuple[str, str | None] | None = None
    #: the search's standing posture (the plan's: a turn with no posture set plays the plan)
    standing: str | None = None
    #: the game turns before the scenario's last in which ``storm`` is weighed
    STORM_TURNS = 2
    #: the enemy armour units past a unit's flanks that make it fall back under
    #: ``fall_back`` (session 20's study setting ``planner@fall_back=3``)
    FALL_BACK_ARMOUR = 3
    #: the postures a search may weigh (besides the plan's), and whose they are
    WEIGHABLE: ClassVar[Mapping[str, str]] = {
        "bold": "attacker", "fall_back": "defender", "storm": "either"}
    #: those the search weighs (``mcts@weigh=bold+storm``): none by default - measured on
    #: europa-barbarossa against the planner (session 23, docs/AI.md), none paid: ``bold``
    #: changed 6 of 25 Axis games, 2 for the better and 4 for the worse; ``fall_back`` 3 of
    #: 8 Soviet games, all for the worse (the units it saves in a turn cost ground later,
    #: which a rollout to the next turn does not see); ``storm``, chosen in 4 of 20 Axis
    #: games, changed 2 verdicts, both for the worse (an Axis win and a draw turned into
    #: Soviet wins) - four rounds of rollouts to the end cannot tell a gamble that pays from
    #: one that fails
    weighed: tuple[str, ...] = ()
    #: the search weighs the postures at every player turn of its own, not at a macro kind
    posture_every_turn: ClassVar[bool] = True
    #: a posture's rollouts play a whole player turn of each side (about 160 commands each
    #: on europa-barbarossa) or to the game's end (``mcts`` reads it as its default horizon)
    search_horizon: ClassVar[int] = 6000

    def turn_owner(self, view: Mapping[str, Any]) -> str:
        """Whose player turn the view's phase belongs to: the player of the last ``initial``
        phase at or before it (the phases before the first - the surprise turn's - belong to
        the first ``initial``'s player); a reaction phase belongs to the other player's turn."""
        phases = self.seat.context.turn_sequence.phases
        i = int(view.get("phase") or 0)
        initial = [k for k, ph in enumerate(phases) if ph.name == "initial"]
        own = [k for k in initial if k <= i]
        k = own[-1] if own else (initial[0] if initial else i)
        return str(phases[min(k, len(phases) - 1)].player)

    def posture_key(self, view: Mapping[str, Any]) -> str:
        """The span a posture holds for: the view's game turn and player turn."""
        return f"{view.get('turn')}:{self.turn_owner(view)}"

    def posture_names(self, view: Mapping[str, Any], game: Any = None) -> list[str]:
        """The postures the search weighs now (the plan's first): at a phase of the seat's
        own player turn, those :attr:`weighed` that are the side's (:attr:`WEIGHABLE`) -
        ``storm`` only in the :attr:`STORM_TURNS` turns before the last, the others only
        before them; none elsewhere (the last turn is played as the last already)."""
        phases = self.seat.context.turn_sequence.phases
        i = int(view.get("phase") or 0)
        me = self.seat.player
        if not self.weighed or self.defending is None or not 0 <= i < len(phases) or \
                str(phases[i].player) != me or self.turn_owner(view) != me:
            return []
        last = self.scenario_last(self.seat.context)
        if last is not None and int(view.get("turn") or 0) >= last:
            return []
        late = self.storm_turn(view)
        side = "defender" if self.defending else "attacker"
        mine = [n for n in self.weighed if self.WEIGHABLE.get(n) in (side, "either")
                and (n == "storm") == late]
        return ["plan", *mine] if mine else []

    def storm_turn(self, view: Mapping[str, Any]) -> bool:
        """Whether the view's game turn is one of the :attr:`STORM_TURNS` before the
        scenario's last or later - where ``storm`` is weighed and a posture's rollouts run
        to the game's end."""
        last = self.scenario_last(self.seat.context)
        return last is not None and last - self.STORM_TURNS <= int(view.get("turn") or 0)

    def set_posture(self, view: Mapping[str, Any], name: str) -> None:
        """Play ``name`` (one of :attr:`postures`) for the rest of the view's player turn."""
        self.posture = (self.posture_key(view), self.postures[name])

    def posture_now(self, view: Mapping[str, Any]) -> str | None:
        """The posture set for the view's player turn (else the standing one; None: the
        plan's)."""
        if self.posture is None:
            return self.standing
        if self.posture[0] != self.posture_key(view):
            return self.standing
        return self.posture[1]

    def posture_stop(self, view: Mapping[str, Any]) -> Callable[[Any], bool] | None:
        """Where a rollout of a posture searched at ``view`` stops: at the start of the
        seat's next player turn - the enemy's answer played, the posture's own turn judged
        (``Policy.evaluate``) - or, in the turns where ``storm`` is weighed, at the game's
        end (None: the verdict itself)."""
        if self.storm_turn(view):
            return None
        start = self.posture_key(view)
        me = self.seat.player

        def stop(g: Any) -> bool:
            st = g.state
            return self.turn_owner(st) == me and self.posture_key(st) != start
        return stop

    def enemy_objective(self, sit: Situation, target: str) -> bool:
        """Whether ``target`` is an objective (``Game.objectives()``) we do not hold."""
        objs: list[Any] = sit.memo("victory.objectives", list)
        return any(str(o.hex) == target and o.holder != sit.player for o in objs)

    def siege_cities(self, sit: Situation) -> list[tuple[int, float]]:
        """The objectives (``Game.objectives()``) the enemy holds worth 2 or more, within
        :data:`europa_offence.SIEGE_MARCH` hexes of our ground units, to besiege: the most
        valuable first, then the nearest (map indices with their worth)."""
        objs: list[Any] = sit.memo("victory.objectives", list)
        got = []
        for o in objs:
            if o.holder == sit.player or int(o.value) < 2:
                continue
            d = sit.nearest(str(o.hex), sit.friendly_hexes)
            if d <= offence.SIEGE_MARCH:
                got.append((-int(o.value), d, str(o.hex)))
        return [(sit.map.index_of_label(h), float(-v)) for v, _d, h in sorted(got)]

    def siege_count(self, sit: Situation) -> int:
        """How many cities are besieged at once (:data:`europa_offence.SIEGES`)."""
        return offence.SIEGES

    def garrisons(self, sit: Situation) -> set[str]:
        """The units the attacker keeps in the objectives it holds (``Game.objectives()``)
        while the enemy is within 10 hexes: two in a place worth 2 or more, one in any
        other, the foot units first (the armor drives on)."""
        out: set[str] = set()
        if not sit.enemy_hexes:
            return out
        objs: list[Any] = sit.memo("victory.objectives", list)
        held = {o.hex: int(o.value) for o in objs if o.holder == sit.player}
        for h, value in sorted(held.items()):
            if sit.nearest(h, sit.enemy_hexes) > 10:
                continue
            here = sorted((uid for uid, u in sit.mine.items() if u.get("hex") == h
                           and str(u.get("type")) not in offence.NOT_GROUND),
                          key=lambda x: (str(sit.mine[x].get("type")) in offence.MECH, x))
            out.update(here[:2 if value >= 2 else 1])
        return out

    def _support_targets(self, sit: Situation, cands: Sequence[Command],
                         moving: Collection[str] = ()) -> list[tuple[Score, str, list[str]]]:
        """EUR-23/EUR-06 Where the planned attacks go: enemy hexes next to our units, worth
        their victory value and our strength around them; up to three strike units each
        (fire support scores on the bombardment table, EUR-03), one fighter escorting; none
        of the ``moving`` units (their transfer is their flight)."""
        per: dict[str, list[list[str]]] = {}
        for c in cands:
            if c.args.get("kind") == "ground_support" and isinstance(c.args.get("target"), str):
                per.setdefault(str(c.args["target"]), []).append(args_units(c.args, "units"))
        weighed = []
        # our attack factors by hex (axial coordinates): a target's are its six neighbours'
        attack_at: dict[tuple[int, int], int] = {}
        for u in sit.mine.values():
            at = sit.hex(str(u["hex"]))
            attack_at[at.q, at.r] = attack_at.get((at.q, at.r), 0) + int(u.get("attack") or 0)
        for h, lists in per.items():
            t = sit.hex(h)
            strength = sum(attack_at.get((t.q + d.q, t.r + d.r), 0) for d in DIRECTIONS)
            if strength <= 0:
                continue
            lists.sort(key=len)
            strikers = lists[0]
            fighters = [x for x in lists[-1] if x not in strikers]
            weighed.append((1.0 + self.hex_value(sit, h) + strength / 10
                            + self.support_first(sit, h), h, strikers, fighters))
        weighed.sort(key=lambda t: (-t[0], t[1]))
        used: set[str] = set(moving)
        out = []
        for w, h, strikers, fighters in weighed:
            mine = self.support_strikers(sit, h, [x for x in strikers if x not in used])
            if not mine:
                continue
            escort = [x for x in fighters if x not in used][:1]
            used.update(mine + escort)
            out.append((w, h, mine + escort))
        return out

    def support_first(self, sit: Situation, target: str) -> float:
        """What a ground-support target scores over the others (none here)."""
        return 0.0

    def support_strikers(self, sit: Situation, target: str, free: Sequence[str]) -> list[str]:
        """The strike units of ``free`` (those in range, not yet sent) that support the
        attack on ``target``: three."""
        return list(free[:3])

    def ground_support(self, sit: Situation, actions: LegalActions
                       ) -> list[tuple[Score, Command]]:
        """EUR-23 Ground support for the planned attacks, planned once an air phase and
        assigned a mission at a time (a mission whose units are no longer all ready is
        dropped); none on the enemy's side of the phase."""
        cands = actions.candidates("air_mission")
        if not cands:
            return []
        at = (sit.view.get("turn"), sit.view.get("phase"))
        if self._air_plan[0] != at:
            moving = {str(c.args.get("unit")) for _s, c in self.air_transfers(sit, actions)} \
                if self.air_forward else set()
            self._air_plan = (at, self._support_targets(sit, cands, moving))
        ready = {x for c in cands for x in args_units(c.args, "units")}
        mid = cands[0].args.get("id")
        out: list[tuple[Score, Command]] = []
        for w, h, units in self._air_plan[1]:
            if all(x in ready for x in units):
                out.append((w, Command("air_mission", self.seat.player, {
                    "id": mid, "kind": "ground_support", "target": h, "units": units})))
        return out

    #: whether the air units follow the front (:meth:`air_transfers`; ``planner@air_forward``)
    air_forward: bool = True
    #: the fewest hexes a new airbase keeps from the nearest enemy ground unit (its ground
    #: units move 6 to 10 hexes a turn: a base beside the front would be overrun)
    AIR_SAFE = 4
    #: the air units an airbase holds (the engine's reading, EUR-27; a plan that fills a base
    #: is checked again by the legal actions)
    AIR_ROOM = 3
    #: what a transfer scores: over any mission (the units moving fly none that phase)
    AIR_FIRST = 1000.0
    #: session 29: how many times more of the front (:meth:`air_front`) a new base must reach
    #: than the present one for a unit that reaches some of it to move; 0, the heuristic's:
    #: only the units that reach none move (session 28's rule; the planner's is 2,
    #: ``planner@air_better=N``)
    air_better: float = 0.0
    #: what a hex short of reaching a front hex costs a hop (of its weight: the points)
    AIR_HOP_PULL = 0.5

    def air_front(self, sit: Situation) -> dict[str, float]:
        """The hexes our air units should reach, each with its weight (:meth:`air_transfers`):
        every enemy ground unit next to ours, 1 each."""
        return {h: 1.0 for h in sit.enemy_hexes if sit.nearest(h, sit.friendly_hexes) <= 1}

    def air_hop(self, sit: Situation) -> bool:
        """Whether an air unit that no listed base brings within reach of the front moves to
        the base nearest it (:meth:`air_transfers`): not here."""
        return False

    def air_transfers(self, sit: Situation, actions: LegalActions
                      ) -> list[tuple[Score, Command]]:
        """EUR-23 (the ``air_transfer`` reading) The air units that reach no front from their
        base (:meth:`air_front`: no enemy ground unit next to ours within their range), or
        (session 29) a base the order lists reaches :attr:`air_better` times more of, move
        to the base the order lists that reaches most of it, at least :data:`AIR_SAFE` hexes
        from the enemy's ground units, the nearer the victory places we drive on or keep the
        better (with :meth:`air_hop`, where no base reaches it, to the base nearest it): a
        transfer is the unit's flight for the game turn, so a unit that can fly a mission
        where it is stays. Planned once an air phase; the most useful first."""
        at = (sit.view.get("turn"), sit.view.get("phase"))
        if self._transfer_plan[0] == at:
            return self._transfer_plan[1]
        cands = actions.candidates("air_transfer")
        air: Mapping[str, Any] = sit.view.get("air_units") or {}
        front = self.air_front(sit) if cands else {}
        out: list[tuple[Score, Command]] = []
        if cands and front:
            hop = self.air_hop(sit)
            by_unit: dict[str, list[Command]] = {}
            for c in cands:
                by_unit.setdefault(str(c.args.get("unit")), []).append(c)
            goals: Mapping[str, int] = self.victory_goals(sit) or {f: 1 for f in front}
            based: dict[str, int] = {}
            for u in air.values():
                if u.get("side") == sit.player and u.get("status") != "eliminated":
                    based[str(u.get("base"))] = based.get(str(u.get("base")), 0) + 1

            covered: dict[tuple[str, int], float] = {}

            def cover(h: str, reach: int) -> float:
                got = covered.get((h, reach))
                if got is None:
                    got = covered[h, reach] = sum(w for f, w in front.items()
                                                  if sit.distance(h, f) <= reach)
                return got

            def toward(h: str, reach: int) -> float:  # the best weight less the hexes short
                return max(w - self.AIR_HOP_PULL * (sit.distance(h, f) - reach)
                           for f, w in front.items())
            safe: dict[str, bool] = {}
            for uid in sorted(by_unit):
                u = air.get(uid) or {}
                reach = int(u.get("range") or 0)
                here = cover(str(u.get("base")), reach) if reach > 0 else 0.0
                if reach <= 0 or (here > 0 and self.air_better <= 0):
                    continue  # it flies from where it is
                best: tuple[tuple[float, int, str], Command] | None = None
                nearest: tuple[tuple[float, str], Command] | None = None
                for c in by_unit[uid]:
                    to = str(c.args.get("to"))
                    if based.get(to, 0) >= self.AIR_ROOM:
                        continue
                    if to not in safe:
                        safe[to] = sit.nearest(to, sit.enemy_hexes) >= self.AIR_SAFE
                    if not safe[to]:
                        continue
                    n = cover(to, reach)
                    if n <= 0:
                        if hop and (nearest is None
                                    or (-toward(to, reach), to) < nearest[0]):
                            nearest = ((-toward(to, reach), to), c)
                        continue
                    key = (n, -sit.nearest(to, goals), to)
                    if best is None or key > best[0]:
                        best = (key, c)
                if best is not None and here > 0 and best[0][0] < self.air_better * here:
                    continue  # no base reaches enough more of the front: it flies from here
                if best is None and here <= 0 and nearest is not None and \
                        -nearest[0][0] > toward(str(u.get("base")), reach):
                    best = ((0.0, 0, nearest[0][1]), nearest[1])
                if best is not None:
                    to = str(best[1].args.get("to"))
                    based[to] = based.get(to, 0) + 1
                    based[str(u.get("base"))] = based.get(str(u.get("base")), 1) - 1
                    out.append((self.AIR_FIRST + 0.01 * best[0][0], best[1]))
        out.sort(key=lambda t: -t[0])
        self._transfer_plan = (at, out)
        return out

    def score_air_transfer(self, sit: Situation, cmd: Command) -> Score:
        """Transfers are planned (:meth:`air_transfers`); any other candidate is not made."""
        return -1.0

    def score_air_mission(self, sit: Situation, cmd: Command) -> Score:
        """Missions are planned (:meth:`ground_support`); any other candidate is not flown."""
        return -1.0

    def score_intercept(self, sit: Situation, cmd: Command) -> Score:
        """EUR-25 Every strike mission flies over our stacks or bases: meet it with every
        fighter in reach (more is better), rather than let it pass."""
        return 1.0 + 0.1 * len(args_units(cmd.args, "interceptors"))

    def score_fighter_sweep(self, sit: Situation, cmd: Command) -> Score:
        return 0.1

    def score_ground_support(self, sit: Situation, cmd: Command) -> Score:
        return 0.1

    def score_airfield_strike(self, sit: Situation, cmd: Command) -> Score:
        """EUR-45 The surprise turn's airfield strikes: 1 enemy air unit per 2 dedicated, so
        the strike that uses its units best (the fewest per unit it can eliminate) first."""
        n = len(args_units(cmd.args, "attackers"))
        return 2.0 + (n // 2) - 0.01 * n if n >= 2 else -1.0

    def score_airbase_surprise(self, sit: Situation, cmd: Command) -> Score:
        """SUR-22 Bomb the enemy's airbases on a surprise turn (their units lose status)."""
        return 1.5

    def own_estimate(self, sit: Situation, cmd: Command) -> Estimate | None:
        return europa_estimate(sit, dict(cmd.args))

    def attack_caution(self, sit: Situation) -> Fraction:
        """The weight of our own losses in an attack (a planner's stage sets its own; the
        search's ``bold`` posture halves it)."""
        return self.bolder(sit, self.caution)

    def bolder(self, sit: Situation, caution: Fraction) -> Fraction:
        """``caution`` as the posture of this player turn weighs it (``bold``: half)."""
        return caution / 2 if self.posture_now(sit.view) == "bold" else caution

    #: the attacker's least chance of clearing a hex it attacks or overruns
    #: (:data:`europa_offence.P_MIN`; a planner's stage weighs its losses by its caution)
    odds_floor: ClassVar[Fraction] = offence.P_MIN

    def score_attack(self, sit: Situation, cmd: Command) -> Score:
        """EUR-09 The exact odds' expected gain; the side driving on the objectives attacks
        only at odds that pay or against a pocket, and weighs the enemy strength its win
        cuts off (:func:`europa_offence.attack_worth`). On the scenario's last turn either
        side attacks an objective the enemy holds at any odds that can take it (its own
        losses no longer count: :meth:`last_turn`)."""
        target = self.attack_target(cmd)
        est = self.own_estimate(sit, cmd)
        if est is None or target is None:
            return -1.0
        if self.last_turn(sit) and self.enemy_objective(sit, str(target)):
            # the game's last attacks (either side's): only the places count now, our
            # losses no longer
            return float(est.value(self.hex_value(sit, str(target)), Fraction(0)))
        value = est.value(self.hex_value(sit, str(target)), self.attack_caution(sit))
        if self.defending is not False:
            return float(value)
        pic = self.picture(sit)
        i = sit.map.index_of_label(str(target))
        _d, isolated = pic.defense(i)
        key = (sit.view.get("turn"), sit.view.get("phase"), i)
        cut = self._cuts.get(key)
        if cut is None:
            if self._cuts and next(iter(self._cuts))[:2] != key[:2]:
                self._cuts.clear()
            cut = self._cuts[key] = pic.cut_by_clearing(i)
        return offence.attack_worth(est.p_taken, value, isolated, cut, self.odds_floor)

    def _loss_weight(self, sit: Situation, uid: str) -> Score:
        u = sit.view.get("units", {}).get(uid, {})
        armor = u.get("type") == "armor" or u.get("armor") in ("full", "half")
        return (3.0 if armor else 1.0) * (1 + int(u.get("attack") or 0) / 10)

    def score_allocate_losses(self, sit: Situation, cmd: Command) -> Score:
        return -sum(self._loss_weight(sit, u) for u in args_units(cmd.args, "units"))

    score_allocate_isolation_losses = score_allocate_losses

    def score_retreat(self, sit: Situation, cmd: Command) -> Score:
        losses = args_units(cmd.args, "losses")
        path = args_units(cmd.args, "path")
        end = path[-1] if path else None
        exposed = 0.5 if end is not None and sit.in_contact(end) else 0.0
        return -sum(self._loss_weight(sit, u) for u in losses) - exposed

    def score_advance(self, sit: Situation, cmd: Command) -> Score:
        """EUR-15 The attacker advances into every hex it empties (the ground it drives on,
        the ring of a pocket), the foot units first (the armor keeps its place to exploit);
        the defender only into an objective the enemy holds (it takes it back), any other
        choice of the defender's is not scored (any)."""
        if self.defending is not False and not self._advance_retakes(sit):
            return 0.0
        units = args_units(cmd.args, "units")
        mech = sum(1 for x in units if str(sit.mine.get(x, {}).get("type")) in offence.MECH)
        return 0.5 + (len(units) - mech) + 0.3 * min(mech, 1) - 0.1 * max(0, mech - 1)

    def _advance_retakes(self, sit: Situation) -> bool:
        """EUR-15 Whether the hex our attack emptied (the pending combat's, public) is an
        objective the enemy holds: advancing into it takes it back."""
        combat = sit.view.get("combat")
        pending = combat.get("pending") if isinstance(combat, Mapping) else None
        where = pending.get("defender_hex") if isinstance(pending, Mapping) else None
        return isinstance(where, str) and self.enemy_objective(sit, where)

    def _pays(self, sit: Situation) -> bool:
        units = sit.view.get("units", {})
        mine = sum(int(u.get("attack") or 0) for u in sit.mine.values()
                   if sit.in_contact(u["hex"]))
        theirs = sum(int(u.get("defense") or 0) for u in units.values()
                     if u.get("side") != sit.player and u.get("hex")
                     and sit.nearest(u["hex"], set(sit.friendly_hexes)) <= 1)
        return mine > 2 * max(theirs, 1)

    def score_overrun(self, sit: Situation, cmd: Command) -> Score:
        """EUR-18 An overrun at the exact odds: the attacker's at the odds that pay
        (:func:`europa_offence.attack_worth`), the defender's only where they leave the hex
        nearly sure to be cleared at a gain (its stacks hold the line)."""
        if self.defending is None:
            return self.overrun_score
        target = cmd.args.get("target")
        if not isinstance(target, str):
            return -1.0
        est = view_estimate(sit, target, args_units(cmd.args, "units"))
        if not self.defending:
            # the attacker's overruns go by the exact odds too (one at 1 to 1 bleeds)
            if est is None:
                return -1.0
            value = est.value(self.hex_value(sit, target), self.attack_caution(sit))
            _d, isolated = self.picture(sit).defense(sit.map.index_of_label(target))
            return offence.attack_worth(est.p_taken, value, isolated, 0.0, self.odds_floor) + (
                self.overrun_score if est.p_taken >= offence.P_MIN else 0.0)
        if est is None or est.p_taken < Fraction(9, 10):
            return -1.0
        return float(est.value(self.hex_value(sit, target), self.caution))

    def score_start_surprise(self, sit: Situation, cmd: Command) -> Score:
        return 1.0 if self._pays(sit) else -1.0

    def score_place_reinforcement(self, sit: Situation, cmd: Command) -> Score:
        """EUR-22 Every arrival is placed (an unplaced one only waits a turn): where it
        enters weighs the victory places under threat or wanted (``victory_goals``) most,
        then nearness to the enemy (the front)."""
        to = cmd.args.get("hex")
        if not isinstance(to, str):
            return 1.0
        goals = self.victory_goals(sit)
        return (2.0 + 2.0 / (1 + sit.nearest(to, goals))
                + 1.0 / (1 + sit.nearest(to, sit.enemy_hexes)))


def add_victory_objectives(sit: Situation, game: Any) -> None:
    """The rules' victory places (``Game.objectives``) in the bot's picture: a place the
    seat wants and does not hold is worth 3 + 2 x its value as a target (attacks weigh it,
    moves close on it); one it holds with the enemy within 3 hexes is a place to keep. Read
    through the rule-system hook only, so the same code serves every system."""
    objs: list[Any] = sit.memo("victory.objectives", lambda: list(game.objectives()))
    goals: dict[str, int] = sit.memo("victory.goals", dict)
    for o in objs:
        if sit.player not in o.wanted_by:
            continue
        worth = 3 + 2 * int(o.value)
        if o.holder != sit.player:
            sit.objectives[o.hex] = max(sit.objectives.get(o.hex, 0), worth)
            goals[o.hex] = worth
        elif sit.enemy_hexes and sit.nearest(o.hex, sit.enemy_hexes) <= 3:
            goals[o.hex] = worth


#: eurofront-1941's fitted evaluation (:attr:`EuroFrontPolicy.evaluation_weights`): 100
#: planner games, seeds 1000-1099 (the Axis won 86); rows: June (no spread before the first
#: battle: the side's base rate), July, August, September
EF_1941_EVALUATION: Mapping[str, Sequence[Sequence[float]]] = {
    "axis": [[1.812, 0.0, 0.0, 0.0], [-1.477, 0.689, 0.556, -0.771],
             [-0.16, 1.304, 0.4, -1.535], [-5.004, 2.078, 0.466, -0.766]],
    "allies": [[-1.812, 0.0, 0.0, 0.0], [0.292, 0.797, 0.0, -2.584],
               [-0.445, 1.266, 0.588, -3.933], [0.618, 2.177, 0.065, -4.129]],
}


def _is_hq(u: Mapping[str, Any]) -> bool:
    """A EuroFront HQ block (``kind`` hq in the state; ``type`` hq in a scenario)."""
    return u.get("kind") == "hq" or u.get("type") == "hq"


class EuroFrontPolicy(Policy):
    """EuroFront: the side that must take the scenario's objectives (the Axis when the
    calendar names ``axis_objectives``) attacks: every block advances on the nearest objective
    it does not hold whether in contact or not, takes empty objectives, enters enemy hexes
    only where the blocks that can join outgun the enemy there (expected hits: a die per step
    hitting on at most the firepower; an unseen block counted as 3 steps of firepower 1.5), and
    keeps one block on each objective it holds; HQs follow their blocks and never fight; one
    HQ a chit, so each Activation Phase moves the blocks again. The defending side holds the
    line and counter-attacks (the generic policy)."""

    procedural: ClassVar[Mapping[str, Score]] = {
        "roll_weather": 3.0, "roll_initiative": 3.0, "end_activation_phase": 0.01,
        "end_operation": 0.01, "end_production": 0.01}
    #: expected hits of a block the bot cannot see (3 steps at firepower 1.5 of 6)
    unseen_hits = 0.75
    #: how much the attacking blocks' expected hits must exceed the defenders'
    edge = 2.0

    def attacking(self, sit: Situation) -> bool:
        cal = sit.context.scenario.calendar
        return sit.player == "axis" and bool(cal.get("objectives")) \
            and cal.get("axis_objectives") is not None

    def goals(self, sit: Situation) -> set[str]:
        """The scenario's objectives this side does not hold (once per decision)."""
        def make() -> set[str]:
            control = sit.view.get("control", {}) or {}
            return {str(h) for h in sit.context.scenario.calendar.get("objectives", []) or []
                    if control.get(h) != sit.player}
        return sit.memo("ef.goals", make)

    def held(self, sit: Situation) -> set[str]:
        control = sit.view.get("control", {}) or {}
        return {str(h) for h in sit.context.scenario.calendar.get("objectives", []) or []
                if control.get(h) == sit.player}

    def score_place_chit(self, sit: Situation, cmd: Command) -> Score:
        strength = int(cmd.args.get("strength", 0) or 0)
        count = int(cmd.args.get("count", 0) or 0)
        if self.attacking(sit):  # one HQ a phase: the blocks move again in the next phase
            return float(strength) - 0.1 * max(0, count - 1)
        return float(strength) + 0.1 * count

    def score_activate_hq(self, sit: Situation, cmd: Command) -> Score:
        hq = str(cmd.args.get("hq", ""))
        u = sit.mine.get(hq)
        if u is None:
            return 1.0
        if self.attacking(sit):
            reach = int(u.get("steps") or u.get("defense") or 1)
            near = sum(1 for b, v in sit.mine.items() if b != hq and not _is_hq(v)
                       and sit.distance(str(v["hex"]), str(u["hex"])) <= reach)
            return 2.0 + near
        return 2.0 + 1.0 / (1 + sit.nearest(str(u["hex"]), sit.enemy_hexes))

    macro_kinds: ClassVar[frozenset[str]] = frozenset({"place_chit", "activate_hq"})
    #: the decisions that pass (the search weighs buying against them: :meth:`purchase`)
    pass_kinds: ClassVar[frozenset[str]] = frozenset({"end_production"})
    #: the purchases the search may make in place of the planner's passing
    purchase_kinds: ClassVar[tuple[str, ...]] = ("build", "rebuild")

    #: The defending side's postures the search bot weighs once a month (session 14; more
    #: edges, session 15): a name and the edge a counter-attack needs in it (the blocks that
    #: can join it must expect more than ``edge`` times the defenders' hits,
    #: :meth:`_battle_odds`); ``plan`` (None) is the policy's own play - every enemy hex in
    #: reach is attacked - so a bot that never sets a posture plays as before. Counter-attack
    #: edges as the whole Allied policy, planner Axis, seeds 200-231 (session 14): the plan's
    #: Allies won 4 of 32, 1x 6, 1.5x 8, 2x 7, 3x 2 - the best edge depends on the game.
    postures: ClassVar[Mapping[str, float | None]] = {
        "plan": None, "cautious": 2.0, "odds": 1.5, "even": 1.0}
    #: the posture set for a month (the month, its edge), by the search only
    posture: tuple[str, float | None] | None = None
    #: the edge played in a month with no posture set (None: the plan's); the search bot's
    #: standing posture, which a month's search may replace
    standing: float | None = None

    def posture_names(self, view: Mapping[str, Any], game: Any = None) -> list[str]:
        """The postures the search may weigh for this seat now (none for the attacking side:
        its attacks already need :attr:`edge`), the plan's own first."""
        cal = self.seat.context.scenario.calendar
        if self.seat.player == "axis" and cal.get("objectives") and \
                cal.get("axis_objectives") is not None:
            return []
        return list(self.postures)

    def posture_key(self, view: Mapping[str, Any]) -> str:
        """The span a posture holds for: the month of the view (EF-18's activation month)."""
        return str((view.get("activation") or {}).get("month")
                   or self.seat.context.scenario.calendar.get("month") or "")

    def set_posture(self, view: Mapping[str, Any], name: str) -> None:
        """Play ``name`` (one of :attr:`postures`) for the rest of the view's month."""
        self.posture = (self.posture_key(view), self.postures[name])

    def posture_edge(self, sit: Situation) -> float | None:
        """The edge a counter-attack needs under the posture set for this month (else the
        standing one), or None: the plan's."""
        if self.posture is None or self.posture[0] != self.posture_key(sit.view):
            return self.standing
        return self.posture[1]

    #: The search bot's kept objectives (session 17; None: the planner's play, which keeps
    #: none): the defending side holds this many of the objectives it holds, those furthest
    #: from the enemy (:meth:`kept`) - a block on one stays while it is one of at most
    #: :attr:`garrison` there, and a block out of contact goes to one with fewer. As the
    #: whole Allied policy, buying, against the planner's Axis (eurofront-1941, tuning seeds
    #: 200-299): keeping 3 won 46 of 100, 25 without.
    hold: int | None = None
    #: the blocks a kept objective wants
    garrison = 2

    def hold_count(self) -> int | None:
        """How many objectives the defending side must keep to deny the attacker its
        ``axis_objectives`` (the objectives less that many plus one); None for the attacking
        side or a scenario without objectives."""
        cal = self.seat.context.scenario.calendar
        objectives, needed = cal.get("objectives") or [], cal.get("axis_objectives")
        if self.seat.player == "axis" or not objectives or needed is None:
            return None
        return max(1, len(objectives) - int(needed) + 1)

    def kept(self, sit: Situation) -> set[str]:
        """The objectives the defending side keeps (:attr:`hold` of those it holds, the
        furthest from the enemy's nearest block first; all it holds when it sees no enemy)."""
        def make() -> set[str]:
            held = sorted(self.held(sit))
            if not sit.enemy_hexes or self.hold is None:
                return set(held)
            held.sort(key=lambda h: (-sit.nearest(h, sit.enemy_hexes), h))
            return set(held[:self.hold])
        return sit.memo("ef.kept", make)

    def _hold_move(self, sit: Situation, u: Mapping[str, Any], to: str) -> Score | None:
        """The kept objectives' say on a move (:attr:`hold`), None: the policy's own score."""
        here = str(u["hex"])
        kept = self.kept(sit)
        if here in kept and not _is_hq(u) and sit.friendly_hexes.get(here, 0) <= self.garrison:
            return -1.0  # the garrison of a kept objective stays, even from a counter-attack
        if to in sit.enemy_hexes or sit.in_contact(here):
            return None
        want = sit.memo("ef.want", lambda: {h for h in kept
                                            if sit.friendly_hexes.get(h, 0) < self.garrison})
        if not want:
            return None
        d0, d1 = sit.nearest(here, want), sit.nearest(to, want)
        return float(d0 - d1) + 0.5 if d1 < d0 else -0.1

    def buys(self, view: Mapping[str, Any]) -> bool:
        """Whether the search bot's standing purchase is to buy (at every production phase,
        without weighing passing): the defending side's, as for :meth:`posture_names`.
        Buying through every phase as the whole Allied policy against the planner's Axis
        (session 16, eurofront-1941, tuning seeds 200-299): the Allies won 25 of 100 games
        against 16 passing as the planner does (the same bot and tie-break stream). The
        search's own weighing judges a phase at the next month's start, where the fitted
        evaluation gives the Allies' steps little or no weight (:data:`EF_1941_EVALUATION`:
        none in July)."""
        return bool(self.posture_names(view))

    def purchase(self, sit: Situation, actions: LegalActions) -> Command | None:
        """The search's best purchase now (PROD: a step for a block on the map, EF-02 a
        destroyed block back as a cadre), None when none is legal: what the search bot weighs
        against the planner's passing at the production phase - the planner itself never
        buys (a build scores nothing in its eyes). A step counts its firepower, twice for a
        block in contact with the enemy, half again on an objective; a cadre counts its
        firepower and is placed nearest the enemy."""
        objectives = {str(h) for h in sit.context.scenario.calendar.get("objectives") or []}
        best: tuple[float, Command] | None = None
        for kind in self.purchase_kinds:
            if kind not in actions.kinds():
                continue
            for c in actions.of(kind):
                v = self._purchase_value(sit, c, objectives)
                if v is not None and (best is None or v > best[0]):
                    best = (v, c)
        return best[1] if best else None

    def _purchase_value(self, sit: Situation, cmd: Command, objectives: set[str]
                        ) -> float | None:
        uid = str(cmd.args.get("block", ""))
        if cmd.kind == "build":
            u = sit.mine.get(uid)
            if u is None or u.get("hex") is None:
                return None
            here = str(u["hex"])
            v = float(int(u.get("fp") or 1)) * (0.5 if _is_hq(u) else 1.0)
            v *= (2.0 if sit.in_contact(here) else 1.0) * (1.5 if here in objectives else 1.0)
            return v / (1 + int(u.get("steps") or 0))
        dead = ((sit.view.get("destroyed") or {}).get(sit.player) or {}).get(uid)
        at = cmd.args.get("at")
        if not isinstance(dead, Mapping) or not isinstance(at, str):
            return None
        near = sit.nearest(at, sit.enemy_hexes) if sit.enemy_hexes else 9
        return float(int(dead.get("fp") or 1)) * (0.5 if _is_hq(dead) else 1.0) * \
            (1.5 if at in objectives else 1.0) / 2 + 1.0 / (1 + near)


    #: The search's evaluation (:meth:`evaluate`), fitted per scenario, per side and per month
    #: of the game (0: the scenario's first month; later months use the last row): logistic
    #: weights of (1, the objectives the side holds, its blocks' hits / 10, the enemy blocks
    #: it sees on the map / 10) for the chance that the side wins. Data, refitted with
    #: ``uv run python bench/study.py --scenario eurofront-1941 --fit-evaluation --games 100
    #: --seed 1000 --json`` (planner against planner; docs/AI.md, "Session 12: the search
    #: bot").
    evaluation_weights: ClassVar[Mapping[str, Mapping[str, Sequence[Sequence[float]]]]] = {
        "eurofront-1941": EF_1941_EVALUATION}

    @staticmethod
    def evaluation_features(view: Mapping[str, Any], player: str,
                            objectives: Sequence[str]) -> tuple[float, float, float, float]:
        """(1, objectives held, own hits / 10, enemy blocks seen / 10) from ``player``'s
        view: what :meth:`evaluate` weighs (an HQ's steps are not hits; the enemy's blocks
        are face down, so only counted)."""
        control = view.get("control", {}) or {}
        held = sum(1 for h in objectives if control.get(h) == player)
        hits = enemy = 0
        for u in (view.get("units") or {}).values():
            if u.get("hex") is None:
                continue
            if u.get("side") == player:
                if not _is_hq(u):
                    hits += int(u.get("steps") or 0) * int(u.get("fp") or 1)
            else:
                enemy += 1
        return 1.0, float(held), hits / 10, enemy / 10

    def month_index(self, view: Mapping[str, Any]) -> int:
        """Months since the scenario's first (0 in its first month); a month whose activations
        are over (EF-18: both chits zero, or its last phase played; production follows)
        counts as the next - a rollout cut at the month's end is judged as the next month's
        start."""
        cal = self.seat.context.scenario.calendar
        act = view.get("activation") or {}
        month = str(act.get("month") or cal.get("month") or "")
        start = str(cal.get("month") or month)
        try:
            m = (int(month[:4]) - int(start[:4])) * 12 + int(month[5:7]) - int(start[5:7])
        except ValueError:
            return 0
        return m + 1 if act.get("step") == "month_over" else m

    def evaluate(self, view: JSON, game: Any = None) -> float:
        """The chance that this side wins (as -1000 .. +1000: the game's result where it has
        one) from a logistic fit of the objectives held, its blocks' hits and the enemy
        blocks seen (:attr:`evaluation_weights`); a scenario without fitted weights is judged
        by the generic evaluation, which does not count a block's steps."""
        me = self.seat.player
        if game is not None:
            over = self.result_value(game)
            if over is not None:
                return over
        cal = self.seat.context.scenario.calendar
        rows = (self.evaluation_weights.get(self.seat.context.scenario.id) or {}).get(me)
        if not rows:
            return super().evaluate(view, game)
        w = rows[max(0, min(self.month_index(view), len(rows) - 1))]
        x = self.evaluation_features(view, me, [str(h) for h in cal.get("objectives") or []])
        z = sum(a * b for a, b in zip(w, x, strict=True))
        return 1000.0 * (2.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z)))) - 1.0)

    #: moves are scored afresh each decision: the blocks' leash follows the HQs' new places
    unplanned: ClassVar[frozenset[str]] = frozenset({"move"})
    #: hexes a block may end from the nearest HQ (the command range of the next activation)
    leash = 3

    def _hits(self, u: Mapping[str, Any]) -> float:
        if u.get("hidden") and "steps" not in u:
            return self.unseen_hits
        return int(u.get("steps") or 0) * int(u.get("fp") or u.get("attack") or 1) / 6

    def _may_move(self, sit: Situation, u: Mapping[str, Any]) -> bool:
        """Whether a block of ours may still move in the operation under way (EF-17/EF-18)."""
        op = sit.view.get("operation") or {}
        phase = int((sit.view.get("activation") or {}).get("phase", -1))
        return int(u.get("moved", -2)) != phase and bool(op) and \
            sit.distance(str(u["hex"]), str(op.get("hex"))) <= int(op.get("range", 0))

    def _battle_odds(self, sit: Situation, target: str) -> tuple[float, float]:
        """Expected hits of the blocks that can join a battle in ``target`` (ours already in
        it, and those of the operation that can still reach it, HQs aside) and of the enemy
        blocks there."""
        def make() -> tuple[float, float]:
            units = sit.view.get("units", {})
            ours = sum(self._hits(u) for u in sit.mine.values() if not _is_hq(u) and (
                u.get("hex") == target or (
                    self._may_move(sit, u)
                    and sit.distance(str(u["hex"]), target) <= int(u.get("mp") or 1))))
            theirs = sum(self._hits(u) for u in units.values()
                         if u.get("side") != sit.player and u.get("hex") == target)
            return ours, theirs
        return sit.memo(("ef.odds", target), make)

    def _hqs(self, sit: Situation) -> set[str]:
        return sit.memo("ef.hqs", lambda: {str(u["hex"]) for u in sit.mine.values()
                                           if _is_hq(u)})

    def score_move(self, sit: Situation, cmd: Command) -> Score:
        """EF-17: a block entering enemy blocks fights there (more for an objective)."""
        if self.attacking(sit):
            return self._attack_move(sit, cmd)
        to = destination(cmd)
        if self.hold and to is not None:
            mover = sit.mine.get(str(cmd.args.get("block")))
            got = self._hold_move(sit, mover, to) if mover is not None else None
            if got is not None:
                return got
        if to is not None and to in sit.enemy_hexes and str(cmd.args.get("block")) in sit.mine:
            edge = self.posture_edge(sit)
            if edge is not None:
                ours, theirs = self._battle_odds(sit, to)
                if ours <= edge * theirs:
                    return -0.5  # the search's cautious posture: no counter-attack at poor odds
            return 1.0 + sit.value_of_hex(to)
        u = sit.mine.get(str(cmd.args.get("block")))
        goals = sit.memo("ef.valued", lambda: {h for h, v in sit.objectives.items() if v >= 5})
        if u is None or to is None or not goals or sit.in_contact(str(u["hex"])):
            return super().score_move(sit, cmd)
        # out of contact: advance on the scenario's objectives, not on the nearest enemy
        d0, d1 = sit.nearest(str(u["hex"]), goals), sit.nearest(to, goals)
        return float(d0 - d1) if d1 < d0 else -0.1

    def _attack_move(self, sit: Situation, cmd: Command) -> Score:
        u = sit.mine.get(str(cmd.args.get("block")))
        to = destination(cmd)
        goals = self.goals(sit)
        if u is None or to is None:
            return -1.0
        here = str(u["hex"])
        if here in self.held(sit) and sit.friendly_hexes.get(here, 0) <= 1:
            return -1.0  # the last block on a held objective stays
        if not goals:
            return -0.1
        gain = float(sit.nearest(here, goals) - sit.nearest(to, goals))
        if _is_hq(u):
            # the HQs lead the way first (never into a battle, nor alone next to the enemy),
            # so that their blocks, leashed to them, follow
            if to in sit.enemy_hexes or (sit.in_contact(to) and not sit.friendly_hexes.get(to)):
                return -1.0
            return 20.0 + gain if gain > 0 else -0.1
        if to in sit.enemy_hexes:
            ours, theirs = self._battle_odds(sit, to)
            last = str((sit.view.get("activation") or {}).get("month")) == \
                str(sit.context.scenario.calendar.get("last_month"))
            # in the last month an objective is worth any battle the blocks can win
            edge = 1.0 if last and to in goals else self.edge
            if ours <= edge * theirs:
                return -0.5
            return 2.0 + (10.0 if to in goals else 0.0) + max(0.0, gain)
        if to in goals:
            return 10.0 + gain
        hqs = self._hqs(sit)
        if hqs and sit.nearest(to, hqs) > self.leash:
            return -0.2  # beyond the next activation's command range
        return gain if gain > 0 else -0.1

    def score_take_loss(self, sit: Situation, cmd: Command) -> Score:
        """Losses on the strongest block (no block destroyed while others have steps), HQs
        last."""
        u = sit.mine.get(str(cmd.args.get("block", "")))
        if u is None:
            return -1.0
        return -1.0 + int(u.get("steps") or 0) / 10 - (1.0 if _is_hq(u) else 0.0)

    def score_retreat(self, sit: Situation, cmd: Command) -> Score:
        """Retreat away from the enemy."""
        to = destination(cmd)
        if to is None:
            return -1.0
        return -1.0 + min(3, sit.nearest(to, sit.enemy_hexes)) / 10

    def score_rail_move(self, sit: Situation, cmd: Command) -> Score:
        u = sit.mine.get(str(cmd.args.get("block", "")))
        if u is None:
            return 0.0
        if self.attacking(sit):
            to = destination(cmd)
            goals = self.goals(sit)
            if to is None or not goals or sit.nearest(str(u["hex"]), sit.enemy_hexes) <= 2:
                return -0.5
            gain = sit.nearest(str(u["hex"]), goals) - sit.nearest(to, goals)
            return 0.25 * gain if gain > 2 else -0.5
        return 0.5 if sit.nearest(str(u["hex"]), sit.enemy_hexes) > 3 else -0.5


P = TypeVar("P", bound=Policy)

#: the per-system policies; :func:`policy_for` picks one by the command kinds it plays
POLICIES: tuple[type[Policy], ...] = (ThirdReichPolicy, EuropaPolicy, EuroFrontPolicy)


def fitting(classes: Sequence[type[P]], seat: Seat) -> type[P] | None:
    """The class among ``classes`` that plays the most of the seat's command kinds beyond the
    generic :class:`Policy`'s (None when none plays any: a system no policy knows)."""
    generic = Policy.kinds_of()
    best, most = None, 0
    for cls in classes:
        n = len((cls.kinds_of() - generic) & seat.kinds)
        if n > most:
            best, most = cls, n
    return best


def policy_for(seat: Seat) -> Policy:
    return (fitting(POLICIES, seat) or Policy)(seat)


class HeuristicBot:
    """Scores the candidate actions (:class:`Policy`) and plays the best legal one.

    With a :class:`LegalActions` (games played by :func:`~grognard.bots.play.play_game`), the
    bot ranks the kinds' cheap candidates (:meth:`LegalActions.candidates`: the proposers'
    supersets of the legal commands) and checks only the ones it would play, best first
    (:meth:`LegalActions.allows`, the rules' verify); ``end_phase`` is checked only when no
    candidate scores above zero. A policy may plan a whole phase of one kind at once
    (:meth:`Policy.plan`: 3R moves from every unit's movement range computed together, 3R
    builds within the budget): the plan is played in turn while the rules still allow it, so
    a phase costs one enumeration, not one per command. The plan ends with the phase, or when
    none of it is left legal.
    """

    name = "heuristic"
    planned_kinds: ClassVar[frozenset[str]] = frozenset({"move"})
    #: Candidates checked with the rules before falling back to listing the legal actions.
    max_checks = 64

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.policy = self.make_policy(seat)
        self._dice = rng(seat, self.name)
        self._plan: list[Command] = []
        self._plan_at: tuple[Any, ...] = ()
        self._planned: set[str] = set()
        self._planned_at: tuple[Any, ...] = ()

    def make_policy(self, seat: Seat) -> Policy:
        return policy_for(seat)

    def scores(self, view: JSON, legal_actions: Sequence[Command]) -> list[Score]:
        sit = self.policy.situation(view, None)
        return [self.policy.score(sit, c) for c in legal_actions]

    def _at(self, view: JSON) -> tuple[Any, ...]:
        return (view.get("turn"), view.get("phase"))

    def choose(self, view: JSON, legal_actions: Sequence[Command]) -> Command:
        if not isinstance(legal_actions, LegalActions):
            return self._choose_listed(view, legal_actions)
        la = legal_actions
        if self._plan and self._plan_at == self._at(view):
            while self._plan:
                cmd = self._plan.pop(0)
                if la.allows(cmd):
                    return cmd
        self._plan = []
        kinds = set(la.kinds())
        at = self._at(view)
        if self._planned_at != at:
            self._planned_at, self._planned = at, set()
        # planned once a phase: what the plan left is not worth a second
        todo = sorted((self.policy.kinds() & kinds) - {"end_phase"} - self._planned)
        if not todo and not (self.policy.rechecked & kinds) and "end_phase" in kinds:
            end = Command("end_phase", self.seat.player, {})
            if la.allows(end):
                return end  # nothing to score: no picture of the board needed
        sit = self.policy.situation(view, la.game)
        scored: list[tuple[Score, Command]] = []
        for kind in todo:
            planned = self.policy.plan(sit, la, kind)
            if planned is not None and kind in self.policy.planned:
                self._planned.add(kind)
            if planned is not None:
                scored += planned
                continue
            cands = la.candidates(kind)
            scored += [(self.policy.score(sit, c), c) for c in cands]
        ranked = self._rank(scored)
        positive = [(s, c) for s, c in ranked if s > 0]
        best = self._first_allowed(la, positive)
        recheck = sorted((self.policy.rechecked & kinds) - {"end_phase"})
        if best is None and recheck:
            scored = [(s, c) for s, c in scored if c.kind not in recheck]
            for kind in recheck:
                scored += [(self.policy.score(sit, c), c) for c in la.candidates(kind)]
            ranked = self._rank(scored)
            positive = [(s, c) for s, c in ranked if s > 0]
            best = self._first_allowed(la, positive)
        if best is not None:
            best = self.policy.supported(sit, best, la)
            if best.kind == "declare_options":
                both = combine_options([c for _s, c in positive], [s for s, _c in positive],
                                       best)
                if both is not None and la.allows(both):
                    return both
            if best.kind in (self.planned_kinds - self.policy.unplanned) | self.policy.planned:
                self._plan = [c for c in plan_moves([c for _s, c in positive],
                                                    [s for s, _c in positive], best)]
                self._plan_at = self._at(view)
            return best
        if "end_phase" in kinds:
            end = Command("end_phase", self.seat.player, {})
            if la.allows(end):
                return end
        # the phase cannot end (a decision is owed): the least bad action of any kind
        rest = [(s, c) for s, c in ranked if s <= 0]
        for kind in sorted(kinds - (self.policy.kinds() & kinds) - {"end_phase"}):
            rest += [(0.0, c) for c in la.candidates(kind)]
        found = self._first_allowed(la, self._rank(rest))
        if found is not None:
            return found
        listed = [c for c in la if c.kind != "end_phase"]
        if not listed:
            for cmd in self.policy.repairs(sit, la, kinds):
                if la.allows(cmd):
                    return cmd
            raise NoLegalAction(self.seat.player)
        return pick(listed, self.scores(view, listed), self._dice)

    def _rank(self, scored: list[tuple[Score, Command]]) -> list[tuple[Score, Command]]:
        """Best first; a tie for the best broken by the bot's dice (as :func:`pick`)."""
        ranked = sorted(scored, key=lambda sc: -sc[0])
        if len(ranked) > 1 and ranked[1][0] == ranked[0][0]:
            top = sum(1 for s, _c in ranked if s == ranked[0][0])
            i = self._dice.choice(top)
            ranked.insert(0, ranked.pop(i))
        return ranked

    def _first_allowed(self, la: LegalActions, ranked: list[tuple[Score, Command]]
                       ) -> Command | None:
        """The first of ``ranked`` the rules accept (checking at most :attr:`max_checks`;
        beyond that, the best of the kind's verified list)."""
        for i, (_s, cmd) in enumerate(ranked):
            if i >= self.max_checks:
                ok = {repr(c) for k in {c.kind for _s, c in ranked[i:]} for c in la.of(k)}
                return next((c for _s, c in ranked[i:] if repr(c) in ok), None)
            if la.allows(cmd):
                return cmd
        return None

    def _choose_listed(self, view: JSON, legal_actions: Sequence[Command]) -> Command:
        """From a plain list of legal actions: score them all and play the best."""
        if not legal_actions:
            raise NoLegalAction(self.seat.player)
        scores = self.scores(view, legal_actions)
        best = pick(legal_actions, scores, self._dice)
        return best


def combine_options(actions: Sequence[Command], scores: Sequence[Score], first: Command
                    ) -> Command | None:
    """TR-03: one declaration of ``first``'s power with its best positive option on every
    front (the enumerator lists one front at a time; the rules take them together), or None
    when only one front is worth declaring."""
    power = first.args.get("power")
    per_front: dict[str, tuple[Score, str]] = {}
    for c, s in zip(actions, scores, strict=True):
        opts = c.args.get("options")
        if c.kind != "declare_options" or c.args.get("power") != power or s <= 0 \
                or not isinstance(opts, Mapping) or len(opts) != 1:
            continue
        (front, option), = opts.items()
        if front not in per_front or s > per_front[front][0]:
            per_front[front] = (s, str(option))
    if len(per_front) < 2:
        return None
    return Command(first.kind, first.player,
                   {**first.args, "options": {f: o for f, (_s, o) in sorted(per_front.items())}})


def plan_moves(actions: Sequence[Command], scores: Sequence[Score], first: Command
               ) -> list[Command]:
    """After ``first``, the best positive action of its kind for each other unit, best first."""
    best: dict[str, tuple[Score, int, Command]] = {}
    for i, (c, s) in enumerate(zip(actions, scores, strict=True)):
        uid = str(c.args.get("unit", c.args.get("block")))
        if c.kind != first.kind or s <= 0 or \
                uid == str(first.args.get("unit", first.args.get("block"))):
            continue
        if uid not in best or s > best[uid][0]:
            best[uid] = (s, i, c)
    return [c for _s, _i, c in sorted(best.values(), key=lambda t: (-t[0], t[1]))]


def pick(legal_actions: Sequence[Command], scores: Sequence[Score], dice: Any) -> Command:
    """The best-scoring action above zero, else ``end_phase`` if offered, else the best one;
    ties broken by ``dice`` (a seeded :class:`~grognard.core.dice.DiceStream`)."""
    ends = [c for c in legal_actions if c.kind == "end_phase"]
    rest = [(s, c) for s, c in zip(scores, legal_actions, strict=True) if c.kind != "end_phase"]
    if ends and (not rest or max(s for s, _ in rest) <= 0):
        return ends[0]
    pool = rest or [(s, c) for s, c in zip(scores, legal_actions, strict=True)]
    best = max(s for s, _ in pool)
    top = [c for s, c in pool if s == best]
    return top[dice.choice(len(top))] if len(top) > 1 else top[0]
