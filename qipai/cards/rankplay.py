"""The play of a climbing game whose plays are rank multisets (挖坑, 4A4, ...): suits never
matter, so a play is its type, chain length, comparison key and rank counts. Each game
subclasses :class:`RankPlay` with its rank order and its ``beats`` rule."""

from __future__ import annotations

from typing import ClassVar

from .order import RankOrder


class RankPlay:
    """One distinct play: ``type`` (the game's type id), ``length`` (ranks in a chain, else 1),
    ``key`` (the rank index compared: the rank, or a chain's highest rank), ``counts`` (cards
    per rank index of ``order``), ``ncards``, and ``text`` (the canonical rank string, lowest
    rank first). Games intern their plays, so plays compare by identity."""

    __slots__ = ("type", "length", "key", "counts", "ncards", "text")
    order: ClassVar[RankOrder]

    def __init__(self, type_: str, length: int, key: int, counts: tuple[int, ...]) -> None:
        self.type = type_
        self.length = length
        self.key = key
        self.counts = counts
        self.ncards = sum(counts)
        self.text = self.order.format_counts(counts)

    def beats(self, other: RankPlay) -> bool:
        """True when this play may be played on ``other`` (the game's comparison rule)."""
        raise NotImplementedError

    def to_json(self) -> dict:
        return {"type": self.type, "length": self.length, "key": self.order.ranks[self.key],
                "cards": self.text}

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Play({self.type} {self.text})"
