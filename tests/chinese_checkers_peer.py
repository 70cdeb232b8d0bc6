"""OpenSpiel's ``chinese_checkers`` as a peer for the differential test and the benchmark.

OpenSpiel draws the star with its player 0 at the top (North) and numbers its 121 cells row by
row from the top, each row left to right, with a doubled column. Its board is ours reflected
top to bottom: our hole (q, r) is its cell at row ``8 - r``, column ``2q + r + 12``, so its
player p sits in our seat p for 2, 3 and 6 players (its 3-player camps N, SE, SW become our S,
NE, NW in the same turn order). With 4 players the layouts are mirror images and the turn
orders differ, so 4 players are not compared.

One OpenSpiel action is one step or one hop (``cell * 6 + direction``); a chain is several
hops by the same player, ended by its pass action (726) or automatically when no hop is left.
"""

from __future__ import annotations

import re

from qipai.games.chinese_checkers.board import COORDS

PASS = 726
_DIRS = [(-1, -1), (-1, 1), (0, -2), (0, 2), (1, -1), (1, 1)]      # (row, doubled col) deltas
_MOVE = re.compile(r"^(\d+)(->|=>)(\d+)$")


def _cell(hole: int) -> tuple[int, int]:
    q, r = COORDS[hole]
    return 8 - r, 2 * q + r + 12


_CELLS = sorted(_cell(h) for h in range(len(COORDS)))
#: TO_PEER[hole] = OpenSpiel cell; FROM_PEER[cell] = hole
TO_PEER = [_CELLS.index(_cell(h)) for h in range(len(COORDS))]
FROM_PEER = [0] * len(COORDS)
for _h, _c in enumerate(TO_PEER):
    FROM_PEER[_c] = _h


def load(num_players: int):
    import pyspiel

    return pyspiel.load_game("chinese_checkers", {"players": num_players, "max_moves": 100000})


def peer_action(a: int, b: int, hop: bool) -> int:
    """The OpenSpiel action moving from our hole ``a`` towards ``b`` (a neighbour, or the
    landing of a hop)."""
    (r1, c1), (r2, c2) = _cell(a), _cell(b)
    dr, dc = r2 - r1, c2 - c1
    if hop:
        dr, dc = dr // 2, dc // 2
    return TO_PEER[a] * 6 + _DIRS.index((dr, dc))


def peer_pairs(state) -> set[tuple[int, int]]:
    """Every (from, to) of the player to move in an OpenSpiel state, as our holes: its steps,
    and every landing of every hop chain (a chain may stop after any hop). Each landing is
    explored once per marble: a hop refused because it lands on a hole the chain already
    visited leads to a landing found before, so the union over all chains is unchanged."""
    out = set()
    player = state.current_player()
    seen: dict[int, set[int]] = {}
    for action in state.legal_actions():
        if action == PASS:
            continue
        m = _MOVE.match(state.action_to_string(player, action))
        src, kind, dst = int(m.group(1)), m.group(2), int(m.group(3))
        out.add((FROM_PEER[src], FROM_PEER[dst]))
        if kind == "=>" and dst not in seen.setdefault(src, set()):
            seen[src].add(dst)
            child = state.clone()
            child.apply_action(action)
            _chain(child, player, src, out, seen[src])
    return out


def _chain(state, player: int, src: int, out: set, seen: set[int]) -> None:
    if state.is_terminal() or state.current_player() != player:
        return
    for action in state.legal_actions():
        if action == PASS:
            continue
        dst = int(_MOVE.match(state.action_to_string(player, action)).group(3))
        out.add((FROM_PEER[src], FROM_PEER[dst]))
        if dst not in seen:
            seen.add(dst)
            child = state.clone()
            child.apply_action(action)
            _chain(child, player, src, out, seen)


def play_on_peer(state, path: tuple[int, ...] | None) -> None:
    """Apply our move (``path`` of holes; None for a pass) to the OpenSpiel ``state``."""
    player = state.current_player()
    if path is None:
        state.apply_action(PASS)
        return
    hop = len(path) > 2 or _cell(path[1])[0] - _cell(path[0])[0] in (-2, 2) or \
        abs(_cell(path[1])[1] - _cell(path[0])[1]) == 4
    for a, b in zip(path, path[1:]):
        state.apply_action(peer_action(a, b, hop))
    if hop and not state.is_terminal() and state.current_player() == player:
        state.apply_action(PASS)
