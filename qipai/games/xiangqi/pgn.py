"""Xiangqi PGN ("Chinese Chess" PGN, as xqbase and most xiangqi programs write it): read and write.

Reading (:func:`read_pgn`, also registered as the record format ``xiangqi-pgn``):

* bytes in UTF-8 (with or without BOM), UTF-16 with BOM, GB18030/GBK or Big5 (cp950); the
  encoding is detected from the content;
* one or several games per file: a game is a tag section (``[Name "value"]`` lines) followed by
  move text, ended by a result token (``1-0``, ``0-1``, ``1/2-1/2``, ``*``), by the next tag
  section or by the end of the file;
* move text: move numbers (``12.``, ``12...``), moves in Chinese text, WXF or ICCS, comments
  (``{...}``, ``; ...``), variations (``(...)``, skipped), NAGs (``$1``) and ``!``/``?`` marks.

Each game becomes a :class:`qipai.Record` for the game ``xiangqi`` with the options
``repetition_rule='none'`` and ``no_capture_plies=0``: these records are games refereed by
people, who may have agreed a result before (or played on past) a point where our automatic
repetition or no-capture rules would have stopped the game, so only the rules that no arbiter
overrides (legal moves, checkmate, stalemate) are applied on replay. The record keeps

* ``position``: the ``FEN`` tag when it is not the standard start position;
* ``actions``: the move texts exactly as written (replay reads them with
  :func:`qipai.games.xiangqi.notation.parse_move`);
* ``result``: ``{"text": "1-0" | "0-1" | "1/2-1/2", "reason": ...}`` or ``None`` for ``*``; the
  reason is the ``Termination`` tag qipai writes, except an ending of the rules turned off above
  (repetition, the no-capture limit: None, so the result is applied as recorded);
* ``meta``: ``tags`` (every tag, in order), ``game_index`` (1-based within the file) and
  ``move_lines`` (the 1-based line of every move in the file), so replay errors point at the line.

A file that cannot be read raises :class:`qipai.RecordError` naming the file, the game, the line
and, for a move, its number and text.

Writing (:func:`write_game`, :func:`write_games`): a replayed state (or a record, which is
replayed first) as PGN with ICCS, WXF or Chinese move text; reading it back and replaying gives
the same moves and result.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable
from typing import Any

from ...core.errors import QipaiError, RecordError, why_inner
from ...core.formats import Reader, register_reader, register_writer
from ...core.record import EXTERNAL_REASONS, Record, replay
from . import notation
from .rules import END_REASONS

__all__ = ["RECORD_OPTIONS", "read_pgn", "sniff", "write_game", "write_games"]

FORMAT_NAME = "xiangqi-pgn"
# Rules applied when replaying a record of a game refereed by people (see the module docstring).
RECORD_OPTIONS: dict[str, Any] = {"repetition_rule": "none", "no_capture_plies": 0}
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
START_BOARD = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
TAG_ORDER = ("Game", "Event", "Round", "Date", "Site", "Red", "RedTeam", "Black", "BlackTeam",
             "Result", "ECCO", "Opening", "Variation", "FEN")

#: the endings a ``Termination`` tag carries (written by qipai; read back and checked on replay)
TERMINATIONS = frozenset(END_REASONS) | (EXTERNAL_REASONS - {"unknown"})
#: endings of the automatic rules :data:`RECORD_OPTIONS` turns off: a game qipai refereed that
#: ended so (an event's game stopped by the no-capture limit) is read with no reason, its
#: result applied on replay as a recorded one (the rule is off: it would never end the game)
OFF_RULE_ENDINGS = frozenset({"repetition_loss", "repetition_draw", "no_capture_limit"})

_TAG = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
# Real files put unescaped quotes inside values ([Event "第三屆"嘉豐房地產杯"象棋王位賽"]): the value
# then runs from the first quote to the last one.
_LOOSE_TAG = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"(.*)"\s*\]\s*$')
_TOKEN = re.compile(r'\{|\}|;|\(|\)|\$\d+|[^\s{}();]+')
_BARE_MOVE_NO = re.compile(r"^\d+(?:\.+|、|…+)$")
_MARKS = re.compile(r"[!?]+$")
# Characters that occur in xiangqi move text, used to tell GB18030 from Big5.
_VOCABULARY = frozenset(ch for ch in notation._CN_MAP if ord(ch) > 127)


# ----- decoding --------------------------------------------------------------------------------

def _gb2312_share(text: str) -> float:
    cjk = [ch for ch in text if ord(ch) > 127]
    if not cjk:
        return 1.0
    ok = 0
    for ch in cjk:
        try:
            ch.encode("gb2312")
            ok += 1
        except UnicodeEncodeError:
            pass
    return ok / len(cjk)


def decode(data: bytes, source: str = "<pgn>") -> str:
    """The text of a PGN file: UTF-8/UTF-16 by BOM, else UTF-8, else GB18030 or Big5."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as e:
            raise RecordError(f"not valid UTF-16: {e.reason}", source=source,
                              code="record.not_utf16") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    found = []
    for enc in ("gb18030", "cp950", "big5hkscs"):
        try:
            found.append((enc, data.decode(enc)))
        except UnicodeDecodeError:
            continue
    if not found:
        raise RecordError("cannot decode the file: not UTF-8, GB18030/GBK or Big5", source=source,
                          code="record.undecodable")

    def score(item: tuple[str, str]) -> tuple[int, int]:
        enc, text = item
        vocabulary = sum(1 for ch in text if ch in _VOCABULARY)
        # Text really written in GBK stays almost entirely inside GB2312; Big5 bytes read as
        # GBK land outside it for every character whose second byte is below 0xA1.
        plausible = 1 if (enc == "gb18030") == (_gb2312_share(text) >= 0.9) else 0
        return vocabulary, plausible

    return max(found, key=score)[1]


# ----- reading ---------------------------------------------------------------------------------

class _Game:
    def __init__(self, index: int) -> None:
        self.index = index
        self.tags: dict[str, str] = {}
        self.tag_lines: dict[str, int] = {}
        self.moves: list[str] = []
        self.lines: list[int] = []
        self.result: str | None = None
        self.result_line: int | None = None

    def empty(self) -> bool:
        return not self.tags and not self.moves and self.result is None


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _split_games(text: str, source: str) -> list[_Game]:
    games: list[_Game] = []
    game = _Game(1)
    in_comment = False
    depth = 0                              # variation nesting

    def close() -> None:
        nonlocal game
        if not game.empty():
            games.append(game)
        game = _Game(len(games) + 1)

    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not in_comment and depth == 0 and line.startswith("["):
            if game.moves or game.result is not None:
                close()
            m = _TAG.match(line) or _LOOSE_TAG.match(line)
            if not m:
                raise RecordError("malformed tag line (expected [Name \"value\"])", source=source,
                                  game=game.index, line=lineno, text=line, code="record.pgn.bad_tag_line")
            game.tags[m.group(1)] = _unescape(m.group(2))
            game.tag_lines[m.group(1)] = lineno
            continue
        if not in_comment and line.startswith("%"):
            continue
        for tok in _TOKEN.findall(raw):
            if in_comment:
                in_comment = tok != "}"
                continue
            if tok == "{":
                in_comment = True
            elif tok == ";":
                break
            elif tok == "(":
                depth += 1
            elif tok == ")":
                if depth == 0:
                    raise RecordError("')' without '('", source=source, game=game.index,
                                      line=lineno, text=tok, code="record.pgn.close_without_open")
                depth -= 1
            elif depth or tok.startswith("$") or tok == "}":
                continue
            elif tok in RESULTS:
                game.result, game.result_line = tok, lineno
                close()
            else:
                _add_move(game, tok, lineno, source)
    if in_comment:
        raise RecordError("comment '{' never closed", source=source, game=game.index,
                          code="record.pgn.comment_open")
    if depth:
        raise RecordError("variation '(' never closed", source=source, game=game.index,
                          code="record.pgn.variation_open")
    close()
    return games


def _add_move(game: _Game, tok: str, lineno: int, source: str) -> None:
    if _BARE_MOVE_NO.match(tok):
        return
    move = _MARKS.sub("", notation.strip_move_number(tok))
    if not move or not notation.looks_like_move(move):
        raise RecordError("not a move (expected Chinese text, WXF or ICCS)", source=source,
                          game=game.index, line=lineno, move=len(game.moves) + 1, text=tok,
                          code="record.pgn.not_a_move")
    game.moves.append(move)
    game.lines.append(lineno)


def _start_position(game: _Game, source: str) -> str | None:
    fen = game.tags.get("FEN", "").strip()
    if not fen:
        return None
    fields = fen.split()
    side = fields[1].lower() if len(fields) > 1 else "w"
    if fields[0] == START_BOARD and side in ("w", "r"):
        return None
    from . import XiangqiGame

    try:
        XiangqiGame(**RECORD_OPTIONS).new_state(position=fen)
    except QipaiError as e:
        raise RecordError(f"bad FEN tag: {e}", source=source, game=game.index,
                          line=game.tag_lines.get("FEN"), text=fen,
                          code="record.pgn.bad_fen", params=why_inner(e, "record.unreadable")) from None
    return fen


def _record(game: _Game, source: str) -> Record:
    tag_result = game.tags.get("Result", "").strip() or None
    if tag_result is not None and tag_result not in RESULTS:
        raise RecordError(f"unknown Result tag {tag_result!r} (expected one of {', '.join(RESULTS)})",
                          source=source, game=game.index, line=game.tag_lines.get("Result"),
                          code="record.pgn.unknown_result",
                          params={"tag": tag_result, "valid": list(RESULTS)})
    if game.result and tag_result and game.result != tag_result:
        raise RecordError(f"the result token {game.result} contradicts the Result tag {tag_result}",
                          source=source, game=game.index, line=game.result_line,
                          code="record.pgn.result_contradicts",
                          params={"token": game.result, "tag": tag_result})
    text = game.result or tag_result
    red, black = game.tags.get("Red"), game.tags.get("Black")
    # how the game ended, as qipai writes it; other words (chess PGN's "normal", ...) say nothing
    # the replay can check, and are left out
    reason = game.tags.get("Termination", "").strip()
    reason = reason if reason in TERMINATIONS - OFF_RULE_ENDINGS and text not in (None, "*") else None
    return Record(
        game="xiangqi",
        options=dict(RECORD_OPTIONS),
        actions=list(game.moves),
        seats=[red or "", black or ""] if (red or black) else None,
        position=_start_position(game, source),
        result=None if text in (None, "*") else {"text": text, "reason": reason},
        meta={"tags": dict(game.tags), "game_index": game.index, "move_lines": list(game.lines)},
    )


def read_pgn(data: bytes | str, source: str = "<pgn>") -> list[Record]:
    """Every game in a xiangqi PGN file as a :class:`qipai.Record` (see the module docstring).

    Raises :class:`qipai.RecordError` naming file, game, line (and move) when the file is broken.
    Moves are only checked for form here; :func:`qipai.replay` checks that they are legal.
    """
    text = decode(data, source) if isinstance(data, bytes) else data
    return [_record(g, source) for g in _split_games(text, source)]


def sniff(data: bytes) -> bool:
    """True if ``data`` looks like a xiangqi PGN file."""
    head = data[:8192]
    if head.startswith(codecs.BOM_UTF8):
        head = head[len(codecs.BOM_UTF8):]
    elif head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            head = data.decode("utf-16").encode("utf-8")[:8192]
        except UnicodeDecodeError:
            return False
    head = head.lstrip()
    if head.startswith(b"["):
        if not re.match(rb'\[\s*[A-Za-z0-9_]+\s+"', head):
            return False              # e.g. a JSON list
        if re.search(rb'\[Game\s+"Chinese Chess"\]|\[Variant\s+"xiangqi"\]', head, re.IGNORECASE):
            return True
        m = re.search(rb'\[FEN\s+"([^"]*)"', head)
        if m:
            return m.group(1).split(b" ")[0].count(b"/") == 9
    try:
        text = decode(head.rsplit(b"\n", 1)[0] if b"\n" in head else head)
    except RecordError:
        return False
    for line in text.splitlines():
        if line.strip().startswith("[") or not line.strip():
            continue
        for tok in _TOKEN.findall(line):
            if not _BARE_MOVE_NO.match(tok):
                return notation.looks_like_move(tok)
        return False
    return False


register_reader(Reader(FORMAT_NAME, sniff, read_pgn))


# ----- writing ---------------------------------------------------------------------------------

def _escape(value: Any) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def write_game(state, tags: dict[str, Any] | None = None, notation_style: str = "iccs",
               traditional: bool = False, fullwidth: bool = False) -> str:
    """The game played in ``state`` (from its start position) as one PGN game.

    ``notation_style`` is ``iccs`` (``h2e2``), ``wxf`` (``C2=5``) or ``chinese`` (``炮二平五``; with
    ``traditional`` and ``fullwidth`` as in :func:`~qipai.games.xiangqi.notation.to_chinese`).
    ``tags`` are written after ``Game``; ``Result`` and ``FEN`` always come from the state.
    """
    if notation_style not in ("iccs", "wxf", "chinese"):
        raise ValueError(f"unknown notation {notation_style!r} (expected iccs, wxf or chinese)")
    game = state.game
    board = game.new_state(position=state.position)
    start_fen = board.fen()
    fields = start_fen.split()
    number = int(fields[5]) if len(fields) > 5 and fields[5].isdecimal() else 1
    result = state.result.text if state.result is not None else "*"
    all_tags: dict[str, str] = {"Game": "Chinese Chess"}
    for key, value in (tags or {}).items():
        if key not in ("Result", "FEN") and value is not None:
            all_tags[key] = str(value)
    all_tags["Result"] = result
    if state.result is not None and state.result.reason in TERMINATIONS:
        all_tags.setdefault("Termination", state.result.reason)
    all_tags["FEN"] = start_fen
    ordered = [k for k in TAG_ORDER if k in all_tags] + [k for k in all_tags if k not in TAG_ORDER]
    out = [f'[{k} "{_escape(all_tags[k])}"]' for k in ordered]
    out.append("")
    line = ""
    for entry in state.log:
        text = entry[1] if isinstance(entry, list) else entry
        move = game.parse_action(text, board)
        if notation_style == "wxf":
            written = notation.to_wxf(board, move)
        elif notation_style == "chinese":
            written = notation.to_chinese(board, move, traditional=traditional, fullwidth=fullwidth)
        else:
            written = str(move)
        if board.turn == 0:
            if line:
                out.append(line)
            line = f"{number}. {written}"
        else:
            line = f"{line} {written}" if line else f"{number}... {written}"
            number += 1
        board.apply(move)
    if line:
        out.append(line)
    out.append(result)
    return "\n".join(out) + "\n"


def write_games(items: Iterable[Any], **options: Any) -> str:
    """Several games as one PGN text. Items are states, or records (replayed first, with the
    record's tags); ``options`` are those of :func:`write_game`."""
    parts = []
    for item in items:
        if isinstance(item, Record):
            state = replay(item)
            tags = dict(item.meta.get("tags") or {})
            if item.seats and "Red" not in tags:
                tags["Red"], tags["Black"] = item.seats[0], item.seats[1]
            parts.append(write_game(state, tags, **options))
        else:
            parts.append(write_game(item, **options))
    return "\n".join(parts)


register_writer("xiangqi", "pgn", write_games)
register_writer("xiangqi", "pgn-chinese",
                lambda records: write_games(records, notation_style="chinese", traditional=False))
