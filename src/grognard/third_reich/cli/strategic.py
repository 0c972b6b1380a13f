"""``grognard 3r ...`` commands of the strategic layer (calendar, economy, lend lease, SW).

Thin: parse, call one rule function, render. JSON outputs and the ledger file are documented in
docs/formats/tr_strategic.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from grognard.core.dice import DiceStream
from grognard.core.errors import InputError
from grognard.core.exact import exact_json, q
from grognard.core.inputs import write_atomic
from grognard.engine.terminal import (
    JsonOpt,
    current_tables,
    dump_json,
    emit,
    grid_table,
    kv_table,
    read_json,
)

LedgerArg = Annotated[Path, typer.Argument(metavar="LEDGER.json", help="A ledger file.")]
OutOpt = Annotated[Path | None, typer.Option("--out", help="Write the new ledger here.")]




def _ints(text: str, name: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip() != ""]
    except ValueError:
        raise InputError(name, f"expected comma-separated integers, not {text!r}") from None


def _assets(text: str | None, name: str, allowed: tuple[str, ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    if not text:
        return out
    for part in text.split(","):
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if not sep or key not in allowed:
            raise InputError(name, f"expected {'=N,'.join(allowed)}=N, not {part!r}")
        try:
            out[key] = int(value)
        except ValueError:
            raise InputError(name, f"{key} needs a whole number, not {value!r}") from None
    return out


def _write(data: dict[str, Any], out: Path | None) -> None:
    if out is not None:
        write_atomic(out, dump_json(data) + "\n", what="--out")


def _ledger_human(data: dict[str, Any]) -> Callable[[Any], None]:
    def show(c: Any) -> None:
        rows = [(p, v["base"], v["brp"]) for p, v in data["summary"].items()]
        c.print(grid_table(["power", "base", "BRPs"], rows,
                           f"Turn {data['turn']}: {data['season']} {data['year']}"))
        entries = data["ledger"]["entries"][-40:]
        c.print(grid_table(["#", "account", "amount", "balance", "rule", "cause"],
                           [(e["seq"], e["account"], e["amount"], e["balance"], e["rule"],
                             e["cause"]) for e in entries], "Ledger (last 40 entries)"))
    return show


def register(tr_app: typer.Typer) -> None:
    """Add the strategic-layer commands to ``grognard 3r``."""
    ledger_app = typer.Typer(help="BRP ledger files (C-ECON).", no_args_is_help=True)
    tr_app.add_typer(ledger_app, name="ledger")

    @tr_app.command("calendar")
    def calendar_cmd(turn: Annotated[int, typer.Argument(help="Campaign turn (1 = Fall 1939).")],
                     as_json: JsonOpt = False) -> None:
        """Year and season of a campaign turn (TR-04)."""
        from grognard.third_reich.turn.calendar import date_of

        data = date_of(turn).to_json()
        emit(data, as_json)

    @tr_app.command("weather")
    def weather_cmd(
        region: Annotated[str, typer.Option("--region", help="scandinavia, east, mediterranean "
                                            "or europe.")],
        turn: Annotated[int, typer.Option("--turn", help="Campaign turn.")],
        as_json: JsonOpt = False,
    ) -> None:
        """Weather of a region on a turn (TR-05; Spring 1940 Scandinavia is clear)."""
        from grognard.third_reich.turn.calendar import WEATHER_TABLE_ID, weather

        w = weather(region, turn, current_tables()[WEATHER_TABLE_ID])
        emit({"weather": w.value}, as_json)

    @tr_app.command("growth")
    def growth_cmd(
        power: Annotated[str, typer.Option("--power", help="germany, italy, ussr, uk, france, "
                                           "us.")],
        saved: Annotated[str, typer.Option("--saved", help="BRPs saved at the end of Winter.")],
        as_json: JsonOpt = False,
    ) -> None:
        """Base increase from BRPs saved at the end of Winter (TR-10)."""
        from grognard.third_reich.economy.year_start import growth

        try:
            amount = q(saved)
        except (ValueError, ZeroDivisionError):
            raise InputError("--saved", f"not an exact number: {saved!r}") from None
        emit({"base_increase": growth(power, amount)}, as_json)

    @ledger_app.command("new")
    def ledger_new_cmd(
        scenario: Annotated[str, typer.Option("--scenario", help="campaign-1939.")]
        = "campaign-1939",
        out: Annotated[Path | None, typer.Option("--out", help="Also write it here.")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """A starting BRP ledger for a scenario (TR-86)."""
        from grognard.third_reich.economy.economy import new_campaign

        data = new_campaign(scenario).to_json()
        _write(data, out)
        emit(data, as_json, _ledger_human(data))

    @tr_app.command("year-start")
    def year_start_cmd(
        ledger: Annotated[Path, typer.Argument(metavar="LEDGER.json", help="A ledger file.")],
        ussr_cities: Annotated[int | None, typer.Option(
            "--ussr-cities", help="Axis-held pre-war USSR city value now (TR-12).")] = None,
        out: Annotated[Path | None, typer.Option("--out", help="Write the new ledger here.")]
        = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Run the next Spring Year Start on a ledger (TR-07..TR-13, TR-80, TR-81)."""
        from grognard.third_reich.economy.economy import Economy
        from grognard.third_reich.economy.year_start import next_year_start

        econ = Economy.from_json(read_json(ledger, "LEDGER.json"))
        new, record = next_year_start(econ, ussr_cities)
        data = new.to_json()
        _write(data, out)
        data = {**data, "year_start": record.to_json()}
        emit(data, as_json, _ledger_human(data))

    @tr_app.command("bomb-city")
    def bomb_city_cmd(
        factors: Annotated[str, typer.Option("--factors", help="Air factors bombing.")],
        roll: Annotated[int, typer.Option("--roll", help="Natural 1D10 roll.")],
        city_value: Annotated[int | None, typer.Option(
            "--city-value", help="City value left this year (caps the hits).")] = None,
        drm: Annotated[int, typer.Option("--drm", help="Roll modifier.")] = 0,
        as_json: JsonOpt = False,
    ) -> None:
        """BRP hits of tactical air bombing a city (TR-78, 1D10 table TR-50)."""
        from grognard.third_reich.air_naval.effectiveness import TABLE_ID
        from grognard.third_reich.economy.economic_loss import city_bombing

        try:
            f = q(factors)
        except (ValueError, ZeroDivisionError):
            raise InputError("--factors", f"not an exact number: {factors!r}") from None
        hits = city_bombing(f, roll, drm, city_value, current_tables()[TABLE_ID])
        emit({"hits": hits}, as_json)

    @tr_app.command("sw")
    def sw_cmd(
        rolls: Annotated[str, typer.Option("--rolls", help="1D10 rolls: offense fire[, defense "
                                           "fire], economy fire (comma-separated).")],
        subs: Annotated[int | None, typer.Option("--subs", help="U-boat factors.")] = None,
        asw: Annotated[int, typer.Option("--asw", help="ASW factors opposing.")] = 0,
        target: Annotated[str, typer.Option("--target", help="uk or us.")] = "uk",
        bombers: Annotated[int | None, typer.Option("--bombers", help="Bomber factors "
                                                    "(instead of --subs).")] = None,
        interceptors: Annotated[int, typer.Option("--interceptors", help="Interceptors.")] = 0,
        turn: Annotated[int | None, typer.Option(
            "--turn", help="Campaign turn (applies the Spring 1942 Happy Time, TR-82).")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """One strategic-warfare round (TR-79): losses on both sides and economy hits."""
        from grognard.core.errors import IllegalOrder
        from grognard.third_reich.air_naval.effectiveness import TABLE_ID
        from grognard.third_reich.strategic.strategic_warfare import happy_time, sw_round_from_rolls
        from grognard.third_reich.turn.powers import parse_power

        table = current_tables()[TABLE_ID]
        r = _ints(rolls, "--rolls")
        if turn is not None and turn < 3:
            raise IllegalOrder("TR-08", f"no strategic warfare before Spring 1940 (turn 3); "
                               f"turn {turn} is earlier")
        if (subs is None) == (bombers is None):
            raise InputError("--subs/--bombers", "give exactly one of --subs or --bombers")
        if subs is not None:
            t = parse_power(target, "--target")
            if t.value not in ("uk", "us"):
                raise IllegalOrder("TR-79", f"U-boats attack the UK or the US, not {t.value}")
            drm = 0
            if turn is not None:
                ht = happy_time(turn, t)
                drm = ht.drm
                if asw and not ht.uk_asw_allowed:
                    raise IllegalOrder("TR-82", "in Spring 1942 no ASW may oppose U-boats "
                                       "attacking the US economy")
            res = sw_round_from_rolls("subs", subs, asw, r, drm, table)
        else:
            assert bombers is not None
            res = sw_round_from_rolls("bombers", bombers, interceptors, r, 0, table)
        data = res.to_json()
        emit(data, as_json, lambda c: c.print(kv_table(data, "Strategic warfare round")))

    @tr_app.command("murmansk")
    def murmansk_cmd(
        ll: Annotated[str, typer.Option("--ll", help="Lend-lease counters, e.g. 20,20.")],
        german: Annotated[str | None, typer.Option(
            "--german", help="air=N,naval=N,subs=N")] = None,
        allied: Annotated[str | None, typer.Option("--allied", help="naval=N,asw=N")] = None,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed for the 1D10s.")] = None,
        rolls: Annotated[str | None, typer.Option(
            "--rolls", help="Nine 1D10s in sequence order (instead of --seed).")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Resolve the Murmansk box (TR-20, TR-21): BRPs delivered and losses."""
        from grognard.third_reich.air_naval.effectiveness import TABLE_ID
        from grognard.third_reich.strategic.murmansk import (
            AlliedAssets,
            GermanAssets,
            MurmanskBox,
            MurmanskRolls,
            commit_allied,
            commit_german,
            draw_rolls,
            place_shipment,
            resolve,
        )

        counters = _ints(ll, "--ll")
        if len(counters) > 2:
            raise InputError("--ll", "at most two counters (one UK, one US)")
        box = MurmanskBox()
        for sender, amount in zip(("uk", "us"), counters, strict=False):
            box = place_shipment(box, sender, amount)
        box = commit_allied(box, AlliedAssets(**_assets(allied, "--allied", ("naval", "asw"))))
        box = commit_german(box, GermanAssets(**_assets(german, "--german",
                                                        ("air", "naval", "subs"))))
        if (seed is None) == (rolls is None):
            raise InputError("--seed/--rolls", "give exactly one of --seed S or --rolls")
        if seed is not None:
            if seed < 0:
                raise InputError("--seed", "must be a non-negative integer")
            mr = draw_rolls(DiceStream(seed, "3r.murmansk"))
        else:
            assert rolls is not None
            values = _ints(rolls, "--rolls")
            if len(values) != 9:
                raise InputError("--rolls", f"nine rolls in sequence order, got {len(values)}")
            mr = MurmanskRolls(*values)
        _, result = resolve(box, mr, current_tables()[TABLE_ID])
        data = result.to_json()
        emit(data, as_json, lambda c: c.print(kv_table(
            {k: v if not isinstance(v, dict | list) else json.dumps(v)
             for k, v in data.items()}, "Murmansk box")))

    def _load(path: Path) -> Any:
        from grognard.third_reich.economy.economy import Economy

        return Economy.from_json(read_json(path, "LEDGER.json"))

    @ledger_app.command("spend")
    def ledger_spend_cmd(
        ledger: LedgerArg,
        power: Annotated[str, typer.Option("--power", help="The paying power.")],
        amount: Annotated[str, typer.Option("--amount", help="BRPs to pay.")],
        cause: Annotated[str, typer.Option("--cause", help="What for.")] = "builds",
        rule: Annotated[str, typer.Option("--rule", help="Rule ID of the payment.")] = "TR-31",
        out: OutOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Pay BRPs in the power's player turn (half-of-total cap, TR-75)."""
        from grognard.core.errors import IllegalOrder
        from grognard.third_reich.economy.economy import spend_in_turn

        try:
            a = q(amount)
        except (ValueError, ZeroDivisionError):
            raise InputError("--amount", f"not an exact number: {amount!r}") from None
        if a.denominator != 1:
            raise IllegalOrder("TR-31", f"BRPs are spent in whole numbers, not {amount}")
        new, rec = spend_in_turn(_load(ledger), power, a, rule, cause)
        data = new.to_json()
        _write(data, out)
        data = {**data, "spent": {"power": rec.power, "amount": exact_json(rec.amount),
                                  "rule": rec.rule, "brp_after": exact_json(rec.brp_after)}}
        emit(data, as_json, _ledger_human(data))

    @ledger_app.command("lend-lease")
    def ledger_lend_lease_cmd(
        ledger: LedgerArg,
        sender: Annotated[str, typer.Option("--from", help="germany, uk or us.")],
        receiver: Annotated[str, typer.Option("--to", help="italy, uk or ussr.")],
        amount: Annotated[int, typer.Option("--amount", help="BRPs (0/5/10 or 20).")],
        route: Annotated[str, typer.Option("--route", help="direct, north or south.")]
        = "direct",
        out: OutOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Send lend lease after the Spring Year Start (TR-14..TR-19)."""
        from grognard.third_reich.economy.lendlease import send_lend_lease

        new, rec = send_lend_lease(_load(ledger), sender, receiver, route, amount)
        data = new.to_json()
        _write(data, out)
        data = {**data, "lend_lease": rec.to_json()}
        emit(data, as_json, _ledger_human(data))

    @ledger_app.command("advance")
    def ledger_advance_cmd(ledger: LedgerArg, out: OutOpt = None,
                           as_json: JsonOpt = False) -> None:
        """Move the ledger to the next game turn (TR-04)."""
        from grognard.third_reich.economy.economy import advance_turn

        data = advance_turn(_load(ledger)).to_json()
        _write(data, out)
        emit(data, as_json, _ledger_human(data))
