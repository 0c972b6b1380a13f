"""Studies: many seeded bot games of one scenario, run on local processes or a Ray cluster.

A :class:`Setting` is what one game needs besides its seed: the scenario, a bot per side, the
readings in force and the limits. Game ``i`` of a study is played with seed ``first_seed + i``,
so a study is reproducible and can be extended: :func:`run_study` plays only the seeds its
store (:mod:`grognard.analysis.study_store`) does not hold yet. :func:`play_one` is the whole
work of one game (a plain function of plain data, so it runs the same in this process, in a
``ProcessPoolExecutor`` worker, or as a Ray task).

>>> s = Setting("demo-europa", {"axis": "random", "soviet": "random"}, max_turns=1)
>>> play_one(s.to_json(), 3)["seed"]
3
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from grognard.bots.play import DEFAULT_MAX_COMMANDS, play_game
from grognard.core.errors import InputError
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario

Record = dict[str, Any]
Progress = Callable[[Record], None]


@dataclass(frozen=True)
class Setting:
    """One study setting: scenario, bots, readings, limits (and a label for reports)."""

    scenario: str
    bots: Mapping[str, str]
    readings: Mapping[str, Any] = field(default_factory=dict)
    max_commands: int = DEFAULT_MAX_COMMANDS
    max_turns: int | None = None
    label: str = "base"

    def to_json(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "bots": dict(sorted(self.bots.items())),
                "readings": dict(sorted(self.readings.items())),
                "max_commands": self.max_commands, "max_turns": self.max_turns,
                "label": self.label}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Setting:
        return cls(str(raw["scenario"]), dict(raw["bots"]), dict(raw.get("readings", {})),
                   int(raw.get("max_commands", DEFAULT_MAX_COMMANDS)), raw.get("max_turns"),
                   str(raw.get("label", "base")))

    def key(self) -> str:
        """What identifies the setting in a store (everything but the label)."""
        raw = self.to_json()
        raw.pop("label")
        return json.dumps(raw, sort_keys=True, separators=(",", ":"))


def parse_value(text: str) -> Any:
    """A reading's value from the command line: JSON if it parses (60, true, "x"), else text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_readings(pairs: Iterable[str], where: str = "--reading") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in pairs:
        key, sep, value = p.partition("=")
        if not sep or not key.strip():
            raise InputError(where, f"{p!r} is not KEY=VALUE")
        out[key.strip()] = parse_value(value.strip())
    return out


def play_one(setting: Mapping[str, Any], seed: int) -> Record:
    """Play one seeded game of a setting; its :class:`~grognard.bots.play.GameRecord` JSON."""
    s = Setting.from_json(setting)
    sc = load_scenario(s.scenario)
    readings = {**sc.readings, **s.readings}
    game = Game(sc, seed, readings=readings)
    rec = play_game(game, s.bots, seed=seed, max_commands=s.max_commands,
                    max_turns=s.max_turns)
    return rec.to_json()


def _local(setting: Setting, seeds: list[int], workers: int, progress: Progress | None
           ) -> Iterable[Record]:
    raw = setting.to_json()
    if workers <= 1:
        for seed in seeds:
            yield play_one(raw, seed)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_one, raw, seed) for seed in seeds]
        for f in as_completed(futures):
            yield f.result()


def _ray(setting: Setting, seeds: list[int], address: str, workers: int
         ) -> Iterable[Record]:
    try:
        import ray
    except ImportError:
        raise InputError("--address", "Ray is not installed (uv sync --group ai)") from None
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    started = False
    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
        started = True
    try:
        task = ray.remote(play_one)
        raw = setting.to_json()
        pending = [task.remote(raw, seed) for seed in seeds]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


def run_games(setting: Setting, seeds: list[int], workers: int = 1,
              address: str | None = None) -> Iterable[Record]:
    """Play ``seeds`` of ``setting``: in this process (1 worker), on ``workers`` local
    processes, or as Ray tasks when ``address`` is given ("local" starts a local Ray)."""
    if workers < 1:
        raise InputError("--workers", "at least 1")
    if address is not None:
        return _ray(setting, seeds, address, workers)
    return _local(setting, seeds, workers, None)
