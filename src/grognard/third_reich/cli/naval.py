"""``grognard 3r ...`` commands of naval operations, invasions, bridgeheads and SR.

Thin: parse, call one rule function, render. JSON outputs are documented in
docs/formats/tr_naval.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from grognard.core.dice import DiceStream
from grognard.core.errors import InputError
from grognard.core.exact import exact_json, ratio_str
from grognard.engine.terminal import (
    JsonOpt,
    current_tables,
    emit,
    kv_table,
    read_json,
    readings_file,
)

ReadingsOpt = Annotated[Path | None, typer.Option(
    "--readings", metavar="FILE", help="JSON object of naval readings (NavalReadings).")]




def _naval_readings(path: Path | None) -> Any:
    from grognard.third_reich.air_naval.naval_ops import NavalReadings

    return readings_file(path, NavalReadings)


def _fleet(factors: int, printed: int | None, name: str = "fleet") -> Any:
    from grognard.core.errors import IllegalOrder
    from grognard.third_reich.turn.forces import Fleet

    if factors > 9 or (printed is not None and printed > 9):
        raise IllegalOrder("TR-76", f"{name}: a fleet has at most 9 factors, not "
                           f"{max(factors, printed or 0)}")
    return Fleet(name, factors, printed if printed is not None else 9)


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``grognard 3r``."""

    @app.command("fleet-capacity")
    def fleet_capacity_cmd(
        factors: Annotated[int, typer.Argument(help="Current naval factors of the fleet.")],
        printed: Annotated[int | None, typer.Option("--printed", help="Printed strength "
                                                    "(default 9).")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """What one fleet can do (TR-57/58/61): transport, invasion lift, bombardment."""
        from grognard.third_reich.air_naval.naval_ops import bombardment_support, transport_capacity
        from grognard.third_reich.air_naval.support import naval_support
        from grognard.third_reich.combat.amphibious import invasion_capacity

        f = _fleet(factors, printed)
        data = {"factors": f.factors, "printed": f.printed,
                "transport": transport_capacity(f), "invasion": invasion_capacity(f),
                "bombardment": exact_json(bombardment_support(f)),
                "invasion_support": exact_json(naval_support(f, invasion=True))}
        emit(data, as_json, lambda c: c.print(kv_table(data, "Fleet capacities")))

    @app.command("transport")
    def transport_cmd(
        factors: Annotated[int, typer.Argument(help="Naval factors of the transporting fleet.")],
        cargo: Annotated[list[int], typer.Option("--cargo", help="Ground factors of one "
                                                 "carried unit (repeat).")],
        from_zone: Annotated[str, typer.Option("--from-zone", help="Zone of the origin "
                                               "port.")] = "atlantic",
        to_zone: Annotated[str, typer.Option("--to-zone", help="Zone of the destination.")
                           ] = "atlantic",
        air_zone: Annotated[str, typer.Option("--air-zone", help="Destination air zone seen by "
                                              "the mover: none|friendly|contested|enemy.")
                            ] = "none",
        bridgehead: Annotated[bool, typer.Option("--bridgehead", help="Destination is an "
                                                 "existing bridgehead.")] = False,
        as_json: JsonOpt = False,
    ) -> None:
        """Check and record one naval transport (TR-57)."""
        from grognard.third_reich.air_naval.naval_ops import (
            TransportOrder,
            parse_air_zone,
            transport,
        )
        from grognard.third_reich.turn.forces import GroundKind, GroundUnit, Side

        units = tuple(GroundUnit(f"unit{i + 1}", "", Side.AXIS, GroundKind.INFANTRY, n)
                      for i, n in enumerate(cargo))
        order = TransportOrder((_fleet(factors, None),), units, frozenset({from_zone.lower()}),
                               frozenset({to_zone.lower()}), True, not bridgehead, bridgehead,
                               (), parse_air_zone(air_zone, "--air-zone"))
        data = transport(order).to_json()
        emit(data, as_json, lambda c: c.print(kv_table(data, "Naval transport")))

    @app.command("bombard")
    def bombard_cmd(
        factors: Annotated[int, typer.Argument(help="Naval factors left after interceptions.")],
        as_json: JsonOpt = False,
    ) -> None:
        """Naval bombardment support of one fleet (TR-58), before the TR-35 cap."""
        from grognard.third_reich.air_naval.naval_ops import bombard

        data = bombard(_fleet(factors, None)).to_json()
        emit(data, as_json, lambda c: c.print(kv_table(data, "Naval bombardment")))

    @app.command("escort")
    def escort_cmd(
        factors: Annotated[list[int], typer.Argument(help="Factors of each escorting fleet "
                                                     "left after combat.")],
        readings: ReadingsOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Does an SR escort still hold after combat (TR-59, reading sr_escort_survival)?"""
        from grognard.third_reich.air_naval.naval_ops import escort_holds

        r = _naval_readings(readings)
        fleets = [_fleet(n, None, f"escort{i + 1}") for i, n in enumerate(factors)]
        data = {"factors": sum(factors), "reading": str(r.sr_escort_survival),
                "holds": escort_holds(fleets, r)}
        emit(data, as_json, lambda c: c.print(kv_table(data, "SR escort")))

    @app.command("invasion")
    def invasion_cmd(
        invasion_file: Annotated[Path, typer.Argument(
            metavar="INVASION.json", help="The invasion (docs/formats/tr_naval.md).")],
        roll: Annotated[int | None, typer.Option("--roll", help="Natural 2D6 roll.")] = None,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed: roll the dice.")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Resolve one amphibious invasion (TR-61/62): turn-backs, support, CRT, success."""
        from grognard.third_reich.combat.amphibious import InvasionCase, resolve_invasion_case

        case = InvasionCase.from_json(read_json(invasion_file, "INVASION.json"))
        if roll is not None and seed is not None:
            raise InputError("--roll/--seed", "give at most one of --roll N or --seed S")
        natural = roll
        if seed is not None:
            if seed < 0:
                raise InputError("--seed", "must be a non-negative integer")
            natural = DiceStream(seed, "3r.invasion").roll("2d6").total
        data = resolve_invasion_case(case, natural, current_tables()).to_json()
        emit(data, as_json, lambda c: c.print(kv_table(data, "Amphibious invasion")))

    @app.command("invasion-odds")
    def invasion_odds_cmd(
        invasion_file: Annotated[Path, typer.Argument(
            metavar="INVASION.json", help="The invasion (docs/formats/tr_naval.md).")],
        as_json: JsonOpt = False,
    ) -> None:
        """Exact chance that an amphibious invasion succeeds (TR-61), before rolling."""
        from grognard.third_reich.combat.amphibious import InvasionCase, invasion_success_odds

        case = InvasionCase.from_json(read_json(invasion_file, "INVASION.json"))
        data = {"beach": case.plan.beach,
                "success": ratio_str(invasion_success_odds(case, current_tables()))}
        emit(data, as_json, lambda c: c.print(kv_table(data, "Amphibious invasion odds")))

    @app.command("sr-budget")
    def sr_budget_cmd(
        power: Annotated[str, typer.Argument(help="germany|italy|ussr|uk|france|us")],
        as_json: JsonOpt = False,
    ) -> None:
        """SR actions per player turn (TR-66) and the US initial-deployment cap."""
        from grognard.third_reich.movement.sr import sr_budget, us_initial_cap
        from grognard.third_reich.turn.powers import Power, parse_power

        p = parse_power(power)
        t = current_tables()
        data = {"power": str(p), "sr_actions": sr_budget(p, t),
                "initial_from_us": us_initial_cap(t) if p is Power.US else 0}
        emit(data, as_json, lambda c: c.print(kv_table(data, "SR limits")))

    @app.command("sea-sr")
    def sea_sr_cmd(
        sr_file: Annotated[Path, typer.Argument(
            metavar="SEASR.json", help="The sea SR (docs/formats/tr_naval.md).")],
        readings: ReadingsOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Check and resolve one SR by sea (TR-69): escorts, air zones, interception points."""
        from grognard.third_reich.air_naval.sea_zones import sea_zones
        from grognard.third_reich.movement.sr import sea_sr, sea_sr_from_json

        r = _naval_readings(readings)
        order, after = sea_sr_from_json(read_json(sr_file, "SEASR.json"))
        data = sea_sr(order, sea_zones(current_tables(), r), after, r).to_json()
        emit(data, as_json, lambda c: c.print(kv_table(data, "SR by sea")))

    @app.command("land-sr")
    def land_sr_cmd(
        path_file: Annotated[Path, typer.Argument(
            metavar="PATH.json", help="List of path hexes after the start "
            "(docs/formats/tr_naval.md).")],
        unit: Annotated[str, typer.Option("--unit", help="ground|air|naval")] = "ground",
        as_json: JsonOpt = False,
    ) -> None:
        """Is a land SR path legal (TR-67/68)? Reports the rule and reason when not."""
        from grognard.core.errors import IllegalOrder
        from grognard.third_reich.movement.sr import SRStep, verify_land_sr

        raw = read_json(path_file, "PATH.json")
        if not isinstance(raw, list):
            raise InputError("PATH.json", "expected a list of hex objects")
        steps = [SRStep.from_json(s, f"path[{i}]") for i, s in enumerate(raw)]
        try:
            verify_land_sr(unit, steps)
            data: dict[str, Any] = {"ok": True, "rule": None, "reason": None}
        except IllegalOrder as exc:
            data = {"ok": False, "rule": exc.rule, "reason": exc.reason}
        emit(data, as_json, lambda c: c.print(kv_table(data, "SR by land")))

    @app.command("fleet-sr")
    def fleet_sr_cmd(
        from_air: Annotated[str, typer.Option("--from-air", help="Air zone of the start "
                                              "port: none|friendly|contested|enemy.")] = "none",
        to_air: Annotated[str, typer.Option("--to-air", help="Air zone of the end port.")
                          ] = "none",
        as_json: JsonOpt = False,
    ) -> None:
        """May a fleet SR itself between two friendly ports (TR-70)?"""
        from grognard.third_reich.movement.sr import FLEET_SR_NAVAL_INTERCEPTION, fleet_sr_ok

        data = {"ok": fleet_sr_ok(True, True, from_air, to_air),
                "naval_interception": FLEET_SR_NAVAL_INTERCEPTION}
        emit(data, as_json, lambda c: c.print(kv_table(data, "Fleet SR")))

    @app.command("sea-zones")
    def sea_zones_cmd(
        port: Annotated[str | None, typer.Option("--port", help="Only this port's zones.")
                        ] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """The sea-zone geography in force (TR-56; reconstructed data, see --tables)."""
        from grognard.third_reich.air_naval.sea_zones import sea_zones

        sea = sea_zones(current_tables())
        if port is not None:
            p = sea.port(port)
            data: dict[str, Any] = {"port": p.name, "zones": sorted(p.zones), "hex": p.hex,
                                    "dual_zone": p.dual_zone}
        else:
            data = sea.to_json()
        emit(data, as_json, lambda c: c.print(kv_table(data, "Sea zones")))
