"""A slow, literal transcription of rules/gomoku.md §3.2-3.3, used only to check the fast referee.

It works on a dict ``{(col, row): "x" | "o"}`` and walks lines point by point, with none of
the caching or line tables of :mod:`qipai.games.gomoku.board`, so the two share no code.
"""

from __future__ import annotations

DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))
N = 15


def _on(c: int, r: int) -> bool:
    return 0 <= c < N and 0 <= r < N


def _run(stones: dict, c: int, r: int, dc: int, dr: int) -> list[tuple[int, int]]:
    """The black run through (c, r) along (dc, dr), as a list of points in order."""
    lo = (c, r)
    while _on(lo[0] - dc, lo[1] - dr) and stones.get((lo[0] - dc, lo[1] - dr)) == "x":
        lo = (lo[0] - dc, lo[1] - dr)
    run = []
    q = lo
    while _on(*q) and stones.get(q) == "x":
        run.append(q)
        q = (q[0] + dc, q[1] + dr)
    return run


def _empty(stones: dict, q: tuple[int, int]) -> bool:
    return _on(*q) and q not in stones


def _line(c: int, r: int, dc: int, dr: int) -> list[tuple[int, int]]:
    return [(c + k * dc, r + k * dr) for k in range(-N, N + 1) if k and _on(c + k * dc, r + k * dr)]


def fours(stones: dict, p: tuple[int, int], d: tuple[int, int]) -> int:
    """Number of fours through the black stone at p in direction d (§3.2)."""
    hits = []
    for e in _line(*p, *d):
        if not _empty(stones, e):
            continue
        stones[e] = "x"
        run = _run(stones, *p, *d)
        if len(run) == 5 and e in run:
            hits.append(e)
        del stones[e]
    run = _run(stones, *p, *d)
    if len(hits) == 2 and len(run) == 4:
        ends = {(run[0][0] - d[0], run[0][1] - d[1]), (run[-1][0] + d[0], run[-1][1] + d[1])}
        if set(hits) == ends:
            return 1
    return len(hits)


def straight_four(stones: dict, p: tuple[int, int], d: tuple[int, int]) -> list | None:
    run = _run(stones, *p, *d)
    if len(run) != 4:
        return None
    ends = [(run[0][0] - d[0], run[0][1] - d[1]), (run[-1][0] + d[0], run[-1][1] + d[1])]
    for end in ends:
        if not _empty(stones, end):
            return None
        stones[end] = "x"
        ok = len(_run(stones, *p, *d)) == 5
        del stones[end]
        if not ok:
            return None
    return run


def is_three(stones: dict, p: tuple[int, int], d: tuple[int, int]) -> bool:
    for e in _line(*p, *d):
        if not _empty(stones, e):
            continue
        stones[e] = "x"
        try:
            if any(len(_run(stones, *e, *d2)) == 5 for d2 in DIRS):
                continue                         # condition 1: no five anywhere
            four = straight_four(stones, p, d)
            if four is None or e not in four:
                continue
        finally:
            del stones[e]
        if classify(stones, e) is None:
            return True
    return False


def forbidden(stones: dict, p: tuple[int, int]) -> str | None:
    """Why a black stone at empty p is forbidden (``overline``, ``double_four``,
    ``double_three``) or None."""
    kind = classify(stones, p)
    return None if kind == "five" else kind


def classify(stones: dict, p: tuple[int, int]) -> str | None:
    """``five``, a forbidden kind, or None for a black stone at empty p."""
    stones[p] = "x"
    try:
        runs = [len(_run(stones, *p, *d)) for d in DIRS]
        if 5 in runs:
            return "five"
        if max(runs) >= 6:
            return "overline"
        four_dirs = [fours(stones, p, d) for d in DIRS]
        if sum(four_dirs) >= 2:
            return "double_four"
        threes = sum(1 for d, f in zip(DIRS, four_dirs) if not f and is_three(stones, p, d))
        return "double_three" if threes >= 2 else None
    finally:
        del stones[p]
