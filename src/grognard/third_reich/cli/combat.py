"""``grognard 3r ...`` commands of combat resolution (land CRT, attrition, air/naval, isolation).

Thin: parse, call one rule function, render. JSON outputs are documented in
docs/formats/tr_combat.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from grognard.core.dice import DiceStream
from grognard.core.errors import InputError
from grognard.core.exact import exact_text, ratio_str
from grognard.engine.terminal import (
    JsonOpt,
    console,
    current_tables,
    emit,
    grid_table,
    kv_table,
    read_json,
    readings_file,
)
from grognard.third_reich.turn.combat_readings import TRCombatReadings

BattleArg = Annotated[Path, typer.Argument(metavar="BATTLE.json",
                                           help="The battle (docs/formats/tr_combat.md).")]
ReadingsOpt = Annotated[Path | None, typer.Option(
    "--readings", metavar="FILE", help="JSON object of combat readings (TRCombatReadings).")]




def _readings(path: Path | None) -> TRCombatReadings:
    return readings_file(path, TRCombatReadings)


def _one_roll(roll: int | None, seed: int | None, expr: str, stream: str) -> int:
    if (roll is None) == (seed is None):
        raise InputError("--roll/--seed", "give exactly one of --roll N or --seed S")
    if seed is not None:
        if seed < 0:
            raise InputError("--seed", "must be a non-negative integer")
        return DiceStream(seed, stream).roll(expr).total
    assert roll is not None
    return roll


def register(tr_app: typer.Typer) -> None:
    """Add the combat commands to ``grognard 3r``."""

    @tr_app.command("combat")
    def combat_cmd(
        battle_file: BattleArg,
        roll: Annotated[int | None, typer.Option("--roll", help="Natural 2D6 roll.")] = None,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed: roll the dice.")] = None,
        readings: ReadingsOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Resolve one land attack (TR-32..TR-36): defense, support, odds, shifts, DRM, result."""
        from grognard.third_reich.combat.combat import Battle, resolve_battle

        r = _readings(readings)
        battle = Battle.from_json(read_json(battle_file, "BATTLE.json"))
        natural = _one_roll(roll, seed, "2d6", "3r.combat")
        data = resolve_battle(battle, natural, current_tables(), r).to_json()
        emit(data, as_json, lambda c: c.print(kv_table(data, "Revised Third Reich land combat")))

    @tr_app.command("combat-odds")
    def combat_odds_cmd(battle_file: BattleArg, readings: ReadingsOpt = None,
                        as_json: JsonOpt = False) -> None:
        """Exact chance of every CRT result of a land attack before rolling (TR-32)."""
        from grognard.third_reich.combat.combat import Battle, battle_odds

        battle = Battle.from_json(read_json(battle_file, "BATTLE.json"))
        a, probs = battle_odds(battle, current_tables(), _readings(readings))
        probabilities = {k: ratio_str(v) for k, v in probs.items()}
        data = {"column": a.odds.column, "probabilities": probabilities}

        def human(c: Any = console) -> None:
            c.print(kv_table({"defense": a.defense.total, "support": exact_text(a.support.used),
                              "odds": ratio_str(a.odds.odds), "raw column": a.odds.raw_column,
                              "shifts": a.odds.shifts, "column": a.odds.column, "drm": a.drm},
                             "Revised Third Reich land combat odds"))
            c.print(grid_table(["result", "probability"],
                               [[k, v] for k, v in probabilities.items()]))

        emit(data, as_json, human)

    @tr_app.command("crt")
    def crt_cmd(
        drm: Annotated[int, typer.Option("--drm", help="Armor superiority DRM, -1..+1.")] = 0,
        as_json: JsonOpt = False,
    ) -> None:
        """Exact result chances and expected unit losses of every land CRT column (TR-32)."""
        from grognard.third_reich.combat.combat import crt_table
        from grognard.third_reich.table_analysis import land_crt_distributions

        table = crt_table(current_tables())
        stats = land_crt_distributions(drm, table)
        data = {"table": table.id, "source": str(table.source), "drm": drm,
                "columns": [s.to_json() for s in stats]}

        def human(c: Any = console) -> None:
            codes = sorted({k for s in stats for k in s.probabilities})
            c.print(grid_table(
                ["column", *codes, "E[att units]", "E[def units]"],
                [[s.column, *[ratio_str(s.probabilities.get(k, 0)) for k in codes],
                  exact_text(s.attacker_units), exact_text(s.defender_units)] for s in stats],
                f"{table.title} [{table.source}], DRM {drm:+d}"))

        emit(data, as_json, human)

    @tr_app.command("attrition")
    def attrition_cmd(
        factors: Annotated[int, typer.Option("--factors", help="Land combat factors in contact.")],
        roll: Annotated[int | None, typer.Option("--roll", help="Natural 2D6 roll.")] = None,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed: roll the dice.")] = None,
        column_bounds: Annotated[str | None, typer.Option(
            "--column-bounds", help="Lowest factor count of each of the 7 columns, comma "
            "separated (reading tr_attrition_column_bounds; default 5,25,45,65,85,105,125).")
        ] = None,
        readings: ReadingsOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """One attrition step (TR-38/39): column for the factors in contact, roll, result."""
        import dataclasses

        from grognard.third_reich.combat.attrition import attrition_table, resolve_attrition

        r = _readings(readings)
        if column_bounds is not None:
            try:
                bounds = tuple(int(x) for x in column_bounds.split(","))
            except ValueError:
                raise InputError("--column-bounds", "expected comma separated integers") from None
            r = dataclasses.replace(r, tr_attrition_column_bounds=bounds)
        if factors < 0:
            raise InputError("--factors", "cannot be negative")
        natural = _one_roll(roll, seed, "2d6", "3r.attrition")
        if not 2 <= natural <= 12:
            raise InputError("--roll", f"a 2D6 roll is 2..12, not {natural}")
        out = resolve_attrition(factors, natural, attrition_table(current_tables(), r), r)
        data = out.to_json()
        emit(data, as_json, lambda c: c.print(kv_table(data, "Revised Third Reich attrition")))

    @tr_app.command("attrition-table")
    def attrition_table_cmd(as_json: JsonOpt = False) -> None:
        """Expected units lost and hexes won per attrition column, in 36ths (TR-42)."""
        from grognard.third_reich.combat.attrition import attrition_table
        from grognard.third_reich.table_analysis import (
            attrition_comparison,
            attrition_expectations,
            in_36ths,
        )

        table = attrition_table(current_tables())
        data = {"columns": attrition_expectations(table)}

        def human(c: Any = console) -> None:
            rows = []
            for e, cmp in zip(data["columns"], attrition_comparison(table), strict=True):
                p = cmp["printed"]
                rows.append([cmp["column"], e["def"], p.get("def", ""), e["att"],
                             p.get("att", ""), in_36ths(cmp["diff"]), p.get("diff", ""),
                             e["hex"], p.get("hex", "")])
            c.print(grid_table(["column", "def", "printed", "att", "printed", "diff", "printed",
                                "hex", "printed"], rows,
                               f"{table.title} [{table.source}]"))
            c.print("Printed column 6 Def 7.16 is 258/36 truncated; printed column 4 Diff 2.17 "
                    "disagrees with its own Def - Att = 75/36 = 2.08 (the text's inconsistency).")

        emit(data, as_json, human)

    @tr_app.command("fire")
    def fire_cmd(
        factors: Annotated[int, typer.Option("--factors", help="Firing factors.")],
        roll: Annotated[int, typer.Option("--roll", help="Natural 1D10 roll.")],
        drm: Annotated[int, typer.Option("--drm", help="Die-roll modifier.")] = 0,
        round06: Annotated[bool, typer.Option(
            "--round06", help="Round a fraction of 0.6 or more up (TR-50 exceptions).")] = False,
        as_json: JsonOpt = False,
    ) -> None:
        """One air/naval fire on the 1D10 effectiveness table (TR-50)."""
        from grognard.third_reich.air_naval.effectiveness import TABLE_ID, effectiveness_hits

        data = {"hits": effectiveness_hits(factors, roll, drm, round06,
                                           current_tables().get(TABLE_ID))}
        emit(data, as_json)

    @tr_app.command("intercept")
    def intercept_cmd(
        range_hexes: Annotated[int, typer.Option("--range", help="Range in hexes.")],
        roll: Annotated[int, typer.Option("--roll", help="Natural 1D6 roll.")],
        as_json: JsonOpt = False,
    ) -> None:
        """One port's naval interception roll (TR-55)."""
        from grognard.third_reich.air_naval.naval import intercept_attempt, interception_table

        data = {"intercepted": intercept_attempt(range_hexes, roll,
                                                 interception_table(current_tables()))}
        emit(data, as_json)

    @tr_app.command("isolation")
    def isolation_cmd(
        weather: Annotated[str, typer.Option("--weather", help="clear, snow or mud.")],
        season: Annotated[str, typer.Option(
            "--season", help="spring, summer1, summer2, fall or winter.")],
        region: Annotated[str, typer.Option(
            "--region", help="scandinavia, east, mediterranean or europe.")],
        roll: Annotated[int, typer.Option("--roll", help="Natural 2D6 roll.")],
        adjacent_enemy: Annotated[bool, typer.Option(
            "--adjacent-enemy", help="Adjacent to enemy combat units.")] = False,
        home: Annotated[bool, typer.Option("--home", help="In the units' home country.")] = False,
        city_path: Annotated[bool, typer.Option(
            "--city-path", help="A path can be traced to a friendly city.")] = False,
        readings: ReadingsOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Isolation attrition roll of one out-of-supply hex (TR-73)."""
        from grognard.third_reich.supply.isolation import isolation_roll, isolation_table
        from grognard.third_reich.turn.calendar import WEATHER_TABLE_ID, Region, Season, Weather
        from grognard.third_reich.turn.forces import as_enum

        r = _readings(readings)
        out = isolation_roll(roll, as_enum(Weather, weather, "--weather"),
                             as_enum(Season, season, "--season"),
                             as_enum(Region, region, "--region"), adjacent_enemy, home,
                             city_path, isolation_table(current_tables(), r), r,
                             current_tables()[WEATHER_TABLE_ID])
        data = {"modified_roll": out.modified_roll, "eliminated": out.eliminated,
                "drms": out.drms}
        emit(data, as_json)
