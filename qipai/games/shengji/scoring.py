"""End of a hand: kitty multiplier, score tables, level advance with must-play levels, dealer
rotation and the match target (rules/shengji.md §4)."""

from __future__ import annotations

from collections.abc import Sequence

TABLES = ("t000", "t003", "t002", "t_titanic", "t_one_deck")
TARGETS = ("pass_10", "pass_A", "reach_10", "reach_13")


def kitty_multiplier(fmt: Sequence[tuple[str, int]], mode: str, decks: int = 2) -> int:
    """m of §4.2 for the last trick's format. ``exponential``: tractor(l) 2·2^l, pair 4,
    singles 2; ``linear``: tractor(l) 4·l, pair 4, singles 2 (3 decks: 2 × the size of the
    largest component). Several structures do not add up: the largest counts."""
    tractors = [l for k, l in fmt if k == "tractor"]
    if mode == "linear" and decks >= 3:
        small = {"single": 1, "pair": 2, "triple": 3}
        sizes = [2 * l if k == "tractor" else 6 if k == "titanic" else small[k] for k, l in fmt]
        return 2 * max(sizes)
    if mode == "exponential" and decks >= 3 and any(k in ("titanic", "triple") for k, _ in fmt):
        # not specified by the rule file for 3 decks: a triple counts as a pair, a titanic as tractor(2)
        tractors = tractors + [2 for k, _ in fmt if k == "titanic"]
        if not tractors:
            return 4
    if tractors:
        ell = max(tractors)
        return 2 * 2 ** ell if mode == "exponential" else 4 * ell
    if any(k in ("pair", "triple") for k, _ in fmt):
        return 4
    return 2


def table_outcome(total: int, table: str) -> tuple[str, int]:
    """The score-table result of attackers' total S (negative counts as 0): ``("D", k)``,
    ``("take", 0)`` or ``("A", k)`` (§4.4)."""
    s = max(0, total)
    if table == "t_one_deck":
        # one deck, 100 points (reconstructed, docs/games/shengji.md): 0 D+3; 5-15 D+2; 20-35 D+1;
        # 40-55 take over; 60-75 A+1; 80-95 A+2; 100 and more (kitty bonus) A+3
        if s == 0:
            return ("D", 3)
        if s < 40:
            return ("D", 2 if s < 20 else 1)
        if s < 60:
            return ("take", 0)
        return ("A", min(3, 1 + (s - 60) // 20))
    if table == "t_titanic":
        if s == 0:
            return ("D", 3)
        if s < 60:
            return ("D", 2)
        if s < 120:
            return ("D", 1)
        if s < 180:
            return ("take", 0)
        return ("A", (s - 120) // 60)
    if s == 0:
        return ("D", 3)
    if s < 40:
        return ("D", 2)
    if s < 80:
        return ("D", 1)
    if s < 120:
        return ("take", 0)
    if table == "t002":
        return ("A", sum(1 for t in (120, 150, 180, 210, 240, 280) if s >= t))
    k = (s - 80) // 40
    return ("A", min(k, 3) if table == "t000" else k)


def take_over_at(table: str) -> int:
    """The fewest points the attackers need to take the deal over in score table ``table`` (80
    with two decks, 120 with three, 40 with one deck: §4.4): the first total not a dealer win."""
    s = 0
    while table_outcome(s, table)[0] == "D":
        s += 5
    return s


def level_up_at(table: str) -> int:
    """The fewest points with which the attackers also go up a level in score table ``table``
    (120 with two decks, 180 with three): the first total that is an attackers' gain."""
    s = take_over_at(table)
    while table_outcome(s, table)[0] != "A" or table_outcome(s, table)[1] < 1:
        s += 5
    return s


def outcome_text(outcome: tuple[str, int]) -> str:
    kind, k = outcome
    return "take over" if kind == "take" else f"{kind}+{k}"


def advance(level: int, k: int, must_play: Sequence[int], defended: bool) -> int:
    """A team's level after going up ``k`` (§4.5). ``defended``: it won the hand as the dealer
    team (only then may it go past a must-play level equal to its current level)."""
    new = level + k
    for m in sorted(must_play):
        if level <= m < new:
            if level == m and defended:
                continue
            return m
    return new


def target_met(level: int, target: str) -> bool:
    """§4.6: ``pass_T`` means level > T, ``reach_T`` level ≥ T (A = 14)."""
    kind, t = target.split("_")
    value = 14 if t == "A" else int(t)
    return level > value if kind == "pass" else level >= value
