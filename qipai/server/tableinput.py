"""What a client may send a live table over its socket, and the answer to each: moves,
resignation, draw offers, takebacks, trusteeship, nonces, chat, sync and positions. Anything the referee
refuses is answered with a machine-readable error; a stale or repeated move is ignored with a
note, never applied twice."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

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
    tables only. A built-in bot grants every request at once: its acceptance is submitted right
    behind the request, so the action log holds both and a replay reaches the same position."""
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
    seat's state message) is matched against that decision instead of ``seq``."""
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
    if msg.get("typed") is True and not t.runner.game.is_move_text(action):
        # a person's typing slip (``hello``) is no move at all: refused, never counted (§4.4
        # counts moves that are not legal; a page's typed box marks its text ``typed``)
        conn.put_json(ws_error("not_a_move", f"{action!r} is not written as a move", text=action))
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
