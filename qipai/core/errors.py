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

    def __reduce__(self) -> tuple:
        # pickled with its code and parameters (an error sent back from a worker process)
        return _message, (str(self), self.code, self.params)


def _message(text: str, code: str, params: dict[str, Any]) -> Message:
    return Message(text, code=code, params=params)


def why(error: BaseException, fallback: str) -> dict[str, Any]:
    """Why ``error`` was raised, as message parameters a reader's language can word: ``why`` is
    the code of a ``refusal.`` catalogue entry and the rest are its parameters. An error whose
    text is a :class:`Message` (``ValueError(Message(...))``, a :class:`NotationError` of one)
    gives its own code and parameters; any other gives ``fallback``, a code that says in general
    words what went wrong. A wrapping message names the field ``{why|refusal}``, so no English
    prose travels in its parameters."""
    for m in (getattr(error, "message", None), *error.args):
        if isinstance(m, Message):
            return {**m.params, "why": m.code}
    code = getattr(error, "code", None)        # a refusal of the referee's (IllegalAction)
    if isinstance(error, IllegalAction) and isinstance(code, str) and code != "illegal":
        return {**error.params, "why": code}
    if isinstance(error, RecordError) and isinstance(code, str):    # a record reader's reason
        return {**error.params, "why": code}
    return {"why": fallback}


def why_cause(error: BaseException, fallback: str) -> dict[str, Any]:
    """:func:`why` of ``error`` for a :class:`Message` that wraps it: its code under ``cause``
    (a template names ``{cause|refusal}``), since the wrapping message's own code takes
    ``why`` once it is wrapped in turn (an ApiError's ``why``)."""
    out = why(error, fallback)
    out["cause"] = out.pop("why")
    return out


def why_inner(error: BaseException, fallback: str, **params: Any) -> dict[str, Any]:
    """``params`` of a message that wraps ``error`` and adds where it happened (``deal 2: ...``,
    ``engines: ...``): :func:`why` of ``error`` with its code under ``inner`` (a template names
    ``{inner|refusal}``). Wrapped twice, the innermost error's code and parameters are kept (the
    error's own ``inner`` wins), so no template ever names itself."""
    out = why(error, fallback)
    return {**params, "inner": out.pop("why"), **out}


def why_and(error: BaseException, fallback: str, **params: Any) -> dict[str, Any]:
    """:func:`why` of ``error`` over ``params`` (a wrapping message's own parameters): where
    both name a parameter, the error's value is kept, so one dict holds them without a clash."""
    return {**params, **why(error, fallback)}


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


def _coded(message: str, code: str | None, params: dict[str, Any] | None) -> str:
    """``message`` as a :class:`Message` of ``code`` and ``params`` when a code is given."""
    if code is None:
        return message
    return Message(str(message), code=code, params=params)


class OptionError(QipaiError, ValueError):
    """An unknown game id, option name, or option value, or a bad setting of a clock, bot,
    engine or event; the English message lists the valid ones.

    ``code`` names it for readers of other languages (catalogue key ``refusal.<code>`` in
    :mod:`qipai.i18n`, e.g. ``option.not_in_choices``) and ``params`` fills that template;
    :func:`why` hands both to a server error. A :class:`Message` as ``message`` brings its own.
    """

    def __init__(self, message: str, *, code: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        message = _coded(message, code, params)
        self.code = getattr(message, "code", None)
        self.params = getattr(message, "params", {})
        self.message = message
        super().__init__(message)


class NotationError(QipaiError, ValueError):
    """Malformed position or move text. ``field`` names the part that is wrong when known.

    ``code`` and ``params`` name the fault for readers of other languages, as for
    :class:`OptionError` (``notation.*``, ``tile.*`` ... keys of the ``refusal.`` catalogue).
    """

    def __init__(self, message: str, field: str | None = None, *, code: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        message = _coded(message, code, params)
        self.field = field
        self.message = message
        self.code = getattr(message, "code", None)
        self.params = getattr(message, "params", {})
        super().__init__(f"{field}: {message}" if field else message)

    def __reduce__(self) -> tuple:
        return type(self), (self.message, self.field), self.__dict__


class RecordError(QipaiError):
    """A game record could not be read or does not replay.

    Attributes name where: ``source`` (file name), ``game`` (1-based index in the file),
    ``line`` (1-based line in the file), ``move`` (1-based ply number) and ``text`` (the
    move text as written). Any of them may be ``None`` when unknown. ``code`` and ``params``
    name the reason for readers of other languages (``refusal.<code>``), as for
    :class:`OptionError`; :meth:`text` words the whole error in a language.
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
        code: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        reason = _coded(reason, code, params)
        self.code = getattr(reason, "code", None)
        self.params = getattr(reason, "params", {})
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

    def text_in(self, lang: str = "en") -> str:
        """The error in ``lang``: where (file, game, line, move, the move as written) and why,
        from the catalogue (``cli.record.*``, ``refusal.<code>``); a reason without a code is
        its English text."""
        from qipai import i18n

        if lang == "en":
            return self.describe()
        where = [str(self.source)] if self.source is not None else []
        where += [i18n.t(f"cli.record.{k}", {"n": v}, lang=lang)
                  for k, v in (("game", self.game), ("line", self.line), ("move", self.move))
                  if v is not None]
        if self.text is not None:
            where.append(i18n.t("cli.record.text", {"text": self.text}, lang=lang))
        why = i18n.t(f"refusal.{self.code}", self.params, lang=lang, default=str(self.reason)) \
            if self.code else str(self.reason)
        return ("，".join(where) + "：" if where else "") + why
