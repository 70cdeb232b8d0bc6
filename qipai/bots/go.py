"""Go bots: ``random`` (uniform among moves that do not fill its own eyes) and ``greedy``
(capture the most stones; otherwise save its own chain in atari; otherwise as ``random``).

Both read only ``state.view``-level facts (the board, legal moves), pass when no move is left
or when the opponent has just passed and every border is closed (:func:`settled`)
and, in the dead-stone phase, mark the dead stones the referee's proposer suggests, then
submit.
"""

from __future__ import annotations

import random
from collections import deque

from qipai.bots import register_bot
from qipai.bots.mcts import Searcher
from qipai.bots.search import register_searcher
from qipai.games.go.board import BLACK, EMPTY, WHITE, diagonals
from qipai.games.go.coords import PASS
from qipai.games.go.rules import Mark, moves_table


def fills_own_eye(board, p: int, c: int) -> bool:
    """An empty point whose neighbours are all ``c`` and whose diagonals hold at most one
    opposing stone (none on the edge): a real eye of ``c``."""
    color = board.color
    if any(color[q] != c for q in board.nbr[p]):
        return False
    diag = diagonals(board.size)[p]
    bad = sum(1 for q in diag if color[q] == 3 - c)
    return bad == 0 if len(diag) < 4 else bad <= 1


def _marking_action(state, seat: int):
    proposal = set(state.dead_proposal())
    marks = state.marks[seat]
    size = state.size
    for p in sorted(proposal - marks):
        return Mark("dead", p, size)
    for p in sorted(marks - proposal):
        return Mark("alive", p, size)
    return Mark("done", PASS, size)


def taken_off(state) -> frozenset[int]:
    """The stones the count will take off: the proposer's dead stones when the players mark
    them (``end_procedure = agreement``); none when every stone counts alive (``all_alive``)."""
    return frozenset(state.dead_proposal()) if getattr(state, "agreement", False) else frozenset()


def settled(state) -> bool:
    """The opponent has just passed and the bot has nothing to play for: once the stones the
    count takes off are gone (:func:`taken_off`), no empty region touches both colours (a play
    would only fill an area or take a dead stone, which changes no area count), or the bot is
    ahead by an estimate of the count (:func:`estimated_margin`): it passes too, as a person
    would (and as lichess's and OGS's bots do). Without this a dead stone left in the bot's
    area kept the whole board "open": a bot filled it for 30 moves while the person passed."""
    if not state.passes or state.phase != "play":
        return False
    dead = taken_off(state)
    board, me = state.board, state.to_move
    margin = estimated_margin(board, dead) - state.game.komi_points() - state.game.options["handicap"]
    ahead = margin > 0 if me == BLACK else margin < 0
    if not open_points(board, dead):
        # every border closed: the count is made, unless stones of its own are to be taken off
        # (it loses them if it passes): then it plays on while it is behind
        return ahead or not any(board.color[p] == me for p in dead)
    return ahead


def estimated_margin(board, dead: frozenset[int]) -> float:
    """Black's area less White's, the stones on ``dead`` taken off, each empty point given to
    the colour whose stones are nearest to it along the lines (half to each when both are as
    near, or none is): a rough count of a board whose borders are not all closed."""
    color = [EMPTY if p in dead else c for p, c in enumerate(board.color)]
    owner = list(color)
    dist = [0 if c else -1 for c in color]
    queue = deque(p for p, c in enumerate(color) if c)
    while queue:
        p = queue.popleft()
        for q in board.nbr[p]:
            if color[q]:
                continue
            if dist[q] < 0:
                dist[q], owner[q] = dist[p] + 1, owner[p]
                queue.append(q)
            elif dist[q] == dist[p] + 1 and owner[q] != owner[p]:
                owner[q] = BLACK | WHITE          # as near to both: shared
    b = sum(1 for o in owner if o == BLACK) + sum(0.5 for o in owner if o not in (BLACK, WHITE))
    return b - (board.n - b)


class RandomGoBot:
    """Uniform among legal plays that do not fill its own eye; passes when none is left."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def candidates(self, state) -> list[int]:
        c = state.to_move
        board = state.board
        return [p for p in state.legal_points() if not fills_own_eye(board, p, c)]

    def choose(self, state, seat: int):
        if state.phase == "marking":
            return _marking_action(state, seat)
        pts = self.candidates(state)
        table = moves_table(state.size)
        if settled(state):
            return table[-1]
        return table[self.rng.choice(pts)] if pts else table[-1]


class GreedyGoBot(RandomGoBot):
    """Capture first (the play capturing most stones), then escape atari, then random."""

    name = "greedy"

    def choose(self, state, seat: int):
        if state.phase == "marking":
            return _marking_action(state, seat)
        pts = self.candidates(state)
        table = moves_table(state.size)
        if not pts or settled(state):
            return table[-1]
        board = state.board
        c = state.to_move
        best, best_n = [], 0
        for p in pts:
            n = board.would_capture(p, c)
            if n > best_n:
                best, best_n = [p], n
            elif n == best_n and n:
                best.append(p)
        if best:
            return table[self.rng.choice(best)]
        # extend a chain in atari when that gives it more than one liberty
        saves = []
        for p in pts:
            for q in board.nbr[p]:
                if board.color[q] == c and len(board.libs[board.head[q]]) == 1:
                    after = set(board.libs[board.head[q]]) | {x for x in board.nbr[p]
                                                              if board.color[x] == 0}
                    after.discard(p)
                    if len(after) >= 2:
                        saves.append(p)
                        break
        if saves:
            return table[self.rng.choice(saves)]
        if state.passes:
            # the opponent has just passed: a play inside settled area (its own territory, or an
            # empty region only the opponent's stones surround) changes no score, so it plays
            # only where an empty region both colours touch (a dame, a border still open) is left
            open_pts = open_points(board, taken_off(state))
            pts = [p for p in pts if p in open_pts]
            if not pts:
                return table[-1]
        return table[self.rng.choice(pts)]


def open_points(board, dead: frozenset[int] = frozenset()) -> set[int]:
    """The empty points of regions that stones of both colours touch, or none (an empty
    board), the stones on ``dead`` taken off: where a play may still change the score. A region
    one colour alone surrounds is settled area (area scoring counts it for that colour whoever
    fills it). Only empty points are returned (a dead stone's point is no play)."""
    return {p for pts, touches in board.regions(dead) if touches in (0, BLACK | WHITE)
            for p in pts if board.color[p] == 0}


register_bot("go", "random", RandomGoBot)
register_bot("go", "greedy", GreedyGoBot)


# ----- search (levels 3-5) -------------------------------------------------------------------
class GoSearcher(Searcher):
    """Go for MCTS. The tree considers every legal point that does not fill the mover's own
    eye, captures first, then by distance from the centre; the pass only when few points are
    left (no more than a board side) or none. A playout plays random such points on the board
    alone (simple ko, no superko), passes when none is left, and after two passes counts the
    area with the game's komi: every stone on the board counts, which is right once random
    play has filled everything but eyes.
    Marking dead stones is the rule bot's."""

    game_id = "go"

    def searched(self, state, seat: int) -> bool:
        # a settled board after the opponent's pass is the rule bot's, which passes at once: a
        # search whose every line ends in the same count spreads its visits and filled the board
        return state.phase == "play" and not settled(state)

    def candidates(self, state, seat: int) -> list:
        if state.phase != "play":
            return []
        board, c, size = state.board, state.to_move, state.size
        pts = [p for p in state.legal_points() if not fills_own_eye(board, p, c)]
        mid = (size - 1) / 2
        pts.sort(key=lambda p: (-board.would_capture(p, c), abs(p % size - mid) + abs(p // size - mid)))
        table = moves_table(size)
        out = [table[p] for p in pts]
        # the pass: when few points are left, and whenever the opponent has just passed (a pass
        # then ends the play: the search weighs the count against playing on)
        if len(pts) <= size or state.passes:
            out.append(table[-1])
        return out

    def _score(self, state) -> list[float]:
        dead = frozenset(state.dead_proposal()) if state.phase != "play" else frozenset()
        b, w = state.board.area(dead)
        margin = b - w - state.game.komi_points() - state.game.options["handicap"]
        if margin == 0:
            return [0.5, 0.5]
        out = [0.0, 0.0]
        out[state.seat_of(BLACK if margin > 0 else WHITE)] = 1.0
        return out

    def playout(self, state, rng: random.Random) -> list[float]:
        """Random play on the board alone (the state is a throwaway copy): simple ko only,
        no superko, which is the usual approximation of playouts."""
        if state.phase != "play":
            return self._score(state)
        board = state.board
        c = state.to_move
        ko = state.ko_hash                   # a play may not recreate the board before the last
        passes = 0
        for _ in range(3 * board.n):
            p = self._random_point(board, c, ko, rng)
            if p == PASS:
                passes += 1
                if passes == 2:
                    break
                ko = None
            else:
                passes = 0
                ko = board.hash
                board.play(p, c)
            c = 3 - c
        return self._score(state)

    @staticmethod
    def _random_point(board, c: int, ko: int | None, rng: random.Random) -> int:
        """A random empty point where ``c`` may play without filling its own eye, or PASS:
        a few random tries, then every empty point in random order."""
        empties = board.empties
        if not empties:
            return PASS
        for _ in range(8):
            q = empties[rng.randrange(len(empties))]
            if not fills_own_eye(board, q, c):
                h = board.play_hash(q, c)
                if h != -1 and h != ko:
                    return q
        rest = empties[:]
        rng.shuffle(rest)
        for q in rest:
            if not fills_own_eye(board, q, c):
                h = board.play_hash(q, c)
                if h != -1 and h != ko:
                    return q
        return PASS


register_searcher(GoSearcher(), GreedyGoBot)
