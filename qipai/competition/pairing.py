"""Who meets whom: knockout brackets, table knockout rounds, round robin, Swiss (§2.5, §2.8).

Entrants are identified by their draw numbers (1..N) everywhere here.
"""

from __future__ import annotations

from collections.abc import Sequence

from qipai.core.errors import OptionError


# ----- two-sided knockout (§2.5) ----------------------------------------------------------------
def slot_order(size: int) -> list[int]:
    """Seed positions of a bracket of ``size`` (a power of two): [1, 2] -> [1, 4, 2, 3] -> ..."""
    if size < 2 or size & (size - 1):
        raise ValueError("bracket size must be a power of two >= 2")
    order = [1, 2]
    while len(order) < size:
        m = 2 * len(order) + 1
        order = [x for s in order for x in (s, m - s)]
    return order


def knockout_first_round(n: int) -> list[tuple[int, int | None]]:
    """Round-1 pairings of ``n`` entrants by draw number; ``None`` is a bye (the entrant
    advances without playing). Byes go to draw numbers 1..P-N, spread over the halves."""
    if n < 2:
        raise OptionError("a knockout needs at least 2 entrants",
                          code="config.too_few_entrants", params={"least": 2})
    size = 1
    while size < n:
        size *= 2
    size = max(size, 2)
    slots = [d if d <= n else None for d in slot_order(size)]
    return [(slots[i], slots[i + 1]) if slots[i] is not None else (slots[i + 1], None)
            for i in range(0, size, 2)]


def knockout_next_round(winners: Sequence[int]) -> list[tuple[int, int]]:
    """The winner of match j meets the winner of match j+1 (j odd, 1-based)."""
    if len(winners) % 2:
        raise ValueError("a knockout round needs an even number of winners")
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]


def round_name(matches_in_round: int) -> str:
    return {1: "final", 2: "semifinal", 4: "quarterfinal"}.get(matches_in_round, "")


# ----- table knockout (§2.5) --------------------------------------------------------------------
def table_round(entrants: Sequence[int], k: int,
                byes_had: dict[int, int]) -> tuple[list[list[int]], list[int]]:
    """Tables and byes of one table-knockout round: ``entrants`` by draw number, ``k`` seats.
    Returns (tables of k draw numbers in increasing order, bye holders)."""
    m = len(entrants)
    if m < k:
        raise OptionError(f"a table knockout needs at least {k} entrants, got {m}",
                          code="config.too_few_entrants", params={"least": k})
    if m == k:
        return [sorted(entrants)], []
    t, b = divmod(m, k)
    byes = sorted(sorted(entrants), key=lambda d: (byes_had.get(d, 0), d))[:b]
    players = [d for d in sorted(entrants) if d not in byes]
    return [players[i * k:(i + 1) * k] for i in range(t)], sorted(byes)


def lucky_loser_count(m: int, k: int) -> int:
    """How many lucky losers a round of ``m`` entrants at tables of ``k`` needs."""
    if m <= k:
        return 0
    t, b = divmod(m, k)
    return max(0, k - (t + b))


# ----- round robin: Berger tables (§2.8) ----------------------------------------------------------
def berger_rounds(n: int) -> list[list[tuple[int, int]]]:
    """Berger tables for ``n`` entrants (FIDE C.05 Annex 1): a list of rounds of (first mover,
    second mover) pairs. With odd ``n`` the phantom n+1 is paired too; its opponent sits out."""
    if n < 2:
        raise OptionError("a round robin needs at least 2 entrants",
                          code="config.too_few_entrants", params={"least": 2})
    m = n + (n % 2)
    rounds = []
    for r in range(m - 1):
        pairs = []
        # the last number is fixed on board 1; the others advance by m/2 each round
        others = [((r * (m // 2) + i) % (m - 1)) + 1 for i in range(m - 1)]
        first = others[0]
        pairs.append((first, m) if r % 2 == 0 else (m, first))
        for i in range(1, m // 2):
            a, b = others[i], others[m - 1 - i]
            pairs.append((a, b))
        rounds.append(pairs)
    return rounds


# ----- Swiss (§2.8) ------------------------------------------------------------------------------
def swiss_pairings(n: int, rounds_total: int, history: Sequence[Sequence[tuple[int, str, str]]],
                   withdrawn: Sequence[int] = ()) -> list[tuple[int, int | None]]:
    """The next round's pairings by the FIDE Dutch system (py4swiss, checked against
    bbpPairings by its authors). ``history[p-1]`` lists draw number p's past rounds as
    ``(opponent or 0, colour 'w'|'b'|'-', result '1'|'='|'0'|'+'|'-'|'U'|'F'|'H'|'Z')``.
    Returns (first mover, second mover) pairs; ``(p, None)`` is the bye."""
    from py4swiss.engines import DutchEngine
    from py4swiss.trf import ParsedTrf
    from py4swiss.trf.codes import PlayerCode
    from py4swiss.trf.results import ColorToken, ResultToken, RoundResult
    from py4swiss.trf.sections import PlayerSection, XSection

    value = {"1": 10, "+": 10, "F": 10, "U": 10, "=": 5, "H": 5}
    sections = []
    for p in range(1, n + 1):
        res = [RoundResult(id=o, color=ColorToken(c), result=ResultToken(r)) for o, c, r in history[p - 1]]
        sections.append(PlayerSection(code=PlayerCode.PLAYER, starting_number=p, name=f"p{p}",
                                      points_times_ten=sum(value.get(r, 0) for _, _, r in history[p - 1]),
                                      rank=p, results=res))
    trf = ParsedTrf(player_sections=sections,
                    x_section=XSection(number_of_rounds=rounds_total, zeroed_ids=set(withdrawn)))
    trf.validate_contents()
    out: list[tuple[int, int | None]] = []
    for pr in DutchEngine.generate_pairings(trf):
        if pr.black == 0:
            out.append((pr.white, None))
        elif pr.white == 0:
            out.append((pr.black, None))
        else:
            out.append((pr.white, pr.black))
    return out


# ----- table Swiss (§2.8) -------------------------------------------------------------------------
def table_swiss_round(order: Sequence[int], k: int, byes_had: dict[int, int],
                      last_tables: Sequence[Sequence[int]] = ()) -> tuple[list[list[int]], list[int]]:
    """One round of table Swiss for tables of ``k``. ``order`` lists the entrants best first (event
    score, then draw number). With N not a multiple of k, the N mod k lowest-ranked entrants who
    have had no bye sit out (if too few have had none, those with the fewest byes, lowest first).
    The others are seated in consecutive groups of k; where a group holds two entrants who
    shared a table in the previous round (``last_tables``), its lowest member is swapped with the
    highest of the next group if that removes the repeat. Returns (tables in rank order, byes).
    Raises OptionError with fewer than ``k`` entrants."""
    if len(order) < k:
        raise OptionError(f"table Swiss needs at least {k} entrants, got {len(order)}",
                          code="config.too_few_entrants", params={"least": k})
    b = len(order) % k
    pos = {d: i for i, d in enumerate(order)}
    byes = sorted(order, key=lambda d: (byes_had.get(d, 0), -pos[d]))[:b]
    rest = [d for d in order if d not in byes]
    groups = [rest[i:i + k] for i in range(0, len(rest), k)]
    met = {frozenset((x, y)) for t in last_tables for x in t for y in t if x != y}

    def repeats(g: Sequence[int]) -> bool:
        return any(frozenset((x, y)) in met for x in g for y in g if x != y)

    for i in range(len(groups) - 1):
        if repeats(groups[i]):
            a, nxt = groups[i], groups[i + 1]
            swapped = a[:-1] + [nxt[0]]
            if not repeats(swapped):
                groups[i], groups[i + 1] = swapped, [a[-1]] + nxt[1:]
    return groups, sorted(byes, key=lambda d: pos[d])


def table_points(ranks: Sequence[int]) -> list[float]:
    """Table points of one table from the seats' ranks (1 = best, equal ranks shared): first
    k - 1, second k - 2, ..., last 0; seats sharing a rank share the average of its places."""
    k = len(ranks)
    out = []
    for r in ranks:
        c = sum(1 for x in ranks if x == r)
        out.append(sum(k - p for p in range(r, r + c)) / c)
    return out
