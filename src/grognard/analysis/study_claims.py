"""Study files and the designers' claims they measure.

A study file (``studies/*.toml``) holds a ``[study]`` table: ``id``, ``claim`` (the designer's
words), ``source``, ``scenario``, ``games``, ``bots``, ``max_turns``, ``[study.readings]``,
``[study.compare]`` (a second setting), and ``[study.measure]`` naming how the claim is measured:

* ``kind = "capital_falls_by"``, ``capital``, ``by_turn``: the share of games in which the capital
  changed hands at or before that turn (with its 95% interval), per setting;
* ``kind = "brp_parity"``, ``powers``, ``against``, ``turns``: the mean BRPs of ``powers`` and of
  ``against`` at the end of those turns, and the share of games in which the first reach
  parity (>=) at every one of them; ``of = "base"`` compares the BRP bases (the income of
  each Year Start, TR-11) instead of the BRPs on hand (``of = "brp"``, the default);
* ``kind = "same_turn_falls"``, ``capitals``, ``turns``: the share of games in which all the
  capitals fell in one and the same turn among ``turns``;
* ``kind = "falls_in_turns"``, ``capitals``, ``turns`` (one turn per capital, in order): the
  share of games in which each capital fell in its own turn (a sequence: Copenhagen in turn 2,
  then Oslo in turn 3).

The measure is whatever the games give; a claim whose facts the scenario does not produce (no
capital changes hands, no economy) is reported as not measurable, not as refuted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from grognard.analysis.study import Record
from grognard.analysis.study_report import wilson
from grognard.core.errors import InputError
from grognard.core.inputs import InputFileError, convert, load_toml_file

MEASURES = ("capital_falls_by", "brp_parity", "same_turn_falls", "falls_in_turns")


Value = int | str | bool
Count = Annotated[int, msgspec.Meta(ge=1, le=1_000_000)]
Turn = Annotated[int, msgspec.Meta(ge=0, le=10_000)]
Text = Annotated[str, msgspec.Meta(max_length=2_000)]


class _Measure(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    kind: Literal["capital_falls_by", "brp_parity", "same_turn_falls", "falls_in_turns"]
    capital: Text | None = None
    by_turn: Turn | None = None
    powers: list[Text] | None = None
    against: list[Text] | None = None
    capitals: list[Text] | None = None
    turns: list[Turn] | None = None
    of: Literal["brp", "base"] = "brp"


_NEEDS = {"capital_falls_by": ("capital", "by_turn"),
          "brp_parity": ("powers", "against", "turns"),
          "same_turn_falls": ("capitals", "turns"),
          "falls_in_turns": ("capitals", "turns")}


class _Study(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    scenario: Annotated[str, msgspec.Meta(min_length=1, max_length=1_000)]
    claim: Text = ""
    source: Text = ""
    games: Count | None = None
    bots: Text | None = None
    max_turns: Turn | None = None
    max_commands: Count | None = None
    readings: dict[Text, Value] = msgspec.field(default_factory=dict)
    compare: dict[Text, Value] = msgspec.field(default_factory=dict)
    compare_bots: Text | None = None
    measure: _Measure | None = None


def load_study_file(path: Path) -> dict[str, Any]:
    """Read a study file's ``[study]`` table through the input gate (size, UTF-8, depth,
    digits; then a typed schema: ``games`` a whole number from 1, ``readings`` and ``compare``
    tables of values, ``measure`` one of :data:`MEASURES` with its fields). Errors are one line
    naming the file and the field."""
    raw = load_toml_file(path, "study file")
    if not isinstance(raw.get("study"), dict):
        raise InputError(f"{path}", "a study file needs a [study] table")
    study = convert(raw["study"], _Study, str(path), "study")
    if study.measure is not None:
        missing = [f for f in _NEEDS[study.measure.kind]
                   if getattr(study.measure, f) is None]
        if missing:
            raise InputFileError(str(path), f"a {study.measure.kind} measure needs "
                                 f"{', '.join(missing)}", field="study.measure")
        if study.measure.kind == "falls_in_turns" and \
                len(study.measure.capitals or ()) != len(study.measure.turns or ()):
            raise InputFileError(str(path), "a falls_in_turns measure needs one turn per "
                                 "capital", field="study.measure.turns")
    spec: dict[str, Any] = msgspec.to_builtins(study)
    return spec


def _share(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"games": n, "yes": k, "rate": f"{k / n if n else 0:.3f}",
            "ci95": [f"{lo:.3f}", f"{hi:.3f}"]}


def _fell_turn(rec: Record, capital: str) -> int | None:
    fall = rec.get("capitals", {}).get(capital)
    return None if fall is None else int(fall["turn"])


def capital_falls_by(recs: Sequence[Record], capital: str, by_turn: int) -> dict[str, Any]:
    k = sum(1 for r in recs if (t := _fell_turn(r, capital)) is not None and t <= by_turn)
    return _share(k, len(recs))


def _brp_at(rec: Record, powers: Sequence[str], turn: int, of: str = "brp") -> int | None:
    row = next((row for row in rec.get("brp", []) if int(row["turn"]) == turn), None)
    if row is None:
        return None
    return sum(int(row.get(of, {}).get(p, 0)) for p in powers)


def brp_parity(recs: Sequence[Record], powers: Sequence[str], against: Sequence[str],
               turns: Sequence[int], of: str = "brp") -> dict[str, Any]:
    """The BRPs on hand (``of="brp"``) or the BRP bases (``of="base"``) of ``powers`` against
    ``against`` at the end of ``turns``: their means and the share of games at parity (>=) at
    every one of them."""
    means: dict[str, dict[str, str]] = {}
    parity = 0
    counted = 0
    for t in turns:
        a = [v for r in recs if (v := _brp_at(r, powers, t, of)) is not None]
        b = [v for r in recs if (v := _brp_at(r, against, t, of)) is not None]
        if a and b:
            means[str(t)] = {"+".join(powers): f"{float(Fraction(sum(a), len(a))):.1f}",
                             "+".join(against): f"{float(Fraction(sum(b), len(b))):.1f}"}
    for r in recs:
        pairs = [(_brp_at(r, powers, t, of), _brp_at(r, against, t, of)) for t in turns]
        if any(a is None or b is None for a, b in pairs):
            continue
        counted += 1
        parity += all(a >= b for a, b in pairs if a is not None and b is not None)
    return {"means": means, "parity": _share(parity, counted)}


def same_turn_falls(recs: Sequence[Record], capitals: Sequence[str], turns: Sequence[int]
                    ) -> dict[str, Any]:
    k = 0
    for r in recs:
        ts = {_fell_turn(r, c) for c in capitals}
        if len(ts) == 1 and (t := next(iter(ts))) is not None and t in turns:
            k += 1
    return _share(k, len(recs))


def falls_in_turns(recs: Sequence[Record], capitals: Sequence[str], turns: Sequence[int]
                   ) -> dict[str, Any]:
    """The share of games in which each of ``capitals`` fell in its turn of ``turns``."""
    k = sum(1 for r in recs
            if all(_fell_turn(r, c) == t for c, t in zip(capitals, turns, strict=True)))
    return _share(k, len(recs))


def measure_claim(spec: Mapping[str, Any], records: Mapping[str, Sequence[Record]]
                  ) -> dict[str, Any]:
    """The claim's measured figures per setting, and a one-line statement of them."""
    m = dict(spec.get("measure") or {})
    kind = m.get("kind")
    figures: dict[str, Any] = {}
    for label, recs in records.items():
        if kind == "capital_falls_by":
            figures[label] = capital_falls_by(recs, str(m["capital"]), int(m["by_turn"]))
        elif kind == "brp_parity":
            figures[label] = brp_parity(recs, list(m["powers"]), list(m["against"]),
                                        [int(t) for t in m["turns"]], str(m.get("of", "brp")))
        elif kind == "same_turn_falls":
            figures[label] = same_turn_falls(recs, list(m["capitals"]),
                                             [int(t) for t in m["turns"]])
        elif kind == "falls_in_turns":
            figures[label] = falls_in_turns(recs, list(m["capitals"]),
                                            [int(t) for t in m["turns"]])
    parts = []
    for label, f in figures.items():
        share = f.get("parity", f)
        if share["games"] == 0:
            parts.append(f"{label}: not measurable (no game produced the facts)")
        else:
            parts.append(f"{label}: {share['yes']}/{share['games']} games "
                         f"({share['rate']}, 95% CI {share['ci95'][0]}-{share['ci95'][1]})")
    return {"id": spec.get("id"), "text": spec.get("claim", ""), "source": spec.get("source", ""),
            "measure": m, "figures": figures, "measured": "; ".join(parts)}
