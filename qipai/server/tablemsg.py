"""What a live table tells its seats and spectators: the state message built from
``state.view(seat)``, the board games' move list (:mod:`.movetext`) and earlier positions for the
move list's navigation.

A seat learns only what its view shows: who else is still deciding a private window (4A4's
叉/勾) and the time others spent in it stay hidden (fouafour §3.4), and a spectator of a
hidden-information game is given only positions older than the table's spectator delay."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from qipai.core.game import State
from qipai.match import takeback
from qipai.match.players import MAX_LISTED

from . import conduct, movetext, ratings
from .conns import Conn
from .errors import ws_error

if TYPE_CHECKING:
    from .tables import LiveTable

#: move-list entries a state message repeats (a client that missed more asks for a sync)
MOVES_TAIL = 4
#: the parts of a clock snapshot that tell how much time a seat has used in the game (with
#: them, its deadline does too; a clock with a cap alone tells only the current turn's)
BANKED = frozenset({"bank", "periods", "canadian"})
#: what seats are told while storage fails (sent at once, ahead of anything still queued)
STORAGE_PAUSED = {"type": "paused", "reason": "storage_unavailable",
                  "message": "the server cannot save moves right now: the game is paused and no "
                             "clock runs; it goes on by itself when storage is back"}


def move_list(t: LiveTable) -> movetext.MoveList | None:
    """The move list of the game in play (board games only), brought up to date."""
    r = t.runner
    if r is None or not movetext.has_moves(t.game_id):
        return None
    if t._moves is None or t._moves_of is not r.state:
        t._moves, t._moves_of = movetext.MoveList(r.state), r.state
    t._moves.sync(r.state)
    return t._moves


def last_trick_only(t: LiveTable) -> bool:
    """Whether ``t`` shows only the last completed trick of the deal in play (competition.md
    §5.8, no 查牌: an event whose ``conduct.trick_review`` is ``last_trick_only``)."""
    return t.settings.get("trick_review") == "last_trick_only"


def reviewed(t: LiveTable, view: dict[str, Any], over: bool) -> dict[str, Any]:
    """``view`` as ``t`` may show it: at a last-trick-only table, while the deal is on, without
    the list of the deal's earlier tricks (its ``last_trick`` stays)."""
    if not over and "tricks" in view and last_trick_only(t):
        view = {k: v for k, v in view.items() if k != "tricks"}
    return view


def shown_seq(t: LiveTable) -> int:
    """The ``seq`` a table shows (:meth:`qipai.match.runner.GameRunner.shown_seq`)."""
    assert t.runner is not None
    return t.runner.shown_seq()


def state_message(t: LiveTable, seat: int | None, full: bool = False) -> dict[str, Any]:
    """The state message for ``seat`` (None: spectator), built from ``view(seat)``.

    For a board game it carries ``moves``: ``{"from": i, "list": [...]}``, the move list
    (:mod:`.movetext`) from entry ``i`` on: the whole list when ``full`` (a new connection,
    a ``sync``), else its last few entries; a client missing entries before ``i`` asks for
    a ``sync``."""
    r = t.runner
    if r is None:
        return {"type": "table", "table": t.summary()}
    st = r.state
    view = reviewed(t, st.view(seat), st.is_terminal())
    to_act = list(st.to_act) if not st.is_terminal() and t.status != "aborted" else []
    clocks = r.clock_state()
    seq = shown_seq(t)             # the answers already in a window do not show
    if to_act and st.turns_private():
        # who is still deciding is private (4A4 windows): each seat learns only its own turn
        to_act = [seat] if seat in to_act and r.turn_of(seat) else []
        if "to_act" in view:           # a held answer (see GameRunner) is no longer pending
            view["to_act"] = to_act
        clocks = [c if s == seat else {k: v for k, v in c.items() if k != "deadline"}
                  for s, c in enumerate(clocks)]
    if type(st).turns_private is not State.turns_private:
        # time a seat spends answering a private window comes off its bank: shown to the
        # others, a bank that went down would tell who could claim (fouafour §3.4), so the
        # others' remaining time is not shown in such games (the record has it at the end)
        clocks = [c if s == seat or not BANKED.intersection(c) else
                  {k: v for k, v in c.items() if k not in BANKED and k != "deadline"}
                  for s, c in enumerate(clocks)]
    msg: dict[str, Any] = {
        "type": "state", "table": t.id, "game": t.game_id, "status": t.status,
        "seq": seq, "seat": seat, "to_act": to_act, "view": view,
        "names": r.names, "clocks": clocks, "now": r.time.now(), "ply": r.shown_ply(),
        # which seats a bot plays (public, as the seats are): a board answers at once when
        # only bots would see how long it took (auto-pass)
        "bots": [bool(s and s.get("bot")) for s in t.seats],
        "result": st.result.to_json() if st.result else None, "record": t.record_id,
    }
    if t.unrated is not None and t.status == "finished":
        # a table made rated whose game did not count: why, and the actions each seat needed
        msg["unrated"] = {"reason": t.unrated, "min": ratings.MIN_PLIES_PER_SEAT}
    if t.status == "aborted":
        # an aborted game has no result, whatever ended its loop (a first move's time running
        # out): nobody won or lost, nobody is to act; why is said instead (conduct.give_up)
        msg.update(result=None, aborted=t.settings.get("aborted", {"reason": "table_closed"}))
    if r.paused_at is not None and not t.storage_paused:
        msg["paused_at"] = r.paused_at      # a referee's pause: every countdown stands here
    if (limit := r.game_limit_state()) is not None:
        msg["game_limit"] = limit           # one limit for the whole game, beside the seats' clocks
    if seat is not None and r.deal_hold and not st.is_terminal() and st.deal_prompt_open():
        # the deal's prompts close at their hold: a declaration may be sent ahead (GameRunner)
        msg["ahead"] = True
    if seat is not None and seat in to_act:
        msg["turn"] = r.shown_turn(seat)   # this seat's pending decision (see _move)
        listed = False
        if "legal_moves" not in view and "legal" not in view:
            legal = st.legal_actions(seat)
            if len(legal) <= MAX_LISTED:
                msg["legal"] = [str(a) for a in legal]
                listed = True
            else:              # too long to send (gomoku's two5 offers): its length only
                msg["legal"], msg["legal_count"] = None, len(legal)
        if not listed:
            # a set the board cannot choose from (shengji's follows, sandayi's burial): one
            # legal action of this seat, the one its clock would take, for the hint button
            hint = st.default_action(seat)
            if hint is not None:
                msg["hint"] = str(hint)
    if r._offer is not None:
        msg["draw_offer"] = r._offer
    if r._takeback is not None:
        msg["takeback"] = r._takeback    # the seat whose takeback request is open
    if (seat is not None and conduct.takeback_allowed(t) and not takeback.in_marking(r)
            and takeback.taken_to(r, seat) is not None):
        msg["takeback_allowed"] = True   # the Takeback button (casual two-seat board tables)
    if seat is not None and conduct.player_may_abort(t):
        msg["abortable"] = True          # the Abort button: nobody's game yet (lichess)
    if marks := r.auto_marks():
        msg["autos"] = marks             # the moves the server made: marked so in the history
    if seat is not None and r.illegal_limit and not st.is_terminal():
        msg["illegal_limit"] = r.illegal_limit      # said under the typed-move box before any
    if seat is not None and r.illegal_limit and r.illegal[seat]:
        # the seat's refused moves so far and the limit (xiangqi §4.4): shown again on a reload
        msg["illegal"] = {"count": r.illegal[seat], "limit": r.illegal_limit}
    moves = move_list(t)
    if moves is not None:
        start = 0 if full else max(0, len(moves.entries) - MOVES_TAIL)
        msg["moves"] = {"from": start, "list": moves.entries[start:]}
    return msg


def answer_position(t: LiveTable, conn: Conn, seat: int | None, msg: dict[str, Any]) -> None:
    """Answer ``{"type": "position", "ply": k}``: the view of ``seat`` after the first
    ``k`` moves of the game in play, for the move list's navigation. A spectator of a
    hidden-information game is given only positions older than its delay. A game without a
    move list (the card and tile games, whose tables list their tricks and rounds) answers a
    seated player, and a spectator once the game is over or when nothing is hidden; at a table
    showing only the last trick (:func:`last_trick_only`), nobody while the deal is on."""
    ply = msg.get("ply")
    moves = move_list(t)
    if t.runner is None:
        conn.put_json(ws_error("no_moves", f"{t.game_id} has no move list"))
        return
    over = t.runner.state.is_terminal()
    if moves is None:
        if seat is None and t.hidden and not over:
            conn.put_json(ws_error("no_moves", f"{t.game_id} has no move list"))
            return
        if last_trick_only(t) and not over:      # earlier positions would show earlier tricks
            conn.put_json(ws_error("last_trick_only", "this table shows only the last trick of the "
                                   "deal in play (competition.md §5.8)"))
            return
        limit = t.runner.shown_ply()
    else:
        limit = len(moves.entries)
        if seat is None and t.hidden and not over:
            limit = moves.visible(t.settings.get("spectator_delay_ms", 0) / 1000)
    if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= limit:
        conn.put_json(ws_error("bad_ply", f"'ply' is a move number from 0 to {limit}",
                               ply=ply if isinstance(ply, int) else None))
        return
    state = t.runner.state
    if t._positions is None or t._positions_of is not state:
        t._positions, t._positions_of = movetext.Positions(state), state
    view = t._positions.view(state, ply, seat)
    conn.put_json({"type": "position", "ply": ply, "view": view})

# ----- connections -----------------------------------------------------------------


def encoded(t: LiveTable, seat: int | None, full: bool = False) -> str:
    """:func:`state_message` as the compact JSON text that goes on the wire."""
    return json.dumps(state_message(t, seat, full), ensure_ascii=False, separators=(",", ":"))
