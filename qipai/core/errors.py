"""Exceptions shared by every game and layer."""

from __future__ import annotations

from typing import Any


class QipaiError(Exception):
    """Base class of every error qipai raises on purpose."""


def plain(value: Any) -> Any:
    """``value`` made JSON-ready for a message parameter: numbers, text, booleans and None as
    they are, lists and tuples item by item, anything else as its ``str``."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return str(value)


class Message(str):
    """English text that also names its catalogue entry: ``code`` (a key of the
    ``refusal.`` catalogue, :mod:`qipai.i18n`) and ``params`` (the template's named values,
    JSON-ready). It *is* the English string, so code that compares or joins reasons as text
    keeps working; :class:`IllegalAction` takes the code and parameters of a ``Message`` reason.
    """

    code: str
    params: dict[str, Any]

    def __new__(cls, text: str, *, code: str, params: dict[str, Any] | None = None) -> Message:
        self = super().__new__(cls, text)
        self.code = code
        self.params = {k: plain(v) for k, v in (params or {}).items()}
        return self


class IllegalAction(QipaiError):
    """An action was refused: not legal now, not this seat's turn, or unparsable.

    The state it was offered to is unchanged. ``reason`` is a short English explanation;
    ``code`` names the refusal (catalogue key ``refusal.<code>`` in :mod:`qipai.i18n`, the same
    for the same meaning everywhere, ``<game>.<what>`` where a game has its own) and ``params``
    the values its template fills in (JSON-ready); ``action`` is the offending action (object or
    text) when known. A :class:`Message` reason brings its own code and parameters; a plain
    text without ``code`` is ``"illegal"``.
    """

    def __init__(self, reason: str, action: object = None, *, code: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        if code is None and isinstance(reason, Message):
            code, params = reason.code, reason.params
        self.reason = str(reason)
        self.code = code or "illegal"
        self.params = {k: plain(v) for k, v in (params or {}).items()}
        self.action = action
        text = f"{action}: {reason}" if action is not None else str(reason)
        super().__init__(text)

    def text(self, lang: str = "en") -> str:
        """The refusal in ``lang`` (``"en"`` or ``"zh"``) from the catalogue; the English
        ``reason`` where the catalogue has no entry."""
        from qipai import i18n

        return i18n.t(f"refusal.{self.code}", self.params, lang=lang, default=self.reason)


class OptionError(QipaiError, ValueError):
    """An unknown game id, option name, or option value; the message lists the valid ones."""


class NotationError(QipaiError, ValueError):
    """Malformed position or move text. ``field`` names the part that is wrong when known."""

    def __init__(self, message: str, field: str | None = None) -> None:
        self.field = field
        super().__init__(f"{field}: {message}" if field else message)


class RecordError(QipaiError):
    """A game record could not be read or does not replay.

    Attributes name where: ``source`` (file name), ``game`` (1-based index in the file),
    ``line`` (1-based line in the file), ``move`` (1-based ply number) and ``text`` (the
    move text as written). Any of them may be ``None`` when unknown.
    """

    def __init__(
        self,
        reason: str,
        *,
        source: str | None = None,
        game: int | None = None,
        line: int | None = None,
        move: int | None = None,
        text: str | None = None,
    ) -> None:
        self.reason = reason
        self.source = source
        self.game = game
        self.line = line
        self.move = move
        self.text = text
        super().__init__(self.describe())

    def describe(self) -> str:
        where = []
        if self.source is not None:
            where.append(str(self.source))
        if self.game is not None:
            where.append(f"game {self.game}")
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.move is not None:
            where.append(f"move {self.move}")
        if self.text is not None:
            where.append(repr(self.text))
        return (", ".join(where) + ": " if where else "") + self.reason
