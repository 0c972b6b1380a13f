"""Which rule systems exist and where each registers itself (the registry of engine/system.py).

A rule package registers its :class:`~grognard.engine.system.RuleSystem` when its module is
imported and names that module in an entry point of the ``grognard.systems`` group
(pyproject.toml); the engine reads the entry points and imports a system's module by name on
first use (lazily), so it never names or imports a rule package and the layers stay one-way.
Kept apart from engine/system.py so that engine/scenario.py can ask the scenario's system for
its section without an import circle.
"""

from __future__ import annotations

import functools
import importlib
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from grognard.engine.system import RuleSystem

_SYSTEMS: dict[str, RuleSystem] = {}

#: The entry-point group where a package names the module that registers each of its systems
#: (pyproject.toml ``[project.entry-points."grognard.systems"]``: ``name = "module"``).
GROUP = "grognard.systems"
#: The engine's own system (engine/generic.py): runs a scenario whose system registers none.
GENERIC = "generic"


@functools.cache
def plugins() -> dict[str, str]:
    """System name -> the module that registers it: the engine's generic system and every
    ``grognard.systems`` entry point of the installed packages (read once)."""
    found = {ep.name: ep.value.partition(":")[0] for ep in entry_points(group=GROUP)}
    return {GENERIC: "grognard.engine.generic", **dict(sorted(found.items()))}


def system_names() -> list[str]:
    """The names a scenario's ``[scenario] system`` may take: every plugin's and every system
    registered already (no rule package is imported)."""
    return sorted({*plugins(), *_SYSTEMS})


def register_system(system: RuleSystem) -> None:
    _SYSTEMS[system.name] = system


def system_named(name: str) -> RuleSystem:
    """The system a scenario names; the generic one when no package registers that name."""
    known = plugins()
    for wanted in (name, GENERIC):
        if wanted not in _SYSTEMS and wanted in known:
            try:
                importlib.import_module(known[wanted])
            except ModuleNotFoundError as exc:
                if exc.name != known[wanted]:
                    raise
    return _SYSTEMS.get(name) or _SYSTEMS[GENERIC]


def registered_systems() -> list[str]:
    """Every plugin's system, each imported (so registered), by name."""
    for name in plugins():
        system_named(name)
    return sorted(_SYSTEMS)
