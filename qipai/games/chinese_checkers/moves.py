"""Steps and jump chains (rules §3.1-§3.2) on a board given as a list of 121 owners.

A board is a list indexed by hole (see :mod:`.board`) holding the seat that owns the marble
there, or ``-1`` for an empty hole. During a move the mover's start hole counts as empty;
a chain never lands twice on one hole nor on its start hole.

``jump_rule`` is ``"adjacent"`` (一子跳: the pivot is the next hole, the landing the one
after it) or ``"equidistant"`` (空跳: the pivot is the first marble met in the direction, at
distance k, and the landing is at distance 2k over k - 1 empty holes).
"""

from __future__ import annotations

from qipai.core.errors import Message

from .board import HOPS, NEIGHBOUR, RAY

EMPTY = -1


def jump_landings(board: list[int], x: int, start: int, rule: str) -> list[int]:
    """Holes where a marble that left ``start`` and stands on ``x`` lands with one jump.

    ``start`` counts as empty (the marble is no longer there); landing on it is left to the
    caller to refuse. Order: the six directions of :data:`.board.DIRECTIONS`.
    """
    out = []
    if rule == "adjacent":
        for m, land in HOPS[x]:
            if m != start and board[m] != EMPTY and (board[land] == EMPTY or land == start):
                out.append(land)
        return out
    for ray in RAY[x]:
        n = len(ray)
        k = 0
        while k < n and (board[ray[k]] == EMPTY or ray[k] == start):
            k += 1
        if k == n:
            continue                      # no pivot in this direction
        far = 2 * k + 2                   # pivot at distance k + 1, landing at 2(k + 1)
        if far > n:
            continue
        if all(board[h] == EMPTY or h == start for h in ray[k + 1:far]):
            out.append(ray[far - 1])
    return out


def chain_tree(board: list[int], start: int, rule: str) -> dict[int, int]:
    """Every hole a jump chain from ``start`` can end on, mapped to the hole it is jumped to
    from on a shortest chain (breadth first, directions in their fixed order)."""
    parent: dict[int, int] = {}
    frontier = [start]
    if rule == "adjacent":                # the common case, inlined: the start is never a
        while frontier:                   # pivot and, holding the mover, never a landing
            nxt = []
            for x in frontier:
                for m, land in HOPS[x]:
                    if (board[land] == EMPTY and board[m] != EMPTY and m != start
                            and land not in parent):
                        parent[land] = x
                        nxt.append(land)
            frontier = nxt
        return parent
    seen = {start}
    while frontier:
        nxt = []
        for x in frontier:
            for land in jump_landings(board, x, start, rule):
                if land not in seen:
                    seen.add(land)
                    parent[land] = x
                    nxt.append(land)
        frontier = nxt
    return parent


def path_to(parent: dict[int, int], start: int, dest: int) -> tuple[int, ...]:
    """The chain ``start .. dest`` read back from :func:`chain_tree`'s map."""
    path = [dest]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return tuple(reversed(path))


def steps(board: list[int], start: int) -> list[int]:
    """Empty neighbours of ``start`` (rules §3.1)."""
    return [n for n in NEIGHBOUR[start] if n >= 0 and board[n] == EMPTY]


def destinations(board: list[int], start: int, rule: str) -> dict[int, tuple[int, ...]]:
    """Every hole the marble on ``start`` can move to, with the path stored for it: the step
    ``(start, dest)`` when ``dest`` is an empty neighbour, else the shortest chain."""
    out: dict[int, tuple[int, ...]] = {d: (start, d) for d in steps(board, start)}
    parent = chain_tree(board, start, rule)
    for dest in parent:
        if dest not in out:
            out[dest] = path_to(parent, start, dest)
    return out


def check_chain(board: list[int], path: tuple[int, ...], rule: str) -> str | None:
    """Why the chain ``path`` (start, landings...) is not legal, or None when it is: every hop
    must be one jump of ``rule``, no hole landed on twice, never back on the start hole."""
    start = path[0]
    seen = {start}
    for i in range(1, len(path)):
        x, land = path[i - 1], path[i]
        if land == start:
            return Message("a chain may not come back to its start hole",
                           code="chinese-checkers.chain_may_not_come")
        if land in seen:
            return Message("a chain may not land twice on the same hole",
                           code="chinese-checkers.chain_may_not_land")
        if land not in jump_landings(board, x, start, rule):
            from .board import hole_name

            how = ("over the next hole onto an empty one" if rule == "adjacent"
                   else "over the first marble in a line onto the hole as far beyond it")
            return Message(f"{hole_name(x)}>{hole_name(land)} is not a jump ({rule} jumps go {how})",
                           code="chinese-checkers.not_jump_jumps_go",
                           params={"x": hole_name(x), "land": hole_name(land), "rule": rule, "how": how})
        seen.add(land)
    return None
