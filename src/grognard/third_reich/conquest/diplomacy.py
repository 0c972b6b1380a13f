"""TR-22..TR-26, TR-86 (Conquests, minor allies; Declarations of war; Vichy France; Post
playtest refinements): war and peace between every pair of countries, as data and pure rules.

The text's rules this module answers:

* TR-25: "Declarations of war against minor powers cost 5 BRPs, but any number of minor powers
  can be attacked (and DoWed) for the same 5 BRP cost in the same season. Declarations of war
  against major powers cost 15 BRPs, and declaring against a single major power creates a
  state of war against all countries allied with that power." A country may be attacked or
  entered only once at war with it: neutral territory is closed (TR-25; ZOCs: TR-27 "ZOCs do
  not extend across political boundaries before declaration of war"; SR: TR-68 "never crossing
  neutral countries").
* TR-24: "Minor powers join patrons when an enemy nation attacks them"; "all the Axis Minor
  Powers - Hungary, Romania, Bulgaria and Finland - join German in the Summer I turn of 1941".
* TR-22: a minor at war "activate[s] at the same time as their controlling nation": a minor
  ally is at war with its patron's enemies (and enters each new war of its patron).
* TR-86: "USA enters in 1942" (Spring 1942, turn 13, the scenario's ``us_entry_turn``).
* TR-26: "If Paris is controlled by the Axis at the end of any game turn, France makes peace
  with Germany forming Vichy France"; the colonies roll Vichy or Free French (UK).
* TR-87/TR-11: the Ribbentrop-Molotov annexations are no war: the USSR takes its share.
* TR-15..TR-18 and the Russian winter (TR-84): what a war makes possible (lend lease, the first
  winter turn after Germany and the USSR are at war).

A :class:`Diplomacy` is one frozen value (msgspec Struct, JSON round trip with
:func:`to_json` / :func:`from_json`); every change is a pure function returning the new value
and a record (the event an Order logs) carrying every fact. Readings where the text is silent
(documented in docs/FEATURES.md, "War and peace"):

* a declaration puts the declarer (and its minor allies) at war with the target and the
  target's allies; the declarer's major partners are not dragged in (Italy enters by its own
  declaration);
* a neutral minor attacked joins its scenario patron (``[third_reich.wars] patrons``), else the
  first major of the other side, in movement order, at war with the attacker; an Axis minor
  attacked by the Allies joins Germany;
* the Russian winter falls on the first Winter turn at or after the turn Germany and the USSR
  went to war (a war begun in a Winter turn makes that Winter the first), the reading of
  combat/hex_defense.russian_winter_applies;
* the US enters at war with Germany and every country allied with it.
"""

# How the Orders call it (issue 23 items 1-2; the play layer is not wired yet):
#
# * state: ``state["diplomacy"] = to_json(from_scenario(scenario, power_sides))`` at the start;
#   every fold reads it with ``from_json`` and writes it back with ``to_json``.
# * declare_war: verify ``can_declare(d, power, targets)`` (+ the BRPs of
#   ``declaration_cost``); execute ``declare(d, power, targets, turn)`` and log
#   ``record_json(rec)``; the fold re-runs ``declare`` (pure) and passes
#   ``rec.consequences`` to the economy (``economy.declare_war`` for ``belligerent`` and
#   ``at_war_with_germany``) and ``rec.joined`` to the minor activation.
# * end_phase opening a game turn: ``enter_by_date(d, turn)`` (Axis minors, US entry) in place
#   of the turn checks of system_campaign._new_turn; Vichy: ``make_peace(d, "france", turn,
#   Cause.VICHY, colonies)``; a minor conquered: ``make_peace(d, minor, turn,
#   Cause.CONQUEST)``; Ribbentrop-Molotov: ``annex(d, "ussr", rm_minors, turn)``.
# * move, retreat, advance (MOVE), attack, attrition, air support, bombardment (ATTACK), ZOC
#   (ZOC), SR (SR), air staging/basing/missions and airdrops (AIR), naval missions, transport
#   and invasion (NAVAL), city bombing (STRATEGIC): ``first_refusal(d, map, power, hexes,
#   action, controller)`` or ``may_enter_hex`` in verify (raise ``r.raise_()``) and as a
#   filter in legal.
# * lend_lease / murmansk_ship / open_iran_route: ``lend_lease_open(d, sender, receiver)``.
# * the Russian winter (russian_winter.russian_winter_in): ``russian_winter_turn(d) == turn``.

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

import msgspec

from grognard.core.errors import IllegalOrder, InputError, member
from grognard.core.inputs import typed
from grognard.core.memo import IdentityMemo
from grognard.third_reich.scenario_schema import (
    DEFAULT_AXIS_MINORS,
    DEFAULT_US_ENTRY_TURN,
    CampaignSection,
    WarsSection,
    third_reich_rules,
)
from grognard.third_reich.state_types import DiplomacyJSON
from grognard.third_reich.turn.calendar import Season, date_of
from grognard.third_reich.turn.options import dow_cost
from grognard.third_reich.turn.powers import MAJORS, Action

AXIS_MINORS_TURN = 9  # TR-24: Summer I 1941
US_ENTRY_TURN = DEFAULT_US_ENTRY_TURN    # TR-86: Spring 1942


class Cause(StrEnum):
    """Why two countries are at war (or stopped being)."""

    SCENARIO = "scenario"          # at war when the scenario starts ([third_reich.wars])
    DECLARATION = "declaration"    # TR-25: the declarer's own declaration
    ALLIANCE = "alliance"          # TR-25/TR-22: war with a country allied with the target
    MINOR_JOINS = "minor_joins"    # TR-24: a minor attacked joins its patron's wars
    AXIS_MINORS = "axis_minors"    # TR-24: the Axis minors join Germany in Summer I 1941
    US_ENTRY = "us_entry"          # TR-86: the US enters in 1942
    VICHY = "vichy"                # TR-26: France makes peace
    CONQUEST = "conquest"          # TR-22: a conquered minor is out of the war


CAUSE_RULE = {Cause.SCENARIO: "TR-25", Cause.DECLARATION: "TR-25", Cause.ALLIANCE: "TR-25",
              Cause.MINOR_JOINS: "TR-24", Cause.AXIS_MINORS: "TR-24", Cause.US_ENTRY: "TR-86",
              Cause.VICHY: "TR-26", Cause.CONQUEST: "TR-22"}


ACTION_RULE = {Action.ZOC: "TR-27", Action.SR: "TR-68", Action.SUPPLY: "TR-72"}  # else TR-25


class War(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A state of war between two belligerents (``a`` < ``b``), since a turn, and why."""

    a: str
    b: str
    since: int
    cause: Cause
    by: str = ""     # the declarer (declarations), the patron (alliances)
    rule: str = "TR-25"


class Peace(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A war that ended (``until`` the turn it ended) and why."""

    war: War
    until: int
    cause: Cause


class Refusal(msgspec.Struct, frozen=True):
    rule: str
    reason: str

    def raise_(self) -> None:
        raise IllegalOrder(self.rule, self.reason)


class Diplomacy(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Who is at war with whom. Countries are the map's country names; each belongs to a
    belligerent (a major power or a minor: ``territory``, colonies to their mother country)."""

    sides: dict[str, str]                      # major -> its side (the scenario's)
    territory: dict[str, str]                  # country -> belligerent owning it
    minors: tuple[str, ...]                    # the minor countries (belligerents)
    patrons: dict[str, str] = {}               # minor -> major it joins when attacked
    aligned: dict[str, str] = {}               # minor -> the major it fights beside
    wars: tuple[War, ...] = ()
    ended: tuple[Peace, ...] = ()
    out: tuple[str, ...] = ()                  # conquered minors, France after Vichy
    annexed: dict[str, str] = {}               # minor -> annexing major (R-M, no war)
    minor_dow_paid: dict[str, int] = {}        # power -> turn it paid a minor DoW (TR-25)
    axis_minors: tuple[str, ...] = DEFAULT_AXIS_MINORS
    axis_minors_turn: int = AXIS_MINORS_TURN
    us_entry_turn: int = US_ENTRY_TURN


# --- records (the events an Order logs) -----------------------------------------------------


class Consequences(msgspec.Struct, frozen=True):
    """What a change of war makes possible, for the economy and the turn (C-SIDES, C-ECON)."""

    belligerent: tuple[str, ...] = ()          # majors newly at war with anyone
    at_war_with_germany: tuple[str, ...] = ()  # majors newly at war with Germany
    lend_lease: tuple[str, ...] = ()           # TR-15..TR-18 routes newly open
    russian_winter_turn: int | None = None     # TR-84: set when Germany-USSR war begins
    us_entered: bool = False                   # TR-86


class WarDeclared(msgspec.Struct, frozen=True):
    """TR-25: ``power`` declares war on ``targets`` in ``turn`` at ``cost`` BRPs."""

    power: str
    targets: tuple[str, ...]
    turn: int
    cost: int
    new_wars: tuple[War, ...]
    joined: dict[str, str]            # minor -> major it joined (TR-24)
    consequences: Consequences
    rule: str = "TR-25"


class WarsBegun(msgspec.Struct, frozen=True):
    """An automatic entry by date (TR-24 Axis minors, TR-86 US)."""

    cause: Cause
    turn: int
    new_wars: tuple[War, ...]
    joined: dict[str, str]
    consequences: Consequences
    rule: str


class PeaceMade(msgspec.Struct, frozen=True):
    """TR-26 (Vichy) or TR-22 (a minor conquered): wars ended."""

    belligerent: str
    turn: int
    ended: tuple[War, ...]
    cause: Cause
    colonies: dict[str, str] = {}     # TR-26: colony -> "vichy" or "free_french"
    rule: str = "TR-26"


class Annexed(msgspec.Struct, frozen=True):
    """TR-87/TR-11: the Ribbentrop-Molotov annexations (no war)."""

    power: str
    minors: tuple[str, ...]
    turn: int
    rule: str = "TR-87"


# --- reading the state ---------------------------------------------------------------------


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def belligerent_of(d: Diplomacy, country: str) -> str:
    """The belligerent a country belongs to (a colony's mother country, an annexed minor's
    annexer); a major or minor name stands for itself."""
    owner = d.territory.get(country, country)
    return d.annexed.get(owner, owner)


def is_major(name: str) -> bool:
    return name in MAJORS


def war_between(d: Diplomacy, a: str, b: str) -> War | None:
    """The war between the countries ``a`` and ``b`` (by their belligerents), or None."""
    return _wars_by_pair(d).get(_pair(belligerent_of(d, a), belligerent_of(d, b)))


def _wars_by_pair(d: Diplomacy) -> dict[tuple[str, str], War]:
    """Each pair of belligerents at war -> the first of ``d.wars`` between them, kept per
    diplomacy value (the at-war checks are asked tens of thousands of times a game)."""
    memo = _memo(d)
    got: dict[tuple[str, str], War] | None = memo.get("wars_by_pair")
    if got is None:
        got = {}
        for w in d.wars:
            got.setdefault((w.a, w.b), w)
        memo["wars_by_pair"] = got
    return got


def at_war(d: Diplomacy, a: str, b: str) -> bool:
    """TR-25: whether ``a`` and ``b`` (countries, colonies or belligerents) are at war.

    >>> d = Diplomacy(sides={"germany": "axis", "uk": "allies"}, territory={"egypt": "uk"},
    ...               minors=(), wars=(War("germany", "uk", 1, Cause.SCENARIO),))
    >>> at_war(d, "germany", "egypt"), at_war(d, "uk", "uk")
    (True, False)
    """
    return war_between(d, a, b) is not None


def enemies(d: Diplomacy, x: str) -> frozenset[str]:
    """Every belligerent at war with ``x``."""
    b = belligerent_of(d, x)
    return frozenset(w.b if w.a == b else w.a for w in d.wars if b in (w.a, w.b))


def is_belligerent(d: Diplomacy, x: str) -> bool:
    return bool(enemies(d, x))


def side_of(d: Diplomacy, x: str) -> str | None:
    """A major's side; a minor's is its patron's once it has joined; None for a neutral."""
    b = belligerent_of(d, x)
    if b in d.sides:
        return d.sides[b]
    patron = d.aligned.get(b)
    return d.sides.get(patron) if patron else None


_MEMO: IdentityMemo[Diplomacy, dict[Any, Any]] = IdentityMemo()


def _memo(d: Diplomacy) -> dict[Any, Any]:
    """Answers already computed for the diplomacy value ``d`` (a frozen value: folds write a
    new one), by identity; the last few values are kept (the at-war checks are asked tens of
    thousands of times a game with the same arguments)."""
    return _MEMO.get(d, lambda _d: {})


def allies_of(d: Diplomacy, x: str) -> frozenset[str]:
    """TR-25 "countries allied with that power" (see :func:`_allies_of`), kept per diplomacy
    value."""
    memo = _memo(d)
    key = ("allies", x)
    got = memo.get(key)
    if got is None:
        got = memo[key] = _allies_of(d, x)
    return got


def _allies_of(d: Diplomacy, x: str) -> frozenset[str]:
    """TR-25 "countries allied with that power": the belligerents fighting on ``x``'s side
    (majors of its side at war, minors aligned with them), not ``x`` itself."""
    b = belligerent_of(d, x)
    side = side_of(d, b)
    if side is None or b in d.out:
        return frozenset()
    out = set()
    for m, s in d.sides.items():
        if s == side and m != b and m not in d.out and is_belligerent(d, m):
            out.add(m)
    for minor, patron in d.aligned.items():
        if minor != b and minor not in d.out and d.sides.get(patron) == side:
            out.add(minor)
    return frozenset(out)


def friendly(d: Diplomacy, power: str, country: str) -> bool:
    """The country is the actor's own or an ally's (the actor may use it without a war)."""
    a, c = belligerent_of(d, power), belligerent_of(d, country)
    if a == c:
        return True
    return c in allies_of(d, a) and a in allies_of(d, c)


def may_enter(d: Diplomacy, power: str, country: str, action: Action | str = Action.MOVE,
              controller_side: str | None = None) -> Refusal | None:
    """TR-25 (see :func:`_may_enter`), kept per diplomacy value."""
    memo = _memo(d)
    key = (power, country, action, controller_side)
    try:
        return memo[key]  # type: ignore[no-any-return]
    except KeyError:
        got = memo[key] = _may_enter(d, power, country, action, controller_side)
        return got


def _may_enter(d: Diplomacy, power: str, country: str, action: Action | str = Action.MOVE,
               controller_side: str | None = None) -> Refusal | None:
    """TR-25 (TR-27 for a ZOC, TR-68 for an SR): None when ``power``'s order may enter, attack
    or cross ``country``; else the :class:`Refusal` naming the rule.

    Open: sea and off-map hexes (``country`` ""), the actor's own and its allies' territory,
    and countries it is at war with. Territory of a country out of the war (conquered,
    annexed, Vichy's occupied zone) follows ``controller_side``, the side that controls the
    hex (a fact of the state the Order looks up): open to that side and to its enemies.
    Everything else is neutral and closed. An SR (TR-68 "never crossing neutral countries or
    uncontrolled enemy home territory") enters enemy territory only where its side controls
    the hex.
    """
    act = member(Action, action)
    if not country:
        return None
    rule = ACTION_RULE.get(act, "TR-25")
    a, c = belligerent_of(d, power), belligerent_of(d, country)
    if act is Action.LEND_LEASE:
        return None if friendly(d, a, c) else Refusal(
            "TR-19", f"{a} may not send lend lease to {c}")
    if a == c or friendly(d, a, c):
        return None
    if c in d.out:
        # open to the controlling side and to a power at war with a major of that side (a
        # war with a minor aligned with that side does not open the majors' conquests)
        mine = side_of(d, a)
        if controller_side is not None and (controller_side == mine or any(
                d.sides.get(e) == controller_side for e in enemies(d, a))):
            return None
        return Refusal(rule, f"{country} is out of the war and its territory neutral to {a}")
    if at_war(d, a, c):
        if act is Action.SR and controller_side != side_of(d, a):
            return Refusal(rule, f"{a} may not SR through {country}: uncontrolled enemy "
                                 "territory")
        return None
    what = {Action.ZOC: "projects no ZOC into", Action.SR: "may not SR through",
            Action.SUPPLY: "traces no supply through"}.get(
        act, "may not enter or attack")
    return Refusal(rule, f"{a} {what} {country}: {c} is not at war with {a} "
                         "(a declaration of war comes first)")


def verify_may_enter(d: Diplomacy, power: str, country: str,
                     action: Action | str = Action.MOVE, controller_side: str | None = None
                     ) -> None:
    r = may_enter(d, power, country, action, controller_side)
    if r is not None:
        r.raise_()


def may_enter_hex(d: Diplomacy, m: Any, power: str, label: str,
                  action: Action | str = Action.MOVE, controller_side: str | None = None
                  ) -> Refusal | None:
    """:func:`may_enter` for a map hex (its label): the hex's country from the map (sea and
    off-map hexes have none and are open)."""
    try:
        country = m.country_of(m.hex(m.index_of_label(label)))
    except (KeyError, IndexError, ValueError):
        raise InputError("hex", f"no hex {label!r} on the map") from None
    return may_enter(d, power, country, action, controller_side)


def first_refusal(d: Diplomacy, m: Any, power: str, labels: Iterable[str],
                  action: Action | str = Action.MOVE,
                  controller: Mapping[str, str | None] | None = None) -> Refusal | None:
    """The first hex of a path (a move, an SR, a retreat) the actor may not enter, as a
    refusal naming the rule and the hex; ``controller`` gives a hex's controlling side."""
    for lab in labels:
        r = may_enter_hex(d, m, power, lab, action, (controller or {}).get(lab))
        if r is not None:
            return Refusal(r.rule, f"{lab}: {r.reason}")
    return None


def record_json(record: Any) -> dict[str, Any]:
    """A record (WarDeclared, WarsBegun, PeaceMade, Annexed) as the data of its event."""
    out: dict[str, Any] = msgspec.to_builtins(record)
    return out


def russian_winter_turn(d: Diplomacy) -> int | None:
    """TR-84 "The first winter turn after Germany and the USSR are at war": the first Winter
    turn at or after the turn the war began (as combat/hex_defense.russian_winter_applies
    reads it: a war begun in a Winter turn makes that Winter the first).

    >>> d = Diplomacy(sides={}, territory={}, minors=(),
    ...               wars=(War("germany", "ussr", 9, Cause.DECLARATION),))
    >>> russian_winter_turn(d)  # war in Summer I 1941 -> Winter 1941 (turn 12)
    12
    """
    w = war_between(d, "germany", "ussr")
    if w is None:
        return None
    return _first_winter_from(w.since)


def _first_winter_from(turn: int) -> int:
    t = turn
    while date_of(t).season is not Season.WINTER:
        t += 1
    return t


def lend_lease_open(d: Diplomacy, sender: str, receiver: str) -> Refusal | None:
    """TR-15..TR-18: UK -> USSR once the USSR is at war with Germany; US -> UK once the US is;
    US -> USSR (north or Iran) once both are."""
    s, r = sender, receiver
    need = {("uk", "ussr"): ("ussr",), ("us", "uk"): ("us",), ("us", "ussr"): ("us", "ussr")}
    rules = {("uk", "ussr"): "TR-15", ("us", "uk"): "TR-16", ("us", "ussr"): "TR-17"}
    if (s, r) not in need:
        return Refusal("TR-19", f"no lend lease from {s} to {r}")
    missing = [p for p in need[(s, r)] if not at_war(d, p, "germany")]
    if missing:
        return Refusal(rules[(s, r)], f"{' and '.join(missing)} not at war with germany")
    return None


def _open_routes(d: Diplomacy) -> set[str]:
    return {f"{s}->{r}" for s, r in (("uk", "ussr"), ("us", "uk"), ("us", "ussr"))
            if lend_lease_open(d, s, r) is None}


# --- changing the state ---------------------------------------------------------------------


def _with_wars(d: Diplomacy, new: list[War], aligned: Mapping[str, str]) -> Diplomacy:
    return msgspec.structs.replace(d, wars=tuple(sorted((*d.wars, *new),
                                                        key=lambda w: (w.since, w.a, w.b))),
                                   aligned=dict(sorted(aligned.items())))


def _spread(d: Diplomacy, turn: int, new: list[War]) -> list[War]:
    """TR-22: minors aligned with a major enter each war of that major (cause alliance)."""
    have = {(w.a, w.b) for w in d.wars} | {(w.a, w.b) for w in new}
    out = list(new)
    changed = True
    while changed:
        changed = False
        for w in list(out):
            for major, enemy in ((w.a, w.b), (w.b, w.a)):
                for minor, patron in d.aligned.items():
                    if patron != major or minor in d.out or minor == enemy:
                        continue
                    if side_of(d, enemy) is not None and side_of(d, enemy) == side_of(d, minor):
                        continue
                    p = _pair(minor, enemy)
                    if p not in have:
                        have.add(p)
                        out.append(War(p[0], p[1], turn, Cause.ALLIANCE, major, "TR-22"))
                        changed = True
    return out


def _consequences(before: Diplomacy, after: Diplomacy, turn: int) -> Consequences:
    newly = tuple(m for m in MAJORS if m in after.sides and not is_belligerent(before, m)
                  and is_belligerent(after, m))
    ger = tuple(m for m in MAJORS if m != "germany" and not at_war(before, m, "germany")
                and at_war(after, m, "germany"))
    routes = tuple(sorted(_open_routes(after) - _open_routes(before)))
    winter = None
    if not at_war(before, "germany", "ussr") and at_war(after, "germany", "ussr"):
        winter = _first_winter_from(turn)
    return Consequences(newly, ger, routes, winter,
                        not at_war(before, "us", "germany") and at_war(after, "us", "germany"))


def _join(d: Diplomacy, minor: str, patron: str, turn: int, cause: Cause, rule: str
          ) -> tuple[Diplomacy, list[War]]:
    """A minor takes its patron's side and every war of its patron."""
    aligned = {**d.aligned, minor: patron}
    d2 = msgspec.structs.replace(d, aligned=aligned)
    have = {(w.a, w.b) for w in d2.wars}
    new = []
    for e in sorted(enemies(d2, patron)):
        p = _pair(minor, e)
        if p not in have and e != minor:
            new.append(War(p[0], p[1], turn, cause, patron, rule))
    return _with_wars(d2, new, aligned), new


def join(d: Diplomacy, minor: str, patron: str, turn: int, cause: Cause = Cause.MINOR_JOINS
         ) -> tuple[Diplomacy, WarsBegun]:
    """TR-24/TR-22: a minor takes ``patron``'s side and enters every war of its patron (a
    minor already aligned, out of the war or annexed is left as it is)."""
    if minor in d.aligned or minor in d.out or minor in d.annexed or minor not in d.minors:
        return d, WarsBegun(cause, turn, (), {}, Consequences(), CAUSE_RULE[cause])
    before = d
    d2, new = _join(d, minor, patron, turn, cause, CAUSE_RULE[cause])
    return d2, WarsBegun(cause, turn, tuple(new), {minor: patron},
                         _consequences(before, d2, turn), CAUSE_RULE[cause])


def patron_for(d: Diplomacy, minor: str, attacker: str) -> str | None:
    """TR-24: the major a neutral minor joins when ``attacker`` attacks it: an Axis minor
    attacked by the Allies joins Germany; else the scenario's patron when it is at war with
    the attacker or on the other side, else the first major of the other side at war with the
    attacker (movement order); None when no one is (the minor fights alone)."""
    a_side = side_of(d, attacker)
    if minor in d.axis_minors and a_side != d.sides.get("germany"):
        return "germany"
    p = d.patrons.get(minor)
    if p is not None and p not in d.out and d.sides.get(p) != a_side:
        return p
    for m in MAJORS:
        if m in d.sides and d.sides[m] != a_side and m not in d.out and at_war(d, m, attacker):
            return m
    return None


def joining_patron(d: Diplomacy, minor: str) -> str | None:
    """TR-24 "Minor powers join patrons when an enemy nation attacks them": the major a minor
    entering the war joins, the one answer for every path that activates a minor. Attacked
    (a war declared on it): :func:`patron_for` its attacker, as :func:`declare` decides (None:
    it fights alone); not attacked (the Summer I 1941 entry): an Axis minor joins Germany."""
    b = belligerent_of(d, minor)
    attackers = sorted(w.by for w in d.wars if b in (w.a, w.b) and w.by and w.by != b
                       and w.cause is Cause.DECLARATION)
    if attackers:
        return patron_for(d, b, attackers[0])
    if b in d.axis_minors and "germany" in d.sides and "germany" not in d.out:
        return "germany"
    return None


def declaration_cost(d: Diplomacy, power: str, targets: Iterable[str], turn: int) -> int:
    """TR-25: 5 BRPs for any number of minors a season (once), 15 for each major."""
    ts = list(targets)
    minors = sum(1 for t in ts if not is_major(belligerent_of(d, t)))
    majors = sum(1 for t in ts if is_major(belligerent_of(d, t)))
    return dow_cost(minors, majors, d.minor_dow_paid.get(power) == turn)


def can_declare(d: Diplomacy, power: str, targets: Iterable[str]) -> Refusal | None:
    """TR-25: a major declares on countries it is not at war with, not its own or its
    allies', not out of the war."""
    ts = list(targets)
    if power not in d.sides:
        return Refusal("TR-25", f"{power} is not a major power of this game")
    if power in d.out:
        return Refusal("TR-25", f"{power} is out of the war")
    if not ts:
        return Refusal("TR-25", "declare war on at least one country")
    for t in ts:
        b = belligerent_of(d, t)
        if b not in d.sides and b not in d.minors:
            return Refusal("TR-25", f"{t} is not a country of this game")
        if b in d.out or b in d.annexed:
            return Refusal("TR-25", f"{t} is out of the war")
        if b == power or friendly(d, power, b):
            return Refusal("TR-25", f"{t} is {power}'s own or an ally's")
        if at_war(d, power, b):
            return Refusal("TR-25", f"{power} is already at war with {t}")
        if b in d.sides and d.sides[b] == d.sides[power]:
            return Refusal("TR-25", f"{t} is on {power}'s own side")
    return None


def declare(d: Diplomacy, power: str, targets: Iterable[str], turn: int
            ) -> tuple[Diplomacy, WarDeclared]:
    """TR-25: ``power`` declares war on ``targets`` in ``turn``.

    War with each target and, for a major, with every country allied with it; the declarer's
    minor allies enter the same wars (TR-22); each neutral minor attacked joins its patron
    (TR-24) and its patron's wars. The record carries the cost and the consequences.
    """
    ts = tuple(belligerent_of(d, t) for t in targets)
    r = can_declare(d, power, ts)
    if r is not None:
        r.raise_()
    cost = declaration_cost(d, power, ts, turn)
    before = d
    have = {(w.a, w.b) for w in d.wars}
    new: list[War] = []

    def add(x: str, y: str, cause: Cause, by: str, rule: str = "TR-25") -> None:
        p = _pair(x, y)
        if x != y and p not in have:
            have.add(p)
            new.append(War(p[0], p[1], turn, cause, by, rule))

    joined: dict[str, str] = {}
    for t in ts:
        allied = allies_of(d, t) if is_major(t) else frozenset()
        add(power, t, Cause.DECLARATION, power)
        for a in sorted(allied):
            if a != power and side_of(d, a) != side_of(d, power):
                add(power, a, Cause.ALLIANCE, t)
        if not is_major(t) and t not in d.aligned:
            patron = patron_for(d, t, power)
            if patron is not None:
                joined[t] = patron
    d = _with_wars(d, _spread(d, turn, new), d.aligned)
    all_new = [w for w in d.wars if (w.a, w.b) not in {(x.a, x.b) for x in before.wars}]
    for minor, patron in joined.items():
        d, more = _join(d, minor, patron, turn, Cause.MINOR_JOINS, "TR-24")
        all_new += more
    paid = dict(d.minor_dow_paid)
    if any(not is_major(t) for t in ts):
        paid[power] = turn
    d = msgspec.structs.replace(d, minor_dow_paid=paid)
    rec = WarDeclared(power, ts, turn, cost, tuple(all_new), joined,
                      _consequences(before, d, turn))
    return d, rec


def entries_due(d: Diplomacy, turn: int) -> list[Cause]:
    """The text's automatic entries that fall at the start of ``turn``."""
    out = []
    if turn == d.axis_minors_turn and any(
            m in d.minors and m not in d.aligned and m not in d.out for m in d.axis_minors):
        out.append(Cause.AXIS_MINORS)
    if turn >= d.us_entry_turn and "us" in d.sides and "us" not in d.out and \
            not at_war(d, "us", "germany"):
        out.append(Cause.US_ENTRY)
    return out


def enter_by_date(d: Diplomacy, turn: int) -> tuple[Diplomacy, list[WarsBegun]]:
    """TR-24 (Summer I 1941: the Axis minors not yet at war join Germany) and TR-86 (1942: the
    US enters at war with Germany and every country allied with it), as they fall due."""
    records = []
    for cause in entries_due(d, turn):
        before = d
        joined: dict[str, str] = {}
        new: list[War] = []
        if cause is Cause.AXIS_MINORS:
            for m in d.axis_minors:
                if m in d.minors and m not in d.aligned and m not in d.out:
                    d, more = _join(d, m, "germany", turn, Cause.AXIS_MINORS, "TR-24")
                    joined[m], new = "germany", new + more
            rule = "TR-24"
        else:
            targets = ["germany", *sorted(allies_of(d, "germany"))]
            have = {(w.a, w.b) for w in d.wars}
            fresh = [War(*_pair("us", t), turn, Cause.US_ENTRY, "us", "TR-86")
                     for t in targets if _pair("us", t) not in have]
            d = _with_wars(d, _spread(d, turn, fresh), d.aligned)
            new = [w for w in d.wars if w not in before.wars]
            rule = "TR-86"
        records.append(WarsBegun(cause, turn, tuple(new), joined,
                                 _consequences(before, d, turn), rule))
    return d, records


def make_peace(d: Diplomacy, belligerent: str, turn: int, cause: Cause,
               colonies: Mapping[str, str] | None = None) -> tuple[Diplomacy, PeaceMade]:
    """TR-26 (France after Paris falls: out of the war; each colony ``vichy`` or
    ``free_french``, a Free French colony passing to the UK) or TR-22 (a conquered minor):
    every war of ``belligerent`` ends. France's peace forms the neutral minor ``vichy``
    (TR-26: the Vichy colonies are its territory, the map's Vichy zone its home; Germany its
    patron), open to a declaration of war like any minor (TR-25)."""
    b = belligerent_of(d, belligerent)
    ending = tuple(w for w in d.wars if b in (w.a, w.b))
    cols = dict(colonies or {})
    territory = dict(d.territory)
    for colony, align in cols.items():
        if align not in ("vichy", "free_french"):
            raise InputError("colonies", f"{colony}: vichy or free_french, not {align!r}")
        if territory.get(colony) != b:
            raise InputError("colonies", f"{colony} is not a colony of {b}")
        territory[colony] = "uk" if align == "free_french" else "vichy"
    # TR-26: Vichy France forms, a neutral minor (the map's Vichy zone and the colonies that
    # roll Vichy), whatever the rolls; Germany its patron (TR-24: it joins Germany when the
    # Allies attack it)
    vichy = cause is Cause.VICHY and b == "france"
    minors = d.minors + (("vichy",) if (vichy or "vichy" in territory.values()) and
                         "vichy" not in d.minors else ())
    patrons = dict(d.patrons)
    if vichy and "germany" in d.sides and "vichy" not in patrons:
        patrons = dict(sorted({**patrons, "vichy": "germany"}.items()))
    d2 = msgspec.structs.replace(
        d, wars=tuple(w for w in d.wars if w not in ending),
        ended=(*d.ended, *(Peace(w, turn, cause) for w in ending)),
        out=tuple(sorted({*d.out, b})), territory=territory, minors=minors, patrons=patrons,
        aligned={k: v for k, v in d.aligned.items() if k != b})
    return d2, PeaceMade(b, turn, ending, cause, cols, CAUSE_RULE[cause])


def annex(d: Diplomacy, power: str, minors: Iterable[str], turn: int
          ) -> tuple[Diplomacy, Annexed]:
    """TR-87/TR-11: the USSR annexes its Ribbentrop-Molotov minors: their territory becomes
    the USSR's, with no war (a minor already out or at war is left alone)."""
    ms = tuple(m for m in minors if m in d.minors and m not in d.out and not is_belligerent(d, m))
    annexed = {**d.annexed, **{m: power for m in ms}}
    return msgspec.structs.replace(d, annexed=annexed), Annexed(power, ms, turn)


# --- the start of a scenario ------------------------------------------------------------------


def start(home_countries: Mapping[str, Iterable[str]], power_sides: Mapping[str, str],
          wars: WarsSection | None = None, campaign: CampaignSection | None = None
          ) -> Diplomacy:
    """The diplomacy a scenario starts with: its ``[home_countries]``, the powers' sides, its
    ``[third_reich.wars]`` table and (for the minors, the dated entries and the start of a
    late scenario) its ``[third_reich.campaign]`` table, both as the scenario's schema typed
    them (third_reich/scenario_schema.py).

    ``[third_reich.wars]``::

        at_war = [{ between = ["germany", "poland"], since = 1, cause = "declaration",
                    by = "germany" }, ...]   # the wars in progress (majors or minors)
        patrons = { poland = "uk", belgium = "france" }  # the major a minor joins

    A minor that is neither ``neutral`` nor an Axis minor in ``[third_reich.campaign]``
    starts aligned with its patron (Poland with the UK); ``start_allies`` (Axis minors at war),
    ``start_conquered`` and ``start_out`` describe a later start (tr-1944).
    """
    w = WarsSection() if wars is None else wars
    camp = CampaignSection() if campaign is None else campaign
    territory: dict[str, str] = {}
    for owner, countries in home_countries.items():
        for c in countries:
            territory[str(c)] = str(owner)
    sides = {p: s for p, s in power_sides.items() if p in MAJORS}
    minors = tuple(o for o in home_countries if o not in MAJORS)
    patrons = dict(w.patrons)
    if camp.start_vichy and "vichy" not in minors:  # TR-26: Vichy France formed already
        minors += ("vichy",)
        if "germany" in power_sides:
            patrons.setdefault("vichy", "germany")
    for k, v in patrons.items():
        if k not in minors:
            raise InputError("third_reich.wars.patrons", f"{k!r} is not a minor of the scenario")
        if v not in sides:
            raise InputError("third_reich.wars.patrons", f"{v!r} is not a major of the scenario")
    axis_minors = tuple(camp.axis_minors)
    conquered = set(camp.start_conquered)
    neutral = set(camp.neutral) | ({"vichy"} if camp.start_vichy and "vichy" not in conquered
                                   else set())
    out = tuple(sorted({*conquered, *camp.start_out}))
    aligned = {m: "germany" for m in camp.start_allies if m in minors}
    for m in minors:
        if m in neutral or m in axis_minors or m in conquered or m in aligned:
            continue
        pat = patrons.get(m) or next((x for x in MAJORS if x in sides and
                                      sides[x] == power_sides.get(m)), None)
        if pat is not None:
            aligned[m] = pat
    d = Diplomacy(sides=dict(sorted(sides.items())), territory=dict(sorted(territory.items())),
                  minors=minors, patrons=dict(sorted(patrons.items())),
                  aligned=dict(sorted(aligned.items())), out=out,
                  axis_minors=axis_minors,
                  us_entry_turn=camp.us_entry_turn)
    known = set(sides) | set(minors)
    start_wars: list[War] = []
    seen: set[tuple[str, str]] = set()
    for i, e in enumerate(w.at_war):
        between = e.between
        if len(between) != 2 or between[0] == between[1] or not set(between) <= known:
            raise InputError(f"third_reich.wars.at_war[{i}].between",
                             f"two different powers or minors of the scenario, not {between!r}")
        try:
            cause = Cause(e.cause)
        except ValueError:
            raise InputError(f"third_reich.wars.at_war[{i}].cause",
                             f"one of {', '.join(c.value for c in Cause)}") from None
        p = _pair(*between)
        if p in seen:
            raise InputError(f"third_reich.wars.at_war[{i}]", f"{p[0]}-{p[1]} listed twice")
        seen.add(p)
        start_wars.append(War(p[0], p[1], e.since, cause, e.by, CAUSE_RULE[cause]))
    d = _with_wars(d, start_wars, d.aligned)
    extra: list[War] = []  # a start minor ally is in its patron's wars from their start (TR-22)
    have = {(x.a, x.b) for x in d.wars}
    for minor, patron in d.aligned.items():
        for x in d.wars:
            if patron in (x.a, x.b):
                enemy = x.b if x.a == patron else x.a
                p = _pair(minor, enemy)
                if p not in have and enemy != minor and enemy not in d.out:
                    have.add(p)
                    since = max(x.since, d.axis_minors_turn) if minor in d.axis_minors \
                        else x.since
                    extra.append(War(p[0], p[1], since, Cause.ALLIANCE, patron, "TR-22"))
    return _with_wars(d, extra, d.aligned)


def from_scenario(scenario: Any, power_sides: Mapping[str, str]) -> Diplomacy:
    """:func:`start` from a loaded scenario (its typed ``[third_reich]`` tables)."""
    section = third_reich_rules(scenario).section
    return start(scenario.home_countries, power_sides, section.wars, section.campaign)


def to_json(d: Diplomacy) -> DiplomacyJSON:
    """Plain JSON values (lists, not tuples: a state's JSON compares equal after a round
    trip through text)."""
    out: DiplomacyJSON = msgspec.json.decode(msgspec.json.encode(d))
    return out


def from_json(obj: Any) -> Diplomacy:
    try:
        return typed(obj, Diplomacy)
    except msgspec.ValidationError as exc:
        raise InputError("diplomacy", str(exc)) from None


__all__ = [
    "MAJORS",
    "Action",
    "Annexed",
    "Cause",
    "Consequences",
    "Diplomacy",
    "Peace",
    "PeaceMade",
    "Refusal",
    "War",
    "WarDeclared",
    "WarsBegun",
    "allies_of",
    "annex",
    "at_war",
    "belligerent_of",
    "can_declare",
    "declaration_cost",
    "declare",
    "enemies",
    "enter_by_date",
    "entries_due",
    "first_refusal",
    "friendly",
    "from_json",
    "from_scenario",
    "join",
    "joining_patron",
    "lend_lease_open",
    "make_peace",
    "may_enter",
    "may_enter_hex",
    "patron_for",
    "record_json",
    "russian_winter_turn",
    "side_of",
    "start",
    "to_json",
    "verify_may_enter",
    "war_between",
]
