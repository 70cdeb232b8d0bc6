"""Doudizhu record formats other than qipai's JSON record.

* **OpenSpiel playthrough** (``open_spiel/integration_tests/playthroughs/dou_dizhu.txt``): the
  text trace OpenSpiel writes for one game: chance actions (``Decide first card up position N``
  then 51 × ``Deal <suit><rank>``), then each player's action as ``# Apply action "<text>"``
  after a state block naming ``CurrentPlayer()``, and ``Returns()``. Read with the
  ``openspiel`` preset; the recorded returns are checked on replay.
* **Botzone FightTheLandlord** match logs: a JSON list (or ``{"log": [...]}``) alternating the
  judge's turn ``{"output": {"command": "request" | "finish", "content": {seat: request}}}`` and
  the bots' turn ``{seat: {"response": ..., "verdict": "OK"}}``. Cards are numbered 0..53:
  ``4 × rank + suit`` with ranks 3..2 as 0..12 and suits in the order ♥ ♦ ♠ ♣, 52 = small joker,
  53 = big joker. Requests: ``{"own", "bid"}`` while bidding (FightTheLandlord2; responses are
  0..3, 0 = pass), then ``{"own", "publiccard", "landlord", "pos", "finalbid", "history"}`` and
  later ``{"history": [[...], [...]]}`` (the plays of the two seats before, ``[]`` = pass);
  play responses are card number lists. Logs without bidding (the first FightTheLandlord:
  seat 0 is landlord) read with ``bidding = "none"``.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from qipai.cards import Card, make_deck
from qipai.core.errors import IllegalAction, QipaiError, RecordError, why_inner
from qipai.core.formats import Reader, register_reader
from qipai.core.record import Record

from .combos import ORDER, PASS

# ----- OpenSpiel playthrough ---------------------------------------------------------------

OPENSPIEL = "openspiel-playthrough"
_APPLY = re.compile(r'^# Apply action "(.*)"\s*$')
_PLAYER = re.compile(r"^CurrentPlayer\(\) = (-?\d+)\s*$")
_RETURNS = re.compile(r"^Returns\(\) = \[(.*)\]\s*$")
_OS_JOKERS = {"(BWJ)": "L", "(CJ)": "B"}


def _os_sniff(data: bytes) -> bool:
    return data.lstrip()[:20].startswith(b"game: dou_dizhu")


def _os_card(text: str) -> Card:
    if text in _OS_JOKERS:
        return Card(_OS_JOKERS[text], None, 0)
    if len(text) != 2:
        raise ValueError(f"bad OpenSpiel card {text!r}")
    return Card(text[1], text[0], 0)


def _os_ranks(text: str) -> str:
    for k, v in _OS_JOKERS.items():
        text = text.replace(k, v)
    return text


def read_openspiel(data: bytes, source: str = "<openspiel>") -> list[Record]:
    """Read one OpenSpiel ``dou_dizhu`` playthrough. Raises :class:`RecordError` with the line."""
    import qipai

    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as e:
        raise RecordError(f"not UTF-8 text (byte {e.start})", source=source,
                          code="record.not_utf8", params={"byte": e.start}) from None
    player = None
    face_pos = None
    dealt: list[Card] = []
    moves: list[tuple[int, int | None, str]] = []   # (line, seat if stated, text)
    returns = None
    for no, line in enumerate(lines, 1):
        if line.startswith("# State "):
            player = None                 # abbreviated state blocks omit CurrentPlayer()
            continue
        m = _PLAYER.match(line)
        if m:
            player = int(m.group(1))
            continue
        m = _RETURNS.match(line)
        if m:
            try:
                returns = [float(x) for x in m.group(1).split(",")] if m.group(1).strip() else []
                if not all(math.isfinite(x) for x in returns):
                    raise ValueError("not a finite number")
            except ValueError:
                raise RecordError("unreadable returns", source=source, line=no, text=line,
                                  code="record.ddz.bad_returns") from None
            continue
        m = _APPLY.match(line)
        if not m:
            continue
        text = m.group(1)
        if text.startswith("Decide first card up position "):
            pos = text.rsplit(" ", 1)[1]
            if not pos.isdecimal() or int(pos) >= 51:
                raise RecordError("the face-up position is a dealing position 0..50", source=source,
                                  line=no, text=text, code="record.ddz.face_up")
            face_pos = int(pos)
        elif text.startswith("Deal "):
            try:
                dealt.append(_os_card(text[5:]))
            except ValueError as e:
                raise RecordError(str(e), source=source, line=no, text=text,
                                  code="record.ddz.bad_card",
                                  params=why_inner(e, "record.unreadable")) from None
        elif player == -1:
            raise RecordError("unknown chance action", source=source, line=no, text=text,
                              code="record.ddz.chance")
        else:
            moves.append((no, player, text))
    if face_pos is None or len(dealt) != 51:
        raise RecordError(f"incomplete deal ({len(dealt)} of 51 cards dealt)", source=source,
                          code="record.ddz.incomplete_deal", params={"n": len(dealt)})
    kitty = [c for c in make_deck() if c not in dealt]
    hands = [[c.id for c in dealt[s::3]] for s in range(3)]
    deal = {"hands": hands, "kitty": [c.id for c in kitty], "face_up": dealt[face_pos].id,
            "first_bidder": face_pos % 3}
    game = qipai.load("doudizhu", preset="openspiel")
    try:
        state = game.new_state(deal=deal)
    except QipaiError as e:
        raise RecordError(f"bad deal: {e}", source=source,
                          code="record.ddz.bad_deal", params=why_inner(e, "record.unreadable")) from None
    actions, move_lines = [], []
    for no, seat, text in moves:
        if state.is_terminal():
            raise RecordError("move after the end of the game", source=source, line=no, text=text,
                              code="record.ddz.after_end")
        if seat is not None and seat != state.current_player:
            raise RecordError(f"seat {seat} acts but seat {state.current_player} is to act",
                              source=source, line=no, text=text,
                              code="record.ddz.not_to_act",
                              params={"seat": seat, "current": state.current_player})
        try:
            action = _os_action(game, state, text)
            state.apply(action)
        except IllegalAction as e:
            raise RecordError(f"illegal move: {e.reason}", source=source, line=no, text=text,
                              code="record.illegal_move", params=why_inner(e, "illegal")) from None
        except ValueError as e:
            raise RecordError(f"unreadable move: {e}", source=source, line=no, text=text,
                              code="record.ddz.unreadable_move",
                              params=why_inner(e, "record.unreadable")) from None
        actions.append(str(action))
        move_lines.append(no)
    result = None
    if returns is not None and state.is_terminal():
        got = state.result
        result = {"text": " ".join(_os_score(r) for r in returns), "reason": got.reason,
                  "returns": returns}
    return [Record(game="doudizhu", options={"preset": "openspiel"}, actions=actions, deal=deal,
                   result=result, meta={"source_format": OPENSPIEL, "move_lines": move_lines,
                                        "game_index": 1})]


def _os_score(r: float) -> str:
    """One recorded return in the form of ``Result.text`` (``+3``, ``-6``, ``0``); a fractional
    value keeps its fraction so that it can never pass for the referee's integer score."""
    if r != int(r):
        return f"{r:+g}"
    return f"{int(r):+d}" if r else "0"


def _os_action(game, state, text: str) -> Any:
    """One OpenSpiel action text as our action. OpenSpiel writes an airplane with wings as
    ``<body>-<wings>`` (``333444555-666``); that picks the kicker type when the same cards also
    read as a plane."""
    if text == "Pass":
        return PASS
    if text.startswith("Bid "):
        return game.parse_action("bid " + text[4:], state)
    ranks = _os_ranks(text)
    readings = game.table.readings(ORDER.parse_counts(ranks.replace("-", "")))
    if len(readings) > 1:
        kicker = "-" in ranks
        return next(p for p in readings if bool(p.kickers) == kicker)
    return game.parse_action(ranks.replace("-", "+"), state)


register_reader(Reader(OPENSPIEL, _os_sniff, read_openspiel))

# ----- Botzone FightTheLandlord -----------------------------------------------------------

BOTZONE = "botzone-fightthelandlord"
_BZ_SUITS = "HDSC"


def botzone_number(card: Card) -> int:
    """Botzone's card number 0..53 of ``card``."""
    if card.rank == "L":
        return 52
    if card.rank == "B":
        return 53
    return 4 * ORDER.index[card.rank] + _BZ_SUITS.index(card.suit)


def botzone_card(n: int) -> Card:
    """The card of Botzone number ``n`` (0..53). Raises ``ValueError``."""
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 53:
        raise ValueError(f"bad Botzone card number {n!r} (0..53)")
    if n == 52:
        return Card("L", None, 0)
    if n == 53:
        return Card("B", None, 0)
    return Card(ORDER.ranks[n // 4], _BZ_SUITS[n % 4], 0)


def _bz_entries(data: bytes) -> list | None:
    try:
        obj = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    if isinstance(obj, dict):
        obj = obj.get("log")
    if not isinstance(obj, list) or not obj:
        return None
    return obj


def _bz_sniff(data: bytes) -> bool:
    head = data.lstrip()[:1]
    if head not in (b"{", b"["):
        return False
    entries = _bz_entries(data)
    if not entries:
        return False
    first = entries[0]
    if not (isinstance(first, dict) and isinstance(first.get("output"), dict)):
        return False
    content = first["output"].get("content")
    return isinstance(content, dict) and any(
        isinstance(v, dict) and "own" in v for v in content.values())


def read_botzone(data: bytes, source: str = "<botzone>") -> list[Record]:
    """Read one Botzone FightTheLandlord match log into a record (hands from each seat's first
    ``own``, the kitty from ``publiccard``, bids and plays from the responses; plays are kept as
    rank strings since suits never matter). Raises :class:`RecordError` naming the turn."""
    entries = _bz_entries(data)
    if entries is None:
        raise RecordError("not a Botzone log (a JSON list of judge and bot turns)", source=source,
                          code="record.ddz.not_botzone")
    own: dict[int, list[int]] = {}
    public: list[int] | None = None
    landlord_seen = None
    bidding = False
    moves: list[tuple[int, int, Any]] = []       # (turn, seat, response)
    finish = None
    pending: list[int] = []
    for turn, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise RecordError("a log entry must be an object", source=source, move=turn,
                              code="record.ddz.entry_not_object")
        out = entry.get("output")
        if out is not None and not isinstance(out, dict):
            raise RecordError("a judge turn's 'output' must be an object", source=source, move=turn,
                              code="record.ddz.output_not_object")
        if isinstance(out, dict):
            content = out.get("content") or {}
            if not isinstance(content, dict):
                raise RecordError("a judge turn's content must be an object of seat requests",
                                  source=source, move=turn, code="record.ddz.content_not_object")
            if out.get("command") == "finish":
                finish = content
                break
            pending = []
            for key, req in content.items():
                try:
                    seat = int(key)
                except ValueError:
                    raise RecordError(f"bad seat {key!r}", source=source, move=turn,
                                      code="record.ddz.bad_seat", params={"seat": key}) from None
                pending.append(seat)
                if isinstance(req, dict):
                    for key in ("own", "publiccard"):
                        if key in req and not isinstance(req[key], list):
                            raise RecordError(f"'{key}' must be a list of card numbers", source=source,
                                              move=turn,
                                              code="record.ddz.cards_not_list", params={"key": key})
                    if "bid" in req:
                        bidding = True
                    if "own" in req and seat not in own:
                        own[seat] = list(req["own"])
                    if "publiccard" in req:
                        public = list(req["publiccard"])
                    if "landlord" in req:
                        landlord_seen = req["landlord"]
            continue
        for seat in pending:
            resp = entry.get(str(seat))
            if not isinstance(resp, dict) or "response" not in resp:
                raise RecordError(f"no response from seat {seat}", source=source, move=turn,
                                  code="record.ddz.no_response", params={"seat": seat})
            moves.append((turn, seat, resp["response"]))
    if sorted(own) != [0, 1, 2] or public is None:
        raise RecordError("the log does not show all three hands and the public cards", source=source,
                          code="record.ddz.hands_missing")
    try:
        kitty = [botzone_card(n) for n in public]
        hands = []
        for s in range(3):
            cards = [botzone_card(n) for n in own[s]]
            if len(cards) == 20:          # a landlord's own may include the public cards
                cards = [c for c in cards if c not in kitty]
            hands.append([c.id for c in cards])
    except ValueError as e:
        raise RecordError(str(e), source=source,
                          code="record.ddz.bad_card", params=why_inner(e, "record.unreadable")) from None
    options: dict[str, Any] = {"preset": "classic", "spring": True}
    if not bidding:
        options["bidding"] = "none"
    first = 0
    deal = {"hands": hands, "kitty": [c.id for c in kitty], "first_bidder": first}
    import qipai

    game = qipai.load("doudizhu", **options)
    try:
        state = game.new_state(deal=deal)
    except QipaiError as e:
        raise RecordError(f"bad deal: {e}", source=source,
                          code="record.ddz.bad_deal", params=why_inner(e, "record.unreadable")) from None
    actions: list[str] = []
    for turn, seat, resp in moves:
        if state.is_terminal():
            break
        if state.phase == "bidding" and state.landlord is None and _bz_bid(resp) is not None:
            text = "pass" if _bz_bid(resp) == 0 else f"bid {_bz_bid(resp)}"
        elif isinstance(resp, list):
            if not resp:
                text = "pass"
            else:
                try:
                    text = ORDER.format_counts(ORDER.counts_of(botzone_card(n) for n in resp))
                except ValueError as e:
                    raise RecordError(str(e), source=source, move=turn,
                                      code="record.ddz.bad_card",
                                      params=why_inner(e, "record.unreadable")) from None
        elif state.phase != "bidding" and _bz_bid(resp) is not None:
            continue                      # a late bid answer after bid 3 ended the bidding
        else:
            raise RecordError(f"unreadable response {resp!r}", source=source, move=turn,
                              code="record.ddz.bad_response", params={"response": str(resp)})
        if seat != state.current_player:
            raise RecordError(f"seat {seat} answered but seat {state.current_player} is to act",
                              source=source, move=turn, text=text,
                              code="record.ddz.not_to_act",
                              params={"seat": seat, "current": state.current_player})
        try:
            state.apply(text)
        except IllegalAction as e:
            raise RecordError(f"illegal move: {e.reason}", source=source, move=turn, text=text,
                              code="record.illegal_move", params=why_inner(e, "illegal")) from None
        actions.append(state.log[-1])
    if landlord_seen is not None and state.landlord is not None and landlord_seen != state.landlord:
        raise RecordError(f"the log names landlord {landlord_seen}, the bids give {state.landlord}",
                          source=source,
                          code="record.ddz.landlord_differs",
                          params={"seen": landlord_seen, "got": state.landlord})
    meta: dict[str, Any] = {"source_format": BOTZONE, "game_index": 1}
    if finish is not None:
        meta["botzone_finish"] = finish
    return [Record(game="doudizhu", options=options, actions=actions, deal=deal, meta=meta)]


def _bz_bid(resp: Any) -> int | None:
    """A bid response (``0``..``3``, also as a digit string) as an integer, else ``None``."""
    if isinstance(resp, str) and resp.strip().isdecimal():
        return int(resp)
    if type(resp) is int:
        return resp
    return None


def write_botzone(state) -> list[dict[str, Any]]:
    """The Botzone FightTheLandlord match log (list of judge and bot turns) of a doudizhu state
    played from one deal with ``points_1_3`` bidding starting at seat 0 (FightTheLandlord2) or
    with ``bidding = "none"`` (FightTheLandlord). Raises ``ValueError`` for other set-ups."""
    opts = state.game.options
    if opts["bidding"] not in ("points_1_3", "none") or state.redeals or state.first_bidder != 0:
        raise ValueError("Botzone logs need one deal, seat 0 first, and points_1_3 or no bidding")
    hands = [[botzone_number(c) for c in _parse_ids(h)] for h in state.deal[-1]["hands"]]
    public = [botzone_number(c) for c in state.kitty]
    log: list[dict[str, Any]] = []

    def judge(content: dict[str, Any], command: str = "request") -> None:
        log.append({"output": {"command": command, "content": content}})

    def bot(seat: int, response: Any) -> None:
        log.append({str(seat): {"response": response, "verdict": "OK"}})

    bids: list[int] = []
    for seat, action in state.bid_log:
        judge({str(seat): {"own": hands[seat], "bid": list(bids)}})
        value = 0 if action is PASS else action.value
        bids.append(value)
        bot(seat, value)
    history: list[list[int]] = [[], []]
    started: set[int] = set()
    cards_iter = iter(state.play_cards)
    for seat, action in state.play_log:
        if seat in started:
            req: dict[str, Any] = {"history": [list(h) for h in history]}
        else:
            started.add(seat)
            req = {"history": [list(h) for h in history], "own": hands[seat], "publiccard": public,
                   "landlord": state.landlord, "pos": seat, "finalbid": state.base}
        judge({str(seat): req})
        played = [] if action is PASS else [botzone_number(c) for c in next(cards_iter)]
        bot(seat, played)
        history = [history[1], played]
    if state.result is not None:
        judge({str(s): r for s, r in enumerate(state.result.returns)}, "finish")
    return log


def _parse_ids(ids: list[str]) -> list[Card]:
    from qipai.cards import parse_card

    return [parse_card(c) for c in ids]


register_reader(Reader(BOTZONE, _bz_sniff, read_botzone))
