"""``grognard 3r ...`` commands of land movement, air zones and airborne operations
(TR-27..TR-30, TR-51). Thin: parse, call one rule function, render. JSON outputs are
documented in docs/formats/tr_air.md."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from grognard.core.dice import DiceStream
from grognard.core.errors import InputError
from grognard.core.exact import ratio_str
from grognard.engine.terminal import JsonOpt, current_tables, emit, grid_table, kv_table


def _pairs(values: list[str], field: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        uid, sep, n = v.partition(":")
        try:
            out[uid] = int(n) if sep else -1
        except ValueError:
            raise InputError(field, f"{v!r} is not ID or ID:FACTORS") from None
    return out


def _unit_spec(spec: str, uid: str, side: str) -> Any:
    from grognard.third_reich.turn.forces import GroundKind, GroundUnit, Side, as_enum

    kind, sep, rest = spec.partition(":")
    nums = rest.split("-") if sep else []
    if len(nums) != 2 or not all(n.isdigit() for n in nums):
        raise InputError("--unit", f"{spec!r} is not KIND:FACTORS-MA (e.g. armor:4-5)")
    return GroundUnit(uid, "", as_enum(Side, side, "--side"), as_enum(GroundKind, kind, "--unit"),
                      int(nums[0]), int(nums[1]))


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``grognard 3r``."""

    @app.command("air-zone")
    def air_zone_cmd(
        situation: Annotated[str, typer.Option("--situation", help="Air situation id.")],
        scenario: Annotated[str, typer.Option(
            "--scenario", help="Scenario with [[air_situations]] (name or file).")
        ] = "tr-air-zones",
        side: Annotated[str, typer.Option("--side", help="Seen from: axis or allies.")
                        ] = "allies",
        hexes: Annotated[list[str] | None, typer.Option(
            "--hex", help="Place name or hex label (repeatable; default all places).")] = None,
        neutralize: Annotated[list[str] | None, typer.Option(
            "--neutralize", help="ID or ID:FACTORS neutralised by counter-air (TR-44).")
        ] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Air zone strengths and contest in each hex (TR-30; TR-TV18 examples)."""
        from grognard.third_reich.air_naval.air_zones import air_zone_report, load_air_zone_map

        zmap = load_air_zone_map(scenario)
        neut = _pairs(neutralize or [], "--neutralize")
        air = {a.unit.id: a.unit.factors for a in zmap.situation(situation)}
        neut = {k: (air.get(k, 0) if v < 0 else v) for k, v in neut.items()}
        data = air_zone_report(zmap, situation, side, hexes or [], neut)

        def human(c: Any) -> None:
            c.print(grid_table(
                ["hex", "place", "friendly", "enemy", "contested", "uncontested enemy"],
                [[r["hex"], r["place"], r["friendly"], r["enemy"], r["contested"],
                  r["uncontested_enemy"]] for r in data["hexes"]],
                f"{data['title']} — seen by {data['side']}"))

        emit(data, as_json, human)

    @app.command("airdrop")
    def airdrop_cmd(
        factors: Annotated[int, typer.Option("--factors", help="Airborne unit factors.")] = 3,
        interceptors: Annotated[int, typer.Option(
            "--interceptors", help="Intercepting non-phasing air factors.")] = 0,
        escorts: Annotated[int, typer.Option(
            "--escorts", help="Phasing air factors sent to the hex.")] = 0,
        roll: Annotated[int | None, typer.Option(
            "--roll", help="Interceptors' natural 1D10.")] = None,
        phasing_roll: Annotated[int | None, typer.Option(
            "--phasing-roll", help="Escorts' natural 1D10.")] = None,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed: roll the dice.")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Resolve an air landing against interception, with exact odds (TR-51)."""
        from grognard.third_reich.combat.airborne import air_drop, air_drop_odds
        from grognard.third_reich.turn.forces import GroundKind, GroundUnit, Side

        if seed is not None and (roll is not None or phasing_roll is not None):
            raise InputError("--seed", "give --seed or --roll/--phasing-roll, not both")
        if seed is not None:
            if seed < 0:
                raise InputError("--seed", "must be a non-negative integer")
            stream = DiceStream(seed, "3r.airdrop")
            roll, phasing_roll = stream.roll("1d10").total, stream.roll("1d10").total
        if interceptors and (roll is None or phasing_roll is None):
            raise InputError("--roll", "an intercepted drop needs --roll and --phasing-roll, "
                             "or --seed")
        if factors < 1:
            raise InputError("--factors", "an airborne unit has at least 1 factor")
        unit = GroundUnit("airborne", "", Side.AXIS, GroundKind.AIRBORNE, factors, 3)
        tables = current_tables()
        rec = air_drop(unit, interceptors, escorts, phasing_roll, roll, tables=tables)
        odds = air_drop_odds(unit, interceptors, escorts, tables=tables)
        data = {
            "factors": rec.factors, "interceptors": rec.interceptors, "escorts": rec.escorts,
            "roll": rec.nonphasing_roll, "phasing_roll": rec.phasing_roll,
            "interceptor_hits": rec.interceptor_hits,
            "hits_on_escorts": rec.air_combat.hits_on_phasing if rec.air_combat else 0,
            "hits_on_interceptors": rec.air_combat.hits_on_nonphasing if rec.air_combat else 0,
            "hits_on_airborne": rec.hits_on_airborne, "factors_after": rec.factors_after,
            "outcome": str(rec.outcome),
            "odds": {str(k): ratio_str(v) for k, v in odds.items()},
        }
        emit(data, as_json, lambda c: c.print(kv_table(data, "3R air landing (TR-51)")))

    @app.command("move-range")
    def move_range_cmd(
        rows: Annotated[list[str], typer.Option(
            "--row", help="Hand-drawn map row of terrain letters (repeat per row).")],
        at: Annotated[str, typer.Option("--at", help="Start hex label.")],
        unit: Annotated[str, typer.Option(
            "--unit", help="KIND:FACTORS-MA, e.g. armor:4-5 or infantry:2-3.")],
        side: Annotated[str, typer.Option("--side", help="axis or allies.")] = "axis",
        enemy: Annotated[list[str] | None, typer.Option(
            "--enemy", help="Hex of an enemy ground unit (repeatable).")] = None,
        river: Annotated[list[str] | None, typer.Option(
            "--river", help="River hexside A-B, e.g. 0101-0201 (repeatable).")] = None,
        phase: Annotated[str, typer.Option("--phase", help="normal or mechanized.")
                         ] = "normal",
        weather: Annotated[str, typer.Option("--weather", help="clear, snow or mud.")
                           ] = "clear",
        as_json: JsonOpt = False,
    ) -> None:
        """Every hex a 3R ground unit can reach this phase (TR-27/TR-28)."""
        from grognard.core.mapgen import map_from_rows
        from grognard.third_reich.movement.movement import move_range, movement_allowance
        from grognard.third_reich.turn.forces import GroundKind, GroundUnit, Side, as_enum

        sides: dict[tuple[str, str], str] = {}
        for r in river or []:
            a, sep, b = r.partition("-")
            if not sep:
                raise InputError("--river", f"{r!r} is not A-B")
            sides[(a, b)] = "river"
        if phase == "mechanized" and weather in ("snow", "mud"):
            from grognard.core.errors import IllegalOrder

            raise IllegalOrder("TR-06", f"there is no mechanized movement phase in {weather}")
        m = map_from_rows(rows, hexsides=sides)
        mover = _unit_spec(unit, "mover", side)
        foe_side = Side.ALLIES if as_enum(Side, side, "--side") is Side.AXIS else Side.AXIS
        placed = [(h, GroundUnit(f"enemy{i}", "", foe_side, GroundKind.INFANTRY, 1))
                  for i, h in enumerate(enemy or [])]
        reach = move_range(m, mover, at, placed, phase, weather)
        data = {"unit": unit, "side": side, "phase": phase, "weather": weather,
                "allowance": movement_allowance(mover, weather), **reach.to_json()}
        emit(data, as_json, lambda c: c.print(grid_table(
            ["hex", "MP"], [[h, v] for h, v in data["reachable"].items()],
            f"3R move range from {at}")))
