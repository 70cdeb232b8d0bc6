"""An organizer's refused event setting says the setting and its values in words, in both
languages, never as the preset's codes: the first bidder of doudizhu ('lot_then_rotate',
'face_up_card', the deal 'cut_faceup'), the entrants, the stage's format and tie-breaks."""

from __future__ import annotations

import re

import pytest

from qipai.competition.create import prepare_event
from qipai.core.errors import QipaiError, why
from qipai.i18n import t

#: a preset's code: a word with an underscore (lot_then_rotate, cut_faceup, first_bidder)
CODE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def refused(overrides) -> QipaiError:
    with pytest.raises(QipaiError) as e:
        prepare_event("s0_doudizhu", overrides)
    return e.value


@pytest.mark.parametrize("overrides, words", [
    ({"first_bidder": "nobody"}, {"en": "drawn by lot, then in turn", "zh": "先抽签，之后轮流"}),
    ({"first_bidder": "face_up_card", "game": {"id": "doudizhu", "deal": "shuffle"}},
     {"en": "cut, a card face up", "zh": "切牌亮牌"}),
    ({"entrants": "teams"}, {"en": "individual players", "zh": "个人"}),
    ({"stage": {"kind": "ladder"}}, {"en": "round robin", "zh": "循环赛"}),
])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_refused_setting_names_its_values_in_words(overrides, words, lang):
    params = why(refused(overrides), "none")            # the refusal's code and parameters
    text = t(f"refusal.{params['why']}", params, lang=lang)
    assert words[lang] in text, text
    assert not CODE.search(text), text
    if lang == "zh":
        assert not re.search(r"[A-Za-z]{3,}", text), text
