"""The ``planner`` bot: a campaign plan (data) over the heuristic's operational play.

Its plan is the scenario's shipped plan (:data:`grognard.bots.planner_plans.PLANS`) with the
parameters a study gives in the bot's name: ``planner@barbarossa_year=1942`` (parameters
``KEY=VALUE`` joined by ``@``; ``plan=FILE.toml`` reads a whole plan from a TOML file). It sees
only its seat's view and the rule-system hooks (objectives, places, odds, turn labels).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from grognard.bots.base import Seat
from grognard.bots.heuristic import HeuristicBot, Policy
from grognard.bots.planner_plans import PLANS, plan_for, planner_policy
from grognard.core.errors import InputError

PARAMS = ("barbarossa_year", "barbarossa_season", "soviet_war_year", "berlin_year",
          "second_front_year", "malta_year", "italy_war_year", "italy_malta", "iberia_year",
          "weseruebung", "denmark_first", "plan", "budget", "horizon", "cut", "turns", "width",
          # session 15: the 3R desert war (a year; 0: off), airdrops and Egypt's garrisons
          # (1: on); the search's standing posture of the defending side (mcts@posture=NAME)
          "desert_year", "airdrop", "egypt", "posture",
          # session 14: the Europa Soviets' last-turn rings (1: on); session 16: their rings
          # by fortress and fill by worth (0: off)
          "late_rings", "rings", "by_worth", "last_ring",
          "worth_pull",
          # session 17: the Soviets' arrivals fill the own force of each fortress worth
          # ``stand`` points or more (0: off), the most valuable first (``stand_first``)
          "stand", "stand_first",
          # session 18: a fortress's ring wanted from farther off (reach=Leningrad:20)
          "reach",
          # session 19: a ring the reach alone wants draws only its own front's units (1: on)
          "own_front",
          # session 20: the non-fortress objectives given up from this game turn (0: never)
          "yield_west",
          # session 21: raids on the empty objectives the enemy holds from this game turn (0: off)
          "raid",
          # session 20: outflanked units fall back (N: that many enemy armour behind; 0: off)
          "fall_back",
          # session 21: the summer's line this many hexes off the enemy (0: off)
          "reach_line",
          # session 21: no lone unit on the summer's line where its fortress is N+ hexes
          # from the enemy (1: every front; 0: off)
          "line_stacks",
          # session 17: the search's defending side keeps this many objectives (0: none)
          "hold",
          # session 23: the Europa postures the search weighs (bold, fall_back, storm joined by +);
          # session 24: 3R's (later: Barbarossa's date; none: no posture weighed); whether the
          # macro decisions themselves are searched (1, 0: only the postures)
          "weigh", "decide",
          # session 25: the 3R last turns' push (the last N game turns; 0: off)
          "push_turns",
          # session 26: the Europa attacker's sieges at once; whether the search's last
          # assault (the defender's; session 27: the attacker's last movement phase too)
          # weighs the verdict (1) or the points (0)
          "sieges", "verdict",
          # session 28: whether the Europa air units follow the front (1, the default; 0: off)
          "air_forward",
          # session 29: how many times more of the front a new airbase must reach (0: only
          # the air units that reach none of it move, session 28's rule)
          "air_better",
          # session 29: the game turns before the last in which the search's air moves on
          # the objectives of its last assaults (0: never)
          "air_turns",
          # session 30: whether the search's last assaults weigh the rules' exact chance that
          # each attack empties its target (1; 2: every attack too) or the CRT's DR and D2
          # alone (0); a second odds the attacker's last assault gathers units to (0: none,
          # the plan's 5 alone)
          "exact", "spread",
          # session 31: the enemy player turns left from which the search's defender makes a
          # last stand (1: before the enemy's last only; 0: never)
          "last_stand",
          # session 33: the attacker's last game turns in which every objective in reach is
          # besieged at once (0: never; the plan's ``sieges`` before them)
          "last_sieges",
          # session 34: the search's attacker's last game turns whose exploitation phases
          # (and the last's movement phase) hold its objectives against the enemy's next
          # player turn (2 by default; 0: never)
          "last_hold",
          # session 35: the game turns before the last in which the search's defender's air
          # moves on the objectives its last assault may retake (0: never)
          "retake_air")


#: the parameters read as whole numbers (the search's; the Soviet studies' own_front, 0 or 1,
#: yield_west, a game turn, and fall_back, a count) and as numbers (the Soviet studies')
WHOLE_PARAMS = ("budget", "horizon", "turns", "width", "hold", "decide", "own_front",
                "yield_west",
                "fall_back",
                "raid", "reach_line", "line_stacks", "push_turns", "sieges",
                "verdict", "air_forward", "air_turns", "exact", "last_stand", "last_sieges",
                "last_hold", "retake_air")
NUMBER_PARAMS = ("worth_pull", "stand", "air_better", "spread")
#: the parameters read as NAME:N pairs joined by "+" (the Soviet studies' rings=Moscow:3+Leningrad:2)
NAMED_PARAMS = ("rings", "reach")
#: the fortresses any shipped plan's defender names (what ``rings`` and ``reach`` may name)
FORTRESSES = tuple(dict.fromkeys(f for plan in PLANS.values()
                                 for side in plan.values() if isinstance(side, dict)
                                 for f in side.get("fortresses", ())))


def parse_params(text: str) -> dict[str, str]:
    """``"barbarossa_year=1942@plan=x.toml"`` -> {key: value} (unknown keys refused, and a
    value that is not the number its key reads)."""
    out: dict[str, str] = {}
    for part in filter(None, text.split("@")):
        key, sep, value = part.partition("=")
        if not sep or key not in PARAMS:
            raise InputError("--bots", f"planner parameter {part!r}: KEY=VALUE with KEY one "
                             f"of {', '.join(PARAMS)}")
        if (key in WHOLE_PARAMS and not _is_number(value, int)) or \
                (key in NUMBER_PARAMS and value and not _is_number(value, float)):
            raise InputError("--bots", f"bot parameter {part!r}: {key} takes a number")
        if key in NAMED_PARAMS:
            named = [p.partition(":") for p in value.split("+") if p]
            if not all(name and sep2 and n.isdigit() for name, sep2, n in named):
                raise InputError("--bots", f"bot parameter {part!r}: {key} takes NAME:N pairs "
                                 "joined by + (N a whole number)")
            # a misspelt fortress would change nothing in silence
            unknown = sorted({name for name, _s, _n in named} - set(FORTRESSES))
            if unknown:
                raise InputError("--bots", f"bot parameter {part!r}: {', '.join(unknown)} is "
                                 f"not a fortress of a plan ({', '.join(FORTRESSES)})")
        out[key] = value
    return out


def _is_number(value: str, kind: type[int] | type[float]) -> bool:
    try:
        kind(value)
    except ValueError:
        return False
    return True


class PlannerBot(HeuristicBot):
    name = "planner"
    params: Mapping[str, str] = {}

    def __init__(self, seat: Seat, params: Mapping[str, str] | None = None) -> None:
        self.params = dict(params or {})
        super().__init__(seat)
        if "verdict" in self.params and hasattr(self.policy, "verdict_assault"):
            # a study's setting (sessions 26-27): the last assaults weigh the verdict
            self.policy.verdict_assault = bool(int(self.params["verdict"]))
        if "air_forward" in self.params and hasattr(self.policy, "air_forward"):
            # a study's setting (session 28): the air units transfer toward the front
            self.policy.air_forward = bool(int(self.params["air_forward"]))
        if "air_better" in self.params and hasattr(self.policy, "air_better"):
            # a study's setting (session 29): how much more of the front a new base reaches
            self.policy.air_better = float(self.params["air_better"])
        if "air_turns" in self.params and hasattr(self.policy, "air_turns"):
            # a study's setting (session 29): the search's last turns of air on the objectives
            self.policy.air_turns = int(self.params["air_turns"])
        if "exact" in self.params and hasattr(self.policy, "exact_clear"):
            # a study's setting (session 30): the last assaults' exact chances
            self.policy.exact_clear = int(self.params["exact"])
        if "last_stand" in self.params and hasattr(self.policy, "last_stand"):
            # a study's setting (session 31): the defender's last stand
            self.policy.last_stand = int(self.params["last_stand"])
        if "last_hold" in self.params and hasattr(self.policy, "last_hold"):
            # a study's setting (session 34): the attacker's last turn holds what it holds
            self.policy.last_hold = int(self.params["last_hold"])
        if "retake_air" in self.params and hasattr(self.policy, "retake_air"):
            # a study's setting (session 35): the defender's air on what it may retake
            self.policy.retake_air = int(self.params["retake_air"])
        if "spread" in self.params and hasattr(self.policy, "spread_aim"):
            # a study's setting (session 30): the attacker's last assault spread thinner
            self.policy.spread_aim = float(self.params["spread"] or 0)

    def make_policy(self, seat: Seat) -> Policy:
        plan: Any
        if "plan" in self.params:
            try:
                plan = tomllib.loads(Path(self.params["plan"]).read_text(encoding="utf-8"))
            except (OSError, tomllib.TOMLDecodeError) as exc:
                raise InputError("--bots", f"planner plan {self.params['plan']}: {exc}") \
                    from exc
        else:
            plan = plan_for(seat.context.scenario.id, self.params)
        return planner_policy(seat, plan)
