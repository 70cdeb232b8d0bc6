"""Record readers for Guobiao mahjong: PMN (Portable Majiang Notation) and Botzone logs.

Both formats list the deal, every draw, discard and claim, and the fans and scores of the win.
A reader rebuilds the wall from the draws (tiles never drawn fill the unseen middle in canonical
order), then drives the referee through the record: each claim window gets the recorded claims
(including the ones Botzone marks ``Ignore``, which lost on priority) and a ``pass`` from every
other seat the referee asked. The record's result text holds the scores and the winners' fans,
so ``qipai replay`` checks both.

PMN: tags ``[Deal "..."]`` (E S W N hands as ``c..d..b..w..r..f..``), ``[Play "..."]``
(``T`` take, ``D`` discard — ``z1`` is the tile just taken —, ``C`` chow naming the middle
tile, ``P`` pung, ``A`` concealed kong, ``B`` added kong, ``Z`` kong on a discard, ``R`` flower,
``H`` win), ``[Fan "..."]`` (``no/value/count`` triples per seat), ``[Result "..."]``.
Botzone: ``Match``, ``Wind``, four ``Player n Deal``, then ``Player n Draw|Play|Chi|Peng|Gang|
AnGang|BuGang|Hu X`` lines, ``Fan``/``Score`` or ``Huang``/``Score``. On a self-drawn win the
``Hu`` line names a stale tile; the winning tile is the one of the preceding ``Draw``.
"""

from __future__ import annotations

import re

from qipai.core.errors import IllegalAction, QipaiError, RecordError, why_inner
from qipai.core.formats import Reader, register_reader
from qipai.core.record import Record
from qipai.tiles.tile import NUM_KINDS, format_tiles
from qipai.tiles.wall import tile_set

from .fantable import BY_NAME, FANS

# ----- shared driver ---------------------------------------------------------------------------


class _Event:
    __slots__ = ("seat", "kind", "tile", "line", "extra")

    def __init__(self, seat: int, kind: str, tile: int | None, line: int, extra=()):
        self.seat, self.kind, self.tile, self.line, self.extra = seat, kind, tile, line, list(extra)


def _drive(game, deal, events: list[_Event], source: str, game_no: int) -> tuple[list, list]:
    """Run the referee through ``events``; returns (actions as [seat, text], source lines)."""
    state = game.new_state(deal=deal)
    actions: list = []
    lines: list = []

    def act(seat: int, text: str, line: int) -> None:
        try:
            state.apply(text, seat=seat)
        except IllegalAction as e:
            raise RecordError(f"illegal: {e.reason}", source=source, game=game_no, line=line,
                              move=len(actions) + 1, text=f"seat {seat}: {text}",
                              code="record.illegal_move", params=why_inner(e, "illegal")) from None
        actions.append([seat, text])
        lines.append(line)

    def close_window(line: int, keep: tuple[int, ...] = ()) -> None:
        for s in list(state.to_act):
            if state.phase != "turn" and s not in keep:
                act(s, "pass", line)

    for ev in events:
        if state.is_terminal():
            raise RecordError("the hand is already over", source=source, game=game_no, line=ev.line,
                              code="record.mj.hand_over")
        k, s, t = ev.kind, ev.seat, ev.tile
        if k == "draw":
            close_window(ev.line)
            if state.is_terminal():
                raise RecordError("the wall ran out before this draw", source=source, game=game_no,
                                  line=ev.line, code="record.mj.wall_out")
            if state.current != s or state.drawn != t:
                got = format_tiles([state.drawn]) if state.drawn is not None else "nothing"
                raise RecordError(f"seat {s} draws {format_tiles([t])} but the referee gives seat "
                                  f"{state.current} {got}", source=source, game=game_no, line=ev.line,
                                  code="record.mj.other_draw",
                                  params={"seat": s, "tile": format_tiles([t]), "current": state.current,
                                          "got": got})
            continue
        if k in ("discard", "ckong", "add") or (k == "win" and state.phase == "turn" and state.current == s
                                                 and s in state.to_act):
            close_window(ev.line)
            text = {"discard": f"discard {format_tiles([t])}", "ckong": f"kong {format_tiles([t])}",
                    "add": f"add {format_tiles([t])}", "win": "win"}[k]
            act(s, text, ev.line)
            continue
        # a claim on the latest discard or added kong
        claims = [(s, k, t)] + ev.extra
        for cs, ck, ct in claims:
            text = {"chow": f"chow {format_tiles([ct - 1, ct, ct + 1])}" if ct is not None else "chow",
                    "pung": "pung", "kong": "kong", "win": "win"}[ck]
            if cs in state.to_act:
                act(cs, text, ev.line)
        close_window(ev.line)
    close_window(events[-1].line if events else 0)
    return actions, lines


def _fill_wall(seen: list[int], flowers: bool) -> list[int]:
    rest = tile_set(flowers)
    for t in seen:
        try:
            rest.remove(t)
        except ValueError:
            raise RecordError(f"the record uses {format_tiles([t])} more often than the tile set "
                              "has", code="record.mj.too_many", params={"tile": format_tiles([t])}) from None
    return rest


def _fans_of(pairs: list[tuple[int, int]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for no, c in pairs:
        out[no] = out.get(no, 0) + c
    return out


# ----- Botzone -----------------------------------------------------------------------------------
_BZ_TILE = re.compile(r"^([WBTFJ])(\d)$")


def _bz_tile(text: str) -> int:
    m = _BZ_TILE.match(text)
    if not m:
        raise ValueError(text)
    s, n = m.group(1), int(m.group(2))
    if s in "WBT":
        if not 1 <= n <= 9:
            raise ValueError(text)
        return "WBT".index(s) * 9 + n - 1
    if s == "F" and 1 <= n <= 4:
        return 26 + n
    if s == "J" and 1 <= n <= 3:
        return 30 + n
    raise ValueError(text)


def _bz_sniff(data: bytes) -> bool:
    head = data.lstrip()[:200]
    return head.startswith(b"Match ") and b"\nWind " in head


_BZ_KIND = {"Draw": "draw", "Play": "discard", "Chi": "chow", "Peng": "pung", "Gang": "kong",
            "AnGang": "ckong", "BuGang": "add", "Hu": "win"}


def _bz_read(data: bytes, source: str) -> list[Record]:
    from qipai.core.registry import load

    text = data.decode("utf-8-sig")
    lines = text.splitlines()
    records = []
    i = 0
    game_no = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        start = i
        while i < len(lines) and lines[i].strip():
            i += 1
        game_no += 1
        records.append(_bz_round(lines[start:i], start + 1, source, game_no, load))
    return records


def _bz_round(block: list[str], first_line: int, source: str, game_no: int, load) -> Record:
    def err(msg: str, k: int, *, code: str, params: dict | None = None) -> RecordError:
        return RecordError(msg, source=source, game=game_no, line=first_line + k, code=code, params=params)

    if not block[0].startswith("Match ") or len(block) < 7 or not block[1].startswith("Wind "):
        raise err("a round starts with 'Match <id>' and 'Wind <0-3>'", 0, code="record.mj.round_start")
    match_id = block[0].split()[1]
    wind = int(block[1].split()[1]) % 4
    hands = []
    for k in range(2, 6):
        w = block[k].split()
        if w[:1] != ["Player"] or w[2:3] != ["Deal"] or len(w) != 16 or int(w[1]) != k - 2:
            raise err("expected 'Player n Deal' with 13 tiles", k, code="record.mj.player_deal")
        try:
            hands.append([_bz_tile(x) for x in w[3:]])
        except ValueError as e:
            raise err(f"bad tile {e}", k, code="record.mj.bad_tile", params={"tile": str(e)}) from None
    events: list[_Event] = []
    segments: list[list[int]] = [[], [], [], []]
    expected_scores = None
    fan_line = None
    last_draw: dict[int, int] = {}
    for k in range(6, len(block)):
        w = block[k].split()
        line = first_line + k
        if w[:1] == ["Fan"]:
            fan_line = (w, line)
            continue
        if w[:1] == ["Score"]:
            expected_scores = [int(x) for x in w[1:5]]
            continue
        if w[:1] == ["Huang"]:
            continue
        if w[:1] != ["Player"] or len(w) < 4 or w[2] not in _BZ_KIND:
            raise err(f"unreadable line {block[k]!r}", k,
                      code="record.mj.bad_line", params={"line": block[k]})
        seat = int(w[1])
        try:
            tile = _bz_tile(w[3])
        except ValueError:
            raise err(f"bad tile {w[3]!r}", k, code="record.mj.bad_tile", params={"tile": w[3]}) from None
        kind = _BZ_KIND[w[2]]
        extra = []
        j = 4
        while j + 4 < len(w) + 1 and j < len(w) and w[j] == "Ignore":
            ik = {"CHI": "chow", "PENG": "pung", "GANG": "kong", "HU": "win"}.get(w[j + 3].upper())
            if ik is None:
                raise err(f"unknown ignored claim {w[j + 3]!r}", k,
                          code="record.mj.ignored_claim", params={"claim": w[j + 3]})
            it = _bz_tile(w[j + 4])
            extra.append((int(w[j + 2]), ik, it))
            j += 5
        if kind == "draw":
            segments[seat].append(tile)
            last_draw[seat] = tile
        if kind == "win" and events and events[-1].kind == "draw" and events[-1].seat == seat:
            tile = events[-1].tile       # self-drawn: the Hu line repeats a stale tile
        events.append(_Event(seat, kind, tile, line, extra))
    seen = [t for h in hands for t in h] + [t for s in segments for t in s]
    try:
        rest = _fill_wall(seen, flowers=False)
    except RecordError as e:
        raise err(e.reason, 0,
                  code="record.mj.wall",
                  params={"inner": e.code or "record.unreadable", **e.params}) from None
    size = (136 - 52) // 4
    for s in range(4):
        if len(segments[s]) > size:
            raise err(f"seat {s} draws {len(segments[s])} tiles, its wall segment has {size}", 0,
                      code="record.mj.segment", params={"seat": s, "n": len(segments[s]), "size": size})
        need = size - len(segments[s])
        segments[s] += rest[:need]
        rest = rest[need:]
    deal = [{"hands": [format_tiles(h) for h in hands], "segments": [format_tiles(s,
        sort=False) for s in segments],
             "prevalent": wind}]
    options = {"use_flowers": False, "wall_layout": "botzone4", "hands_per_match": 1,
        "seat_rotation": "fixed"}
    game = load("mahjong-gb", **options)
    try:
        actions, move_lines = _drive(game, deal, events, source, game_no)
    except QipaiError as e:
        if isinstance(e, RecordError):
            raise
        raise err(str(e), 0, code="record.mj.bad_game", params=why_inner(e, "record.unreadable")) from None
    result = None
    if expected_scores is not None:
        from .state import result_text

        wins = []
        if fan_line is not None:
            w, line = fan_line
            total = int(w[1])
            fans = []
            for part in " ".join(w[2:]).split("+"):
                name, _, count = part.partition("*")
                if name.strip() not in BY_NAME:
                    raise RecordError(f"unknown fan {name!r}", source=source, game=game_no, line=line,
                                      code="record.mj.unknown_fan", params={"name": name})
                fans.append((BY_NAME[name.strip()], int(count or 1)))
            winner = next(ev.seat for ev in reversed(events) if ev.kind == "win")
            wins.append((winner, _fans_of(fans), total))
        result = {"text": result_text(expected_scores, wins), "reason": "win" if wins else "drawn_hand",
                  "returns": expected_scores}
    return Record(game="mahjong-gb", options=options, actions=actions, deal=deal, result=result,
                  meta={"match": match_id, "move_lines": move_lines, "game_index": game_no,
                      "format": "botzone"})


# ----- PMN ---------------------------------------------------------------------------------------
_PMN_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
_PMN_TOKEN = re.compile(r"([TDCPABZRHN])([0-3])(?:([cdbwrfz])(\d))?")
_PMN_SUIT = {"c": 0, "d": 9, "b": 18}


def _pmn_tile(suit: str, n: int) -> int:
    if suit in _PMN_SUIT and 1 <= n <= 9:
        return _PMN_SUIT[suit] + n - 1
    if suit == "w" and 1 <= n <= 4:
        return 26 + n
    if suit == "r" and 1 <= n <= 3:
        return 30 + n
    if suit == "f" and 1 <= n <= 8:
        return NUM_KINDS + n - 1
    raise ValueError(f"{suit}{n}")


def _pmn_hand(text: str) -> list[int]:
    out = []
    suit = None
    for ch in text:
        if ch in "cdbwrf":
            suit = ch
        elif ch.isdecimal() and suit:
            out.append(_pmn_tile(suit, int(ch)))
        else:
            raise ValueError(text)
    return out


def _pmn_sniff(data: bytes) -> bool:
    head = data.lstrip()[:2000]
    return head.startswith(b"[") and b'[Deal "' in head and b'[Play "' in data


def _pmn_read(data: bytes, source: str) -> list[Record]:
    from qipai.core.registry import load

    text = data.decode("utf-8-sig")
    games: list[tuple[dict[str, tuple[str, int]], int]] = []
    tags: dict[str, tuple[str, int]] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            if tags:
                games.append(tags)
                tags = {}
            continue
        m = _PMN_TAG.match(line)
        if not m:
            raise RecordError(f"not a tag pair: {line!r}", source=source, line=n,
                              code="record.mj.not_tag", params={"line": line})
        tags[m.group(1)] = (m.group(2), n)
    if tags:
        games.append(tags)
    return [_pmn_game(g, source, i, load) for i, g in enumerate(games, 1)]


def _pmn_game(tags, source: str, game_no: int, load) -> Record:
    def err(msg: str, tag: str, *, code: str, params: dict | None = None) -> RecordError:
        return RecordError(msg, source=source, game=game_no, line=tags.get(tag, ("", None))[1],
                           code=code, params=params)

    for need in ("Deal", "Play", "Result"):
        if need not in tags:
            raise err(f"missing tag {need}", "Deal", code="record.mj.missing_tag", params={"tag": need})
    try:
        hands = [_pmn_hand(h) for h in tags["Deal"][0].split()]
    except ValueError as e:
        raise err(f"bad deal {e}", "Deal", code="record.mj.bad_tile", params={"tile": str(e)}) from None
    if len(hands) != 4 or any(len(h) != 13 for h in hands):
        raise err("the deal needs four hands of 13 tiles", "Deal", code="record.mj.deal_hands")
    play, play_line = tags["Play"]
    pos = 0
    head: list[int] = []
    tail: list[int] = []
    events: list[_Event] = []
    replacement = False
    drawn: dict[int, int] = {}
    pending_wins: list[int] = []
    while pos < len(play):
        m = _PMN_TOKEN.match(play, pos)
        if not m:
            raise err(f"unreadable play at character {pos + 1}: {play[pos:pos + 8]!r}", "Play",
                      code="record.mj.bad_play", params={"at": pos + 1, "text": play[pos:pos + 8]})
        pos = m.end()
        act, seat = m.group(1), int(m.group(2))
        tile = None
        if m.group(3):
            if m.group(3) == "z":
                tile = drawn.get(seat)
                if tile is None:
                    raise err(f"'z' at character {m.start() + 1} but seat {seat} has not drawn", "Play",
                              code="record.mj.not_drawn", params={"at": m.start() + 1, "seat": seat})
            else:
                try:
                    tile = _pmn_tile(m.group(3), int(m.group(4)))
                except ValueError as e:
                    raise err(f"bad tile {e}", "Play",
                              code="record.mj.bad_tile", params={"tile": str(e)}) from None
        if act == "T":
            (tail if replacement else head).append(tile)
            replacement = False
            drawn[seat] = tile
            if tile < NUM_KINDS:
                events.append(_Event(seat, "draw", tile, play_line))
            continue
        if act == "R":
            replacement = True
            continue
        if act in ("A", "B", "Z"):
            replacement = True
        if act == "H":
            pending_wins.append(seat)
            continue
        kind = {"D": "discard", "C": "chow", "P": "pung", "A": "ckong", "B": "add", "Z": "kong"}.get(act)
        if kind is None:      # N: no game
            continue
        events.append(_Event(seat, kind, tile, play_line))
    if pending_wins:
        first = pending_wins[0]
        events.append(_Event(first, "win", None, play_line, [(s, "win", None) for s in pending_wins[1:]]))
    # chow tokens name the middle tile (python-majiang writes the claimed tile first in the meld,
    # and both of its samples have the claimed tile in the middle)
    seen = [t for h in hands for t in h] + head + tail
    flowers = True
    try:
        rest = _fill_wall(seen, flowers)
    except RecordError as e:
        raise err(e.reason, "Play",
                  code="record.mj.wall",
                  params={"inner": e.code or "record.unreadable", **e.params}) from None
    wall = head + rest + list(reversed(tail))
    pwind = tags.get("PWind", ("E", 0))[0]
    deal = [{"hands": [format_tiles(h) for h in hands], "wall": format_tiles(wall, sort=False),
             "prevalent": "ESWN".index(pwind) if pwind in ("E", "S", "W", "N") else 0}]
    duplicate = "duplicate" in tags.get("Scoring", ("", 0))[0].lower()
    options = {"hands_per_match": 1, "seat_rotation": "fixed", "multiple_winners": len(pending_wins) > 1,
               "duplicate_scoring": duplicate}
    game = load("mahjong-gb", **options)
    actions, move_lines = _drive(game, deal, events, source, game_no)
    from .state import result_text

    try:
        start = [int(x) for x in tags.get("Starting", ("0 0 0 0", 0))[0].split()]
        final = [int(x) for x in tags["Result"][0].split()]
    except ValueError:
        raise err("Result and Starting are four integers", "Result", code="record.mj.result_ints") from None
    scores = [f - s for f, s in zip(final, start)]
    wins = []
    if "Fan" in tags:
        for seat, part in enumerate(tags["Fan"][0].split()):
            if part == "None":
                continue
            pairs = []
            total = 0
            for triple in part.split("."):
                no, value, count = (int(x) for x in triple.split("/"))
                if no not in FANS or FANS[no][2] != value:
                    raise err(f"fan {no} with value {value} is not in the fan table", "Fan",
                              code="record.mj.fan_table", params={"no": no, "value": value})
                pairs.append((no, count))
                total += value * count
            wins.append((seat, _fans_of(pairs), total))
    result = {"text": result_text(scores, wins), "reason": "win" if wins else "drawn_hand", "returns": scores}
    meta = {k: v[0] for k, v in tags.items() if k in ("Event", "Site", "Date", "Board")}
    meta.update({"move_lines": move_lines, "game_index": game_no, "format": "pmn"})
    return Record(game="mahjong-gb", options=options, actions=actions, deal=deal, result=result,
                  seats=[tags.get(w, ("", 0))[0] for w in ("East", "South", "West", "North")], meta=meta)


register_reader(Reader("botzone-mahjong", _bz_sniff, _bz_read))
register_reader(Reader("pmn", _pmn_sniff, _pmn_read))
