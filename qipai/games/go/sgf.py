"""SGF records of go games: reading (registered for ``qipai replay``) and writing.

Reading (:func:`read_sgf`) follows the main line of every game tree and builds one
:class:`~qipai.core.record.Record` per game:

* options: ``board_size`` from ``SZ`` (default 19); ``scoring = free_komi`` with ``komi`` from
  ``KM`` (Fox writes komi times 100: ``KM[750]`` is 7.5, so a komi of 100 or more is divided by
  100); the default positional superko; ``end_procedure = agreement``;
* setup stones ``AB``/``AW``/``PL`` of the root become the ``position``; with ``HA[n]`` (n >= 2)
  White's handicap compensation of n points is added to the komi, as the ``handicap`` option
  does;
* ``B[dp]``/``W[]`` moves become GTP actions; ``B[tt]`` is a pass. Two passes followed by more
  moves mean the players did not accept the end: a ``resume`` is put between them;
* ``RE``: ``B+R`` resign, ``B+T`` timeout, ``B+F`` forfeit, a number or ``0``/``Draw`` a
  counted result (applied as an ``agreement`` ending, since the record does not say which
  stones were dead); ``Void`` or ``?`` leave the game without result;
* a counted game whose last node carries marks (``TB``/``TW`` territory, ``AE`` dead stones
  taken off) is recounted from them (:mod:`.recount`) and the count compared with ``RE``:
  by territory for Japanese or Korean rules (``RU[Japanese]``: territory + prisoners + dead
  stones, komi ``KM`` only), by area for area rules (``RU[Chinese]`` and the like), both for
  a record without known rules (either may match). A count that disagrees with ``RE`` is a
  :class:`RecordError` naming the marks (the record contradicts itself; no move is illegal).
  When the area count is the one that matches, the game is closed with two passes (if
  needed) and both players' marks of the dead stones, so replay counts it again through the
  referee; ``meta["recount"]`` holds the matching count.

Errors name the file, the game, the line and, for a property, its column.
"""

from __future__ import annotations

import math
import re
from typing import Any

from qipai.core.errors import NotationError, RecordError, why_inner
from qipai.core.formats import Reader, register_reader, register_writer
from qipai.core.record import Record

from .actions import result_margin
from .coords import PASS, from_sgf, to_gtp, to_sgf
from .recount import area_count, territory_count
from .rules import SIZES, GoState
from .sgf_parse import Node, escape, parse

AREA_RULES = ("chinese", "cn", "aga", "nz", "new zealand", "tromp-taylor", "tromp taylor")
TERRITORY_RULES = ("japanese", "korean", "jp", "ja", "kr", "ko")


def rules_kind(ru: str | None, fox: bool = False) -> str:
    """How an ``RU`` value counts: ``area``, ``territory`` or ``unknown`` (missing, or a rules
    name we do not know). Fox's ``RU[Japanese]`` (``fox``: its komi x100) is ``unknown``: Fox
    labels its games Japanese but counts by area."""
    low = (ru or "").strip().lower()
    if low in AREA_RULES:
        return "area"
    if not fox and low.split(" ")[0] in TERRITORY_RULES:
        return "territory"
    return "unknown"


def _decode(data: bytes) -> str:
    m = re.search(rb"CA\[([^\]]*)\]", data[:4000])
    enc = m.group(1).decode("ascii", "replace").strip() if m else "utf-8"
    for e in (enc, "utf-8", "gb18030", "latin-1"):
        try:
            return data.decode(e).lstrip("\ufeff")
        except (LookupError, UnicodeDecodeError):
            continue
    return data.decode("latin-1")


def _sniff(data: bytes) -> bool:
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:4000]
    if not head.startswith(b"("):
        return False
    if not re.match(rb"\(\s*;", head):
        return False
    gm = re.search(rb"GM\[\s*(\d+)\s*\]", head)
    return gm is None or gm.group(1) == b"1"


def read_komi(text: str | None) -> float:
    """The komi of an SGF ``KM`` value (missing: 0; Fox's ``750`` = 7.5). Raises ValueError."""
    if text is None or text.strip() == "":
        return 0.0
    k = float(text.strip())
    if not math.isfinite(k):
        raise ValueError(f"komi {text!r} is not a finite number")
    if abs(k) >= 100:          # Fox (野狐) writes komi x 100
        k /= 100
    k = round(k * 4) / 4
    if abs(k) > 1000:
        raise ValueError(f"komi {text!r} is out of range (within ±1000 points, or Fox's x100)")
    return k


def _result(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    t = text.strip()
    low = t.lower()
    if low in ("", "?", "void", "unknown", "none"):
        return None
    if low in ("0", "draw", "jigo", "d", "b+0", "w+0", "b+0.0", "w+0.0"):
        return {"text": "0", "reason": "agreement"}
    m = re.fullmatch(r"([bw])\+(.*)", low)
    if not m:
        raise ValueError(f"unknown result {text!r}")
    side, rest = m.group(1).upper(), m.group(2).strip()
    if rest in ("r", "resign"):
        return {"text": f"{side}+R", "reason": "resign"}
    if rest in ("t", "time"):
        return {"text": f"{side}+T", "reason": "timeout"}
    if rest in ("f", "forfeit"):
        return {"text": f"{side}+F", "reason": "forfeit"}
    if rest == "":
        return {"text": f"{side}+", "reason": "unknown"}
    x = result_margin(rest)
    if x is None:
        raise ValueError(f"unknown result {text!r} (the margin must be a finite number of "
                         "points, 0 or more, a multiple of 0.25: no count gives another)")
    return {"text": f"{side}+{x:g}", "reason": "agreement"}


def read_sgf(data: bytes | str, source: str = "<sgf>") -> list[Record]:
    """Every game of the SGF collection ``data`` as a record. Raises :class:`RecordError`."""
    text = _decode(data) if isinstance(data, bytes) else data
    trees = parse(text, source)
    return [_record(t.main_line(), source, i) for i, t in enumerate(trees, 1)]


def _err(reason: str, source: str, game: int, node: Node | None = None, prop=None, *,
         code: str, params: dict[str, Any] | None = None) -> RecordError:
    """The error ``reason`` (catalogue ``refusal.<code>`` with ``params``) at ``prop`` or
    ``node`` of game ``game``."""
    line = prop.line if prop is not None else node.line if node is not None else None
    params = dict(params or {})
    if prop is not None:
        value = prop.values[0] if prop.values else ""
        reason = f"property {prop.ident}[{value}] (column {prop.col}): {reason}"
        params = {**params, "what": code, "prop": prop.ident, "value": value, "col": prop.col}
        code = "record.sgf.at_property"
    return RecordError(reason, source=source, game=game, line=line, code=code, params=params)


def _record(nodes: list[Node], source: str, game: int) -> Record:
    root = nodes[0]
    gm = root.get("GM")
    if gm is not None and gm.values[0].strip() not in ("1", ""):
        raise _err("not a go record (GM must be 1)", source, game, prop=gm, code="record.sgf.not_go")
    size = 19
    sz = root.get("SZ")
    if sz is not None:
        v = sz.values[0].strip()
        if not v.isdecimal() or int(v) not in SIZES:
            raise _err(f"board size must be one of {', '.join(map(str, SIZES))}", source, game, prop=sz,
                       code="record.sgf.board_size", params={"valid": list(SIZES)})
        size = int(v)
    km = root.get("KM")
    try:
        komi = read_komi(km.values[0] if km else None)
    except ValueError as e:
        raise _err(f"komi is not usable: {e}", source, game, prop=km,
                   code="record.sgf.bad_komi", params=why_inner(e, "record.unreadable")) from None
    ha = (root.value("HA") or "0").strip()
    if ha.isdecimal() and int(ha) >= 2:
        komi += int(ha)        # White receives one point per handicap stone (as the option does)
        if komi > 1000:
            raise _err("handicap out of range", source, game, prop=root.get("HA"), code="record.sgf.handicap")
    rules = (root.value("RU") or "").strip()
    # records of people: dead stones by agreement (§4.2), resumed play included
    options: dict[str, Any] = {"board_size": size, "scoring": "free_komi", "komi": komi,
                               "end_procedure": "agreement"}
    setup = []
    for prop in root.props:
        if prop.ident in ("AB", "AW", "AE", "PL"):
            if prop.ident == "AE":
                raise _err("AE (clear points) is not supported in a setup", source, game, prop=prop,
                           code="record.sgf.ae_setup")
            setup.append(prop.ident + "".join(f"[{v}]" for v in prop.values))
            _check_setup(setup, options, source, game, prop)
    re_prop = root.get("RE")
    try:
        result = _result(re_prop.values[0] if re_prop else None)
    except ValueError as e:
        raise _err(str(e), source, game, prop=re_prop,
                   code="record.sgf.bad_result", params=why_inner(e, "record.unreadable")) from None
    actions: list[Any] = []
    lines: list[int] = []
    colour_next = None
    passes = 0
    for idx, node in enumerate(nodes):
        move = node.get("B") or node.get("W")
        if node.get("B") and node.get("W"):
            raise _err("a node holds both a B and a W move", source, game, node, code="record.sgf.both_moves")
        if idx > 0:
            for ident in ("AB", "AW", "AE"):
                p = node.get(ident)
                if p is not None and not (ident == "AE" and idx == len(nodes) - 1 and move is None):
                    raise _err("setup stones after the first node are not supported (AE is read "
                               "only on the last node, as dead stones taken off)",
                               source, game, prop=p, code="record.sgf.late_setup")
        if move is None:
            continue
        colour = move.ident
        if len(move.values) != 1:
            raise _err(f"a move has one value, not {len(move.values)}", source, game, prop=move,
                       code="record.sgf.move_values", params={"n": len(move.values)})
        if colour_next is not None and colour != colour_next:
            raise _err(f"{colour} moves twice in a row (colours must alternate)",
                       source, game, prop=move, code="record.sgf.twice", params={"colour": colour})
        try:
            p = from_sgf(move.values[0], size)
        except NotationError as e:
            raise _err(str(e), source, game, prop=move,
                       code="record.sgf.bad_point", params=why_inner(e, "record.unreadable")) from None
        if passes >= 2:        # play went on after two passes: the end was not accepted
            actions.append([0 if colour == "B" else 1, "resume"])
            lines.append(move.line)
            passes = 0
        passes = passes + 1 if p == PASS else 0
        actions.append(to_gtp(p, size))
        lines.append(move.line)
        colour_next = "W" if colour == "B" else "B"
    position = "".join(setup) or None
    meta: dict[str, Any] = {"move_lines": lines, "game_index": game, "format": "sgf"}
    for ident, key in (("EV", "event"), ("DT", "date"), ("PC", "place"), ("RO", "round"),
                       ("RU", "rules"), ("KM", "komi_recorded"), ("AP", "application")):
        v = root.value(ident)
        if v is not None:
            meta[key] = v
    warning = _komi_warning(result, komi, re_prop)
    if warning:
        meta["warnings"] = [warning]
    seats = [root.value("PB") or "Black", root.value("PW") or "White"]
    first = next((n for n in nodes if n.get("B") or n.get("W")), None)
    white_first = first.get("W") is not None if first is not None else (
        ha.isdecimal() and int(ha) >= 2 and "AB[" in (position or ""))   # handicap: White next
    if white_first and "PL[" not in (position or ""):
        position = (position or "") + "PL[W]"       # White moves first
    # dead-stone and territory marks on the last node: recount and compare with RE
    last = nodes[-1] if len(nodes) > 1 else None
    marks = [last.get(i) for i in ("TB", "TW", "AE")] if last is not None else [None] * 3
    counted = result is not None and result["reason"] == "agreement"
    if counted and any(marks):
        fox = km is not None and km.values[0].strip() != "" and abs(float(km.values[0])) >= 100
        closing = _check_marks(marks, actions, position, options, rules_kind(rules, fox),
                               read_komi(km.values[0] if km else None), result["text"], meta,
                               source, game)
        if closing is not None:
            actions.extend(closing)
            lines.extend([next(m for m in marks if m).line] * len(closing))
            meta["closing_actions"] = len(closing)     # added by the reader, not in the SGF
            result = dict(result, reason="counted")
    return Record(game="go", options=options, actions=actions, seats=seats, position=position,
                  result=result, meta=meta)


def _komi_warning(result: dict[str, Any] | None, komi: float, prop) -> str | None:
    """A warning when a counted result cannot come from a count with the recorded komi.

    A count gives (B - W) as a whole number (rules §4.3), so ``B+x`` needs ``x + komi`` whole
    and ``W+x`` needs ``komi - x`` whole. Real records break this when ``KM`` is missing or
    wrong (``KM[0]`` with ``RE[B+1.5]``), or give a Chinese margin in stones (``W+1.25``); the
    moves are still good, so the record is read and the result kept, with this warning."""
    if result is None or result["reason"] != "agreement" or result["text"] == "0":
        return None
    t = result["text"]
    if t[2:] in ("", "R", "T", "F"):
        return None
    x = float(t[2:])
    diff = x + komi if t[0] == "B" else komi - x
    if diff == int(diff):
        return None
    return (f"RE[{prop.values[0]}] (line {prop.line}) cannot come from a count with komi "
            f"{komi:g}: Black minus White would be {diff:g}, not a whole number (KM missing or "
            "wrong, or a margin in stones); the result is kept as recorded")


def _check_setup(setup: list[str], options: dict[str, Any], source: str, game: int, prop) -> None:
    """Raise a RecordError naming ``prop`` when the setup so far cannot stand on the board."""
    from qipai.core.errors import IllegalAction
    from qipai.core.registry import load

    try:
        load("go", **options).new_state(position="".join(setup))
    except IllegalAction as e:
        raise _err(e.reason, source, game, prop=prop,
                   code="record.sgf.bad_setup", params=why_inner(e, "illegal")) from None


def _points(value: str, size: int) -> list[int]:
    if ":" in value:
        a, b = value.split(":", 1)
        pa, pb = from_sgf(a, size), from_sgf(b, size)
        r1, c1 = divmod(pa, size)
        r2, c2 = divmod(pb, size)
        return [r * size + c for r in range(min(r1, r2), max(r1, r2) + 1)
                for c in range(min(c1, c2), max(c1, c2) + 1)]
    return [from_sgf(value, size)]


def _check_marks(marks, actions, position, options, kind, territory_komi, recorded, meta,
                 source, game) -> list | None:
    """Recount a counted record from its ``TB``/``TW``/``AE`` marks (``marks``, in that order)
    and compare with the ``recorded`` result text. Returns the closing actions when the area
    count matches, ``None`` otherwise (territory match, or moves the replay will refuse).
    Raises :class:`RecordError` when no count of the record's rules matches."""
    from qipai.core.registry import load

    size = options["board_size"]
    pts = []
    for prop in marks:
        try:
            pts.append({q for v in (prop.values if prop else []) for q in _points(v, size)})
        except NotationError as e:
            raise _err(str(e), source, game, prop=prop,
                       code="record.sgf.bad_point", params=why_inner(e, "record.unreadable")) from None
    black_terr, white_terr, cleared = pts
    state = load("go", **options).new_state(position=position)
    for a in actions:
        seat = a[0] if isinstance(a, list) else None
        try:
            state.apply(a[1] if isinstance(a, list) else a, seat=seat)
        except Exception:
            return None          # the replay will name the bad move
    board = state.board
    where = next(m for m in marks if m)
    empty = sorted(p for p in cleared if board.color[p] == 0)
    if empty:
        raise _err(f"AE clears {to_sgf(empty[0], size)}, which holds no stone at the end",
                   source, game, prop=marks[2],
                   code="record.sgf.ae_empty", params={"point": to_sgf(empty[0], size)})
    counts = []
    if kind in ("area", "unknown"):
        counts.append(area_count(board, black_terr, white_terr, options["komi"], cleared))
    if kind in ("territory", "unknown"):
        counts.append(territory_count(board, black_terr, white_terr, territory_komi, cleared))
    match = next((c for c in counts if c.text == recorded), None)
    if match is None:
        rules = {"area": "area rules", "territory": "territory rules",
                 "unknown": "rules not given: area and territory tried"}[kind]
        # each count's figures as parameters (the words are the catalogue's): the first count's
        # method, black, white, komi, got; the second's (rules not given) with a 2
        params: dict[str, Any] = {"recorded": recorded}
        for c, tail in zip(counts, ("", "2")):
            params.update({f"method{tail}": c.method, f"black{tail}": f"{c.black:g}",
                           f"white{tail}": f"{c.white:g}", f"komi{tail}": f"{c.komi:g}",
                           f"got{tail}": c.text})
        raise _err(f"recorded result {recorded} disagrees with the record's own dead-stone and "
                   f"territory marks ({rules}): " + "; ".join(c.describe() for c in counts),
                   source, game, prop=where,
                   code="record.sgf.count_differs" if len(counts) == 1 else "record.sgf.counts_differ",
                   params=params)
    meta["recount"] = {"method": match.method, "black": match.black, "white": match.white,
                       "komi": match.komi, "text": match.text,
                       "dead": sorted(to_gtp(p, size) for p in match.dead)}
    if match.method == "territory":
        return None
    return _closing(state, match.dead, size)


def _closing(state: GoState, dead, size: int) -> list:
    """Passes to end play and both seats' marks of the chains through the ``dead`` points."""
    out: list[Any] = []
    while state.phase == "play" and not state.is_terminal():
        out.append("pass")
        state.apply("pass")
    if state.is_terminal():
        return out
    board = state.board
    dead = sorted(dead)
    heads = []
    for p in dead:
        h = board.head[p]
        if h not in heads:
            heads.append(h)
    for seat in (0, 1):
        for h in heads:
            out.append([seat, f"dead {to_gtp(min(board.stones[h]), size)}"])
        out.append([seat, "done"])
    return out


def write_sgf(state: GoState, seats: list[str] | None = None, meta: dict[str, Any] | None = None) -> str:
    """The game of ``state`` as SGF FF[4] text: plays and passes on the main line, the
    result, and (for a counted game) the territory with dead stones as ``TB``/``TW``."""
    game = state.game
    n = state.size
    meta = meta or {}
    komi = game.komi_points() + 0.0
    root = [f"GM[1]FF[4]CA[UTF-8]AP[qipai]SZ[{n}]RU[Chinese]KM[{komi:g}]"]
    if game.options["handicap"]:
        root.append(f"HA[{game.options['handicap']}]")
    black_seat = state.black_seat
    if seats:
        root.append(f"PB[{escape(seats[black_seat])}]PW[{escape(seats[1 - black_seat])}]")
    for ident, key in (("EV", "event"), ("DT", "date"), ("PC", "place")):
        if key in meta:
            root.append(f"{ident}[{escape(str(meta[key]))}]")
    if state.result is not None:
        root.append(f"RE[{state.result.text}]")
    # setup: handicap stones and the position's stones, from a fresh start state
    start = game.new_state(seed=state.seed, position=state.position)
    ab = [p for p in range(start.board.n) if start.board.color[p] == 1]
    aw = [p for p in range(start.board.n) if start.board.color[p] == 2]
    if ab:
        root.append("AB" + "".join(f"[{to_sgf(p, n)}]" for p in ab))
    if aw:
        root.append("AW" + "".join(f"[{to_sgf(p, n)}]" for p in aw))
    if start.to_move == 2 and not game.options["handicap"]:
        root.append("PL[W]")
    out = ["(;" + "".join(root)]
    colour = "B" if start.to_move == 1 else "W"
    body = []
    for p in state.moves:
        body.append(f";{colour}[{to_sgf(p, n)}]")
        colour = "W" if colour == "B" else "B"
    for i in range(0, len(body), 12):
        out.append("".join(body[i:i + 12]))
    res = state.result
    if res is not None and "black" in res.details and state.dead:
        owners = state.board.owners(state.dead)
        # territory, and every dead stone as the other side's (also where the count shares
        # its point), so a reader that removes the stones standing in TB/TW finds them all
        color = state.board.color
        tb = [p for p in range(state.board.n) if (owners[p] == 1 and color[p] != 1)
              or (p in state.dead and color[p] == 2)]
        tw = [p for p in range(state.board.n) if (owners[p] == 2 and color[p] != 2)
              or (p in state.dead and color[p] == 1)]
        mark = ";"
        if tb:
            mark += "TB" + "".join(f"[{to_sgf(p, n)}]" for p in tb)
        if tw:
            mark += "TW" + "".join(f"[{to_sgf(p, n)}]" for p in tw)
        if mark != ";":
            out.append(mark)
    return "\n".join(out) + ")\n"


def _read(data: bytes, source: str) -> list[Record]:
    return read_sgf(data, source)


register_reader(Reader("sgf-go", _sniff, _read))


def _write_records(records: list[Record]) -> str:
    from qipai.core.record import replay

    return "\n".join(write_sgf(replay(r), seats=r.seats, meta=r.meta) for r in records)


register_writer("go", "sgf", _write_records)
