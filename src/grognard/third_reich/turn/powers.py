"""TR-01 (Fixed turn order): the powers, the sides they play on and the fixed turn order.

The Axis always moves first; in a three-player game the USSR moves second and the Western
Allies (UK, France, US) last. Teams are the only way to have more than three players: the USSR
is always one player, the Western Allies may split into UK and France+US, the Axis into Germany
and Italy; partners move together with a single combat phase.

>>> [b.value for b in turn_order(3)]
['axis', 'ussr', 'western_allies']
>>> [b.value for b in turn_order(2)]
['axis', 'allies']
"""

from __future__ import annotations

from enum import StrEnum

from grognard.core.errors import InputError, member


class Power(StrEnum):
    """The six great powers of Revised Third Reich, in movement order."""

    GERMANY = "germany"
    ITALY = "italy"
    USSR = "ussr"
    UK = "uk"
    FRANCE = "france"
    US = "us"


class Block(StrEnum):
    """A player-turn block of TR-01: the powers that move together."""

    AXIS = "axis"
    USSR = "ussr"
    WESTERN_ALLIES = "western_allies"
    ALLIES = "allies"  # the USSR and the Western Allies together in a 2-player game


#: TR-01 / TR-09: movement order of the powers (Year Start runs in this order too).
MOVEMENT_ORDER: tuple[Power, ...] = tuple(Power)
MAJORS: tuple[str, ...] = tuple(p.value for p in MOVEMENT_ORDER)

BLOCK_POWERS: dict[Block, tuple[Power, ...]] = {
    Block.AXIS: (Power.GERMANY, Power.ITALY),
    Block.USSR: (Power.USSR,),
    Block.WESTERN_ALLIES: (Power.UK, Power.FRANCE, Power.US),
    Block.ALLIES: (Power.USSR, Power.UK, Power.FRANCE, Power.US),
}

AXIS_POWERS = frozenset(BLOCK_POWERS[Block.AXIS])


def parse_power(value: str, field: str = "power") -> Power:
    """A :class:`Power` from its name, or an :class:`InputError` naming ``field``."""
    try:
        return member(Power, str(value).lower())
    except ValueError:
        raise InputError(field, f"unknown power {value!r} (one of "
                         f"{', '.join(p.value for p in Power)})") from None


def is_axis(power: Power) -> bool:
    return power in AXIS_POWERS


def turn_order(players: int = 3) -> tuple[Block, ...]:
    """TR-01 (Fixed turn order): the blocks in the order they move each game turn.

    Two players: Axis then Allies. Three or more (teams): Axis, USSR, Western Allies.
    """
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise InputError("players", f"Revised Third Reich needs at least 2 players, not {players}")
    if players == 2:
        return (Block.AXIS, Block.ALLIES)
    if players > 5:
        raise InputError("players", "at most 5 players: USSR, UK, France+US, Germany, Italy")
    return (Block.AXIS, Block.USSR, Block.WESTERN_ALLIES)


def teams(players: int) -> tuple[tuple[Power, ...], ...]:
    """TR-01: the player seats for ``players`` players (teams move together).

    >>> [[p.value for p in seat] for seat in teams(5)][:2]
    [['germany'], ['italy']]
    """
    order = turn_order(players)
    if players == 2:
        return tuple(BLOCK_POWERS[b] for b in order)
    seats: list[tuple[Power, ...]] = []
    axis_split = players >= 5
    wa_split = players >= 4
    if axis_split:
        seats += [(Power.GERMANY,), (Power.ITALY,)]
    else:
        seats.append(BLOCK_POWERS[Block.AXIS])
    seats.append((Power.USSR,))
    if wa_split:
        seats += [(Power.UK,), (Power.FRANCE, Power.US)]
    else:
        seats.append(BLOCK_POWERS[Block.WESTERN_ALLIES])
    return tuple(seats)


class Action(StrEnum):
    """What an order does to a country's territory (the rule that refuses it differs:
    ``conquest/diplomacy.may_enter``; every section's orders name the action they take)."""

    MOVE = "move"              # land movement, retreat, advance
    ATTACK = "attack"          # land attack, attrition, air support, bombardment
    ZOC = "zoc"                # a ZOC projected into the country
    SR = "sr"                  # a land or sea SR path or destination
    SUPPLY = "supply"          # a supply line (TR-72) traced through the country
    AIR = "air"                # air staging, basing, missions, counter air, airdrop
    NAVAL = "naval"            # naval mission, transport, invasion
    STRATEGIC = "strategic"    # strategic warfare, city bombing
    LEND_LEASE = "lend_lease"  # BRPs sent to the country
