"""What the event modules share: the refusal they raise, the clock of their rows, the id rule,
and the game-specific starts of series and sessions."""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime

from qipai.core.errors import QipaiError

#: an event's id: at most 40 characters (the events table's key is 40 wide), ASCII (it is in URLs)
ID_RE = re.compile(r"^[A-Za-z0-9_.\-]{1,40}$")
#: an entrant's id: at most 40 characters, also Chinese ones, as accounts may be named
#: (qipai.server.auth.USERNAME): a signed-in player joins an event under the account's name
ENTRANT_ID_RE = re.compile(r"^[A-Za-z0-9_.\-\u4e00-\u9fff]{1,40}$")
#: the longest entrant name or unit (their columns are 200 wide)
MAX_NAME = 200
#: the direction embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069)
BIDI = frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A))


def unsafe(text: str) -> bool:
    """Whether ``text`` holds a control character (NUL, which PostgreSQL's text columns refuse,
    newlines, escapes) or a direction override (which turns a list's text around)."""
    return any(unicodedata.category(ch) == "Cc" or ord(ch) in BIDI for ch in text)


def check_name(text: str, who: str) -> str:
    """``text`` (an entrant's name or unit) when it is plain text of at most :data:`MAX_NAME`
    characters; raises EventError (``event.bad_name``) otherwise."""
    if len(text) > MAX_NAME or unsafe(text):
        from qipai.core.errors import Message
        raise EventError(Message(f"{who}: a name or unit is plain text of at most {MAX_NAME} characters",
                                 code="event.bad_name", params={"who": who, "max": MAX_NAME}))
    return text
VACANT = 0              # the draw number of an empty seat at a short final table (§5.6)
#: games whose series deals rotate the dealer (game id -> seats): the first dealer of a match by
#: lot (purpose ``first-actor``, §5.1), then the next seat each game; passed as ``deal={"dealer"}``
ROTATING_DEALER = {"fouafour": 4}
#: games whose session starts from a provisional dealer the match draws (§5.1 ``first-actor``):
#: game id -> the option that takes it
FIRST_DEALER_OPTION = {"shengji": "provisional_dealer"}


class EventError(QipaiError):
    """A refused organiser request; nothing was changed."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
