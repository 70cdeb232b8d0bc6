"""Differential tests against RLCard's doudizhu and OpenSpiel's dou_dizhu.

On 10,000 situations (hand + play to beat) from random games of each peer, qipai's legal plays
equal the peer's as sets of rank multisets, under the options that switch on the peer's rules
(every difference is listed in docs/games/doudizhu.md). OpenSpiel games are also mirrored move
by move through qipai's referee, bidding included, and must end with the same returns.
"""

import random

import pytest

import qipai
from qipai.games.doudizhu.combos import KickerRules, table
from qipai.games.doudizhu.formats import _os_action, _os_card
from tests.doudizhu_peers import norm, openspiel_situations, our_legal, rlcard_situations

pytest.importorskip("rlcard")
pyspiel = pytest.importorskip("pyspiel")

OPENSPIEL_RULES = KickerRules(adjacent_trio_wings=True, four_with_two=False, chain_from_bomb_rank=False,
                              bomb_answers_rocket=True)


def _compare(situations, rules):
    t = table(rules)
    diffs = []
    n = 0
    for hand, top, peer in situations:
        n += 1
        ours = our_legal(t, hand, top)
        if ours != peer:
            diffs.append((hand, top, sorted(ours - peer)[:5], sorted(peer - ours)[:5]))
    return n, diffs


def test_rlcard_legal_plays_equal_on_10000_situations():
    n, diffs = _compare(rlcard_situations(10_000, seed=1), KickerRules())
    assert n == 10_000
    assert diffs == []


def test_openspiel_legal_plays_equal_on_10000_situations():
    n, diffs = _compare(openspiel_situations(10_000, seed=1), OPENSPIEL_RULES)
    assert n == 10_000
    assert diffs == []


def test_openspiel_differs_under_the_rule_files_options():
    """The documented differences are real: with the rule file's options the sets differ."""
    _, diffs = _compare(openspiel_situations(3_000, seed=2), KickerRules())
    assert diffs


def _norm_os(text: str) -> str:
    if text == "Pass":
        return "pass"
    if text.startswith("Bid "):
        return text.lower()
    return norm(text.replace("(BWJ)", "L").replace("(CJ)", "B").replace("-", ""))


def _norm_ours(action) -> str:
    return action.ranks if hasattr(action, "ranks") else str(action)


def test_openspiel_games_mirrored_with_equal_returns():
    game = pyspiel.load_game("dou_dizhu")
    ours_game = qipai.load("doudizhu", preset="openspiel")
    rng = random.Random(7)
    for _ in range(60):
        st = game.new_initial_state()
        while st.is_chance_node():
            st.apply_action(rng.choice([a for a, _ in st.chance_outcomes()]))
        history = st.history()
        face_pos = history[0]
        dealt = [_os_card(st.action_to_string(-1, a)[5:]) for a in history[1:]]
        kitty = [c for c in qipai.cards.make_deck() if c not in dealt]
        deal = {"hands": [[c.id for c in dealt[s::3]] for s in range(3)], "kitty": [c.id for c in kitty],
                "face_up": dealt[face_pos].id}
        ours = ours_game.new_state(deal=deal)
        while not st.is_terminal():
            p = st.current_player()
            assert ours.current_player == p
            peer = {_norm_os(st.action_to_string(p, a)) for a in st.legal_actions()}
            assert {_norm_ours(a) for a in ours.legal_actions()} == peer
            a = rng.choice(st.legal_actions())
            ours.apply(_os_action(ours_game, ours, st.action_to_string(p, a)))
            st.apply_action(a)
        assert ours.is_terminal()
        assert ours.returns() == [int(r) for r in st.returns()]
