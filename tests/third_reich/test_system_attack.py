"""The rules a played battle or Year Start names in its event (``data["rules"]``): only those
that took effect, so docs/FEATURES.md counts a rule as played only when a game really used it
(TR-07, TR-09, TR-36, TR-46..TR-49, TR-52)."""

from __future__ import annotations

from grognard.engine import Command, Game
from grognard.third_reich.combat.battle import battle_rules
from grognard.third_reich.economy.orders.year_start import year_start_rules
from grognard.third_reich.economy.year_start import PowerYearStart, YearStartRecord


def C(kind, player, **args):
    return Command(kind, player, args)


def test_tr36_tr46_tr49_tr52_battle_rules_name_only_what_took_effect():
    none = {"rolls": [], "steps": [], "losses": {}, "flown": [], "fleets": []}
    assert battle_rules(0, none, False) == []
    assert battle_rules(1, none, False) == ["TR-36"]
    assert battle_rules(-1, none, True) == ["TR-36", "TR-52"]
    fight = {**none, "steps": [{"step": "AirToAir"}, {"step": "AirNaval"}]}
    assert battle_rules(0, fight, False) == ["TR-46", "TR-47", "TR-49"]


def test_tr07_tr09_year_start_rules():
    p = PowerYearStart("germany", old_base=150)
    assert year_start_rules(YearStartRecord(3, 1940, True, (p,))) == ["TR-07"]
    assert year_start_rules(YearStartRecord(7, 1941, False, (p,))) == ["TR-09", "TR-80"]
    grown = PowerYearStart("germany", old_base=150, saved=30, growth=10, sw_hits=5)
    assert year_start_rules(YearStartRecord(7, 1941, False, (grown,))) == [
        "TR-09", "TR-10", "TR-13", "TR-80"]


def test_tr46_tr49_an_engine_battle_with_air_on_both_sides_names_the_air_fight():
    """TR-49: the attacker's air support meets the defender's defensive air in the hex; the
    battle's event names the air-to-air step (TR-46) and the order of combat (TR-49)."""
    g = Game.new("tr-1939-support", seed=3)
    g.apply(C("declare_options", "axis", power="germany",
              options={"eastern": "offensive", "western": "attrition"}))
    while not (g.phase.name == "combat" and g.phase.player == "axis"):
        g.apply(C("end_phase", g.phase.player))
    atk = next(c for c in g.legal("axis") if c.kind == "attack" and c.args["hex"] == "F12"
               and "ge-air1" in c.args.get("air", []))
    (owed,) = g.apply(atk)
    assert owed.type == "reaction_owed"
    evs = g.apply(C("defensive_air", "allies", defensive_air=["pl-air1"]))
    battle = evs[-1]
    assert battle.type == "battle_resolved"
    steps = {s["step"] for s in battle.data["air_naval"]["steps"]}
    assert "AirToAir" in steps
    assert {"TR-46", "TR-49"} <= set(battle.data["rules"])
    assert ("TR-36" in battle.data["rules"]) == (battle.data["drm"] != 0)


def test_tr32_defenders_of_matches_a_scan_of_every_unit_as_the_position_changes():
    """TR-32: the enemy ground units in a hex come from a per-position index of the units by
    hex (board.ground_by_hex); at every position of a played game it names exactly the units a
    scan of every unit finds, in sorted order, for each side and each occupied hex."""
    import random

    from grognard.engine.fuzz import choose
    from grognard.third_reich.board import on_map_ground
    from grognard.third_reich.combat.battle import defenders_of

    g = Game.new("tr-1939-support", seed=3)
    rng = random.Random(4)
    checked = 0
    for _ in range(60):
        units = g.state["units"]
        hexes = sorted({u["hex"] for u in units.values() if on_map_ground(u)})
        for side in g.scenario.sides:
            for h in hexes:
                scan = sorted(uid for uid, u in units.items()
                              if on_map_ground(u) and u["hex"] == h and u["side"] != side)
                assert defenders_of(g.context, g.state, side, h) == scan
                checked += bool(scan)
        cmd = None if g.over else choose(g, rng)
        if cmd is None:
            break
        g.apply(cmd)
    assert checked > 0


def test_tr27_forces_are_kept_while_the_placement_is_the_same_and_rebuilt_when_it_changes():
    """TR-27: the ground units the ZOC fields and traces read (board.forces_of_state) are
    kept across commands while no ground unit's placement changes (a phase end), and rebuilt
    - naming every ground unit where it stands - once one moves."""
    import random

    from grognard.engine.fuzz import choose
    from grognard.third_reich.board import forces_of_state, on_map_ground

    g = Game.new("tr-1939-support", seed=3)
    rng = random.Random(4)
    kept = rebuilt = 0
    for _ in range(80):
        before = forces_of_state(g.context, g.state)
        placed_before = {k: u["hex"] for k, u in g.state["units"].items() if on_map_ground(u)}
        cmd = None if g.over else choose(g, rng)
        if cmd is None:
            break
        g.apply(cmd)
        after = forces_of_state(g.context, g.state)
        placed = {k: u["hex"] for k, u in g.state["units"].items() if on_map_ground(u)}
        assert list(after.ids) == sorted(placed)
        assert [g.scenario.map.label(int(h)) for h in after.hex] == [placed[k]
                                                                      for k in after.ids]
        if placed == placed_before and after is before:
            kept += 1
        elif placed != placed_before:
            assert after is not before
            rebuilt += 1
    assert kept > 0 and rebuilt > 0
