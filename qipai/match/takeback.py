"""Takeback requests of a two-sided game (lichess's "Propose a takeback"), judged by the runner.

A seat asks (:class:`~.players.ProposeTakeback`) to take back its own last move and whatever
was played after it, so that it is its turn again: one move when the opponent has not replied
yet, two when it has. One request is open at a time; the opponent accepts or declines it; a move
(any seat's, an automatic one too) lets it lapse; a declined request is not asked again before
the next move. Accepted, the state is rebuilt from the game's start with the actions before
the seat's last one (:func:`rebuild`, the same replay a record gets), so the referee holds
exactly the earlier position (repetition and ko history included). No time is given back: each
clock keeps what it used, the turn that was running is charged up to the acceptance, and the
side to move then starts a fresh turn.

Whether a table offers takebacks at all (casual two-seat board games) is the server's
decision (:func:`qipai.server.conduct.takeback_allowed`); the runner only judges the requests
it is given, so a replayed action log reaches the same position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from qipai.core.record import Record, replay

if TYPE_CHECKING:
    from .runner import GameRunner


def taken_to(r: GameRunner, seat: int) -> int | None:
    """The number of actions left once ``seat``'s last action and all after it are taken back
    (None when ``seat`` has made no action)."""
    for i in range(len(r.times) - 1, -1, -1):
        if r.times[i][0] == seat:
            return i
    return None


def in_marking(r: GameRunner) -> bool:
    """Whether go's dead-stone marking is under way (rules/go.md 4.2 ``agreement``): it is no
    move, so nothing is taken back; a player who wants to play on resumes play."""
    return getattr(r.state, "phase", None) == "marking"


def rebuild(r: GameRunner, n: int) -> Any:
    """The state after the first ``n`` actions of the game in play, replayed by the referee."""
    rec = Record.from_state(r.state)
    rec.actions, rec.result = rec.actions[:n], None
    return replay(rec, game=r.game, check_result=False)


def propose(r: GameRunner, seat: int, t: int) -> None:
    if r.paused_at is not None:
        return r._reply_error(seat, "the table is paused by the referee", "paused")
    if len(r.state.sides()) != 2 or r.state.turns_private():
        return r._reply_error(seat, "takebacks exist only in two-sided board games", "takeback_not_allowed")
    if in_marking(r):
        return r._reply_error(seat, "the dead stones are being marked: resume play to play on",
                              "takeback_marking")
    if taken_to(r, seat) is None:
        return r._reply_error(seat, "you have no move to take back", "takeback_nothing")
    if r._takeback is not None:
        return r._reply_error(seat, "a takeback request is already open", "takeback_open")
    if r._takeback_declined.get(seat) == r._actions_done:
        return r._reply_error(seat, "your takeback request was declined; ask again after a move",
                              "takeback_declined")
    r._takeback = seat
    r.note(seat, {"type": "takeback_offer"})
    return None


def _open_of_other(r: GameRunner, seat: int) -> bool:
    if r._takeback is None or r._same_side(r._takeback, seat):
        r._reply_error(seat, "no takeback request of the other side to answer", "no_takeback")
        return False
    return True


def decline(r: GameRunner, seat: int, t: int) -> None:
    if not _open_of_other(r, seat):
        return
    assert r._takeback is not None
    r._takeback_declined[r._takeback] = r._actions_done
    r._takeback = None
    r.note(seat, {"type": "takeback_declined"})


def accept(r: GameRunner, seat: int, t: int) -> None:
    """Take back the proposer's last action and everything after it, at table time ``t``."""
    if not _open_of_other(r, seat):
        return
    if r.paused_at is not None:
        return r._reply_error(seat, "the table is paused by the referee", "paused")
    by = r._takeback
    assert by is not None
    n = taken_to(r, by)
    assert n is not None
    undone = len(r.times) - n
    before = r.shown_seq()
    for c in r.clocks:                 # the turn in progress is charged: no time is given back
        c.cancel_turn(t)
    r._turn = [0] * len(r._turn)
    r.state = rebuild(r, n)
    r.renumber_after_takeback(before)
    del r.times[n:]
    r._autos = {k: v for k, v in r._autos.items() if k < n}
    r._unlisted = {k for k in r._unlisted if k < n}
    r._moves_by = [sum(1 for e in r.times if e[0] == s) for s in range(len(r._moves_by))]
    r._takeback = None
    r._offer = None                    # a draw offer was about a position that is gone
    r._held_offer.clear()
    r.note(seat, {"type": "takeback", "by": by, "moves": undone, "ply": n})
    r._sync_turns(t, acted=None)
    return None
