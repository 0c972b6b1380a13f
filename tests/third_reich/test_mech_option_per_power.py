"""TR-03 / TR-22 (issue 23: "Mechanized movement follows the side's widest option"): a power's
armor moves in the mechanized movement phase only under that power's own offensive option on
the front, never under an ally's; a minor ally's under its patron's (``minor_option``).

002_67ce4e3275b117b3.txt, "Front options": "Each front ... on which the power is engaged can
pick a different option each game turn ... An offensive option ... allows all phases, air and
naval missions, mechanized movement and combat phases in clear weather".
"""

from __future__ import annotations

from grognard.engine import Command, Game
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.engine.testing import assert_rejected
from grognard.third_reich.movement.movement import mech_move_refusal
from grognard.third_reich.turn.options import MinorOption, OptionReadings

PATRONS = {"poland": "uk", "hungary": "germany"}
UK_ARMOR = """
[[units]]
id = "uk-arm1"
nationality = "british"
side = "allies"
type = "armor"
attack = 4
defense = 4
movement = 4
hex = "B2"
"""


def _game() -> Game:
    """tr-1939-support with a British armor unit on the western front beside the French."""
    sc = load_scenario("tr-1939-support")
    return Game(parse_scenario(sc.text + UK_ARMOR, "<test>"), 3)


def _to_allied_mech_movement(g: Game, **declared: dict[str, str]) -> None:
    while not (g.phase.name == "declare_options" and g.phase.player == "allies"):
        g.apply(Command("end_phase", g.phase.player, {}))
    for power, options in declared.items():
        g.apply(Command("declare_options", "allies", {"power": power, "options": options}))
    while not (g.phase.name == "mech_movement" and g.phase.player == "allies"):
        g.apply(Command("end_phase", g.phase.player, {}))


def _movers(g: Game) -> set[str]:
    return {c.args["unit"] for c in g.legal("allies", "move")}


def test_tr03_french_armor_has_no_mechanized_move_under_the_uks_offensive() -> None:
    g = _game()
    _to_allied_mech_movement(g, uk={"western": "offensive"}, france={"western": "pass"})
    assert g.state["options"]["allies"]["western"]["option"] == "offensive"  # the phase opens
    assert_rejected(g, Command("move", "allies", {"unit": "fr-arm2", "path": ["B3"]}),
                    "TR-03.*france's option on the western front is pass.*no mechanized")
    assert _movers(g) == {"uk-arm1"}  # game legal agrees with verify
    to = next(c for c in g.legal("allies", "move") if c.args["unit"] == "uk-arm1")
    (ev,) = g.apply(to)
    assert ev.data["phase"] == "mechanized" and ev.data["unit"] == "uk-arm1"


def test_tr03_uk_armor_has_no_mechanized_move_under_a_french_offensive() -> None:
    g = _game()
    _to_allied_mech_movement(g, france={"western": "offensive"})  # the UK declared nothing
    assert_rejected(g, Command("move", "allies", {"unit": "uk-arm1", "path": ["B3"]}),
                    "TR-03.*uk's option on the western front is pass")
    movers = _movers(g)
    assert "uk-arm1" not in movers and movers <= {"fr-arm1", "fr-arm2"} and movers


def test_tr22_a_minor_moves_under_its_patrons_offensive_only() -> None:
    declared = {"uk": {"western": "pass"}, "france": {"western": "offensive"},
                "germany": {"eastern": "offensive"}}
    assert mech_move_refusal(declared, "hungary", "eastern", PATRONS) is None
    r = mech_move_refusal(declared, "poland", "western", PATRONS)
    assert r is not None and r.rule == "TR-03" and "under uk's option" in r.reason
    wide = OptionReadings(minor_option=MinorOption.WIDEST)
    assert mech_move_refusal(declared, "poland", "western", PATRONS, ["uk", "france"],
                             wide) is None
    assert mech_move_refusal(declared, "persia", "southern", PATRONS) is not None  # no patron


def test_tr03_an_option_is_per_front_for_mechanized_movement() -> None:
    declared = {"germany": {"eastern": "offensive", "western": "attrition"}}
    assert mech_move_refusal(declared, "germany", "eastern", PATRONS) is None
    r = mech_move_refusal(declared, "germany", "western", PATRONS)
    assert r is not None and "attrition" in r.reason
