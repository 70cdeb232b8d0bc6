"""Rank-count multisets packed into one integer, for fast containment tests.

A :class:`Packer` stores the count of each rank index in a fixed-width bit field. Each field has
a spare top bit (the *guard*), so "is multiset P contained in multiset H" is one subtraction and
one mask for all ranks at once: ``((H | G) - P) & G == G``. Adding and removing cards are plain
integer addition and subtraction.
"""

from __future__ import annotations

from collections.abc import Sequence

_HEX_VALUE = bytes.maketrans(b"0123456789abcdef", bytes(range(16)))   # hex digit -> its value


class Packer:
    """Packs count vectors of ``num_ranks`` ranks with counts up to ``max_count`` (e.g. 4 for one
    deck, 16 for 保皇's four decks of a rank with four suits)."""

    def __init__(self, num_ranks: int, max_count: int) -> None:
        if num_ranks < 1 or max_count < 1:
            raise ValueError("num_ranks and max_count must be positive")
        self.num_ranks = num_ranks
        self.max_count = max_count
        self.width = max_count.bit_length() + 1          # count bits + guard bit
        self.field_mask = (1 << (self.width - 1)) - 1
        self.guard = sum(1 << (self.width * i + self.width - 1) for i in range(num_ranks))
        self.unit = [1 << (self.width * i) for i in range(num_ranks)]
        # bit b of every field, for total(): (mask, 2**b)
        self._bits = [(sum(1 << (self.width * i + b) for i in range(num_ranks)), 1 << b)
                      for b in range(self.width - 1)]

    def pack(self, counts: Sequence[int]) -> int:
        """The packed integer of ``counts``. Raises ``ValueError`` on a bad count."""
        if len(counts) != self.num_ranks:
            raise ValueError(f"expected {self.num_ranks} counts, got {len(counts)}")
        code = 0
        for i, c in enumerate(counts):
            if not 0 <= c <= self.max_count:
                raise ValueError(f"count {c} out of range 0..{self.max_count}")
            code |= c << (self.width * i)
        return code

    def unpack(self, code: int) -> list[int]:
        w, m = self.width, self.field_mask
        return [(code >> (w * i)) & m for i in range(self.num_ranks)]

    def counts(self, code: int) -> bytes | list[int]:
        """The counts of ``code`` by rank index, read-only (``counts(code)[r]``). With 4-bit
        fields (counts up to 7) each field is one hexadecimal digit of ``code``, so the digits
        are turned into counts by one translation, without a loop over the ranks."""
        if self.width != 4:
            return self.unpack(code)
        return f"{code:0{self.num_ranks}x}".encode().translate(_HEX_VALUE)[::-1]

    def count(self, code: int, rank: int) -> int:
        return (code >> (self.width * rank)) & self.field_mask

    def contains(self, hand: int, part: int) -> bool:
        """True when every rank count of ``part`` is at most that of ``hand``."""
        g = self.guard
        return ((hand | g) - part) & g == g

    def total(self, code: int) -> int:
        """The number of cards in ``code`` (the sum of its counts): with 4-bit fields the sum
        of its hexadecimal digits' values; else, for each bit position of the fields, the
        number of fields with that bit set, times the bit's value."""
        if self.width == 4:
            return sum(f"{code:x}".encode().translate(_HEX_VALUE))
        return sum((code & mask).bit_count() * value for mask, value in self._bits)
