"""Events, in one place to import from: creating one (:mod:`.create`), its director
(:mod:`.director`, with the formats in :mod:`.formats`, matches in :mod:`.series` and
:mod:`.sessions`, games in :mod:`.games`, standings in :mod:`.standings`), and the operations on a
stored event (:mod:`.ops`). All state is in the database (:mod:`qipai.competition.db`).

Errors (unknown preset, duplicate player, unknown game, result entered twice, ...) raise
:class:`EventError` before anything is written.
"""

from __future__ import annotations

from .common import ID_RE, VACANT, EventError
from .common import now as _now
from .create import (
    FIRST_BIDDER_DEALS,
    check_field,
    check_players,
    create_event,
    make_draw,
    new_event_id,
    prepare_event,
)
from .director import Director
from .games import BOT_THINK_MS, variant_options
from .ops import _event, _running, disqualify, enter_result, no_show, run_event, void_game, withdraw
from .sessions import LEVEL_NAMES

__all__ = [
    "BOT_THINK_MS", "FIRST_BIDDER_DEALS", "ID_RE", "LEVEL_NAMES", "VACANT", "Director", "EventError",
    "_event", "_now", "_running", "check_field", "check_players", "create_event", "disqualify",
    "enter_result", "make_draw", "new_event_id", "no_show", "prepare_event", "run_event",
    "variant_options", "void_game", "withdraw",
]
