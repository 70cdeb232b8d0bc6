"""Chinese checkers (跳棋): the game and its states, per rules/chinese-checkers.md.

Seats are numbered in turn order and each holds one camp of :data:`.board.LAYOUTS` (seat 0
is S and moves first). A player's **target** is the camp opposite its home; it has
**finished** when the ten target holes all hold its own marbles.

Turns and rounds (§4): a round is one turn of every seat still playing, in seat order. A seat
leaves play by finishing (skipped from then on) or by elimination (anti-stalling §4.3,
resignation, a final timeout: its marbles are removed). At the end of each round:

* a round in which somebody finished ends the game (``ranking="first_only"``), or the game
  goes on until at most one seat has not finished (``ranking="full"``);
* a round in which nobody moved a marble (all passes or timeouts) ends it (``all_pass``);
* the ``max_moves`` guard ends it when every seat still playing has made that many moves.

With two players this gives §4.1 exactly: the second player always answers the first
player's finishing move, and both finishing in one round is the equal-moves draw.

Results: ``details["places"]`` (1 = best, shared places use competition ranking 1, 1, 3);
``returns`` are table points from the places (k - place, shared places share the average),
which for two players is win 1, draw 0.5, loss 0. Result text: ``1-0`` / ``0-1`` /
``1/2-1/2`` with two players (seat 0's view), else the places in seat order (``1,3,2``).
Reasons: ``finished``, ``equal_moves_draw``, ``stalling``, ``resign``, ``timeout`` (and other
forfeit reasons), ``max_moves``, ``all_pass``, ``agreement``.
"""

from __future__ import annotations

import operator
from typing import Any

from ...core.errors import IllegalAction, NotationError, OptionError
from ...core.game import Game, Result, State
from ...core.options import Option
from ...core.registry import register
from .board import (
    CAMP_OF,
    CAMPS,
    DIAGRAM_FORMAT,
    DIAGRAM_HOLES,
    LAYOUTS,
    NEIGHBOUR,
    NHOLES,
    OPPOSITE,
    hole_name,
    names_by_owner,
)
from .moves import EMPTY, chain_tree, check_chain, destinations, path_to
from .notation import (
    FORFEIT,
    LEAVING,
    MOVE,
    PASS,
    RESIGN,
    TIMEOUT,
    Action,
    parse_action,
    parse_position,
    position_text,
)

PLAYING, FINISHED, OUT = "playing", "finished", "out"
#: anti-stalling checkpoints (§4.3): own move number -> marbles that must be outside home
CHECKPOINTS = {20: 5, 25: 8, 30: 10}
#: timeouts after which a seat is out (§5, 3+ players: the third timeout eliminates)
TIMEOUT_STRIKES = 3


def table_points(places: list[int]) -> list[float]:
    """Points from places (1 = best) among k seats: place p is worth k - p, and seats sharing
    a place share the average of the places they cover."""
    k = len(places)
    out = []
    for p in places:
        c = places.count(p)
        out.append(sum(k - q for q in range(p, p + c)) / c)
    return out


def is_ranking(places: list[int]) -> bool:
    """True when ``places`` (1 = best) is a competition ranking: the seats sharing place p
    are preceded by exactly p - 1 seats (1, 1, 3 is one; 1, 2, 2 too; 1, 3, 3 is not)."""
    return all(p >= 1 and sum(1 for q in places if q < p) == p - 1 for p in places)


@register
class ChineseCheckersGame(Game):
    """Chinese checkers for 2, 3, 4 or 6 players (default 2). Options are the variants of
    rules/chinese-checkers.md."""

    id = "chinese-checkers"
    seats = (2, 3, 4, 6)
    hidden_information = False
    draw_offers = True
    option_spec = (
        Option("jump_rule", "adjacent", choices=("adjacent", "equidistant"),
               doc="§3.2: adjacent = jump over the next hole only (一子跳, seed 000); "
                   "equidistant = jump over the first marble in a line to as far beyond (空跳)"),
        Option("may_stop_in_foreign_camps", True, kind=bool,
               doc="§3.3: a move may end in a camp that is neither the mover's home nor "
                   "target (chains may always pass through)"),
        Option("ranking", "first_only", choices=("first_only", "full"),
               doc="§4.2 (3+ players): first_only = the game ends with the round in which "
                   "someone finishes; full = play on until at most one has not finished"),
        Option("anti_stalling", True, kind=bool,
               doc="§4.3: after own moves 20/25/30 at least 5/8/10 marbles outside home, else "
                   "loss (2 players) or elimination"),
        Option("keep_out_after_30", True, kind=bool,
               doc="§4.3: from own move 30 on, all 10 marbles must stay outside home"),
        Option("max_moves", 150, kind=int, minimum=1,
               doc="§4.4 guard: the game ends when every seat still playing has made this "
                   "many own moves (2 players: draw; more: ranked by marbles in target)"),
        Option("max_games", None, kind=int, minimum=1, nullable=True,
               doc="§5 (two-player match, used by the series layer): cap on the games of a "
                   "match; none = play on until one player leads"),
    )

    def new_state(self, *, seed: int | str | None = None, deal: Any = None,
                  position: str | None = None, num_seats: int | None = None
                  ) -> ChineseCheckersState:
        """The start position for ``num_seats`` players (2, 3, 4 or 6; default 2), or
        ``position`` in the notation of :mod:`.notation`. There is no chance in the game:
        ``seed`` is only stored. Raises :class:`OptionError` for a bad seat count or a deal,
        :class:`NotationError` for a bad position."""
        if num_seats is not None and num_seats not in LAYOUTS:
            raise OptionError(f"chinese-checkers is played by 2, 3, 4 or 6 players, not {num_seats}",
                              code="game.seats", params={"seats": [2, 3, 4, 6]})
        if deal is not None:
            raise OptionError("chinese-checkers has no deal",
                              code="game.no_deal")
        return ChineseCheckersState(self, seed=seed, position=position, num_seats=num_seats)

    def parse_action(self, text: str, state: State | None = None) -> Action:
        """Read ``-1,5>-1,4``, ``-2,6>0,4>2,2``, ``[[q,r],...]``, ``pass``, ``resign``,
        ``timeout``, ``forfeit:<reason>``. Raises :class:`IllegalAction` on bad text."""
        return parse_action(text)


class ChineseCheckersState(State):
    """One position of a Chinese checkers game (see the module docstring).

    Public attributes (read only): ``board`` (121 owners, -1 empty; hole order of
    :mod:`.board`), ``camps`` (home camp per seat), ``moves`` (own moves per seat, passes and
    timeouts included), ``status`` (``playing``/``finished``/``out`` per seat), ``round``
    (the round in progress, from 1), ``turn`` (seat to move or None).
    """

    #: the turn skip the match runner plays when a seat's time runs out: a player may not send it
    clock_only_actions = frozenset({"timeout"})

    game: ChineseCheckersGame

    def __init__(self, game: ChineseCheckersGame, *, seed: Any = None,
                 position: str | None = None, num_seats: int | None = None) -> None:
        if position is not None:
            try:
                camps, marbles, to, moves = parse_position(
                    position, LAYOUTS[num_seats] if num_seats is not None else None)
            except AttributeError:
                raise NotationError("a position is a text", "position",
                                    code="notation.position_syntax") from None
            num_seats = len(camps)
        else:
            num_seats = num_seats or 2
            camps = LAYOUTS[num_seats]
            marbles = {c: list(CAMPS[c]) for c in camps}
            to, moves = 0, [0] * num_seats
        super().__init__(game, seed=seed, position=position, num_seats=num_seats)
        self.camps: tuple[str, ...] = camps
        self.targets: tuple[str, ...] = tuple(OPPOSITE[c] for c in camps)
        self._home = [frozenset(CAMPS[c]) for c in camps]
        self._target = [CAMPS[t] for t in self.targets]
        self.board: list[int] = [EMPTY] * NHOLES
        for seat, camp in enumerate(camps):
            for h in marbles[camp]:
                self.board[h] = seat
        # every hole whose owner changed since the start, in order (a move's two holes, an
        # eliminated seat's marbles): what :meth:`seen_changes` reads
        self.changed_holes: list[int] = []
        self.moves: list[int] = list(moves)
        self.status: list[str] = [PLAYING] * num_seats
        self.finish_round: list[int | None] = [None] * num_seats
        self.out: list[dict[str, Any]] = []           # eliminations, in order
        self.strikes: list[int] = [0] * num_seats     # timeouts (3+ players)
        self.turn: int | None = to
        self.round = moves[to] + 1
        # a marble moved in the round in progress (all_pass check); a position given in the
        # middle of a round is taken to have had a move in it
        self.round_moved = to != 0
        self.last: str | None = None
        self._cache: tuple[int, list[Action], dict[tuple[int, int], Action]] | None = None
        for seat in range(num_seats):
            if self._has_finished(seat):
                raise NotationError(f"{camps[seat]} has already finished", "position",
                                    code="notation.position_impossible")

    # ----- turn --------------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        if self.result is not None or self.turn is None:
            return ()
        return (self.turn,)

    def default_action(self, seat: int) -> Action | None:
        """On a clock timeout (§5): with two players None (the timeout loses the game);
        with more, ``timeout``: the turn is skipped and counts as a pass."""
        if self.num_seats == 2 or self.result is not None or self.turn != seat:
            return None
        return Action(TIMEOUT)

    # ----- queries -----------------------------------------------------------------------------
    def marbles(self, seat: int) -> list[int]:
        """The holes of ``seat``'s marbles, in hole order."""
        return [h for h, o in enumerate(self.board) if o == seat]

    def outside_home(self, seat: int) -> int:
        """How many of ``seat``'s marbles are outside its home camp now (§4.3)."""
        home = self._home[seat]
        return sum(1 for h, o in enumerate(self.board) if o == seat and h not in home)

    def in_target(self, seat: int) -> int:
        """How many of ``seat``'s marbles are in its target camp now."""
        board = self.board
        return sum(1 for h in self._target[seat] if board[h] == seat)

    def _has_finished(self, seat: int) -> bool:
        board = self.board
        return all(board[h] == seat for h in self._target[seat])

    def _foreign(self, seat: int, hole: int) -> bool:
        camp = CAMP_OF[hole]
        return camp is not None and camp != self.camps[seat] and camp != self.targets[seat]

    def move_destinations(self, seat: int, start: int) -> dict[int, tuple[int, ...]]:
        """Where the marble of ``seat`` on ``start`` may move now, each with its stored path
        (a step, or the shortest chain); empty if ``start`` holds no marble of ``seat``."""
        if self.board[start] != seat:
            return {}
        dests = destinations(self.board, start, self.game.options["jump_rule"])
        if not self.game.options["may_stop_in_foreign_camps"]:
            dests = {d: p for d, p in dests.items() if not self._foreign(seat, d)}
        return dests

    def generate_moves(self, seat: int) -> list[Action]:
        """Every move of ``seat``'s marbles in this position, generated afresh (no cache, no
        turn check): one per (start, destination), by start hole then destination hole."""
        out = []
        for h in self.marbles(seat):
            dests = self.move_destinations(seat, h)
            out.extend(Action(MOVE, dests[d]) for d in sorted(dests))
        return out

    def _legal_actions(self, seat: int) -> list[Action]:
        cache = self._cache
        if cache is None or cache[0] != seat:
            out = self.generate_moves(seat)
            # (seat, the list, (from, to) -> the stored move): apply reuses it until a change
            cache = self._cache = (seat, out or [Action(PASS)],
                                   {(a.path[0], a.path[-1]): a for a in out})
        return list(cache[1])

    # ----- applying ----------------------------------------------------------------------------
    def apply(self, action: Any, seat: int | None = None) -> None:
        """Apply ``action`` (object or text) for ``seat``; see :meth:`State.apply`.

        ``resign`` and ``forfeit:<reason>`` are accepted from any seat still playing at any
        time and are logged as ``[seat, text]``. A short-form chain ``A>B`` is stored with its
        shortest path. Raises :class:`IllegalAction` with the reason, state unchanged.
        """
        if self.result is not None:
            raise IllegalAction(f"the game is over ({self.result.reason})", action,
                                code="chinese-checkers.game_over", params={"reason": self.result.reason})
        if isinstance(action, str):
            action = parse_action(action)
        if not isinstance(action, Action):
            raise IllegalAction(f"not a chinese-checkers action: {action!r}", action,
                                code="chinese-checkers.not_chinese_checkers_action",
                                params={"action": action})
        if action.kind in LEAVING:
            seat = self._seat(seat)
            if self.status[seat] != PLAYING:
                raise IllegalAction(f"seat {seat} ({self.camps[seat]}) is no longer playing "
                                    f"({self.status[seat]})", action,
                                    code="chinese-checkers.seat_no_longer_playing",
                                    params={"seat": seat,
                                            "camps": self.camps[seat],
                                            "status": self.status[seat]})
            self._cache = None
            self._leave(seat, "resign" if action.kind == RESIGN else action.reason)
            self.log.append([seat, str(action)])
            return
        if action.kind == MOVE and len(action.path) == 2:
            action = self._expand(action)
        super().apply(action, seat)
        self._cache = None

    def forfeit(self, seat: int, reason: str) -> None:
        """``seat`` leaves the game for ``reason``: with two players it loses; with more it is
        eliminated (§4.3-§4.4, competition.md §4.1) and the others play on. Logged as an
        action (``resign`` or ``forfeit:<reason>``) so that a replay repeats it."""
        self.apply(Action(RESIGN) if reason == "resign" else Action(FORFEIT, reason=reason), seat)

    def _expand(self, action: Action) -> Action:
        """The short form ``A>B`` of a chain, with the stored shortest path (§3.3)."""
        a, b = action.path
        board = self.board
        if b in NEIGHBOUR[a] or board[a] == EMPTY:
            return action
        if self._cache is not None and self._cache[0] == board[a]:
            known = self._cache[2].get((a, b))
            if known is not None:
                return known
        # not a legal move (or no cache): expand anyway, so that a refusal names the real
        # reason (a foreign camp) rather than "no chain"
        parent = chain_tree(board, a, self.game.options["jump_rule"])
        return Action(MOVE, path_to(parent, a, b)) if b in parent else action

    def _apply(self, action: Action, seat: int) -> None:
        kind = action.kind
        if kind == MOVE:
            cache = self._cache
            if cache is None or cache[0] != seat or cache[2].get(
                    (action.path[0], action.path[-1])) != action:
                self._check_move(action, seat)
            a, b = action.start, action.dest
            self.board[a] = EMPTY
            self.board[b] = seat
            self.changed_holes += (a, b)
            self.round_moved = True
        elif kind == PASS:
            if any(self.move_destinations(seat, h) for h in self.marbles(seat)):
                raise IllegalAction("a pass is allowed only when no move is possible", action,
                                    code="chinese-checkers.pass_allowed_only_when")
        elif kind == TIMEOUT:
            if self.num_seats == 2:
                raise IllegalAction("with two players a timeout loses the game; it is not a "
                                    "skipped turn", action,
                                    code="chinese-checkers.two_players_timeout_loses")
        else:
            raise IllegalAction(f"unknown action {action}", action,
                                code="chinese-checkers.unknown_action", params={"action": action})
        # ---- the action is legal: count it and apply its consequences ----
        self.moves[seat] += 1
        self.last = str(action)
        if kind == MOVE and self._has_finished(seat):
            self.status[seat] = FINISHED
            self.finish_round[seat] = self.round
        if kind == TIMEOUT:
            self.strikes[seat] += 1
            if self.strikes[seat] >= TIMEOUT_STRIKES:
                self._eliminate(seat, "timeout")
        if self.status[seat] == PLAYING and self._stalling(seat):
            self._eliminate(seat, "stalling")
        if self.result is None:
            self._advance(seat)

    def _check_move(self, action: Action, seat: int) -> None:
        path = action.path
        board = self.board
        a, b = path[0], path[-1]
        if board[a] == EMPTY:
            raise IllegalAction(f"there is no marble on {hole_name(a)}", action,
                                code="chinese-checkers.no_marble", params={"a": hole_name(a)})
        if board[a] != seat:
            raise IllegalAction(f"the marble on {hole_name(a)} belongs to "
                                f"{self.camps[board[a]]}, not to {self.camps[seat]}", action,
                                code="chinese-checkers.marble_belongs_not",
                                params={"a": hole_name(a),
                                        "camps": self.camps[board[a]],
                                        "camps2": self.camps[seat]})
        if b == a:
            raise IllegalAction("a move must end on a different hole", action,
                                code="chinese-checkers.move_must_end_different")
        rule = self.game.options["jump_rule"]
        if len(path) == 2 and b in NEIGHBOUR[a]:
            if board[b] != EMPTY:
                raise IllegalAction(f"{hole_name(b)} is occupied", action,
                                    code="chinese-checkers.occupied", params={"b": hole_name(b)})
        elif len(path) == 2:
            if board[b] != EMPTY:
                raise IllegalAction(f"{hole_name(b)} is occupied", action,
                                    code="chinese-checkers.occupied", params={"b": hole_name(b)})
            if check_chain(board, path, rule) is None:      # one jump
                return self._check_foreign(action, seat)
            raise IllegalAction(f"no step or chain of {rule} jumps leads from {hole_name(a)} "
                                f"to {hole_name(b)}", action,
                                code="chinese-checkers.no_step_chain_jumps",
                                params={"rule": rule, "a": hole_name(a), "b": hole_name(b)})
        else:
            h1 = path[1]
            if h1 in NEIGHBOUR[a] and board[h1] == EMPTY:
                raise IllegalAction("a move is one step or a chain of jumps, never both", action,
                                    code="chinese-checkers.move_step_chain_jumps")
            why = check_chain(board, path, rule)
            if why is not None:
                raise IllegalAction(why, action)
        self._check_foreign(action, seat)

    def _check_foreign(self, action: Action, seat: int) -> None:
        b = action.dest
        if not self.game.options["may_stop_in_foreign_camps"] and self._foreign(seat, b):
            raise IllegalAction(f"{hole_name(b)} is in camp {CAMP_OF[b]}, neither home nor "
                                "target: a move may not stop there (may_stop_in_foreign_camps)",
                                action,
                                code="chinese-checkers.camp_neither_home_nor",
                                params={"b": hole_name(b), "camp_of": CAMP_OF[b]})

    def _stalling(self, seat: int) -> bool:
        """§4.3: does ``seat`` fail the anti-stalling check after its own move just made?"""
        opts = self.game.options
        if not opts["anti_stalling"]:
            return False
        n = self.moves[seat]
        need = CHECKPOINTS.get(n)
        if n >= 30 and opts["keep_out_after_30"]:
            need = 10
        return need is not None and self.outside_home(seat) < need

    def _leave(self, seat: int, reason: str) -> None:
        self._eliminate(seat, reason)
        if self.result is None and self.turn == seat:
            self._advance(seat)

    def _eliminate(self, seat: int, reason: str) -> None:
        """Take ``seat`` out: with 3+ players its marbles leave the board; the game ends when
        at most one seat is left (with two players: the other wins, the board is kept)."""
        self.status[seat] = OUT
        self.out.append({"seat": seat, "reason": reason, "moves": self.moves[seat]})
        if self.num_seats > 2:
            # §7.7: an eliminated seat's marbles leave the board so that play can go on; with
            # two players the loss ends the game and the last position stays as it was
            board = self.board
            for h in range(NHOLES):
                if board[h] == seat:
                    board[h] = EMPTY
                    self.changed_holes.append(h)
        alive = [s for s in range(self.num_seats) if self.status[s] != OUT]
        if len(alive) <= 1:
            self.turn = None
            self.result = self._final(reason)

    def _advance(self, seat: int) -> None:
        """Pass the turn on from ``seat``; close the round when it wraps around."""
        n = self.num_seats
        nxt = next((t for t in ((seat + k) % n for k in range(1, n + 1))
                    if self.status[t] == PLAYING), None)
        if nxt is None or nxt <= seat:
            self.turn = None
            if self._end_of_round():
                return
            self.round += 1
            self.round_moved = False
        self.turn = nxt

    def _end_of_round(self) -> bool:
        """Apply the end-of-round endings (§4.1, §4.2, §4.4); True when the game is over."""
        finished = any(s == FINISHED for s in self.status)
        playing = [s for s in range(self.num_seats) if self.status[s] == PLAYING]
        reason = None
        if finished and (self.game.options["ranking"] == "first_only" or len(playing) <= 1):
            reason = "finished"
        elif not playing:
            reason = "finished"
        elif not self.round_moved:
            reason = "all_pass"
        elif all(self.moves[s] >= self.game.options["max_moves"] for s in playing):
            reason = "max_moves"
        if reason is None:
            return False
        self.result = self._final(reason)
        return True

    # ----- results -----------------------------------------------------------------------------
    def places(self, by_target: bool = False) -> list[int]:
        """Places per seat (1 = best; shared places take competition ranking 1, 1, 3):
        finished seats by the round they finished in, then the seats still playing (one shared
        place, or by marbles in target when ``by_target``), then eliminated seats, the latest
        eliminated first."""
        n = self.num_seats
        groups: list[list[int]] = []
        done = sorted((self.finish_round[s], s) for s in range(n) if self.status[s] == FINISHED)
        for rnd in sorted({r for r, _ in done}):
            groups.append([s for r, s in done if r == rnd])
        playing = [s for s in range(n) if self.status[s] == PLAYING]
        if by_target:
            for count in sorted({self.in_target(s) for s in playing}, reverse=True):
                groups.append([s for s in playing if self.in_target(s) == count])
        elif playing:
            groups.append(playing)
        groups.extend([e["seat"]] for e in reversed(self.out))
        places = [0] * n
        placed = 0
        for g in groups:
            for s in g:
                places[s] = placed + 1
            placed += len(g)
        return places

    def _final(self, reason: str, places: list[int] | None = None) -> Result:
        n = self.num_seats
        if places is None:
            places = self.places(by_target=n > 2 and reason in ("max_moves", "all_pass"))
        returns = table_points(places)
        if n == 2:
            if places[0] == places[1]:
                text, winners = "1/2-1/2", ()
                if reason == "finished":
                    reason = "equal_moves_draw"
            else:
                winner = 0 if places[0] < places[1] else 1
                text, winners = ("1-0" if winner == 0 else "0-1"), (winner,)
        else:
            text = ",".join(str(p) for p in places)
            winners = tuple(s for s in range(n) if places[s] == 1)
        details = {
            "places": places,
            "camps": list(self.camps),
            "moves": sum(self.moves),
            "moves_by_seat": list(self.moves),
            "rounds": self.round,
            "finish_round": list(self.finish_round),
            "eliminated": [dict(e) for e in self.out],
            "in_target": [self.in_target(s) for s in range(n)],
        }
        return Result(tuple(returns), reason, text, winners, details)

    def _loss_result(self, seat: int, reason: str) -> Result:
        """The result if ``seat`` lost now (two players; with more, a loss is an elimination
        that :meth:`forfeit` applies as an action)."""
        if self.num_seats != 2:
            raise IllegalAction("with 3+ players a seat is eliminated, not the game lost",
                                code="chinese-checkers.players_seat_eliminated_not")
        places = [2, 2]
        places[1 - seat] = 1
        return self._final(reason, places)

    def _draw_result(self, reason: str) -> Result:
        """Agreed end: with two players a draw; with more, the seats still playing share the
        place after those who finished."""
        if self.num_seats == 2:
            return self._final(reason, [1, 1])
        return self._final(reason, self.places())

    def _result_from_text(self, text: str, reason: str) -> Result:
        t = text.strip()
        n = self.num_seats
        if n == 2:
            table = {"1-0": [1, 2], "0-1": [2, 1], "1/2-1/2": [1, 1], "draw": [1, 1]}
            if t.lower() not in table:
                raise IllegalAction(f"chinese-checkers cannot read result {text!r} "
                                    "(1-0, 0-1 or 1/2-1/2)",
                                    code="chinese-checkers.chinese_checkers_cannot_read_2",
                                    params={"text": text})
            return self._final(reason, table[t.lower()])
        try:
            places = [int(p) for p in t.split(",")]
        except ValueError:
            places = []
        if len(places) != n or not is_ranking(places):
            raise IllegalAction(f"chinese-checkers cannot read result {text!r} "
                                f"({n} places separated by commas, e.g. 1,3,2; seats sharing "
                                "place p have exactly p - 1 seats above them)",
                                code="chinese-checkers.chinese_checkers_cannot_read",
                                params={"text": text, "n": n})
        return self._final(reason, places)

    # ----- views -------------------------------------------------------------------------------
    def position_text(self, marbles: list[list[str]] | None = None) -> str:
        """This position in the notation of :mod:`.notation` (marbles, seat to move, moves);
        ``marbles`` is ``names_by_owner`` of the board when the caller has it already."""
        return position_text(self.camps, self.board, self.turn, self.moves, marbles)

    def diagram(self) -> list[str]:
        """The board as 17 text rows, N at the top: ``.`` empty, a digit = that seat's marble."""
        return DIAGRAM_FORMAT.format(*map(_HOLE_CHAR.__getitem__,
                                          _diagram_owners(self.board))).split("\n")

    def seen_changes(self, seat: int | None, since: int = 0) -> tuple[int, list[tuple[int, int]]]:
        """What changed in ``view(seat)["marbles"]`` since the view read at mark ``since``:
        ``(mark now, [(hole, owner now), ...])`` for every hole that may have changed owner
        (``EMPTY`` or a seat) since then. Nothing is hidden in Chinese checkers, so every seat
        sees the same changes; a reader keeps a view's marbles up to date from them
        (:class:`~qipai.env.pieces.CheckersTensor`). Marks belong to this state object."""
        board, changed = self.board, self.changed_holes
        return len(changed), [(h, board[h]) for h in changed[since:]]

    def view(self, seat: int | None) -> dict[str, Any]:
        """The whole position (nothing is hidden in Chinese checkers), JSON-ready.

        Keys: ``seat``, ``players``, ``camps`` / ``targets`` (per seat), ``marbles`` (per seat,
        ``q,r`` holes), ``board`` (:meth:`diagram`), ``to_act``, ``to_move`` (camp or None),
        ``round``, ``moves`` (own moves per seat), ``status`` (per seat), ``finish_round``,
        ``eliminated``, ``strikes``, ``outside_home``, ``in_target``, ``last_move``,
        ``position``, ``result``.
        """
        n = self.num_seats
        marbles = names_by_owner(self.board, n)
        board = self.board
        return {
            "game": self.game.id,
            "options": dict(self.game.options),
            "seat": seat,
            "players": n,
            "camps": list(self.camps),
            "targets": list(self.targets),
            "marbles": marbles,
            "board": self.diagram(),
            "to_act": list(self.to_act),
            "to_move": self.camps[self.turn] if self.to_act else None,
            "round": self.round,
            "moves": list(self.moves),
            "status": list(self.status),
            "finish_round": list(self.finish_round),
            "eliminated": [dict(e) for e in self.out],
            "strikes": list(self.strikes),
            # a seat's marbles outside its home: all of them less those in its home camp
            "outside_home": [len(marbles[s]) - _CAMP_OWNERS[self.camps[s]](board).count(s)
                             for s in range(n)],
            "in_target": [_CAMP_OWNERS[self.targets[s]](board).count(s) for s in range(n)],
            "last_move": self.last,
            "position": self.position_text(marbles),
            "result": self.result.to_json() if self.result else None,
        }


_HOLE_CHAR = {EMPTY: ".", **{k: str(k) for k in range(6)}}     # a board value in the diagram
_diagram_owners = operator.itemgetter(*DIAGRAM_HOLES)           # board -> owners in reading order
_CAMP_OWNERS = {c: operator.itemgetter(*holes) for c, holes in CAMPS.items()}   # board -> a camp's


__all__ = ["ChineseCheckersGame", "ChineseCheckersState", "is_ranking", "table_points"]
