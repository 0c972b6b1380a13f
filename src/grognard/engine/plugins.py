"""Which rule systems exist and where each registers itself (the registry of engine/system.py).

A rule package registers its :class:`~grognard.engine.system.RuleSystem` when its module is
imported; the engine imports that module by name on first use (lazily), so it never imports a
rule package statically and the layers stay one-way. Kept apart from engine/system.py so that
engine/scenario.py can ask the scenario's system for its section without an import circle.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from grognard.engine.system import RuleSystem

_SYSTEMS: dict[str, RuleSystem] = {}

#: Where each rule package registers its system. Imported by name on first use, so the engine
#: never imports a rule package statically (the layers stay one-way).
PLUGINS: dict[str, str] = {
    "generic": "grognard.engine.generic",
    "europa": "grognard.europa.play.system",
    "third_reich": "grognard.third_reich.play.system",
    "eurofront": "grognard.eurofront.system",
}


def system_names() -> list[str]:
    """The names a scenario's ``[scenario] system`` may take: every plugin's and every system
    registered already (no rule package is imported)."""
    return sorted({*PLUGINS, *_SYSTEMS})


def register_system(system: RuleSystem) -> None:
    _SYSTEMS[system.name] = system


def system_named(name: str) -> RuleSystem:
    """The system a scenario names; the generic one when no package registers that name."""
    for wanted in (name, "generic"):
        if wanted not in _SYSTEMS and wanted in PLUGINS:
            try:
                importlib.import_module(PLUGINS[wanted])
            except ModuleNotFoundError as exc:
                if exc.name != PLUGINS[wanted]:
                    raise
    return _SYSTEMS.get(name) or _SYSTEMS["generic"]


def registered_systems() -> list[str]:
    for name in PLUGINS:
        system_named(name)
    return sorted(_SYSTEMS)
