"""What every ``qipai`` command prints through: its two consoles (standard output and standard
error), its language and its error line.

A console writing to a terminal wraps at the terminal's width, in colour. Piped or redirected
(not a terminal), it keeps every line whole: no wrapping and no cutting at 80 columns, a table as
wide as its widest row (standings, pairings, long names), one line per record or message.

The language is chosen as ``qipai play`` chooses it: ``--lang zh|en``, else the locale's
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``; :func:`qipai.i18n.env_language`). :data:`LangOpt` is the
option every command that speaks to a player or an organizer takes.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console, ConsoleDimensions
from rich.markup import escape

from qipai import i18n
from qipai.core.errors import Message, QipaiError, RecordError

#: the width of a console that is not a terminal: lines are never wrapped nor cut at it
PIPED_WIDTH = 10_000


class Terminal(Console):
    """A Rich console whose width is the terminal's when it writes to one, else
    :data:`PIPED_WIDTH` with soft wrapping (checked at each print: the same console serves a
    terminal and a pipe, and tests that swap ``sys.stdout``)."""

    def __init__(self, *, soft_wrap: bool | None = None, **kw: Any) -> None:
        super().__init__(highlight=False, **kw)
        self._soft = soft_wrap
        # a width given here holds; Rich also takes one from $COLUMNS, which a pipe ignores
        self._given_width = kw.get("width") is not None

    @property
    def soft_wrap(self) -> bool:          # type: ignore[override]
        return (not self.is_terminal) if self._soft is None else self._soft

    @soft_wrap.setter
    def soft_wrap(self, value: bool | None) -> None:
        self._soft = value

    @property
    def size(self) -> ConsoleDimensions:  # type: ignore[override]
        size = Console.size.fget(self)
        if self.is_terminal or self._given_width:
            return size
        return ConsoleDimensions(PIPED_WIDTH, size.height)

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)


console = Terminal()
err = Terminal(stderr=True)


def fail(message: str, code: int = 2) -> None:
    """Print ``error: message`` (the word in the chosen language) on standard error and exit."""
    word = i18n.say("cli.error", {"message": ""})      # "error: ", "错误：": the message follows
    err.print(f"[red]{escape(word.rstrip())}[/red]{word[len(word.rstrip()):]}{escape(message)}",
              markup=True, highlight=False)
    raise typer.Exit(code)


def said(e: QipaiError) -> str:
    """An error in the chosen language: its English text, which names every valid value, or in
    Chinese the catalogue's words for its code (a record's error with where it is)."""
    if isinstance(e, RecordError):
        return e.text_in(i18n.current())
    code, params = getattr(e, "code", None), getattr(e, "params", None)
    if not code:                 # an error raised with a Message (EventError(Message(...)))
        m = next((a for a in e.args if isinstance(a, Message)), None)
        code, params = (m.code, m.params) if m is not None else (None, None)
    if i18n.current() == "en" or not code or code == "illegal":
        return str(e)
    return i18n.say(f"refusal.{code}", params, default=str(e))


def os_why(e: OSError) -> str:
    """Why a file could not be read or written, in the chosen language (the system's English
    words where the catalogue has none)."""
    import errno

    name = errno.errorcode.get(e.errno or 0, "")
    return i18n.say(f"cli.os.{name}", default=e.strerror or str(e)) if name else (e.strerror or str(e))


def choose_language(lang: str | None) -> str:
    """Speak ``lang`` from now on, else the locale's language; an unknown one is refused."""
    chosen = lang or i18n.env_language()
    if chosen not in i18n.LANGS:
        fail(f"unknown language {lang!r}; valid: {', '.join(i18n.LANGS)}")
    i18n.use(chosen)
    return chosen


def _lang_option(value: str | None) -> str | None:
    choose_language(value)
    return value


LangOpt = Annotated[str | None, typer.Option(
    "--lang", callback=_lang_option, is_eager=True,
    help="The language of messages, tables and results: zh or en (default: the locale's, "
         "from LC_ALL, LC_MESSAGES or LANG).")]
