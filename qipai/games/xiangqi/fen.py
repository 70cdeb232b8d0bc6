"""Xiangqi FEN: reading (with the validity checks of the rule file, section 6) and writing.

Layout: ten ranks from rank 9 (Black's back rank) down to rank 0, separated by ``/``; digits
count empty points; letters K A B N R C P (uppercase Red, lowercase Black; ``E``/``H`` are read as
``B``/``N``); then the side to move (``w``, or ``r``, for Red; ``b`` for Black), two unused
fields (``-``), the no-capture ply counter and the move number. Fields after the board may be
omitted on input (defaults ``w - - 0 1``).

Errors are :class:`~qipai.core.errors.NotationError` whose ``field`` names the bad part:
``board``, ``rank N``, ``side to move``, ``no-capture counter``, ``move number``.
"""

from __future__ import annotations

from typing import NamedTuple

from qipai.core.errors import NotationError

from .board import (
    ADVISOR,
    ADVISOR_POINTS,
    BLACK,
    CANNON,
    ELEPHANT,
    ELEPHANT_POINTS,
    HORSE,
    KIND_LETTERS,
    KIND_NAMES,
    KING,
    KING_POINTS,
    NSQ,
    PAWN,
    RAYS,
    ROOK,
    SIDE_NAMES,
    attacked,
    find_king,
    sq_name,
)

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

_LETTER_KIND = {"K": KING, "A": ADVISOR, "B": ELEPHANT, "E": ELEPHANT, "N": HORSE, "H": HORSE,
                "R": ROOK, "C": CANNON, "P": PAWN}
START_COUNTS = {KING: 1, ADVISOR: 2, ELEPHANT: 2, HORSE: 2, ROOK: 2, CANNON: 2, PAWN: 5}


_DIGITS = frozenset("0123456789")
_MAX_COUNT_DIGITS = 9        # counters beyond 999,999,999 plies are nonsense (and int() caps length)


def _is_count(text: str) -> bool:
    """True for 1..9 ASCII digits (``str.isdigit`` also takes ``²`` and ``٣``)."""
    return 0 < len(text) <= _MAX_COUNT_DIGITS and all(ch in _DIGITS for ch in text)


def _clip(text: str) -> str:
    return repr(text) if len(text) <= 20 else repr(text[:20]) + f"... ({len(text)} characters)"


class Position(NamedTuple):
    board: list[int]
    turn: int              # 0 Red, 1 Black
    no_capture: int        # plies since the last capture
    move_number: int


def piece_letter(code: int) -> str:
    letter = KIND_LETTERS[code & 7]
    return letter.lower() if code & BLACK else letter


# the letter of each square's code (0 = empty: ".")
_SQUARE_LETTER = {0: ".", **{kind | colour: piece_letter(kind | colour)
                             for kind in range(1, len(KIND_LETTERS)) for colour in (0, BLACK)}}
# the same as a bytes.translate table (a square's code is one byte)
_SQUARE_BYTES = bytes(ord(_SQUARE_LETTER.get(code, "?")) for code in range(256))


def parse_board(text: str) -> list[int]:
    rows = text.split("/")
    if len(rows) != 10:
        raise NotationError(f"expected 10 ranks separated by '/', got {len(rows)}", "board",
                            code="notation.position_syntax")
    board = [0] * NSQ
    for i, row in enumerate(rows):
        rank = 9 - i
        field = f"rank {rank}"
        file = 0
        if not row:
            raise NotationError("empty rank", field,
                                code="notation.position_syntax")
        for ch in row:
            if ch in _DIGITS:
                n = int(ch)
                if n == 0:
                    raise NotationError("'0' is not a run of empty points", field,
                                        code="notation.position_syntax")
                file += n
            else:
                kind = _LETTER_KIND.get(ch.upper())
                if kind is None:
                    raise NotationError(f"unknown piece letter {ch!r}", field,
                                        code="notation.unknown_symbol", params={"symbol": ch})
                if file >= 9:
                    raise NotationError("more than 9 points", field,
                                        code="notation.position_syntax")
                board[rank * 9 + file] = kind | (0 if ch.isupper() else BLACK)
                file += 1
            if file > 9:
                raise NotationError("more than 9 points", field,
                                    code="notation.position_syntax")
        if file != 9:
            raise NotationError(f"describes {file} points, expected 9", field,
                                code="notation.position_syntax")
    return board


def parse_fen(text: str, *, validate: bool = True, king_capture: bool = False) -> Position:
    """Read a FEN. With ``validate`` the position is checked as section 6 requires; in
    king-capture mode (``king_capture``) a check on the side not to move and facing kings are
    allowed, since that mode can reach them."""
    if not isinstance(text, str):
        raise NotationError(f"a FEN must be text, got {type(text).__name__}", "board",
                            code="notation.position_syntax")
    parts = text.split()
    if not parts:
        raise NotationError("empty FEN", "board",
                            code="notation.position_syntax")
    if len(parts) > 6:
        raise NotationError(f"too many fields ({len(parts)}, at most 6)", "board",
                            code="notation.position_syntax")
    board = parse_board(parts[0])
    side_text = parts[1] if len(parts) > 1 else "w"
    if side_text in ("w", "r", "W", "R"):
        turn = 0
    elif side_text in ("b", "B"):
        turn = 1
    else:
        raise NotationError(f"expected 'w' (or 'r') or 'b', got {side_text!r}", "side to move",
                            code="notation.bad_side_to_move", params={"value": side_text})
    no_capture = 0
    move_number = 1
    if len(parts) > 4:
        if not _is_count(parts[4]):
            raise NotationError(f"expected a non-negative integer of at most {_MAX_COUNT_DIGITS} digits, "
                                f"got {_clip(parts[4])}", "no-capture counter",
                                code="notation.position_syntax")
        no_capture = int(parts[4])
    if len(parts) > 5:
        if not _is_count(parts[5]) or int(parts[5]) < 1:
            raise NotationError(f"expected a positive integer of at most {_MAX_COUNT_DIGITS} digits, "
                                f"got {_clip(parts[5])}", "move number",
                                code="notation.position_syntax")
        move_number = int(parts[5])
    if validate:
        validate_position(board, turn, king_capture=king_capture)
    else:
        for side in (0, 1):
            if find_king(board, side) < 0 or board.count(KING | (BLACK if side else 0)) != 1:
                raise NotationError(f"{SIDE_NAMES[side]} must have exactly one king", "board",
                                    code="notation.position_impossible")
    return Position(board, turn, no_capture, move_number)


def validate_position(board: list[int], turn: int, *, king_capture: bool = False) -> None:
    """Raise :class:`NotationError` unless the position is one the rules can reach."""
    counts: dict[int, int] = {}
    for sq, code in enumerate(board):
        if not code:
            continue
        counts[code] = counts.get(code, 0) + 1
        side = code >> 3
        kind = code & 7
        where = f"rank {sq // 9}"
        name = f"{SIDE_NAMES[side]} {KIND_NAMES[kind]} on {sq_name(sq)}"
        if kind == KING and sq not in KING_POINTS[side]:
            raise NotationError(f"{name} is outside its palace", where,
                                code="notation.position_impossible")
        if kind == ADVISOR and sq not in ADVISOR_POINTS[side]:
            raise NotationError(f"{name} stands on a point an advisor can never reach", where,
                                code="notation.position_impossible")
        if kind == ELEPHANT and sq not in ELEPHANT_POINTS[side]:
            raise NotationError(f"{name} stands on a point an elephant can never reach", where,
                                code="notation.position_impossible")
        if kind == PAWN:
            rank, file = sq // 9, sq % 9
            own = rank if side == 0 else 9 - rank      # ranks counted from its own back rank
            if own <= 2 or (own <= 4 and file % 2 == 1):
                raise NotationError(f"{name} stands on a point a pawn can never reach", where,
                                    code="notation.position_impossible")
    for side in (0, 1):
        colour = BLACK if side else 0
        total = 0
        for kind, most in START_COUNTS.items():
            n = counts.get(kind | colour, 0)
            total += n
            if n > most:
                raise NotationError(f"{SIDE_NAMES[side]} has {n} {KIND_NAMES[kind]}s (at most {most})",
                                    "board",
                                    code="notation.position_impossible")
        if counts.get(KING | colour, 0) != 1:
            raise NotationError(f"{SIDE_NAMES[side]} has no king", "board",
                                code="notation.position_impossible")
        if total > 16:
            raise NotationError(f"{SIDE_NAMES[side]} has {total} pieces (at most 16)", "board",
                                code="notation.position_impossible")
    if king_capture:
        return
    rk, bk = find_king(board, 0), find_king(board, 1)
    if rk % 9 == bk % 9 and not any(board[s] for s in RAYS[rk][0] if s < bk):
        raise NotationError("the kings face each other on an open file", "board",
                            code="notation.position_impossible")
    other = turn ^ 1
    if attacked(board, bk if other else rk, other):
        raise NotationError(f"{SIDE_NAMES[other]} is in check but {SIDE_NAMES[turn]} is to move",
                            "side to move",
                            code="notation.position_impossible")


def board_rows(board: list[int]) -> list[str]:
    """The ranks 9 (Black's back rank) down to 0, files a..i, as letters (``piece_letter``)
    with ``.`` for an empty point."""
    text = bytes(board).translate(_SQUARE_BYTES).decode()
    return [text[rank * 9:rank * 9 + 9] for rank in range(9, -1, -1)]


def board_to_fen(board: list[int], turn: int = 0, no_capture: int = 0, move_number: int = 1) -> str:
    return rows_to_fen(board_rows(board), turn, no_capture, move_number)


def rows_to_fen(rows: list[str], turn: int = 0, no_capture: int = 0, move_number: int = 1) -> str:
    """The FEN of a position given by its :func:`board_rows`."""
    placement = "/".join(rows)
    for dots, digit in _EMPTY_RUNS:          # the longest runs first: each run is replaced whole
        placement = placement.replace(dots, digit)
    return f"{placement} {'wb'[turn]} - - {no_capture} {move_number}"


_EMPTY_RUNS = [("." * n, str(n)) for n in range(9, 0, -1)]
