"""Plain text a person names things with (chat lines, event and meet names, units, token
descriptions): no control characters (NUL, which PostgreSQL's text columns refuse, newlines,
escapes) and no direction overrides (U+202E and its kin turn a list's text around). Spaces
around it are dropped: a name of spaces alone is no name (the default is taken), and
``"Beijing "`` is the same unit as ``"Beijing"``."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator

from qipai.competition.common import unsafe

__all__ = ["Plain", "unsafe"]


def _plain(text: str) -> str:
    if unsafe(text):
        raise ValueError("control characters and direction overrides are not allowed")
    return text.strip()


#: a request field of plain text (400 ``bad_request`` naming the field otherwise)
Plain = Annotated[str, AfterValidator(_plain)]
