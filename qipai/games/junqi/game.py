"""The junqi referee (rules/junqi.md): :class:`JunqiGame` (options) and :class:`JunqiState`.

A game has two phases. **Layout** (布阵, §4): every seat submits its 25-piece layout at the same
time (``to_act`` holds every seat still to lay out); a timeout places the seeded random layout
(§4) and counts one timeout. **Play** (§5): seats move in turn (``luzhan`` S, N; ``siguo`` S, E,
N, W, counter-clockwise), eliminated seats skipped, until a flag falls, a seat (``luzhan``) or a
team (``siguo``) is defeated, the last pieces die together, or the no-progress counter runs out.

Seats: ``luzhan`` S = 0, N = 1; ``siguo`` S = 0, E = 1, N = 2, W = 3; teams S+N and E+W.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from ...core.errors import IllegalAction, Message, OptionError
from ...core.game import Game, State
from ...core.options import Option
from ...core.registry import register
from ...core.rng import DealRng, new_seed
from ...core.viewdelta import ViewDelta, growing_delta
from .board import BOARDS, Board
from .ending import Ending
from .layout import format_layout, parse_layout, random_layout
from .notation import RESIGN, TIMEOUT, Layout, Move, Special, parse_action
from .pieces import (
    BOMB,
    BOTH,
    CODE,
    COMMANDER,
    ENGINEER,
    FLAG,
    FLAG_TAKEN,
    LOSE,
    WIN,
    combat,
    movable,
)
from .position import PositionText

VARIANTS = ("luzhan", "siguo")
VISIBILITY = ("hidden", "allies_visible", "open")
DEADLOCK = ("draw", "more_attacks")
LAYOUT_OFFERS = 3      # layouts listed by legal_actions in the layout phase


@register
class JunqiGame(Game):
    """Junqi: ``luzhan`` (陆战棋, 2 players) or ``siguo`` (四国军棋, 4 players in two teams)."""

    id = "junqi"
    seats = (2, 4)
    hidden_information = True
    draw_offers = True
    option_spec = (
        Option("variant", "luzhan", choices=VARIANTS,
               doc="§1: luzhan = 2 players on the 60-point board (seed 002); siguo = 4 players "
                   "in two teams on the 129-point board (seed 000)"),
        Option("visibility", "hidden", choices=VISIBILITY,
               doc="§4: hidden = own identities only; allies_visible (siguo) = team-mates see "
                   "each other's; open (明棋) = everything"),
        Option("no_capture_moves", 70, kind=int, minimum=1,
               doc="§6.3: moves of all players without an attack that end the game (seed 000)"),
        Option("deadlock_rule", None, choices=DEADLOCK, nullable=True,
               doc="§6.3: what the no-progress limit and an agreed draw give: draw (seed 000) "
                   "or more_attacks (seed 002); default more_attacks for luzhan, draw for siguo"),
        Option("max_timeouts", 5, kind=int, minimum=1,
               doc="§6.1/§7.2: the timeout in a game that defeats the player (seed 000: 5)"),
        Option("first_seat", 0, kind=int, minimum=0,
               doc="§5.1/§7.1: the seat that moves first (the match format sets it; 0 = S)"),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        o = self.options
        self.variant: str = o["variant"]
        self.board: Board = BOARDS[self.variant]
        self.nseats = self.seat_counts()[0]            # declared by seats_by_option
        if o["first_seat"] >= self.nseats:
            raise OptionError(f"option 'first_seat': {self.variant} has seats 0..{self.nseats - 1}",
                              code="option.conflict",
                              params={"label": "junqi.first_seat", "other": "junqi.variant"})
        if o["visibility"] == "allies_visible" and self.variant != "siguo":
            raise OptionError("option 'visibility': allies_visible needs variant 'siguo' "
                              "(luzhan has no team-mates)",
                              code="option.conflict",
                              params={"label": "junqi.visibility", "other": "junqi.variant"})
        self.deadlock: str = o["deadlock_rule"] or ("more_attacks" if self.variant == "luzhan"
                                                    else "draw")

    @classmethod
    def seats_by_option(cls) -> dict[str, dict[Any, tuple[int, ...]]]:
        """陆战棋 is two seats, 四国军棋 four."""
        return {"variant": {"luzhan": (2,), "siguo": (4,)}}

    def new_state(self, *, seed: int | str | None = None, deal: Any = None,
                  position: str | None = None, num_seats: int | None = None) -> JunqiState:
        """A game at its layout phase (random layouts come from ``seed``; a fresh seed is drawn
        when none is given), or at ``position`` (see :meth:`JunqiState.position_text`, play
        phase, no army or layout checks: the test mode of §10). Raises :class:`OptionError` for a
        wrong seat count or a deal, :class:`NotationError` for a bad position."""
        if num_seats not in (None, self.nseats):
            raise OptionError(f"junqi {self.variant} is played by {self.nseats} seats",
                              code="game.seats", params={"seats": self.nseats})
        if deal is not None:
            raise OptionError("junqi has no deal: layouts are the first actions of the game",
                              code="game.no_deal")
        return JunqiState(self, seed=seed, position=position)

    def parse_action(self, text: str, state: State | None = None) -> Move | Layout | Special:
        """Read a move (``a4-a9``, optional ``:win``), a layout, ``timeout``, ``resign`` or
        ``forfeit:<reason>`` (:mod:`.notation`). Raises :class:`IllegalAction`."""
        return parse_action(self.board, text)


class JunqiState(Ending, PositionText, State):
    """One junqi position. Public attributes (read only): ``phase`` (``layout``/``play``),
    ``to_move``, ``own``/``kind`` (per point: owning seat or -1, piece code int), ``moved``,
    ``attacks``/``timeouts`` per seat, ``quiet`` (moves since the last attack), ``moves``
    (board moves made), ``eliminated`` (per seat: the reason or ``None``), ``flag_revealed``."""

    #: the turn skip the match runner plays when a seat's time runs out: a player may not send it
    clock_only_actions = frozenset({"timeout"})

    game: JunqiGame

    def __init__(self, game: JunqiGame, *, seed: Any = None, position: str | None = None) -> None:
        if seed is None and position is None:
            seed = new_seed()
        super().__init__(game, seed=seed, position=position, num_seats=game.nseats)
        b = self.board = game.board
        ns = game.nseats
        self.luzhan = game.variant == "luzhan"
        self.team = [s % 2 for s in range(ns)]
        self.own = [-1] * b.n
        self.kind = [-1] * b.n
        self.moved = [False] * b.n
        # every point whose piece (owner, kind, moved) changed, in order: what seen_changes reads
        self.changed_points: list[int] = []
        self.phase = "layout"
        self.placed = [False] * ns
        self.to_move = game.options["first_seat"]
        self.eliminated: list[str | None] = [None] * ns
        self.out_order: list[list[Any]] = []
        self.attacks = [0] * ns
        self.timeouts = [0] * ns
        self.quiet = 0
        self.moves = 0
        self.flag_revealed = [False] * ns
        self.history: list[list[Any]] = []     # public play log: [seat, text]
        self.layouts: list[str | None] = [None] * ns   # each seat's layout as laid out
        self._offers: dict[int, list[Layout]] = {}
        if position is not None:
            self._load_position(position)

    # ----- turn ------------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        if self.result is not None:
            return ()
        if self.phase == "layout":
            return tuple(s for s in range(self.num_seats)
                         if not self.placed[s] and self.eliminated[s] is None)
        return (self.to_move,)

    def sides(self) -> list[tuple[int, ...]]:
        """``luzhan``: each seat alone; ``siguo``: the teams (S, N) = (0, 2) and (E, W) = (1, 3)."""
        return [(0,), (1,)] if self.luzhan else [(0, 2), (1, 3)]

    def clock_phase(self, seat: int) -> str | None:
        """``layout`` during the layout phase (its own allowance, competition.md §4.3)."""
        return "layout" if self.phase == "layout" else None

    def default_action(self, seat: int) -> Special | None:
        """The timeout (§7.2): the turn is skipped (in the layout phase, the seeded random
        layout is placed) and one timeout is counted; the ``max_timeouts``-th defeats."""
        return TIMEOUT if self.result is None and seat in self.to_act else None

    def skip_turn(self, seat: int) -> None:
        """Skip ``seat``'s turn on a timeout (the match layer's SKIP, §7.2): plays ``timeout``.
        Raises :class:`IllegalAction` when ``seat`` is not to act."""
        self.apply(TIMEOUT, seat)

    # ----- moves -----------------------------------------------------------------------------
    def _enemy(self, seat: int, q: int) -> bool:
        o = self.own[q]
        return o >= 0 and self.team[o] != self.team[seat]

    def destinations(self, p: int) -> set[int]:
        """Every point the piece on ``p`` may move to (§5.3), ignoring whose turn it is: steps,
        straight railway runs, and for engineers any railway path through empty points. Empty
        for mines, the flag and pieces on a headquarters."""
        b, own = self.board, self.own
        seat = own[p]
        if seat < 0 or not movable(self.kind[p]) or b.hq[p]:
            return set()
        myteam = self.team[seat]
        team = self.team
        camp = b.camp
        out = set()
        for q in b.steps[p]:
            o = own[q]
            if o < 0 or (team[o] != myteam and not camp[q]):
                out.add(q)
        for ray in b.rays[p]:
            for q in ray:
                o = own[q]
                if o < 0:
                    out.add(q)
                    continue
                if team[o] != myteam:
                    out.add(q)        # railway stations are never camps
                break
        if self.kind[p] == ENGINEER and b.rail[p]:
            seen = {p}
            stack = [p]
            adj = b.rail_adj
            while stack:
                u = stack.pop()
                for q in adj[u]:
                    if q in seen:
                        continue
                    seen.add(q)
                    o = own[q]
                    if o < 0:
                        out.add(q)
                        stack.append(q)
                    elif team[o] != myteam:
                        out.add(q)
        return out

    def _has_move(self, seat: int) -> bool:
        own = self.own
        for p in range(self.board.n):
            if own[p] == seat and self.destinations(p):
                return True
        return False

    def _legal_actions(self, seat: int) -> list[Any]:
        if self.phase == "layout":
            return list(self._layout_offers(seat))
        names = self.board.names
        out = []
        own = self.own
        for p in range(self.board.n):
            if own[p] == seat:
                fp = names[p]
                out.extend(Move(fp, names[q]) for q in sorted(self.destinations(p)))
        return out

    def _layout_rng(self, seat: int, k: int = 0) -> DealRng:
        """The stream of seat ``seat``'s random layout (purpose ``layout``); ``k`` > 0 gives the
        other layouts offered by :meth:`legal_actions`."""
        return DealRng(f"{self.seed}:layout:{seat}" + (f":{k}" if k else ""))

    def _layout_offers(self, seat: int) -> list[Layout]:
        if seat not in self._offers:
            self._offers[seat] = [
                Layout(format_layout(self.board, random_layout(self.board, seat,
                                                               self._layout_rng(seat, k))))
                for k in range(LAYOUT_OFFERS)]
        return self._offers[seat]

    # ----- applying --------------------------------------------------------------------------
    def apply(self, action: Any, seat: int | None = None) -> None:
        """Apply ``action`` (object or text) for ``seat``; ``resign`` and ``forfeit:<reason>``
        may be made by any seat still in the game, in turn or not. Raises
        :class:`IllegalAction` with the reason, the state unchanged."""
        if isinstance(action, str) and self.result is None:
            low = action.strip().lower()
            if low == "resign" or low.startswith("forfeit:"):
                action = self.game.parse_action(action, self)
        if isinstance(action, Special) and action.kind in ("resign", "forfeit"):
            if self.result is not None:
                raise IllegalAction(f"the game is over ({self.result.reason})", action,
                                    code="junqi.game_over", params={"reason": self.result.reason})
            seat = self._seat(seat)
            if self.eliminated[seat] is not None:
                raise IllegalAction(f"seat {seat} is already out ({self.eliminated[seat]})", action,
                                    code="junqi.seat_already_out",
                                    params={"seat": seat, "eliminated": self.eliminated[seat]})
            self._defeat(seat, "resign" if action.kind == "resign" else action.reason)
            if self.result is None and self.phase == "play" and self.to_move == seat:
                self._next_turn(seat)
            elif self.result is None and self.phase == "layout" and not self.to_act:
                self._start_play()
            self.log.append([seat, str(action)])
            if self.phase == "play":
                self.history.append([seat, str(action)])
            return
        super().apply(action, seat)

    def forfeit(self, seat: int, reason: str) -> None:
        """``seat`` is defeated for ``reason`` (§6.1): ``luzhan`` loses; ``siguo`` is eliminated
        and its team loses when its partner is out too. A ``timeout`` forfeit of a seat at its
        last allowed timeout is played as that ``timeout`` (reason ``timeouts``). Logged as
        ``resign`` / ``forfeit:<reason>`` so a replay does the same."""
        if self.result is not None:
            raise IllegalAction(f"the game is over ({self.result.reason})",
                                code="junqi.game_over", params={"reason": self.result.reason})
        seat = self._seat(seat)
        limit = self.game.options["max_timeouts"]
        if reason == "timeout" and seat in self.to_act and self.timeouts[seat] + 1 >= limit:
            self.apply(TIMEOUT, seat)
            return
        if reason == "resign":
            self.apply(RESIGN, seat)
            return
        clean = re.sub(r"[^a-z_]", "_", reason.lower()) or "forfeit"
        self.apply(Special("forfeit", clean), seat)

    def _action_text(self, action: Any) -> str:
        if isinstance(action, Move) and self.phase == "play":
            try:
                p, q = self.board.point(action.frm), self.board.point(action.to)
            except KeyError:
                return str(action)
            if self.own[p] == self.to_move and self._enemy(self.to_move, q) and \
                    q in self.destinations(p):
                return str(Move(action.frm, action.to, combat(self.kind[p], self.kind[q])))
            return f"{action.frm}-{action.to}"
        return str(action)

    def _apply(self, action: Any, seat: int) -> None:
        if isinstance(action, Layout):
            self._apply_layout(action, seat)
        elif isinstance(action, Move):
            self._apply_move(action, seat)
        elif isinstance(action, Special) and action.kind == "timeout":
            self._apply_timeout(seat)
        else:
            raise IllegalAction("not a junqi action", action, code="junqi.not_junqi_action")

    def _apply_layout(self, action: Layout, seat: int) -> None:
        if self.phase != "layout":
            raise IllegalAction("the layout phase is over", action, code="junqi.layout_phase_over")
        placement = parse_layout(self.board, seat, action.text)
        self._place(seat, placement)

    def _place(self, seat: int, placement: dict[int, int]) -> None:
        for p, piece in placement.items():
            self.own[p], self.kind[p] = seat, piece
        self.changed_points += placement
        self.placed[seat] = True
        self.layouts[seat] = format_layout(self.board, placement)
        self._offers.pop(seat, None)
        if not self.to_act:
            self._start_play()

    def _start_play(self) -> None:
        self.phase = "play"
        self._next_turn(self.game.options["first_seat"])

    def _apply_timeout(self, seat: int) -> None:
        limit = self.game.options["max_timeouts"]
        if self.phase == "layout":
            self.timeouts[seat] += 1
            if self.timeouts[seat] >= limit:
                self._defeat(seat, "timeouts")
                if self.result is None and not self.to_act:
                    self._start_play()
                return
            self._place(seat, random_layout(self.board, seat, self._layout_rng(seat)))
            return
        self.timeouts[seat] += 1
        self.history.append([seat, "timeout"])
        if self.timeouts[seat] >= limit:
            self._defeat(seat, "timeouts")
        if self.result is None:
            self._next_turn((seat + 1) % self.num_seats)

    def _apply_move(self, action: Move, seat: int) -> None:
        if self.phase != "play":
            raise IllegalAction("the game is in its layout phase: submit a layout", action,
                                code="junqi.game_layout_phase_submit")
        b = self.board
        try:
            p, q = b.point(action.frm), b.point(action.to)
        except KeyError:
            raise IllegalAction(f"no such point on the {b.variant} board", action,
                                code="junqi.no_such_point_board", params={"variant": b.variant}) from None
        own, kind = self.own, self.kind
        if own[p] != seat:
            raise IllegalAction(f"no piece of yours on {action.frm}", action,
                                code="junqi.no_piece_yours", params={"frm": action.frm})
        a = kind[p]
        if not movable(a):
            raise IllegalAction(f"the {'flag' if a == FLAG else 'mine'} on {action.frm} never "
                                "moves", action,
                                code="junqi.never_moves",
                                params={"what": 'flag' if a == FLAG else 'mine', "frm": action.frm})
        if b.hq[p]:
            raise IllegalAction(f"{action.frm} is a headquarters: a piece there never moves "
                                "again", action,
                                code="junqi.headquarters_piece_never_moves", params={"frm": action.frm})
        if q not in self.destinations(p):
            o = own[q]
            if o == seat:
                why = Message(f"{action.to} holds your own piece",
                              code="junqi.holds_own_piece", params={"to": action.to})
            elif o >= 0 and self.team[o] == self.team[seat]:
                why = Message(f"{action.to} holds a team-mate's piece",
                              code="junqi.holds_team_mate_piece", params={"to": action.to})
            elif o >= 0 and b.camp[q]:
                why = Message(f"{action.to} is a camp: a piece in a camp cannot be attacked",
                              code="junqi.camp_piece_camp_cannot", params={"to": action.to})
            else:
                why = Message(f"the piece on {action.frm} cannot reach {action.to}",
                              code="junqi.piece_cannot_reach", params={"frm": action.frm, "to": action.to})
            raise IllegalAction(why, action)
        d_owner = own[q]
        outcome = combat(a, kind[q]) if d_owner >= 0 else None
        if action.outcome is not None:
            # A written result is checked only against what the mover can know (§4): no
            # combat at all, or a defender whose identity the mover sees. Checking it against
            # a hidden defender would make a refusal a free probe of that piece; the log keeps
            # the referee's result either way.
            if outcome is None:
                raise IllegalAction(f"the written result {action.outcome!r} is not the "
                                    "combat's (no combat)", action,
                                    code="junqi.written_result_not_combat",
                                    params={"outcome": action.outcome})
            if action.outcome != outcome and self.sees(seat, q):
                raise IllegalAction(f"the written result {action.outcome!r} is not the "
                                    f"combat's ({outcome})", action,
                                    code="junqi.written_result_not_combat_2",
                                    params={"outcome": action.outcome, "outcome2": outcome})
        # --- the move is legal: apply it
        self.moves += 1
        text = str(Move(action.frm, action.to, outcome))
        self.history.append([seat, text])
        if outcome is None:
            self._shift(p, q)
            self.quiet += 1
        else:
            self.attacks[seat] += 1
            self.quiet = 0
            d = kind[q]
            if outcome == WIN or (outcome == FLAG_TAKEN and a != BOMB):
                self._clear(q)
                self._shift(p, q)
            elif outcome == LOSE:
                self._clear(p)
            else:                                 # both removed (incl. a bomb on the flag)
                self._clear(p)
                self._clear(q)
            if a == COMMANDER and outcome in (LOSE, BOTH):
                self.flag_revealed[seat] = True
            if d == COMMANDER and outcome in (WIN, BOTH):
                self.flag_revealed[d_owner] = True
            if outcome == FLAG_TAKEN:
                self._defeat(d_owner, "flag")
                if self.result is not None:
                    return
            if outcome == BOTH or (outcome == FLAG_TAKEN and a == BOMB):
                if self._last_pieces(seat):
                    return
        if self.quiet >= self.game.options["no_capture_moves"]:
            self._deadlock()
            return
        self._next_turn((seat + 1) % self.num_seats)

    def _shift(self, p: int, q: int) -> None:
        self.own[q], self.kind[q] = self.own[p], self.kind[p]
        self.moved[q] = True
        self.changed_points.append(q)
        self._clear(p)

    def _clear(self, p: int) -> None:
        self.own[p], self.kind[p], self.moved[p] = -1, -1, False
        self.changed_points.append(p)

    def _next_turn(self, seat: int) -> None:
        """Give the turn to ``seat`` or the next seat still in; a seat with no legal move at the
        start of its turn is defeated (§6.1, reason ``no_move``)."""
        ns = self.num_seats
        while self.result is None:
            while self.eliminated[seat] is not None:
                seat = (seat + 1) % ns
            if self._has_move(seat):
                self.to_move = seat
                return
            self._defeat(seat, "no_move")
            seat = (seat + 1) % ns

    # ----- views -----------------------------------------------------------------------------
    def sees(self, viewer: int | None, p: int) -> bool:
        """May ``viewer`` (``None`` = spectator) see the identity of the piece on ``p`` (§4
        visibility, §5.4 flag reveal)? Everything is shown once the game is over."""
        owner = self.own[p]
        return self._sees_all(viewer, owner) or (self.kind[p] == FLAG and self.flag_revealed[owner])

    def _sees_all(self, viewer: int | None, owner: int) -> bool:
        """May ``viewer`` see every piece of ``owner``: an open game or one that is over, its
        own pieces, or an ally's where allies see each other."""
        vis = self.game.options["visibility"]
        if vis == "open" or self.result is not None or viewer == owner:
            return True
        return vis == "allies_visible" and viewer is not None and self.team[viewer] == self.team[owner]

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), JSON-ready:

        ``pieces``: ``[{"point", "seat", "piece", "moved"}]`` with ``piece`` the code or ``"?"``
        where hidden (during the layout phase another seat's pieces are listed, face down, only
        once it has laid out);
        ``history``: the public play log ``[seat, "a4-a9:win"]`` (outcome classes only);
        counters ``attacks``, ``timeouts``, ``quiet`` (and its limit), ``eliminated``,
        ``flag_revealed``, ``layout_done``; ``layout``: the seat's own layout as it laid it out
        (it knows where each of its pieces started, lost ones included; ``None`` for a
        spectator or before it is laid out); ``result`` once over.
        """
        return self._view(seat, [list(h) for h in self.history])

    def view_delta(self, seat: int | None, since: Any = None) -> ViewDelta:
        """The view as a change (:mod:`qipai.core.viewdelta`): ``history`` grows through the
        game (one game per state)."""
        def fixed() -> dict[str, Any]:
            out = self._view(seat, None)
            del out["history"]
            return out

        return growing_delta(self, seat, since, (0, len(self.history)), fixed,
                             lambda since: {"history": [list(h) for h in self.history[since[1]:]]})

    def _piece_entry(self, seat: int | None) -> Callable[[int], dict[str, Any] | None]:
        """The function giving the entry of ``view(seat)["pieces"]`` for a point (``None``:
        the view lists no piece there), for the state as it is now."""
        b = self.board
        open_ = self.game.options["visibility"] == "open" or self.result is not None
        # while laying out, another seat's pieces are listed once it has laid out, face down:
        # they stand on its half's posts (every post but the camps), so their points tell nothing
        others_hidden = self.phase == "layout" and not open_
        sees_all = [self._sees_all(seat, o) for o in range(self.num_seats)]   # as sees(), per owner
        own, kind, moved, flag_revealed, placed = (self.own, self.kind, self.moved,
                                                   self.flag_revealed, self.placed)
        names = b.names

        def entry(p: int) -> dict[str, Any] | None:
            o = own[p]
            if o < 0 or (others_hidden and o != seat and not placed[o]):
                return None
            k = kind[p]
            return {"point": names[p], "seat": o,
                    "piece": CODE[k] if sees_all[o] or (k == FLAG and flag_revealed[o]) else "?",
                    "moved": moved[p]}
        return entry

    def seen_changes(self, seat: int | None, since: Any = None) -> tuple[Any, list | None]:
        """What changed in ``view(seat)["pieces"]`` since the view read at mark ``since``:
        ``(mark now, [(point index, entry or None), ...])``, the entry (as the view lists it,
        ``None`` for no piece) of every point whose piece may have changed since then, or
        ``(mark now, None)`` when the view must be read whole: ``since`` is ``None`` or what
        decides how the seat sees every piece changed since (the phase, the seats laid out,
        the flags revealed, the game's end, when every piece shows). A reader keeps a view's
        pieces up to date from them (:class:`~qipai.env.pieces.JunqiTensor`). Marks belong to
        this state object."""
        changed = self.changed_points
        mark = (len(changed), (self.phase, tuple(self.placed), tuple(self.flag_revealed),
                               self.result is None))
        if since is None or since[1] != mark[1]:
            return mark, None
        entry = self._piece_entry(seat)
        return mark, [(p, entry(p)) for p in dict.fromkeys(changed[since[0]:])]

    def _view(self, seat: int | None, history: list | None) -> dict[str, Any]:
        if seat is not None:
            self._seat(seat)
        b = self.board
        entry = self._piece_entry(seat)
        pieces = [e for e in map(entry, range(b.n)) if e is not None]
        return {
            "game": "junqi", "variant": self.game.variant, "seat": seat, "phase": self.phase,
            "seats": list(b.seats), "to_act": list(self.to_act),
            "to_move": self.to_move if self.phase == "play" and self.result is None else None,
            "layout_done": list(self.placed), "pieces": pieces,
            "layout": self.layouts[seat] if seat is not None else None,
            "history": history,
            "attacks": list(self.attacks), "timeouts": list(self.timeouts),
            "quiet": self.quiet, "quiet_limit": self.game.options["no_capture_moves"],
            "eliminated": list(self.eliminated), "flag_revealed": list(self.flag_revealed),
            "result": self.result.to_json() if self.result is not None else None,
        }

    def clone(self) -> JunqiState:
        """A copy sharing the (immutable) game and board."""
        new = copy.copy(self)
        for name in ("log", "own", "kind", "moved", "changed_points", "placed", "eliminated", "attacks",
                     "timeouts", "flag_revealed", "layouts"):
            setattr(new, name, list(getattr(self, name)))
        new.out_order = [list(x) for x in self.out_order]
        new.history = [list(x) for x in self.history]
        new.log = [list(x) if isinstance(x, list) else x for x in self.log]
        new._offers = dict(self._offers)
        return new
