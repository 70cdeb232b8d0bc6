"""End-of-hand scoring of 三打一 (rules/sandayi.md §4).

``D`` is the defenders' trick points; the dealer's side (his tricks and the buried kitty) has
``100 - D``. The contract is made iff ``D < need`` with ``need = 105 - contract``. Payouts are
zero-sum: the dealer's amount is minus the sum of the three defenders' amounts.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Payout:
    """One hand's settlement: ``dealer`` (the dealer's amount), ``defender`` (each defender's
    amount), ``outcome`` (``shutout``, ``made``, ``set``, ``heavy_set``, ``dig``), ``made`` (the
    dealer won), ``dig`` (a kitty dig happened and counted), ``base`` and ``need``."""

    dealer: int
    defender: int
    outcome: str
    made: bool
    dig: bool
    base: int
    need: int


def base(contract: int) -> int:
    """§4.3: b = (contract - 55) / 5, i.e. 1..5 for 60..80. Under a custom bid list the formula is
    the same (a contract of 90 has b = 7); it is at least 1."""
    return max(1, (contract - 55) // 5)


def need(contract: int) -> int:
    """§4.2: the defenders set the contract with ``D >= 105 - contract`` points."""
    return 105 - contract


def settle(contract: int, d: int, defenders_last: bool, payout: str = "standard",
           kitty_dig: bool = True) -> Payout:
    """Settle a hand with ``contract`` where the defenders won ``d`` points (0..100) in tricks and
    ``defenders_last`` tells whether a defender won trick 12.

    ``standard``: shut-out +9b/-3b, made +3b/-b, set -3b/+b, heavily set (D >= 2 need) -6b/+2b;
    a dig (``kitty_dig`` and a defender won the last trick) -6b/+2b, -9b/+3b, -12b/+4b by the
    same D bands. ``simple``: made +3/-1, set -3/+1, nothing else."""
    b, n = base(contract), need(contract)
    if payout == "simple":
        made = d < n
        return Payout(3 if made else -3, -1 if made else 1, "made" if made else "set", made, False, 1, n)
    dig = kitty_dig and defenders_last
    if dig:
        k = 2 if d < n else 3 if d < 2 * n else 4
        return Payout(-3 * k * b, k * b, "dig", False, True, b, n)
    if d == 0:
        return Payout(9 * b, -3 * b, "shutout", True, False, b, n)
    if d < n:
        return Payout(3 * b, -b, "made", True, False, b, n)
    if d < 2 * n:
        return Payout(-3 * b, b, "set", False, False, b, n)
    return Payout(-6 * b, 2 * b, "heavy_set", False, False, b, n)
