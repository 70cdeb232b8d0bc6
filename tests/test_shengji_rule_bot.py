"""The shengji rule bot's follow: a one-card lead's contenders are compared by their ``pos``
alone (the bot skips the general split of a play into the lead's format there)."""

from __future__ import annotations

from qipai.games.shengji import combos as cb
from qipai.games.shengji.trump import FACES, SUITS, Trump


def test_a_single_cards_contender_key_is_its_pos() -> None:
    for two_always in (False, True):
        for level in range(2, 15):
            for suit in (*SUITS, None):
                trump = Trump(level, suit, two_always)
                for lead in FACES:
                    fmt = cb.format_of(cb.decompose({lead: 1}, trump.pos))
                    for f in FACES:
                        assert cb.contender_key({f: 1}, trump.pos, fmt) == (trump.pos[f],)
