"""Each power its own option for the air missions (issue 23 item 3/4; TR-03 "An offensive
option ... allows all phases, air and naval missions"): a counter air mission (TR-44) is flown
only under the flying power's own offensive on the target's front - the UK with a pass does
not fly under France's offensive - and the Order names TR-03; ``game legal`` lists only what
verify passes."""

from __future__ import annotations

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
