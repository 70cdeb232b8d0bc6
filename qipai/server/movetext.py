"""Move lists of the board games for the web client.

A move list is one entry per applied action (per entry of ``State.log``), written as a player of
that game reads it and holding nothing a seat may not see:

``{"seat": int, "text": str}``
    ``text`` is the canonical action text (ICCS for xiangqi, GTP points for go, ``a1`` points
    for gomoku, ``q,r>q,r`` holes for Chinese checkers, ``a4-a9:win`` for junqi).
``"zh"``, ``"wxf"`` (xiangqi)
    the move in Chinese notation (``炮二平五``) and in WXF (``C2=5``), both from the position
    before the move.
``"cells"`` (Chinese checkers)
    the holes of the move by their cell names, every landing of a jump chain
    (``["k4", "m6", "o6"]``; docs/games/chinese-checkers.md, Notation).
``"kind": "layout"`` (junqi)
    a seat's opening layout: its text (where every piece stands) is left out, as the opponent
    never sees it.

Only the games of :data:`GAMES` have a move list: the card and tile games hide hands, discards
face down and kitties, and describe their play in their own views. :class:`MoveList` builds the
list incrementally from a live state (xiangqi's entries from the position before each move), and
:func:`position` rebuilds the view of any earlier position for the replay controls of a live
game.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

#: game ids with a move list
GAMES = frozenset({"xiangqi", "go", "gomoku", "chinese-checkers", "junqi"})


def has_moves(game_id: str) -> bool:
    return game_id in GAMES


def describe(state: Any, seat: int, text: str) -> dict[str, Any]:
    """The move-list entry of the action ``text`` made by ``seat`` from ``state`` (the state
    before the action, which is left unchanged)."""
    gid = state.game.id
    if gid not in NEEDS_POSITION:
        return describe_text(gid, seat, text)
    entry: dict[str, Any] = {"seat": seat, "text": text}
    if gid == "xiangqi":
        from qipai.games.xiangqi import notation

        try:
            move = state.game.parse_action(text, state)
            entry["zh"] = notation.to_chinese(state, move)
            entry["wxf"] = notation.to_wxf(state, move)
        except Exception:       # an entry of the log is always legal; keep the ICCS text if not
            pass
    return entry


def describe_text(game_id: str, seat: int, text: str) -> dict[str, Any]:
    """The entry of a game whose move text alone says everything (every game of :data:`GAMES`
    but those of :data:`NEEDS_POSITION`)."""
    if game_id == "junqi" and "=" in text:
        return {"seat": seat, "kind": "layout"}
    if game_id == "chinese-checkers" and ">" in text:
        from qipai.games.chinese_checkers.board import cell_name, parse_hole

        return {"seat": seat, "text": text, "cells": [cell_name(parse_hole(h)) for h in text.split(">")]}
    return {"seat": seat, "text": text}


def _fresh(state: Any) -> Any:
    """A new state of the same game at the same origin (seed, deal or position)."""
    return state.game.new_state(seed=state.seed, deal=state.deal, position=state.position,
                                num_seats=state.num_seats)


def _split(entry: Any) -> tuple[int | None, str]:
    return (entry[0], entry[1]) if isinstance(entry, list) else (None, entry)


#: games whose entry is written from the position before the move (xiangqi's Chinese and WXF
#: name a piece by its file and its place among the pieces on that file)
NEEDS_POSITION = frozenset({"xiangqi"})


class MoveList:
    """The move list of one live game, kept up to date by :meth:`sync`.

    ``entries`` is the list (see the module docstring); ``times[i]`` is the monotonic time at
    which entry ``i`` was first seen (never earlier than it was made), so that a delayed
    spectator is given only positions it has seen.

    An entry of a game of :data:`NEEDS_POSITION` is written from the live state just before it
    takes the move (:meth:`ahead`, called by the table for every move it is sent), so the list
    never plays the game a second time. An entry not described ahead (the first list of a game
    already under way, a move the runner made itself) is written from a copy of the game
    replayed to that point, kept for the next such entry.
    """

    def __init__(self, state: Any) -> None:
        self.entries: list[dict[str, Any]] = []
        self.times: list[float] = []
        self._ahead: tuple[int, dict[str, Any]] | None = None    # (ply, entry) described ahead
        self._shadow: Any = None                                  # a replayed copy (see above)
        self._mover: tuple[int, int | None] = (0, None)   # (ply, who moves next) at the last sync

    def ahead(self, state: Any, seat: int, action: str) -> None:
        """``seat`` sent ``action`` and the live ``state`` is about to take it: describe it now,
        from the position before it. Nothing happens when the list lags behind ``state`` or the
        game needs no position; an action the state then refuses is simply never used."""
        ply = len(state.log)
        if state.game.id not in NEEDS_POSITION or len(self.entries) != ply:
            return
        try:
            text = str(state.game.parse_action(action, state))
        except Exception:        # refused: the runner answers the seat; no entry is made
            self._ahead = None
            return
        self._ahead = (ply, describe(state, seat, text))

    def _replayed(self, state: Any, ply: int) -> Any:
        """A copy of ``state``'s game at the position after its first ``ply`` actions."""
        shadow = self._shadow
        if shadow is None or len(shadow.log) > ply:
            shadow = self._shadow = _fresh(state)
        for entry in state.log[len(shadow.log):ply]:
            who, text = _split(entry)
            shadow.apply(text, seat=who)
        return shadow

    def sync(self, state: Any) -> list[dict[str, Any]]:
        """Bring the list up to ``state.log`` and return it."""
        log = state.log
        stamp = time.monotonic()
        positional = state.game.id in NEEDS_POSITION
        while len(self.entries) < len(log):
            ply = len(self.entries)
            seat, text = _split(log[ply])
            ahead = self._ahead
            if not positional:
                if seat is None:        # the log names no seat: who was to move at that ply
                    seat = self._mover[1] if self._mover[0] == ply else \
                        self._replayed(state, ply).current_player
                entry = describe_text(state.game.id, seat if seat is not None else 0, text)
            elif ahead is not None and ahead[0] == ply and ahead[1]["text"] == text:
                entry = ahead[1]
            else:
                shadow = self._replayed(state, ply)
                mover = seat if seat is not None else shadow.current_player
                entry = describe(shadow, mover if mover is not None else 0, text)
            self.entries.append(entry)
            self.times.append(stamp)
        self._ahead = None
        self._mover = (len(log), state.current_player)
        return self.entries

    def visible(self, delay_s: float) -> int:
        """How many entries are older than ``delay_s`` seconds."""
        if delay_s <= 0:
            return len(self.entries)
        cut = time.monotonic() - delay_s
        n = 0
        while n < len(self.times) and self.times[n] <= cut:
            n += 1
        return n


def position(state: Any, ply: int, seat: int | None) -> dict[str, Any]:
    """``view(seat)`` of the position after the first ``ply`` actions of ``state``'s log,
    replayed from the start. Raises ``ValueError`` when ``ply`` is not between 0 and the length
    of the log. (A live table answers from its :class:`Positions`.)"""
    if not 0 <= ply <= len(state.log):
        raise ValueError(f"ply {ply} is not between 0 and {len(state.log)}")
    s = _fresh(state)
    for entry in state.log[:ply]:
        who, text = _split(entry)
        s.apply(text, seat=who)
    return s.view(seat)


class Positions:
    """The views of earlier positions of one live game (``position`` requests: a client
    stepping through the move list), without replaying the game from the start each time —
    that took 8–9 ms of the event loop for a long game.

    A replayed copy of the game (the *cursor*) moves forward to the ply asked for; every
    :attr:`step` plies a copy of it is kept as a *mark*, so a request for an earlier ply starts
    from the nearest mark before it (at most ``step`` actions replayed). At most :attr:`MARKS`
    marks are kept: past that the step doubles and every other mark goes. The last
    :attr:`VIEWS` views given are kept too (the same position asked for again, by the seat or a
    reconnecting client, costs a look-up). The game's log only grows while the state lives; a
    new state (a table rebuilt) gets a new :class:`Positions`."""

    STEP = 16
    MARKS = 64
    VIEWS = 64

    def __init__(self, state: Any) -> None:
        self.step = self.STEP
        self._marks: dict[int, Any] = {0: _fresh(state)}     # ply -> a copy, never played on
        self._cursor: Any = None
        self._views: OrderedDict[tuple[int, int | None], dict[str, Any]] = OrderedDict()

    def view(self, state: Any, ply: int, seat: int | None) -> dict[str, Any]:
        """:func:`position` of the live ``state`` (the one this was made for)."""
        if not 0 <= ply <= len(state.log):
            raise ValueError(f"ply {ply} is not between 0 and {len(state.log)}")
        key = (ply, seat)
        view = self._views.get(key)
        if view is not None:
            self._views.move_to_end(key)
            return view
        cur = self._cursor
        if cur is None or len(cur.log) > ply:
            cur = self._cursor = self._marks[max(k for k in self._marks if k <= ply)].clone()
        for entry in state.log[len(cur.log):ply]:
            who, text = _split(entry)
            cur.apply(text, seat=who)
            done = len(cur.log)
            if done % self.step == 0 and done not in self._marks:
                self._mark(done, cur.clone())
        view = cur.view(seat)
        self._views[key] = view
        if len(self._views) > self.VIEWS:
            self._views.popitem(last=False)
        return view

    def _mark(self, ply: int, copy: Any) -> None:
        self._marks[ply] = copy
        while len(self._marks) > self.MARKS:
            self.step *= 2
            self._marks = {k: v for k, v in self._marks.items() if k % self.step == 0}

