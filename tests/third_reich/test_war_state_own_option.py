"""Each power its own option for the air missions (issue 23 item 3/4; TR-03 "An offensive
option ... allows all phases, air and naval missions"): a counter air mission (TR-44) is flown
only under the flying power's own offensive on the target's front - the UK with a pass does
not fly under France's offensive - and the Order names TR-03; ``game legal`` lists only what
verify passes."""

from __future__ import annotations

import pytest

from .test_war_state import C, econ, game, refused, to

# uk-air88 beside fra-air66 in Paris (N23); ger-air22 in Cologne (M27), 4 hexes away
AT = {"uk-air88": "N23", "ger-air22": "M27"}


def _air_missions(uk: str, france: str):  # type: ignore[no-untyped-def]
    g = game(AT)
    g.apply(C("declare_options", "axis", power="germany", options={"western": "pass"}))
    to(g, "declare_options", "allies")
    g.apply(C("declare_options", "allies", power="uk", options={"western": uk}))
    g.apply(C("declare_options", "allies", power="france", options={"western": france}))
    to(g, "air_missions", "allies")
    return g


def test_tr03_tr44_counter_air_only_under_the_flying_powers_own_offensive() -> None:
    g = _air_missions("pass", "offensive")
    assert refused(g, C("counter_air", "allies", target="M27", air=["uk-air88"])) == "TR-03"
    assert refused(g, C("counter_air", "allies", target="M27",
                        air=["uk-air88", "fra-air66"])) == "TR-03"
    assert g.can(C("counter_air", "allies", target="M27", air=["fra-air66"]))
    listed = g.legal("allies", "counter_air")
    assert listed and all("uk-air88" not in c.args["air"] for c in listed)
    assert all(g.can(c) for c in listed)


def test_tr03_the_uks_own_offensive_lets_it_fly_and_costs_the_uk() -> None:
    g = game(AT)
    g.apply(C("declare_options", "axis", power="germany", options={"western": "pass"}))
    to(g, "declare_options", "allies")
    uk, fr = econ(g).brp("uk"), econ(g).brp("france")
    g.apply(C("declare_options", "allies", power="uk", options={"western": "offensive"}))
    g.apply(C("declare_options", "allies", power="france", options={"western": "pass"}))
    assert econ(g).brp("uk") < uk and econ(g).brp("france") == fr
    to(g, "air_missions", "allies")
    assert g.can(C("counter_air", "allies", target="M27", air=["uk-air88"]))
    assert refused(g, C("counter_air", "allies", target="M27", air=["fra-air66"])) == "TR-03"


def test_tr25_tr35_no_defensive_air_from_a_power_not_at_war_with_the_attacker() -> None:
    """Fall 1939: the UK attacks ger-inf18 in P28; Italian air in Milan (T27, in range) may
    not fly defensive support - Italy is not at war with the UK - and is not among the
    defender's options; after Italy declares war on France (and so on the UK) it may."""
    at = {"ger-inf19": "O29", "fra-inf61": "P26", "uk-inf80": "P27", "ita-air119": "T27"}

    def attack(declare: bool):  # type: ignore[no-untyped-def]
        g = game(at)
        if declare:
            g.apply(C("declare_war", "axis", power="italy", majors=["france"]))
        g.apply(C("declare_options", "axis", power="germany", options={"western": "pass"}))
        to(g, "declare_options", "allies")
        g.apply(C("declare_options", "allies", power="uk", options={"western": "offensive"}))
        to(g, "combat", "allies")
        g.apply(C("attack", "allies", hex="P28", attackers=["uk-inf80"]))
        p = g.state.get("pending_reaction") or {}
        return g, {o["unit"] for o in p.get("options", [])}

    g, opts = attack(False)
    assert "ita-air119" not in opts
    g2, opts2 = attack(True)
    assert "ita-air119" in opts2
    from grognard.core.errors import IllegalOrder
    from grognard.third_reich.air_naval.support_fight import verify_support

    trial = C("attack", "allies", hex="P28", attackers=["uk-inf80"],
              defensive_air=["ita-air119"])
    with pytest.raises(IllegalOrder) as exc:
        verify_support(g.context, g.state, trial, "P28")
    assert exc.value.rule == "TR-25"
    verify_support(g2.context, g2.state, trial, "P28")  # at war: no refusal


def test_tr51_issue27_a_legal_air_drop_with_a_repeated_escort_is_refused() -> None:
    """The air-drop case of tests/reliability/test_order_counts.py (its random games no longer
    reach a legal air drop once each power flies under its own option): on tr-1939-support
    under Germany's eastern offensive, every listed air drop with escorts is legal and the
    same order with an escort named twice is refused."""
    from grognard.core.errors import GrognardError
    from grognard.engine import Command

    from .test_system_orders import offensive, to_phase

    g = offensive(3)
    to_phase(g, "movement", "axis")
    drops = [c for c in g.legal("axis", "airdrop") if c.args.get("escorts")]
    assert drops
    for c in drops[:10]:
        assert g.can(c)
        dup = Command(c.kind, c.player, {**c.args, "escorts": [*c.args["escorts"],
                                                               c.args["escorts"][0]]})
        with pytest.raises(GrognardError):
            g.verify(dup)
