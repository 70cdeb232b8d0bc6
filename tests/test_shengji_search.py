"""Shengji's level-3 search (qipai.bots.shengji.ShengjiSearcher). Before, its playouts stopped
after 9 tricks and the rest of the hand was valued by a heuristic (points taken plus a third of
those still in the hands), so the kitty's bonus for the last trick, which decides many hands,
was never seen; its tree gave the other seats' turns up to 25 spread plays each; and 300
playouts spread over 25 candidates, each from another sample, could not tell two plays apart
(docs/bots.md, "Shengji's level 3 plays its hands out"). Now each candidate is played out to the
end of the hand by the rule bot in every seat and valued by the hand's score, the candidates
compared on the same samples by sequential halving (qipai.bots.ismcts.halving_search)."""

from __future__ import annotations

import random

import qipai
from qipai.bots import make_bot
from qipai.bots import shengji as sj
from qipai.bots.ismcts import halving_search
from qipai.bots.mcts import Budget
from qipai.games.shengji.actions import Action

from .level_helpers import play_to_search
from .shengji_helpers import position


def test_a_playout_plays_the_hand_to_its_end_and_is_valued_by_its_score():
    """From the first lead (25 cards a hand to go) a playout finishes the hand, kitty bonus and all,
    and its value is the hand's score (the attackers' total, logistic), not a cut-off guess."""
    game = qipai.load("shengji")
    state, me = play_to_search(game, 1, 0)
    assert not state.tricks and not state.trick
    roots = sj.SEARCHER.root_states(game, sj.SEARCHER.inputs(state, me))
    for k in range(4):
        root = roots(random.Random(k))
        values = sj.SEARCHER.playout(root, random.Random(k))
        assert root.is_terminal() and not any(root.hands) and sum(map(len, root.played)) == 100
        d = root.result.details
        assert d["attack_total"] == d["trick_points"] + d["kitty_bonus"] + d["penalty"]
        assert values == sj.SEARCHER.terminal_values(root) == sj._attack_values(root, d["attack_total"])


def test_the_search_keeps_its_big_joker_for_the_kitty_bonus():
    """The dealer, void in the led suit with the big joker and a low diamond left, holds 80
    points in the kitty: the rule bot takes the trick with the joker (the cheapest play that
    wins) and leaves the last trick, and the kitty doubled, to the attacker's higher diamond;
    played to the hand's end, the diamond is the better play: the joker takes the last trick.
    (The position is searched as it is: a sample needs a whole pack, this position holds 16
    cards.)"""
    state = position(["BJ 4D", "3C 6C", "7C 8C", "5H 9D"], 2, "S", dealer=0, leader=3,
                     buried="KS KS TS TS KC KC TC TC", trick_points=40)
    state.apply(Action("play", ("5H",)), 3)
    assert str(make_bot("shengji", "rule").choose(state, 0)) == "BJ"
    result = halving_search(sj.SEARCHER, lambda rng: state.clone(), 0, Budget(300), random.Random(1))
    assert result.action == "4D"
    # as the rule bot plays it the attackers take the kitty doubled: 40 + 160 points, up a level
    low, high = result.stats["4D"][1], result.stats["BJ"][1]
    assert high == sj._attack_values(state, 200)[0] < 0.01
    assert abs(low - sj._attack_values(state, 45)[0]) < 1e-9 and low > 0.8


def test_candidates_are_compared_on_the_same_samples_within_the_budget():
    game = qipai.load("shengji")
    state, me = play_to_search(game, 2, 5)
    roots = sj.SEARCHER.root_states(game, sj.SEARCHER.inputs(state, me))
    result = halving_search(sj.SEARCHER, roots, me, Budget(120), random.Random(3))
    cands = [str(a) for a in sj.SEARCHER.candidates(roots(random.Random(0)), me)]
    legal = {str(a) for a in state.legal_actions(me)}
    assert result.action in legal and set(result.stats) <= set(cands) <= legal
    assert result.playouts <= 120
    runs = sorted((n for n, _ in result.stats.values()), reverse=True)
    # the last round's two candidates were played out from the same samples, most of all
    assert runs[0] == runs[1] > runs[-1] >= 1 and result.stats[result.action][0] == runs[0]
    # a budget too small to play two candidates out: the rule bot's play
    tiny = halving_search(sj.SEARCHER, roots, me, Budget(1), random.Random(3))
    assert tiny.action == cands[0] == str(sj.SEARCHER.rule_play(state, me, state.legal_actions(me)))


def test_lead_candidates_are_every_single_pair_and_tractor_and_no_throw():
    game = qipai.load("shengji")
    state, me = play_to_search(game, 3, 0)
    assert not state.trick
    cands = sj.SEARCHER.candidates(state, me)
    rule = make_bot("shengji", "rule").choose(state, me)
    assert cands[0] == rule and len(set(cands)) == len(cands)
    hand = state.hands[me]
    singles = {a.faces[0] for a in cands if len(a.faces) == 1}
    assert singles == {f for f, c in hand.items() if c}
    assert {a.faces[0] for a in cands if len(a.faces) == 2} == {f for f, c in hand.items() if c >= 2}
    for a in cands:
        trial = sj.SEARCHER.copy(state)
        trial.apply(a, me)                             # legal, and never a failed throw
        assert not trial.failed_throws and len(trial.trick[0][1]) == len(a.faces)


def test_the_playouts_follow_to_a_single_card_as_the_rule_bot():
    """A playout's follow to a one-card lead is read from the hand (the distinct faces) without
    the legal set: the rule bot's choice, over rule-bot hands with some random plays, in each
    pack size."""
    checked = 0
    for options in ({}, {"profile": "one_deck"}, {"profile": "titanic"}):
        game = qipai.load("shengji", **options)
        for seed in range(3):
            state = game.new_state(seed=seed)
            rule = make_bot("shengji", "rule", seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                seat = state.to_act[0]
                action = rule.choose(state, seat)
                if state.phase == "play" and state.trick and not sj._short_follow(state, seat):
                    fast = sj._single_follow(state, seat)
                    if fast is not None:
                        assert fast == action
                        checked += 1
                if state.phase == "play" and rng.random() < 0.2:
                    action = rng.choice(state.legal_actions(seat))
                state.apply(action, seat)
    assert checked > 200


def test_a_playouts_copy_leaves_the_sample_as_it_was():
    game = qipai.load("shengji")
    for seed in (4, 5):
        state, me = play_to_search(game, seed, 3)
        before = (state.log[:], [dict(h) for h in state.hands], state.tricks[:], state.trick[:])
        fast, whole = sj.SEARCHER.copy(state), state.clone()
        assert sj.SEARCHER.playout(fast, random.Random(1)) == sj.SEARCHER.playout(whole, random.Random(1))
        assert fast.log == whole.log and fast.result.details == whole.result.details
        assert (state.log, [dict(h) for h in state.hands], state.tricks, state.trick) == before
        assert not state.is_terminal()


def test_the_time_limit_cuts_a_samples_playouts_short():
    """Titanic's first lead has some forty candidates, each played out to the end of the hand
    (39 tricks) from the first sample: together longer than a short limit (a seat near its
    deadline gets 50 ms). The limit is looked at between playouts too: with 1 ms the first
    candidate, the rule bot's play, is played out alone and chosen; before, all of them were."""
    game = qipai.load("shengji", profile="titanic")
    state, me = play_to_search(game, 1, 0)
    assert not state.tricks and not state.trick
    roots = sj.SEARCHER.root_states(game, sj.SEARCHER.inputs(state, me))
    cands = [str(a) for a in sj.SEARCHER.candidates(roots(random.Random(2)), me)]
    assert len(cands) > 20
    result = halving_search(sj.SEARCHER, roots, me, Budget(300, 1), random.Random(2))
    assert result.playouts == 1 and result.action == cands[0]
    assert result.action in {str(a) for a in state.legal_actions(me)}
    # a limit cut within a later sample leaves that sample out: every candidate in the last
    # race has been played out from the same samples
    for ms in (40, 150, 400):
        r = halving_search(sj.SEARCHER, roots, me, Budget(10**6, ms), random.Random(3))
        assert r.action in {str(a) for a in state.legal_actions(me)}
        played = sorted((n for n, _ in r.stats.values() if n), reverse=True)
        assert r.stats[r.action][0] == played[0]
        assert sum(n for n, _ in r.stats.values()) == r.playouts
