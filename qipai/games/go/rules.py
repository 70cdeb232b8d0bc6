"""Go rules (``rules/go.md``): :class:`GoGame` (options) and :class:`GoState` (one game).

Seats and colours: seat ``black_seat`` (0 unless the ``colours`` option draws it by nigiri)
plays Black and moves first (White first after handicap stones).

Actions (canonical text in GTP coordinates, see :mod:`.coords`):

* during play: ``D4`` (a stone on D4) or ``pass``; SGF letters (``dp``) are read too;
* in the dead-stone phase (option ``end_procedure = agreement``, after two passes): each seat
  marks chains dead with ``dead D4`` (the whole chain through D4), takes a mark back with
  ``alive D4``, and submits its marks with ``done``. Both seats act in this phase (``to_act``
  holds every seat that has not submitted). Equal marks end the game: the marked stones are
  removed and the board is counted. Different marks resume play with the player who did not
  pass last; the second disagreement is counted with every stone alive (rules §4.2). Either
  seat may also answer ``resume``: it does not accept the end, and play resumes at once
  (seed 002: a move by the other side continues the game). A ``resume`` is a disagreement,
  so it is open only before the first one.

Resignation, timeouts and forfeits go through ``State.resign`` / ``State.forfeit``; the
organizer's decisions through :meth:`GoState.arbiter_decide` (dead stones) and
:meth:`GoState.forced_count` (count now, every stone alive).
"""

from __future__ import annotations

import math
import re
from typing import Any

from qipai.core.errors import IllegalAction, Message, NotationError, OptionError, why
from qipai.core.game import Game, State
from qipai.core.options import Option
from qipai.core.registry import register
from qipai.core.rng import DealRng

from .actions import Mark, Move, moves_table, point_texts
from .board import BLACK, EMPTY, WHITE, Board
from .coords import GTP_COLUMNS, PASS, from_sgf, parse_point, to_gtp
from .ending import Ending
from .legal import LegalPoints

KO_RULES = ("positional_superko", "situational_superko", "natural_situational_superko",
            "simple_ko")
SCORINGS = ("seed002_komi4", "seed001_no_komi", "cn2017_komi_3_75", "free_komi")
# compensation in points of (black area - white area), the SGF KM of each scoring
SCORING_KOMI = {"seed002_komi4": 8.0, "seed001_no_komi": 0.0, "cn2017_komi_3_75": 7.5}
END_PROCEDURES = ("agreement", "all_alive")
SIZES = (19, 13, 9, 7, 5, 4)
COLOUR_NAMES = {BLACK: "black", WHITE: "white"}
_SIDE_KEY = (0, 0, 0x5DEECE66D1B3A9F7)   # XORed into the hash when White is to move next


_ROW_LETTERS = bytes.maketrans(b"\x00\x01\x02", b".XO")     # a point's colour -> its letter


class FloatOption(Option):
    """An option holding a number (read from text on the command line)."""

    def check(self, value: Any, game_id: str = "") -> Any:
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise OptionError(f"option {self.name!r}: expected a number, got {value!r}",
                                  code="option.not_number",
                                  params={"label": f"go.{self.name}", "value": value}) from None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise OptionError(f"option {self.name!r}: expected a number, got {value!r}",
                              code="option.not_number", params={"label": f"go.{self.name}", "value": value})
        value = float(value)
        if not math.isfinite(value) or abs(value) > 1000 or value * 4 != int(value * 4):
            raise OptionError(f"option {self.name!r}: must be a multiple of 0.25 within ±1000, "
                              f"got {value!r}",
                              code="option.komi_step", params={"label": f"go.{self.name}", "value": value})
        return value


def max_fixed_handicap(size: int) -> int:
    """The most fixed handicap stones GTP lays out on a ``size`` board: none below 7x7, 4 on
    7x7 (the four corner points only), 9 on 9x9 and larger."""
    return 0 if size < 7 else 4 if size == 7 else 9


def handicap_points(size: int, stones: int) -> list[int]:
    """The fixed handicap points (GTP ``fixed_handicap`` order) for ``stones`` = 2..9."""
    if stones < 2:
        return []
    edge = 3 if size >= 13 else 2 if size >= 7 else 1
    lo, mid, hi = edge, size // 2, size - 1 - edge

    def pt(col: int, row_from_bottom: int) -> int:
        return (size - 1 - row_from_bottom) * size + col

    order = [pt(lo, lo), pt(hi, hi), pt(lo, hi), pt(hi, lo), pt(lo, mid), pt(hi, mid),
             pt(mid, lo), pt(mid, hi), pt(mid, mid)]
    pts = order[:stones]
    if stones >= 5 and stones % 2 == 1:
        pts[-1] = pt(mid, mid)
    return pts


@register
class GoGame(Game):
    """Go with the options of ``rules/go.md``."""

    id = "go"
    seats = (2,)
    hidden_information = False
    draw_offers = True
    option_spec = (
        Option("board_size", 19, SIZES, int,
               doc="19x19 (default); 13, 9 and the small 7, 5, 4 boards (tests, teaching)"),
        Option("ko_rule", "positional_superko", KO_RULES,
               doc="§3.2: positional superko (seed 001, whole-board repetition banned), situational "
                   "superko, natural situational superko (only boards made by a play of the same "
                   "player are banned; passes record nothing), or simple ko only (seed 002)"),
        Option("scoring", "seed002_komi4", SCORINGS,
               doc="§4.3 area counting: seed 002 (Black gives 4 stones: 185 wins, White 177 wins), "
                   "seed 001 (180.5, no compensation), Chinese 2017 (3 3/4 stones), or free_komi"),
        FloatOption("komi", 7.5, kind=float,
                    doc="with scoring=free_komi: compensation in points of (Black area - White "
                        "area), as SGF KM; an integer komi allows draws"),
        Option("end_procedure", "all_alive", END_PROCEDURES,
               doc="§4.2: all_alive (the default: every stone counts, Tromp-Taylor style, suited to "
                   "programs) or agreement (both players mark dead stones after two passes; what "
                   "the server's lobby tables, the S2 preset and SGF records of people use)"),
        Option("handicap", 0, (0, 2, 3, 4, 5, 6, 7, 8, 9), int,
               doc="fixed handicap stones for Black; White moves first and receives one point "
                   "per handicap stone (half a stone each, Chinese practice)"),
        Option("max_moves", 1000, None, int, minimum=1,
               doc="§4.1 guard: play ends after this many plays and passes, and is counted"),
        Option("colours", "seat0_black", ("seat0_black", "nigiri"),
               doc="§2: seat 0 takes Black, or nigiri (猜先) drawn from the seed"),
        Option("illegal_limit", 3, None, int, minimum=0,
               doc="§4.4: the n-th refused submission loses (kept by the match layer; 0 = none)"),
        Option("time_control", "seed002_60min", ("seed002_60min", "seed002_walltime"),
               doc="§5.2, applied by the match layer's clock (competition.md governs clocks)"),
        Option("on_timeout", "loss", ("loss", "count"),
               doc="§5.2: loss on time, or the game is stopped and counted (forced_count)"),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        size, stones = self.options["board_size"], self.options["handicap"]
        if stones > max_fixed_handicap(size):
            raise OptionError(f"option 'handicap': a {size}x{size} board has fixed handicap "
                              f"layouts for at most {max_fixed_handicap(size)} stones (GTP), "
                              f"got {stones}",
                              code="option.handicap_layout",
                              params={"size": size, "most": max_fixed_handicap(size), "value": stones})

    @property
    def size(self) -> int:
        return self.options["board_size"]

    def komi_points(self) -> float:
        """The compensation in points of (Black area - White area) before handicap."""
        scoring = self.options["scoring"]
        return float(self.options["komi"]) if scoring == "free_komi" else SCORING_KOMI[scoring]

    def new_state(self, *, seed: int | str | None = None, deal: Any = None,
                  position: str | None = None, num_seats: int | None = None) -> GoState:
        """An empty board (with handicap stones if asked), or the SGF setup ``position``
        (``AB[dd][pp]AW[dp]PL[W]``, optionally with ``SZ``). Raises :class:`IllegalAction`."""
        if deal is not None:
            raise IllegalAction("go has no deal; give an SGF setup as position", code="go.go_no_deal_give")
        if num_seats not in (None, 2):
            raise IllegalAction("go is played by 2 seats", code="go.go_played_seats")
        return GoState(self, seed=seed, position=position)

    def parse_action(self, text: str, state: State | None = None) -> Move | Mark:
        """Read ``D4`` / ``dp`` / ``pass`` (a play), or ``dead D4`` / ``alive D4`` / ``done``
        (dead-stone phase). Raises :class:`IllegalAction` when the text cannot be read."""
        if isinstance(text, (Move, Mark)):
            return text
        if not isinstance(text, str):
            raise IllegalAction(f"an action must be text, got {type(text).__name__}", text,
                                code="go.action_must_text_got", params={"type": type(text).__name__})
        t = text.strip()
        low = t.lower()
        size = self.size
        try:
            if low in ("done", "resume"):
                return Mark(low, PASS, size)
            m = re.fullmatch(r"(dead|alive)\s+(\S+)", low)
            if m:
                p = parse_point(t.split()[1], size)
                if p == PASS:
                    raise NotationError("a mark names a stone, not pass",
                                        code="notation.mark_pass")
                return Mark(m.group(1), p, size)
            if low == "resign":
                raise IllegalAction("resignation is not a move: use resign()", text,
                                    code="go.resignation_not_move_use")
            return moves_table(size)[parse_point(t, size)]
        except NotationError as e:
            raise IllegalAction(str(e), text, code="bad_notation",
                                params={"text": text, **why(e, "unreadable")}) from None

    def is_move_text(self, text: str) -> bool:
        """True for a point on this board, ``pass`` or a dead-stone mark, legal or not."""
        try:
            self.parse_action(text)
        except IllegalAction as e:
            return e.code != "bad_notation"
        return True


class GoState(Ending, State):
    """A go game in progress: board, turn, repetition history and the dead-stone phase."""

    game: GoGame

    def __init__(self, game: GoGame, *, seed: Any = None, position: str | None = None) -> None:
        super().__init__(game, seed=seed, position=position, num_seats=2)
        opts = game.options
        self.size = size = opts["board_size"]
        self.board = Board(size)
        self.ko_rule = opts["ko_rule"]
        self.agreement = opts["end_procedure"] == "agreement"
        self.max_moves = opts["max_moves"]
        self.black_seat = 0
        if opts["colours"] == "nigiri":
            if seed is None:
                raise IllegalAction("colours=nigiri draws Black from the seed: give a seed",
                                    code="go.colours_nigiri_draws_black")
            self.black_seat = DealRng(seed).below(2)
        self.to_move = BLACK
        if opts["handicap"]:
            if position is not None:
                raise IllegalAction("give either handicap stones or a setup position, not both",
                                    code="go.give_either_handicap_stones")
            for p in handicap_points(size, opts["handicap"]):
                self.board.place(p, BLACK)
            self.to_move = WHITE
        if position is not None:
            self._setup(position)
        self.moves: list[int] = []             # points played in order (PASS for a pass)
        self.passes = 0                        # consecutive passes just made
        self.last_captures: list[int] = []
        h = self.board.hash
        self.seen: dict[int, int] = {h: 0}     # board hash -> number of moves when it arose
        # kept under situational superko only: positions (board and side to move) seen
        self.seen_sit: dict[int, int] = {h ^ _SIDE_KEY[self.to_move]: 0}
        # kept under natural situational superko only: boards made by a play, keyed with the
        # side to move next (so with the player who made them); the start and passes add nothing
        self.seen_nat: dict[int, int] = {}
        self.ko_hash: int | None = None        # the board before the opponent's last action
        self.phase = "play"                    # play | marking (the game over: result is set)
        self.marks: list[set[int]] = [set(), set()]
        self.submitted = [False, False]
        self.disagreements = 0
        self.dead: frozenset[int] = frozenset()   # stones removed at the count
        # the legal-point set, kept up to date by every play (see .legal)
        self.legal_set = LegalPoints(self.board, moves_table(size))
        self._texts = point_texts(size)         # the log's text of each point, then "pass"
        self._repeats: frozenset[int] | set[int] | None = None   # legal_set.repeating(to_move)
        self._proposal: list[int] | None = None

    def _setup(self, position: str) -> None:
        from .sgf_parse import parse

        text = position.strip()
        if not text.startswith("("):
            text = f"(;{text})" if not text.startswith(";") else f"({text})"
        try:
            node = parse(text)[0].nodes[0]
        except Exception as e:      # RecordError from the parser
            raise IllegalAction(f"bad setup position: {e}",
                                code="go.bad_setup_position") from None
        size = self.size
        for prop in node.props:
            if prop.ident == "SZ":
                if prop.values[0].strip() != str(size):
                    raise IllegalAction(f"the position is for SZ[{prop.values[0]}] but the board is "
                                        f"{size}x{size} (option board_size)",
                                        code="go.position_sz_but_board",
                                        params={"values": prop.values[0], "size": size})
            elif prop.ident in ("AB", "AW"):
                colour = BLACK if prop.ident == "AB" else WHITE
                for v in prop.values:
                    for p in _expand_points(v, size):
                        try:
                            self.board.place(p, colour)
                        except ValueError as e:
                            raise IllegalAction(f"setup {prop.ident}[{v}]: {e}",
                                                code="go.setup",
                                                params={"ident": prop.ident, "v": v,
                                                        **why(e, "go.point_taken")}) from None
            elif prop.ident == "PL":
                v = prop.values[0].strip().upper()
                if v not in ("B", "W", "1", "2"):
                    raise IllegalAction(f"setup PL[{prop.values[0]}]: expected B or W",
                                        code="go.setup_pl_expected_b", params={"values": prop.values[0]})
                self.to_move = BLACK if v in ("B", "1") else WHITE
            elif prop.ident not in ("GM", "FF", "CA", "AP", "HA", "KM", "RU"):
                raise IllegalAction(f"setup position: property {prop.ident} is not a setup property "
                                    "(use AB, AW, PL, SZ)",
                                    code="go.setup_position_property_not", params={"ident": prop.ident})

    # ----- turn ------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        if self.result is not None:
            return ()
        if self.phase == "marking":
            return tuple(s for s in (0, 1) if not self.submitted[s])
        return (self.black_seat,) if self.to_move == BLACK else (1 - self.black_seat,)

    def seat_of(self, colour: int) -> int:
        """The seat playing ``colour`` (1 Black, 2 White)."""
        return self.black_seat if colour == BLACK else 1 - self.black_seat

    def colour_of(self, seat: int) -> int:
        return BLACK if seat == self.black_seat else WHITE

    # ----- legality --------------------------------------------------------------------
    def play_hash(self, p: int, c: int) -> int:
        """The board hash after ``c`` plays on ``p``, or ``-1`` if the play is illegal."""
        board = self.board
        if board.color[p] != EMPTY:
            return -1
        h = board.play_hash(p, c)
        if h == -1:
            return -1
        rule = self.ko_rule
        if rule == "positional_superko":
            if h in self.seen:
                return -1
        elif rule == "situational_superko":
            if h ^ _SIDE_KEY[3 - c] in self.seen_sit:
                return -1
        elif rule == "natural_situational_superko":
            if h ^ _SIDE_KEY[3 - c] in self.seen_nat:
                return -1
        elif h == self.ko_hash:
            return -1
        return h

    def why_illegal(self, p: int, c: int | None = None) -> str | None:
        """Why ``c`` (default: the side to move) may not play on ``p``; ``None`` if it may."""
        c = self.to_move if c is None else c
        board = self.board
        name = to_gtp(p, self.size)
        if board.color[p] != EMPTY:
            return Message(f"{name} is occupied", code="go.occupied", params={"name": name})
        h = board.play_hash(p, c)
        if h == -1:
            return (Message(f"suicide: the {COLOUR_NAMES[c]} chain at {name} would have no liberty and "
                    "the play captures nothing (禁着点)",
                        code="go.suicide_chain_would_no",
                        params={"colour_names": COLOUR_NAMES[c], "name": name}))
        rule = self.ko_rule
        if rule == "positional_superko" and h in self.seen:
            return (Message(f"positional superko: {name} would repeat the whole-board position after move "
                    f"{self.seen[h]} (全局同形再现; rules allowing this, such as simple ko, differ)",
                        code="go.positional_superko_would_repeat",
                        params={"name": name, "seen": self.seen[h]}))
        if rule == "situational_superko" and h ^ _SIDE_KEY[3 - c] in self.seen_sit:
            return (Message(f"situational superko: {name} would repeat the position after move "
                    f"{self.seen_sit[h ^ _SIDE_KEY[3 - c]]} with the same player to move",
                        code="go.situational_superko_would_repeat",
                        params={"name": name, "seen_sit": self.seen_sit[h ^ _SIDE_KEY[3 - c]]}))
        if rule == "natural_situational_superko" and h ^ _SIDE_KEY[3 - c] in self.seen_nat:
            return (Message(f"natural situational superko: {name} would repeat the position that "
                    f"{COLOUR_NAMES[c]}'s play at move {self.seen_nat[h ^ _SIDE_KEY[3 - c]]} made",
                        code="go.natural_situational_superko_would",
                        params={"name": name,
                                "colour_names": COLOUR_NAMES[c],
                                "seen_nat": self.seen_nat[h ^ _SIDE_KEY[3 - c]]}))
        if rule == "simple_ko" and h == self.ko_hash:
            return Message(f"ko: retaking at {name} at once repeats the previous position; "
                           "play elsewhere first",
                           code="go.ko_retaking_once_repeats", params={"name": name})
        return None

    def legal_points(self) -> list[int]:
        """The points where the side to move may play now (sorted; the pass is always legal)."""
        return self._without_repeats(self.legal_set.points[self.to_move])

    def legal_flags(self) -> bytearray:
        """The legal plays of the side to move in the play phase as ``board.n + 1`` flags
        (a new ``bytearray``): ``1`` at each point of :meth:`legal_points`, ``0`` elsewhere,
        and a last ``1`` for the pass (always legal). The same facts as
        :meth:`legal_actions` in the play phase, one flag per action slot, without making
        the list (the research env's action mask)."""
        c = self.to_move
        if self._repeats is None:
            self._repeats = self.legal_set.repeating(c, self.play_hash)
        out = self.legal_set.playable[c] + b"\x01"
        for p in self._repeats:
            out[p] = 0
        return out

    def _without_repeats(self, items: list) -> list:
        """A copy of ``items`` (parallel to ``legal_set.points[to_move]``) without the plays
        the ko rule forbids."""
        if self._repeats is None:
            self._repeats = self.legal_set.repeating(self.to_move, self.play_hash)
        out = items[:]
        if self._repeats:
            for i in sorted((self.legal_set.index(self.to_move, p) for p in self._repeats),
                            reverse=True):
                del out[i]
        return out

    def _may_play(self, p: int) -> bool:
        """Whether the side to move may play on the empty or occupied point ``p`` (read from
        this turn's legal set once it has been asked for)."""
        c = self.to_move
        if self._repeats is None:
            return self.play_hash(p, c) != -1
        return self.legal_set.playable[c][p] and p not in self._repeats

    def legal_actions(self, seat: int | None = None) -> list[Move | Mark]:
        if seat is None and self.result is None and self.phase == "play":
            return self._play_actions()           # fast path, the same list as the base
        return super().legal_actions(seat)

    def apply(self, action: Any, seat: int | None = None) -> None:
        if type(action) is Move and self.result is None and self.phase == "play" and (
                seat is None or seat == self.seat_of(self.to_move)):
            # fast path, the same checks as the base: a play on the board, in this turn's
            # legal set, is played at once; anything else takes the full checks below
            p = action.point
            if type(p) is int and 0 <= p < self.board.n and action.size == self.size \
                    and (repeats := self._repeats) is not None \
                    and self.legal_set.playable[self.to_move][p] and p not in repeats:
                self._play(p)
                self.log.append(self._texts[p])
                return
            text = self._action_text(action)
            self._apply_move(action)
            self.log.append(text)
            return
        super().apply(action, seat)

    def _legal_actions(self, seat: int) -> list[Move | Mark]:
        size = self.size
        if self.phase == "marking":
            board = self.board
            marks = self.marks[seat]
            out = [Mark("done", PASS, size)]
            if self.may_resume():
                out.append(Mark("resume", PASS, size))
            for h in board.chain_heads():
                if h in marks:
                    out.append(Mark("alive", min(board.stones[h]), size))
                else:
                    out.append(Mark("dead", min(board.stones[h]), size))
            return out
        return self._play_actions()

    def _play_actions(self) -> list[Move]:
        """The legal moves of the side to move in the play phase, the pass last."""
        out = self._without_repeats(self.legal_set.moves[self.to_move])
        out.append(self.legal_set.table[-1])      # the pass
        return out

    # ----- applying ---------------------------------------------------------------------
    def _action_text(self, action: Any) -> str:
        if type(action) is Move and action.size == self.size and type(action.point) is int \
                and PASS <= action.point < self.board.n:
            return self._texts[action.point]      # PASS (-1) is the last text
        return str(action)

    def _apply(self, action: Any, seat: int) -> None:
        if isinstance(action, Mark):
            self._apply_mark(action, seat)
            return
        if not isinstance(action, Move):
            raise IllegalAction("not a go action", action, code="go.not_go_action")
        if self.phase == "marking":
            raise IllegalAction("the dead-stone phase is on: mark chains with 'dead D4' / "
                                "'alive D4' and submit with 'done'", action,
                                code="go.dead_stone_phase_mark")
        self._apply_move(action)

    def _apply_move(self, action: Move) -> None:
        """Play ``action`` (a :class:`Move`) in the play phase, or raise ``IllegalAction``."""
        if action.size != self.size:
            raise IllegalAction(f"a move for a {action.size}x{action.size} board", action,
                                code="go.move_x_board", params={"size": action.size})
        p = action.point
        if type(p) is not int:
            raise IllegalAction(f"not a point: {p!r} (a point is an int)", repr(p),
                                code="go.not_point_point_int", params={"p": p})
        if p == PASS:
            self._pass()
            return
        if not 0 <= p < self.board.n:
            raise IllegalAction(f"point {p} is off the {self.size}x{self.size} board", repr(p),
                                code="go.point_off_x_board", params={"p": p, "size": self.size})
        if not self._may_play(p):
            raise IllegalAction(self.why_illegal(p) or Message("illegal", code="illegal"),
                                    action)
        self._play(p)

    def play_point(self, p: int) -> None:
        """Fast path for playouts: play ``p`` (or :data:`PASS`) for the side to move, logged
        like :meth:`apply`. Raises :class:`IllegalAction` (state unchanged) when illegal."""
        if self.result is not None or self.phase != "play":
            raise IllegalAction("not in play", p, code="go.not_play")
        if type(p) is not int or not (p == PASS or 0 <= p < self.board.n):
            raise IllegalAction(f"point {p!r} is off the {self.size}x{self.size} board", repr(p),
                                code="go.point_off_x_board", params={"p": p, "size": self.size})
        if p == PASS:
            self._pass()
        else:
            if not self._may_play(p):
                raise IllegalAction(self.why_illegal(p) or Message("illegal", code="illegal"),
                                    to_gtp(p, self.size))
            self._play(p)
        self.log.append(self._texts[p])           # PASS (-1) is the last text

    def _play(self, p: int) -> None:
        board = self.board
        c = self.to_move
        self.ko_hash = board.hash
        self.last_captures = self.legal_set.play(p, c)
        self.to_move = 3 - c
        n = len(self.moves) + 1
        h = board.hash
        self.seen.setdefault(h, n)
        if self.ko_rule == "situational_superko":
            self.seen_sit.setdefault(h ^ _SIDE_KEY[self.to_move], n)
        elif self.ko_rule == "natural_situational_superko":
            self.seen_nat.setdefault(h ^ _SIDE_KEY[self.to_move], n)
        self.moves.append(p)
        self.passes = 0
        self._repeats = None
        if n >= self.max_moves:
            self._end_of_play(guard=True)

    def _pass(self) -> None:
        self.ko_hash = self.board.hash
        self.last_captures = []
        self.to_move = 3 - self.to_move
        self.moves.append(PASS)
        n = len(self.moves)
        if self.ko_rule == "situational_superko":
            self.seen_sit.setdefault(self.board.hash ^ _SIDE_KEY[self.to_move], n)
        self.passes += 1
        self._repeats = None
        if self.passes >= 2:
            self._end_of_play(guard=False)
        elif n >= self.max_moves:
            self._end_of_play(guard=True)

    def _end_of_play(self, guard: bool) -> None:
        if not self.agreement:
            self.result = self._count(frozenset(), "max_moves" if guard else "counted")
            return
        self.phase = "marking"
        self.marks = [set(), set()]
        self.submitted = [False, False]
        self._proposal = None

    # ----- views ------------------------------------------------------------------------
    def rows(self) -> list[str]:
        """The board as text rows from the top: ``X`` Black, ``O`` White, ``.`` empty."""
        n = self.size
        text = bytes(self.board.color).translate(_ROW_LETTERS).decode()
        return [text[r * n:(r + 1) * n] for r in range(n)]

    def seen_board(self, seat: int | None) -> tuple[list[int], list[int], int | None, int]:
        """What ``view(seat)`` shows of the position, in the state's own codes, for a reader
        that needs no more of the view (the research tensor): the board's colour by point
        (``0`` empty, ``1`` Black, ``2`` White; point ``r * size + c``, row 0 at the top as
        the view's ``board`` rows; the live list, read only), the moves played (points,
        ``PASS`` for a pass; the live list, read only: its length is the view's ``moves``,
        its last entry the view's ``last_move``), the seat's colour (``1``/``2``, ``None`` for
        a spectator: the view's ``colour``) and how many stones are on the board (a reader
        keeping the board from the moves sees from it whether a stone was taken off).
        Everything is public in go, so every seat sees the same board."""
        board = self.board
        return (board.color, self.moves, self.colour_of(seat) if seat is not None else None,
                board.n - len(board.empties))

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Everything is public in go. Points are GTP texts; ``board`` rows run from the top
        (row ``size``) to the bottom (row 1), columns ``A``.. without ``I``."""
        n = self.size
        last = to_gtp(self.moves[-1], n) if self.moves else None
        phase = "over" if self.result is not None else self.phase
        out: dict[str, Any] = {
            "game": self.game.id,
            "size": n,
            "columns": GTP_COLUMNS[:n],
            "board": self.rows(),
            "seat": seat,
            "black_seat": self.black_seat,
            "colour": (COLOUR_NAMES[self.colour_of(seat)] if seat is not None else None),
            "to_move": COLOUR_NAMES[self.to_move],
            "to_act": list(self.to_act),
            "phase": phase,
            "moves": len(self.moves),
            "last_move": last,
            "last_captures": [to_gtp(p, n) for p in self.last_captures],
            "captures": {"black": self.board.prisoners[BLACK], "white": self.board.prisoners[WHITE]},
            "passes": self.passes,
            "disagreements": self.disagreements,
            "komi": self.game.komi_points() + self.game.options["handicap"],
            "result": self.result.to_json() if self.result else None,
        }
        if phase == "play":
            texts = point_texts(n)
            out["legal_moves"] = [texts[p] for p in self.legal_points()] + ["pass"]
        if phase == "marking":
            out["marking"] = {
                "marks": [sorted(to_gtp(p, n) for p in m) for m in self.marks],
                "submitted": list(self.submitted),
                "proposal": [to_gtp(p, n) for p in self.dead_proposal()],
                "actions": "dead <point> | alive <point> | done"
                           + (" | resume" if self.may_resume() else ""),
                # each seat's marks counted as the game would count them (area, rules §4.3):
                # the owner of every point ("X", "O", "." shared) and the two sides' totals
                "ownership": [self._owner_rows(frozenset(m)) for m in self.marks],
                "count": [dict(zip(("black", "white"), self.count(frozenset(m))))
                          for m in self.marks],
            }
        if phase == "over" and self.result and "black" in self.result.details:
            out["dead"] = sorted(to_gtp(p, n) for p in self.dead)
            out["score"] = {"black": self.result.details["black"],
                            "white": self.result.details["white"]}
            out["ownership"] = self._owner_rows(self.dead)
        return out

    def _owner_rows(self, dead: frozenset[int]) -> list[str]:
        """The area count's owner of every point with the stones on ``dead`` taken off, a row a
        string from the top: ``X`` Black's, ``O`` White's, ``.`` shared (a dame)."""
        n = self.size
        owners = self.board.owners(dead)
        return ["".join(".XO"[owners[r * n + c]] for c in range(n)) for r in range(n)]

    def clone(self) -> GoState:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.board = self.board.copy()
        new.legal_set = self.legal_set.copy(new.board)
        new.moves = self.moves[:]
        new.seen = dict(self.seen)
        new.seen_sit = dict(self.seen_sit)
        new.seen_nat = dict(self.seen_nat)
        new.marks = [set(m) for m in self.marks]
        new.submitted = self.submitted[:]
        new.log = list(self.log)
        new.last_captures = self.last_captures[:]
        return new

    def __repr__(self) -> str:
        return f"GoState({self.size}x{self.size}, {len(self.moves)} moves, to move: " \
               f"{COLOUR_NAMES[self.to_move]})"


def _expand_points(value: str, size: int) -> list[int]:
    """An SGF point or compressed rectangle ``aa:cc``."""
    v = value.strip()
    try:
        if ":" in v:
            a, b = v.split(":", 1)
            pa, pb = from_sgf(a, size), from_sgf(b, size)
            if PASS in (pa, pb):
                raise NotationError("a rectangle needs two points",
                                    code="notation.rectangle")
            r1, c1 = divmod(pa, size)
            r2, c2 = divmod(pb, size)
            return [r * size + c for r in range(min(r1, r2), max(r1, r2) + 1)
                    for c in range(min(c1, c2), max(c1, c2) + 1)]
        p = from_sgf(v, size)
    except NotationError as e:
        raise IllegalAction(f"setup point {value!r}: {e}",
                            code="go.setup_point", params={"value": value, **why(e, "unreadable")}) from None
    if p == PASS:
        raise IllegalAction(f"setup point {value!r} is not a point",
                            code="go.setup_point_not_point", params={"value": value})
    return [p]

