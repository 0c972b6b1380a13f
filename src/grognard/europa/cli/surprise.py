"""``grognard europa surprise ...`` (Europa rule 47): thin wrappers over the surprise rules.

Every command takes ``--json``; integers are JSON numbers, other exact quantities strings
(``"108.8"``). Bad arguments raise :class:`~grognard.core.errors.InputError` naming them.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer

from grognard.core.dice import DiceStream
from grognard.core.errors import InputError
from grognard.core.exact import exact_json, q
from grognard.core.readings import parse_pairs
from grognard.engine.terminal import JsonOpt, current_tables, emit, grid_table
from grognard.europa.surprise.airbase import (
    BaseAirUnit,
    affected_count,
    airbase_modifier,
    resolve_airbase,
    select_affected,
)
from grognard.europa.surprise.budget import (
    centre_move_effect,
    delay_cost,
    planning,
    reduction_refund,
)
from grognard.europa.surprise.effects import StackMember, marker_count, parse_result
from grognard.europa.surprise.front import (
    front_extent,
)
from grognard.europa.surprise.general import (
    AirbaseSelection,
    SurpriseReadings,
    level_for_re,
    parse_air_status,
    parse_nationality,
    surprise_cost,
)
from grognard.europa.surprise.orders import load_orders, run_orders

ReadingOpt = Annotated[list[str] | None, typer.Option(
    "--reading", help="A SUR reading as KEY=VALUE (repeatable), e.g. "
    "surprise_distance_cap_mode=range_limit.")]


def readings_from(pairs: list[str] | None) -> SurpriseReadings:
    """:class:`SurpriseReadings` from ``KEY=VALUE`` strings (true/false and integers parsed)."""
    return SurpriseReadings.from_mapping(parse_pairs(pairs), prefix="--reading")


def _exact_arg(text: str, name: str) -> Fraction:
    try:
        return q(text)
    except (ValueError, ZeroDivisionError):
        raise InputError(name, f"expected a number such as 12, 3.5 or 7/2, not {text!r}") from None


def _stack(text: str) -> list[StackMember]:
    members = []
    for i, part in enumerate(p.strip() for p in text.split(",") if p.strip()):
        name, _, zoc = part.partition(":")
        nat = parse_nationality(name, "--nationality")
        if zoc and (not zoc.strip().isdigit() or len(zoc.strip()) > 6):
            raise InputError("--nationality", f"ZOC size of unit {i + 1} must be a whole "
                             f"number (at most 6 digits), not {zoc[:20]!r}")
        members.append(StackMember(nat, int(zoc) if zoc else 1))
    if not members:
        raise InputError("--nationality", "name at least one nationality")
    return members


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise InputError("--date", f"expected a date as YYYY-MM-DD, not {text!r}") from None


def register(europa_app: typer.Typer) -> None:
    """Attach the ``surprise`` command group to ``grognard europa``."""
    app = typer.Typer(help="Europa rule 47: surprise turns (SUR-01..SUR-26).", no_args_is_help=True)

    @app.command()
    def cost(
        level: Annotated[int, typer.Argument(help="Surprise level (SRPs, 1..40).")],
        reading: ReadingOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """SUR-03: SRP and SP cost and RE benefit of a surprise level."""
        emit(surprise_cost(level, readings_from(reading)).to_json(), as_json)

    @app.command("level-for")
    def level_for(
        re: Annotated[str, typer.Option("--re", help="REs that must benefit (e.g. 55, 3.5).")],
        reading: ReadingOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """SUR-03: the smallest level whose RE benefit covers N REs."""
        emit(level_for_re(_exact_arg(re, "--re"), readings_from(reading)).to_json(), as_json)

    @app.command("planning")
    def planning_cmd(
        level: Annotated[int, typer.Option("--level", help="Surprise level (SRPs).")],
        reduced: Annotated[bool, typer.Option("--reduced", help="Reduced planning time.")] = False,
        reading: ReadingOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """SUR-04/05/06: planning lead time and the start-of-surprise refund."""
        p = planning(level, reduced=reduced, readings=readings_from(reading))
        emit({"lead_turns": p.lead_turns, "refund_srp": exact_json(p.refund_srp),
              "refund_sp": exact_json(p.refund_sp)}, as_json)

    @app.command()
    def reduce(
        from_level: Annotated[int, typer.Option("--from", help="Designated level.")],
        to_level: Annotated[int, typer.Option("--to", help="Reduced level.")],
        reading: ReadingOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """SUR-09: voluntary reduction; 80% of the difference comes back."""
        r = reduction_refund(from_level, to_level, readings_from(reading))
        emit({"srp_returned": exact_json(r.srp_returned), "sp_returned": exact_json(r.sp_returned),
              "level": r.level, "re": r.re}, as_json)

    @app.command("move-centre")
    def move_centre_cmd(
        level: Annotated[int, typer.Option("--level", help="Current level.")],
        hexes: Annotated[int, typer.Option("--hexes", help="Hexes the centre moves.")],
        reading: ReadingOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """SUR-10: moving the centre hex lowers the effective level one per hex."""
        m = centre_move_effect(level, hexes, readings=readings_from(reading))
        emit({"effective_level": m.effective_level, "re": m.re, "srp_spent": m.srp_spent,
              "sp_spent": m.sp_spent, "sp_returned": m.sp_returned}, as_json)

    @app.command("delay")
    def delay_cmd(
        level: Annotated[int, typer.Option("--level", help="Designated level.")],
        turns: Annotated[int, typer.Option("--turns", help="Turns of delay.")] = 1,
        weather_wait: Annotated[bool, typer.Option(
            "--weather-wait", help="Waiting on the designated weather (free).")] = False,
        reading: ReadingOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """SUR-11: a quarter of the designation cost per turn of delay."""
        d = delay_cost(level, turns, weather_wait=weather_wait, readings=readings_from(reading))
        emit({"srp_cost": exact_json(d.srp_cost), "sp_cost": exact_json(d.sp_cost)}, as_json)

    @app.command()
    def front(
        level: Annotated[int, typer.Option("--level", help="Surprise level (SRPs).")],
        reading: ReadingOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """SUR-12: extent of the surprise front (level - 1 hexes each side of the centre)."""
        emit(front_extent(level, readings_from(reading)).to_json(), as_json)

    @app.command()
    def markers(
        result: Annotated[str, typer.Option("--result", help="F*, F, S or S*.")],
        nationality: Annotated[str, typer.Option(
            "--nationality", help="NAT, or a mixed stack NAT:ZOC,NAT:ZOC,...")],
        distance: Annotated[int, typer.Option("--distance", help="Hexes from the centre.")],
        level: Annotated[int, typer.Option("--level", help="Surprise level (SRPs).")],
        year: Annotated[int, typer.Option("--year", help="Game year.")],
        invasion: Annotated[bool, typer.Option("--invasion", help="Invasion surprise.")] = False,
        first: Annotated[bool, typer.Option(
            "--first", help="First surprise against the country.")] = False,
        reading: ReadingOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """SUR-15: "+ # MP" markers on a defending stack, modifiers itemised."""
        m = marker_count(parse_result(result, "--result"), _stack(nationality),
                         distance=distance, level=level, year=year, invasion=invasion,
                         first=first, readings=readings_from(reading), tables=current_tables())
        data = m.to_json()

        def human(c: Any) -> None:
            c.print(grid_table(["modifier", "value"],
                               [[x.name, f"{x.value:+d}"] for x in m.modifiers]))
            c.print(f"markers: [bold]{m.markers}[/]")

        emit(data, as_json, human)

    @app.command()
    def airbase(
        result: Annotated[str, typer.Option("--result", help="F*, F, S or S*.")],
        attackers: Annotated[int, typer.Option("--attackers", help="Attacking air units.")],
        units: Annotated[str, typer.Option(
            "--units", help="Defending air units' statuses, e.g. operative,inoperative,X.")],
        markers_: Annotated[int, typer.Option("--markers", help="'+# MP' markers.")] = 0,
        cap: Annotated[int, typer.Option("--cap", help="Defending air units flying CAP.")] = 0,
        choose: Annotated[str | None, typer.Option(
            "--choose", help="Defender's choice of affected units (0-based indexes, e.g. 0,1); "
            "otherwise chosen at random with --seed.")] = None,
        seed: Annotated[int, typer.Option(help="Seed for random selection.")] = 0,
        as_json: JsonOpt = False,
    ) -> None:
        """SUR-22/24: number of affected air units and their statuses after the result."""
        res = parse_result(result, "--result")
        base = [BaseAirUnit(str(i), parse_air_status(s, f"--units[{i}]"))
                for i, s in enumerate(p.strip() for p in units.split(",") if p.strip())]
        if not base:
            raise InputError("--units", "list at least one air unit status")
        k = affected_count(attackers, markers_, cap,
                           sum(1 for u in base if u.status.value in ("operative", "inoperative",
                                                                      "X")))
        if choose is not None:
            picked = [p.strip() for p in choose.split(",") if p.strip()]
            readings = SurpriseReadings(
                airbase_surprise_selection=AirbaseSelection.DEFENDER_CHOICE)
            ids = select_affected(base, k, readings, chosen=picked)
        else:
            ids = select_affected(base, k, stream=DiceStream(seed, "airbase_surprise"))
        tables = current_tables()
        out = resolve_airbase(res, base, ids, tables.get("europa_surprise_airbase"))
        emit({"affected": out.affected, "after": [u.after.value for u in out.units]}, as_json)

    @app.command("airbase-modifier")
    def airbase_modifier_cmd(
        date: Annotated[str, typer.Option("--date", help="Game date, YYYY-MM-DD.")],
        nationality: Annotated[str, typer.Option(
            "--nationality", help="Nationality of the air units.")] = "soviet",
        city: Annotated[str | None, typer.Option("--city", help="City of the airbase.")] = None,
        temporary: Annotated[bool, typer.Option(
            "--temporary-airfield", help="Temporary airfield.")] = False,
        surprise_phase: Annotated[bool, typer.Option(
            "--surprise-phase", help="Attack in the surprise phase.")] = False,
        invasion: Annotated[bool, typer.Option(
            "--invasion", help="Invasion surprise turn.")] = False,
        guards: Annotated[bool, typer.Option(
            "--all-guards-or-major", help="All units Guards or non-Soviet major power.")] = False,
        as_json: JsonOpt = False,
    ) -> None:
        """SUR-24: the Table 3 die modifier, itemised."""
        m = airbase_modifier(date=_date(date), nationality=parse_nationality(nationality),
                             all_guards_or_major=guards, temporary_airfield=temporary,
                             surprise_phase=surprise_phase, invasion=invasion, city=city,
                             tables=current_tables())
        emit(m.to_json(), as_json)

    @app.command("plan")
    def plan_cmd(
        orders: Annotated[Path, typer.Argument(help="Order file (JSON): designation + steps.")],
        as_json: JsonOpt = False,
    ) -> None:
        """SUR-04..SUR-14: run a surprise plan's orders and show the audit trail."""
        run = run_orders(load_orders(orders))
        data = run.to_json()

        def human(c: Any) -> None:
            p = data["plan"]
            c.print(f"[bold]{p['side']} {p['command']}[/]: level {p['level']} "
                    f"({p['re_cap']} REs) at {p['centre']}, {p['status']}")
            c.print(grid_table(["#", "account", "amount", "balance", "rule", "cause"],
                               [[e["seq"], e["account"], e["amount"], e["balance"], e["rule"],
                                 e["cause"]] for e in p["ledger"]["entries"]]))

        emit(data, as_json, human)

    europa_app.add_typer(app, name="surprise")
