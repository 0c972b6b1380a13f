"""Ledgers (C-ECON, C-SP): exact point accounts with an audit trail.

Each change is an :class:`Entry` naming its rule ID and cause; a ledger is an immutable value.

>>> led = Ledger().post("germany.brp", 150, "TR-86", "starting base")
>>> led = led.post("germany.brp", Fraction(-15, 2), "TR-31", "half an option")
>>> led.balance("germany.brp"), len(led.entries)
(Fraction(285, 2), 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from grognard.core.errors import IllegalOrder
from grognard.core.exact import Exact, exact_json

#: :meth:`Entry.to_json`'s texts by entry value (bounded: cleared when full).
_ENTRY_JSON: dict[Entry, dict[str, Any]] = {}
_ENTRY_JSON_MAX = 50_000


@dataclass(frozen=True, slots=True)
class Entry:
    """One posting: ``amount`` to ``account`` under ``rule`` for ``cause``."""

    seq: int
    account: str
    amount: Fraction
    balance: Fraction
    rule: str
    cause: str

    def to_json(self) -> dict[str, Any]:
        # a ledger is written whole at every posting and keeps every entry it ever made: each
        # entry's text is made once (by value: equal entries write the same) and copied
        got = _ENTRY_JSON.get(self)
        if got is None:
            if len(_ENTRY_JSON) >= _ENTRY_JSON_MAX:
                _ENTRY_JSON.clear()
            got = _ENTRY_JSON[self] = {
                "seq": self.seq,
                "account": self.account,
                "amount": exact_json(self.amount),
                "balance": exact_json(self.balance),
                "rule": self.rule,
                "cause": self.cause,
            }
        return dict(got)


@dataclass(frozen=True)
class Ledger:
    """Balances per account and every entry that made them."""

    balances: Mapping[str, Fraction] = field(default_factory=dict)
    entries: tuple[Entry, ...] = ()

    def balance(self, account: str) -> Fraction:
        return self.balances.get(account, Fraction(0))

    def post(
        self, account: str, amount: Exact, rule: str, cause: str, *, allow_negative: bool = True
    ) -> Ledger:
        """A new ledger with ``amount`` posted (negative to spend)."""
        amt = Fraction(amount)
        new_balance = self.balance(account) + amt
        if not allow_negative and new_balance < 0:
            raise IllegalOrder(
                rule,
                f"{cause}: {account} has {exact_json(self.balance(account))}, "
                f"cannot pay {exact_json(-amt)}",
            )
        balances = dict(self.balances)
        balances[account] = new_balance
        entry = Entry(len(self.entries) + 1, account, amt, new_balance, rule, cause)
        return Ledger(balances, (*self.entries, entry))

    def set(self, account: str, value: Exact, rule: str, cause: str) -> Ledger:
        """Post whatever brings ``account`` to ``value`` (e.g. a reset at Year Start)."""
        return self.post(account, Fraction(value) - self.balance(account), rule, cause)

    def history(self, account: str) -> Iterable[Entry]:
        return (e for e in self.entries if e.account == account)

    def to_json(self) -> dict[str, Any]:
        return {
            "balances": {k: exact_json(v) for k, v in sorted(self.balances.items())},
            "entries": [e.to_json() for e in self.entries],
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Ledger:
        entries = tuple(
            Entry(int(e["seq"]), str(e["account"]), Fraction(str(e["amount"])),
                  Fraction(str(e["balance"])), str(e["rule"]), str(e["cause"]))
            for e in raw.get("entries", [])
        )
        balances = {str(k): Fraction(str(v)) for k, v in raw.get("balances", {}).items()}
        return cls(balances, entries)
