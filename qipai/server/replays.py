"""Replays: every position of a finished game, for the replay page.

:func:`replay_steps` re-plays a stored qipai JSON record move by move and returns, per ply, the
spectator view and each seat's view (the game is over, so hidden cards may be shown). Lobby
records (``/api/records/{id}/steps``) and event games (``/api/events/{id}/games/{game}/steps``)
share it.
"""

from __future__ import annotations

import json
from typing import Any

import qipai
from qipai.core import Record

from . import movetext


def replay_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The positions of ``record`` (a qipai JSON record): ``[{"action": None, "views": [...],
    "public": ...}, {"action": text, "seat": mover, "views": ..., "public": ...}, ...]``, one
    more than the record has actions; in a board game every step after the first also has
    ``move``, the action's move-list entry (:func:`.movetext.describe`: Chinese and WXF for
    xiangqi). Raises QipaiError (a RecordError or an IllegalAction)
    for a record that does not replay."""
    rec = Record.from_json(record)
    game = qipai.load(rec.game, **rec.options)
    state = game.new_state(seed=rec.seed, deal=rec.deal, position=rec.position, num_seats=rec.num_seats)
    n = state.num_seats

    def views() -> dict[str, Any]:    # copied now: a view may share lists the state changes later
        return json.loads(json.dumps({"views": [state.view(s) for s in range(n)],
                                      "public": state.view(None)}, ensure_ascii=False))
    out = [{"action": None, **views()}]
    listed = movetext.has_moves(rec.game)
    for entry in rec.actions:
        seat, text = (entry[0], entry[1]) if isinstance(entry, list) else (None, entry)
        mover = seat if seat is not None else state.current_player
        move = movetext.describe(state, mover if mover is not None else 0, text) if listed else None
        state.apply(text, seat=seat)
        out.append({"action": text, "seat": mover, **views(), **({"move": move} if move else {})})
    return out
