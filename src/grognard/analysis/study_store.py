"""A study's results in SQLite: one row per (setting, seed), so a study resumes and extends.

``settings(key, label, spec)`` holds each setting (its key is its JSON without the label);
``games(setting, seed, record)`` each finished game's record (JSON). A game is stored when it
ends, so an interrupted study keeps every finished game and the next run plays the rest.

>>> store = StudyStore(":memory:")
>>> from grognard.analysis.study import Setting
>>> s = Setting("demo-europa", {"axis": "random", "soviet": "random"})
>>> store.add(s, {"seed": 4, "end": "stuck"})
>>> store.missing(s, range(3, 6)), len(store.records(s))
([3, 5], 1)
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from grognard.analysis.study import Record, Setting

SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, label TEXT NOT NULL, spec TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (setting TEXT NOT NULL, seed INTEGER NOT NULL,
                                  record TEXT NOT NULL, PRIMARY KEY (setting, seed));
"""


class StudyStore:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.db = sqlite3.connect(self.path)
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def _register(self, s: Setting) -> str:
        key = s.key()
        self.db.execute("INSERT INTO settings(key, label, spec) VALUES (?, ?, ?) "
                        "ON CONFLICT(key) DO UPDATE SET label = excluded.label",
                        (key, s.label, json.dumps(s.to_json(), sort_keys=True)))
        return key

    def add(self, s: Setting, record: Record) -> None:
        key = self._register(s)
        self.db.execute("INSERT OR REPLACE INTO games(setting, seed, record) VALUES (?, ?, ?)",
                        (key, int(record["seed"]), json.dumps(record, sort_keys=True)))
        self.db.commit()

    def seeds(self, s: Setting) -> set[int]:
        rows = self.db.execute("SELECT seed FROM games WHERE setting = ?", (s.key(),))
        return {int(r[0]) for r in rows}

    def missing(self, s: Setting, seeds: Iterable[int]) -> list[int]:
        have = self.seeds(s)
        return [x for x in seeds if x not in have]

    def records(self, s: Setting, seeds: Iterable[int] | None = None) -> list[Record]:
        rows = self.db.execute("SELECT seed, record FROM games WHERE setting = ? ORDER BY seed",
                               (s.key(),))
        want = None if seeds is None else set(seeds)
        out: list[Record] = []
        for seed, text in rows:
            if want is None or int(seed) in want:
                rec: dict[str, Any] = json.loads(text)
                out.append(rec)
        return out
