"""Record file formats: every reader turns a file's bytes into :class:`Record` objects.

Game packages register their readers (``register_reader``); :func:`read_records` detects the
format from the content, not the file name. The native format is qipai's JSON record (one
record object, or a list of them).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from .errors import RecordError
from .record import Record


@dataclass(frozen=True)
class Reader:
    name: str
    sniff: Callable[[bytes], bool]          # True if the bytes look like this format
    read: Callable[[bytes, str], list[Record]]   # (data, source name) -> records; raises RecordError


_READERS: list[Reader] = []
_LOADED = False


def register_reader(reader: Reader) -> None:
    _READERS.append(reader)


def _json_sniff(data: bytes) -> bool:
    return data.lstrip()[:1] in (b"{", b"[")


def _json_read(data: bytes, source: str) -> list[Record]:
    try:
        obj = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        line = getattr(e, "lineno", None)
        raise RecordError(f"not valid JSON: {e}", source=source, line=line, code="record.not_json") from None
    items = obj if isinstance(obj, list) else [obj]
    return [Record.from_json(item, source=source) for item in items]


register_reader(Reader("qipai-json", _json_sniff, _json_read))


def _load_game_readers() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    import importlib

    from .registry import _MODULES

    for module in _MODULES.values():
        importlib.import_module(module)


def readers() -> list[Reader]:
    """Every reader, in the order they are tried: the game formats first (their sniffers are
    specific, and some are JSON), the native qipai JSON reader last (it takes any JSON)."""
    _load_game_readers()
    return [r for r in _READERS if r.name != "qipai-json"] + [r for r in _READERS if r.name == "qipai-json"]


def read_records(data: bytes, source: str) -> tuple[str, list[Record]]:
    """Detect the format of ``data`` and read every record in it: ``(format name, records)``.

    Raises :class:`RecordError` when no reader recognises the content or the content is broken.
    """
    for reader in readers():
        if reader.sniff(data):
            return reader.name, reader.read(data, source)
    names = ", ".join(r.name for r in readers())
    raise RecordError(f"unrecognised record format (known: {names})", source=source,
                      code="record.unrecognised", params={"formats": names})


# ----- writers: a game's standard record format out -------------------------------------
# (game id, format name) -> function(records) -> text
_WRITERS: dict[tuple[str, str], Callable[[list[Record]], str]] = {}


def register_writer(game_id: str, name: str, write: Callable[[list[Record]], str]) -> None:
    """Register ``write(records) -> text``: the game's own record format (PGN, SGF, ...)."""
    _WRITERS[(game_id, name)] = write


def writer_names(game_id: str) -> list[str]:
    """Formats a game's records can be written in; ``json`` always."""
    _load_game_readers()
    return ["json"] + sorted(n for (g, n) in _WRITERS if g == game_id)


def write_records(records: list[Record], name: str = "json") -> str:
    """The records (all of one game) as text in format ``name``. Raises :class:`RecordError`
    for a format the game does not have."""
    if name == "json":
        docs = [r.to_json() for r in records]
        return json.dumps(docs[0] if len(docs) == 1 else docs, ensure_ascii=False, indent=1)
    _load_game_readers()
    games = {r.game for r in records}
    if len(games) != 1:
        raise RecordError("records of several games cannot share one file", code="record.several_games")
    game_id = games.pop()
    write = _WRITERS.get((game_id, name))
    if write is None:
        raise RecordError(f"{game_id} records cannot be written as {name!r}; formats: "
                          f"{', '.join(writer_names(game_id))}", code="record.no_writer",
                          params={"game": game_id, "format": name, "formats": writer_names(game_id)})
    return write(records)
