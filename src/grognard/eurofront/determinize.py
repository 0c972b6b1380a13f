"""EuroFront's ``determinize`` hook: one complete legal state consistent with a seat's view.

A search bot simulates from a game made from its own seat's view (issue 25 item 2). The view
(:func:`grognard.eurofront.system.view`) hides the enemy's face-down blocks (only "a block of
side X in hex H", keyed ``hidden-N``), the enemy's destroyed blocks (only their count), the
enemy's HQ uses and rail moves of the month, which enemy HQ made each activation (named "an
HQ of X") and the enemy's secret chit. :func:`determinize` fills each unknown from the view and
the scenario alone - never the real state:

* the enemy's blocks are the scenario's blocks of that side (no block enters play later:
  ``build`` adds steps, ``rebuild`` brings a destroyed block back); those the view shows face
  up are known, and the rest - a random permutation drawn with ``rng`` - are dealt to the
  face-down blocks on the map (each at the hex the view shows, with its scenario steps: a
  step lost in a battle is not remembered once the block stands up again) and to the
  destroyed pool (as many as the count seen, EF-02 face down if the block's type is delayed
  and the month is the scenario's first - no production phase has turned it up yet - else
  face down with even chance);
* the enemy's activations of this month ("an HQ of X" in the activation order) are given to
  enemy HQs of the sample, distinct within an Activation Phase and at most
  ``efg_hq_activations`` times a month, and the HQ uses and this phase's activated HQs
  follow from them; an anonymous disrupted HQ is a random enemy HQ of the sample;
* the enemy's secret chit is not placed (nothing committed: it chooses again in the
  simulation); its rail moves of the month are none.

The seat's own information (its blocks, destroyed pool, chit) is the view's, and the view's
extra fields of a face-up block (``attack``, ``defense``, ``movement``, ``type``) are dropped
again. So the sample's distribution depends on the view and ``rng`` only
(tests/bots/test_mcts_s13.py), and the sampled state plays on through the production phase
(``rebuild`` lists the sampled destroyed blocks).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from grognard.engine.context import Context
from grognard.engine.state import JSON, copy_state
from grognard.eurofront.blocks import block_from_unit, is_block
from grognard.eurofront.game_state import game_readings, other
from grognard.eurofront.operations import goes_face_down
from grognard.eurofront.state_types import EFState

#: the fields :func:`grognard.eurofront.system.face_up` adds to a block in a view
FACE_UP_FIELDS = ("attack", "defense", "movement", "type")


def _blocks(ctx: Context, side: str) -> dict[str, JSON]:
    """The scenario's blocks of ``side`` as start-state records (cached per scenario)."""
    def make() -> dict[str, dict[str, JSON]]:
        out: dict[str, dict[str, JSON]] = {}
        sc = ctx.scenario
        for i, p in enumerate(sc.placements):
            if is_block(sc, p.unit.id):
                u = block_from_unit(sc, p.unit.id, f"units[{i}]")
                out.setdefault(str(u["side"]), {})[p.unit.id] = u
        return out
    mix: dict[str, dict[str, JSON]] = ctx.cached("ef.determinize.blocks", make)
    return mix.get(side, {})


def _state_record(u: Mapping[str, Any]) -> JSON:
    return {k: copy_state(v) for k, v in u.items() if k not in FACE_UP_FIELDS}


def determinize(ctx: Context, view: Mapping[str, Any], rng: random.Random) -> JSON:
    """One state of ``view``'s information set (module docstring), sampled with ``rng``."""
    state: JSON = copy_state(dict(view))
    viewer = str(state.pop("viewer", ""))
    if viewer not in ("axis", "allies"):
        return state  # a spectator's view hides nothing of either side's blocks to sample
    enemy = other(viewer)
    units: dict[str, JSON] = {}
    hidden: list[JSON] = []
    for uid, u in sorted(state["units"].items()):
        if u.get("side") == enemy and u.get("hidden") and "fp" not in u:
            hidden.append(u)
        else:
            units[uid] = _state_record(u)
    pool = _blocks(ctx, enemy)
    unknown = sorted(uid for uid in pool if uid not in units)
    rng.shuffle(unknown)
    for u, uid in zip(hidden, unknown, strict=False):
        units[uid] = {**copy_state(pool[uid]), "hex": u.get("hex"), "hidden": True}
    dead_count = view["destroyed"].get(enemy, {}).get("count", 0)
    first_month = str(state["activation"].get("month")) == \
        str(ctx.scenario.calendar.get("month", state["activation"].get("month")))
    dead: dict[str, JSON] = {}
    for uid in unknown[len(hidden):len(hidden) + int(dead_count)]:
        rec = copy_state(pool[uid])
        down = goes_face_down(ctx, rec) and (first_month or rng.random() < 0.5)
        rec.update({"hex": None, "steps": 0, "hidden": True, "face_down": down})
        dead[uid] = rec
    state["units"] = units
    state["destroyed"][enemy] = dead
    state["secrets"] = {viewer: state["secrets"].get(viewer, {}), enemy: {}}
    _name_enemy_hqs(ctx, cast(EFState, state), enemy, rng)  # the sample is a whole state
    return state


def _name_enemy_hqs(ctx: Context, state: EFState, enemy: str, rng: random.Random) -> None:
    """Give the enemy's anonymous activations of the month to HQs of the sample (module
    docstring); its HQ uses and this phase's activated HQs follow from the order."""
    anon = f"an HQ of {enemy}"
    act = state["activation"]
    hqs = sorted(uid for uid, u in state["units"].items()
                 if u["side"] == enemy and u["kind"] == "hq")
    limit = int(game_readings(ctx).efg_hq_activations)
    uses: dict[str, int] = {}
    for _p, s, h in act.get("order", []):
        if s == enemy and h != anon:
            uses[h] = uses.get(h, 0) + 1
    per_phase: dict[int, set[str]] = {}
    order = []
    for p, s, h in act.get("order", []):
        if s == enemy and h == anon:
            free = [x for x in hqs if uses.get(x, 0) < limit and x not in per_phase.get(p, ())]
            if free:
                h = rng.choice(free)
                uses[h] = uses.get(h, 0) + 1
        if s == enemy:
            per_phase.setdefault(int(p), set()).add(h)
        order.append([p, s, h])
    act["order"] = order
    phase = int(act.get("phase", 0) or 0)
    act["activated_this_phase"] = sorted(
        {h for p, _s, h in order if int(p) == phase} |
        {h for h in act.get("activated_this_phase", []) if h != anon})
    state["hq_uses"] = {**{h: n for h, n in state["hq_uses"].items()}, **uses}
    disrupted = state["apd"]["hq_disrupted"]
    if anon in disrupted:
        rest = [h for h in hqs if h not in disrupted]
        rng.shuffle(rest)
        named = iter(rest)
        state["apd"]["hq_disrupted"] = [next(named, h) if h == anon else h for h in disrupted]
    op = state.get("operation")
    if isinstance(op, dict) and op.get("hq") == anon:
        mine = [h for p, s, h in order if s == enemy and int(p) == phase and h != anon]
        op["hq"] = mine[-1] if mine else (hqs[0] if hqs else anon)


__all__ = ["FACE_UP_FIELDS", "determinize"]
