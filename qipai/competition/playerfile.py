"""The players file of ``qipai event new --players``: JSON, TOML or one player per line."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from qipai.core.errors import OptionError

#: a players file's suffix -> its format's name, its parser (raising ValueError, which
#: JSONDecodeError and TOMLDecodeError are) and where the list of players is in what it parsed
_FORMATS: dict[str, tuple[str, Callable[[str], Any], Callable[[Any], Any]]] = {
    ".json": ("JSON", json.loads, lambda data: data),
    ".toml": ("TOML", tomllib.loads, lambda data: data.get("players", [])),
}


def _parsed(path: Path, text: str, fmt: str, parse: Callable[[str], Any],
            players: Callable[[Any], Any]) -> list[Any]:
    """The list of players of a JSON or TOML file, or an OptionError ``config.file_format``
    naming the file, the format and what is wrong (with the line where JSON's parser knows it)."""
    def bad(what: str) -> OptionError:
        return OptionError(f"{path}: {what}", code="config.file_format",
                           params={"path": str(path), "format": fmt})
    try:
        data = players(parse(text))
    except json.JSONDecodeError as e:
        raise bad(f"line {e.lineno}: not valid JSON: {e.msg}") from None
    except ValueError as e:
        raise bad(f"not valid {fmt}: {e}") from None
    if not isinstance(data, list):
        raise bad("expected a list of players")
    return data


def read_players(path: Path) -> list[Any]:
    """Players from a file: JSON (a list of ids or objects), TOML (``[[players]]`` tables), or
    text with one player per line: ``id [name] [bot=NAME] [unit=NAME] [rating=N]``. A pair
    entrant has ``members``: a list of two ids or ``{id, name, bot}`` objects (JSON, TOML), or
    ``members=ID,ID`` on its line."""
    try:
        text = path.read_text("utf-8")
    except OSError as e:
        raise OptionError(f"{path}: cannot read: {e.strerror}",
                          code="config.file_unreadable", params={"path": str(path)}) from None
    if path.suffix in _FORMATS:
        return _parsed(path, text, *_FORMATS[path.suffix])
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        p: dict[str, Any] = {"id": parts[0]}
        names = []
        for part in parts[1:]:
            if "=" in part:
                k, v = part.split("=", 1)
                if k not in ("bot", "unit", "rating", "name", "members"):
                    raise OptionError(f"{path}: line {n}: unknown field {k!r} "
                                      "(bot, unit, rating, name, members)",
                                      code="config.unknown_keys",
                                      params={"field": f"{path}:{n}", "keys": [k],
                                              "valid": ["bot", "unit", "rating", "name", "members"]})
                p[k] = v.split(",") if k == "members" else v
            else:
                names.append(part)
        if names:
            p["name"] = " ".join(names)
        out.append(p)
    return out
