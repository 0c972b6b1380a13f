"""EuroFront's orders: one module per command kind, grouped by the rule-book section it drives.

Each module holds one :class:`~grognard.eurofront.orders.base.EFOrder`: its typed ``Args``
(only the player's choices), ``verify``, ``execute``, the folds of its events, ``legal``, its
words and its places on the map.

* EF-17/EF-18 Sequential Activation, :mod:`.activation`:
  ``roll_weather`` (:mod:`.activation.weather`, EF-17, EF-18 step 1),
  ``place_chit`` (:mod:`.activation.chit`, EF-18 steps 2-3),
  ``roll_initiative`` (:mod:`.activation.initiative`, EF-18 step 4, EF-17 surprise),
  ``activate_hq`` (:mod:`.activation.activate_hq`, EF-18 step 5),
  ``end_activation_phase`` (:mod:`.activation.end_activation_phase`, EF-17 supply).
* The activated HQ's operation, :mod:`.operation`:
  ``move`` (:mod:`.operation.move`, EF-18, EF-17),
  ``rail_move`` (:mod:`.operation.rail_move`, EF-17, EF-03),
  ``para_move`` (:mod:`.operation.para_move`, EF-09),
  ``airpower_disruption`` (:mod:`.operation.airpower_disruption`, EF-11..EF-16),
  ``end_operation`` (:mod:`.operation.end_operation`, the battles; EF-08, EF-12, EF-13).
* Battle decisions, :mod:`.battle`:
  ``take_loss`` (:mod:`.battle.take_loss`), ``retreat`` (:mod:`.battle.retreat`).
* Month-end production, :mod:`.production`:
  ``build`` (:mod:`.production.build`, EF-13),
  ``rebuild`` (:mod:`.production.rebuild`, EF-02, EF-13),
  ``allocate_uboats`` (:mod:`.production.allocate_uboats`, EF-04, EF-05),
  ``allocate_escorts`` (:mod:`.production.allocate_escorts`, EF-06),
  ``remove_apd_marker`` (:mod:`.production.remove_apd_marker`, EF-14),
  ``end_production`` (:mod:`.production.end_production`, EF-02, EF-04..EF-09, EF-14, EF-15).

:data:`ORDERS` lists them once (the rule system's commands and folds are built from it);
:func:`describe` and :func:`places` are the rule system's hooks for the layers above.
"""

from __future__ import annotations

from typing import Any

from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.orders import Words
from grognard.engine.system import Places
from grognard.eurofront.orders.activation.activate_hq import ActivateHQ
from grognard.eurofront.orders.activation.chit import PlaceChit
from grognard.eurofront.orders.activation.end_activation_phase import EndActivationPhase
from grognard.eurofront.orders.activation.initiative import RollInitiative
from grognard.eurofront.orders.activation.weather import RollWeather
from grognard.eurofront.orders.base import EFOrder
from grognard.eurofront.orders.battle.retreat import Retreat
from grognard.eurofront.orders.battle.take_loss import TakeLoss
from grognard.eurofront.orders.operation.airpower_disruption import AirpowerDisruption
from grognard.eurofront.orders.operation.end_operation import EndOperation
from grognard.eurofront.orders.operation.move import Move
from grognard.eurofront.orders.operation.para_move import ParaMove
from grognard.eurofront.orders.operation.rail_move import RailMove
from grognard.eurofront.orders.production.allocate_escorts import AllocateEscorts
from grognard.eurofront.orders.production.allocate_uboats import AllocateUboats
from grognard.eurofront.orders.production.build import Build
from grognard.eurofront.orders.production.end_production import EndProduction
from grognard.eurofront.orders.production.rebuild import Rebuild
from grognard.eurofront.orders.production.remove_apd_marker import RemoveApdMarker
from grognard.eurofront.state_types import EFState

ORDERS: tuple[EFOrder[Any], ...] = (
    RollWeather(),
    PlaceChit(),
    RollInitiative(),
    ActivateHQ(),
    EndActivationPhase(),
    Move(),
    RailMove(),
    ParaMove(),
    AirpowerDisruption(),
    EndOperation(),
    TakeLoss(),
    Retreat(),
    Build(),
    Rebuild(),
    AllocateUboats(),
    AllocateEscorts(),
    RemoveApdMarker(),
    EndProduction(),
)
BY_KIND: dict[str, EFOrder[Any]] = {o.kind: o for o in ORDERS}


def describe(ctx: Context, state: EFState, cmd: Command) -> Words:
    """``cmd`` in the rules' words (the ``describe`` hook)."""
    order = BY_KIND.get(cmd.kind)
    if order is None:
        words = cmd.kind.replace("_", " ")
        return Words(f"{cmd.player.title()}: {words}", words)
    return order.describe(ctx, state, cmd)


def places(cmd: Command) -> Places:
    """Where ``cmd`` acts on the map (the ``places`` hook)."""
    order = BY_KIND.get(cmd.kind)
    return Places() if order is None else order.places(cmd)


__all__ = ["BY_KIND", "ORDERS", "EFOrder", "describe", "places"]
