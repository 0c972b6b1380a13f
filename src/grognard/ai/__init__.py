"""grognard.ai: standard interfaces for game-AI research (optional ``ai`` dependency group).

* :func:`pettingzoo_env` - a PettingZoo AEC environment (observations from each player's view as
  arrays, action masks from the legal actions; :mod:`grognard.ai.encoding` documents the
  fixed-size action index).
* :func:`openspiel_game` - an OpenSpiel Python game (chance nodes for sampled dice, information
  states from the views).
"""

from __future__ import annotations

from typing import Any


def pettingzoo_env(scenario: Any, **kw: Any) -> Any:
    """The PettingZoo AEC environment of ``scenario`` (needs ``pettingzoo``)."""
    from grognard.ai.pz import pettingzoo_env as make

    return make(scenario, **kw)


def openspiel_game(scenario: str, **kw: Any) -> Any:
    """The OpenSpiel game of ``scenario`` (needs ``open_spiel``)."""
    from grognard.ai.spiel import load_game

    return load_game(scenario, **kw)


__all__ = ["openspiel_game", "pettingzoo_env"]
