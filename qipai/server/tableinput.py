"""What a client may send a live table over its socket, and the answer to each: moves,
resignation, draw offers, takebacks, trusteeship, nonces, chat, sync and positions. Anything the referee
refuses is answered with a machine-readable error; a stale or repeated move is ignored with a
note, never applied twice."""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING, Any

from qipai.core.errors import IllegalAction
from qipai.match import Move
from qipai.match.players import (
    AcceptDraw,
    AcceptTakeback,
    DeclineDraw,
    DeclineTakeback,
    Entrust,
    OfferDraw,
    ProposeTakeback,
    Reclaim,
    Resign,
)

from . import chat, conduct, tablemsg
from .conns import Conn
from .errors import ws_error
from .tablemsg import STORAGE_PAUSED

#: the takeback messages of a client and the runner's inputs they become
TAKEBACK = {"takeback_offer": ProposeTakeback, "takeback_accept": AcceptTakeback,
            "takeback_decline": DeclineTakeback}

if TYPE_CHECKING:
    from .tables import LiveTable

#: the longest action text a seat may send (a whole junqi layout is about 180 characters)
MAX_ACTION_TEXT = 1000
#: a control character (C0, DEL, C1): never part of a move's text
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
#: the messages that are no act of the game (answered without writing to its action log)
NO_WRITE = frozenset({"ping", "nonce", "chat", "sync", "presence", "position"})


def handle(t: LiveTable, conn: Conn, seat: int | None, msg: dict[str, Any]) -> None:
    """A message from a client (already JSON-decoded, an object). Replies go to ``conn``;
    a connection the server closed (replaced, signed out) is not listened to any more."""
    if conn.closed:
        return
    kind = msg.get("type")
    if kind == "ping":
        # at once, not behind what waits to be saved: it tells nothing about the game
        conn.put_now({"type": "pong", "now": t.runner.time.now() if t.runner else None})
        return
    if kind == "nonce":
        t.take_nonce(conn, seat, msg)
        return
    if kind == "chat":
        chat.say(t, conn, seat, msg)
        return
    if kind == "sync":
        text = tablemsg.encoded(t, seat, full=True)
        delay = t.settings.get("spectator_delay_ms", 0) if seat is None and t.hidden else 0
        if delay:
            asyncio.get_running_loop().call_later(delay / 1000, conn.put, text)
        else:
            conn.put(text)
        return
    if kind == "presence":
        # who is at the table: now, and again at each change (LiveTable.online)
        conn.presence = True
        conn.put_json({"type": "presence", "online": t.online()})
        return
    if kind == "position":
        tablemsg.answer_position(t, conn, seat, msg)
        return
    if kind not in ("move", "resign", "draw_offer", "draw_accept", "draw_decline", "resume", "entrust",
                    "abort", *TAKEBACK):
        conn.put_json(ws_error("unknown_type", f"unknown message type {kind!r}"))
        return
    if seat is None:
        conn.put_json(ws_error("not_seated", "spectators cannot play"))
        return
    claimed = msg.get("seat", seat)
    if claimed != seat:
        conn.put_json(ws_error("not_your_seat", f"you sit in seat {seat}, not {claimed!r}",
                               seat=seat, names=[s["name"] if s else None for s in t.seats]))
        return
    r = t.runner
    if r is None or t.status != "playing" or r.state.is_terminal():
        conn.put_json(ws_error("not_playing", "no game is running at this table"))
        return
    if t.hub.store.down:             # said at once, ahead of what waits to be saved
        conn.put_now(ws_error("storage_unavailable", STORAGE_PAUSED["message"]))
        return
    if kind == "abort":
        # a lobby game of two before both sides moved: given up, counted for nobody (lichess)
        if not conduct.player_may_abort(t):
            conn.put_json(ws_error("abort_not_allowed",
                                   "a game may be aborted only before both sides have moved"))
            return
        conduct.give_up(t.hub, t, "aborted", seat=seat)
    elif kind in TAKEBACK:
        _takeback(t, conn, seat, kind)
    elif kind == "resign":
        r.submit(seat, Resign())
    elif kind == "draw_offer":
        r.submit(seat, OfferDraw())
    elif kind == "draw_accept":
        r.submit(seat, AcceptDraw())
    elif kind == "draw_decline":
        r.submit(seat, DeclineDraw())
    elif kind == "resume":
        r.submit(seat, Reclaim())
    elif kind == "entrust":
        r.submit(seat, Entrust())
    else:
        _move(t, conn, seat, msg)


def _takeback(t: LiveTable, conn: Conn, seat: int, kind: str) -> None:
    """A takeback request or its answer (:mod:`qipai.match.takeback`), at casual two-seat board
    tables only (at an event table ``takeback_event``: event play has no takebacks; in a game
    with hidden information, junqi's, ``takeback_hidden``: a move taken back would leave the
    player what it showed). A built-in
    bot grants every request at once: its acceptance is submitted right behind the request,
    so the action log holds both and a replay reaches the same position."""
    if t.event_id is not None:        # an event's game is played as it stands (competition.md)
        conn.put_json(ws_error("takeback_event", "event play has no takebacks"))
        return
    if conduct.takeback_hides(t) and len(t.seats) == 2:   # a move taken back would leave what it showed
        conn.put_json(ws_error("takeback_hidden", "a game with hidden information has no takebacks"))
        return
    if not conduct.takeback_allowed(t):
        conn.put_json(ws_error("takeback_not_allowed",
                               "takebacks exist only at unrated two-seat lobby board tables"))
        return
    r = t.runner
    assert r is not None
    r.submit(seat, TAKEBACK[kind]())
    if kind == "takeback_offer":
        bots = [s for s, x in enumerate(t.seats) if s != seat and x and x.get("bot")]
        if bots:
            r.submit(bots[0], AcceptTakeback())


def _move(t: LiveTable, conn: Conn, seat: int, msg: dict[str, Any]) -> None:
    """A move answers the state numbered ``seq``; anything else is stale and ignored. When
    several seats act at once (claims on a discard), another seat's answer changes ``seq``
    but not this seat's pending decision: a move carrying ``turn`` (the ``turn`` of the
    seat's state message) is matched against that decision instead of ``seq``. A move marked
    ``ahead`` during the deal (shengji's every_card) needs neither: see :class:`GameRunner`."""
    r = t.runner
    assert r is not None
    seq, action, turn = msg.get("seq"), msg.get("action"), msg.get("turn")
    if not isinstance(seq, int) or isinstance(seq, bool):
        conn.put_json(ws_error("bad_message", "a move needs an integer 'seq' (the state's seq)"))
        return
    if not isinstance(action, str) or not action or len(action) > MAX_ACTION_TEXT:
        conn.put_json(ws_error("bad_message", f"a move needs an 'action' text of at most "
                                              f"{MAX_ACTION_TEXT} characters", max=MAX_ACTION_TEXT))
        return
    if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool)):
        conn.put_json(ws_error("bad_message", "'turn' is the integer 'turn' of your state message"))
        return
    if msg.get("typed") is True and (CONTROL.search(action) or not t.runner.game.is_move_text(action)):
        # a person's typing slip (``hello``) is no move at all: refused, never counted (§4.4
        # counts moves that are not legal; a page's typed box marks its text ``typed``); plain
        # spaces around it are trimmed, but a control character (a newline, a NUL) is no move
        conn.put_json(ws_error("not_a_move", f"{action!r} is not written as a move", text=action))
        return
    if msg.get("ahead") is True and _ahead(r, conn, seat, action):
        return
    now = tablemsg.shown_seq(t)     # never the answers already applied in a private window
    # ``turn`` is the seat's own count (GameRunner.shown_turn); the runner checks its own number
    if turn is not None and seat in r.state.to_act and turn == r.shown_turn(seat) != 0:
        r.submit(seat, Move(action, turn=r.turn_of(seat)))
        return
    if turn is not None or seq != now:
        # a duplicate (already applied) or an answer to an older state: ignored
        conn.put_json({"type": "ignored", "seq": seq, "current": now,
                       "reason": "duplicate or stale move"})
        return
    if seat not in r.state.to_act or not r.turn_of(seat):
        conn.put_json(ws_error("not_your_turn", f"seat {seat} is not to act", seq=now))
        return
    r.submit(seat, Move(action, turn=r.turn_of(seat)))


def _ahead(r: Any, conn: Conn, seat: int, action: str) -> bool:
    """A move marked ``ahead``: True when it is answered here. While the deal goes on a
    declaration the deal can take (``State.check_ahead``) is sent now when the seat's prompt
    is open and it is legal there, else kept by the runner for the seat's next prompt where it is legal
    (:class:`GameRunner`); one it cannot take is refused ``ahead_refused`` (``refusal``: the
    game's code), never counted as an illegal move. At a table whose deal holds no prompts
    (:func:`holds_deal_prompts`) it is refused ``no_deal_prompts``. After the deal
    (False) it is judged as any other move, by the state it names."""
    st = r.state
    if not holds_deal_prompts(r):
        conn.put_json(ws_error("no_deal_prompts", "this table's deal holds no prompts: nothing "
                               "is sent ahead"))
        return True
    if st.is_terminal() or not st.deal_prompt_open():
        return False
    try:
        st.check_ahead(action, seat)
    except IllegalAction as e:
        refused = ws_error("ahead_refused", e.reason, **(e.params or {}))
        refused["refusal"] = e.code
        conn.put_json(refused)
        return True
    # now when the seat's prompt is open and it is legal there, else kept for its next prompt
    # where it is legal
    mine = seat in st.to_act and r.turn_of(seat)
    r.submit(seat, Move(action, turn=r.turn_of(seat), ahead=True) if mine else Move(action, ahead=True))
    return True


def holds_deal_prompts(r: Any) -> bool:
    """Whether the runner ``r`` holds its game's deal prompt by prompt (shengji's every_card
    at a table of people: ``deal_hold``), so that declarations may be sent ahead."""
    return bool(r.deal_hold) and r.state.deal_prompts()
