"""Record downloads: qipai's JSON record, or any format the game registered with
:func:`qipai.core.formats.register_writer` (PGN for xiangqi, SGF for go, RIF for gomoku, ...).

``native_format(game_id)`` is the one the pages offer beside JSON; ``download(record, name)``
gives ``(text, file extension, media type)``. Nothing here knows a rule.
"""

from __future__ import annotations

from qipai.core import Record
from qipai.core.formats import write_records, writer_names

#: format name -> (file extension, media type); unknown names download as plain text
MEDIA = {
    "json": ("json", "application/json; charset=utf-8"),
    "pgn": ("pgn", "application/x-chess-pgn; charset=utf-8"),
    "pgn-chinese": ("pgn", "application/x-chess-pgn; charset=utf-8"),
    "sgf": ("sgf", "application/x-go-sgf; charset=utf-8"),
    "rif": ("rif", "application/xml; charset=utf-8"),
}
PREFERRED = ("pgn", "sgf", "rif")


def formats(game_id: str) -> list[str]:
    return writer_names(game_id)


def native_format(game_id: str) -> str | None:
    """The game's own record format (None: JSON only)."""
    own = [n for n in writer_names(game_id) if n != "json"]
    for name in PREFERRED:
        if name in own:
            return name
    return own[0] if own else None


def download(record: Record, name: str) -> tuple[str, str, str]:
    """The record written in format ``name``. Raises RecordError for a format the game lacks."""
    text = write_records([record], name)
    ext, media = MEDIA.get(name, ("txt", "text/plain; charset=utf-8"))
    return text, ext, media
