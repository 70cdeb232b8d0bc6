"""Move lists of the board games for the web client.

A move list is one entry per applied action (per entry of ``State.log``), written as a player of
that game reads it and holding nothing a seat may not see:

``{"seat": int, "text": str}``
    ``text`` is the canonical action text (ICCS for xiangqi, GTP points for go, ``a1`` points
    for gomoku, ``q,r>q,r`` holes for Chinese checkers, ``a4-a9:win`` for junqi).
``"zh"``, ``"wxf"`` (xiangqi)
    the move in Chinese notation (``炮二平五``) and in WXF (``C2=5``), both from the position
    before the move.
``"kind": "layout"`` (junqi)
    a seat's opening layout: its text (where every piece stands) is left out, as the opponent
    never sees it.

Only the games of :data:`GAMES` have a move list: the card and tile games hide hands, discards
face down and kitties, and describe their play in their own views. :class:`MoveList` builds the
list incrementally from a live state (one replayed copy follows the live log), and
:func:`position` rebuilds the view of any earlier position for the replay controls of a live
game.
"""

from __future__ import annotations

import time
from typing import Any

#: game ids with a move list
GAMES = frozenset({"xiangqi", "go", "gomoku", "chinese-checkers", "junqi"})


def has_moves(game_id: str) -> bool:
    return game_id in GAMES


def describe(state: Any, seat: int, text: str) -> dict[str, Any]:
    """The move-list entry of the action ``text`` made by ``seat`` from ``state`` (the state
    before the action, which is left unchanged)."""
    gid = state.game.id
    entry: dict[str, Any] = {"seat": seat, "text": text}
    if gid == "xiangqi":
        from qipai.games.xiangqi import notation

        try:
            move = state.game.parse_action(text, state)
            entry["zh"] = notation.to_chinese(state, move)
            entry["wxf"] = notation.to_wxf(state, move)
        except Exception:       # an entry of the log is always legal; keep the ICCS text if not
            pass
    elif gid == "junqi" and "=" in text:
        entry = {"seat": seat, "kind": "layout"}
    return entry


def _fresh(state: Any) -> Any:
    """A new state of the same game at the same origin (seed, deal or position)."""
    return state.game.new_state(seed=state.seed, deal=state.deal, position=state.position,
                                num_seats=state.num_seats)


def _split(entry: Any) -> tuple[int | None, str]:
    return (entry[0], entry[1]) if isinstance(entry, list) else (None, entry)


class MoveList:
    """The move list of one live game, kept up to date by :meth:`sync`.

    ``entries`` is the list (see the module docstring); ``times[i]`` is the monotonic time at
    which entry ``i`` was first seen (never earlier than it was made), so that a delayed
    spectator is given only positions it has seen.
    """

    def __init__(self, state: Any) -> None:
        self._shadow = _fresh(state)
        self.entries: list[dict[str, Any]] = []
        self.times: list[float] = []

    def sync(self, state: Any) -> list[dict[str, Any]]:
        """Bring the list up to ``state.log`` and return it."""
        log = state.log
        stamp = time.monotonic()
        while len(self.entries) < len(log):
            seat, text = _split(log[len(self.entries)])
            shadow = self._shadow
            mover = seat if seat is not None else shadow.current_player
            self.entries.append(describe(shadow, mover if mover is not None else 0, text))
            self.times.append(stamp)
            shadow.apply(text, seat=seat)
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
    """``view(seat)`` of the position after the first ``ply`` actions of ``state``'s log.
    Raises ``ValueError`` when ``ply`` is not between 0 and the length of the log."""
    if not 0 <= ply <= len(state.log):
        raise ValueError(f"ply {ply} is not between 0 and {len(state.log)}")
    s = _fresh(state)
    for entry in state.log[:ply]:
        who, text = _split(entry)
        s.apply(text, seat=who)
    return s.view(seat)

