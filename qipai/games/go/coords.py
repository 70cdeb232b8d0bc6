"""Go coordinates: GTP (``D4``, ``pass``) and SGF (``dp``, ``[]``) for points of a board.

A point is the int ``row * size + col`` with row 0 at the top and column 0 at the left, as in
SGF (rules §6). :data:`PASS` (``-1``) is the pass.

* GTP: column letters ``A``..``T`` without ``I``, row numbers from the **bottom** (1..size);
  ``pass``. Case-insensitive on input; written uppercase.
* SGF: two lowercase letters, column then row, both from the **top-left**; a pass is the empty
  value, and ``tt`` is read as a pass on boards up to 19x19.
"""

from __future__ import annotations

from qipai.core.errors import Message, NotationError

PASS = -1
GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"   # no I
SGF_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def to_gtp(point: int, size: int) -> str:
    """``D4`` style text of ``point`` (``pass`` for :data:`PASS`)."""
    if point == PASS:
        return "pass"
    r, c = divmod(point, size)
    return f"{GTP_COLUMNS[c]}{size - r}"


def from_gtp(text: str, size: int) -> int:
    """The point written ``text`` in GTP (``D4``, ``q16``, ``pass``).

    Raises :class:`NotationError` for a column ``I``, a letter or number off the board, a row
    with a leading zero (``D04``), or anything else that is not a GTP vertex.
    """
    t = text.strip()
    if t.lower() == "pass":
        return PASS
    if len(t) < 2 or not t.isascii() or not t[0].isalpha() or not t[1:].isdecimal():
        raise NotationError(Message(f"not a GTP point: {text!r} (expected a column letter and a row, "
                                    "like D4, or pass)", code="go.not_gtp_point", params={"point": text}))
    if len(t) > 2 and t[1] == "0":
        fix = f"{t[0]}{t[1:].lstrip('0') or '0'}"
        raise NotationError(Message(f"not a GTP point: {text!r} (GTP rows have no leading zero: {fix})",
                                    code="go.gtp_leading_zero", params={"point": text, "fix": fix}))
    letter = t[0].upper()
    if letter == "I":
        raise NotationError(Message(f"GTP has no column I: {text!r} (the columns are {GTP_COLUMNS[:size]})",
                                    code="go.gtp_no_i",
                                    params={"point": text, "columns": GTP_COLUMNS[:size]}))
    c = GTP_COLUMNS.find(letter)
    row = int(t[1:])
    if not 0 <= c < size or not 1 <= row <= size:
        raise NotationError(Message(f"{text!r} is off the {size}x{size} board (columns "
                                    f"{GTP_COLUMNS[0]}-{GTP_COLUMNS[size - 1]}, rows 1-{size})",
                                    code="go.off_board", params={"point": text, "size": size,
                                                                 "last": GTP_COLUMNS[size - 1]}))
    return (size - row) * size + c


def to_sgf(point: int, size: int) -> str:
    """The two SGF letters of ``point`` (empty text for a pass)."""
    if point == PASS:
        return ""
    r, c = divmod(point, size)
    return SGF_LETTERS[c] + SGF_LETTERS[r]


def from_sgf(text: str, size: int) -> int:
    """The point of the SGF value ``text`` (``""`` and, up to 19x19, ``tt`` are passes).

    Raises :class:`NotationError` when it is not two letters on the board.
    """
    t = text.strip()
    if t == "" or (t == "tt" and size <= 19):
        return PASS
    if len(t) != 2 or not t.isascii() or not t.isalpha() or not t.islower():
        raise NotationError(Message(f"not an SGF point: {text!r} (expected two lowercase letters a-z)",
                                    code="go.not_sgf_point", params={"point": text}))
    c = SGF_LETTERS.index(t[0])
    r = SGF_LETTERS.index(t[1])
    if c >= size or r >= size:
        raise NotationError(Message(f"SGF point {text!r} is off the {size}x{size} board",
                                    code="go.sgf_off_board", params={"point": text, "size": size}))
    return r * size + c


def parse_point(text: str, size: int) -> int:
    """A point in GTP (``D4``) or SGF (``dp``) letters; ``pass`` too. Raises NotationError."""
    t = text.strip()
    if len(t) == 2 and t.isalpha() and t.islower() and t != "tt":    # non-ASCII: refused there
        return from_sgf(t, size)
    return from_gtp(t, size)
