"""Xiangqi move notation beyond ICCS: WXF and Chinese move text, read and written.

Reading (:func:`parse_move`) accepts

* **WXF**: ``C2=5``, ``H8+7``, ``R+=6``, ``C--1``; ``.`` for ``=``; ``B``/``N`` for ``E``/``H``;
  tandem pawns as in rules/xiangqi.md §6 (``P+``, ``P-``, ``++``, ``--``, ``7+=6``, ``77=6``);
* **Chinese text**, simplified or traditional: ``炮二平五``, ``马８进７``, ``馬8進7``, ``前車進二``,
  ``後炮進三``, ``中兵平四``, ``二兵进一`` (4-5 pawns on a file), ``前七平六`` (tandem pawns on two
  files). Piece names of either colour are accepted for either side, file numbers in Chinese
  numerals, half-width or full-width digits for either side (the side to move is known, so the
  digit style carries no meaning);
* **ICCS** with a leading PGN move number (``1. h2e2``); plain ICCS is read by the game itself.

Surrounding whitespace and a leading PGN move number (``12.``, ``12...``) are ignored.

Under-specified text is resolved by legality, as an arbiter reads a score sheet: every own
piece that fits the text is tried; if exactly one of the resulting moves is legal it is the
move, if none is legal :class:`~qipai.IllegalAction` says ``no legal move matches``, and if
several are legal it says ``ambiguous``. So ``炮八平五`` with two cannons on file 8 is accepted
when only one of them can go to file 5.

Writing: :func:`to_wxf` and :func:`to_chinese` (Red files in Chinese numerals, Black files in
digits; ``前``/``后`` for two pieces of a kind on one file, ``前``/``中``/``后`` for three pawns,
``前``/``二``/``三``/``四``/``后`` for four or five, and the file numeral in place of the piece name
when two files both hold several pawns: ``前七平六``). Parsing what they write gives the move back.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...core.errors import IllegalAction, Message

__all__ = ["parse_move", "to_wxf", "to_chinese", "looks_like_move", "strip_move_number"]

RED, BLACK = 0, 1
STRAIGHT = frozenset("KRCP")          # forward/backward number = ranks moved
DIAGONAL = {"A": (1,), "B": (2,)}      # |file change| allowed for + and - moves
WXF_LETTER = {"K": "K", "A": "A", "B": "E", "N": "H", "R": "R", "C": "C", "P": "P"}
WXF_INPUT = {"K": "K", "A": "A", "E": "B", "B": "B", "H": "N", "N": "N", "R": "R", "C": "C", "P": "P"}

CN_NUMERALS = "一二三四五六七八九"
FULLWIDTH_DIGITS = "１２３４５６７８９"
NAMES = {
    # (traditional, side) -> piece type -> name
    (False, RED): {"K": "帅", "A": "仕", "B": "相", "N": "马", "R": "车", "C": "炮", "P": "兵"},
    (False, BLACK): {"K": "将", "A": "士", "B": "象", "N": "马", "R": "车", "C": "炮", "P": "卒"},
    (True, RED): {"K": "帥", "A": "仕", "B": "相", "N": "馬", "R": "車", "C": "炮", "P": "兵"},
    (True, BLACK): {"K": "將", "A": "士", "B": "象", "N": "馬", "R": "車", "C": "炮", "P": "卒"},
}
VERBS = {False: {"+": "进", "-": "退", "=": "平"}, True: {"+": "進", "-": "退", "=": "平"}}
POSITIONS = {False: {"F": "前", "M": "中", "B": "后"}, True: {"F": "前", "M": "中", "B": "後"}}

# Chinese input: every accepted character mapped to a normalised token.
_CN_PIECES = {
    "帅": "K", "帥": "K", "将": "K", "將": "K",
    "仕": "A", "士": "A",
    "相": "B", "象": "B",
    "马": "N", "馬": "N", "傌": "N", "碼": "N",
    "车": "R", "車": "R", "俥": "R", "伡": "R",
    "炮": "C", "砲": "C", "包": "C",
    "兵": "P", "卒": "P",
}
_CN_OTHER = {"进": "+", "進": "+", "退": "-", "平": "=", "前": "f", "后": "b", "後": "b", "中": "m"}
_CN_MAP: dict[str, str] = {**_CN_PIECES, **_CN_OTHER}
_CN_MAP.update({c: str(i) for i, c in enumerate(CN_NUMERALS, 1)})
_CN_MAP.update({c: str(i) for i, c in enumerate(FULLWIDTH_DIGITS, 1)})
_CN_MAP.update({str(i): str(i) for i in range(1, 10)})

_MOVE_NUMBER = re.compile(r"^\d+\s*(?:\.+|、|…+)\s*")
_ICCS = re.compile(r"^([a-iA-I])([0-9])-?([a-iA-I])([0-9])$")
_WXF = re.compile(r"^([KAEBHNRCPkaebhnrcp][1-9+\-]|[+\-]{2}|[1-9][1-9+\-])([+\-=.])([1-9])$")


# ----- board geometry ----------------------------------------------------------------------

def _file_number(side: int, file: int) -> int:
    """File 0..8 (a..i) as the mover numbers it: 1..9 from its own right-hand side."""
    return 9 - file if side == RED else file + 1


def _file_index(side: int, number: int) -> int:
    return 9 - number if side == RED else number - 1


def _forward(side: int) -> int:
    return 1 if side == RED else -1


def _letter(side: int, ptype: str) -> str:
    return ptype if side == RED else ptype.lower()


def _column(state, side: int, ptype: str, file: int) -> list[int]:
    """Squares of the mover's pieces of ``ptype`` on ``file``, the foremost first."""
    letter = _letter(side, ptype)
    squares = [r * 9 + file for r in range(10) if state.piece_at(r * 9 + file) == letter]
    return squares[::-1] if side == RED else squares


def _columns(state, side: int, ptype: str) -> dict[int, list[int]]:
    """File -> squares (foremost first) for every file holding a piece of ``ptype``."""
    out = {}
    for file in range(9):
        col = _column(state, side, ptype, file)
        if col:
            out[file] = col
    return out


def _destination(sq: int, side: int, ptype: str, verb: str, number: int) -> int | None:
    """Where the piece on ``sq`` goes for ``verb`` (+ - =) and ``number``; None if impossible."""
    rank, file = divmod(sq, 9)
    if verb == "=":
        to_file = _file_index(side, number)
        if ptype not in STRAIGHT or to_file == file:
            return None
        return rank * 9 + to_file
    sign = _forward(side) * (1 if verb == "+" else -1)
    if ptype in STRAIGHT:
        to_rank, to_file = rank + sign * number, file
    else:
        to_file = _file_index(side, number)
        df = abs(to_file - file)
        if ptype == "N":
            dr = {1: 2, 2: 1}.get(df)
        else:
            dr = DIAGONAL[ptype][0] if df in DIAGONAL[ptype] else None
        if dr is None:
            return None
        to_rank = rank + sign * dr
    if not 0 <= to_rank <= 9:
        return None
    return to_rank * 9 + to_file


def _verb_and_number(side: int, ptype: str, from_sq: int, to_sq: int) -> tuple[str, int]:
    fr, ff = divmod(from_sq, 9)
    tr, tf = divmod(to_sq, 9)
    if fr == tr:
        return "=", _file_number(side, tf)
    verb = "+" if (tr - fr) * _forward(side) > 0 else "-"
    number = abs(tr - fr) if ptype in STRAIGHT else _file_number(side, tf)
    return verb, number


def _mover(state, move) -> tuple[int, str]:
    piece = state.piece_at(move.from_sq)
    if piece is None:
        raise IllegalAction(f"no piece on the from-point of {move}", move,
                            code="xiangqi.no_piece_point", params={"move": move})
    side = RED if piece.isupper() else BLACK
    return side, piece.upper()


def _pawn_tandem_files(state, side: int) -> int:
    return sum(1 for col in _columns(state, side, "P").values() if len(col) >= 2)


# ----- writing -----------------------------------------------------------------------------

def to_wxf(state, move) -> str:
    """``move`` (made from ``state``) in WXF, e.g. ``C2=5``, ``R+=6``, ``7-=6``."""
    side, ptype = _mover(state, move)
    verb, number = _verb_and_number(side, ptype, move.from_sq, move.to_sq)
    file = move.from_sq % 9
    col = _column(state, side, ptype, file)
    i, n = col.index(move.from_sq), len(col)
    letter, digit = WXF_LETTER[ptype], str(_file_number(side, file))
    if n == 1:
        who = letter + digit
    elif ptype != "P" or _pawn_tandem_files(state, side) == 1:
        marks = {2: ["+", "-"], 3: ["+", digit, "-"], 4: ["++", "+", "-", "--"],
                 5: ["++", "+", digit, "-", "--"]}[n]
        who = marks[i] if len(marks[i]) == 2 else letter + marks[i]
    else:
        who = digit + {2: ["+", "-"], 3: ["+", digit, "-"]}[n][i]
    return f"{who}{verb}{number}"


def _numeral(side: int, number: int, fullwidth: bool) -> str:
    if side == RED:
        return CN_NUMERALS[number - 1]
    return FULLWIDTH_DIGITS[number - 1] if fullwidth else str(number)


def to_chinese(state, move, traditional: bool = False, fullwidth: bool = False) -> str:
    """``move`` (made from ``state``) in Chinese text, e.g. ``炮二平五``, ``马8进7``, ``前车进二``.

    ``traditional`` writes traditional characters (``馬8進7``); ``fullwidth`` writes Black's
    digits full-width (``馬８進７``), as xqbase-style PGN files do.
    """
    side, ptype = _mover(state, move)
    verb, number = _verb_and_number(side, ptype, move.from_sq, move.to_sq)
    file = move.from_sq % 9
    col = _column(state, side, ptype, file)
    i, n = col.index(move.from_sq), len(col)
    name = NAMES[(traditional, side)][ptype]
    pos = POSITIONS[traditional]
    tail = VERBS[traditional][verb] + _numeral(side, number, fullwidth)
    if n == 1:
        return name + _numeral(side, _file_number(side, file), fullwidth) + tail
    if n == 2:
        marks = [pos["F"], pos["B"]]
    elif n == 3:
        marks = [pos["F"], pos["M"], pos["B"]]
    else:
        marks = [pos["F"], *CN_NUMERALS[1:n - 1], pos["B"]]
    if ptype == "P" and _pawn_tandem_files(state, side) > 1:
        return marks[i] + _numeral(side, _file_number(side, file), fullwidth) + tail
    return marks[i] + name + tail


# ----- reading -----------------------------------------------------------------------------

# A designator picks pieces from the columns: (file index or None, how to pick in a column of
# n pieces -> indexes, preferred index or None). File None means every column of >= 2 pieces.
Picker = Callable[[int], list[int]]


def _all(n: int) -> list[int]:
    return list(range(n))


def _middle(n: int) -> list[int]:
    return [n // 2] if n in (3, 5) else []


def _wxf_front(n: int) -> list[int]:
    return [0] if n in (2, 3) else [1] if n in (4, 5) else []


def _wxf_back(n: int) -> list[int]:
    return [n - 1] if n in (2, 3) else [n - 2] if n in (4, 5) else []


def _foremost_of_many(n: int) -> list[int]:
    return [0] if n >= 4 else []


def _rearmost_of_many(n: int) -> list[int]:
    return [n - 1] if n >= 4 else []


def _front(n: int) -> list[int]:
    return [0] if n >= 2 else []


def _back(n: int) -> list[int]:
    return [n - 1] if n >= 2 else []


def _ordinal(k: int) -> Picker:
    return lambda n: [k - 1] if 2 <= n and k <= n else []


class _Spec:
    """What a move text says: piece type, which piece, verb and number."""

    def __init__(self, ptype: str, file_number: int | None, pick: Picker, verb: str,
                 number: int, prefer_middle: bool = False) -> None:
        self.ptype = ptype
        self.file_number = file_number
        self.pick = pick
        self.verb = verb
        self.number = number
        self.prefer_middle = prefer_middle  # WXF: a plain file digit names the middle pawn


def _wxf_spec(text: str) -> _Spec | None:
    m = _WXF.match(text)
    if not m:
        return None
    who, verb, number = m.group(1), m.group(2), int(m.group(3))
    verb = "=" if verb == "." else verb
    a, b = who[0], who[1]
    if a in "+-":
        if a != b:
            return None
        return _Spec("P", None, _foremost_of_many if a == "+" else _rearmost_of_many, verb, number)
    if a.isdecimal():                      # tandem pawns on several files: 7+ 7- 77
        if b == "+":
            return _Spec("P", int(a), _wxf_front, verb, number)
        if b == "-":
            return _Spec("P", int(a), _wxf_back, verb, number)
        if a != b:
            return None
        return _Spec("P", int(a), _middle, verb, number)
    ptype = WXF_INPUT[a.upper()]
    if b == "+":
        return _Spec(ptype, None, _wxf_front, verb, number)
    if b == "-":
        return _Spec(ptype, None, _wxf_back, verb, number)
    return _Spec(ptype, int(b), _all, verb, number, prefer_middle=ptype == "P")


def _chinese_spec(text: str) -> _Spec | None:
    tokens = []
    for ch in text:
        if ch.isspace():
            continue
        tok = _CN_MAP.get(ch)
        if tok is None:
            return None
        tokens.append(tok)
    s = "".join(tokens)
    # plain: piece, file, verb, number
    m = re.fullmatch(r"([KABNRCP])([1-9])([+\-=])([1-9])", s)
    if m:
        return _Spec(m.group(1), int(m.group(2)), _all, m.group(3), int(m.group(4)))
    pickers = {"f": _front, "b": _back, "m": _middle}
    # position then piece (前车进二, 二兵平四), optionally with the file (前兵七进一)
    m = re.fullmatch(r"([fbm1-5])([KABNRCP])([1-9]?)([+\-=])([1-9])", s)
    if m:
        pos = m.group(1)
        pick = pickers[pos] if pos in pickers else _ordinal(int(pos))
        file_number = int(m.group(3)) if m.group(3) else None
        return _Spec(m.group(2), file_number, pick, m.group(4), int(m.group(5)))
    # piece then position (车前进二)
    m = re.fullmatch(r"([KABNRCP])([fbm])([+\-=])([1-9])", s)
    if m:
        return _Spec(m.group(1), None, pickers[m.group(2)], m.group(3), int(m.group(4)))
    # position then file, pawns on several files (前七平六)
    m = re.fullmatch(r"([fbm])([1-9])([+\-=])([1-9])", s)
    if m:
        return _Spec("P", int(m.group(2)), pickers[m.group(1)], m.group(3), int(m.group(4)))
    return None


def strip_move_number(text: str) -> str:
    """``text`` without surrounding whitespace and a leading PGN move number (``12.``, ``12...``)."""
    text = text.strip()
    m = _MOVE_NUMBER.match(text)
    if m and not _WXF.match(text) and text[m.end():]:
        text = text[m.end():]
    return text


def _spec(text: str) -> _Spec | None:
    return _wxf_spec(text) or _chinese_spec(text)


def looks_like_move(text: str) -> bool:
    """True if ``text`` is written like a move (ICCS, WXF or Chinese), legal or not."""
    body = strip_move_number(text)
    return bool(_ICCS.match(body)) or _spec(body) is not None


PIECE_NAMES = {"K": "king", "A": "advisor", "B": "elephant", "N": "horse", "R": "rook", "C": "cannon",
               "P": "pawn"}
SIDE_NAMES = ("Red", "Black")


def _why_none(state, spec: _Spec, chosen: dict[int, list[int]], fitting) -> Message:
    """Why no legal move fits: no such piece, a piece that cannot move so, or the referee's
    reason (its catalogue entry and parameters kept: the first candidate's reason is worded in
    the reader's language, ``cause`` naming it)."""
    if fitting:
        from . import Move

        reasons, first = [], None
        for f, t, _ in fitting[:3]:
            try:
                state.clone().apply(Move(f, t))
            except IllegalAction as e:
                reasons.append(f"{Move(f, t)}: {e.reason}")
                first = first or {"move": str(Move(f, t)), "cause": e.code, **e.params}
        if first is None:
            return Message("not legal now", code="xiangqi.not_legal_now")
        return Message("; ".join(reasons), code="xiangqi.candidate_refused", params=first)
    side, kind = SIDE_NAMES[state.turn], PIECE_NAMES[spec.ptype]
    params = {"side_names": side, "kind": kind, "file": spec.file_number}
    on_file, moving = spec.file_number is not None, any(chosen.values())
    if on_file and not moving:
        return Message(f"{side} has no {kind} on file {spec.file_number}", code="xiangqi.no_piece_file",
                       params=params)
    if on_file:
        return Message(f"no {side} {kind} on file {spec.file_number} can move that way",
                       code="xiangqi.no_piece_way_file", params=params)
    if not moving:
        return Message(f"{side} has no {kind} sharing a file with another", code="xiangqi.no_piece_shared",
                       params=params)
    return Message(f"no {side} {kind} sharing a file with another can move that way",
                   code="xiangqi.no_piece_way_shared", params=params)


def parse_move(state, text: str):
    """The legal move of ``state`` written ``text`` (WXF, Chinese text, or numbered ICCS).

    Raises :class:`~qipai.IllegalAction` when the text cannot be read, when no legal move fits
    it (``no legal move matches ...``), or when several do (``ambiguous ...``).
    """
    if not isinstance(text, str):
        raise IllegalAction("a move must be text", text, code="xiangqi.move_must_text")
    body = strip_move_number(text)
    m = _ICCS.match(body)
    if m:
        from . import Move

        return Move.parse(body)
    spec = _spec(body)
    if spec is None:
        raise IllegalAction("not a move in ICCS (h2e2), WXF (C2=5) or Chinese text (炮二平五)", text,
                            code="xiangqi.not_move_iccs_h")
    side = state.turn
    ptype = spec.ptype
    columns = _columns(state, side, ptype)
    if spec.file_number is not None:
        file = _file_index(side, spec.file_number)
        chosen = {file: columns.get(file, [])}
    else:
        chosen = {f: col for f, col in columns.items() if len(col) >= 2}
    fitting: list[tuple[int, int, bool]] = []      # from, to, preferred
    for col in chosen.values():
        n = len(col)
        for i in spec.pick(n):
            to = _destination(col[i], side, ptype, spec.verb, spec.number)
            if to is not None:
                fitting.append((col[i], to, spec.prefer_middle and i in _middle(n)))
    legal = {(mv.from_sq, mv.to_sq): mv for mv in state.legal_moves()}
    found = [(legal[(f, t)], pref) for f, t, pref in fitting if (f, t) in legal]
    if not found:
        why = _why_none(state, spec, chosen, fitting)
        raise IllegalAction(f"no legal move matches {body!r} ({why})", text,
                            code="xiangqi.no_legal_move_matches",
                            params={"body": body, "reason": why.code, **why.params})
    if len(found) > 1:
        preferred = [mv for mv, pref in found if pref]
        if len(preferred) == 1:
            return preferred[0]
        options = ", ".join(str(mv) for mv, _ in found)
        raise IllegalAction(f"ambiguous {body!r}: it fits {options}", text,
                            code="xiangqi.ambiguous_fits", params={"body": body, "options": options})
    return found[0][0]
