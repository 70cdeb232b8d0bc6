"""The shared parts of the search bots of the games whose searcher plays out with the game's own
rule bot: a *policy playout* and, for games with hidden cards, tiles or pieces, the
determinization loop of information-set MCTS (:mod:`qipai.bots.mcts`).

* :class:`PolicySearcher` — a playout that lets the game's rule bot (level 2) play every seat,
  with a uniformly random legal action one time in ``1 / epsilon``; after ``max_plies`` the
  position is valued by :meth:`PolicySearcher.evaluate` (default: a draw).
* :class:`DeterminizedSearcher` — ``inputs`` is the seat's view and nothing else; each
  iteration's root state is a :meth:`DeterminizedSearcher.determinize` of that view: a full
  state whose hidden parts are sampled (``qipai.cards.sample`` / ``qipai.tiles``) so that it
  agrees with the view. A sample the game refuses (a replayed action that the sampled deal makes
  illegal) is drawn again, up to ``tries`` times, so what is kept is consistent with every
  action the seat saw; the true deal is never an input.

A game subclasses one of them in ``qipai/bots/<game>.py`` and registers it with
:func:`qipai.bots.search.register_searcher`.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable, Iterable
from typing import Any

from qipai.bots.mcts import OutOfTime, Searcher, check_time, deadline
from qipai.core.errors import IllegalAction, NotationError

log = logging.getLogger(__name__)


class PolicySearcher(Searcher):
    """A searcher whose playout is the game's rule bot (see the module docstring).

    ``rule_bot``: the rule bot's factory ``(seed) -> bot``; ``epsilon``: the share of random
    actions in a playout; ``max_plies``: the playout's length before :meth:`evaluate`."""

    rule_bot: Callable[[int | None], Any]
    epsilon = 0.1
    max_plies = 400
    #: the phases searched (``None``: every turn); other turns are the rule bot's
    phases: tuple[str, ...] | None = None

    def __init__(self, game_id: str | None = None, rule_bot: Callable[[int | None], Any] | None = None,
                 phases: tuple[str, ...] | None = None) -> None:
        if game_id is not None:
            self.game_id = game_id
        if rule_bot is not None:
            self.rule_bot = rule_bot
        if phases is not None:
            self.phases = phases
        self._policy: Any = None

    def searched(self, state: Any, seat: int) -> bool:
        return self.phases is None or getattr(state, "phase", None) in self.phases

    def root_states(self, game: Any, inputs: dict[str, Any]) -> Callable[[random.Random], Any]:
        self._policy = None        # a fresh rule bot per search: its seeded tie-breaks repeat
        return super().root_states(game, inputs)

    def policy(self, state: Any, seat: int, rng: random.Random) -> Any:
        """The playout's action for ``seat``: the rule bot's, or a random legal one."""
        if rng.random() < self.epsilon:
            return rng.choice(state.legal_actions(seat))
        return self.playout_bot().choose(state, seat)

    def playout_bot(self) -> Any:
        """The search's rule bot for its playouts, made at its first use in a search."""
        if self._policy is None:
            self._policy = self.rule_bot(0)
        return self._policy

    def copy(self, state: Any) -> Any:
        """A copy of ``state`` that a playout may change (default: ``state.clone()``)."""
        return state.clone()

    def evaluate(self, state: Any) -> list[float]:
        """The value per seat in [0, 1] of an unfinished playout (default: a draw)."""
        return [0.5] * state.num_seats

    def playout(self, state: Any, rng: random.Random) -> list[float]:
        for _ in range(self.max_plies):
            if state.is_terminal():
                return self.terminal_values(state)
            check_time()
            seat = state.to_act[0]
            self.apply(state, self.policy(state, seat, rng), seat)
        return self.terminal_values(state) if state.is_terminal() else self.evaluate(state)


class NoDeterminization(ValueError):
    """A view of which :meth:`DeterminizedSearcher.determinize` drew no state in its tries (a
    search bot then answers with its rule bot, :class:`qipai.bots.search.SearchBot`)."""


class DeterminizedSearcher(PolicySearcher):
    """A :class:`PolicySearcher` for a game with hidden information (see the module docstring):
    ``DeterminizedSearcher(game_id, rule_bot, determinize, phases, own_hand)`` with the game's
    ``determinize(game, view, rng) -> state`` (and ``own_hand(state, seat)``, :meth:`own_hand`),
    or a subclass overriding them.

    ``samples`` and ``redraws`` count the samples drawn in the last search and those of them
    drawn again (refused by the game or by the safety net; each is logged at debug level): a
    view whose samples are mostly refused costs that many determinizations an iteration."""

    hidden = True
    #: samples drawn before a view is declared inconsistent
    tries = 60

    def __init__(self, game_id: str | None = None, rule_bot: Callable[[int | None], Any] | None = None,
                 determinize: Callable[[Any, dict[str, Any], random.Random], Any] | None = None,
                 phases: tuple[str, ...] | None = None,
                 own_hand: Callable[[Any, int], list[str]] | None = None) -> None:
        super().__init__(game_id, rule_bot, phases)
        if determinize is not None:
            self.determinize = determinize      # type: ignore[method-assign]
        if own_hand is not None:
            self.own_hand = own_hand            # type: ignore[method-assign]
        self.samples = self.redraws = 0

    def inputs(self, state: Any, seat: int) -> dict[str, Any]:
        return {"view": state.view(seat)}

    def determinize(self, game: Any, view: dict[str, Any], rng: random.Random) -> Any:
        """A full state agreeing with ``view``; may raise ``ValueError``, ``IllegalAction`` or
        ``NotationError`` for a sample the game refuses (it is then drawn again)."""
        raise NotImplementedError

    def own_hand(self, state: Any, seat: int) -> list[str]:
        """``seat``'s hand in a sample, in the terms of its view's ``hand`` (card ids or faces),
        for the safety net of :meth:`root_states`. Default: the sample's view's, a whole view
        built for it; a game whose state gives the hand cheaply says how."""
        return state.view(seat)["hand"]

    def root_states(self, game: Any, inputs: dict[str, Any]) -> Callable[[random.Random], Any]:
        self._policy = None
        view = inputs["view"]

        seat, hand = view.get("seat"), view.get("hand")
        own = sorted(hand) if seat is not None and isinstance(hand, list) and \
            all(isinstance(c, str) for c in hand) else None     # card ids or faces

        self.samples = self.redraws = 0

        def root(rng: random.Random) -> Any:
            error: Exception | None = None
            for k in range(self.tries):
                check_time()
                self.samples += 1
                self.redraws += k > 0
                try:
                    state = self.determinize(game, view, rng)
                    # a safety net: a sample that shows the seat another hand of its own is
                    # drawn again like one the game refuses
                    if own is not None and sorted(self.own_hand(state, seat)) != own:
                        raise ValueError("the sample gives the seat another hand")
                    return state
                except (ValueError, IllegalAction, NotationError) as e:
                    error = e
                    log.debug("%s: a sample drawn again: %s", self.game_id, e)
            raise NoDeterminization(f"no determinization of the view in {self.tries} samples: {error}")
        return root


class HalvingSearcher(DeterminizedSearcher):
    """A :class:`DeterminizedSearcher` whose decisions are :func:`halving_search` races with the
    rule bot's play kept to the end (``margin``): the candidates are the rule bot's play first,
    then every other legal action; a playout is the rule bot in every seat to the end of the
    deal, read from the state by :meth:`rule_play` (the same choice as from the view), with no
    random play (``epsilon``). A game defines :meth:`rule_play`; the turns outside
    :attr:`phases` (and every turn of a phase :meth:`rule_play` does not read) go to the rule
    bot's ``choose``."""

    epsilon = 0.0               # the other seats are rule bots: no random play in a playout
    #: the paired margin (one-sided z) by which a play must beat the rule bot's
    margin: float | None = 1.0

    def search(self, roots: Any, seat: int, budget: Any, rng: random.Random) -> Any:
        return halving_search(self, roots, seat, budget, rng, self.margin)

    def rule_play(self, state: Any, seat: int, actions: list) -> Any:
        """The rule bot's choice among ``actions`` (``seat``'s legal set in ``state``), read
        from the state; ``None`` where it reads the view (``choose`` is asked then)."""
        return None

    def candidates(self, state: Any, seat: int) -> list[Any]:
        """The rule bot's play first, then every other legal action."""
        actions = state.legal_actions(seat)
        first = self.rule_play(state, seat, actions)
        if first is None:
            return actions
        return [first, *(a for a in actions if a is not first)]

    def policy(self, state: Any, seat: int, rng: random.Random) -> Any:
        actions = state.legal_actions(seat)
        if self.epsilon and rng.random() < self.epsilon:
            return rng.choice(actions)
        first = self.rule_play(state, seat, actions)
        if first is not None:
            return first
        return self.playout_bot().choose(state, seat)


def replay(state: Any, entries: Iterable[Any]) -> Any:
    """Apply the public ``entries`` of a view to ``state`` and return it: each entry is an
    action text or ``[seat, text, ...]``. Raises :class:`IllegalAction` when the state refuses
    one (the determinization disagrees with what was seen)."""
    for e in entries:
        if isinstance(e, str):
            state.apply(e)
        else:
            state.apply(e[1], e[0])
    return state


def played_by_seat(plays: Iterable[list], seats: int) -> dict[int, list[str]]:
    """The card ids each seat has laid face up as the table shows them (labels of their ranks,
    :func:`qipai.cards.table_ids`), from a climbing game's ``plays`` view entries (``[seat,
    text]`` for a pass, ``[seat, text, ids]`` for a play)."""
    out: dict[int, list[str]] = {s: [] for s in range(seats)}
    for e in plays:
        if len(e) >= 3:
            out[e[0]] += e[2]
    return out


def halving_search(searcher: Any, roots: Callable[[random.Random], Any], seat: int, budget: Any,
                   rng: random.Random, margin: float | None = None) -> Any:
    """One decision of ``seat`` by sequential halving (:func:`_halving_search`) within the
    budget's time limit, a playout or sample cut at it dropped (:func:`qipai.bots.mcts.deadline`)."""
    with deadline(budget.ms) as stop:
        return _halving_search(searcher, roots, seat, budget, rng, margin, stop)


def _halving_search(searcher: Any, roots: Callable[[random.Random], Any], seat: int, budget: Any,
                    rng: random.Random, margin: float | None, stop: float | None) -> Any:
    """One decision of ``seat`` by *sequential halving* over the root's candidates with common
    determinizations (Karnin, Koren and Somekh 2013): the search runs in rounds; in each round
    every candidate still in the race is played out from the same determinizations (a clone of
    each for each candidate: the same hidden cards, so two candidates are compared on the same
    deals and the luck of the sample cancels out of their difference), and the better half by
    mean value goes on to the next round, until one is left or the budget is spent. The
    budget's playouts are shared evenly between the rounds; a time limit stops the search
    between playouts, every candidate still in the race having been played out from the same
    determinizations: a later one cut short is left out, and when the first one is cut short
    only the candidates played out from it race (the rule bot's play at least). Ties go to
    the earlier candidate (:meth:`Searcher.candidates` lists the rule bot's play first).
    Needs candidates that are legal in every determinization (the seat's own cards are known
    to it) and a playout worth comparing: the game's rule bot, to the end.

    With a searcher's ``duel = (share, z)`` the first candidate (the rule bot's play) is kept
    unless another is shown better: the race takes ``1 - share`` of the budget (and of the time
    limit); when another candidate wins it, that one and the first are played out from the same
    fresh determinizations with the rest, and the winner is chosen only when its mean paired
    difference over those samples is at least ``z`` standard errors above zero (a race's
    winner is lucky on the race's samples: they are not counted). The stats of the two count
    the race's playouts and the duel's.

    With a ``margin`` instead (wakeng's and 4A4's :class:`HalvingSearcher`) the first candidate
    races to the end whatever its mean, and the race's best other one is chosen only when its
    paired differences with the first over the samples both were played out from put their
    mean ``margin`` standard errors above zero (:func:`shown_better`); the whole budget is
    the race's.

    Returns a :class:`~qipai.bots.mcts.SearchResult` (each candidate's playouts and mean
    value); raises ``ValueError`` when ``seat`` has no candidate."""
    from qipai.bots.mcts import SearchResult

    start = time.perf_counter()
    first = roots(rng)
    cands: list[tuple[str, Any]] = []
    texts: set[str] = set()
    for a in searcher.candidates(first, seat):
        text = str(a)
        if text not in texts:
            texts.add(text)
            cands.append((text, a))
    if not cands:
        raise ValueError(f"seat {seat} has no legal action")
    # a budget too small to play each candidate out twice: the first ones only
    cands = cands[:max(2, budget.playouts // 2)]
    if len(cands) == 1:
        return SearchResult(cands[0][0], 0, {})
    duel = getattr(searcher, "duel", None)
    playouts, race_stop = budget.playouts, stop
    if duel is not None:
        playouts = round(budget.playouts * (1 - duel[0]))
        if stop is not None:
            race_stop = start + max(0.0, stop - start) * (1 - duel[0])
    best, spent, total, runs, values = _race(searcher, roots, first, cands, seat, playouts, race_stop, rng,
                                             margin is not None)
    if margin is not None and best != 0:
        common = [v - values[0][k] for k, v in values[best].items() if k in values[0]]
        if not shown_better(common, margin):
            best = 0
    diffs: list[float] = []
    if duel is not None and best != 0:
        # the duel: the race's winner against the first candidate on fresh samples
        while spent + 2 <= budget.playouts and not (stop is not None and time.perf_counter() >= stop):
            try:
                det = roots(rng)
                values = [_play_out(searcher, det if i else searcher.copy(det), cands[i][1], seat, rng)
                          for i in (0, best)]
            except OutOfTime:
                break          # the pair cut short is left out
            for i, v in zip((0, best), values):
                total[i] += v
                runs[i] += 1
            spent += 2
            diffs.append(values[1] - values[0])
        if not shown_better(diffs, duel[1]):
            best = 0
    stats = {t: (runs[i], total[i] / runs[i] if runs[i] else 0.0) for i, (t, _) in enumerate(cands)}
    return SearchResult(cands[best][0], spent, stats)


def _play_out(searcher: Any, state: Any, action: Any, seat: int, rng: random.Random) -> float:
    """``seat``'s value of ``action`` played in ``state`` (changed) and played out."""
    searcher.apply(state, action, seat)
    return (searcher.terminal_values(state) if state.is_terminal() else searcher.playout(state, rng))[seat]


def shown_better(diffs: list[float], z: float) -> bool:
    """Whether paired differences ``diffs`` put their mean at least ``z`` standard errors above
    zero (two samples at least; differences all alike and above zero count as shown)."""
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    if mean <= 0:
        return False
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return var == 0 or mean >= z * math.sqrt(var / n)


def _race(searcher: Any, roots: Callable[[random.Random], Any], first: Any, cands: list[tuple[str, Any]],
          seat: int, playouts: int, stop: float | None, rng: random.Random,
          keep_first: bool = False) -> tuple[int, int, list[float], list[int], list[dict[int, float]]]:
    """The sequential halving of :func:`halving_search` over ``cands`` from the sample
    ``first`` on: the winner's index, the playouts spent, each candidate's total and runs, and
    each candidate's value by sample number. ``keep_first``: the first candidate stays in every
    round (played first in each sample)."""
    total = [0.0] * len(cands)
    runs = [0] * len(cands)
    values: list[dict[int, float]] = [{} for _ in cands]
    samples = 0
    alive = list(range(len(cands)))
    rounds = math.ceil(math.log2(len(cands)))
    spent = 0
    state: Any = first
    late = False
    for r in range(rounds):
        per = max(1, (playouts - spent) // ((rounds - r) * len(alive)))
        for _ in range(per):
            if spent + len(alive) > playouts or (
                    spent and stop is not None and time.perf_counter() >= stop):
                break
            done: list[tuple[int, float]] = []
            try:
                det = state if state is not None else roots(rng)
                state = None
                for k, i in enumerate(alive):
                    # the time limit is looked at between playouts too: a sample's playouts of
                    # every candidate (tens of leads, each to the end of the hand) may take
                    # longer than the whole limit; a playout cut at it is left out
                    if k and stop is not None and time.perf_counter() >= stop:
                        late = True
                        break
                    s = det if k == len(alive) - 1 else searcher.copy(det)
                    done.append((i, _play_out(searcher, s, cands[i][1], seat, rng)))
            except OutOfTime:
                late = True
            if late and spent:
                break          # a later sample cut short: left out, the race stays on the same samples
            for i, v in done:
                total[i] += v
                runs[i] += 1
                values[i][samples] = v
            samples += 1
            spent += len(done)
            if late:           # the first sample cut short: the candidates played out from it race
                alive = [i for i, _ in done] or [0]
                break
        if not runs[alive[0]]:
            break
        keep = 1 if r == rounds - 1 else (len(alive) + 1) // 2
        alive = sorted(alive, key=lambda i: (-total[i] / runs[i], i))[:keep]
        if keep_first and 0 not in alive:
            alive.insert(0, 0)     # the rule bot's play races to the end (played first)
        if late or spent + len(alive) > playouts or (
                stop is not None and time.perf_counter() >= stop):
            break
    best = min(alive, key=lambda i: (-total[i] / runs[i] if runs[i] else 0.0, i))
    return best, spent, total, runs, values
