"""``grognard europa combat ...`` and ``grognard europa crt`` (Europa revised combat)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from grognard.core.dice import DiceStream
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import exact_json
from grognard.engine.terminal import (
    JsonOpt,
    console,
    current_tables,
    emit,
    grid_table,
    kv_table,
    read_json,
)
from grognard.europa.combat.attack import CRT_TABLE, Attack, Side, attack_from_json

AttackArg = Annotated[Path, typer.Argument(metavar="ATTACK.json",
                                           help="The attack (docs/formats/europa_combat.md).")]


def _load_attack(path: Path) -> Attack:
    return attack_from_json(read_json(path, "ATTACK.json"), current_tables())


def _roll_opt(name: str, value: int | None) -> int | None:
    if value is not None and not 2 <= value <= 12:
        raise InputError(name, f"a 2D6 roll is 2..12, not {value}")
    return value


def register(europa_app: typer.Typer) -> None:
    """Attach the ``combat`` group and the ``crt`` command to ``grognard europa``."""
    app = typer.Typer(help="Europa revised combat (EUR-01..EUR-16, EUR-29).", no_args_is_help=True)

    @app.command("resolve")
    def resolve_cmd(
        attack_file: AttackArg,
        roll: Annotated[int | None, typer.Option("--roll", help="Natural 2D6 CRT roll.")] = None,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed: roll the dice.")] = None,
        barrage_roll: Annotated[int | None, typer.Option(
            "--barrage-roll", help="Natural 2D6 barrage roll (attacking artillery).")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Resolve one attack (EUR-09): barrage, armor DRM, odds, CRT roll, losses, retreats."""
        from grognard.europa.combat.crt import outcome_json, resolve

        if (roll is None) == (seed is None):
            raise InputError("--roll/--seed", "give exactly one of --roll N or --seed S")
        attack = _load_attack(attack_file)
        crt_roll = _roll_opt("--roll", roll)
        b_roll = _roll_opt("--barrage-roll", barrage_roll)
        if seed is not None:
            if seed < 0:
                raise InputError("--seed", "must be a non-negative integer")
            b_roll = b_roll if b_roll is not None else (
                DiceStream(seed, "europa.barrage").roll("2d6").total)
            crt_roll = DiceStream(seed, "europa.combat").roll("2d6").total
        assert crt_roll is not None
        out = resolve(attack, crt_roll, b_roll, current_tables())
        data = outcome_json(out)
        emit(data, as_json, lambda c: c.print(kv_table(data, "Europa revised combat")))

    @app.command("odds")
    def odds_cmd(attack_file: AttackArg, as_json: JsonOpt = False) -> None:
        """Exact odds of every result of an attack before rolling (EUR-09, EUR-11)."""
        from grognard.europa.combat.crt_analysis import attack_odds

        data = attack_odds(_load_attack(attack_file), current_tables()).to_json()

        def human(c: Any = console) -> None:
            head = {k: v for k, v in data.items() if k != "probabilities"}
            c.print(kv_table(head, "Europa revised attack odds"))
            c.print(grid_table(["result", "probability"],
                               [[k, v] for k, v in data["probabilities"].items()]))

        emit(data, as_json, human)

    @app.command("allocate")
    def allocate_cmd(
        attack_file: AttackArg,
        side: Annotated[str, typer.Option("--side", help="attacker or defender")],
        requirement: Annotated[str, typer.Option("--requirement",
                                                 help="Loss requirement in SPs: 2, 4.5, 9/2")],
        units: Annotated[str, typer.Option("--units", help="Unit ids in order, comma "
                                           "separated; an id twice = reduce then eliminate")],
        as_json: JsonOpt = False,
    ) -> None:
        """Check a loss allocation (EUR-12/13) and credit the excess (EUR-14)."""
        from grognard.europa.combat.losses import allocate_losses

        try:
            who = Side(side)
        except ValueError:
            raise InputError("--side", f"must be attacker or defender, not {side!r}") from None
        try:
            req = Fraction(requirement.strip())
        except (ValueError, ZeroDivisionError):
            raise InputError("--requirement", f"not an exact number: {requirement!r}") from None
        if req < 0:
            raise InputError("--requirement", "must not be negative")
        ids = [u.strip() for u in units.split(",") if u.strip()]
        if not ids:
            raise InputError("--units", "name at least one unit")
        attack = _load_attack(attack_file)
        mine = {u.id for u in attack.side_units(who)}
        for uid in ids:
            if uid not in mine:
                raise InputError("--units",
                                 f"unit {uid!r} is not one of the {who}'s units in the attack")
        try:
            a = allocate_losses(attack, who, req, ids, current_tables())
            data: dict[str, Any] = {"valid": True, "credited": a.credited,
                                    "excess": exact_json(a.excess),
                                    "replacements": a.replacements.to_json(), "reason": None}
        except IllegalOrder as exc:
            data = {"valid": False, "credited": None, "excess": None, "replacements": None,
                    "reason": str(exc)}
        emit(data, as_json, lambda c: c.print(kv_table(data, "Loss allocation")))

    europa_app.add_typer(app, name="combat")

    @europa_app.command("crt")
    def crt_cmd(
        as_json: JsonOpt = False,
        png: Annotated[Path | None, typer.Option("--png", metavar="FILE",
                                                 help="Write a chart (PNG).")] = None,
    ) -> None:
        """Per CRT column, for DRMs -1..+2: P(attacker loss), E[attacker loss] and E[defender
        loss] in L, P(defender dislodged: DR or D2)."""
        from grognard.europa.combat.crt_analysis import DRMS, column_stats

        table = current_tables().get(CRT_TABLE)
        stats = column_stats(table, DRMS)
        if png is not None:
            from grognard.europa.combat.crt_analysis import crt_chart

            crt_chart(stats, png, f"{table.title} [{table.source}]")
        data = {"table": table.id, "source": str(table.source), "drms": list(DRMS),
                "rows": [s.to_json() for s in stats],
                "png": str(png) if png is not None else None}

        def human(c: Any = console) -> None:
            c.print(grid_table(
                ["column", "DRM", "P(att loss)", escape("E[att loss] (L)"),
                 escape("E[def loss] (L)"), "P(def dislodged)"],
                [[s.column, f"{s.drm:+d}", f"{float(s.p_attacker_loss):.3f}",
                  f"{float(s.e_attacker_loss):.3f}", f"{float(s.e_defender_loss):.3f}",
                  f"{float(s.p_defender_dislodged):.3f}"] for s in stats],
                title=f"{table.title} ({table.source})"))
            if png is not None:
                c.print(f"chart written to {png}")

        emit(data, as_json, human)

