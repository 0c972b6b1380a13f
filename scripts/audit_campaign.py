"""Replay whole Revised Third Reich bot campaigns and check every event against the rules,
independently of the engine's own checks (issue 23 item 7).

    uv run python scripts/audit_campaign.py                       # tr-1939-campaign, seed 1
    uv run python scripts/audit_campaign.py --seeds 1-50 --json   # the long run
    uv run python scripts/audit_campaign.py --seeds 1-3 --strict year_start

Checks (each finding names its rule; the audit reports, it never stops a game):

* ``year_start`` (TR-07, TR-09, TR-10, TR-13, TR-80, TR-04): every Year Start's arithmetic,
  recomputed here from the BRPs on hand before it: saved BRPs, growth at the text's rates
  (US 70%, Germany/UK/USSR 60%, Italy/France 50%; rounding by the game's documented reading),
  the new base, the BRPs received (40% in 1940 and 1945), the SW limits.
* ``option`` (TR-03, TR-22): every land attack and every attrition under the option of each
  power taking part (a minor ally under its patron's), by ``turn/options.may_attack`` and
  ``may_take_part_in_attrition`` on the options the powers declared and paid that turn.
* ``war`` (TR-25, TR-27, TR-68): no move, attack or SR into a country the actor is not at
  war with (nor its own or an ally's), by ``conquest/diplomacy.may_enter`` on a diplomacy the
  audit keeps from the scenario's ``[third_reich.wars]`` and the game's declarations, entries
  by date, conquests, Vichy and the Ribbentrop-Molotov annexation (the engine enforces war
  and peace since session 6; tests/third_reich/test_audit_campaign.py asserts no finding).
* ``option`` also covers the air missions (issue 23): every counter air (TR-44) and air drop
  (TR-51) under the flying power's own offensive on the target's front.
* ``war`` also covers the sea SRs' interceptions (TR-25/TR-69: every intercepting fleet's
  power at war with the SRing unit's) and the air drops' targets (TR-25).
* ``strategic`` (TR-79, TR-15/TR-17): every U-boat round against a power at war with Germany,
  every bombing power at war with Germany, every Murmansk shipment on a lend-lease route open
  in the audit's diplomacy.
* ``losses`` (TR-32, TR-38): counted, not judged: who chose each battle's and attrition's
  losses (today the engine picks them inside the attacker's command).

Exit status 0, or 1 with ``--strict CHECK,...`` when a named check found anything.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from grognard.bots.play import play_game
from grognard.core.errors import GrognardError
from grognard.core.units import GROUND_TYPES
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario
from grognard.third_reich.board import ground_unit_of
from grognard.third_reich.combat.attrition import attrition_removal_choices
from grognard.third_reich.conquest import diplomacy as dip
from grognard.third_reich.conquest.campaign import map_areas
from grognard.third_reich.economy.economy import Economy
from grognard.third_reich.scenario_schema import third_reich_rules
from grognard.third_reich.turn.options import may_attack, may_take_part_in_attrition

CHECKS = ("year_start", "option", "war", "strategic", "losses")
#: TR-10: growth rates of saved BRPs.
GROWTH = {"us": Fraction(7, 10), "germany": Fraction(6, 10), "uk": Fraction(6, 10),
          "ussr": Fraction(6, 10), "italy": Fraction(1, 2), "france": Fraction(1, 2)}
PARTIAL = Fraction(2, 5)  # TR-04 / TR-07: 40%


@dataclass
class Finding:
    seed: int
    index: int  # the command's position in the game
    turn: int
    check: str
    rule: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "index": self.index, "turn": self.turn, "check": self.check,
                "rule": self.rule, "message": self.message}


@dataclass
class Audit:
    games: int = 0
    checked: Counter[str] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    ends: Counter[str] = field(default_factory=Counter)

    def failures(self, check: str) -> int:
        return sum(1 for f in self.findings if f.check == check)

    def to_json(self, limit: int = 50) -> dict[str, Any]:
        return {"games": self.games, "ends": dict(self.ends),
                "checks": {c: {"checked": self.checked[c], "failures": self.failures(c)}
                           for c in CHECKS},
                "findings": [f.to_json() for f in self.findings[:limit]],
                "by_rule": dict(Counter(f"{f.check} {f.rule}" for f in self.findings))}


# --- Year Start ------------------------------------------------------------------------------


def _round(x: Fraction, how: str) -> Fraction:
    if how == "exact":
        return x
    if how == "nearest":
        return Fraction(int(x + Fraction(1, 2)))
    if how == "ceil":
        return Fraction(-((-x.numerator) // x.denominator))
    return Fraction(x.numerator // x.denominator)


def _sw_limits(power: str, base: Fraction, year: int) -> dict[str, Fraction]:
    pct = Fraction(1, 100)
    if power == "germany":
        return {"subs": 10 * pct * base, "interceptors": 10 * pct * base}
    if power == "uk":
        return {"asw": 10 * pct * base, "bombers": 15 * pct * base}
    if power == "us":
        a, b = (5, 5) if year <= 1942 else (10, 10) if year == 1943 else (10, 15)
        return {"asw": a * pct * base, "bombers": b * pct * base}
    return {}


def check_year_start(before: Economy, data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """TR-07/TR-09/TR-10/TR-13/TR-80/TR-04 recomputed: (rule, message) for each mismatch."""
    rec = data["record"]
    year = int(rec["year"])
    readings = before.to_json().get("readings", {})
    growth_how = str(readings.get("growth_rounding", "floor"))
    partial_how = str(readings.get("partial_year_income_rounding", "floor"))
    out: list[tuple[str, str]] = []
    for p in rec["powers"]:
        power = p["power"]
        old, new = Fraction(str(p["old_base"])), Fraction(str(p["new_base"]))
        conq = Fraction(str(p["conquests_and_allies"]))
        got = Fraction(str(p["received"]))
        brp = Fraction(str(p["brp"]))
        on_hand = before.brp(power)
        if rec["special_1940"]:
            if new != old + conq:
                out.append(("TR-07", f"{power}: base {old} + {conq} is not {new}"))
            want = _round(PARTIAL * new, partial_how)
            if got != want or brp != on_hand + got:
                out.append(("TR-07", f"{power}: 40% of {new} is {want} on top of {on_hand}, "
                                     f"not {got} -> {brp}"))
        else:
            saved = Fraction(str(p["saved"]))
            if saved != max(on_hand, Fraction(0)):
                out.append(("TR-10", f"{power}: saved {saved}, but {on_hand} were on hand"))
            g = _round(GROWTH[power] * saved, growth_how) if saved > 0 else Fraction(0)
            if Fraction(str(p["growth"])) != g:
                out.append(("TR-10", f"{power}: growth of {saved} saved is {g}, not "
                                     f"{p['growth']}"))
            want_base = max(Fraction(0), old + g + conq + Fraction(str(p["ussr_cities"]))
                            - Fraction(str(p["sw_hits"])))
            if new != want_base:
                out.append(("TR-09", f"{power}: {old} + growth {g} + conquests {conq} + "
                                     f"cities {p['ussr_cities']} - hits {p['sw_hits']} = "
                                     f"{want_base}, not {new}"))
            want = _round(PARTIAL * new, partial_how) if year >= 1945 else new
            if got != want or brp != want:
                out.append(("TR-04" if year >= 1945 else "TR-09",
                            f"{power}: receives {want}, not {got} (on hand {brp})"))
        limits = {k: Fraction(str(v)) for k, v in p["sw_limits"].items()}
        if power in ("germany", "uk") or (power == "us" and limits):
            want_l = _sw_limits(power, new, year)
            if limits != want_l:
                out.append(("TR-80", f"{power}: SW limits {limits} are not {want_l}"))
    return out


# --- war and options --------------------------------------------------------------------------


@dataclass
class Tracker:
    """What the audit keeps as the game goes: the diplomacy and the options declared."""

    d: dip.Diplomacy
    power_sides: dict[str, str]
    rm_minors: tuple[str, ...]
    vichy_hexes: frozenset[str]
    conquered_by: dict[str, str] = field(default_factory=dict)
    declared: dict[str, dict[str, str]] = field(default_factory=dict)
    turn: int = 1
    vichy: bool = False


def _country(game: Game, label: str) -> str:
    m = game.scenario.map
    try:
        return m.country_of(m.hex(m.index_of_label(label)))
    except (GrognardError, KeyError, IndexError):
        return ""


def _controller(t: Tracker, country: str, label: str, mover_side: str) -> str | None:
    """The side controlling a hex of a country out of the war (the audit's own reading of
    the text: a conquered minor is its conqueror's side's; France after Vichy is the Axis's
    outside the Vichy zone, neutral inside)."""
    b = dip.belligerent_of(t.d, country)
    if b == "france" and t.vichy:
        return None if label in t.vichy_hexes else t.power_sides.get("germany")
    return t.conquered_by.get(b)


def _unit_power(game: Game, uid: str) -> str:
    return str(game.state["units"][uid].get("power") or "")


def audit_game(game: Game, seed: int, audit: Audit) -> None:
    """Walk a finished game's commands and events, adding the findings to ``audit``."""
    camp = third_reich_rules(game.scenario).section.campaign
    t = Tracker(dip.from_scenario(game.scenario, dict(game.state["power_sides"])),
                dict(game.state["power_sides"]), camp.rm_minors,
                frozenset(map_areas(game.scenario).get("vichy", [])))
    audit.games += 1

    def find(i: int, check: str, rule: str, msg: str) -> None:
        audit.findings.append(Finding(seed, i, t.turn, check, rule, msg))

    def enter(i: int, power: str, label: str, action: dip.Action, side: str) -> None:
        country = _country(game, label)
        audit.checked["war"] += 1
        r = dip.may_enter(t.d, power, country, action,
                          controller_side=_controller(t, country, label, side))
        if r is not None:
            find(i, "war", r.rule, f"{power} {action.value} {label}: {r.reason}")

    for i, (cmd, events) in enumerate(zip(game.commands, game.events, strict=True)):
        for ev in events:
            d = ev.data
            if ev.type == "phase_ended" and d["to"]["turn"] != d["from"]["turn"]:
                t.turn = int(d["to"]["turn"])
                t.declared = {}
                t.d, _ = dip.enter_by_date(t.d, t.turn)
            elif ev.type == "options_declared":
                t.declared[d["power"]] = dict(d["options"])
            elif ev.type == "war_declared":
                try:
                    t.d, _ = dip.declare(t.d, d["power"], [*d["minors"], *d["majors"]], t.turn)
                except GrognardError as exc:
                    find(i, "war", "TR-25", f"declaration {d['power']} on "
                         f"{d['minors'] + d['majors']}: {exc}")
            elif ev.type == "us_entered":
                t.d, _ = dip.enter_by_date(t.d, max(t.turn, t.d.us_entry_turn))
            elif ev.type == "minor_conquered":
                t.conquered_by[d["minor"]] = d["side"]
                t.d, _ = dip.make_peace(t.d, d["minor"], t.turn, dip.Cause.CONQUEST)
            elif ev.type == "vichy_formed":
                t.vichy = True
                t.d, _ = dip.make_peace(t.d, "france", t.turn, dip.Cause.VICHY)
            elif ev.type == "ribbentrop_molotov":
                t.d, _ = dip.annex(t.d, "ussr", t.rm_minors, t.turn)
            elif ev.type == "year_started":
                audit.checked["year_start"] += 1
                before = Economy.from_json(game.state_at(i)["economy"])
                for rule, msg in check_year_start(before, d):
                    find(i, "year_start", rule, msg)
            elif ev.type == "battle_resolved":
                attack_battle_of(game, t, i, d, audit, find, enter)
            elif ev.type == "attrition_resolved":
                _attrition(game, t, i, d, audit, find)
            elif ev.type == "sw_round_fought":
                _strategic(game, t, i, d, audit, find)
            elif ev.type == "murmansk_shipped":
                audit.checked["strategic"] += 1
                r = dip.lend_lease_open(t.d, str(d["sender"]), "ussr")
                if r is not None:
                    find(i, "strategic", r.rule, f"Murmansk shipment by {d['sender']}: "
                         f"{r.reason}")
            elif ev.type == "sea_sr_made":
                power = _unit_power(game, str(d["unit"]))
                for fleets in (d.get("interceptors") or {}).values():
                    for f in fleets:
                        audit.checked["war"] += 1
                        other = _unit_power(game, f)
                        if not dip.at_war(t.d, power, other):
                            find(i, "war", "TR-25", f"{f} ({other}) intercepted the sea SR of "
                                 f"{d['unit']} ({power}) without a war")
            elif ev.type in ("counter_air_flown", "airdropped"):
                _air_mission(game, t, i, ev.type, d, audit, find, enter)
            elif ev.type == "unit_moved":
                u = d["unit"]
                side = str(game.state["units"][u]["side"])
                for label in d["path"]:
                    enter(i, _unit_power(game, u), label, dip.Action.MOVE, side)
        if cmd.kind == "sr" and isinstance(cmd.args.get("unit"), str) and \
                isinstance(cmd.args.get("to"), str):
            u = cmd.args["unit"]
            enter(i, _unit_power(game, u), cmd.args["to"], dip.Action.SR,
                  str(game.state["units"][u]["side"]))


def _patrons(t: Tracker) -> dict[str, str]:
    return dict(t.d.aligned)


def _side_majors(t: Tracker, side: str) -> list[str]:
    return [p for p, s in t.power_sides.items() if s == side and p in dip.MAJORS]


def attack_battle_of(game: Game, t: Tracker, i: int, d: Mapping[str, Any], audit: Audit, find: Any,
            enter: Any) -> None:
    flown = [u for u in d.get("air_naval", {}).get("flown", [])  # the attacker's own air:
             if game.state["units"][u]["side"] == d["side"]]  # defensive air needs no option
    powers = sorted({_unit_power(game, u) for u in [*d["attackers"], *flown]})
    audit.checked["option"] += 1
    r = may_attack(t.declared, powers, d["front"], _patrons(t), _side_majors(t, d["side"]))
    if r is not None:
        find(i, "option", r.rule, f"attack on {d['hex']}: {r.reason}")
    for p in powers:
        enter(i, p, d["hex"], dip.Action.ATTACK, d["side"])
    audit.checked["losses"] += 1
    owed = {str(o.get("role")) for o in d.get("losses_owed", {}).values()}
    for role in ("attacker", "defender"):  # TR-32: asked (land_losses), or forced and said so
        if d.get(f"{role}_losses") and role not in owed and role not in d.get("forced", {}):
            find(i, "losses", "TR-32", f"battle on {d['hex']}: the engine chose the "
                 f"{role}'s losses (the losing side was not asked)")


def _front_of(game: Game, label: str) -> str:
    from grognard.third_reich.board import hex_front

    m = game.scenario.map
    return str(hex_front(m, m.index_of_label(label)))


def _air_mission(game: Game, t: Tracker, i: int, kind: str, d: Mapping[str, Any],
                 audit: Audit, find: Any, enter: Any) -> None:
    """TR-03/TR-44/TR-51: a counter air or an air drop under each flying power's own
    offensive on the target's front; the target hex open to it (TR-25)."""
    target = str(d["target"] if kind == "counter_air_flown" else d["to"])
    units = list(d["air"]) if kind == "counter_air_flown" else [str(d["unit"])]
    powers = sorted({_unit_power(game, u) for u in units})
    audit.checked["option"] += 1
    r = may_attack(t.declared, powers, _front_of(game, target), _patrons(t),
                   _side_majors(t, d["side"]))
    if r is not None:
        find(i, "option", r.rule, f"{kind} over {target}: {r.reason}")
    for p in powers:
        enter(i, p, target, dip.Action.AIR, d["side"])


def _strategic(game: Game, t: Tracker, i: int, d: Mapping[str, Any], audit: Audit,
               find: Any) -> None:
    """TR-79: U-boats on the economy of a power at war with Germany; bombers of powers at war
    with Germany."""
    audit.checked["strategic"] += 1
    if d["kind"] == "subs":
        if not dip.at_war(t.d, "germany", str(d["target"])):
            find(i, "strategic", "TR-79", f"U-boat round against {d['target']}, not at war "
                 "with Germany")
        return
    for p, n in (d.get("bombers") or {}).items():
        if n and not dip.at_war(t.d, "germany", p):
            find(i, "strategic", "TR-79", f"{p}'s {n} bomber factors bombed Germany without a "
                 "war")


def _attrition(game: Game, t: Tracker, i: int, d: Mapping[str, Any], audit: Audit,
               find: Any) -> None:
    mine = [u for u in d.get("contact_units", []) if game.state["units"][u]["side"] == d["side"]]
    if not mine or d.get("roll") is None:
        return
    audit.checked["option"] += 1
    powers = sorted({_unit_power(game, u) for u in mine})
    r = may_take_part_in_attrition(t.declared, powers, d["front"], _patrons(t),
                                   _side_majors(t, d["side"]))
    if r is not None:
        find(i, "option", r.rule, f"attrition on the {d['front']} front: {r.reason}")
    audit.checked["losses"] += 1
    # TR-38 "The side taking the losses decides which units to remove": the engine may
    # remove them only when that side has no choice - every eligible unit goes, or a single
    # set of units counts the loss (TR-39). The defenders in contact are found here from the
    # map, independently of the engine: the other side's ground units on the front next to
    # the attacker's units in contact.
    before = game.state_at(i)
    units = before["units"]
    gone = set(d.get("eliminated", []))
    if not gone:
        return
    mine_ids = [u for u in d.get("contact_units", []) if units[u]["side"] == d["side"]]
    near = {h for u in mine_ids for h in _neighbours(game, str(units[u]["hex"]))}
    theirs = [uid for uid, u in sorted(units.items())
              if u["side"] != d["side"] and u["status"] == "active" and u["hex"] in near
              and u["type"] in GROUND_TYPES and any(
                  dip.at_war(t.d, _unit_power(game, uid), p) for p in powers)]
    for ids, n, who in ((mine_ids, int(d.get("attacker_units") or 0), "attacker"),
                        (theirs, int(d.get("defender_units") or 0), "defender")):
        lost = sorted(u for u in gone if u in ids)
        if not lost:
            continue
        front = [ground_unit_of(u, units[u], "axis") for u in ids]
        choices = attrition_removal_choices(n, front, [True] * len(front), limit=2)
        if choices != [tuple(lost)]:
            find(i, "losses", "TR-38", f"attrition on the {d['front']} front: the engine "
                 f"chose the {who}'s units removed ({', '.join(lost)}) where the side taking "
                 f"the losses had a choice ({len(choices)}+ sets)")


def _neighbours(game: Game, label: str) -> list[str]:
    m = game.scenario.map
    return [m.label(int(j)) for j in m.neighbor_indices(m.index_of_label(label))]


# --- running -----------------------------------------------------------------------------------


def play(scenario: str, seed: int, max_commands: int) -> Game:
    game = Game(load_scenario(scenario), seed)
    play_game(game, {s: "heuristic" for s in game.scenario.sides}, seed=seed,
              max_commands=max_commands)
    return game


def run(scenario: str, seeds: list[int], max_commands: int = 20000) -> Audit:
    audit = Audit()
    for seed in seeds:
        game = play(scenario, seed, max_commands)
        audit.ends["over" if game.over else "cut"] += 1
        try:
            audit_game(game, seed, audit)
        except GrognardError as exc:  # the audit reports, it does not stop
            audit.findings.append(Finding(seed, len(game.commands), game.turn, "audit",
                                          "AUDIT", f"audit stopped: {exc}"))
    return audit


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b) + 1)) if b else [int(a)]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="tr-1939-campaign")
    ap.add_argument("--seeds", default="1", help="1-50 or 1,4,9")
    ap.add_argument("--max-commands", type=int, default=20000)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--strict", default="", help="checks whose findings fail the run")
    args = ap.parse_args(argv)
    audit = run(args.scenario, _seeds(args.seeds), args.max_commands)
    out = audit.to_json()
    if args.json:
        print(json.dumps(out, indent=2, sort_keys=True))
    else:
        print(f"{args.scenario}: {audit.games} games ({dict(audit.ends)})")
        for c in CHECKS:
            print(f"  {c:10} {audit.checked[c]:6} checked, {audit.failures(c):6} findings")
        for key, n in sorted(out["by_rule"].items()):
            print(f"    {key}: {n}")
        for f in audit.findings[:20]:
            print(f"  seed {f.seed} #{f.index} turn {f.turn} {f.check} {f.rule}: {f.message}")
    strict = [c for c in args.strict.split(",") if c]
    return 1 if any(audit.failures(c) for c in strict) else 0


if __name__ == "__main__":
    sys.exit(main())
