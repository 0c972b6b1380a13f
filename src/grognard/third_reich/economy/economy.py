"""C-ECON: the Revised Third Reich BRP economy — one immutable state with an audited ledger.

Every BRP change is a :class:`~grognard.core.ledger.Ledger` posting naming its rule ID and
cause, so a player can read the economy line by line. Accounts (all exact):

* ``<power>.base`` — the BRP base; ``<power>.brp`` — BRPs on hand;
* ``<power>.pending`` — base changes earned this year (conquests, minor allies), applied at
  the next Spring Year Start (TR-11, TR-23, TR-24);
* ``<power>.sw_hits`` — strategic-warfare hits suffered this calendar year (TR-08, TR-13);
  ``<power>.sw_base_hits`` — the part of them that comes off the base at Year Start;
* ``<power>.sw_limit.<kind>`` / ``<power>.sw_spent.<kind>`` — SW spending limits (TR-80);
* ``<power>.turn_open`` / ``turn_cap`` / ``turn_spent`` — the half-of-total cap (TR-75);
* ``<power>.fleet_conversions`` / ``germany.air_conversions`` (+ ``_year``) — TR-81;
* ``ussr.axis_cities`` / ``ussr.axis_cities_last`` — Axis-held pre-war USSR cities (TR-12);
* ``ll.north.<sender>`` / ``ll.south`` — lend lease in transit (TR-15..TR-18);
* ``ll.murmansk.due`` — Murmansk BRPs that survived the box, held for the USSR (TR-20/21);
* ``city.<name>`` — bombing damage on a city this calendar year (TR-78).

>>> e = new_campaign()
>>> e.date.season.value, int(e.base("germany")), int(e.brp("france"))
('fall', 150, 60)
>>> e2, _ = spend(e, "germany", 10, "TR-03", "western offensive")
>>> e2.brp("germany"), e.brp("germany"), e2.ledger.entries[-1].rule
(Fraction(140, 1), Fraction(150, 1), 'TR-03')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeVar, cast

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import Exact, exact_json
from grognard.core.ledger import Entry, Ledger
from grognard.third_reich.economy.readings import HalfSpendScope, StrategicReadings
from grognard.third_reich.economy.start_values import CAMPAIGN_1939_POWERS, starting_base
from grognard.third_reich.state_types import EconomyJSON
from grognard.third_reich.turn.calendar import LAST_TURN, GameDate, Season, date_of
from grognard.third_reich.turn.powers import MOVEMENT_ORDER, Power, parse_power

FORMAT = "grognard.tr_ledger/1"
_ZERO = Fraction(0)
SCENARIOS = ("campaign-1939",)


def acct(power: Power | str, name: str) -> str:
    if type(power) is str or type(power) is Power:
        return _acct(power, name)
    return f"{Power(power).value}.{name}"


@lru_cache(maxsize=4096)
def _acct(power: Power | str, name: str) -> str:
    """An account's name, remembered (a Power and its value are the same key: same name; a
    string that is no power raises each time, as exceptions are not remembered)."""
    return f"{Power(power).value}.{name}"


@dataclass(frozen=True)
class Economy:
    """The strategic state of a 3R campaign: turn, ledger and the facts BRP rules depend on."""

    turn: int
    ledger: Ledger
    powers: tuple[Power, ...]
    at_war_with_germany: frozenset[Power] = frozenset()
    belligerent: frozenset[Power] = frozenset()
    conquests: Mapping[str, Power] = field(default_factory=dict)  # territory -> credited power
    minor_allies: Mapping[str, Power] = field(default_factory=dict)  # minor -> patron
    iran_route_open: bool = False
    lend_lease_done: frozenset[str] = frozenset()  # decisions taken this year
    captured_cities: frozenset[str] = frozenset()  # TR-77: each loss only once
    spent_territories: frozenset[str] = frozenset()  # TR-23/TR-26: worth nothing any more
    readings: StrategicReadings = field(default_factory=StrategicReadings)

    @property
    def date(self) -> GameDate:
        return date_of(self.turn)

    @property
    def year(self) -> int:
        return self.date.year

    def balance(self, account: str) -> Fraction:
        return self.ledger.balance(account)

    def base(self, power: Power | str) -> Fraction:
        return self.ledger.balance(acct(power, "base"))

    def brp(self, power: Power | str) -> Fraction:
        return self.ledger.balance(acct(power, "brp"))

    def post(self, account: str, amount: Exact, rule: str, cause: str,
             allow_negative: bool = True) -> Economy:
        return _with_ledger(self, self.ledger.post(account, amount, rule, cause,
                                                   allow_negative=allow_negative))

    def set(self, account: str, value: Exact, rule: str, cause: str) -> Economy:
        return _with_ledger(self, self.ledger.set(account, value, rule, cause))

    def summary(self) -> dict[str, Any]:
        """Base and on-hand BRPs per power (for people and ``--json``)."""
        bal, zero = self.ledger.balances, Fraction(0)
        return {v: {"base": _json_of(bal.get(f"{v}.base", zero)),
                    "brp": _json_of(bal.get(f"{v}.brp", zero))}
                for v in (_power(p).value for p in self.powers)}

    def to_json(self) -> dict[str, Any]:
        """The ledger file (documented in docs/formats/tr_strategic.md)."""
        return {
            "format": FORMAT,
            "turn": self.turn,
            "year": self.year,
            "season": self.date.season.value,
            # the parts a posting carries over unchanged (the same objects) are written once
            # per object and copied (_kept_form)
            "powers": list(_kept_form(self.powers, 0, lambda: [p.value for p in self.powers])),
            "at_war_with_germany": list(_kept_form(self.at_war_with_germany, 0, lambda: sorted(
                p.value for p in self.at_war_with_germany))),
            "belligerent": list(_kept_form(self.belligerent, 0, lambda: sorted(
                p.value for p in self.belligerent))),
            "conquests": dict(_kept_form(self.conquests, 0, lambda: {
                k: v.value for k, v in sorted(self.conquests.items())})),
            "minor_allies": dict(_kept_form(self.minor_allies, 0, lambda: {
                k: v.value for k, v in sorted(self.minor_allies.items())})),
            "iran_route_open": self.iran_route_open,
            "lend_lease_done": list(_kept_form(self.lend_lease_done, 0, lambda: sorted(
                self.lend_lease_done))),
            "captured_cities": list(_kept_form(self.captured_cities, 0, lambda: sorted(
                self.captured_cities))),
            "spent_territories": list(_kept_form(self.spent_territories, 0, lambda: sorted(
                self.spent_territories))),
            "readings": _readings_json(self.readings),
            "summary": self.summary(),
            "ledger": ledger_json(self.ledger),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Economy:
        """Read a ledger file; errors name the field."""
        if not isinstance(raw, Mapping):
            raise InputError("ledger", "a ledger file is a JSON object")
        if raw.get("format") != FORMAT:
            raise InputError("format", f"expected {FORMAT!r}, not {raw.get('format')!r}")
        turn = raw.get("turn")
        if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= LAST_TURN:
            raise InputError("turn", f"a campaign turn 1..{LAST_TURN}, not {turn!r}")

        def powers(key: str) -> list[Power]:
            v = raw.get(key, [])
            if not isinstance(v, list):
                raise InputError(key, "expected a list of powers")
            return [parse_power(x, key) for x in v]

        def power_map(key: str) -> dict[str, Power]:
            v = raw.get(key, {})
            if not isinstance(v, Mapping):
                raise InputError(key, "expected an object of name -> power")
            return {str(k): parse_power(x, f"{key}.{k}") for k, x in v.items()}

        known = _known(raw)
        if known is not None:
            return known
        led = raw.get("ledger", {})
        if not isinstance(led, Mapping):
            raise InputError("ledger", "expected an object with balances and entries")
        try:
            ledger = ledger_of(led)
        except (KeyError, ValueError, TypeError, ZeroDivisionError) as exc:
            raise InputError("ledger", f"malformed ledger: {exc}") from None
        readings = StrategicReadings.from_mapping(raw.get("readings", {}))
        return cls(
            turn=turn,
            ledger=ledger,
            powers=tuple(powers("powers")),
            at_war_with_germany=frozenset(powers("at_war_with_germany")),
            belligerent=frozenset(powers("belligerent")),
            conquests=power_map("conquests"),
            minor_allies=power_map("minor_allies"),
            iran_route_open=bool(raw.get("iran_route_open", False)),
            lend_lease_done=frozenset(str(x) for x in raw.get("lend_lease_done", [])),
            captured_cities=frozenset(str(x) for x in raw.get("captured_cities", [])),
            spent_territories=frozenset(str(x) for x in raw.get("spent_territories", [])),
            readings=readings,
        )


# The economy is parsed and written again after every change to it (folds store its JSON in
# the state): the same few dozen balances each time, so their exact values and JSON forms are
# remembered (both are immutable).
@lru_cache(maxsize=4096)
def _fraction_of(text: str) -> Fraction:
    return Fraction(text)


def _json_of(x: Fraction) -> int | str:
    """``exact_json(x)``: a whole number is its numerator (no hashing of the Fraction), others
    are remembered."""
    if type(x) is Fraction and x.denominator == 1:
        return x.numerator
    return _json_of_fraction(x)


#: :func:`exact_json` of the fractions written, by (numerator, denominator): a Fraction's own
#: hash costs a modular inverse, a pair of ints' hash almost nothing (bounded: cleared when
#: full).
_FRACTION_JSON: dict[tuple[int, int], int | str] = {}


def _json_of_fraction(x: Fraction) -> int | str:
    if type(x) is not Fraction:
        return exact_json(x)
    key = (x.numerator, x.denominator)
    got = _FRACTION_JSON.get(key)
    if got is None:
        if len(_FRACTION_JSON) >= 4096:
            _FRACTION_JSON.clear()
        got = _FRACTION_JSON[key] = exact_json(x)
    return got


def _power(p: Power | str) -> Power:
    """``Power(p)``, without the enum's lookup when ``p`` is one already."""
    return p if type(p) is Power else Power(p)


def _powers(ps: Iterable[Power | str]) -> Iterator[Power]:
    return (p if type(p) is Power else Power(p) for p in ps)


def ledger_of(raw: Mapping[str, Any]) -> Ledger:
    """:meth:`Ledger.from_json` with the balances' exact values remembered by their text."""
    entries = Ledger.from_json({"entries": raw["entries"]}).entries if "entries" in raw else ()
    balances = {str(k): _fraction_of(str(v)) for k, v in raw.get("balances", {}).items()}
    return Ledger(balances, entries)


def ledger_json(ledger: Ledger) -> dict[str, Any]:
    """:meth:`Ledger.to_json` with the balances' JSON forms remembered by their value (a
    whole number written as its numerator: :func:`_json_of` inlined)."""
    return {"balances": {k: v.numerator if type(v) is Fraction and v.denominator == 1
                         else _json_of_fraction(v) for k, v in sorted(ledger.balances.items())},
            "entries": [e.to_json() for e in ledger.entries]}


_READINGS_JSON: list[tuple[StrategicReadings, dict[str, Any]]] = []


def _readings_json(r: StrategicReadings) -> dict[str, Any]:
    """``r.to_mapping()``, made once per readings object (by identity, the last few) and
    copied for each caller (its values are strings, numbers and booleans)."""
    for obj, out in _READINGS_JSON:
        if obj is r:
            return dict(out)
    out = r.to_mapping()
    _READINGS_JSON.insert(0, (r, out))
    del _READINGS_JSON[8:]
    return dict(out)


# The folds write the economy into the state after every change to it and the next reader
# parses it back: the economy a fold wrote is kept with the JSON object it wrote (by identity,
# the last few), as the value reading that object back gives.
_WRITTEN: list[tuple[Mapping[str, Any], Economy, list[Economy]]] = []
_READINGS_READ: list[tuple[StrategicReadings, StrategicReadings]] = []


def _readings_read(r: StrategicReadings) -> StrategicReadings:
    """``StrategicReadings.from_mapping(r.to_mapping())``, once per readings object (by
    identity, the last few; a value read this way reads back as itself)."""
    for obj, read in _READINGS_READ:
        if obj is r:
            return read
    read = StrategicReadings.from_mapping(r.to_mapping())
    _READINGS_READ[:0] = [(r, read), (read, read)]
    del _READINGS_READ[8:]
    return read


def economy_json(econ: Economy) -> EconomyJSON:
    """``econ.to_json()`` for the state to keep: reading this very object back, or the copy of
    it without ledger entries that the ``current_facts`` after-event rule keeps, gives the
    economy it was written from without parsing it. The object must not be changed (the
    state's objects are replaced, never changed, when they change)."""
    raw = econ.to_json()
    _WRITTEN.insert(0, (raw, _as_read(econ), []))
    del _WRITTEN[8:]
    return cast(EconomyJSON, raw)


def _as_read(econ: Economy) -> Economy:
    """``Economy.from_json(econ.to_json())`` built without the JSON: the same values, the
    mappings in the JSON's (sorted) order, the collections of the types reading gives."""
    led = econ.ledger
    return Economy(
        turn=econ.turn,
        ledger=Ledger({k: v if type(v) is Fraction else Fraction(v)
                       for k, v in sorted(led.balances.items())}, tuple(led.entries)),
        powers=_kept_form(econ.powers, 1, lambda: tuple(_powers(econ.powers))),
        at_war_with_germany=_kept_form(econ.at_war_with_germany, 1, lambda: frozenset(
            _powers(econ.at_war_with_germany))),
        belligerent=_kept_form(econ.belligerent, 1, lambda: frozenset(
            _powers(econ.belligerent))),
        conquests=_kept_form(econ.conquests, 1, lambda: {
            str(k): _power(v) for k, v in sorted(econ.conquests.items())}),
        minor_allies=_kept_form(econ.minor_allies, 1, lambda: {
            str(k): _power(v) for k, v in sorted(econ.minor_allies.items())}),
        iran_route_open=bool(econ.iran_route_open),
        lend_lease_done=_kept_form(econ.lend_lease_done, 1, lambda: frozenset(
            str(x) for x in econ.lend_lease_done)),
        captured_cities=_kept_form(econ.captured_cities, 1, lambda: frozenset(
            str(x) for x in econ.captured_cities)),
        spent_territories=_kept_form(econ.spent_territories, 1, lambda: frozenset(
            str(x) for x in econ.spent_territories)),
        readings=_readings_read(econ.readings),
    )


T = TypeVar("T")

#: :func:`_kept_form`'s forms: (form, id of the object) -> (the object, its form)
_FORMS: dict[tuple[int, int], tuple[Any, Any]] = {}


def _kept_form(obj: Any, form: int, make: Callable[[], T]) -> T:
    """``make()``, the JSON (``form`` 0) or read-back (1) form of ``obj``, a part of an economy
    (a tuple, frozenset or mapping: never changed once made) that postings carry from economy
    to economy as the same object: made once per object (kept with it, so a new object with
    a reused id is not served; bounded: cleared when full). Callers copy a mutable JSON form
    before writing it into a state; the read forms are shared, as the economies share them."""
    key = (form, id(obj))
    hit = _FORMS.get(key)
    if hit is not None and hit[0] is obj:
        got: T = hit[1]
        return got
    value = make()
    if len(_FORMS) >= 256:
        _FORMS.clear()
    _FORMS[key] = (obj, value)
    return value


def _known(raw: Mapping[str, Any]) -> Economy | None:
    """The economy :func:`economy_json` wrote as ``raw``, or as the object ``raw`` copies with
    its ledger's entries emptied (every other value the very same object); else None."""
    led = raw.get("ledger")
    for written, econ, bare in _WRITTEN:
        if raw is written:
            return econ
        if (isinstance(led, Mapping) and len(led) == 2 and led.get("entries") == []
                and led.get("balances") is written["ledger"]["balances"]
                and raw.keys() == written.keys()
                and all(raw[k] is v for k, v in written.items() if k != "ledger")):
            if not bare:
                bare.append(replace(econ, ledger=Ledger(econ.ledger.balances, ())))
            return bare[0]
    return None


def new_campaign(scenario: str = "campaign-1939",
                 readings: StrategicReadings | None = None) -> Economy:
    """TR-86 (Post playtest refinements): the Fall 1939 economy of the campaign game.

    Bases Germany 150, Italy 50, USSR 90, UK 125, France 60, on hand equal to the base; Germany,
    the UK and France at war (Poland is conquered in play and adds to the base at Spring 1940).
    """
    if scenario not in SCENARIOS:
        raise InputError("scenario", f"unknown scenario {scenario!r} (known: "
                         f"{', '.join(SCENARIOS)})")
    led = Ledger()
    for p in CAMPAIGN_1939_POWERS:
        b = starting_base(p)
        led = led.post(acct(p, "base"), b, "TR-86", f"{p.value} starting BRP base")
        led = led.post(acct(p, "brp"), b, "TR-86", f"{p.value} BRPs for 1939")
    war = frozenset({Power.GERMANY, Power.UK, Power.FRANCE})
    return Economy(turn=1, ledger=led, powers=CAMPAIGN_1939_POWERS,
                   at_war_with_germany=frozenset({Power.UK, Power.FRANCE}),
                   belligerent=war, readings=readings or StrategicReadings())


def _power_in(econ: Economy, power: Power | str, field_name: str = "power") -> Power:
    p = parse_power(str(power), field_name)
    if p not in econ.powers:
        raise InputError(field_name, f"{p.value} has no economy in this game yet")
    return p


def _amount(amount: Exact, field_name: str = "amount") -> Fraction:
    if isinstance(amount, bool | float):
        raise InputError(field_name, "BRP amounts are exact (int or Fraction)")
    a = Fraction(amount)
    if a < 0:
        raise InputError(field_name, f"cannot be negative ({exact_json(a)})")
    return a


@dataclass(frozen=True, slots=True)
class Spent:
    """Record of a BRP payment."""

    power: str
    amount: Fraction
    rule: str
    cause: str
    brp_after: Fraction


def verify_spend(econ: Economy, power: Power | str, amount: Exact, rule: str = "TR-75",
                 counts_toward_cap: bool = True) -> None:
    """TR-75 (Build limits): a payment needs the BRPs on hand and must keep the turn's spending
    within half of the BRPs on hand at the start of the power's turn (when a turn is open)."""
    p = _power_in(econ, power)
    a = _amount(amount)
    if a > econ.brp(p):
        raise IllegalOrder(rule, f"{p.value} has {exact_json(econ.brp(p))} BRPs, "
                           f"cannot pay {exact_json(a)}")
    cap_acct = acct(p, "turn_cap")
    if counts_toward_cap and player_turn_open(econ, p):
        spent = econ.balance(acct(p, "turn_spent"))
        cap = econ.balance(cap_acct)
        if spent + a > cap:
            raise IllegalOrder("TR-75", f"{p.value} may spend at most half of its BRP total "
                               f"per turn ({exact_json(cap)}); already spent "
                               f"{exact_json(spent)}, cannot add {exact_json(a)}")


def spend(econ: Economy, power: Power | str, amount: Exact, rule: str, cause: str,
          *, build: bool = True) -> tuple[Economy, Spent]:
    """Pay ``amount`` BRPs from a power's pool under ``rule`` (checked against TR-75).

    ``build=False`` marks non-build spending (options, DoW), which counts toward the cap only
    under the ``half_spend_scope = all_spending`` reading (the default).
    """
    p = _power_in(econ, power)
    counts = build or econ.readings.half_spend_scope is HalfSpendScope.ALL_SPENDING
    verify_spend(econ, p, amount, rule, counts_toward_cap=counts)
    a = Fraction(amount)
    postings = [(acct(p, "brp"), -a)]
    if counts and player_turn_open(econ, p):
        postings.append((acct(p, "turn_spent"), a))
    e = _posted(econ, postings, rule, cause)
    return e, Spent(p.value, a, rule, cause, e.brp(p))


def _posted(econ: Economy, postings: list[tuple[str, Fraction]], rule: str,
            cause: str) -> Economy:
    """``econ.post`` of each (account, amount) in turn, as one new ledger (one copy of the
    balances, one new Economy): the same balances, in the same order, and entries."""
    balances = dict(econ.ledger.balances)
    entries = list(econ.ledger.entries)
    for account, amount in postings:
        new = balances.get(account, _ZERO) + amount
        balances[account] = new
        entries.append(Entry(len(entries) + 1, account, amount, new, rule, cause))
    return _with_ledger(econ, Ledger(balances, tuple(entries)))


def _with_ledger(econ: Economy, ledger: Ledger) -> Economy:
    """``replace(econ, ledger=ledger)`` without ``dataclasses.replace``'s walk over the
    fields (an Economy has no ``__post_init__``: the same value); every BRP posting makes
    one."""
    new = object.__new__(type(econ))
    new.__dict__.update(econ.__dict__)
    new.__dict__["ledger"] = ledger
    return new


def player_turn_open(econ: Economy, p: Power) -> bool:
    return econ.balance(acct(p, "turn_open")) == econ.turn


def begin_player_turn(econ: Economy, power: Power | str) -> Economy:
    """TR-75: open a power's turn: the cap is half of the BRPs on hand now; spent resets.

    Spending outside an open player turn (Year Start lend lease) is not capped.
    """
    p = _power_in(econ, power)
    v = p.value
    brp = econ.brp(p)
    # the three Ledger.set postings at once (one copy of the balances, one new Economy)
    balances = dict(econ.ledger.balances)
    entries = list(econ.ledger.entries)
    for account, value, cause in (
            (f"{v}.turn_open", Fraction(econ.turn), f"{v} player turn opens"),
            (f"{v}.turn_cap", brp / 2, f"{v} turn: half of {exact_json(brp)} BRPs may be spent"),
            (f"{v}.turn_spent", Fraction(0), f"{v} turn opens")):
        # the posting is value - old; the new balance, old + (value - old), is value exactly
        amount = value - balances.get(account, _ZERO)
        balances[account] = value
        entries.append(Entry(len(entries) + 1, account, amount, value, "TR-75", cause))
    return _with_ledger(econ, Ledger(balances, tuple(entries)))


def spend_in_turn(econ: Economy, power: Power | str, amount: Exact, rule: str,
                  cause: str) -> tuple[Economy, Spent]:
    """TR-75: pay in the power's player turn, opening the turn (and its cap) if needed."""
    p = _power_in(econ, power)
    e = econ if player_turn_open(econ, p) else begin_player_turn(econ, p)
    return spend(e, p, amount, rule, cause)


def advance_turn(econ: Economy) -> Economy:
    """TR-04: move to the next game turn (Year Start is a separate step in Spring).

    Entering Summer I, the Iran-route lend lease in transit reaches the USSR (TR-18: "arrive
    in the Summer I turn and are added to the USSR total"): a ledger advanced turn by turn
    (``grognard tr ledger advance``) used to keep it in ``ll.south`` for ever (issue 23).
    """
    if econ.turn >= LAST_TURN:
        raise IllegalOrder("TR-04", "the campaign ends after Summer I 1945 (turn 29)")
    e = replace(econ, turn=econ.turn + 1)
    return arrive_iran(e) if e.date.season is Season.SUMMER1 else e


def arrive_iran(econ: Economy) -> Economy:
    """TR-18: the Iran-route BRPs in transit (``ll.south``) are added to the USSR's BRPs."""
    amt = econ.balance("ll.south")
    if not amt:
        return econ
    e = econ.post("ll.south", -amt, "TR-18", "Iran lend lease arrives")
    return e.post(acct(Power.USSR, "brp"), amt, "TR-18", "lend lease by the Iran route")


def at_turn(econ: Economy, turn: int) -> Economy:
    """The same economy at another turn (for scripted tests and the CLI)."""
    date_of(turn)
    return replace(econ, turn=turn)


def add_pending(econ: Economy, power: Power | str, amount: Exact, rule: str,
                cause: str) -> Economy:
    """TR-11: a base change earned now that takes effect at the next Spring Year Start."""
    p = _power_in(econ, power)
    return econ.post(acct(p, "pending"), Fraction(amount), rule, cause)


def declare_war(econ: Economy, power: Power | str, *, on_germany: bool = False,
                enters_economy_with: int | None = None) -> Economy:
    """C-SIDES: mark a power belligerent (and at war with Germany); a new power (the US)
    enters the economy with its base (TR-86: US 250), its BRPs set at the next Year Start."""
    p = parse_power(str(power))
    e = econ
    if p not in e.powers:
        base = enters_economy_with if enters_economy_with is not None else starting_base(p)
        e = replace(e, powers=tuple(x for x in MOVEMENT_ORDER if x in {*e.powers, p}))
        e = e.post(acct(p, "base"), base, "TR-86", f"{p.value} enters the war with a base "
                   f"of {base}")
    belligerent = e.belligerent | {p}
    at_war = e.at_war_with_germany | ({p} if on_germany and p is not Power.GERMANY else set())
    return replace(e, belligerent=frozenset(belligerent), at_war_with_germany=frozenset(at_war))


def leave_economy(econ: Economy, power: Power | str, rule: str, cause: str) -> Economy:
    """A power out of the war (France on Vichy) keeps its history but has no more Year Starts."""
    p = _power_in(econ, power)
    e = econ.set(acct(p, "brp"), 0, rule, cause)
    return replace(e, powers=tuple(x for x in e.powers if x is not p),
                   belligerent=e.belligerent - {p}, at_war_with_germany=e.at_war_with_germany - {p})
