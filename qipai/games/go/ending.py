"""The end of a game of go (rules/go.md §4): marking dead stones after two passes, resuming
play, counting the score, the results of a count, a forfeit or a recorded result, and the
arbiter's decisions."""

from __future__ import annotations

import re

from qipai.core.errors import IllegalAction, NotationError, why
from qipai.core.game import Result

from .actions import Mark, result_margin
from .board import BLACK, EMPTY, WHITE
from .coords import parse_point, to_gtp


class Ending:
    """The end of a game of :class:`~.rules.GoState` (which mixes this in): the dead-stone
    phase, counting and the results."""

    def _apply_mark(self, mark: Mark, seat: int) -> None:
        if self.phase != "marking":
            raise IllegalAction("dead stones are marked only after two passes end play", mark,
                                code="go.dead_stones_marked_only")
        if mark.size != self.size:
            raise IllegalAction(f"a mark for a {mark.size}x{mark.size} board", mark,
                                code="go.mark_x_board", params={"size": mark.size})
        if mark.kind == "done":
            self.submitted[seat] = True
            if all(self.submitted):
                self._resolve_marks()
            return
        if mark.kind == "resume":
            if len(self.moves) >= self.max_moves:
                raise IllegalAction(f"play cannot resume: the {self.max_moves}-move guard is "
                                    "reached", mark,
                                    code="go.play_cannot_resume_move", params={"max_moves": self.max_moves})
            if self.disagreements:
                raise IllegalAction("play has already resumed once after a disagreement: submit "
                                    "your marks with 'done' (if they still differ, every stone "
                                    "counts as alive, rules §4.2)", mark,
                                    code="go.play_already_resumed_once")
            self.disagreements += 1      # refusing the end is a disagreement (rules §4.2)
            self._resume()
            return
        p = mark.point
        board = self.board
        if type(p) is not int or not 0 <= p < board.n or board.color[p] == EMPTY:
            raise IllegalAction("there is no stone there to mark", mark, code="go.no_stone_mark")
        chain = board.chain(p)
        marks = self.marks[seat]
        if mark.kind == "dead":
            if p in marks:
                raise IllegalAction("that chain is already marked dead", mark,
                                    code="go.chain_already_marked_dead")
            marks.update(chain)
        elif mark.kind == "alive":
            if p not in marks:
                raise IllegalAction("that chain is not marked dead", mark, code="go.chain_not_marked_dead")
            marks.difference_update(chain)
        else:
            raise IllegalAction(f"unknown mark {mark.kind!r}", mark,
                                code="go.unknown_mark", params={"kind": mark.kind})

    def may_resume(self) -> bool:
        """Whether ``resume`` is open in the dead-stone phase: once per game (a refusal is a
        disagreement, and the second disagreement is counted, rules §4.2) and before the
        ``max_moves`` guard."""
        return self.disagreements == 0 and len(self.moves) < self.max_moves

    def _resolve_marks(self) -> None:
        a, b = self.marks
        if a == b:
            self.result = self._count(frozenset(a), "counted")
            return
        self.disagreements += 1
        if self.disagreements >= 2 or len(self.moves) >= self.max_moves:
            self.result = self._count(frozenset(), "counted", disagreed=True)
            return
        self._resume()

    def _resume(self) -> None:
        # play resumes; the side that did not pass last (the side to move) plays first
        self.phase = "play"
        self.passes = 0
        self.marks = [set(), set()]
        self.submitted = [False, False]
        self._repeats = None

    # ----- scoring ----------------------------------------------------------------------
    def count(self, dead=frozenset()) -> tuple[float, float]:
        """Area count ``(black, white)`` of the board with the stones on ``dead`` removed."""
        return self.board.area(frozenset(dead))

    def _count(self, dead: frozenset[int], reason: str, disagreed: bool = False) -> Result:
        self.phase = "over"
        self.dead = dead
        b, w = self.board.area(dead)
        komi = self.game.komi_points() + self.game.options["handicap"]
        margin = (b - w) - komi
        details = {"black": b, "white": w, "komi": komi, "margin_points": margin,
                   "margin_stones": margin / 2, "dead": sorted(to_gtp(p, self.size) for p in dead),
                   "black_seat": self.black_seat, "moves": len(self.moves)}
        if disagreed:
            details["marks_disagreed"] = True
        return self._score_result(margin, reason, details)

    def _score_result(self, margin: float, reason: str, details: dict | None = None) -> Result:
        details = dict(details or {})
        details.setdefault("black_seat", self.black_seat)
        if margin == 0:
            return Result((0.5, 0.5), reason, "0", (), details)
        winner_colour = BLACK if margin > 0 else WHITE
        seat = self.seat_of(winner_colour)
        returns = [0.0, 0.0]
        returns[seat] = 1.0
        text = f"{'B' if winner_colour == BLACK else 'W'}+{abs(margin):g}"
        return Result(tuple(returns), reason, text, (seat,), details)

    def _loss_result(self, seat: int, reason: str) -> Result:
        winner = 1 - seat
        letter = "B" if self.colour_of(winner) == BLACK else "W"
        code = {"resign": "R", "timeout": "T"}.get(reason, "F")
        returns = [0.0, 0.0]
        returns[winner] = 1.0
        return Result(tuple(returns), reason, f"{letter}+{code}", (winner,),
                      {"black_seat": self.black_seat})

    def _draw_result(self, reason: str) -> Result:
        return Result((0.5, 0.5), reason, "0", (), {"black_seat": self.black_seat})

    def _result_from_text(self, text: str, reason: str) -> Result:
        t = text.strip()
        low = t.lower()
        if low in ("0", "draw", "jigo", "b+0", "w+0", "b+0.0", "w+0.0"):
            return self._draw_result(reason)
        m = re.fullmatch(r"([bw])\+(.*)", low)
        if not m:
            raise IllegalAction(f"unknown go result {text!r} (expected B+R, W+T, B+3.5, 0, ...)",
                                code="go.unknown_go_result_expected", params={"text": text})
        colour = BLACK if m.group(1) == "b" else WHITE
        rest = m.group(2)
        words = {"r": "R", "resign": "R", "t": "T", "time": "T", "f": "F", "forfeit": "F"}
        if rest in words or rest == "":
            seat = self.seat_of(colour)
            returns = [0.0, 0.0]
            returns[seat] = 1.0
            code = words.get(rest, "")
            return Result(tuple(returns), reason, f"{m.group(1).upper()}+{code}", (seat,),
                          {"black_seat": self.black_seat})
        x = result_margin(rest)
        if x is None:
            raise IllegalAction(f"unknown go result {text!r} (the margin must be a finite number "
                                "of points, 0 or more, a multiple of 0.25)",
                                code="go.unknown_go_result_margin", params={"text": text})
        return self._score_result(x if colour == BLACK else -x, reason)

    # ----- external endings ---------------------------------------------------------------
    def arbiter_decide(self, dead) -> None:
        """The organizer rules which stones are dead (points or GTP/SGF texts; whole chains)
        and the game is counted (reason ``arbiter``). Allowed in the dead-stone phase and in
        play resumed after a disagreement. Raises :class:`IllegalAction`."""
        if self.result is not None:
            raise IllegalAction(f"the game is over ({self.result.reason})",
                                code="go.game_over", params={"reason": self.result.reason})
        if self.phase != "marking" and self.disagreements == 0:
            raise IllegalAction("the arbiter decides dead stones only after play has ended or "
                                "the players disagreed", code="go.arbiter_decides_dead_stones")
        points = set()
        for d in dead:
            try:
                p = parse_point(d, self.size) if isinstance(d, str) else d
            except NotationError as e:
                raise IllegalAction(str(e), d, code="bad_notation",
                                    params={"text": str(d), **why(e, "unreadable")}) from None
            if type(p) is not int or not 0 <= p < self.board.n or self.board.color[p] == EMPTY:
                raise IllegalAction(f"no stone on {d}", code="go.no_stone", params={"d": d})
            points.update(self.board.chain(p))
        self.result = self._count(frozenset(points), "arbiter")

    def forced_count(self, reason: str = "arbiter") -> None:
        """Stop the game and count it as it stands, every stone alive (§5.2 ``count``; the
        referee's forced count of competition.md §5.7). ``reason``: ``arbiter`` or ``timeout``."""
        if self.result is not None:
            raise IllegalAction(f"the game is over ({self.result.reason})",
                                code="go.game_over", params={"reason": self.result.reason})
        if reason not in ("arbiter", "timeout"):
            raise IllegalAction("a forced count has the reason 'arbiter' or 'timeout'",
                                code="go.forced_count_reason_arbiter")
        self.result = self._count(frozenset(), reason)

    # ----- dead-stone proposal ----------------------------------------------------------
    def dead_proposal(self) -> list[int]:
        """The dead stones the proposer suggests for the current board (a suggestion only;
        see :mod:`.life`). Cached until the board changes."""
        if self._proposal is None:
            from .life import propose_dead

            self._proposal = sorted(propose_dead(self.board))
        return self._proposal

    # ----- score estimate during play ---------------------------------------------------
    def estimate(self) -> dict:
        """A score estimate of the current board on request (as OGS offers one during play;
        see :func:`.life.estimate`): the stones it takes as dead (GTP points), the owner of
        every point as the view's ``ownership`` rows (``X``, ``O``, ``.``), each side's area
        with those owners, the komi and the margin (Black's area - White's - komi; > 0 Black
        ahead). Public: it reads the board alone, which every seat sees."""
        from .coords import to_gtp
        from .life import estimate

        dead, owners = estimate(self.board)
        n = self.size
        black = float(sum(1 for o in owners if o == BLACK))
        white = float(sum(1 for o in owners if o == WHITE))
        shared = n * n - black - white
        black += shared / 2
        white += shared / 2
        komi = self.game.komi_points() + self.game.options["handicap"]
        return {"moves": len(self.moves), "dead": sorted(to_gtp(p, n) for p in dead),
                "ownership": ["".join(".XO"[owners[r * n + c]] for c in range(n)) for r in range(n)],
                "black": black, "white": white, "komi": komi, "margin": black - white - komi}
