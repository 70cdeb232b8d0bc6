"""An event's games in one download: a zip with a file per finished game in the game's own
record format (PGN for xiangqi, SGF for go, RIF for gomoku, qipai JSON for the others: the
formats of ``/api/records/{id}/download?format=native``, :mod:`.exports`) and ``index.csv``,
a row per game of the event.

A game's file is named by its round, its board (the match's number in the round), its game
number in the match when the match has more than one, and its players:
``r02-b03-alice-bob.pgn``, ``r05-b01-g2-alice-bob.sgf``. The index (UTF-8 with a byte order
mark, as the CSV exports) lists every game with its file (blank for a game with no record: a
walkover, a game not played yet), round, board, game number, players by seat, result,
reason, moves and when it finished. A game held from the viewer (its round still being played,
:class:`.conduct.RoundHold`) has neither file nor result, as in the CSV exports.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable
from typing import Any

from qipai.competition.director import Director
from qipai.competition.meet import _csv
from qipai.core import Record
from qipai.core.errors import QipaiError

from . import exports

#: characters a file name keeps (letters and digits of any script, - and _)
UNSAFE = re.compile(r"[^\w-]+")


def _safe(name: str) -> str:
    return UNSAFE.sub("_", name).strip("_")[:40] or "_"


def game_file(game_id: str, record: dict[str, Any]) -> tuple[str, str]:
    """``(text, extension)`` of a stored record in its game's own format (JSON when the game
    has none, or when the record cannot be written in it)."""
    rec = Record.from_json(record)
    name = exports.native_format(rec.game or game_id)
    if name:
        try:
            text, ext, _ = exports.download(rec, name)
            return text, ext
        except (ValueError, QipaiError):
            pass
    text, ext, _ = exports.download(rec, "json")
    return text, ext


def games_zip(d: Director, held: Callable[[int, list[str]], bool]) -> bytes:
    """The zip of the event ``d`` directs (every stage): see the module. ``held(round, seats'
    names)``: whether a game's result is held from the viewer."""
    rows: list[list[Any]] = [["file", "game", "round", "board", "number", "seats", "result", "reason",
                              "moves", "finished"]]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for stage in sorted(d.stage_maps):
            sd = d if stage == d.stage_no else Director(d.s, d.ev, stage)
            for m in sd.matches():
                several = len(m.games) > 1
                for g in m.games:
                    names = [sd.seat_player(g, i)[0] for i in range(len(g.seats))]
                    hide = held(m.round, sd.people(g))
                    res = {} if hide else (g.result or {})
                    file = ""
                    if not hide and g.status == "finished" and g.source in ("played", "entered") and g.record:
                        text, ext = game_file(d.ev.game, g.record)
                        file = (f"r{m.round:02d}-b{m.index:02d}" + (f"-g{g.number}" if several else "")
                                + "-" + "-".join(_safe(n) for n in names) + f".{ext}")
                        z.writestr(file, text)
                    rows.append([file, g.id, m.round, m.index, g.number, " / ".join(names),
                                 res.get("text", "pending" if g.status == "pending" and not hide else ""),
                                 res.get("reason", ""), "" if res.get("moves") is None else res["moves"],
                                 "" if hide else (g.finished or "")])
        z.writestr("index.csv", _csv(rows).encode("utf-8-sig"))
    return buf.getvalue()
