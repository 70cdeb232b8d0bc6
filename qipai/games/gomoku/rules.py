"""Gomoku and renju (五子棋, 连珠): the game and its states, per rules/gomoku.md.

Seats 0 and 1 are people; colours are state. Seat 0 holds Black at the start; a ``swap``
(opening ``swap3``) exchanges the colours between the seats. ``to_act`` is the seat that holds
the colour to move, except during the two-offer step of ``two5`` openings, when White's seat
chooses Black's fifth stone.

Rule sets (option ``ruleset``):

* ``renju`` (default): Black's forbidden points (double three, double four, overline; §3.3), a
  Black exact five wins even with a forbidden shape, White wins with five or more;
* ``freestyle``: five or more wins for either colour, no forbidden points (seed 003);
* ``standard``: exactly five wins for either colour; an overline neither wins nor loses.

Results (seed 000 points): the winner scores 1, the loser 0, a draw 0.5 each; result text
``B+``, ``W+`` or ``draw``; reasons ``five``, ``overline``, ``double_four``, ``double_three``,
``board_full``, ``double_pass``, ``dead_draw``, and the external ``resign``, ``timeout``,
``agreement``, ``abandon``.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction, NotationError, OptionError
from ...core.game import Game, Result, State
from ...core.options import Option
from ...core.registry import register
from ...core.viewdelta import ViewDelta, growing_delta
from . import openings
from .board import (
    BLACK,
    CELL,
    CENTER,
    DIRECTIONS,
    EMPTY,
    FIVE,
    NPOINTS,
    SIZE,
    WHITE,
    Board,
    point,
    point_name,
)
from .notation import (
    CHOOSE,
    CLAIM,
    OFFER,
    PASS,
    PLACE,
    SWAP,
    Action,
    offer,
    parse_action,
    parse_point,
    parse_position,
    place,
    position_text,
)

COLOUR_NAMES = {BLACK: "black", WHITE: "white"}
OTHER = {BLACK: WHITE, WHITE: BLACK}
RULESETS = ("renju", "freestyle", "standard")
OPENINGS = ("standard", "designated", "swap3", "two5", "swap3_two5", "designated_two5")
HANDLINGS = ("loss", "reject", "claim")


def _windows() -> tuple[tuple[tuple[int, ...], ...], int]:
    """For every point, the ids of the 5-point line windows that contain it; and their number."""
    wins = []
    for col in range(SIZE):
        for row in range(SIZE):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                pts = [(col + k * dc, row + k * dr) for k in range(5)]
                if all(0 <= c < SIZE and 0 <= r < SIZE for c, r in pts):
                    wins.append(tuple(point(c, r) for c, r in pts))
    by_point: list[list[int]] = [[] for _ in range(NPOINTS)]
    for i, w in enumerate(wins):
        for p in w:
            by_point[p].append(i)
    return tuple(tuple(ws) for ws in by_point), len(wins)


WINDOWS_OF, NWINDOWS = _windows()      # 572 windows


@register
class GomokuGame(Game):
    """Gomoku / renju on a 15 x 15 board. Options are the variants of rules/gomoku.md."""

    id = "gomoku"
    seats = (2,)
    hidden_information = False
    draw_offers = True
    option_spec = (
        Option("ruleset", "renju", choices=RULESETS,
               doc="renju: Black has forbidden points (§3.3); freestyle: five or more wins "
                   "(seed 003); standard: exactly five wins, no forbidden points"),
        Option("forbidden_handling", "loss", choices=HANDLINGS,
               doc="§3.4: loss = a forbidden stone loses at once; reject = refused; claim = "
                   "White must claim it with its next action (seed 000)"),
        Option("opening", "standard", choices=OPENINGS,
               doc="§3.5: standard (h8 first), designated (named opening), swap3 (三手可交换), "
                   "two5 (五手两打), swap3_two5 (RIF 1996), designated_two5"),
        Option("opening_name", None, choices=openings.OPENING_IDS, nullable=True,
               doc="§3.5 table: D1..D13 (direct), I1..I13 (indirect); designated openings only"),
        Option("rif_area_limits", True, kind=bool,
               doc="swap3: move 2 within the central 3x3, move 3 within the central 5x5"),
        Option("allow_pass", True, kind=bool, doc="§3.1: a player may pass (two passes draw)"),
        Option("first_move_center", None, kind=bool, nullable=True,
               doc="Black's first stone must be h8; default: yes in renju and in the special "
                   "openings, no in freestyle/standard with the standard opening"),
        Option("dead_draw_detection", True, kind=bool,
               doc="§4: draw as soon as neither colour has a line of five points free of the "
                   "other colour (seed 001)"),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        o = self.options
        designated = o["opening"] in ("designated", "designated_two5")
        if designated and o["opening_name"] is None:
            raise OptionError(f"opening {o['opening']!r} needs opening_name (one of "
                              f"{', '.join(openings.OPENING_IDS)})",
                              code="option.conflict",
                              params={"label": "gomoku.opening_name", "other": "gomoku.opening"})
        if not designated and o["opening_name"] is not None:
            raise OptionError("opening_name is only used with opening 'designated' or "
                              "'designated_two5'",
                              code="option.conflict",
                              params={"label": "gomoku.opening_name", "other": "gomoku.opening"})
        if o["first_move_center"] is False and o["opening"] not in ("standard", "two5"):
            raise OptionError(f"opening {o['opening']!r} puts Black's first stone on h8 "
                              "(rules §3.5); first_move_center=false applies only to the "
                              "'standard' and 'two5' openings",
                              code="option.conflict",
                              params={"label": "gomoku.first_move_center", "other": "gomoku.opening"})
        self.renju = o["ruleset"] == "renju"
        self.center_first = (o["first_move_center"] if o["first_move_center"] is not None
                             else (self.renju or o["opening"] != "standard"))

    def new_state(self, *, seed: int | str | None = None, deal: Any = None,
                  position: str | None = None, num_seats: int | None = None) -> GomokuState:
        """A new game: the empty board (or the designated opening's three stones), or
        ``position`` in the notation of :mod:`qipai.games.gomoku.notation`; the opening rules
        apply only to games started from the opening. Raises :class:`NotationError`."""
        if num_seats not in (None, 2):
            raise OptionError("gomoku is played by 2 seats",
                              code="game.seats", params={"seats": 2})
        if deal is not None:
            raise OptionError("gomoku has no deal",
                              code="game.no_deal")
        return GomokuState(self, seed=seed, position=position)

    def parse_action(self, text: str, state: State | None = None) -> Action:
        """Read ``h8``, ``pass``/``--``, ``swap``, ``offer:g11,j11``, ``choose:j11``,
        ``claim_forbidden``. Raises :class:`IllegalAction` on bad text."""
        return parse_action(text)


class GomokuState(State):
    """One position of a gomoku/renju game (see the module docstring)."""

    game: GomokuGame

    def __init__(self, game: GomokuGame, *, seed: Any = None, position: str | None = None) -> None:
        super().__init__(game, seed=seed, position=position)
        self.board = Board()
        self.to_move = BLACK                 # colour to move
        self.black_seat = 0
        self.moves: list[tuple[str, int | None]] = []   # (colour, point or None for a pass)
        self.nstones = 0
        self.passes = 0                      # consecutive passes
        self.offered: tuple[int, ...] = ()   # two5: Black's offer awaiting White's choice
        self.swapped = False
        self.claimable: tuple[int, str | None] | None = None   # claim mode: last black stone
        # claim mode: every claim made, (point name, foul or None when refused); a refused claim
        # is a logged action (rules/gomoku.md §3.4 "may not claim that stone again")
        self.claims: list[tuple[str, str | None]] = []
        self.opening_active = position is None
        # dead-draw bookkeeping: stones of each colour per window, windows still free
        self._count = {BLACK: [0] * NWINDOWS, WHITE: [0] * NWINDOWS}
        self._free = {BLACK: NWINDOWS, WHITE: NWINDOWS}
        if position is not None:
            board, to_move = parse_position(position)
            for colour in (BLACK, WHITE):
                for p in board.stones(colour):
                    self._put(p, colour)
            self.to_move = to_move
            self._after_setup()
        elif game.options["opening"] in ("designated", "designated_two5"):
            for colour, name in zip((BLACK, WHITE, BLACK),
                                    openings.designated_stones(game.options["opening_name"])):
                self._put(parse_point(name), colour)
                self.moves.append((colour, parse_point(name)))
            self.to_move = WHITE

    def _after_setup(self) -> None:
        """End a game given by a position that is already decided: a winning line (§4.1) or a
        full board (§4.4; the dead-draw test runs after a move, as §4.4 says). Raises
        :class:`NotationError` when both colours hold a winning line (no game reaches that: it
        ends at the first one)."""
        winners = {}
        for colour in (BLACK, WHITE):
            for p in self.board.stones(colour):
                if self._wins(p, colour):
                    winners[colour] = p
                    break
        if len(winners) == 2:
            raise NotationError("both colours have a winning line: no game reaches this position",
                                "position",
                                code="notation.position_impossible")
        for colour, p in winners.items():
            self.result = self._win(colour, "five", {"line": self._line(p, colour)})
            return
        if self.nstones == NPOINTS:
            self.result = self._draw_result("board_full")

    # ----- turn ------------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        if self.result is not None:
            return ()
        if self.offered:
            return (self.seat_of(WHITE),)
        return (self.seat_of(self.to_move),)

    def seat_of(self, colour: str) -> int:
        return self.black_seat if colour == BLACK else 1 - self.black_seat

    def colour_of(self, seat: int) -> str:
        return BLACK if seat == self.black_seat else WHITE

    # ----- opening phases ------------------------------------------------------------------
    def _opening(self) -> str:
        return self.game.options["opening"] if self.opening_active else "standard"

    def phase(self) -> str:
        """``play``, ``offer`` (Black must offer two points) or ``choose`` (White picks one)."""
        if self.offered:
            return "choose"
        if (self._opening().endswith("two5") and self.nstones == 4 and self.to_move == BLACK
                and not self._passed()):
            return "offer"
        return "play"

    def _passed(self) -> bool:
        return any(p is None for _, p in self.moves)

    def _opening_done(self) -> bool:
        need = {"standard": 1, "designated": 3, "swap3": 4, "two5": 5, "swap3_two5": 5,
                "designated_two5": 5}[self._opening()]
        if not self.opening_active:
            need = 0
        return self.nstones >= need

    def swap_allowed(self) -> bool:
        return (self._opening() in ("swap3", "swap3_two5") and self.nstones == 3
                and self.to_move == WHITE and not self.swapped)

    def allowed_area(self) -> list[int] | None:
        """The points the next stone is limited to by the opening rule, or None (anywhere)."""
        if not self.opening_active:
            return None
        opening = self._opening()
        if self.nstones == 0 and opening in ("standard", "two5") and not self.game.center_first:
            return None
        if self.nstones == 0:
            return [CENTER]
        if opening.startswith("swap3") and self.game.options["rif_area_limits"]:
            if self.nstones == 1:
                return openings.area(1)
            if self.nstones == 2:
                return openings.area(2)
        return None

    # ----- actions ---------------------------------------------------------------------------
    def _legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase()
        if phase == "choose":
            return [Action(CHOOSE, (p,)) for p in self.offered]
        empties = self.board.empties()
        if phase == "offer":
            stones = self._stone_map()
            groups = self._orbits(empties, stones)
            out = []
            for i, a in enumerate(empties):
                for b in empties[i + 1:]:
                    if groups[a] != groups[b]:
                        out.append(offer(a, b))
            return out
        area = self.allowed_area()
        points = empties if area is None else [p for p in area if self.board.get(p) == EMPTY]
        if (self.to_move == BLACK and self.game.renju
                and self.game.options["forbidden_handling"] == "reject"):
            bad = self.board.forbidden_points()
            points = [p for p in points if p not in bad]
        out = [place(p) for p in points]
        if self.swap_allowed():
            out.append(Action(SWAP))
        if self._claim_open():
            out.append(Action(CLAIM))
        if self.game.options["allow_pass"] and self._opening_done():
            out.append(Action(PASS))
        return out

    def legal_flags(self) -> bytearray | None:
        """The legal actions of the seat to act in the play and choose phases as
        ``NPOINTS + 3`` flags (a new ``bytearray``), without making the actions: ``1`` at
        point ``p`` when placing a stone there (play phase) or choosing it (choose phase) is
        legal, then one flag each for the pass, the swap and the claim. The same actions as
        :meth:`legal_actions`; ``None`` in the offer phase (its actions are pairs of points)
        and once the game is over."""
        if self.result is not None:
            return None
        phase = self.phase()
        if phase == "offer":
            return None
        if phase == "choose":
            out = bytearray(NPOINTS + 3)
            for p in self.offered:
                out[p] = 1
            return out
        area = self.allowed_area()
        free = self.board.open
        if area is None:
            out = free + b"\x00\x00\x00"
        else:
            out = bytearray(NPOINTS + 3)
            for p in area:
                out[p] = free[p]
        if (self.to_move == BLACK and self.game.renju
                and self.game.options["forbidden_handling"] == "reject"):
            for p in self.board.forbidden_points():
                out[p] = 0
        out[NPOINTS] = self.game.options["allow_pass"] and self._opening_done()
        out[NPOINTS + 1] = self.swap_allowed()
        out[NPOINTS + 2] = self._claim_open()
        return out

    def _orbits(self, empties: list[int], stones: dict[int, str]) -> dict[int, int]:
        syms = openings.symmetries(stones)
        return {p: min(t[p] for t in syms) for p in empties}

    def _stone_map(self) -> dict[int, str]:
        b = self.board
        return {p: b.get(p) for p in range(NPOINTS) if b.get(p) != EMPTY}

    def _claim_open(self) -> bool:
        return self.claimable is not None and self.to_move == WHITE

    def _apply(self, action: Action, seat: int) -> None:
        if not isinstance(action, Action):
            raise IllegalAction(f"not a gomoku action: {action!r}", action,
                                code="gomoku.not_gomoku_action", params={"action": action})
        phase = self.phase()
        kind = action.kind
        if phase == "choose":
            if kind != CHOOSE:
                raise IllegalAction(f"White must choose one of Black's offered points "
                                    f"({', '.join(point_name(p) for p in self.offered)})", action,
                                    code="gomoku.white_must_choose_black",
                                    params={"offered": ', '.join(point_name(p) for p in self.offered)})
            if action.points[0] not in self.offered:
                raise IllegalAction(f"{point_name(action.points[0])} was not offered", action,
                                    code="gomoku.not_offered",
                                    params={"points": point_name(action.points[0])})
            self._play_stone(action.points[0], BLACK, action)
            self.offered = ()
            return
        if kind == CHOOSE:
            raise IllegalAction("there is no offer to choose from", action, code="gomoku.no_offer_choose")
        if phase == "offer":
            if kind != OFFER:
                raise IllegalAction("Black's fifth move is an offer of two points "
                                    "(offer:<p1>,<p2>)", action, code="gomoku.black_fifth_move_offer")
            self._check_offer(action)
            self.offered = action.points
            return
        if kind == OFFER:
            raise IllegalAction("an offer is made only at Black's fifth move of a two5 opening",
                                action, code="gomoku.offer_made_only_black")
        if kind == SWAP:
            if not self.swap_allowed():
                raise IllegalAction("a swap is allowed only to White, instead of move 4 of a "
                                    "swap3 opening", action, code="gomoku.swap_allowed_only_white")
            self.black_seat = 1 - self.black_seat
            self.swapped = True
            return
        if kind == CLAIM:
            if not self._claim_open():
                last = self.claims[-1][0] if self.claims else None
                if (self.to_move == WHITE and last is not None and self.moves
                        and self.moves[-1][1] is not None and point_name(self.moves[-1][1]) == last):
                    raise IllegalAction(f"the claim against {last} was refused; that stone may "
                                        "not be claimed again", action,
                                        code="gomoku.claim_already_refused", params={"point": last})
                raise IllegalAction("there is no black stone to claim (only the stone just "
                                    "played can be claimed, and only once)", action,
                                    code="gomoku.no_black_stone_claim")
            p, foul = self.claimable
            self.claimable = None
            self.claims.append((point_name(p), foul))
            if foul is not None:
                self.result = self._win(WHITE, foul, {"point": point_name(p), "claimed": True})
            return
        if kind == PASS:
            if not self.game.options["allow_pass"]:
                raise IllegalAction("passing is not allowed (option allow_pass)", action,
                                    code="gomoku.passing_not_allowed_option")
            if not self._opening_done():
                raise IllegalAction("no pass before the opening is complete", action,
                                    code="gomoku.no_pass_before_opening")
            self.claimable = None
            self.moves.append((self.to_move, None))
            self.passes += 1
            self.to_move = OTHER[self.to_move]
            if self.passes >= 2:
                self.result = self._draw_result("double_pass")
            return
        if kind != PLACE:
            raise IllegalAction(f"unknown action {action}", action,
                                code="gomoku.unknown_action", params={"action": action})
        self._play_stone(action.points[0], self.to_move, action)

    def _check_offer(self, action: Action) -> None:
        a, b = action.points
        for p in (a, b):
            if self.board.get(p) != EMPTY:
                raise IllegalAction(f"{point_name(p)} is occupied", action,
                                    code="gomoku.occupied", params={"p": point_name(p)})
        stones = self._stone_map()
        if openings.equivalent(a, b, stones):
            raise IllegalAction(f"{point_name(a)} and {point_name(b)} are symmetric in this "
                                "position; offer two different moves", action,
                                code="gomoku.symmetric_position_offer_two",
                                params={"a": point_name(a), "b": point_name(b)})

    def _play_stone(self, p: int, colour: str, action: Action) -> None:
        """Place ``colour`` at ``p`` with every check first; then decide the result."""
        board = self.board
        if board.get(p) != EMPTY:
            raise IllegalAction(f"{point_name(p)} is occupied", action,
                                code="gomoku.occupied", params={"p": point_name(p)})
        area = self.allowed_area() if action.kind == PLACE else None
        if area is not None and p not in area:
            if self.nstones == 0:
                raise IllegalAction("Black's first stone must be on the centre point h8", action,
                                    code="gomoku.black_first_stone_must")
            radius = 1 if self.nstones == 1 else 2
            raise IllegalAction(f"move {self.nstones + 1} must be within the central "
                                f"{2 * radius + 1}x{2 * radius + 1} square", action,
                                code="gomoku.move_must_within_central",
                                params={"n": self.nstones + 1, "n2": 2 * radius + 1})
        game = self.game
        foul = None
        if colour == BLACK and game.renju:
            shape = board._classify(CELL[p])
            if shape is not FIVE:
                foul = shape
            if foul is not None and game.options["forbidden_handling"] == "reject":
                raise IllegalAction(f"forbidden point for Black ({foul.replace('_', ' ')})",
                                    action,
                                    code="gomoku.forbidden_point_black",
                                    params={"foul": foul.replace('_', ' ')})
        # ---- from here on the action is legal: change the state ----
        self.claimable = None
        self._put(p, colour)
        self.moves.append((colour, p))
        self.passes = 0
        self.to_move = OTHER[colour]
        if self._wins(p, colour):
            self.result = self._win(colour, "five", {"line": self._line(p, colour)})
            return
        if foul is not None:
            if game.options["forbidden_handling"] == "loss":
                self.result = self._win(WHITE, foul, {"point": point_name(p)})
                return
            self.claimable = (p, foul)
        elif colour == BLACK and game.renju and game.options["forbidden_handling"] == "claim":
            self.claimable = (p, None)
        if self.nstones == NPOINTS:
            self.result = self._draw_result("board_full")
        elif (game.options["dead_draw_detection"] and self._free[BLACK] == 0
              and self._free[WHITE] == 0):
            self.result = self._draw_result("dead_draw")

    def _put(self, p: int, colour: str) -> None:
        self.board.place(p, colour)
        self.nstones += 1
        own, other = self._count[colour], OTHER[colour]
        free = self._free
        for w in WINDOWS_OF[p]:
            if own[w] == 0:
                free[other] -= 1        # the other colour can no longer use this window
            own[w] += 1

    def _wins(self, p: int, colour: str) -> bool:
        runs = self.board.run_lengths(p, colour)
        rs = self.game.options["ruleset"]
        if rs == "standard" or (rs == "renju" and colour == BLACK):
            return 5 in runs
        return max(runs) >= 5

    def _line(self, p: int, colour: str) -> list[str]:
        rs = self.game.options["ruleset"]
        exact = rs == "standard" or (rs == "renju" and colour == BLACK)
        run = self.board.line_through(p, 5 if exact else 0, colour)
        return [point_name(q) for q in run or ()]

    # ----- results ---------------------------------------------------------------------------
    def _win(self, colour: str, reason: str, details: dict[str, Any] | None = None) -> Result:
        seat = self.seat_of(colour)
        returns = [0.0, 0.0]
        returns[seat] = 1.0
        d = {"winner_colour": COLOUR_NAMES[colour], **(details or {})}
        return Result(tuple(returns), reason, "B+" if colour == BLACK else "W+", (seat,), d)

    def _loss_result(self, seat: int, reason: str) -> Result:
        return self._win(OTHER[self.colour_of(seat)], reason)

    def _draw_result(self, reason: str) -> Result:
        return Result((0.5, 0.5), reason, "draw", ())

    def _result_from_text(self, text: str, reason: str) -> Result:
        t = text.strip()
        up = t.upper()
        if up.startswith("B+") or up in ("1-0", "BLACK"):
            return self._win(BLACK, reason)
        if up.startswith("W+") or up in ("0-1", "WHITE"):
            return self._win(WHITE, reason)
        if up in ("DRAW", "0", "1/2-1/2", "=", "JIGO"):
            return self._draw_result(reason)
        raise IllegalAction(f"gomoku cannot read result {text!r} (B+, W+ or draw)",
                            code="gomoku.gomoku_cannot_read_result", params={"text": text})

    # ----- queries -----------------------------------------------------------------------
    def forbidden_points(self) -> dict[str, str]:
        """Points where a black stone would now be forbidden (renju only), with the kind."""
        if not self.game.renju:
            return {}
        return {point_name(p): k for p, k in sorted(self.board.forbidden_points().items())}

    def last_move(self) -> str | None:
        if not self.moves:
            return None
        p = self.moves[-1][1]
        return "pass" if p is None else point_name(p)

    def position_text(self) -> str:
        return position_text(self.board, self.to_move)

    def view(self, seat: int | None, forbidden: bool | None = None) -> dict[str, Any]:
        """The whole position (gomoku has no hidden information), JSON-ready.

        Keys: ``board`` (15 strings, row 15 first, ``.``/``x``/``o``), ``stones`` (in move order:
        ``{"point", "colour", "n"}``; designated-opening stones first), ``last_move``,
        ``to_move`` (colour), ``to_act`` (seats), ``colours`` (colour of each seat), ``seat``,
        ``phase`` (``play``/``offer``/``choose``), ``choices`` (what buttons to show: ``swap``,
        ``offer`` (Black must offer two points), ``choose`` (the offered points), ``claim``,
        ``pass``), ``claims`` (claim mode: every claim made, ``{"point", "upheld"}``), ``area``
        (points the next stone is limited to, or None), ``forbidden``
        (``{point: kind}`` for Black on the current board, or None), ``result``.

        ``forbidden``: None = shown when renju, Black to move and handling is not ``claim``
        (where showing it would be a hint); True/False = on request.
        """
        return self._view(seat, forbidden, self._position_stones() + self._stones(0))

    def view_delta(self, seat: int | None, since: Any = None) -> ViewDelta:
        """The view as a change (:mod:`qipai.core.viewdelta`): ``stones`` grows through the
        game (a stone is never taken off; the stones of a starting position come first)."""
        def fixed() -> dict[str, Any]:
            out = self._view(seat, None, None)
            del out["stones"]
            return out

        return growing_delta(self, seat, since, (0, len(self.moves)), fixed,
                             lambda since: {"stones": self._stones(since[1])})

    def _stones(self, start: int) -> list[dict[str, Any]]:
        """The view's ``stones`` entries of the moves from ``start`` on (numbered from
        ``start + 1``, passes counted but not listed)."""
        stones = []
        n = start
        for colour, p in self.moves[start:]:
            n += 1
            if p is not None:
                stones.append({"point": point_name(p), "colour": COLOUR_NAMES[colour], "n": n})
        return stones

    def _position_stones(self) -> list[dict[str, Any]]:
        """The view's ``stones`` entries (``n`` 0) of a starting position's stones, which no
        move placed: they come before the moves' stones."""
        if self.position is None:
            return []
        placed = {p for _, p in self.moves}
        stones: list[dict[str, Any]] = []
        for colour in (BLACK, WHITE):
            for p in self.board.stones(colour):
                if p not in placed:
                    stones.insert(0, {"point": point_name(p), "colour": COLOUR_NAMES[colour], "n": 0})
        return stones

    def _shows_forbidden(self, phase: str) -> bool:
        """Whether the view shows Black's forbidden points unasked: renju, Black to move in
        the play phase, and a handling other than ``claim`` (where they would be a hint)."""
        return (self.game.renju and self.to_move == BLACK and phase == "play"
                and self.game.options["forbidden_handling"] != "claim")

    def _buttons(self, phase: str, live: bool) -> tuple[bool, bool, bool]:
        """The view's ``choices`` flags ``swap``, ``claim`` and ``pass``."""
        return (live and phase == "play" and self.swap_allowed(),
                live and self._claim_open(),
                live and phase == "play" and self.game.options["allow_pass"]
                and self._opening_done())

    def seen_board(self, seat: int | None) -> tuple:
        """What ``view(seat)`` shows that the research tensor reads, in the state's own codes
        (everything is public in gomoku): the board's cells (the live list, read only; point
        ``p`` at ``CELL[p]``: the view's ``board``), the moves (``(colour, point or None)``,
        the live list: the view's ``last_move`` is the last one's point), the seat's colour
        (``None`` for a spectator: the view's ``colours``), Black's forbidden points
        ``{point: kind}`` or ``None`` (the view's ``forbidden``), the offered points and the
        ``swap``, ``claim`` and ``pass`` flags (the view's ``choices``)."""
        phase = self.phase()
        live = self.result is None
        forbidden = self.board.forbidden_points() if live and self._shows_forbidden(phase) else None
        return (self.board.cells, self.moves,
                self.colour_of(seat) if seat is not None else None, forbidden,
                self.offered if live else (), *self._buttons(phase, live))

    def _view(self, seat: int | None, forbidden: bool | None, stones: list | None) -> dict[str, Any]:
        opts = self.game.options
        phase = self.phase()
        show = self._shows_forbidden(phase) if forbidden is None else forbidden
        area = self.allowed_area() if phase == "play" else None
        live = self.result is None
        swap, claim, may_pass = self._buttons(phase, live)
        return {
            "game": self.game.id,
            "options": dict(opts),
            "seat": seat,
            "board": self.board.diagram().splitlines(),
            "stones": stones,
            "last_move": self.last_move(),
            "move_number": len(self.moves) + 1,
            "to_move": COLOUR_NAMES[self.to_move],
            "to_act": list(self.to_act),
            "colours": [COLOUR_NAMES[self.colour_of(s)] for s in (0, 1)],
            "phase": phase,
            "choices": {
                "swap": swap,
                "offer": live and phase == "offer",
                "choose": [point_name(p) for p in self.offered] if live else [],
                "claim": claim,
                "pass": may_pass,
            },
            "claims": [{"point": p, "upheld": foul is not None} for p, foul in self.claims],
            "area": [point_name(p) for p in area] if area is not None and live else None,
            "forbidden": self.forbidden_points() if show and live else None,
            "result": self.result.to_json() if self.result else None,
        }


__all__ = ["DIRECTIONS", "GomokuGame", "GomokuState"]
