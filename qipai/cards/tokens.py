"""Card-game actions that carry no cards: fixed words (``pass``, ``foul``, ...) and points bids
(``bid 1``). Interned, so a game compares them by identity (``action is PASS``); ``text`` is
the canonical notation and ``type`` names the kind (``pass``, ``bid``, ...)."""

from __future__ import annotations


class Word:
    """A fixed word action such as ``pass``; ``word(text)`` returns the interned instance."""

    __slots__ = ("type", "text")

    def __init__(self, text: str) -> None:
        self.type = text
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"word({self.text!r})"

    def __reduce__(self):
        return (word, (self.text,))


class Bid:
    """A points bid ``bid N``; ``bid(n)`` returns the interned instance."""

    __slots__ = ("value", "text")
    type = "bid"

    def __init__(self, value: int) -> None:
        self.value = value
        self.text = f"bid {value}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"bid({self.value})"

    def __reduce__(self):
        return (bid, (self.value,))


_WORDS: dict[str, Word] = {}
_BIDS: dict[int, Bid] = {}


def word(text: str) -> Word:
    """The interned word action ``text``."""
    w = _WORDS.get(text)
    if w is None:
        w = _WORDS[text] = Word(text)
    return w


def bid(value: int) -> Bid:
    """The interned bid of ``value`` points (an ``int``). Raises ``ValueError`` otherwise."""
    if type(value) is not int:
        raise ValueError(f"a bid is an integer, not {value!r}")
    b = _BIDS.get(value)
    if b is None:
        b = _BIDS[value] = Bid(value)
    return b


PASS = word("pass")
