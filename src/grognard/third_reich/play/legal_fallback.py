"""Enumerators for the ``third_reich`` commands that have none of their own yet.

:func:`~grognard.third_reich.play.system_campaign.install` gives a command kind one of these only
when its spec has no ``legal`` (the command modules' own enumerators take precedence). Each
proposes candidates and keeps those that pass the command's verify.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from grognard.engine.commands import Command, CommandSpec
from grognard.engine.context import Context
from grognard.engine.state import JSON
from grognard.third_reich.play.system_common import _econ, _side_powers
from grognard.third_reich.turn.options import Front

Proposer = Callable[[Context, JSON, str], Iterable[Command]]


def _plain(kind: str) -> Proposer:
    def propose(ctx: Context, state: JSON, player: str) -> Iterable[Command]:
        return [Command(kind, player, {})]
    return propose


def _payers(state: JSON, player: str) -> list[str]:
    econ = {p.value for p in _econ(state).powers}
    return [p for p in _side_powers(state, player) if p in econ]


def _options(ctx: Context, state: JSON, player: str) -> Iterable[Command]:
    """TR-03: per power, an offensive or attrition on one front (the rest pass), or all pass."""
    out = []
    for power in _payers(state, player):
        out.append(Command("declare_options", player, {
            "power": power, "options": {f.value: "pass" for f in Front}}))
        for f in Front:
            for opt in ("offensive", "attrition"):
                out.append(Command("declare_options", player, {
                    "power": power, "options": {f.value: opt}}))
    return out


def _wars(ctx: Context, state: JSON, player: str) -> Iterable[Command]:
    """TR-25: war on each neutral minor, and on each enemy major not yet at war."""
    camp = state.get("campaign", {})
    neutral = sorted(n for n, m in camp.get("minors", {}).items() if m["status"] == "neutral")
    out = []
    for power in _payers(state, player)[:1]:
        for n in neutral:
            out.append(Command("declare_war", player, {"power": power, "minors": [n]}))
        for major, side in sorted(state["power_sides"].items()):
            if side != player and major in {p.value for p in _econ(state).powers}:
                out.append(Command("declare_war", player, {"power": power, "majors": [major]}))
    return out


PROPOSERS: dict[str, Proposer] = {
    "declare_options": _options,
    "declare_war": _wars,
}


def with_fallback(spec: CommandSpec) -> CommandSpec:
    """``spec`` with an enumerator if it has none and a proposer exists for its kind."""
    propose = PROPOSERS.get(spec.kind)
    if spec.legal is not None or propose is None:
        return spec
    return spec.with_proposer(propose)


__all__ = ["PROPOSERS", "with_fallback"]
