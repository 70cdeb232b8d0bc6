"""Record downloads in each game's own format (besides qipai's JSON record).

``EXPORTS[game_id]`` is ``(file extension, media type, writer)`` where the writer turns the
replayed final state and the stored record into text. A game without an entry downloads as
JSON only. Writers come from the game packages; nothing here knows a rule.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from qipai.core import Record


def _xiangqi(state: Any, record: Record) -> str:
    from qipai.games.xiangqi.pgn import write_game

    names = record.seats or ["", ""]
    tags = {"Red": names[0], "Black": names[1], "Event": record.meta.get("event", "qipai"),
            "Date": str(record.meta.get("date", ""))[:10].replace("-", ".") or None}
    return write_game(state, tags=tags)


def _go(state: Any, record: Record) -> str:
    from qipai.games.go.sgf import write_sgf

    return write_sgf(state, seats=record.seats, meta=record.meta)


def _gomoku(state: Any, record: Record) -> str:
    from qipai.games.gomoku.records import write_rif

    names = record.seats or ["", ""]
    return write_rif([state], seats=[(names[0], names[1])])


def _doudizhu(state: Any, record: Record) -> str:
    from qipai.games.doudizhu.formats import write_botzone

    return json.dumps(write_botzone(state), ensure_ascii=False, indent=1)


EXPORTS: dict[str, tuple[str, str, Callable[[Any, Record], str]]] = {
    "xiangqi": ("pgn", "application/x-chess-pgn; charset=utf-8", _xiangqi),
    "go": ("sgf", "application/x-go-sgf; charset=utf-8", _go),
    "gomoku": ("rif", "application/xml; charset=utf-8", _gomoku),
    "doudizhu": ("botzone.json", "application/json; charset=utf-8", _doudizhu),
}
