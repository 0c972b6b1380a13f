"""``grognard europa supply ...`` (Europa revised supply, isolation, replacements, logistics and
the Fire in the East adjustments, EUR-30..EUR-45): thin wrappers over the rule functions.

Every command takes ``--json``; integers are JSON numbers, other exact quantities strings
("15/2"). Bad arguments raise :class:`~grognard.core.errors.InputError` naming them.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Annotated

import typer

from grognard.core.errors import InputError
from grognard.core.exact import exact_json, q, ratio_str
from grognard.core.readings import parse_pairs
from grognard.engine.terminal import JsonOpt, current_tables, emit, read_json
from grognard.europa.fite import air_surprise, supply_grade_through, truck_range
from grognard.europa.supply.breakout import break_out, breakout_odds
from grognard.europa.supply.isolation import (
    ISOLATION_DRM_TABLE,
    isolation_loss_chance,
    isolation_roll,
)
from grognard.europa.supply.logistics import (
    Combat,
    Operations,
    sp_cost,
    stockpile_on_transition,
    turn_receipt,
)
from grognard.europa.supply.phase import SupplyReadings, supply_phase_from_json
from grognard.europa.supply.replacements import (
    SOVIET_RP_TABLE,
    Candidate,
    replacement_options,
    soviet_rps,
)

ReadingOpt = Annotated[list[str] | None, typer.Option(
    "--reading", help="A supply reading as KEY=VALUE (repeatable), e.g. "
    "sp_half_rounding=exact.")]


def _readings(pairs: list[str] | None) -> SupplyReadings:
    return SupplyReadings.from_mapping(parse_pairs(pairs), prefix="--reading")


def _exact(text: str, name: str) -> Fraction:
    try:
        return q(text)
    except (ValueError, ZeroDivisionError):
        raise InputError(name, f"expected a number such as 12, 3.5 or 7/2, not {text!r}") from None


def _combat(text: str, i: int) -> Combat:
    """``D[+M][:art][:overrun]``: D divisions, M minor divisions, artillery support flag."""
    head, *flags = (p.strip().lower() for p in text.split(":"))
    d, _, m = head.partition("+")
    if not d.isdigit() or (m and not m.isdigit()):
        raise InputError("--combat", f"combat {i}: expected D[+M][:art][:overrun], not {text!r}")
    if len(d) > 6 or len(m) > 6:  # before int(): Python refuses to read 4,300+ digits
        raise InputError("--combat", f"combat {i}: at most 999999 divisions")
    bad = [f for f in flags if f not in ("art", "overrun")]
    if bad:
        raise InputError("--combat", f"combat {i}: unknown flag {bad[0]!r} (art, overrun)")
    return Combat(int(d), int(m or 0), "art" in flags, "overrun" in flags)


def register(europa_app: typer.Typer) -> None:
    """Attach the ``supply`` command group to ``grognard europa``."""
    app = typer.Typer(help="Europa revised supply, isolation, replacements and logistics; "
                      "Fire in the East adjustments (EUR-30..EUR-45).", no_args_is_help=True)

    @app.command()
    def costs(
        mech: Annotated[int, typer.Option("--mech", help="Mechanized divisions moving.")] = 0,
        motorized: Annotated[int, typer.Option("--motorized",
                                               help="Motorized divisions moving.")] = 0,
        combat: Annotated[list[str] | None, typer.Option(
            "--combat", help="One combat: D[+M][:art][:overrun] (D divisions, M Axis-minor/"
            "security divisions; repeatable).")] = None,
        air: Annotated[int, typer.Option("--air", help="Air units used.")] = 0,
        reading: ReadingOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """EUR-37: SP cost of a player turn's operations."""
        ops = Operations(mech, motorized,
                         tuple(_combat(c, i) for i, c in enumerate(combat or [], start=1)), air)
        emit(sp_cost(ops, _readings(reading), current_tables()).to_json(), as_json)

    @app.command()
    def receipt(
        side: Annotated[str, typer.Argument(help="german or soviet.")],
        zone: Annotated[int, typer.Option("--zone", help="Zone of the German advance 1..4.")],
        date: Annotated[str, typer.Option("--date", help="Turn date YYYY-MM.")],
        weather: Annotated[str, typer.Option("--weather", help="clear|frost|snow|mud.")] = "clear",
        reading: ReadingOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """EUR-38/40/41: a side's FitE supply receipt for a turn."""
        emit(turn_receipt(side, zone, date, weather, _readings(reading),
                          current_tables()).to_json(), as_json)

    @app.command()
    def stockpile(
        amount: Annotated[str, typer.Argument(help="Unspent stockpile (SP).")],
        from_zone: Annotated[int, typer.Option("--from", help="Old zone.")],
        to_zone: Annotated[int, typer.Option("--to", help="New zone.")],
        side: Annotated[str, typer.Option("--side", help="german or soviet.")] = "german",
        as_json: JsonOpt = False,
    ) -> None:
        """EUR-38: the stockpile after entering a new zone of the German advance."""
        before = _exact(amount, "amount")
        after = stockpile_on_transition(before, from_zone, to_zone, side, current_tables())
        emit({"side": side.lower(), "from_zone": from_zone, "to_zone": to_zone,
              "before": exact_json(before), "after": exact_json(after),
              "reduction": exact_json(before - after)}, as_json)

    @app.command()
    def isolation(
        roll: Annotated[int, typer.Option("--roll", help="Natural 2D6 roll (2..12).")],
        strength: Annotated[str, typer.Option("--strength", help="Stack strength (EUR-11).")],
        adjacent_enemy: Annotated[bool, typer.Option("--adjacent-enemy")] = False,
        region: Annotated[str, typer.Option(
            "--region", help="eastern_europe|russia|scandinavia|north_africa|other.")] = "other",
        winter: Annotated[bool, typer.Option("--winter")] = False,
        home_country: Annotated[bool, typer.Option("--home-country")] = False,
        major_city_path: Annotated[bool, typer.Option("--major-city-path")] = False,
        as_json: JsonOpt = False,
    ) -> None:
        """EUR-32: one isolated hex's attrition roll, with the exact chance of a loss."""
        t = current_tables().get(ISOLATION_DRM_TABLE)
        r = isolation_roll(roll, strength=_exact(strength, "--strength"),
                           adjacent_enemy=adjacent_enemy, region=region, winter=winter,
                           home_country=home_country, major_city_path=major_city_path, table=t)
        out = r.to_json()
        out["loss_chance"] = ratio_str(isolation_loss_chance(sum(r.drms.values()), t))
        emit(out, as_json)

    @app.command()
    def breakout(
        total: Annotated[str, typer.Argument(help="Total strength of the stack.")],
        modified_roll: Annotated[int | None, typer.Option(
            "--modified-roll", help="The hex's modified attrition roll.")] = None,
        drm: Annotated[int | None, typer.Option(
            "--drm", help="Total DRM: print the exact odds instead of resolving a roll.")] = None,
        hex_label: Annotated[str, typer.Option("--hex")] = "",
        unit: Annotated[list[str] | None, typer.Option("--unit", help="Unit id (repeat).")
                        ] = None,
        reading: ReadingOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """EUR-31: Break Out replacements for a roll, or their exact odds for a DRM."""
        tot = _exact(total, "total")
        r = _readings(reading)
        t = current_tables().get(ISOLATION_DRM_TABLE)
        if (modified_roll is None) == (drm is None):
            raise InputError("--modified-roll", "give exactly one of --modified-roll or --drm")
        if drm is not None:
            odds = breakout_odds(tot, drm, r, t)
            emit({"total": exact_json(tot), "drm": drm,
                  "odds": [{"infantry_replacements": k, "probability": ratio_str(v)}
                           for k, v in odds.items()]}, as_json)
            return
        roll = int(modified_roll or 0)
        emit(break_out(hex_label, unit or ["stack"], tot, roll, r, t).to_json(), as_json)

    @app.command()
    def replacements(
        status: Annotated[str, typer.Argument(
            help="cadre_on_map|cadre_destroyed|single_step_destroyed|full_on_map.")],
        pool: Annotated[str, typer.Option("--pool", help="infantry|armor|artillery.")
                        ] = "infantry",
        out_of_supply: Annotated[bool, typer.Option("--out-of-supply")] = False,
        attacked: Annotated[bool, typer.Option("--attacked")] = False,
        exploited: Annotated[bool, typer.Option("--exploited")] = False,
        returned: Annotated[bool, typer.Option("--returned-this-turn")] = False,
        re_size: Annotated[str, typer.Option("--re-size")] = "1",
        reading: ReadingOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """EUR-33: what a unit may take in the replacement phase, and the RE cost."""
        c = Candidate("unit", pool, status, not out_of_supply, attacked, exploited, returned,
                      _exact(re_size, "--re-size"))
        emit({"options": [o.to_json() for o in replacement_options(c, _readings(reading))]},
             as_json)

    @app.command("soviet-rps")
    def soviet_rps_cmd(
        location: Annotated[list[str] | None, typer.Option(
            "--location", help="A Soviet-held replacement location (repeat).")] = None,
        factories: Annotated[int, typer.Option("--factories",
                                               help="Operating factories.")] = 0,
        as_json: JsonOpt = False,
    ) -> None:
        """EUR-42: Soviet replacement points per turn."""
        t = current_tables().get(SOVIET_RP_TABLE)
        emit(soviet_rps(location or [], factories, t).to_json(), as_json)

    @app.command()
    def truck(
        weather: Annotated[str, typer.Argument(help="clear|mud (others need --original).")],
        extended: Annotated[bool, typer.Option("--extended")] = False,
        original: Annotated[int | None, typer.Option(
            "--original", help="Original FitE range in this weather (EXTERNAL).")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """EUR-35: FitE truck supply range and the supply it gives."""
        t = current_tables().get("europa_fite_truck_ranges")
        emit({"weather": weather.lower(), "extended": extended,
              "hexes": truck_range(weather, extended, original, t),
              "supply": supply_grade_through(extended).value}, as_json)

    @app.command("air-surprise")
    def air_surprise_cmd(
        attackers: Annotated[list[int], typer.Argument(
            help="German air units striking each target airfield.")],
        reading: ReadingOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """EUR-45: Soviet air units eliminated by FitE airfield surprise strikes."""
        emit(air_surprise(attackers, _readings(reading)).to_json(), as_json)

    @app.command("phase")
    def phase_cmd(
        file: Annotated[Path, typer.Argument(help="Supply-phase JSON (docs/formats/"
                                             "europa_supply.md).")],
        as_json: JsonOpt = False,
    ) -> None:
        """EUR-30: the phasing side's supply phase (isolated, newly marked, restored)."""
        emit(supply_phase_from_json(read_json(file, "file")).to_json(), as_json)

    europa_app.add_typer(app, name="supply")
