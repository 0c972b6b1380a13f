"""``grognard europa air ...``: Europa revised sequence of play and air phase (EUR-22..EUR-28).

Formats: docs/formats/europa_air.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Annotated, Any

import typer

from grognard.core.dice import DiceStream
from grognard.core.errors import InputError
from grognard.core.exact import ratio_str
from grognard.engine.terminal import JsonOpt, console, current_tables, emit, grid_table, kv_table

SeedOpt = Annotated[int | None, typer.Option("--seed", help="Seed: roll the dice.")]
RollsOpt = Annotated[str | None, typer.Option(
    "--rolls", help="Comma-separated natural 2D6 rolls, two per fight (attacker, target).")]


def _int(text: str, where: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise InputError(where, f"not an integer: {text!r}") from None


def _units(specs: Sequence[str], where: str, fighter: bool = True) -> list[Any]:
    """Parse ``ID:AIR_COMBAT[:TACTICAL[:STRATEGIC]]``."""
    from grognard.europa.air.phase import AirUnit

    out = []
    for s in specs:
        parts = s.split(":")
        if not 2 <= len(parts) <= 4 or not parts[0]:
            raise InputError(where, f"expected ID:AIR_COMBAT[:TACTICAL[:STRATEGIC]], not {s!r}")
        nums = [_int(p, where) for p in parts[1:]] + [0, 0]
        out.append(AirUnit(parts[0], nums[0], 0, fighter, nums[1], nums[2]))
    return out


def _pairs(specs: Sequence[str], where: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for s in specs:
        a, sep, b = s.partition("=")
        if not sep or not a or not b:
            raise InputError(where, f"expected ATTACKER=TARGET, not {s!r}")
        if a in out:
            raise InputError(where, f"{a!r} is given two targets")
        out[a] = b
    return out


def _seed(seed: int | None) -> int:
    if seed is None or seed < 0:
        raise InputError("--seed", "must be a non-negative integer")
    return seed


def _rolls(rolls: str | None, seed: int | None, n: int, stream: str) -> list[int]:
    if (rolls is None) == (seed is None):
        raise InputError("--rolls/--seed", "give exactly one of --rolls or --seed")
    if rolls is not None:
        out = [_int(r, "--rolls") for r in rolls.split(",") if r.strip()]
        for r in out:
            if not 2 <= r <= 12:
                raise InputError("--rolls", f"a 2D6 roll is 2..12, not {r}")
        return out
    ds = DiceStream(_seed(seed), stream)
    return [ds.roll("2d6").total for _ in range(n)]


def _table() -> Any:
    from grognard.europa.air.phase import AIR_COMBAT_TABLE

    return current_tables().table(AIR_COMBAT_TABLE)


def register(europa_app: typer.Typer) -> None:
    """Attach the ``air`` group to ``grognard europa``."""
    app = typer.Typer(help="Europa revised sequence of play and air phase (EUR-22..EUR-28).",
                      no_args_is_help=True)

    @app.command("sequence")
    def sequence_cmd(
        players: Annotated[str, typer.Option("--players", help="Players in turn order, comma "
                                             "separated.")] = "axis,allies",
        as_json: JsonOpt = False,
    ) -> None:
        """The revised player turn as the engine runs it (EUR-22: each phase's commands,
        overruns, supply, isolation and replacements included; the rule-47 bonus phases) and
        the air phase steps (EUR-23)."""
        from grognard.engine.phases import ALWAYS_ALLOWED, Phase
        from grognard.europa.air.phase import AIR_PHASE_ORDER, step_player
        from grognard.europa.play.system import EUROPA
        from grognard.europa.play.turn import engine_turn

        names = [p.strip() for p in players.split(",") if p.strip()]
        if not names or len(set(names)) != len(names):
            raise InputError("--players", "give distinct players in turn order")
        known = frozenset(EUROPA.commands)
        phases = [Phase(p.name, p.player, (p.commands | ALWAYS_ALLOWED) & known)
                  for p in engine_turn(names).phases]
        data = {"rule": "EUR-22", "phases": [p.to_json() for p in phases],
                "air_steps": [{"step": s.value, "player": step_player(s)}
                              for s in AIR_PHASE_ORDER]}

        def human(c: Any = console) -> None:
            c.print(grid_table(["phase", "player", "commands"],
                               [[p.name, p.player, ", ".join(sorted(p.commands))]
                                for p in phases], "Europa revised game turn"))
            c.print(grid_table(["air step", "acts"], [[s.value, step_player(s)]
                                                      for s in AIR_PHASE_ORDER]))

        emit(data, as_json, human)

    @app.command("odds")
    def odds_cmd(firer: int, target: int, as_json: JsonOpt = False) -> None:
        """Exact odds of one air-to-air fire (EUR-24/25; reconstructed air combat table)."""
        from grognard.europa.air.phase import air_combat_column, air_combat_odds

        t = _table()
        odds = air_combat_odds(firer, target, t)
        data = {"rule": "EUR-24", "firer": firer, "target": target,
                "column": air_combat_column(firer, target, t),
                "probabilities": {r.value: ratio_str(p) for r, p in odds.items()},
                "removal": ratio_str(sum((p for r, p in odds.items() if r.removes),
                                         Fraction(0)))}
        emit(data, as_json, lambda c: c.print(kv_table(data, "Air combat odds")))

    @app.command("sweep")
    def sweep_cmd(
        sweeper: Annotated[list[str], typer.Option("--sweeper", help="ID:AIR_COMBAT")],
        defender: Annotated[list[str], typer.Option("--defender", help="ID:AIR_COMBAT")],
        pair: Annotated[list[str] | None, typer.Option(
            "--pair", help="SWEEPER=DEFENDER (default: spread evenly)")] = None,
        rolls: RollsOpt = None, seed: SeedOpt = None, as_json: JsonOpt = False,
    ) -> None:
        """Fighter sweep: one round of air-to-air combat (EUR-24)."""
        from grognard.europa.air.phase import fighter_sweep, sweep_pairings

        sw, df = _units(sweeper, "--sweeper"), _units(defender, "--defender")
        pairs = (tuple(_pairs(pair, "--pair").items()) if pair else
                 sweep_pairings([u.id for u in sw], [u.id for u in df]))
        rs = _rolls(rolls, seed, 2 * len(pairs), "europa.air.sweep")
        data = fighter_sweep(sw, df, pairs, rs, _table()).to_json()
        emit(data, as_json, lambda c: c.print(kv_table(data, "Fighter sweep")))

    @app.command("intercept")
    def intercept_cmd(
        interceptor: Annotated[list[str], typer.Option("--interceptor", help="ID:AIR_COMBAT")],
        striker: Annotated[list[str], typer.Option(
            "--striker", help="ID:AIR_COMBAT:TACTICAL:STRATEGIC (bomber or strike fighter)")],
        escort: Annotated[list[str] | None, typer.Option("--escort",
                                                         help="ID:AIR_COMBAT")] = None,
        escort_target: Annotated[list[str] | None, typer.Option(
            "--escort-target", help="INTERCEPTOR=ESCORT")] = None,
        strike_target: Annotated[list[str] | None, typer.Option(
            "--strike-target", help="INTERCEPTOR=STRIKER")] = None,
        kind: Annotated[str, typer.Option("--kind", help="mission kind")] = "ground_support",
        after_escorts: Annotated[str, typer.Option(
            "--after-escorts", help="bombers_if_cleared (default) or none")
        ] = "bombers_if_cleared",
        rolls: RollsOpt = None, seed: SeedOpt = None, as_json: JsonOpt = False,
    ) -> None:
        """Interception of one mission: escorts first, then strike units (EUR-25)."""
        from grognard.core.errors import parse_enum
        from grognard.europa.air.phase import (
            AfterEscorts,
            AirPhaseReadings,
            Mission,
            MissionKind,
            intercept,
        )

        ic = _units(interceptor, "--interceptor")
        mission = Mission("mission", parse_enum(MissionKind, kind, "--kind"),
                          tuple(_units(escort or [], "--escort")),
                          tuple(_units(striker, "--striker", fighter=False)))
        readings = AirPhaseReadings(parse_enum(AfterEscorts, after_escorts, "--after-escorts"))
        rs = _rolls(rolls, seed, 4 * len(ic), "europa.air.intercept")
        data = intercept(ic, mission, _pairs(escort_target or [], "--escort-target"),
                         _pairs(strike_target or [], "--strike-target"), rs, readings,
                         _table()).to_json()
        emit(data, as_json, lambda c: c.print(kv_table(data, "Interception")))

    @app.command("interdiction")
    def interdiction_cmd(
        tactical: int,
        roll: Annotated[int | None, typer.Option("--roll", help="Natural D6 roll.")] = None,
        seed: SeedOpt = None,
        divisor: Annotated[int, typer.Option("--divisor",
                                             help="interdiction_rating_divisor")] = 1,
        as_json: JsonOpt = False,
    ) -> None:
        """Interdiction D6 test (EUR-26): success on 1D6 <= the tactical strike rating."""
        from grognard.europa.air.interdiction import (
            InterdictionReadings,
            interdiction_chance,
            interdiction_succeeds,
            interdiction_target,
        )

        readings = InterdictionReadings(interdiction_rating_divisor=divisor)
        if roll is not None and seed is not None:
            raise InputError("--roll/--seed", "give at most one of --roll or --seed")
        d6 = roll if seed is None else DiceStream(_seed(seed), "europa.air.interdiction").die(6)
        data: dict[str, Any] = {
            "rule": "EUR-26", "tactical": tactical,
            "target": interdiction_target(tactical, readings),
            "chance": ratio_str(interdiction_chance(tactical, readings)),
            "roll": d6,
            "success": None if d6 is None else interdiction_succeeds(tactical, d6, readings)}
        emit(data, as_json, lambda c: c.print(kv_table(data, "Interdiction")))

    @app.command("airbase")
    def airbase_cmd(
        name: str,
        capacity: Annotated[int, typer.Option("--capacity", help="Airbase capacity.")],
        active: Annotated[str, typer.Option("--active", help="Active air unit ids, comma "
                                            "separated.")] = "",
        base_hits: Annotated[int, typer.Option("--base-hits", help="Hits already on the "
                                               "base.")] = 0,
        hits: Annotated[int | None, typer.Option("--hits", help="Hits scored (skip the "
                                                 "bombardment roll).")] = None,
        strength: Annotated[int | None, typer.Option("--strength", help="Tactical points "
                                                     "attacking.")] = None,
        roll: Annotated[int | None, typer.Option("--roll", help="Natural 2D6 roll.")] = None,
        seed: SeedOpt = None, as_json: JsonOpt = False,
    ) -> None:
        """Airbase attack (EUR-27): hits on the base, one random active unit inactive per hit."""
        from grognard.europa.air.airbase_attack import (
            Airbase,
            airbase_attack,
            airbase_hit_odds,
            airbase_hits,
            random_picks,
        )

        base = Airbase(name, capacity, base_hits,
                       tuple(a.strip() for a in active.split(",") if a.strip()))
        tables = current_tables()
        bt = tables.table("europa_revised_bombardment")
        odds = None
        if hits is None:
            if strength is None:
                raise InputError("--hits/--strength", "give --hits N or --strength S")
            odds = airbase_hit_odds(strength, table=bt)
            if roll is None and seed is None:
                raise InputError("--roll/--seed", "give --roll N or --seed S")
            r = roll if roll is not None else DiceStream(
                _seed(seed), "europa.air.airbase").roll("2d6").total
            hits = airbase_hits(strength, r, table=bt)
        picks = random_picks(base, hits, DiceStream(seed or 0, "europa.air.airbase_pick"))
        new, rec = airbase_attack(base, hits, picks)
        data = {**rec.to_json(), "airbase": new.to_json(),
                "hit_odds": None if odds is None else {str(k): ratio_str(v)
                                                       for k, v in sorted(odds.items())}}
        emit(data, as_json, lambda c: c.print(kv_table(data, "Airbase attack")))

    @app.command("bombing")
    def bombing_cmd(
        target: str,
        results: Annotated[str, typer.Argument(help="Bombardment results this turn, e.g. 2,1,0")],
        explicit_supply_units: Annotated[bool, typer.Option(
            "--explicit-supply-units", help="Game with supply units (Western Desert).")] = False,
        hit_limit: Annotated[int | None, typer.Option(
            "--hit-limit", help="Rail mission per-target effective-hit limit.")] = None,
        prior_hits: Annotated[int, typer.Option(
            "--prior-hits", help="Hits already recorded this turn.")] = 0,
        as_json: JsonOpt = False,
    ) -> None:
        """Strategic bombing effects (EUR-28): SPs, Russian replacements, supply steps."""
        from grognard.europa.air.strategic_bombing import strategic_bombing

        rs = [_int(r, "RESULTS") for r in results.split(",") if r.strip()]
        data = strategic_bombing(target, rs, explicit_supply_units, hit_limit,
                                 prior_hits).to_json()
        emit(data, as_json, lambda c: c.print(kv_table(data, "Strategic bombing")))

    europa_app.add_typer(app, name="air")
