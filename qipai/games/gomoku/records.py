"""Gomoku/renju record files: read them into :class:`qipai.Record` objects, and write them.

Readers (registered with :mod:`qipai.core.formats`, so ``qipai replay FILE`` detects them by
content):

* ``renju-lines``: one game a line, ``<result> <move> <move> ...`` with ``<result>`` one of
  ``black``, ``white``, ``draw``, ``unknown``, moves ``h8`` style and ``--`` for a pass. Read as
  renju (the standard opening, forbidden moves losing, no dead-draw rule). Also inside a ``.tar.xz`` archive
  (``renju-lines-tar``), read directly with :mod:`tarfile`/:mod:`lzma`, every member in turn.
* ``piskvork-rec``: Piskvork tournament records: two lines naming the engines (first mover
  first), one ``x,y,milliseconds`` line a move with 0-based ``x`` = column and ``y`` = row
  counted from the top, and a final integer line. No result field: the board decides. Read
  as freestyle gomoku (five or more wins), the rule the Piskvork tournaments were played under.
* ``renjunet-rif``: the RenjuNet database (XML, ``.rif``): ``<player>``, ``<tournament>``,
  ``<rule>`` and ``<opening>`` tables and ``<game ... black= white= bresult= rule=>`` elements
  with a ``<move>`` list. ``bresult`` 1 / 0 / 0.5 is Black's score (anything else is an
  error). Games under a rule whose name mentions gomoku are read as freestyle (or standard
  gomoku when the name says so).

A recorded result that the replay cannot confirm (a game not ended by the rules) is applied as
an external ending (reason ``unknown``); one that contradicts the board fails the replay with
the recorded and the actual result (see :func:`classify`).

Writers: :func:`write_lines`, :func:`write_rec`, :func:`write_rif` (each reads back with its
reader; registered for ``qipai export --format renju-lines|rec|rif``). Test-vector readers:
:func:`read_pos_diagram` (``.pos`` boards with a ``D`` point) and :func:`read_forbidden_cases`
(JSON cases in GTP coordinates, columns A..P without I).
"""

from __future__ import annotations

import io
import json
import lzma
import re
import tarfile
import xml.etree.ElementTree as ET
import xml.parsers.expat
from collections.abc import Iterable
from typing import Any
from xml.sax.saxutils import quoteattr

from ...core.errors import IllegalAction, RecordError, why_inner
from ...core.formats import Reader, register_reader, register_writer
from ...core.record import Record, replay
from .board import BLACK, COLUMNS, SIZE, WHITE, Board, point, point_name

RESULT_WORDS = {"black": "B+", "white": "W+", "draw": "draw", "unknown": None}
WORD_OF_TEXT = {"B+": "black", "W+": "white", "draw": "draw"}
_LINE = re.compile(r"^(black|white|draw|unknown)((?: +(?:--|[a-o](?:1[0-5]|[1-9])))*) *$")
_MOVE_TOKEN = re.compile(r"^(?:--|[a-o](?:1[0-5]|[1-9]))$")
# Records are replayed under the rules their games were played by: RIF renju and Piskvork
# freestyle have no automatic dead-draw rule (players agree a draw, or fill the board).
RENJU_OPTIONS: dict[str, Any] = {"ruleset": "renju", "dead_draw_detection": False}
FREESTYLE_OPTIONS: dict[str, Any] = {"ruleset": "freestyle", "dead_draw_detection": False}


# ----- renju lines ---------------------------------------------------------------------------

def _first_line(text: str) -> str | None:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return None


_BOM = b"\xef\xbb\xbf"


def sniff_lines(data: bytes) -> bool:
    head = data[:4096].removeprefix(_BOM).decode("ascii", "replace")
    first = _first_line(head)
    if first is None:
        return False
    if "\n" not in head.strip() and len(data) > 4096:
        return bool(re.match(r"^(black|white|draw|unknown) ", first))
    return bool(_LINE.match(first))


def read_lines(data: bytes | str, source: str = "<renju lines>") -> list[Record]:
    """Every game of a renju-lines text. Raises :class:`RecordError` naming the line on a
    malformed line."""
    text = _ascii_text(data, source) if isinstance(data, bytes) else data.removeprefix("\ufeff")
    records = []
    for lineno, line in enumerate(text.split("\n"), 1):
        line = line.strip()
        if not line:
            continue
        parts = line.split()
        word = parts[0]
        if word not in RESULT_WORDS:
            raise RecordError(f"a game line starts with black, white, draw or unknown, not {word!r}",
                              source=source, game=len(records) + 1, line=lineno, text=word,
                              code="record.gomoku.bad_result_word", params={"word": word})
        actions = []
        for i, tok in enumerate(parts[1:], 1):
            if not _MOVE_TOKEN.match(tok):
                raise RecordError("not a move (a1..o15 or --)", source=source,
                                  game=len(records) + 1, line=lineno, move=i, text=tok,
                                  code="record.gomoku.not_a_move")
            actions.append("pass" if tok == "--" else tok)
        text_result = RESULT_WORDS[word]
        records.append(Record(
            game="gomoku", options=dict(RENJU_OPTIONS), actions=actions,
            result={"text": text_result, "reason": "unknown"} if text_result else None,
            meta={"game_index": len(records) + 1, "move_lines": [lineno] * len(actions),
                  "recorded_result": word},
        ))
    return records


def _ascii_text(data: bytes, source: str) -> str:
    """``data`` (an optional UTF-8 byte-order mark, then ASCII) as text. Raises
    :class:`RecordError` naming the line of the first byte that is not ASCII."""
    data = data.removeprefix(_BOM)
    try:
        return data.decode("ascii")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise RecordError(f"byte {data[e.start]:#04x} is not ASCII (moves are a1..o15 or --)",
                          source=source, line=line,
                          code="record.gomoku.not_ascii", params={"byte": f"{data[e.start]:#04x}"}) from None


_XZ_MAGIC = b"\xfd7zXZ\x00"


def sniff_tar_xz(data: bytes) -> bool:
    if not data.startswith(_XZ_MAGIC):
        return False
    try:
        head = lzma.LZMADecompressor().decompress(data[:65536], max_length=8192)
    except lzma.LZMAError:
        return False
    if len(head) < 1024 or head[257:262] != b"ustar":
        return False
    return sniff_lines(head[512:])


def iter_tar_lines(data: bytes, source: str):
    """``(member name, records)`` for every regular member of a tar.xz archive of renju lines."""
    try:
        archive = tarfile.open(fileobj=io.BytesIO(data), mode="r:xz")
    except (tarfile.TarError, lzma.LZMAError, EOFError) as e:
        raise RecordError(f"not a readable tar.xz archive: {e}", source=source,
                          code="record.gomoku.not_archive") from None
    with archive:
        for member in archive:
            if not member.isfile():
                continue
            f = archive.extractfile(member)
            if f is None:
                continue
            name = f"{source}:{member.name}"
            yield name, read_lines(f.read(), name)


def read_tar_xz(data: bytes, source: str = "<tar.xz>") -> list[Record]:
    out = []
    for name, records in iter_tar_lines(data, source):
        for r in records:
            r.meta["member"] = name
        out.extend(records)
    return out


def write_lines(items: Iterable[Any]) -> str:
    """Renju-lines text for replayed states or records (one line each; designated stones,
    offers and chosen points appear as the stones they put on the board). Raises
    :class:`RecordError` for a game that does not start from the empty board."""
    out = []
    for item in items:
        state = _as_state(item)
        if state.position is not None:
            raise RecordError("the renju line format has no start position",
                              code="record.gomoku.no_position")
        _check_reads_back(state, RENJU_OPTIONS, "renju lines")
        word = WORD_OF_TEXT.get(state.result.text, "unknown") if state.result else "unknown"
        toks = [word] + ["--" if p is None else point_name(p) for _, p in state.moves]
        out.append(" ".join(toks))
    return "\n".join(out) + "\n"


def _as_state(item: Any):
    if isinstance(item, Record):
        return replay(item)
    return item


# Endings the board decides; any other ending (resign, timeout, agreement, dead_draw, which the
# readers' rules do not detect) is carried by the format's result field, or lost in .rec.
_BOARD_REASONS = frozenset({"five", "overline", "double_four", "double_three", "board_full",
                            "double_pass"})


def _describe(result: Any) -> str:
    return "a game still running" if result is None else f"{result.text} ({result.reason})"


def _check_reads_back(state: Any, options: dict[str, Any], fmt: str) -> None:
    """Refuse to write ``state`` in ``fmt`` when the format's reader, which replays its games
    under ``options``, would make another game of the written stones: a move it refuses, or
    a different ending decided by the board (e.g. a renju game written as a freestyle .rec,
    where Black's overline wins instead of losing, or a foul that lapsed in claim mode, which
    the renju readers count as lost). Raises :class:`RecordError`."""
    actions = ["pass" if p is None else point_name(p) for _, p in state.moves]
    rules = ", ".join(f"{k}={v}" for k, v in options.items())
    try:
        back = replay(Record(game="gomoku", options=dict(options), actions=actions),
                      check_result=False)
    except RecordError as e:
        raise RecordError(f"cannot write this game as {fmt}: its reader replays it with "
                          f"{rules}, where move {e.move} is refused ({e.reason})",
                          move=e.move, text=e.text,
                          code="record.gomoku.write_refused",
                          params={"inner": e.code or "record.unreadable", **e.params,
                                  "format": fmt, "rules": rules}) from None
    ours, theirs = state.result, back.result
    if theirs is not None:
        same = ours is not None and (ours.text, ours.reason) == (theirs.text, theirs.reason)
    else:
        same = ours is None or ours.reason not in _BOARD_REASONS
    if not same:
        raise RecordError(f"cannot write this game as {fmt}: its reader replays it with {rules} "
                          f"and gets {_describe(theirs)} where the game has {_describe(ours)}",
                          code="record.gomoku.write_differs", params={"format": fmt, "rules": rules})


# ----- Piskvork .rec -------------------------------------------------------------------------

# ASCII digits only, and at most 9 of them: longer numbers are no coordinates or times (and
# int() refuses texts of more than 4300 digits)
_REC_MOVE = re.compile(r"^\s*([0-9]{1,9})\s*,\s*([0-9]{1,9})\s*,\s*(-?[0-9]{1,9})\s*$")
_REC_FINAL = re.compile(r"^\s*(-?[0-9]{1,9})\s*$")


def sniff_rec(data: bytes) -> bool:
    try:
        lines = data[:65536].decode("ascii").splitlines()
    except UnicodeDecodeError:
        return False
    if len(lines) < 3 or _REC_MOVE.match(lines[0]) or _REC_MOVE.match(lines[1]):
        return False
    return bool(_REC_MOVE.match(lines[2]))


def read_rec(data: bytes | str, source: str = "<rec>") -> list[Record]:
    """One game from a Piskvork ``.rec`` file. Raises :class:`RecordError` naming the line."""
    text = data.decode("ascii", "replace") if isinstance(data, bytes) else data
    lines = text.splitlines()
    if len(lines) < 3:
        raise RecordError("a .rec file has two engine lines and then moves", source=source,
                          code="record.gomoku.rec_short")
    actions, lines_of, times = [], [], []
    final = None
    for lineno, line in enumerate(lines[2:], 3):
        if not line.strip():
            continue
        m = _REC_MOVE.match(line)
        if m is None:
            f = _REC_FINAL.match(line)
            if f is not None and final is None:
                final = int(f.group(1))
                continue
            raise RecordError("expected x,y,milliseconds (numbers of at most 9 digits)",
                              source=source, line=lineno, move=len(actions) + 1,
                              text=line.strip()[:40], code="record.gomoku.rec_bad_line")
        if final is not None:
            raise RecordError("a move after the final line", source=source, line=lineno,
                              move=len(actions) + 1, text=line.strip(), code="record.gomoku.rec_after_final")
        x, y, ms = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            raise RecordError(f"point outside the {SIZE}x{SIZE} board", source=source,
                              line=lineno, move=len(actions) + 1, text=line.strip(),
                              code="record.gomoku.rec_outside", params={"size": SIZE})
        actions.append(point_name(point(x, SIZE - 1 - y)))
        lines_of.append(lineno)
        times.append(ms)
    return [Record(game="gomoku", options=dict(FREESTYLE_OPTIONS), actions=actions,
                   seats=[lines[0].strip(), lines[1].strip()],
                   meta={"game_index": 1, "move_lines": lines_of, "times_ms": times,
                         "final_line": final})]


def write_rec(item: Any, engines: tuple[str, str] | None = None,
              times_ms: list[int] | None = None) -> str:
    """A Piskvork ``.rec`` text of a game: engine (player) lines, ``x,y,ms`` moves, ``0``.
    Raises :class:`RecordError` for games with passes or a start position."""
    state = _as_state(item)
    if state.position is not None:
        raise RecordError("the .rec format has no start position",
                          code="record.gomoku.no_position", params={"format": ".rec"})
    if any(p is None for _, p in state.moves):
        raise RecordError("the .rec format has no pass",
                          move=next(i for i, (_, p) in enumerate(state.moves, 1) if p is None),
                          code="record.gomoku.rec_no_pass")
    _check_reads_back(state, FREESTYLE_OPTIONS, ".rec")
    names = engines or ("black", "white")
    lines = [names[0], names[1]]
    for i, (_, p) in enumerate(state.moves):
        ms = times_ms[i] if times_ms and i < len(times_ms) else 0
        lines.append(f"{p % SIZE},{SIZE - 1 - p // SIZE},{ms}")
    lines.append("0")
    return "\n".join(lines) + "\n"


# ----- RenjuNet RIF database (XML) ---------------------------------------------------------------

def sniff_rif(data: bytes) -> bool:
    head = data[:65536].lstrip()
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    return head[:1] == b"<" and b"<game" in head and (b"<move" in head or b"<games" in head)


def _ruleset_of(rule_name: str | None) -> dict[str, Any]:
    name = (rule_name or "").lower()
    if "gomoku" in name:
        if "standard" in name:
            return {**FREESTYLE_OPTIONS, "ruleset": "standard"}
        return dict(FREESTYLE_OPTIONS)
    return dict(RENJU_OPTIONS)


def _rif_move_texts(data: bytes | str) -> list[tuple[int, list[tuple[str, int]]]]:
    """For every ``<game>`` element in document order: its 1-based line in the file, and the
    tokens of the text of its first ``<move>`` child (the text before any child element, as
    ElementTree's ``.text``), each with its line. Call only on well-formed XML."""
    games: list[tuple[int, list[tuple[str, int]]]] = []
    stack: list[str] = []
    chars: list[str] = []
    lines: list[int] = []
    state = {"collect": False, "seen_move": True, "depth": 0}
    parser = xml.parsers.expat.ParserCreate()

    def flush() -> None:
        text = "".join(chars)
        games[-1][1].extend((m.group(), lines[m.start()]) for m in re.finditer(r"\S+", text))
        chars.clear()
        lines.clear()

    def start(name: str, attrs: dict[str, str]) -> None:
        if state["collect"]:
            flush()
            state["collect"] = False
        if name == "game":
            games.append((parser.CurrentLineNumber, []))
            state["seen_move"] = False
        elif name == "move" and stack and stack[-1] == "game" and not state["seen_move"]:
            state["seen_move"] = True
            state["collect"] = True
        stack.append(name)

    def end(name: str) -> None:
        if state["collect"]:
            flush()
            state["collect"] = False
        stack.pop()

    def text(data: str) -> None:
        if state["collect"]:
            line = parser.CurrentLineNumber
            for ch in data:
                chars.append(ch)
                lines.append(line)
                if ch == "\n":
                    line += 1

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.Parse(data, True)
    return games


def read_rif(data: bytes | str, source: str = "<rif>") -> list[Record]:
    """Every game of a RenjuNet database file. Raises :class:`RecordError` on broken XML or a
    malformed move list (naming the game, the line and the move); every move keeps its line."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        raise RecordError(f"not well-formed XML: {e}", source=source,
                          line=e.position[0] if e.position else None, code="record.gomoku.not_xml") from None
    move_texts = _rif_move_texts(data)
    players = {}
    for p in root.iter("player"):
        full = " ".join(s for s in (p.get("name"), p.get("surname")) if s)
        players[p.get("id")] = full or p.get("id")
    tables = {}
    for tag in ("tournament", "rule", "opening"):
        tables[tag] = {e.get("id"): e.get("name") for e in root.iter(tag) if e.get("id")}
    records = []
    for i, (g, (game_line, tokens)) in enumerate(zip(root.iter("game"), move_texts,
                                                     strict=True), 1):
        actions = []
        for j, (tok, line) in enumerate(tokens, 1):
            tok = tok.lower()
            if not _MOVE_TOKEN.match(tok):
                raise RecordError("not a move (a1..o15 or --)", source=source, game=i,
                                  line=line, move=j, text=tok, code="record.gomoku.not_a_move")
            actions.append("pass" if tok == "--" else tok)
        b = (g.get("bresult") or "").strip()
        text = _rif_result(b)
        if b and text is None:
            raise RecordError("bresult is Black's score: 1, 0 or 0.5 (or empty when unknown)",
                              source=source, game=i, line=game_line, text=b, code="record.gomoku.bresult")
        rule = tables["rule"].get(g.get("rule"))
        meta = {"game_index": i, "rif_id": g.get("id"), "bresult": b or None,
                "move_lines": [line for _, line in tokens]}
        for key in ("round", "btime", "wtime", "alt", "swap"):
            if g.get(key):
                meta[key] = g.get(key)
        if g.get("tournament"):
            meta["tournament"] = tables["tournament"].get(g.get("tournament"), g.get("tournament"))
        if rule:
            meta["rule"] = rule
        if g.get("opening"):
            meta["opening"] = tables["opening"].get(g.get("opening"), g.get("opening"))
        info = g.find("info")
        if info is not None and info.text:
            meta["info"] = info.text
        seats = [players.get(g.get("black"), g.get("black") or "black"),
                 players.get(g.get("white"), g.get("white") or "white")]
        records.append(Record(game="gomoku", options=_ruleset_of(rule), actions=actions,
                              seats=seats, meta=meta,
                              result={"text": text, "reason": "unknown"} if text else None))
    if not records:
        raise RecordError("no <game> element", source=source, code="record.gomoku.no_game")
    return records


def _rif_result(bresult: str) -> str | None:
    """``B+`` / ``W+`` / ``draw`` for a RIF ``bresult`` (Black's score 1 / 0 / 0.5, written
    ``1.0`` etc. too); None for anything else."""
    if not re.fullmatch(r"[01](?:\.[0-9]{1,6})?", bresult):
        return None
    return {1.0: "B+", 0.0: "W+", 0.5: "draw"}.get(float(bresult))


_RIF_RULE_NAMES = {1: "RIF", 2: "Gomoku freestyle", 3: "Gomoku standard"}


def write_rif(items: Iterable[Any], seats: list[tuple[str, str]] | None = None) -> str:
    """A RenjuNet-style XML database of the games (players table, rule table, one ``<game>``
    each with ``bresult`` and the ``<move>`` list). Reads back with :func:`read_rif`."""
    states = [_as_state(x) for x in items]
    names: dict[str, int] = {}
    games = []
    for i, st in enumerate(states):
        pair = seats[i] if seats else ("black", "white")
        ids = []
        for nm in pair:
            ids.append(names.setdefault(nm, len(names) + 1))
        res = st.result.text if st.result else None
        bres = {"B+": "1", "W+": "0", "draw": "0.5"}.get(res or "", "")
        ruleset = st.game.options["ruleset"]
        rule_id = {"renju": 1, "freestyle": 2, "standard": 3}[ruleset]
        _check_reads_back(st, _ruleset_of(_RIF_RULE_NAMES[rule_id]), "RIF")
        moves = " ".join("--" if p is None else point_name(p) for _, p in st.moves)
        games.append(f'<game id="{i + 1}" rule="{rule_id}" black="{ids[0]}" white="{ids[1]}" '
                     f'bresult="{bres}">\n<move>{moves}</move>\n</game>')
    players = "\n".join(f"<player id=\"{i}\" name={quoteattr(n)} />" for n, i in names.items())
    return ("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<database>\n<players>\n" + players +
            "\n</players>\n<rules>\n"
            + "".join(f"<rule id=\"{i}\" name=\"{n}\" />\n" for i, n in _RIF_RULE_NAMES.items())
            + "</rules>\n<games>\n"
            + "\n".join(games) + "\n</games>\n</database>\n")


# ----- test vectors ----------------------------------------------------------------------------

def read_pos_diagram(text: str) -> tuple[Board, list[int]]:
    """A ``.pos`` board: rows from row 15 down, ``.`` empty, ``x`` black, ``o`` white, ``D`` a
    point under test (empty). Returns the board and the test points. Raises RecordError."""
    board = Board()
    tests = []
    rows = [r for r in text.splitlines() if r.strip()]
    if len(rows) > SIZE:
        raise RecordError(f"more than {SIZE} rows", code="record.gomoku.case_rows", params={"size": SIZE})
    for i, row in enumerate(rows):
        r = SIZE - 1 - i
        if len(row.strip()) != SIZE:
            raise RecordError(f"row {r + 1} has {len(row.strip())} points", line=i + 1,
                              code="record.gomoku.case_row_length",
                              params={"row": r + 1, "n": len(row.strip()), "size": SIZE})
        for col, ch in enumerate(row.strip()):
            p = point(col, r)
            if ch in "xX":
                board.place(p, BLACK)
            elif ch in "oO":
                board.place(p, WHITE)
            elif ch == "D":
                tests.append(p)
            elif ch != ".":
                raise RecordError(f"unknown symbol {ch!r}", line=i + 1,
                                  code="record.gomoku.case_symbol", params={"symbol": ch})
    return board, tests


_GTP_COLUMNS = "ABCDEFGHJKLMNOP"


def gtp_point(text: str) -> int:
    """A GTP-style point (columns A..P without I, rows 1..15), e.g. ``J8`` = ``i8``."""
    t = text.strip().upper()
    if len(t) < 2 or t[0] not in _GTP_COLUMNS or not t[1:].isdecimal() or not 1 <= int(t[1:]) <= SIZE:
        raise RecordError(f"{text!r} is not a GTP point on a {SIZE}x{SIZE} board",
                          code="record.gomoku.not_gtp_point", params={"text": text, "size": SIZE})
    return point(_GTP_COLUMNS.index(t[0]), int(t[1:]) - 1)


def read_forbidden_cases(data: bytes | str) -> list[dict[str, Any]]:
    """Forbidden-point cases from JSON ``{cases: [{name, moves: [[colour, point]...],
    nextPlayer, mustBeForbidden, mustBeLegal}]}`` (GTP points). Each case becomes
    ``{"name", "board", "to_move", "forbidden": [points], "legal": [points]}``."""
    try:
        doc = json.loads(data)
    except json.JSONDecodeError as e:
        raise RecordError(f"not valid JSON: {e.msg}", line=e.lineno, code="record.not_json") from None
    out = []
    for case in doc.get("cases", []):
        board = Board()
        for colour, name in case.get("moves", []):
            board.place(gtp_point(name), BLACK if colour.upper().startswith("B") else WHITE)
        out.append({
            "name": case.get("name"), "board": board,
            "to_move": BLACK if str(case.get("nextPlayer", "B")).upper().startswith("B") else WHITE,
            "forbidden": [gtp_point(p) for p in case.get("mustBeForbidden", [])],
            "legal": [gtp_point(p) for p in case.get("mustBeLegal", [])],
        })
    return out


# ----- checking a replay against its record ------------------------------------------------------

def classify(record: Record, source: str | None = None) -> tuple[str, Any]:
    """Replay ``record`` and say how it went: ``(category, detail)``.

    Categories: ``ok`` (every move legal and the result confirmed or applied), ``unfinished``
    (no result recorded and the rules did not end the game), ``result_contradicts_board``
    (the rules end the game on the last move with another result than recorded), ``moves_after_end``
    (the rules ended the game before the last recorded move: a five or a losing forbidden stone
    in the middle), ``illegal_move`` (a move the rules refuse: an occupied point, a first move
    off the centre, ...). ``detail`` is the final state for ``ok``/``unfinished`` and the
    :class:`RecordError` otherwise.
    """
    try:
        state = replay(record, source=source, check_result=False)
    except RecordError as e:
        if "already over" in e.reason:
            return "moves_after_end", e
        return "illegal_move", e
    rec = record.result
    if rec is None or not rec.get("text"):
        return ("ok" if state.is_terminal() else "unfinished"), state
    if state.is_terminal():
        if state.result.text != rec["text"]:
            err = RecordError(f"recorded result {rec['text']} but the rules give "
                              f"{state.result.text} ({state.result.reason})", source=source,
                              game=record.meta.get("game_index"), move=len(state.log),
                              code="record.other_result",
                              params={"text": rec["text"], "got": state.result.text,
                                      "reason": state.result.reason})
            return "result_contradicts_board", err
        return "ok", state
    try:
        state.end_by_result_text(rec["text"], rec.get("reason") or "unknown")
    except IllegalAction as e:
        return "illegal_move", RecordError(e.reason, source=source,
                                           code="record.illegal_move", params=why_inner(e, "illegal"))
    return "ok", state


def _write_rec_records(recs: list[Record]) -> str:
    if len(recs) != 1:
        raise RecordError(f"a .rec file holds one game, not {len(recs)}",
                          code="record.gomoku.rec_one_game", params={"n": len(recs)})
    r = recs[0]
    seats = tuple(r.seats) if r.seats and len(r.seats) == 2 else None
    return write_rec(r, engines=seats, times_ms=r.meta.get("times_ms"))


def _write_rif_records(recs: list[Record]) -> str:
    seats = [tuple(r.seats) if r.seats and len(r.seats) == 2 else ("black", "white") for r in recs]
    return write_rif(recs, seats=seats)


register_writer("gomoku", "renju-lines", write_lines)
register_writer("gomoku", "rec", _write_rec_records)
register_writer("gomoku", "rif", _write_rif_records)
register_reader(Reader("renju-lines-tar", sniff_tar_xz, read_tar_xz))
register_reader(Reader("piskvork-rec", sniff_rec, read_rec))
register_reader(Reader("renjunet-rif", sniff_rif, read_rif))
register_reader(Reader("renju-lines", sniff_lines, read_lines))

__all__ = ["classify", "gtp_point", "iter_tar_lines", "read_forbidden_cases", "read_lines",
           "read_pos_diagram", "read_rec", "read_rif", "read_tar_xz", "write_lines", "write_rec",
           "write_rif", "COLUMNS"]
