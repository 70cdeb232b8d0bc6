"""The position text of a 军棋 game (rules/junqi.md): reading a position into the state (with the
check that every undecided piece is one a seat may still hold) and writing the state's position."""

from __future__ import annotations

from ...core.errors import NotationError
from .pieces import CODE, PIECE


class PositionText:
    """The position text of :class:`~.game.JunqiState` (which mixes this in)."""

    # ----- position text ---------------------------------------------------------------------
    def _load_position(self, text: str) -> None:
        b, ns = self.board, self.num_seats
        letters = b.seats
        if not isinstance(text, str) or not text.strip():
            raise NotationError("empty position", "position",
                                code="notation.position_syntax")

        def seat_of(letter: str) -> int:
            if letter.upper() not in letters:
                raise NotationError(f"no seat {letter!r} (seats: {' '.join(letters)})", "position",
                                    code="notation.unknown_symbol", params={"symbol": letter})
            return letters.index(letter.upper())

        def numbers(v: str, key: str) -> list[int]:
            parts = v.split(",")
            if len(parts) != ns or not all(x.isdecimal() for x in parts):
                raise NotationError(f"{key}= needs {ns} counts separated by commas", "position",
                                    code="notation.position_syntax")
            return [int(x) for x in parts]

        for tok in text.split():
            key, eq, val = tok.partition("=")
            if ":" in key:                           # S:a4=33
                letter, _, pt = key.partition(":")
                s = seat_of(letter)
                try:
                    p = b.point(pt)
                except KeyError:
                    raise NotationError(f"no point {pt!r} in {tok!r}", "position",
                                        code="notation.unknown_symbol", params={"symbol": pt}) from None
                piece = PIECE.get(val.upper())
                if not eq or piece is None:
                    raise NotationError(f"{tok!r}: expected seat:point=code", "position",
                                        code="notation.position_syntax")
                if self.own[p] >= 0:
                    raise NotationError(f"{b.names[p]} holds two pieces", "position",
                                        code="notation.position_impossible")
                self.own[p], self.kind[p] = s, piece
            elif key == "turn" and eq:
                self.to_move = seat_of(val)
            elif key == "quiet" and eq and val.isdecimal():
                self.quiet = int(val)
            elif key == "attacks" and eq:
                self.attacks = numbers(val, key)
            elif key == "timeouts" and eq:
                self.timeouts = numbers(val, key)
            elif key == "out" and eq:
                for x in val.split(","):
                    self.eliminated[seat_of(x)] = "position"
            elif key == "revealed" and eq:
                for x in val.split(","):
                    self.flag_revealed[seat_of(x)] = True
            elif key == "moved" and eq:
                for x in val.split(","):
                    try:
                        self.moved[b.point(x)] = True
                    except KeyError:
                        raise NotationError(f"no point {x!r} in {tok!r}", "position",
                                            code="notation.unknown_symbol", params={"symbol": x}) from None
            else:
                raise NotationError(f"unknown token {tok!r}", "position",
                                    code="notation.unknown_symbol", params={"symbol": tok})
        for p in range(b.n):
            if self.own[p] >= 0 and self.eliminated[self.own[p]]:
                raise NotationError(f"{b.names[p]}: an eliminated seat has no pieces", "position",
                                    code="notation.position_impossible")
        if self.eliminated[self.to_move]:
            raise NotationError("the seat to move is eliminated", "position",
                                code="notation.position_impossible")
        self._check_undecided()
        self.placed = [True] * ns
        self.phase = "play"
        self._next_turn(self.to_move)

    def _check_undecided(self) -> None:
        """A test position must be a game still running (§6): no ``luzhan`` seat out, no whole
        ``siguo`` team out, no seat still in at ``max_timeouts``, the no-progress counter below
        ``no_capture_moves``. Raises :class:`NotationError`."""
        opts, L = self.game.options, self.board.seats
        out = [s for s in range(self.num_seats) if self.eliminated[s]]
        if self.luzhan and out:
            raise NotationError(f"out={L[out[0]]}: a luzhan seat out means the game is over",
                                "position",
                                code="notation.position_impossible")
        for side in self.sides():
            if all(self.eliminated[s] for s in side):
                raise NotationError(f"out=: the team {'+'.join(L[s] for s in side)} is out, "
                                    "so the game is over", "position",
                                    code="notation.position_impossible")
        for s in range(self.num_seats):
            if not self.eliminated[s] and self.timeouts[s] >= opts["max_timeouts"]:
                raise NotationError(f"timeouts=: {L[s]} has reached max_timeouts "
                                    f"({opts['max_timeouts']}), so it is out", "position",
                                    code="notation.position_impossible")
        if self.quiet >= opts["no_capture_moves"]:
            raise NotationError(f"quiet={self.quiet}: the no-progress limit "
                                f"({opts['no_capture_moves']}) ends the game", "position",
                                code="notation.position_impossible")

    def position_text(self) -> str:
        """The position in the notation ``new_state(position=...)`` reads: ``S:a4=33`` pieces,
        then ``turn=``, ``quiet=``, ``attacks=``, ``timeouts=`` and, when any, ``out=``,
        ``revealed=``, ``moved=``."""
        b, L = self.board, self.board.seats
        parts = [f"{L[self.own[p]]}:{b.names[p]}={CODE[self.kind[p]]}"
                 for p in range(b.n) if self.own[p] >= 0]
        parts.append(f"turn={L[self.to_move]}")
        parts.append(f"quiet={self.quiet}")
        parts.append("attacks=" + ",".join(map(str, self.attacks)))
        parts.append("timeouts=" + ",".join(map(str, self.timeouts)))
        out = [L[s] for s in range(self.num_seats) if self.eliminated[s]]
        if out:
            parts.append("out=" + ",".join(out))
        rev = [L[s] for s in range(self.num_seats) if self.flag_revealed[s]]
        if rev:
            parts.append("revealed=" + ",".join(rev))
        moved = [b.names[p] for p in range(b.n) if self.moved[p] and self.own[p] >= 0]
        if moved:
            parts.append("moved=" + ",".join(moved))
        return " ".join(parts)
