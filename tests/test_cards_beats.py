"""The shared refusal of a climbing game's play that does not beat the play on the table
(:func:`qipai.cards.beats.why_not_higher`): another type, another chain length, or not higher,
each with its game's code, English text and catalogue entries."""

from __future__ import annotations

import pytest

import qipai
from qipai.cards.beats import why_not_higher
from qipai.games.fouafour import combos as fouafour
from qipai.games.wakeng import combos as wakeng
from qipai.i18n import has, t
from tests.wakeng_helpers import new, run


def _counts(module, text: str):
    counts = [0] * len(module.ORDER.ranks)
    for ch in text:
        counts[module.ORDER.ranks.index(ch)] += 1
    return module.play_of(counts)


def _doudizhu(text: str):
    return qipai.load("doudizhu").parse_action(text)


CASES = [  # game, make a play, answer, unit, (type differs, length differs, not higher) as (play, top)
    ("doudizhu", _doudizhu, "play a {type}, a bomb or the rocket", None,
     ("33", "8"), ("345678", "45678"), ("34567", "45678")),
    ("wakeng", lambda x: _counts(wakeng, x), "only a higher {type} does", "cards",
     ("99", "8"), ("4567", "567"), ("456", "567")),
    ("fouafour", lambda x: _counts(fouafour, x), "play a higher {type} or a bomb", "ranks",
     ("99", "8"), ("345678", "45678"), ("34567", "45678")),
]


@pytest.mark.parametrize(("game", "make", "answer", "unit", "kind", "length", "lower"), CASES)
def test_each_reason_has_its_game_code_text_and_catalogue_entries(game, make, answer, unit, kind, length,
                                                                  lower):
    got = [why_not_higher(game, make(a), make(b), answer=answer, unit=unit) for a, b in (kind, length, lower)]
    assert [m.code for m in got] == [f"{game}.does_not_beat", f"{game}.length_differs", f"{game}.not_higher"]
    top = make(kind[1])
    assert got[0] == f"a pair does not beat a single ({top.text}); " + answer.format(type="single")
    size = f"{make(length[1]).length} {unit}" if unit else f"length {make(length[1]).length}"
    assert got[1] == f"length differs: {length[1]} has {size}, {length[0]} has {make(length[0]).length}"
    assert got[2] == f"{lower[0]} is not higher than {lower[1]}"
    for m in got:
        for lang in ("en", "zh"):
            assert has(f"refusal.{m.code}", lang)
            assert "{" not in t(f"refusal.{m.code}", m.params, lang=lang)
    # in Chinese the plays are named rank by rank (i18n.card_words): "3 4 5 6 7 不比 4 5 6 7 8 大"
    assert t(f"refusal.{got[2].code}", got[2].params, lang="zh") == \
        f"{' '.join(lower[0])} 不比 {' '.join(lower[1])} 大"


def test_a_game_refuses_with_the_shared_reason_and_code():
    s = run(new("5H 4H 9S TS", "9C JS", "9D QS"), "bid 1", "pass", "pass")   # seat 0 leads
    s.apply("9")
    for bad, code in (("TT", "wakeng.does_not_beat"), ("5", "wakeng.not_higher")):
        with pytest.raises(qipai.IllegalAction) as e:
            s.apply(bad)
        assert e.value.code == code
