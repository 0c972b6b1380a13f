"""The ``mcts`` bot: Monte Carlo search over the macro decisions, from the seat's view only.

At a macro decision (the kinds the policy names in ``macro_kinds``: 3R declarations of war and
options - searched only with ``decide=1``, the policy's ``search_decisions`` being off on 3R
since session 24 -, the Europa surprise, EuroFront chits and activations) the bot weighs a few
candidates
- the planner's own choice and the next best of the planner's scores (passing, ``end_phase``,
only when it is the planner's choice) - by simulations: each one **determinizes** the
seat's information set (a complete legal state sampled from the seat's own view by the rule
system's ``determinize`` hook - EuroFront deals the enemy's face-down blocks and its destroyed
pool, a count in the view, from the scenario's blocks; without a hook the view with each
face-down unit drawn from its side's counter mix and the secrets as nothing committed; fresh
dice from the bot's own stream), plays the candidate, then a rollout with the planner on
every side truncated at the end of the game turn (``turns=N``: N game turns - a EuroFront
month and its production phase; ``cut=side``: at the end of the seat's own player turn; at
most ``horizon`` commands), and scores the
end by the policy's evaluation (:meth:`~grognard.bots.heuristic.Policy.evaluate`: units,
victory places from ``Game.objectives()``, the verdict from ``Game.standing()``/the result,
BRPs where the system keeps them). The candidates are simulated in paired rounds (a one-level
information-set search: the root's macro choices, the rollouts below; in each round every
candidate from the same determinization and dice, so they are compared on the same luck);
``budget`` simulations a decision, in at least :data:`ROUNDS` rounds (a small budget keeps fewer
of the planner's candidates; below two candidates' rounds the planner's choice is played
unsimulated).
The planner's own choice stands unless another beats it on average by :data:`MARGIN` of the
span of the values seen and by :data:`Z` standard errors of the paired differences
(:func:`better`). Every other decision is the planner's, with the planner's own tie-break
stream (the simulations' seeds come from the search's stream), so a search that changes no
choice plays the planner's very game and a paired game against the planner measures only
what the search changed. Where the planner passes at a purchase decision and the policy
names a purchase (``pass_kinds``, ``purchase``: EuroFront's production, where the planner
buys nothing), the search weighs passing against buying through the phase once a phase
(:meth:`MctsBot._purchase`; budget 4 and up). Where the policy names postures (``posture_names``:
EuroFront's defending side, the plan's every counter-attack in reach or a cautious one), the
search weighs them once a span (a month) and plays the winner to its end, in its own play and
its rollouts (:meth:`MctsBot._posture`; budget 4 and up). Where the policy names the
objectives a defending side must keep (``hold_count``: EuroFront's Allies keep 3 of 5), the
search's seat keeps the held ones furthest from the enemy - their garrisons stay, blocks out of
contact go to them - in its own play and its rollouts (``hold=N``, 0: none; budget 4 and up;
session 17). Where the policy weighs its postures at every player turn of its own
(``posture_every_turn``: Europa, session 23 - which attacks to make, as a study asks with
``weigh``: ``bold`` at half the attacker's caution, ``fall_back`` for the defender's
outflanked units, ``storm``, the turn played as the last, in the two turns before the
scenario's last; none by default, none paid), the search weighs them at the turn's first
decision with rollouts that stop where the policy says (``posture_stop``: the start of the
seat's next player turn, or the game's end) and a horizon the policy names
(``search_horizon``). Where a posture decides the very decision it is weighed at
(``posture_decides_now``: 3R's Axis weighs Barbarossa's date - the plan's or a year later,
``later`` - on the plan's date, session 24; each side weighs the last turn's push on the
enemy's victory locations in reach, ``push``, in the campaign's last turn, session 25), it is
weighed before the planner chooses, its rollouts start from here with the seat's planner
under each posture and run to the game's end (``posture_horizon`` commands), twice a
decision's rounds (``posture_budget_scale``), and the winner holds to the game's end, in the
bot's play and its later rollouts. Where no posture is asked the search stands on the
policy's ``prior`` where it weighs one (3R's Axis: ``later`` and ``push``, session 25): the
rollouts must beat it for the plan to be played. A rollout that ends in a draw is worth 0
(:meth:`~grognard.bots.heuristic.Policy.result_value`). On
EuroFront the evaluation is a fitted chance of winning
(:meth:`~grognard.bots.heuristic.EuroFrontPolicy.evaluate`: objectives held, the blocks'
steps and firepower, the enemy blocks left). Nothing of the real game but the
view and the legal actions reaches the search, so the opponent's hidden information cannot
change its choice (tests/bots/test_view_only.py).

Parameters: ``mcts@budget=16@horizon=200@cut=side@turns=1@width=3@posture=plan@hold=3``;
on Europa ``mcts@weigh=bold+fall_back+storm`` (the postures weighed; none by default) and
``mcts@verdict=0`` (the last assaults by the planner's points, not searched for the verdict:
the defender's, session 26, ``europa_defence.last_assault``; the attacker's last movement
phase, session 27, ``europa_offence.last_assault_plan``) and ``mcts@last_hold=0`` (the
attacker's last game turn does not hold the objectives the enemy's last player turn
threatens, session 34, ``europa_defence.hold_plan``) and ``mcts@retake_air=N`` (the
defender's air moves on the objectives its last assault may retake in the N game turns
before the last, session 35; 0, never, by default); on
3R ``mcts@weigh=later+push`` (the default), ``weigh=later``, ``weigh=push`` or
``weigh=none``, and ``mcts@decide=1`` (every macro decision searched too).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from grognard.bots.base import LazyView, LegalActions, NoLegalAction, Seat, rng
from grognard.bots.planner import PlannerBot
from grognard.core.errors import GrognardError, InputError
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.state import JSON, copy_state

DEFAULT_BUDGET = 8
DEFAULT_HORIZON = 300
WIDTH = 3
#: how many game turns a rollout (``cut=turn``) plays: it stops when the turn counter has
#: advanced by this many (1: at the end of the game turn)
DEFAULT_TURNS = 1
#: the defending side's standing posture with a search (budget 4 and up; ``posture=NAME``)
STANCE = "plan"
#: where a rollout stops: the end of the game turn, or of the seat's own player turn
CUTS = ("turn", "side")
#: the share of the values' span by which a candidate must beat the planner's choice
MARGIN = 0.1
#: the standard errors of the paired differences by which it must beat it
Z = 1.5
#: the paired rounds every candidate gets at least (session 12: with two, the best of three
#: noisy candidates beat the planner's choice in a fifth of the decisions - the winner's
#: curse - and the search lost games the planner won)
ROUNDS = 4


_MIX: dict[int, dict[str, list[JSON]]] = {}


def counter_mix(game_like: Game) -> dict[str, list[JSON]]:
    """Each side's units as the scenario lists them (the public counter mix), per scenario."""
    key = id(game_like.scenario)
    got = _MIX.get(key)
    if got is None:
        start = Game(game_like.scenario, 0, readings=game_like.readings).state
        got = {}
        for _uid, u in sorted((start.get("units") or {}).items()):
            got.setdefault(str(u.get("side")), []).append(u)
        _MIX[key] = got
    return got


def sampled_state(game_like: Game, view: Mapping[str, Any], seed: int) -> JSON:
    """The seat's view with its unknowns sampled (one sample of the information set): by the
    rule system's ``determinize`` hook where it has one (a complete legal state: EuroFront
    deals the enemy's face-down blocks and its destroyed pool from its scenario blocks, so a
    rollout plays on through the production phase); else each face-down enemy unit takes the
    strength of a unit drawn from its side's counter mix (the scenario's list, not the real
    game), its place as the view shows it, and every side's missing secrets are empty
    (nothing committed)."""
    hook = game_like.system.determinize
    if hook is not None:
        return hook(game_like.context, view, random.Random(seed))
    state: JSON = copy_state(dict(view))
    state.pop("viewer", None)
    secrets = state.get("secrets")
    if isinstance(secrets, dict):
        for side in game_like.scenario.sides:
            secrets.setdefault(side, {})
    units = state.get("units")
    if isinstance(units, dict):
        mix = counter_mix(game_like)
        draw = random.Random(seed)
        for uid, u in list(units.items()):
            pool = mix.get(str(u.get("side")), [])
            if u.get("hidden") and pool and not all(k in u for k in pool[0]):
                units[uid] = {**copy_state(draw.choice(pool)), **u}
    return state


def determinize(game_like: Game, view: Mapping[str, Any], seed: int) -> Game:
    """A game from one sample of the seat's information set (:func:`sampled_state`)."""
    return fork(game_like, sampled_state(game_like, view, seed), seed, copy=False)


def fork(game_like: Game, state: JSON, seed: int, copy: bool = True) -> Game:
    """A game from ``state`` (a determinized state; copied unless ``copy`` is false, so that
    one state can start several simulations) with fresh dice (no stream drawn yet) from
    ``seed`` and the real game's rule system, tables and readings."""
    return Game.from_position(game_like.scenario, seed, copy_state(state) if copy else state,
                              system=game_like.system, tables=game_like.context.tables,
                              readings=game_like.readings)


class MctsBot(PlannerBot):
    name = "mcts"

    def __init__(self, seat: Seat, params: Mapping[str, str] | None = None) -> None:
        p = dict(params or {})
        self.budget = int(p.pop("budget", DEFAULT_BUDGET))
        asked_horizon = p.pop("horizon", None)
        self.cut = p.pop("cut", "turn")
        self.turns = int(p.pop("turns", DEFAULT_TURNS))
        self.width = int(p.pop("width", WIDTH))
        #: the defending side's standing posture (the policy's ``postures``): played in every
        #: month unless the month's search finds another better; the plan's below budget 4,
        #: so that ``mcts@budget=0`` plays the planner's very game
        asked = p.pop("posture", None)
        self.stance = asked or (STANCE if self.budget >= 4 else "plan")
        #: the policy's prior (``prior``: the postures it stands on where weighed unless the
        #: rollouts beat them) applies where no posture is asked, at budget 4 and up
        self._prior = asked is None and self.budget >= 4
        asked_hold = p.pop("hold", None)
        asked_weigh = p.pop("weigh", None)
        asked_decide = p.pop("decide", None)
        asked_verdict = p.pop("verdict", None)
        if self.cut not in CUTS:
            raise InputError("--bots", f"mcts cut={self.cut!r}: one of {', '.join(CUTS)}")
        super().__init__(seat, p)
        # a rollout's most commands: asked, else the policy's (Europa's player turns are
        # about 160 commands each), else DEFAULT_HORIZON
        self.horizon = int(asked_horizon) if asked_horizon is not None else \
            int(getattr(self.policy, "search_horizon", DEFAULT_HORIZON))
        # the defending side keeps the objectives it must hold (``hold=N``, 0: none; by
        # default the policy's count, budget 4 and up - the planner keeps none, so that
        # ``mcts@budget=0`` plays the planner's very game)
        count = getattr(self.policy, "hold_count", None)
        if asked_hold is not None:
            self.hold: int | None = int(asked_hold) or None
        else:
            self.hold = count() if count is not None and self.budget >= 4 else None
        if hasattr(self.policy, "hold"):
            self.policy.hold = self.hold
        # the last assaults searched for the verdict they make (the policy's
        # ``verdict_assault``: Europa's defender, session 26, and attacker, session 27;
        # ``verdict=0|1``, by default budget 4 and up, so that ``mcts@budget=0`` plays the
        # planner's very game)
        if hasattr(self.policy, "verdict_assault"):
            self.policy.verdict_assault = bool(int(asked_verdict)) if asked_verdict is not None \
                else self.budget >= 4
        known = getattr(self.policy, "postures", None)
        if asked_weigh is not None:
            # the postures weighed besides the plan (Europa; ``none``: none, the default)
            names = tuple(n for n in asked_weigh.split("+") if n and n != "none")
            known_w = getattr(self.policy, "WEIGHABLE", {})
            if not hasattr(self.policy, "weighed") or any(n not in known_w for n in names):
                raise InputError("--bots", f"mcts weigh={asked_weigh!r}: postures joined by + "
                                 f"from {', '.join(known_w) or 'none here'}, or none")
            self.policy.weighed = names
        if asked is not None and (known is None or asked not in known):
            raise InputError("--bots", f"mcts posture={self.stance!r}: one of "
                                       f"{', '.join(known or ['plan'])}")
        # the planner's tie-break stream (a search that changes no choice plays the planner's
        # very game, so paired games against the planner measure the search alone) and the
        # search's own stream for its simulations' seeds
        self._dice = rng(seat, PlannerBot.name)
        self._search_dice = rng(seat, self.name)
        #: whether the macro decisions themselves are searched (``decide=0|1``; by default
        #: the policy's ``search_decisions``: 3R's are not - measured level with the planner -
        #: and its search weighs only the postures)
        self.decide = bool(int(asked_decide)) if asked_decide is not None else \
            bool(getattr(self.policy, "search_decisions", True))
        self.simulations = 0  # played so far (for the speed figure)
        self.search_cpu_s = 0.0  # CPU seconds spent searching (for the speed figure)
        self.searched = 0  # decisions simulated, and those where the planner's choice lost
        self.changed = 0
        self._sim_seed = 0
        self._start: tuple[tuple[int, int], JSON] | None = None
        #: the purchase phase the search decided on, and whether it buys in it
        self._bought: tuple[tuple[Any, str], bool] | None = None
        #: the span (a EuroFront month) whose posture the search has chosen
        self._postured: str | None = None
        self.postures_changed = 0  # spans where a posture other than the plan's won

    def _candidates(self, view: JSON, la: LegalActions, first: Command) -> list[Command]:
        sit = self.policy.situation(view, la.game)
        scored: list[tuple[float, Command]] = []
        for kind in sorted(set(la.kinds()) & self.policy.macro_kinds):
            scored += [(self.policy.score(sit, c), c) for c in la.candidates(kind)]
        scored.sort(key=lambda sc: -sc[0])
        out = [first]
        for sc, c in scored:
            if len(out) >= self.width or sc <= 0:
                break
            if c not in out and la.allows(c):
                out.append(c)
        # Passing is a candidate only when it is the planner's own choice: a rollout to the end
        # of the turn sees an offensive's or a war's cost (BRPs, losses) and not the
        # conquest it begins, so passing "won" in place of the plan's actions (session 11:
        # the Axis planner's western offensive of Winter 1939 and Italy's southern offensive
        # replaced by passing in the first three turns of tr-1939-campaign). The same for
        # any action the planner does not find worth doing (a score of zero or less, like
        # EuroFront's zero chit, which activates nothing and may end the month: session 12,
        # the Axis search placed it in place of the plan's chit and lost seed 80).
        return out

    def choose(self, view: JSON, legal_actions: Sequence[Command]) -> Command:
        macro = self.policy.macro_kinds
        la = legal_actions if isinstance(legal_actions, LegalActions) and \
            (self.budget > 0 or self.stance != "plan") else None
        now = getattr(self.policy, "posture_decides_now", False)
        if la is not None and now and set(la.kinds()) & macro:
            # the posture decides this very decision (3R: the war it puts off): weighed
            # before the planner chooses, which then chooses under it
            self._posture(view, la, None)
        first = super().choose(view, legal_actions)
        every_turn = getattr(self.policy, "posture_every_turn", False)
        if la is not None and not now and (every_turn or (first.kind in macro | {"end_phase"}
                                                          and set(la.kinds()) & macro)):
            self._posture(view, la, first)
        if isinstance(legal_actions, LegalActions) and self.budget > 0:
            buy = self._purchase(view, legal_actions, first)
            if buy is not None:
                return buy
        if not isinstance(legal_actions, LegalActions) or self.budget <= 0 or not self.decide or \
                first.kind not in self.policy.macro_kinds | {"end_phase"} or \
                not (set(legal_actions.kinds()) & self.policy.macro_kinds):
            return first
        cands = self._candidates(view, legal_actions, first)
        if len(cands) < 2:
            return first
        t = time.process_time()
        try:
            chosen: Command = self.search(view, legal_actions.game, cands)
            return chosen
        finally:
            self.search_cpu_s += time.process_time() - t

    def _posture(self, view: JSON, la: LegalActions, first: Command | None) -> None:
        """Once a span (the policy's ``posture_key``: a EuroFront month), at its first macro
        decision, the search weighs the policy's postures (``posture_names``: EuroFront's
        defending side plays its plan - every counter-attack in reach - or one that
        counter-attacks only at odds): the planner's choice now, then a rollout in which the
        seat plays each posture, the standing one (``posture=``; where none is asked, the
        first of the policy's ``prior`` weighed now: 3R's Axis stands on Barbarossa a year
        later and on the last turn's push, session 25) first and as many others
        as ``budget // ROUNDS`` allows (at least one), ``budget // 2`` paired rounds for two
        (budget 4 and up); the standing posture stands unless another beats it
        (:func:`better`), and the bot plays the chosen posture to the span's end. ``first``
        is None where the posture decides this decision (the policy's
        ``posture_decides_now``): its rollouts start before it."""
        pol: Any = self.policy  # a policy with postures (EuroFrontPolicy)
        names_of = getattr(pol, "posture_names", None)
        if names_of is None:
            return
        key = pol.posture_key(view)
        if key == self._postured:
            return
        self._postured = key
        names: list[str] = names_of(view, la.game)
        if not names:
            return
        prior = getattr(pol, "prior", None) if self._prior else None
        preferred = [n for n in (prior(view) if prior is not None else ()) if n in names]
        stance = preferred[0] if preferred else \
            self.stance if self.stance in names else names[0]
        pol.standing = pol.postures[stance]
        names = [stance] + [n for n in names if n != stance]
        if self.budget < 4 or len(names) < 2:
            pol.set_posture(view, stance)
            return
        t = time.process_time()
        try:
            k = self.search(view, la.game, [first] * len(names), postures=names)
        finally:
            self.search_cpu_s += time.process_time() - t
        pol.set_posture(view, names[k])
        self.postures_changed += k != 0

    def _purchase(self, view: JSON, la: LegalActions, first: Command) -> Command | None:
        """Where the planner passes at a purchase decision (the policy's ``pass_kinds``, such
        as EuroFront's production, where the planner buys nothing) and the policy names a
        purchase (``purchase``): once a phase, the search weighs passing against buying -
        the policy's best purchase and the next ones while any is legal - and if buying wins
        it is played at every decision of that phase; None: the planner's choice stands."""
        purchase = getattr(self.policy, "purchase", None)
        if purchase is None or first.kind not in getattr(self.policy, "pass_kinds", ()):
            return None
        key = (view.get("turn"), first.kind)
        if self._bought is not None and self._bought[0] != key:
            self._bought = None
        if self._bought is not None and not self._bought[1]:
            return None  # the search passed this phase
        buy: Command | None = purchase(self.policy.situation(view, la.game), la)
        if buy is None or (self._bought is not None and self._bought[1]):
            return buy
        if self.budget < 4:
            return None
        if self._buys(view):  # the seat's standing purchase: buy, nothing to weigh
            self._bought = (key, True)
            return buy
        t = time.process_time()
        try:
            chosen = self.search(view, la.game, [first, buy], buying=True)
        finally:
            self.search_cpu_s += time.process_time() - t
        self._bought = (key, chosen is buy)
        return buy if chosen is buy else None

    def _buys(self, view: Mapping[str, Any]) -> bool:
        """Whether the policy's standing purchase for this seat is to buy (``buys``: EuroFront's
        defending side) - played at every purchase phase without a search, budget 4 and up."""
        buys = getattr(self.policy, "buys", None)
        return bool(buys(view)) if buys is not None else False

    def search(self, view: JSON, game: Game, cands: Sequence[Command | None],
               buying: bool = False,
               postures: Sequence[str] | None = None) -> Any:
        """Paired rounds over ``cands`` (``budget`` simulations in all): in each round every
        candidate is simulated from the same determinization with the same dice (common
        random numbers), so the candidates are compared on the same luck and a round's
        differences measure the choice, not the dice. A comparison needs :data:`ROUNDS`
        rounds: when the budget cannot give every candidate that many, the planner's first
        choices are kept (``budget // ROUNDS`` of them), and below two candidates' rounds
        nothing is simulated (the
        planner's choice: a search that could not change it would only spend time). The
        planner's own choice (the first candidate) stands unless another beats it, round by
        round on the same luck, by :data:`MARGIN` of the span of the values seen on average
        and by :data:`Z` standard errors of the paired differences (:func:`better`)."""
        if postures is not None:  # the same command under each posture: the index wins
            cands = cands[:max(2, self.budget // ROUNDS)]
            if self.budget < 4:
                return 0
        elif buying:  # passing against buying: two candidates, at least two rounds each
            if self.budget < 4:
                return cands[0]
        else:
            cands = cands[:max(1, self.budget // ROUNDS)]
            if len(cands) < 2:
                return cands[0]
        rounds = self.budget // len(cands)
        if postures is not None:  # a posture held to the game's end gets more (3R: twice)
            rounds *= int(getattr(self.policy, "posture_budget_scale", 1))
        values: list[list[float]] = [[] for _ in cands]
        for _r in range(rounds):
            self._sim_seed += 1
            seed = self._search_dice.die(2**31 - 1) + self._sim_seed
            for k, cmd in enumerate(cands):
                if postures is not None:
                    values[k].append(self.simulate(view, game, cmd, seed, posture=postures[k]))
                else:
                    values[k].append(self.simulate(view, game, cmd, seed, buying=True)
                                     if buying and k > 0 else
                                     self.simulate(view, game, cmd, seed))
        self._start = None
        k = better(values)
        if postures is not None:
            return k
        self.searched += 1
        self.changed += k != 0
        return cands[k]

    def simulate(self, view: JSON, game: Game, cmd: Command | None, seed: int | None = None,
                 buying: bool = False, posture: str | None = None) -> float:
        """One determinized rollout after ``cmd`` (None: from here, the posture deciding this
        decision; from ``seed``: the determinization, the
        dice and the rollout's bots): the policy's evaluation of its end. The determinized
        state is sampled once per seed and copied for each candidate of a round."""
        self.simulations += 1
        if seed is None:
            self._sim_seed += 1
            seed = self._search_dice.die(2**31 - 1) + self._sim_seed
        key = (seed, id(view))  # the same view object and seed: the same sample
        if self._start is None or self._start[0] != key:
            self._start = (key, sampled_state(game, view, seed))
        g = fork(game, self._start[1], seed)
        # a posture that decides this decision itself (3R's date of a war; ``cmd`` None) is
        # played from before it: the seat's planner chooses under the posture
        try:
            if cmd is not None:
                g.apply(cmd)
        except GrognardError:
            return -1e9
        except (KeyError, TypeError, ValueError, IndexError):
            return self.policy.evaluate(view, None)  # the sample cannot play it: no news
        if buying:
            self._buy_on(g)
        side: str | None = self.seat.player if self.cut == "side" else None
        turns, stop, horizon = self.turns, None, self.horizon
        span = getattr(self.policy, "posture_stop", None)
        if posture is not None and span is not None:
            # the policy's own span for a posture (Europa: to the seat's next player turn,
            # or to the game's end in its last turns; 3R: the game's end)
            side, turns, stop = None, 10**6, span(view)
            horizon = int(getattr(self.policy, "posture_horizon", horizon))
        rollout(g, seed, horizon, side, turns,
                posture=(self.seat.player, posture) if posture else None,
                keep=self._keep_posture(),
                buyer=self.seat.player if self._buys(view) else None, stop=stop)
        return self.policy.evaluate(g.view(self.seat.player), g)


    def _keep_posture(self) -> tuple[str, Any, Any, Any] | None:
        """The seat's posture of this span, its standing one and its kept objectives'
        count, for its rollouts (None: the policy has none)."""
        if not hasattr(self.policy, "posture"):
            return None
        return (self.seat.player, getattr(self.policy, "posture", None),
                getattr(self.policy, "standing", None), getattr(self.policy, "hold", None))

    def _buy_on(self, g: Game) -> None:
        """In a simulation: the policy's purchases for the seat while it has any (the rest of
        a phase the search decided to buy in)."""
        me = self.seat.player
        purchase = getattr(self.policy, "purchase", None)
        for _ in range(self.horizon):
            if purchase is None or g.over or me not in g.active():
                return
            la = LegalActions(g, me)
            c = purchase(self.policy.situation(LazyView(g, me), g), la)
            if c is None:
                return
            try:
                g.apply(c)
            except GrognardError:
                return


def standing_buy(policy: Any, g: Game, player: str, actions: LegalActions,
                 cmd: Command) -> Command:
    """The policy's purchase in place of ``cmd`` where ``cmd`` passes at a purchase decision
    (the policy's ``pass_kinds``) and a purchase is legal; else ``cmd``."""
    purchase = getattr(policy, "purchase", None)
    if purchase is None or cmd.kind not in getattr(policy, "pass_kinds", ()):
        return cmd
    buy: Command | None = purchase(policy.situation(LazyView(g, player), g), actions)
    return buy if buy is not None else cmd


def better(values: Sequence[Sequence[float]]) -> int:
    """Which candidate the search plays, from each candidate's values round by round (the
    first candidate is the planner's choice, the default): the best on average, if it beats
    the first by more than :data:`MARGIN` of the span of all the values seen and its paired
    differences from the first (the same determinization and dice in a round) average more
    than :data:`Z` standard errors above zero - a search that cannot tell its candidates
    apart keeps the plan (with two rounds it must at least win both; the search
    gives every candidate :data:`ROUNDS`). Fewer than two rounds: the first."""
    rounds = min((len(v) for v in values), default=0)
    if rounds < 2:
        return 0
    total = [sum(v[:rounds]) for v in values]
    best = max(range(len(values)), key=lambda j: (total[j], -j))
    if best == 0:
        return 0
    seen = [x for v in values for x in v[:rounds]]
    span = max(seen) - min(seen)
    diffs = [values[best][r] - values[0][r] for r in range(rounds)]
    mean = sum(diffs) / rounds
    var = sum((d - mean) ** 2 for d in diffs) / (rounds - 1)
    se = math.sqrt(var / rounds)
    return best if mean > MARGIN * span and mean > Z * se else 0


def _turns_since(start: Any, now: Any) -> int:
    """Game turns from ``start`` to ``now`` (a turn that is not a number: 0 or 1)."""
    if isinstance(start, int) and isinstance(now, int):
        return now - start
    return int(now != start)


def rollout(g: Game, seed: int, horizon: int, side: str | None = None, turns: int = 1,
            posture: tuple[str, str] | None = None, keep: Any = None,
            buyer: str | None = None, stop: Callable[[Game], bool] | None = None) -> int:
    """The planner on every side to the end of the game turn, at most ``horizon`` commands
    (or to the game's end, or until a bot finds nothing or the determinized state cannot go
    on); with ``side``, only to the end of that player's own turn (the first phase of
    another player - ``Game.phase.player`` - after one of its own); ``buyer`` buys where its
    planner passes at a purchase decision (the seat's standing purchase, as it plays);
    ``stop`` ends it where it says (a posture's span); the commands played."""
    bots = {p: PlannerBot(Seat.of(g, p, seed)) for p in g.scenario.sides}
    if keep is not None:  # the seat's posture of this span, its standing one and its kept
        pol: Any = bots[keep[0]].policy  # objectives hold
        pol.posture, pol.standing, pol.hold = keep[1], keep[2], keep[3]
    if posture is not None:  # the seat plays this posture for the rest of the span
        bots[posture[0]].policy.set_posture(g.state, posture[1])  # type: ignore[attr-defined]
    played = 0
    start = g.state.get("turn")
    own = side is not None and g.phase.player == side
    while played < horizon and not g.over and _turns_since(start, g.state.get("turn")) < turns:
        if stop is not None and stop(g):
            break
        if side is not None:
            if g.phase.player == side:
                own = True
            elif own:
                break
        moved = False
        for player in g.active():
            try:
                actions = LegalActions(g, player)
                if not actions.kinds():
                    continue
                cmd = bots[player].choose(LazyView(g, player), actions)
                if player == buyer:
                    cmd = standing_buy(bots[player].policy, g, player, actions, cmd)
                g.apply(cmd)
            except NoLegalAction:
                continue
            except (GrognardError, KeyError, TypeError, ValueError, IndexError):
                return played  # judged where it stopped
            moved = True
            played += 1
            break
        if not moved:
            break
    return played
