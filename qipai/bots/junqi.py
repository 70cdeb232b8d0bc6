"""Junqi bots: ``random`` (generic) and ``greedy``.

``greedy`` reads only ``state.view(seat)``, the public board geometry and its legal actions.

* Layout: among the offered layouts, the one with the most mines next to the flag.
* Play, one move ahead, best score first (ties broken at random, seeded):
  a revealed enemy flag is taken at once; an attack on an unmoved piece on an enemy
  headquarters (a possible flag) is tried with a junior officer; attacks prefer officers of
  middle rank, keep the commander and the bombs for pieces that have moved (not mines),
  and send engineers at unmoved back-row pieces (possible mines); a quiet move scores the
  distance it gains towards the nearest enemy headquarters.
* Memory: from the public history it keeps, for enemy pieces, the lowest rank they can have
  (a piece that beat one of its officers outranks it) and never attacks such a piece with an
  officer it outranks or equals, but sends a bomb at it when it is a 38 or more.
"""

from __future__ import annotations

import math
import random
from collections import deque
from typing import Any

from qipai.bots import register_bot
from qipai.bots.ismcts import DeterminizedSearcher
from qipai.bots.junqi_guard import gates, guarded_layout_action, posts
from qipai.bots.junqi_hidden import determinize
from qipai.bots.search import register_searcher
from qipai.games.junqi.board import Board
from qipai.games.junqi.notation import Layout, Move
from qipai.games.junqi.pieces import BOMB, ENGINEER, FLAG, MINE, movable

_DIST: dict[tuple[str, int], list[int]] = {}


def enemy_hq_distance(board: Board, seat: int, teams: list[int]) -> list[int]:
    """Per point, the number of connections to the nearest headquarters of an opposing seat
    (pieces ignored)."""
    key = (board.variant, seat)
    if key not in _DIST:
        _DIST[key] = _steps_from(board, [p for p in range(board.n) if board.hq[p] and board.area[p] >= 0
                                         and teams[board.area[p]] != teams[seat]])
    return _DIST[key]


def _steps_from(board: Board, start: list[int]) -> list[int]:
    """Per point, the number of steps (roads and railways, pieces ignored) to the nearest of
    the points ``start``."""
    dist = [10**6] * board.n
    todo = deque(start)
    for p in start:
        dist[p] = 0
    while todo:
        u = todo.popleft()
        for v in board.steps[u]:
            if dist[v] > dist[u] + 1:
                dist[v] = dist[u] + 1
                todo.append(v)
    return dist


class GreedyBot:
    """One-move-ahead junqi bot (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.seen = 0                      # history entries already read
        self.lo: dict[str, int] = {}       # enemy piece's point -> lowest rank it can have
        self.mine_at: dict[str, str] = {}  # own pieces (point -> code) at the last look

    def _learn(self, view: dict, seat: int) -> None:
        """Read the new public history entries (see the module docstring)."""
        history = view["history"]
        if len(history) < self.seen:      # a new game
            self.seen, self.lo, self.mine_at = 0, {}, {}
        lo, mine = self.lo, self.mine_at
        for who, text in history[self.seen:]:
            if "-" not in text:
                continue
            move, _, outcome = text.partition(":")
            frm, to = move.split("-")
            if who == seat:
                code = mine.pop(frm, None)
                if not outcome or outcome == "win":
                    lo.pop(to, None)
                    if code is not None:
                        mine[to] = code
                elif outcome == "lose" and code is not None and code.isdecimal():
                    lo[to] = max(lo.get(to, 0), int(code) + 1)
                else:
                    lo.pop(to, None)
                continue
            known = lo.pop(frm, 0)
            code = mine.get(to)
            if outcome == "win" and code is not None:
                mine.pop(to)
                lo[to] = max(known, int(code) + 1) if code.isdecimal() else known
            elif outcome in ("both", "flag"):
                mine.pop(to, None)
                lo.pop(to, None)
            elif outcome == "lose":
                pass
            elif known and (who - seat) % 2:
                lo[to] = known
        self.seen = len(history)
        enemy = {x["point"] for x in view["pieces"] if (x["seat"] - seat) % 2}
        for p in [p for p in lo if p not in enemy]:
            del lo[p]
        self.mine_at = {x["point"]: x["piece"] for x in view["pieces"] if x["seat"] == seat}

    def choose(self, state, seat: int):
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        if isinstance(actions[0], Layout):
            return self._layout(state.board, actions, seat)
        return self._move(state, seat, actions)

    def _layout(self, board: Board, actions: list[Layout], seat: int) -> Layout:
        def guarded(layout: Layout) -> int:
            pieces = dict(e.split("=") for e in layout.text.split())
            flag = next(board.point(p) for p, c in pieces.items() if c == "F")
            return sum(pieces.get(board.names[q]) == "M" for q in board.steps[flag])
        best = max(guarded(a) for a in actions)
        return self.rng.choice([a for a in actions if guarded(a) == best])

    def _move(self, state, seat: int, actions: list[Move]) -> Move:
        board: Board = state.board
        view = state.view(seat)
        self._learn(view, seat)
        at = {x["point"]: x for x in view["pieces"]}
        teams = [s % 2 for s in range(len(view["seats"]))]
        dist = enemy_hq_distance(board, seat, teams)
        best, score_best = [], None
        for m in actions:
            s = self._score(board, at, m, dist, self.lo.get(m.to, 0)) + self.rng.random() * 0.5
            if score_best is None or s > score_best + 1e-9:
                best, score_best = [m], s
            elif abs(s - score_best) <= 1e-9:
                best.append(m)
        return self.rng.choice(best)

    @staticmethod
    def _score(board: Board, at: dict, m: Move, dist: list[int], known: int) -> float:
        mine = at[m.frm]["piece"]
        target = at.get(m.to)
        p, q = board.point(m.frm), board.point(m.to)
        if target is None:
            gain = dist[p] - dist[q]
            return 2.0 * gain - (1.0 if mine in ("40", "39", "B") else 0.0)
        if target["piece"] == "F":
            return 10_000.0
        moved = target["moved"]
        r = board.local[q][0] if board.local[q] else 0
        if mine == "B":
            if known >= 38:
                return 30.0 + known
            return 4.0 if moved else -5.0
        rank = int(mine)
        if known > rank or (known and known == rank and rank < 38):
            return -20.0
        if board.hq[q] and not moved:
            return 40.0 - rank          # a possible flag: probe with a junior officer
        if mine == "32":
            return 15.0 if (not moved and r >= 5) else 1.0
        if rank >= 39:
            return 8.0 if moved else -4.0
        return 6.0 + (rank - 33)
        # ranks 33..38 attack readily, the stronger the more


register_bot("junqi", "greedy", GreedyBot)


class GuardBot(GreedyBot):
    """The turns the search levels do not search: the greedy bot's, but the layout walls the
    flag in (:func:`~qipai.bots.junqi_guard.guarded_layout`: a legal layout of its own, not one
    of the three the game offers)."""

    def _layout(self, board: Board, actions: list[Layout], seat: int) -> Layout:
        return guarded_layout_action(board, seat, self.rng)


# ----- search (levels 3-5) -------------------------------------------------------------------
#: material of a piece for the cut-off value of a playout
WORTH = {40: 10, 39: 8, 38: 6, 37: 4.5, 36: 3.5, 35: 2.5, 34: 2, 33: 1.5, 32: 2, BOMB: 5, MINE: 1.5,
         FLAG: 0}


def move_score(state: Any, seat: int, p: int, q: int, dist: list[int], guarded: int = -1) -> float:
    """The greedy bot's one-move score (:meth:`GreedyBot._score`) of the move ``p`` → ``q``, read
    from the state's arrays instead of a view and without the bot's memory: what it reads of
    the other seats' pieces is public (where they stand, whether they moved, a revealed flag).
    The flag of seat ``guarded`` (the searching seat: its own flag, known to it, not sampled)
    is taken at once as a revealed one is: a search assumes its flag found by any enemy piece
    that reaches it."""
    board: Board = state.board
    kind = state.kind
    mine = kind[p]
    owner = state.own[q]
    if owner < 0:
        return 2.0 * (dist[p] - dist[q]) - (1.0 if mine >= 39 or mine == BOMB else 0.0)
    if kind[q] == FLAG and (owner == guarded or state.sees(seat, q)):
        return 10_000.0
    moved = state.moved[q]
    if mine == BOMB:
        return 4.0 if moved else -5.0
    if board.hq[q] and not moved:
        return 40.0 - mine
    if mine == ENGINEER:
        return 15.0 if (not moved and board.local[q] and board.local[q][0] >= 5) else 1.0
    if mine >= 39:
        return 8.0 if moved else -4.0
    return 6.0 + (mine - 33)


class JunqiSearcher(DeterminizedSearcher):
    """The play is searched (the layout is :class:`GuardBot`'s), each iteration from a fresh
    :func:`determinize`; a node considers the moves in the greedy bot's order, with a
    progressive bias toward it. A playout lets every seat play as the greedy bot does
    (:func:`move_score`, read from the state, one move in ten random) for :attr:`max_plies`
    moves; an unfinished one is valued by :meth:`evaluate`: material (:data:`WORTH` of the pieces
    each side has left, less for a piece stuck on a headquarters) less the danger to each side's
    flag (enemy pieces within three moves of it, the railway's runs counted: :func:`flag_reach`)
    and the lack of pieces free to move, logistic, 5 points ≈ 0.73.
    The search defends its flag against the worst: the other side is assumed to take the
    searching seat's flag (its own, never sampled) as soon as a piece reaches it, in the tree and
    in the playouts, and a playout answers a piece next to the mover's flag first."""

    max_plies = 20
    bias = 1.0
    #: what an enemy piece that moves costs a side by its distance in moves to the side's flag
    #: (:func:`flag_reach`; 1: it may take the flag on its next move), at most THREAT_CAP in
    #: all; what a revealed flag costs (its owner lost the 司令: every probe now goes straight
    #: to it)
    FLAG_THREAT = {1: 6.0, 2: 2.5, 3: 1.0}
    THREAT_CAP = 10.0
    FLAG_SHOWN = 2.0
    #: the share of its WORTH a piece on a headquarters keeps (it never moves again), and what a
    #: seat with so few pieces free to move loses (none left: it is defeated at its turn, §6.1)
    STUCK = 0.25
    FEW_MOVERS = {0: 30.0, 1: 5.0, 2: 2.5, 3: 1.0}
    #: the moves a node considers (the rest of the greedy bot's order is never searched), and
    #: what an attack on an enemy piece next to the seat's own flag adds to its place in it
    width = 12
    DEFEND = 30.0
    #: what a quiet move off a post of the seat's own flag (a point next to a gate,
    #: :func:`~qipai.bots.junqi_guard.posts`) takes from its place in that order: the guards stay
    #: home unless they strike
    GUARD = 20.0

    def candidates(self, state: Any, seat: int) -> list[Any]:
        """The :attr:`width` best legal moves in the greedy bot's order (its one-move score,
        best first), the moves that defend the seat's own flag first of all (see the comment
        below: taking an enemy piece within reach of it, filling or guarding a point next to
        it); for
        an enemy of the searching seat, taking that seat's flag (its own, known to it) before
        anything else: the search assumes the worst for its flag."""
        actions = state.legal_actions(seat)
        if state.phase != "play" or len(actions) <= 1:
            return list(actions)
        guarded = self._guarded
        if guarded >= 0 and state.team[seat] != state.team[guarded]:
            board = state.board
            take = [m for m in actions if state.own[board.point(m.to)] == guarded
                    and state.kind[board.point(m.to)] == FLAG]
            if take:
                return take
        bot = self._rankers.setdefault(seat, GreedyBot(0))   # its memory is one seat's
        view = state.view(seat)
        bot._learn(view, seat)
        board = state.board
        at = {x["point"]: x for x in view["pieces"]}
        dist = enemy_hq_distance(board, seat, [s % 2 for s in range(state.num_seats)])
        flags = [f for f in range(board.n) if state.own[f] == seat and state.kind[f] == FLAG]
        movers = [p for p in range(board.n) if state.own[p] >= 0 and movable(state.kind[p])]
        # defence: what a move adds when an enemy piece is within two moves of the flag
        # (:func:`flag_reach`): taking that piece, filling an empty point next to the flag (a
        # gate), or stepping next to such a gate or to the piece (a defender at hand); taking
        # a piece three moves away adds less
        bonus: dict[int, float] = {}
        leave: set[int] = set()
        for f in flags:
            leave |= {p for p in posts(board, f) if state.own[p] == seat}
            open_gates = [g for g in gates(board, f) if state.own[g] < 0]
            for g in open_gates:                 # filled even without a threat in sight
                bonus[g] = self.DEFEND / 3
            reach = flag_reach(state, f, movers)
            for p, k in reach.items():
                if k == 3:
                    bonus[p] = self.DEFEND / 2
            reach = {p: k for p, k in reach.items() if k <= 2}
            if not reach:
                continue
            for p in [*reach, *open_gates]:
                for q in board.steps[p]:
                    bonus[q] = max(bonus.get(q, 0.0), self.DEFEND / 3)
            for g in open_gates:
                bonus[g] = max(bonus.get(g, 0.0), self.DEFEND / 2)
            for p in reach:
                bonus[p] = self.DEFEND

        def score(m: Any) -> float:
            s = bot._score(board, at, m, dist, bot.lo.get(m.to, 0))
            p, q = board.point(m.frm), board.point(m.to)
            if p in leave and q not in bonus and state.own[q] < 0:
                s -= self.GUARD
            return s + bonus.get(q, 0.0)
        return sorted(actions, key=lambda m: -score(m))[:self.width]

    #: the searching seat, whose flag the other side is assumed to find (-1: none)
    _guarded = -1

    def root_states(self, game: Any, inputs: dict[str, Any]) -> Any:
        self._rankers: dict[int, GreedyBot] = {}
        self._guarded = inputs["view"]["seat"]
        return super().root_states(game, inputs)

    def policy(self, state: Any, seat: int, rng: random.Random) -> Any:
        """The playout's move for ``seat``: the best by :func:`move_score` (ties at random), or
        one in ten a random legal move; but first, never at random, taking a flag the seat may
        take (:func:`move_score`: a revealed one, or the searching seat's) and then an attack on
        an enemy piece next to the seat's own flag. Reads the state's arrays (no view, no
        action texts)."""
        board = state.board
        own, kind = state.own, state.kind
        moves = [(p, q) for p in range(board.n) if own[p] == seat for q in state.destinations(p)]
        if not moves:
            return rng.choice(state.legal_actions(seat))
        dist = enemy_hq_distance(board, seat, state.team)
        urgent = [m for m in moves if own[m[1]] >= 0 and kind[m[1]] == FLAG
                  and move_score(state, seat, m[0], m[1], dist, self._guarded) >= 10_000.0]
        if not urgent:
            steps = step_distance(board)
            flags = [steps[f] for f in range(board.n) if own[f] == seat and kind[f] == FLAG]
            urgent = [m for m in moves if own[m[1]] >= 0 and any(d[m[1]] == 1 for d in flags)]
        if urgent:
            moves = urgent
        elif rng.random() < self.epsilon:
            p, q = rng.choice(moves)
            return Move(board.names[p], board.names[q])
        top = -math.inf
        for m in moves:
            s = move_score(state, seat, m[0], m[1], dist, self._guarded) + rng.random() * 0.5
            if s > top:
                (p, q), top = m, s
        return Move(board.names[p], board.names[q])

    def evaluate(self, state: Any) -> list[float]:
        """Per side, the :data:`WORTH` of its pieces (a piece on a headquarters, which never
        moves again, :attr:`STUCK` of it) less the danger to its flag (each enemy piece that
        moves, by its distance in moves to the flag, :func:`flag_reach`: :attr:`FLAG_THREAT`,
        at most :attr:`THREAT_CAP` in all; a revealed flag :attr:`FLAG_SHOWN` more) and less, per seat,
        :attr:`FEW_MOVERS` by its pieces free to move (see :func:`free_movers`), against the
        best other side's, logistic (5 points ≈ 0.73)."""
        board = state.board
        own, kind = state.own, state.kind
        sides = state.sides()
        side_of = {s: i for i, side in enumerate(sides) for s in side}
        worth = [0.0] * len(sides)
        flags = []
        movers = []
        hq = board.hq
        for p in range(board.n):
            s = own[p]
            if s < 0:
                continue
            k = kind[p]
            worth[side_of[s]] += WORTH[k] * self.STUCK if hq[p] and k != FLAG else WORTH[k]
            if k == FLAG:
                flags.append(p)
            elif movable(k):
                movers.append(p)
        free = free_movers(state, movers)
        few = self.FEW_MOVERS
        for s, side in side_of.items():
            if state.eliminated[s] is None:
                worth[side] -= few.get(free[s], 0.0)
        threat = self.FLAG_THREAT
        for f in flags:
            s = own[f]
            danger = sum(threat.get(d, 0.0) for d in flag_reach(state, f, movers).values())
            shown = self.FLAG_SHOWN if state.flag_revealed[s] else 0.0
            worth[side_of[s]] -= min(danger, self.THREAT_CAP) + shown
        out = [0.5] * state.num_seats
        for i, side in enumerate(sides):
            diff = worth[i] - max(w for j, w in enumerate(worth) if j != i)
            for s in side:
                out[s] = 1 / (1 + math.exp(-diff / 5))
        return out


def flag_reach(state: Any, f: int, movers: list[int]) -> dict[int, int]:
    """For the flag on ``f``, the enemy pieces among ``movers`` within three moves of it, each
    with that number of moves: its steps along roads and railways to the flag, or one more than
    the steps from the nearest point it may move to next, whichever is fewer — a piece on the
    railway runs far in one move (an engineer along any path of empty stations), so a piece
    that may land next to the flag (on a *gate*) is two moves from it however far it stands."""
    board = state.board
    own, team, rail, hq = state.own, state.team, board.rail, board.hq
    d = step_distance(board)[f]
    side = team[own[f]]
    out = {}
    for p in movers:
        if team[own[p]] == side:
            continue
        k = d[p]
        if k > 2 and rail[p] and not hq[p]:
            k = min([k] + [d[q] + 1 for q in state.destinations(p)])
        if k <= 3:
            out[p] = k
    return out


def free_movers(state: Any, movers: list[int]) -> list[int]:
    """Per seat, its pieces among ``movers`` (the points of pieces of a kind that moves) that
    are free to move: not on a headquarters, and with a step to a point that is empty, an
    enemy's, or an ally's piece that may move away (not a mine, the flag or a piece on a
    headquarters). Cheap: the railway runs are not followed."""
    board = state.board
    own, kind, team, hq, steps = state.own, state.kind, state.team, board.hq, board.steps
    free = [0] * state.num_seats
    for p in movers:
        if hq[p]:
            continue
        s = own[p]
        for q in steps[p]:
            o = own[q]
            if o < 0 or team[o] != team[s] or (movable(kind[q]) and not hq[q]):
                free[s] += 1
                break
    return free


_STEPS: dict[str, list[list[int]]] = {}


def step_distance(board: Board) -> list[list[int]]:
    """Between every two points, the number of steps along the roads and railways from one to
    the other (pieces ignored; a railway run counts a step per station)."""
    if board.variant not in _STEPS:
        _STEPS[board.variant] = [_steps_from(board, [a]) for a in range(board.n)]
    return _STEPS[board.variant]


SEARCHER = JunqiSearcher("junqi", GreedyBot, determinize, phases=("play",))
register_searcher(SEARCHER, GuardBot)
