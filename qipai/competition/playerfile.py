"""The players file of ``qipai event new --players``: JSON, TOML or one player per line."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from qipai.core.errors import OptionError


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
    if path.suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise OptionError(f"{path}: line {e.lineno}: not valid JSON: {e.msg}",
                              code="config.file_format",
                              params={"path": str(path), "format": "JSON"}) from None
        if not isinstance(data, list):
            raise OptionError(f"{path}: expected a list of players",
                              code="config.file_format", params={"path": str(path), "format": "JSON"})
        return data
    if path.suffix == ".toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise OptionError(f"{path}: not valid TOML: {e}",
                              code="config.file_format",
                              params={"path": str(path), "format": "TOML"}) from None
        return list(data.get("players", []))
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
