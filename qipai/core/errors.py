"""Exceptions shared by every game and layer."""

from __future__ import annotations


class QipaiError(Exception):
    """Base class of every error qipai raises on purpose."""


class IllegalAction(QipaiError):
    """An action was refused: not legal now, not this seat's turn, or unparsable.

    The state it was offered to is unchanged. ``reason`` is a short human-readable
    explanation; ``action`` is the offending action (object or text) when known.
    """

    def __init__(self, reason: str, action: object = None) -> None:
        self.reason = reason
        self.action = action
        text = f"{action}: {reason}" if action is not None else reason
        super().__init__(text)


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
