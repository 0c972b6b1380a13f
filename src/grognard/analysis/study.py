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

import gc
import json
import os
import re
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grognard.bots.play import DEFAULT_MAX_COMMANDS, GameRecord, play_game
from grognard.core.errors import GrognardError, InputError
from grognard.engine.game import Game
from grognard.engine.save import load_game, save_game
from grognard.engine.scenario import Scenario, load_scenario, parse_scenario
from grognard.engine.state import copy_state

Record = dict[str, Any]
Progress = Callable[[Record], None]


@dataclass(frozen=True)
class Start:
    """Where a position study's games start: what ``--from`` named (a save, or a directory
    of saves) and each position's save and hash, in name order. The game with seed ``s``
    goes on from position ``s`` mod their count (so the seeds ``0 .. N-1`` go round them);
    a game is played only from that very position: a save changed since is refused."""

    source: str
    positions: tuple[tuple[str, str], ...]

    def position(self, seed: int) -> tuple[str, str]:
        """(save, state hash) of the position the game with ``seed`` starts from."""
        return self.positions[seed % len(self.positions)]


@dataclass(frozen=True)
class Setting:
    """One study setting: scenario, bots, readings, limits (and a label for reports)."""

    scenario: str
    bots: Mapping[str, str]
    readings: Mapping[str, Any] = field(default_factory=dict)
    max_commands: int = DEFAULT_MAX_COMMANDS
    max_turns: int | None = None
    label: str = "base"
    #: a position study: every game goes on from one of these positions (saves and their
    #: state hashes, :class:`Start`), each seed a fresh future of dice; None: from the
    #: scenario's start
    start: Start | None = None
    #: a directory each game's save is written to when it stops (``LABEL-SEED.json``: the
    #: positions a position study starts from); not part of the setting's identity
    saves: str | None = None

    def to_json(self) -> dict[str, Any]:
        raw = {"scenario": self.scenario, "bots": dict(sorted(self.bots.items())),
               "readings": dict(sorted(self.readings.items())),
               "max_commands": self.max_commands, "max_turns": self.max_turns,
               "label": self.label}
        if self.start is not None:  # only then: the stores of whole games keep their keys
            raw["start"] = {"from": self.start.source,
                            "positions": [list(p) for p in self.start.positions]}
        if self.saves is not None:
            raw["saves"] = self.saves
        return raw

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Setting:
        start = raw.get("start")
        return cls(str(raw["scenario"]), dict(raw["bots"]), dict(raw.get("readings", {})),
                   int(raw.get("max_commands", DEFAULT_MAX_COMMANDS)), raw.get("max_turns"),
                   str(raw.get("label", "base")),
                   Start(str(start["from"]), tuple((str(a), str(b))
                                                   for a, b in start["positions"]))
                   if isinstance(start, Mapping) else None,
                   str(raw["saves"]) if raw.get("saves") is not None else None)

    def key(self) -> str:
        """What identifies the setting in a store (everything but the label)."""
        raw = self.to_json()
        raw.pop("label")
        raw.pop("saves", None)
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


def scenario_patch(scenario: Scenario, changes: Mapping[str, Any]) -> Scenario:
    """The scenario with dotted ``changes`` to its TOML (``"a.b.c" = 85`` sets key ``c`` of
    table ``[a.b]``), parsed and checked like any scenario; a key the scenario already sets
    is refused (one line naming it).

    >>> sc = load_scenario("tr-1939-campaign")
    >>> p = scenario_patch(sc, {"third_reich.campaign.economy.france.base": 85,
    ...                         "third_reich.campaign.economy.france.brp": 85})
    >>> "[third_reich.campaign.economy.france]" in p.text, p.id
    (True, 'tr-1939-campaign')
    """
    tables: dict[str, list[str]] = {}
    for key, value in sorted(changes.items()):
        table, _, leaf = key.rpartition(".")
        if not table or not leaf or not isinstance(value, int | str | bool):
            raise InputError(f"--compare {key}", "a scenario change is TABLE.KEY=VALUE "
                             "(a number, true/false or text)")
        tables.setdefault(table, []).append(f"{leaf} = {json.dumps(value)}")
    text = scenario.text + "".join(f"\n[{t}]\n" + "\n".join(lines) + "\n"
                                   for t, lines in tables.items())
    try:
        return parse_scenario(text, scenario.file or scenario.id)
    except GrognardError as exc:
        raise InputError("--compare", f"cannot change {scenario.id}: {exc}") from None


def split_readings(readings: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A setting's readings (plain keys) and its scenario changes (dotted keys)."""
    plain = {k: v for k, v in readings.items() if "." not in k}
    return plain, {k: v for k, v in readings.items() if "." in k}


#: The collector's young-generation threshold during a game (Python's default is 700): a
#: bot game makes hundreds of thousands of short-lived objects (the move lister's commands)
#: and each young collection walks the young ones; measured in docs/PERFORMANCE.md, session 19.
GAME_GC_THRESHOLD = 10_000


@contextmanager
def game_collector(threshold: int = GAME_GC_THRESHOLD) -> Iterator[None]:
    """The garbage collector's setting around one game: what is alive on entry (the loaded
    scenario, its maps and tables, the new game) is frozen - moved out of the collector's
    generations, so the game's full collections do not walk it again - and the young
    threshold is raised to ``threshold``. On exit, also when the game raises, the threshold is
    restored, what was frozen unfrozen (back in the oldest generation) and one full collection
    run, so nothing - neither the setting nor the game's garbage - carries over to the next game
    or the caller's process. If the caller has
    frozen objects already, they are left frozen and nothing more is frozen.

    >>> before = gc.get_threshold()
    >>> with game_collector(5000):
    ...     gc.get_threshold()[0]
    5000
    >>> gc.get_threshold() == before
    True
    """
    before = gc.get_threshold()
    freeze = gc.get_freeze_count() == 0
    if freeze:
        gc.freeze()
    gc.set_threshold(threshold, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        if freeze:
            gc.unfreeze()
            # The game's cyclic garbage that reached the oldest generation was never walked
            # (no full collection ran in the game): collect it now, or the next game's freeze
            # would keep it for good and a worker's memory would grow game by game.
            gc.collect()


def play_one(setting: Mapping[str, Any], seed: int) -> Record:
    """Play one seeded game of a setting; its :class:`~grognard.bots.play.GameRecord` JSON.

    A dotted reading key (``third_reich.campaign.economy.france.base``) changes the scenario
    (:func:`scenario_patch`); the others are the game's readings. A game that runs out of
    memory is recorded as failed (``end = "error"``), not lost with the study. The game is
    played under :func:`game_collector` (the collector's setting for that game only)."""
    s = Setting.from_json(setting)
    plain, changes = split_readings(s.readings)
    if s.start is not None:
        try:
            game = position_game(s.start, seed, plain)
        except GrognardError as exc:
            return failed_game(s, seed, str(exc))
    else:
        sc = load_scenario(s.scenario)
        if changes:
            sc = scenario_patch(sc, changes)
        game = Game(sc, seed, readings={**sc.readings, **plain})
    try:
        with game_collector():
            rec = play_game(game, s.bots, seed=seed, max_commands=s.max_commands,
                            max_turns=s.max_turns)
    except MemoryError:
        del game
        return failed_game(s, seed, "out of memory")
    if s.saves is not None:
        Path(s.saves).mkdir(parents=True, exist_ok=True)
        save_game(game, save_path(s, seed))
    return rec.to_json()


def save_path(setting: Setting, seed: int) -> Path:
    """Where a game of ``setting`` (with its ``saves`` directory) writes its save: the
    label (letters, digits, ``.``, ``-`` kept, the rest ``_``) and the seed.

    >>> save_path(Setting("x", {}, label="base", saves="pos"), 7).as_posix()
    'pos/base-7.json'
    """
    label = re.sub(r"[^A-Za-z0-9.-]", "_", setting.label)
    return Path(setting.saves or ".") / f"{label}-{seed}.json"


#: the positions this process has read (save path -> its hash, state and what a game needs
#: besides): a worker reads each save of a position study once, not once a game
_POSITIONS: dict[str, tuple[str, Any, Scenario, Any, Any, dict[str, Any]]] = {}


def position_game(start: Start, seed: int, readings: Mapping[str, Any] | None = None
                  ) -> Game:
    """A game that goes on from ``start``'s position for ``seed`` (:meth:`Start.position`)
    with fresh dice from ``seed`` (no stream drawn yet): the save's scenario, tables and
    readings (``readings`` added), its state copied, no command log of its own before it - a
    what-if from that position, each seed another future. The save must still hold the
    position the study was set up on.

    >>> import tempfile
    >>> from grognard.engine.save import save_game
    >>> g = Game(load_scenario("demo-europa"), 1)
    >>> path = tempfile.mkdtemp() + "/demo.json"
    >>> _ = save_game(g, path)
    >>> a = position_game(Start(path, ((path, g.state_hash()),)), 5)
    >>> a.state_hash() == g.state_hash(), len(a.commands), a.seed
    (True, 0, 5)
    """
    save, state_hash = start.position(seed)
    got = _POSITIONS.get(save)
    if got is None or got[0] != state_hash:
        base = load_game(save, verify=False)  # checked by the study, then by its hash
        if base.state_hash() != state_hash:
            raise InputError(save, "this save's position is not the one the study started "
                             "from (the save was changed): start a new study")
        ours = dict(start.positions)
        for other in [k for k in _POSITIONS if k not in ours]:
            del _POSITIONS[other]  # another study's positions
        got = (state_hash, base.state, base.scenario, base.system, base.context.tables,
               dict(base.readings))
        _POSITIONS[save] = got
    _h, state, scenario, system, tables, saved = got
    return Game.from_position(scenario, seed, copy_state(state), system=system, tables=tables,
                              readings={**saved, **(readings or {})})


def failed_game(setting: Setting, seed: int, why: str) -> Record:
    """The record of a game that could not be played to its end (``end = "error"``: counted
    apart from the results, never as a draw)."""
    return GameRecord(load_scenario(setting.scenario).id, seed, dict(setting.bots),
                      end="error", error=why).to_json()


Job = tuple[Setting, int]

#: Why a job whose worker process died is recorded as failed.
WORKER_DIED = "its worker process died (killed, e.g. by the out-of-memory killer)"


def _local(jobs: list[Job], workers: int) -> Iterable[tuple[Setting, Record]]:
    """The jobs on ``workers`` processes, at most ``workers`` games in flight. A worker that
    dies (the out-of-memory killer) breaks the pool and the games in flight with it: each of
    those is played again alone in its own process - a game that kills it again is recorded
    as failed (:data:`WORKER_DIED`) - and the rest go on in a fresh pool."""
    if workers <= 1:
        for setting, seed in jobs:
            yield setting, play_one(setting.to_json(), seed)
        return
    todo = deque(jobs)
    while todo:
        for job in (yield from _pool(todo, workers)):
            if (yield from _pool(deque([job]), 1)):
                yield job[0], failed_game(job[0], job[1], WORKER_DIED)


def _pool(todo: deque[Job], workers: int
          ) -> Generator[tuple[Setting, Record], None, list[Job]]:
    """Play jobs taken from ``todo`` on one process pool until it is empty or the pool
    breaks; returns the jobs that were in flight when it broke."""
    with ProcessPoolExecutor(max_workers=workers) as pool:
        running: dict[Future[Record], Job] = {}
        while todo or running:
            while todo and len(running) < workers:
                setting, seed = job = todo.popleft()
                running[pool.submit(play_one, setting.to_json(), seed)] = job
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            lost: list[Job] = []
            for f in done:
                job = running.pop(f)
                if isinstance(f.exception(), BrokenProcessPool):
                    lost.append(job)
                else:
                    yield job[0], f.result()
            if lost:
                return [*lost, *running.values()]
    return []


#: Ray settings that make a local instance start faster and more surely on a busy machine:
#: no dashboard, no usage report, the loopback address, the smallest object store.
LOCAL_RAY: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                             "configure_logging": False, "_node_ip_address": "127.0.0.1",
                             "object_store_memory": 80 * 1024 * 1024}
#: Ray's own time limits, raised for a busy machine (the raylet waits for the agent's port file
#: and the workers' registration; the defaults fail under load), and its metrics off.
RAY_ENV = {"RAY_ENABLE_UV_RUN_RUNTIME_ENV": "0", "RAY_USAGE_STATS_ENABLED": "0",
           "RAY_enable_metrics_collection": "0", "RAY_gcs_server_port_wait_time_s": "180",
           "RAY_raylet_start_wait_time_s": "300", "RAY_agent_register_timeout_ms": "300000",
           "RAY_worker_register_timeout_seconds": "300",
           "RAY_gcs_rpc_server_reconnect_timeout_s": "300",
           "RAY_gcs_rpc_server_connect_timeout_s": "60"}


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise InputError("--address", "Ray is not installed (uv sync --group ai)") from None
    for k, v in RAY_ENV.items():
        os.environ.setdefault(k, v)
    return ray


def start_local_ray(workers: int = 1, attempts: int = 3) -> None:
    """Start a local Ray instance with ``workers`` CPUs (:data:`LOCAL_RAY`).

    Ray gives its node 30 s to come up; on a loaded machine it may not, so the start is tried
    ``attempts`` times (each failed try is shut down first) before the error is raised.
    """
    ray = _import_ray()
    for attempt in range(attempts):
        before = _children()
        try:
            ray.init(address="local", num_cpus=max(1, workers), **LOCAL_RAY)
            return
        except Exception:  # Ray raises plain Exception when its node does not start in time
            ray.shutdown()
            _stop(_children() - before)  # what the failed start left running
            if attempt == attempts - 1:
                raise


def _children() -> set[int]:
    """This process's child processes (Linux ``/proc``; empty elsewhere)."""
    me = os.getpid()
    out: set[int] = set()
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        if int(stat.rpartition(")")[2].split()[1]) == me:
            out.add(int(name))
    return out


def _stop(pids: set[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, os.WNOHANG)
        except (OSError, ChildProcessError):
            pass


def _ray(jobs: list[Job], address: str, workers: int) -> Iterable[tuple[Setting, Record]]:
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        if address == "local":
            start_local_ray(workers)
        else:
            ray.init(address=address, log_to_driver=False)
        started = True
    try:
        task = ray.remote(play_one)
        pending = {task.remote(setting.to_json(), seed): setting for setting, seed in jobs}
        waiting = list(pending)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            yield pending[done[0]], ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


def run_jobs(jobs: list[Job], workers: int = 1, address: str | None = None
             ) -> Iterable[tuple[Setting, Record]]:
    """Play each (setting, seed) job: in this process (1 worker), on ``workers`` local
    processes, or as Ray tasks when ``address`` is given ("local" starts a local Ray);
    yields each job's setting and record as the game ends (in any order)."""
    if workers < 1:
        raise InputError("--workers", "at least 1")
    if address is not None:
        return _ray(jobs, address, workers)
    return _local(jobs, workers)


def run_games(setting: Setting, seeds: list[int], workers: int = 1,
              address: str | None = None) -> Iterable[Record]:
    """Play ``seeds`` of ``setting`` (see :func:`run_jobs`)."""
    return (rec for _s, rec in run_jobs([(setting, seed) for seed in seeds], workers, address))
