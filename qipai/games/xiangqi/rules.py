"""Xiangqi rules: :class:`XiangqiGame` (options) and :class:`XiangqiState` (one position).

Seat 0 plays Red and seat 1 Black; a state's ``turn`` is the colour to move. The fast move
generator lives in :mod:`.board`; this module adds the game around it: endings, repetition,
scoring, move validation with reasons, notation hooks and views.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from qipai.core.errors import IllegalAction, Message, NotationError, why
from qipai.core.game import Game, Result, State
from qipai.core.options import Option
from qipai.core.registry import register

from . import board as B
from .fen import START_FEN, board_rows, board_to_fen, parse_fen, piece_letter, rows_to_fen
from .repetition import adjudicate, position_key

_ICCS = re.compile(r"^\s*([a-iA-I])([0-9])\s*-?\s*([a-iA-I])([0-9])\s*$")

END_RULES = ("checkmate", "king_capture")
REPETITION_RULES = ("axf_simplified", "seed000_same_move", "draw_only", "none")
SCORINGS = ("standard", "seed003")
END_REASONS = ("checkmate", "stalemate", "resign", "timeout", "repetition_loss", "repetition_draw",
               "insufficient_material", "no_capture_limit", "agreement", "illegal_moves",
               "king_captured")


class Move(NamedTuple):
    """A move from ``from_sq`` to ``to_sq`` (squares ``rank * 9 + file``); ``str`` gives ICCS."""

    from_sq: int
    to_sq: int

    def __str__(self) -> str:
        if _is_square(self.from_sq) and _is_square(self.to_sq):
            return B.sq_name(self.from_sq) + B.sq_name(self.to_sq)
        return f"Move({self.from_sq!r}, {self.to_sq!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ICCS (``h2e2``; uppercase and ``H2-E2`` too). Raises :class:`NotationError`."""
        if not isinstance(text, str):
            raise NotationError(f"a move must be text, got {type(text).__name__}", "move",
                                code="notation.bad_move", params={"text": text})
        m = _ICCS.match(text)
        if not m:
            raise NotationError(f"{text!r} is not an ICCS move like 'h2e2'", "move",
                                code="notation.bad_move", params={"text": text})
        ff, fr, tf, tr = m.groups()
        return cls(int(fr) * 9 + "abcdefghi".index(ff.lower()), int(tr) * 9 + "abcdefghi".index(tf.lower()))

    @property
    def code(self) -> int:
        return self.from_sq << 7 | self.to_sq


def _is_square(x: Any) -> bool:
    """True for a square number: an ``int`` (not a ``bool``) in 0..89."""
    return type(x) is int and 0 <= x < B.NSQ


_MOVES: dict[int, Move] = {}
_TEXTS: dict[int, str] = {}


def _text(code: int) -> str:
    """The ICCS text of the move ``code`` (``from << 7 | to``, squares of the board), cached."""
    t = _TEXTS.get(code)
    if t is None:
        t = _TEXTS[code] = str(_move(code))
    return t


def _texts(codes: list[int]) -> list[str]:
    """The ICCS texts of the move ``codes``, in order (cached as :func:`_text`)."""
    try:
        return [_TEXTS[c] for c in codes]
    except KeyError:
        return [_text(c) for c in codes]


def _move(code: int) -> Move:
    mv = _MOVES.get(code)
    if mv is None:
        mv = _MOVES[code] = Move(code >> 7, code & 127)
    return mv


@register
class XiangqiGame(Game):
    """Xiangqi with the options of ``rules/xiangqi.md``."""

    id = "xiangqi"
    seats = (2,)
    hidden_information = False
    draw_offers = True
    option_spec = (
        Option("end_rule", "checkmate", END_RULES,
               doc="checkmate (official rules) or king_capture (seed 003: capture the king to win), §3.3"),
        Option("repetition_rule", "axf_simplified", REPETITION_RULES,
               doc="§4.3: axf_simplified (perpetual check/chase loses), seed000_same_move, draw_only; "
                   "none = no automatic repetition ruling (project addition, for refereed records)"),
        Option("no_capture_plies", 120, None, int, minimum=0,
               doc="§4.2.4: draw after this many plies without a capture; 0 disables"),
        Option("game_scoring", "standard", SCORINGS,
               doc="§4.5: standard 1/0.5/0, or seed003 +1/0/-1 with a won game in <= 10 plies scoring 0"),
    )

    def new_state(self, *, seed: int | str | None = None, deal: Any = None,
                  position: str | None = None, num_seats: int | None = None,
                  validate: bool = True) -> XiangqiState:
        """The start position, or the FEN ``position``. ``validate=False`` skips the
        reachability checks of section 6 (a king per side is still required)."""
        if deal is not None:
            raise IllegalAction("xiangqi has no deal; give a FEN as position",
                                code="xiangqi.xiangqi_no_deal_give")
        if num_seats not in (None, 2):
            raise IllegalAction("xiangqi is played by 2 seats", code="xiangqi.xiangqi_played_seats")
        return XiangqiState(self, position=position, validate=validate)

    def parse_action(self, text: str, state: State | None = None) -> Move:
        """Read a move: ICCS, or (with a state) any notation :mod:`.notation` reads.

        Raises :class:`IllegalAction` when the text cannot be read.
        """
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise IllegalAction(f"a move must be text, got {type(text).__name__}", text,
                                code="xiangqi.move_must_text_got", params={"type": type(text).__name__})
        if _ICCS.match(text):
            return Move.parse(text)
        if state is None:
            raise IllegalAction("not an ICCS move (other notations need the position)", text,
                                code="xiangqi.not_iccs_move_other")
        try:
            from . import notation
        except ImportError:
            raise IllegalAction("not an ICCS move like 'h2e2'", text,
                                code="xiangqi.not_iccs_move_like") from None
        try:
            mv = notation.parse_move(state, text)
        except NotationError as e:
            raise IllegalAction(str(e), text, code="bad_notation",
                                params={"text": text, **why(e, "unreadable")}) from None
        if isinstance(mv, Move):
            return mv
        return Move(*mv)

    def is_move_text(self, text: str) -> bool:
        """True for a text written as a move in ICCS, WXF or Chinese notation, legal or not."""
        from . import notation

        return isinstance(text, str) and notation.looks_like_move(text)


class XiangqiState(State):
    """A xiangqi position with its game history."""

    game: XiangqiGame

    def __init__(self, game: XiangqiGame, *, position: str | None = None, validate: bool = True,
                 seed: Any = None) -> None:
        super().__init__(game, seed=seed, position=position, num_seats=2)
        opts = game.options
        self._king_capture = opts["end_rule"] == "king_capture"
        self._repetition = opts["repetition_rule"]
        self._limit = opts["no_capture_plies"]
        pos = parse_fen(position if position is not None else START_FEN, validate=validate,
                        king_capture=self._king_capture)
        self.board: list[int] = pos.board
        self.turn: int = pos.turn
        self.no_capture: int = pos.no_capture
        self.move_number: int = pos.move_number
        self.kings: list[int] = [B.find_king(self.board, 0), B.find_king(self.board, 1)]
        self.moves: list[int] = []                  # move codes played in this game
        self.history: list[bytes] = [position_key(self.board, self.turn)]
        self.counts: dict[bytes, int] = {self.history[0]: 1}
        self._legal: tuple[int, ...] | None = None  # legal moves of the side to move
        self._unbanned: tuple[int, ...] | None = None  # same, before the seed000 ban
        self._check: bool | None = None
        self._evaluate(captured=1)

    # ----- basic queries ---------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.result is not None else (self.turn,)

    def piece_at(self, sq: int) -> str | None:
        """The FEN letter of the piece on ``sq`` (``rank * 9 + file``), or ``None``."""
        code = self.board[sq]
        return piece_letter(code) if code else None

    def in_check(self) -> bool:
        """True when the side to move is in check (or, in king-capture mode, its king is gone)."""
        if self._check is None:
            ksq = self.kings[self.turn]
            self._check = ksq < 0 or B.attacked(self.board, ksq, self.turn)
        return self._check

    def fen(self) -> str:
        return board_to_fen(self.board, self.turn, self.no_capture, self.move_number)

    def legal_moves(self) -> list[Move]:
        """Every legal move of the side to move (empty when the game is over)."""
        return self.legal_actions()

    def _legal_actions(self, seat: int) -> list[Move]:
        return [_move(m) for m in self._legal_codes()]

    def _legal_codes(self) -> tuple[int, ...]:
        if self._legal is None:
            self._compute_legal()
        return self._legal

    def _compute_legal(self) -> None:
        codes = tuple(self._rule_moves(self.board, self.turn))
        self._unbanned = codes
        if self._repetition == "seed000_same_move" and len(self.moves) >= 8 and not self.in_check():
            codes = tuple(m for m in codes if not self._banned(m))
        self._legal = codes

    def _rule_moves(self, board: list[int], side: int) -> list[int]:
        """Legal moves by the move rules only (no repetition ban)."""
        if self._king_capture:
            return B.pseudo_moves(board, side, flying=True)
        ksq = B.find_king(board, side) if board is not self.board else self.kings[side]
        if ksq < 0:
            return []
        return B.legal_moves(board, side, ksq)

    def _banned(self, m: int) -> bool:
        """seed000_same_move: the mover's own moves 2 and 4 turns back equal ``m`` and its
        moves 1 and 3 turns back equal each other."""
        mv = self.moves
        n = len(mv)
        return n >= 8 and mv[n - 4] == m and mv[n - 8] == m and mv[n - 2] == mv[n - 6]

    # ----- applying moves --------------------------------------------------------------
    def _apply(self, action: Any, seat: int) -> None:
        if isinstance(action, tuple) and len(action) == 2 and not isinstance(action, Move):
            action = Move(*action)
        if not isinstance(action, Move):
            raise IllegalAction(f"not a xiangqi move: {action!r}", action,
                                code="xiangqi.not_xiangqi_move", params={"action": action})
        f, t = action.from_sq, action.to_sq
        if not (_is_square(f) and _is_square(t)):
            raise IllegalAction("squares must be integers 0..89", action,
                                code="xiangqi.squares_must_integers")
        code = f << 7 | t
        if code not in self._legal_codes():
            raise IllegalAction(self._why_illegal(f, t), action)
        self._do(code)

    def _action_text(self, action: Any) -> str:
        if isinstance(action, tuple) and len(action) == 2 and all(_is_square(x) for x in action):
            return str(Move(*action))
        return str(action)

    def _do(self, code: int) -> None:
        f = code >> 7
        t = code & 127
        board = self.board
        cap = board[t]
        piece = board[f]
        board[t] = piece
        board[f] = 0
        side = self.turn
        if piece & 7 == B.KING:
            self.kings[side] = t
        if cap:
            self.no_capture = 0
            if cap & 7 == B.KING:
                self.kings[side ^ 1] = -1
        else:
            self.no_capture += 1
        if side == 1:
            self.move_number += 1
        self.turn = side ^ 1
        self.moves.append(code)
        key = position_key(board, self.turn)
        self.history.append(key)
        self.counts[key] = self.counts.get(key, 0) + 1
        self._legal = self._unbanned = None
        self._check = None
        self._evaluate(captured=cap)

    def _why_illegal(self, f: int, t: int) -> str:
        board = self.board
        side = self.turn
        piece = board[f]
        if not piece:
            return Message(f"no piece on {B.sq_name(f)}",
                           code="xiangqi.no_piece", params={"value": B.sq_name(f)})
        if piece >> 3 != side:
            return (Message(f"the piece on {B.sq_name(f)} is {B.SIDE_NAMES[piece >> 3]}'s; "
                    f"{B.SIDE_NAMES[side]} is to move",
                        code="xiangqi.piece_move",
                        params={"value": B.sq_name(f),
                                "side_names": B.SIDE_NAMES[piece >> 3],
                                "side_names2": B.SIDE_NAMES[side]}))
        kind = B.KIND_NAMES[piece & 7]
        if f == t:
            return Message("a move must go to another point", code="xiangqi.move_must_go_another")
        pseudo = B.pseudo_moves(board, side, flying=self._king_capture)
        code = f << 7 | t
        if code not in pseudo:
            target = board[t]
            if target and target >> 3 == side:
                return Message(f"{B.sq_name(t)} holds an own piece",
                               code="xiangqi.holds_own_piece", params={"value": B.sq_name(t)})
            why = _shape_hint(board, f, t, piece)
            return Message(f"a {kind} cannot move that way ({why})", code="xiangqi.cannot_move_way",
                           params={"kind": kind, "why": why.code, **why.params})
        if code in (self._unbanned or ()):
            return (Message("repetition rule seed000_same_move forbids playing the same move "
                    "a third time in a row", code="xiangqi.repetition_rule_seed_same"))
        trial = list(board)
        trial[t] = piece
        trial[f] = 0
        ksq = t if piece & 7 == B.KING else self.kings[side]
        other = self.kings[side ^ 1]
        if ksq % 9 == other % 9 and not any(trial[s] for s in range(min(ksq, other) + 9,
                                                                     max(ksq, other), 9)):
            return Message("the kings would face each other on an open file",
                           code="xiangqi.kings_would_face_each")
        if self.in_check():
            return Message(f"it does not get the {B.SIDE_NAMES[side]} king out of check",
                           code="xiangqi.does_not_get_king", params={"side_names": B.SIDE_NAMES[side]})
        return Message(f"it would leave the {B.SIDE_NAMES[side]} king in check",
                       code="xiangqi.would_leave_king_check", params={"side_names": B.SIDE_NAMES[side]})

    # ----- endings ---------------------------------------------------------------------
    def _evaluate(self, captured: int) -> None:
        """Decide whether the game ended after the last move (or on loading)."""
        side = self.turn
        if self._king_capture and self.kings[side] < 0:
            self.result = self._win(side ^ 1, "king_captured")
            return
        self._compute_legal()
        if not self._unbanned:
            self.result = self._win(side ^ 1, "checkmate" if self.in_check() else "stalemate")
            return
        if captured and _insufficient(self.board):
            self.result = self._make_result(None, "insufficient_material")
            return
        rule = self._repetition
        if rule == "seed000_same_move":
            if not self._legal:
                self.result = self._make_result(None, "repetition_draw")
                return
        elif rule != "none" and len(self.history) > 1 and self.counts[self.history[-1]] >= 3:
            if rule == "draw_only":
                self.result = self._make_result(None, "repetition_draw")
                return
            first = self.history.index(self.history[-1])
            loser, _ = adjudicate(self.history, first, self._rule_moves)
            if loser is None:
                self.result = self._make_result(None, "repetition_draw")
            else:
                self.result = self._win(loser ^ 1, "repetition_loss")
            return
        if self._limit and self.no_capture >= self._limit:
            self.result = self._make_result(None, "no_capture_limit")

    def repetition_classes(self) -> list[str] | None:
        """For a position that occurred before: the class (check/chase/idle) of every move
        since its first occurrence, as the axf_simplified rule sees them; else ``None``."""
        key = self.history[-1]
        first = self.history.index(key)
        if first == len(self.history) - 1:
            return None
        return adjudicate(self.history, first, self._rule_moves)[1]

    def _win(self, winner: int, reason: str) -> Result:
        return self._make_result(winner, reason)

    def _make_result(self, winner: int | None, reason: str) -> Result:
        seed003 = self.game.options["game_scoring"] == "seed003"
        if winner is None:
            draw = 0.0 if seed003 else 0.5
            return Result((draw, draw), reason, "1/2-1/2", (), {"plies": len(self.moves)})
        if seed003:
            win = 0.0 if len(self.moves) <= 10 else 1.0
            returns = [-1.0, -1.0]
        else:
            win = 1.0
            returns = [0.0, 0.0]
        returns[winner] = win
        return Result(tuple(returns), reason, "1-0" if winner == 0 else "0-1", (winner,),
                      {"plies": len(self.moves)})

    def _loss_result(self, seat: int, reason: str) -> Result:
        return self._make_result(seat ^ 1, reason)

    def _draw_result(self, reason: str) -> Result:
        return self._make_result(None, reason)

    def _result_from_text(self, text: str, reason: str) -> Result:
        t = text.strip().replace("½", "1/2")
        if t == "1-0":
            return self._make_result(0, reason)
        if t == "0-1":
            return self._make_result(1, reason)
        if t in ("1/2-1/2", "1/2"):
            return self._make_result(None, reason)
        raise IllegalAction(f"unknown xiangqi result {text!r} (expected 1-0, 0-1 or 1/2-1/2)",
                            code="xiangqi.unknown_xiangqi_result_expected", params={"text": text})

    # ----- views and copies ------------------------------------------------------------
    def seen_board(self, seat: int | None) -> tuple[list[int], list[int], bool]:
        """What ``view(seat)`` shows of the position, in the state's own codes, for a reader
        that needs no more of the view (the research tensor): the board's piece codes by
        square (``rank * 9 + file``, ``0`` empty; the live list, read only), the moves played
        (codes ``from << 7 | to``, the live list: the view's ``last_move`` is the last one)
        and the view's ``in_check``. Everything is public in xiangqi: every seat sees the
        same."""
        return (self.board, self.moves,
                self.in_check() if self.kings[self.turn] >= 0 else False)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Everything is public in xiangqi: every seat and spectators see the same."""
        rows = board_rows(self.board)
        last = _text(self.moves[-1]) if self.moves else None
        return {
            "game": self.game.id,
            "fen": rows_to_fen(rows, self.turn, self.no_capture, self.move_number),
            "board": rows,
            "turn": self.turn,
            "turn_colour": "red" if self.turn == 0 else "black",
            "seat": seat,
            "last_move": last,
            "in_check": self.in_check() if self.kings[self.turn] >= 0 else False,
            "plies": len(self.moves),
            "result": self.result.to_json() if self.result else None,
            "legal_moves": _texts(self._legal_codes()) if self.result is None else [],
        }

    def clone(self) -> XiangqiState:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.board = self.board[:]
        new.kings = self.kings[:]
        new.moves = self.moves[:]
        new.history = self.history[:]
        new.counts = dict(self.counts)
        new.log = list(self.log)
        return new

    def __repr__(self) -> str:
        return f"XiangqiState({self.fen()!r})"


def _insufficient(board: list[int]) -> bool:
    for c in board:
        if c and (c & 7) in (B.HORSE, B.ROOK, B.CANNON, B.PAWN):
            return False
    return True


def _shape_hint(board: list[int], f: int, t: int, piece: int) -> Message:
    """Why ``piece`` on ``f`` cannot reach ``t`` by its own move shape (a ``Message`` whose
    code is a ``xiangqi.shape.*`` catalogue entry)."""
    kind = piece & 7
    side = piece >> 3
    if kind == B.HORSE:
        for leg, target in B.HORSE_MOVES[f]:
            if target == t:
                return Message(f"its leg {B.sq_name(leg)} is blocked",
                               code="xiangqi.shape.leg", params={"leg": B.sq_name(leg)})
        return Message("a horse moves one point straight then one diagonally", code="xiangqi.shape.horse")
    if kind == B.ELEPHANT:
        for eye, target in B.ELEPHANT_MOVES[side][f]:
            if target == t:
                return Message(f"its eye {B.sq_name(eye)} is blocked",
                               code="xiangqi.shape.eye", params={"eye": B.sq_name(eye)})
        df, dr = abs(t % 9 - f % 9), abs(t // 9 - f // 9)
        if (df, dr) == (2, 2):
            return Message("an elephant may not cross the river", code="xiangqi.shape.river")
        return Message("an elephant moves exactly two points diagonally", code="xiangqi.shape.elephant")
    if kind == B.ADVISOR:
        return Message("an advisor moves one point diagonally inside its palace",
                       code="xiangqi.shape.advisor")
    if kind == B.KING:
        return Message("a king moves one point orthogonally inside its palace", code="xiangqi.shape.king")
    if kind == B.PAWN:
        return Message("a pawn moves one point forward, or sideways after crossing the river",
                       code="xiangqi.shape.pawn")
    if t % 9 != f % 9 and t // 9 != f // 9:
        return Message("it moves along a rank or a file", code="xiangqi.shape.line")
    if kind == B.ROOK:
        return Message("the line is blocked", code="xiangqi.shape.blocked")
    if board[t]:
        return Message("a cannon needs exactly one screen to capture and a free line to move",
                       code="xiangqi.shape.screen")
    return Message("a cannon moves to an empty point only along a free line", code="xiangqi.shape.cannon")
