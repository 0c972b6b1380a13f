"""``grognard eurofront ...`` (EuroFront optional rules): thin wrappers over ``grognard.eurofront``.

Every command takes ``--json`` (formats in docs/formats/eurofront.md). Bad arguments raise
:class:`~grognard.core.errors.InputError` naming them; ``main`` prints one line and exits 2.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

import typer

from grognard.core.dice import DiceStream
from grognard.core.errors import InputError, parse_enum
from grognard.core.readings import parse_pairs
from grognard.engine.terminal import JsonOpt, current_tables, emit
from grognard.eurofront.activation import initiative
from grognard.eurofront.airpower import air_power_level, load_state
from grognard.eurofront.disruption import TABLE_ID, apd_outcome
from grognard.eurofront.model import Front, HQClass, Side
from grognard.eurofront.readings import EuroFrontReadings, InitiativeBonus
from grognard.eurofront.uboats import load_history, roll_uboat_turn

ReadingOpt = Annotated[list[str] | None, typer.Option(
    "--reading", help="An EF reading as KEY=VALUE (repeatable), e.g. "
    "ef_uboat_roll_frequency=turn.")]


def readings_from(pairs: list[str] | None,
                  base: EuroFrontReadings | None = None) -> EuroFrontReadings:
    """:class:`EuroFrontReadings` from ``KEY=VALUE`` strings over ``base`` (true/false parsed)."""
    raw = parse_pairs(pairs)
    over = EuroFrontReadings.from_mapping(raw, prefix="--reading")
    if base is None:
        return over
    return dataclasses.replace(base, **{k: getattr(over, k) for k in raw})


def _rolls(text: str) -> list[int]:
    out = []
    for i, part in enumerate(p.strip() for p in text.split(",")):
        if not part.lstrip("-").isdigit() or len(part) > 6:
            raise InputError("--rolls", f"roll {i + 1} must be a whole number (at most 6 "
                             f"digits), not {part[:20]!r}")
        out.append(int(part))
    return out


def register(root: typer.Typer) -> None:
    """Attach the ``eurofront`` command group to the root app."""
    app = typer.Typer(help="EuroFront optional rules (EF-01..EF-18).", no_args_is_help=True)

    @app.command("initiative")
    def initiative_cmd(
        chit_a: Annotated[int, typer.Option("--chit-a", help="Player A's chit (0..3).")],
        roll_a: Annotated[int, typer.Option("--roll-a", help="Player A's 1D6.")],
        chit_b: Annotated[int, typer.Option("--chit-b", help="Player B's chit (0..3).")],
        roll_b: Annotated[int, typer.Option("--roll-b", help="Player B's 1D6.")],
        bonus: Annotated[str, typer.Option(
            "--bonus", help="Chit bonus reading: strength (+1/+2/+3) or strength_squared."
        )] = "strength",
        as_json: JsonOpt = False,
    ) -> None:
        """EF-18 Sequential activation initiative: First Player and its first activations."""
        readings = EuroFrontReadings(
            ef_initiative_bonus=parse_enum(InitiativeBonus, bonus, "--bonus"))
        emit(initiative(roll_a, chit_a, roll_b, chit_b, readings).to_json(), as_json)

    @app.command("uboat")
    def uboat_cmd(
        history: Annotated[Path, typer.Option("--history", help="U-boat history JSON file.")],
        seed: Annotated[int, typer.Option("--seed", help="Seed for the rolls.")] = 0,
        reading: ReadingOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """EF-04..EF-07 Resolve the last turn of a U-boat history: trigger and shipping rolls."""
        hist, readings, base, rules = load_history(history)
        readings = readings_from(reading, readings)
        rec = roll_uboat_turn(hist, DiceStream(seed, "eurofront.uboat"), readings, base, rules)
        emit(rec.to_json(), as_json)

    @app.command("disruption")
    def disruption_cmd(
        hq: Annotated[str, typer.Option("--hq", help="HQ class: battle, theatre or supreme.")],
        strength: Annotated[int, typer.Option("--strength", help="HQ strength points (1..3).")],
        difference: Annotated[int, typer.Option(
            "--difference", help="Air Power difference, active minus non-active (0..3).")],
        rolls: Annotated[str | None, typer.Option(
            "--rolls", help="Combat dice, comma separated (one per strength point).")] = None,
        seed: Annotated[int | None, typer.Option("--seed", help="Roll the dice from a seed.")]
        = None,
        battle_hq_in_range: Annotated[bool, typer.Option(
            "--battle-hq-in-range", help="The target is in range of an activated Battle HQ "
            "(EF-16, Supreme HQs).")] = False,
        as_json: JsonOpt = False,
    ) -> None:
        """EF-11..EF-16 Roll on the Airpower Disruption table for one activated HQ."""
        cls = parse_enum(HQClass, hq, "--hq")
        if cls is HQClass.TACTICAL:
            raise InputError("--hq", "a tactical HQ may not roll (battle, theatre or supreme)")
        if (rolls is None) == (seed is None):
            raise InputError("--rolls", "give either --rolls R1,R2 or --seed S")
        if not 1 <= strength <= 3:
            raise InputError("--strength", f"an HQ has 1..3 strength points, not {strength}")
        if seed is not None:
            if seed < 0:
                raise InputError("--seed", "must be a non-negative integer")
            stream = DiceStream(seed, "eurofront.disruption")
            dice = [stream.die(6) for _ in range(strength)]
        else:
            assert rolls is not None
            dice = _rolls(rolls)
        if difference < 0:
            raise InputError("--difference", f"{difference}: only an equal or positive Air Power "
                             "difference may roll (EF-11)")
        table = current_tables().get(TABLE_ID)
        o = apd_outcome(cls, strength, difference, dice, battle_hq_in_range, table)
        emit({"results": [r.value for r in o.results], "effective": o.effective}, as_json)

    @app.command("air-power")
    def air_power_cmd(
        side: Annotated[str, typer.Option("--side", help="axis or allies.")],
        front: Annotated[str, typer.Option("--front", help="east, west or med.")],
        state: Annotated[Path, typer.Option("--state", help="Air-power state JSON file.")],
        as_json: JsonOpt = False,
    ) -> None:
        """EF-08 Modified Front Air Power: a side's level on a front."""
        s = parse_enum(Side, side, "--side")
        f = parse_enum(Front, front, "--front")
        st = load_state(state)
        level = air_power_level(s, f, st, current_tables().get("ef_historical_air_power"))
        emit({"level": level.value}, as_json)

    @app.command("demo")
    def demo_cmd(
        seed: Annotated[int, typer.Option("--seed", help="Seed of the demo game.")] = 1941,
        phases: Annotated[int, typer.Option("--phases", help="Activation Phases to play.")]
        = 6,
        as_json: JsonOpt = False,
    ) -> None:
        """A guided EuroFront game: eurofront-1941 for a few Activation Phases, narrated."""
        from grognard.eurofront.demo import run_demo

        if phases < 1:
            raise InputError("--phases", "at least 1")
        data = run_demo(seed, phases)
        emit(data, as_json, lambda c: c.print("\n".join(data["lines"]), markup=False,
                                              highlight=False))

    root.add_typer(app, name="eurofront")
