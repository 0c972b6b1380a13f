"""TR-38/TR-39 (issue 23 item 4): "The side taking the losses decides which units to remove,
but they must be units adjacent to his attrition opponent's ground units"; 1-3 infantry count
1/2 (a 1-3 counter: 1 factor, 3 MPs). combat/attrition.attrition_removal_choices lists that side's legal choices (for its own
decision; the engine may decide only a forced single one)."""

from __future__ import annotations

from grognard.third_reich.combat.attrition import (
    attrition_removal_choices,
    verify_attrition_removal,
)
from grognard.third_reich.turn.forces import GroundKind, GroundUnit, Side


def u(uid: str, kind: GroundKind, factors: int) -> GroundUnit:
    return GroundUnit(uid, "german", Side.AXIS, kind, factors)


FRONT = [u("inf4", GroundKind.INFANTRY, 4), u("inf1a", GroundKind.INFANTRY, 1),
         u("inf1b", GroundKind.INFANTRY, 1), u("arm5", GroundKind.ARMOR, 5),
         u("rep", GroundKind.REPLACEMENT, 1), u("rear", GroundKind.INFANTRY, 4)]
ADJ = [True, True, True, True, True, False]


def test_tr39_every_choice_passes_verify_and_the_loser_has_a_real_choice() -> None:
    choices = attrition_removal_choices(1, FRONT, ADJ)
    assert ("inf4",) in choices and ("arm5",) in choices
    assert ("inf1a", "inf1b") in choices          # two 1-3s (halves) make one unit
    assert all("rep" not in c and "rear" not in c for c in choices)  # TR-71, not adjacent
    assert ("inf1a",) not in choices               # half a unit is not enough
    for c in choices:
        verify_attrition_removal(1, FRONT, ADJ, list(c))
    assert len(choices) == len(set(choices)) == 3


def test_tr39_a_forced_choice_is_single_and_nothing_owed_is_empty() -> None:
    front = [u("inf4", GroundKind.INFANTRY, 4), u("rep", GroundKind.REPLACEMENT, 1)]
    assert attrition_removal_choices(1, front, [True, True]) == [("inf4",)]
    assert attrition_removal_choices(3, front, [True, True]) == [("inf4",)]  # all there is
    assert attrition_removal_choices(0, FRONT, ADJ) == []
    assert attrition_removal_choices(2, FRONT, ADJ, limit=2) == \
        attrition_removal_choices(2, FRONT, ADJ)[:2]


def _every_accepted_set(required: int, front: list[GroundUnit], adj: list[bool]
                        ) -> list[tuple[str, ...]]:
    """The definition: every set of units verify accepts, smallest first, in id order."""
    import itertools

    from grognard.core.errors import IllegalOrder

    ids = sorted(x.id for x in front)
    out = []
    for size in range(1, len(ids) + 1):
        for combo in itertools.combinations(ids, size):
            try:
                verify_attrition_removal(required, front, adj, list(combo))
            except IllegalOrder:
                continue
            out.append(combo)
    return out


def test_tr39_the_choices_are_exactly_the_sets_verify_accepts_on_random_fronts() -> None:
    """TR-39: the listing (built from the whole and half units a set needs, so a long front
    costs the sets listed, not every combination) equals the brute-force definition."""
    import random

    rng = random.Random(39)
    for _ in range(400):
        front = [u(f"u{i}", rng.choice([GroundKind.INFANTRY, GroundKind.ARMOR,
                                        GroundKind.REPLACEMENT]), rng.choice([1, 1, 2, 4]))
                 for i in range(rng.randint(1, 8))]
        adj = [rng.random() < 0.85 for _ in front]
        required = rng.randint(1, 4)
        want = _every_accepted_set(required, front, adj)
        assert attrition_removal_choices(required, front, adj) == want
        assert attrition_removal_choices(required, front, adj, limit=3) == want[:3]


def test_tr39_a_long_front_lists_its_first_choices_at_once() -> None:
    """A 60-unit front owing 8 losses (the case that took 12 s a decision late in a
    campaign): the first 64 sets come without trying every combination of 7 units."""
    front = [u(f"inf{i:02d}", GroundKind.INFANTRY, 1 if i % 3 else 4) for i in range(60)]
    adj = [True] * 60
    got = attrition_removal_choices(8, front, adj, limit=64)
    assert len(got) == 64 and all(len(c) >= 8 for c in got)
    for c in got[:5]:
        verify_attrition_removal(8, front, adj, list(c))
