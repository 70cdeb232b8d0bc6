"""Monte Carlo tree search shared by every game's search bot.

One algorithm serves both kinds of game: single-observer information-set MCTS (SO-ISMCTS,
Cowling, Powley and Whitehouse 2012). Each iteration starts from a *root state* handed out by
the game's :class:`Searcher`: for a game of perfect information a copy of the real position,
for a game with hidden cards or tiles a *determinization* — a full state sampled so that it
agrees with everything the searching seat has seen (its view and the public record), never with
the true deal. The tree is keyed by action texts; a child is selected only when its action is
legal in the iteration's root state, and UCB1 counts the parent visits by *availability* (how
often the child was legal when its parent was reached). With one root state this is plain UCT.

Values are per seat in ``[0, 1]``: 1 for a winner, 0 for a loser, 0.5 each for a draw
(:func:`result_values`); a node keeps the sum of the values of the seat that moved into it.

The budget is a number of iterations (playouts) and an optional wall-clock limit in ms;
whichever runs out first stops the search. The move is the most visited root child.

The time limit holds inside an iteration too: a search runs under a :func:`deadline`, and the
long loops of a search (each ply of a playout, each sample a determinization draws) call
:func:`check_time`, which raises :class:`OutOfTime` past it. The iteration so cut is dropped
(nothing of it is counted), so one long playout or sampler costs at most one ply or one sample
past the limit.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

#: UCB1 exploration constant for values in [0, 1]
EXPLORATION = 0.7


@dataclass(frozen=True)
class Budget:
    """How long a search may run: ``playouts`` iterations and at most ``ms`` milliseconds
    (``None``: no time limit, which makes a search with a fixed seed reproducible)."""

    playouts: int
    ms: int | None = None


class OutOfTime(Exception):
    """Raised by :func:`check_time` past the running search's :func:`deadline`: the search
    drops the iteration it cuts and answers with what it has. A search that drew no root
    state in time raises it (a search bot's rule bot answers then)."""


#: the running search's deadline (``time.perf_counter``), ``None`` without a clock
_stop: float | None = None


@contextmanager
def deadline(ms: int | None) -> Iterator[float | None]:
    """Run a search within ``ms`` milliseconds from now (``None``: no limit of its own); an
    enclosing deadline that comes earlier is kept (:func:`qipai.bots.search.think` sets one
    before the root states are prepared). Yields the deadline in effect."""
    global _stop
    saved = _stop
    stop = None if ms is None else time.perf_counter() + ms / 1000
    if saved is not None and (stop is None or saved < stop):
        stop = saved
    _stop = stop
    try:
        yield stop
    finally:
        _stop = saved


def check_time() -> None:
    """Raise :class:`OutOfTime` when the running search is past its :func:`deadline`."""
    if _stop is not None and time.perf_counter() >= _stop:
        raise OutOfTime("past the time limit")


class Searcher:
    """A game's part of the search: which decisions are searched, the root states, the
    moves a tree node considers and the playout. Subclasses live in ``qipai/bots/<game>.py``.

    ``hidden``: the game hides information, so :meth:`inputs` must read only
    ``state.view(seat)`` and :meth:`root_states` must sample what the seat cannot see.
    """

    game_id = ""
    hidden = False
    #: UCB1 exploration constant of this game's values
    exploration = EXPLORATION
    #: progressive bias (Chaslot et al. 2008) toward the candidates' order: the child that was
    #: candidate number ``r`` (0 the first) when created adds ``bias / ((r + 1) * (visits + 1))``
    #: to its UCB1 value, so a small search follows the order and a larger one may overrule it
    bias = 0.0

    def searched(self, state: Any, seat: int) -> bool:
        """True when the search decides this turn; otherwise the game's rule bot answers
        (opening choices, bidding, marking dead stones). Default: always."""
        return True

    def inputs(self, state: Any, seat: int) -> dict[str, Any]:
        """Everything the search may know, JSON-ready and picklable (it is sent to a worker
        process). Default, for perfect information: the game's record so far."""
        if self.hidden:
            raise NotImplementedError("a game with hidden information builds inputs from its view")
        return {"record": state.to_json()}

    def root_states(self, game: Any, inputs: dict[str, Any]) -> Callable[[random.Random], Any]:
        """A function ``rng -> state`` giving the root state of one iteration (a fresh copy
        the search may change). Default: copies of the position rebuilt from the record."""
        base = game.state_from_json(inputs["record"])
        return lambda rng: base.clone()

    def resolver(self, state: Any, seat: int) -> Callable[[str], Any]:
        """A look-up of ``seat``'s legal actions in ``state`` by their text (``None`` for a text
        not legal), read from the state now: the search answers a text. By default a dictionary
        of the legal set; a game whose legal set is too large to list says how."""
        return {str(a): a for a in state.legal_actions(seat)}.get

    def candidates(self, state: Any, seat: int) -> list[Any]:
        """The actions a tree node of ``seat`` considers, best first when the game knows an
        order (untried actions are expanded in this order). Default: every legal action."""
        return state.legal_actions(seat)

    def apply(self, state: Any, action: Any, seat: int) -> None:
        """Apply ``action`` for ``seat``: one of ``state``'s own :meth:`candidates` or playout
        actions, so legal there (default: ``state.apply``; a game may skip checking it again)."""
        state.apply(action, seat)

    def terminal_values(self, state: Any) -> list[float]:
        """The value per seat in [0, 1] of a finished ``state`` (default: :func:`result_values`)."""
        return result_values(state)

    def search(self, roots: Callable[[random.Random], Any], seat: int, budget: Budget,
               rng: random.Random) -> SearchResult:
        """One decision of ``seat`` from the root states ``roots(rng)`` (default: :func:`search`,
        SO-ISMCTS; a game may search its decisions another way)."""
        return search(self, roots, seat, budget, rng)

    def playout(self, state: Any, rng: random.Random) -> list[float]:
        """Play ``state`` on (it may be changed) and return a value per seat in [0, 1].
        Default: uniformly random legal actions to the end, at most 400 plies (then a draw)."""
        for _ in range(400):
            if state.is_terminal():
                return result_values(state)
            check_time()
            seat = state.to_act[0]
            state.apply(rng.choice(state.legal_actions(seat)), seat)
        return [0.5] * state.num_seats


def result_values(state: Any) -> list[float]:
    """Per-seat values of a finished ``state``: 1 for each winner, 0 for the others; 0.5 for
    everyone when nobody won."""
    winners = state.result.winners
    if not winners:
        return [0.5] * state.num_seats
    return [1.0 if s in winners else 0.0 for s in range(state.num_seats)]


class Node:
    """A tree node: the seat that moved into it, visits, the sum of that seat's values, how
    often it was available, and children by action text."""

    __slots__ = ("mover", "visits", "value", "avail", "children", "actions", "rank")

    def __init__(self, mover: int | None, rank: int = 0) -> None:
        self.mover = mover
        self.rank = rank                      # its place in the candidates when created
        self.visits = 0
        self.value = 0.0
        self.avail = 0
        self.children: dict[str, Node] = {}
        # (text, action) of the candidates, kept when the node's state is always the same
        self.actions: list[tuple[str, Any]] | None = None

    def ucb(self, c: float, bias: float = 0.0) -> float:
        v = self.visits
        return (self.value / v + c * math.sqrt(math.log(self.avail) / v)
                + bias / ((self.rank + 1) * (v + 1)))


@dataclass
class SearchResult:
    """The chosen action's text, the iterations run, and each root child's (visits, mean
    value) by action text."""

    action: str
    playouts: int
    stats: dict[str, tuple[int, float]]


def search(searcher: Searcher, roots: Callable[[random.Random], Any], seat: int, budget: Budget,
           rng: random.Random, exploration: float | None = None) -> SearchResult:
    """Run SO-ISMCTS for ``seat`` from the root states ``roots(rng)``; see the module docstring.
    Raises ``ValueError`` when ``seat`` has no candidate action at the root."""
    c = searcher.exploration if exploration is None else exploration
    with deadline(budget.ms):
        root = Node(None)
        first = roots(rng)        # OutOfTime here: no state drawn in time
        root_actions = searcher.candidates(first, seat)
        if not root_actions:
            raise ValueError(f"seat {seat} has no legal action")
        if len(root_actions) == 1:
            return SearchResult(str(root_actions[0]), 0, {})
        n = 0
        state = first
        try:
            while n < budget.playouts:
                if n:
                    check_time()
                    state = roots(rng)
                _iterate(searcher, root, state, rng, c)
                n += 1
        except OutOfTime:
            pass                      # the iteration cut short is dropped
    stats = {t: (c.visits, c.value / c.visits if c.visits else 0.0) for t, c in root.children.items()}
    legal = {str(a) for a in root_actions}
    best = max((t for t in stats if t in legal), key=lambda t: stats[t], default=str(root_actions[0]))
    return SearchResult(best, n, stats)


def _iterate(searcher: Searcher, root: Node, state: Any, rng: random.Random, c: float) -> None:
    bias = searcher.bias
    node = root
    path = [root]
    while not state.is_terminal():
        seat = state.to_act[0]
        actions = node.actions
        if actions is None:
            actions = [(str(a), a) for a in searcher.candidates(state, seat)]
            if not searcher.hidden:           # one position per node: compute its moves once
                node.actions = actions
        if not actions:                       # a searcher that prunes everything: play on
            break
        untried = None
        legal: list[tuple[Node, Any]] = []
        children = node.children
        for rank, (text, a) in enumerate(actions):
            child = children.get(text)
            if child is None:
                if untried is None:
                    untried = (text, a, rank)
            else:
                child.avail += 1
                legal.append((child, a))
        if untried is not None:
            child = Node(seat, untried[2])
            child.avail = 1
            children[untried[0]] = child
            searcher.apply(state, untried[1], seat)
            path.append(child)
            break
        node, action = max(legal, key=lambda ca: ca[0].ucb(c, bias))
        searcher.apply(state, action, seat)
        path.append(node)
    values = searcher.terminal_values(state) if state.is_terminal() else searcher.playout(state, rng)
    for n in path[1:]:
        n.visits += 1
        n.value += values[n.mover]
