"""Action notation (docs/games/shengji.md "Notation") and the default actions of §5.4."""

from __future__ import annotations

import random

import pytest

import qipai
from qipai.core.errors import IllegalAction
from qipai.games.shengji.actions import PASS, Action, Fault, parse_action
from tests.shengji_helpers import position


@pytest.mark.parametrize("text,canon", [
    ("pass", "pass"), ("  PASS ", "pass"), ("declare 2h,2H", "declare 2H 2H"),
    ("declare bj 2h", "declare BJ 2H"), ("KS AS AS", "AS AS KS"), ("play 10h th", "TH TH"),
    ("lj bj 3c", "BJ LJ 3C"), ("AS1 AS0", "AS AS"), ("bury 2c 3d", "bury 3D 2C"),
    ("fault play 1 3", "fault play 1 3"), ("FAULT follow 0", "fault follow 0"),
])
def test_parse_and_canonical_text(text, canon):
    a = parse_action(text)
    assert str(a) == canon
    assert parse_action(str(a)) == a


def test_action_equality_and_kinds():
    assert Action("play", ("KS", "AS")) == Action("play", ("AS", "KS"))
    assert Action("bury", ("AS",)) != Action("play", ("AS",))
    assert PASS == parse_action("p") and isinstance(parse_action("fault count 1"), Fault)
    with pytest.raises(IllegalAction, match="does not exist"):
        parse_action("AS2", decks=2)
    assert str(parse_action("AS2", decks=3)) == "AS"


def test_every_offered_action_reads_back():
    game = qipai.load("shengji")
    rng = random.Random(4)
    for seed in range(3):
        st = game.new_state(seed=seed)
        while not st.is_terminal():
            acts = st.legal_actions()
            sample = [acts[rng.randrange(len(acts))] for _ in range(5)]
            for a in sample:
                assert game.parse_action(str(a), st) == a
            st.apply(sample[0])


# ----- §5.4 default actions ------------------------------------------------------------------------
def test_s5_4_default_lead_lowest_side_card_suit_order():
    st = position(["3S 3D 5H BJ", "2C 4C 6C 7C", "8C 9C TC JC", "QC KC AC 5C"], 2, "H")
    assert str(st.default_action(0)) == "3D"
    only_trumps = position(["2S 3H BJ", "4C 6C 7C", "8C 9C TC", "QC KC AC"], 2, "H")
    assert str(only_trumps.default_action(0)) == "3H"
    assert st.default_action(1) is None            # not to act


def test_s5_4_default_follow_is_minimal_legal_play():
    st = position(["8H 8H 7H 7H 4C 5C", "QH QH 9H 9H 5H 3H", "2C 3C 6C 7C 8C 9C", "2D 3D 4D 5D 6D 7D"],
                  2, "S")
    st.apply("8H 8H 7H 7H")
    assert str(st.default_action(1)) == "QH QH 9H 9H"
    st.apply("QH QH 9H 9H")
    # void in hearts: the four lowest cards, side cards before trumps (2C is a level card: trump)
    assert str(st.default_action(2)) == "8C 7C 6C 3C"
    short = position(["9H 9H 5C", "3H 4S 4S", "2C 3C 4C", "2D 3D AD"], 2, "S")
    short.apply("9H 9H")
    assert str(short.default_action(1)) == "4S 3H"      # all hearts, then the lowest other card


def test_s5_4_default_bury_and_declaration():
    st = qipai.load("shengji").new_state(seed=8)
    while st.phase in ("deal", "window"):
        assert st.default_action(st.current_player) == PASS
        st.apply("pass")
    kitty = sorted(c.face for c in st.kitty)
    assert sorted(st.default_action(st.dealer).faces) == kitty
