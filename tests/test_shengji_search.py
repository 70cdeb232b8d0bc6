"""Shengji's level-3 search (qipai.bots.shengji.ShengjiSearcher). Before, its playouts stopped
after 9 tricks and the rest of the hand was valued by a heuristic (points taken plus a third of
those still in the hands), so the kitty's bonus for the last trick, which decides many hands,
was never seen; its tree gave the other seats' turns up to 25 spread plays each; and 300
playouts spread over 25 candidates, each from another sample, could not tell two plays apart
(docs/bots.md, "Shengji's level 3 plays its hands out"). Now each candidate is played out to the
end of the hand by the rule bot in every seat and valued by the hand's score, the candidates
compared on the same samples by sequential halving (qipai.bots.ismcts.halving_search)."""

from __future__ import annotations

import copy
import random
from collections import Counter

import qipai
from qipai.bots import make_bot
from qipai.bots import shengji as sj
from qipai.bots.ismcts import halving_search, shown_better
from qipai.bots.mcts import Budget
from qipai.games.shengji.actions import Action
from qipai.games.shengji.trump import Trump

from .level_helpers import play_to_search
from .shengji_helpers import position


def test_a_playout_plays_the_hand_to_its_end_and_is_valued_by_its_score():
    """From the first lead (25 cards a hand to go) a playout finishes the hand, kitty bonus and all,
    and its value is the hand's score (the attackers' total, logistic), not a cut-off guess."""
    game = qipai.load("shengji")
    state, me = play_to_search(game, 1, 1)
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
    state, me = play_to_search(game, 2, 6)
    roots = sj.SEARCHER.root_states(game, sj.SEARCHER.inputs(state, me))
    race = copy.copy(sj.SEARCHER)
    race.duel = None                  # the race alone (the duel is tested below)
    result = halving_search(race, roots, me, Budget(120), random.Random(3))
    cands = [str(a) for a in sj.SEARCHER.candidates(roots(random.Random(0)), me)]
    legal = {str(a) for a in state.legal_actions(me)}
    assert result.action in legal and set(result.stats) <= set(cands) <= legal
    assert result.playouts <= 120
    runs = sorted((n for n, _ in result.stats.values()), reverse=True)
    # the last round's two candidates were played out from the same samples, most of all
    assert runs[0] == runs[1] > runs[-1] >= 1 and result.stats[result.action][0] == runs[0]
    # a budget too small to play two candidates out: the rule bot's play
    tiny = halving_search(sj.SEARCHER, roots, me, Budget(1), random.Random(3))
    assert tiny.playouts == 0
    assert tiny.action == cands[0] == str(sj.SEARCHER.rule_play(state, me, state.legal_actions(me)))


def test_lead_candidates_are_every_single_pair_and_tractor_and_no_throw():
    game = qipai.load("shengji")
    state, me = play_to_search(game, 3, 1)
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
        state, me = play_to_search(game, seed, 4)
        before = (state.log[:], [dict(h) for h in state.hands], state.tricks[:], state.trick[:])
        fast, whole = sj.SEARCHER.copy(state), state.clone()
        assert sj.SEARCHER.playout(fast, random.Random(1)) == sj.SEARCHER.playout(whole, random.Random(1))
        assert fast.log == whole.log and fast.result.details == whole.result.details
        assert (state.log, [dict(h) for h in state.hands], state.tricks, state.trick) == before
        assert not state.is_terminal()


def test_the_time_limit_cuts_a_samples_playouts_short():
    """Titanic's first lead has some forty candidates, each played out to the end of the hand
    (39 tricks) from the first sample: together longer than a short limit (a seat near its
    deadline gets 50 ms). The limit is looked at inside a playout too: with 1 ms the first
    candidate's playout, the rule bot's play, is cut and dropped, and that candidate is chosen
    unplayed; before, all of them were played out."""
    game = qipai.load("shengji", profile="titanic")
    state, me = play_to_search(game, 1, 1)
    assert not state.tricks and not state.trick
    roots = sj.SEARCHER.root_states(game, sj.SEARCHER.inputs(state, me))
    cands = [str(a) for a in sj.SEARCHER.candidates(roots(random.Random(2)), me)]
    assert len(cands) > 20
    result = halving_search(sj.SEARCHER, roots, me, Budget(300, 1), random.Random(2))
    assert result.playouts == 0 and result.action == cands[0]
    assert result.action in {str(a) for a in state.legal_actions(me)}
    # a limit cut within a later sample leaves that sample out: every candidate in the last
    # race has been played out from the same samples
    for ms in (40, 150, 400):
        r = halving_search(sj.SEARCHER, roots, me, Budget(10**6, ms), random.Random(3))
        assert r.action in {str(a) for a in state.legal_actions(me)}
        played = sorted((n for n, _ in r.stats.values() if n), reverse=True)
        if played:
            assert r.stats[r.action][0] == played[0]
        else:   # no playout of a whole hand fitted in the limit: the rule bot's play, unplayed
            assert r.action == cands[0]
        assert sum(n for n, _ in r.stats.values()) == r.playouts


class _Noise:
    """A searcher over three plays whose values on a sample are ``base[play]`` plus noise of the
    sample shared by the plays and noise of each play's own (the first play is the rule bot's)."""

    def __init__(self, base: dict[str, float], duel) -> None:
        self.base, self.duel = base, duel

    def candidates(self, state, seat):
        return list(self.base)

    def copy(self, state):
        return _Sample(state)

    def apply(self, state, action, seat):
        state["play"] = action

    def terminal_values(self, state):
        return [state["common"] + self.base[state["play"]] + state[state["play"]]]


class _Sample(dict):
    def is_terminal(self):
        return True


def _noise_roots(rng):
    return _Sample(common=rng.uniform(0, 0.5), a=rng.gauss(0, 0.05), b=rng.gauss(0, 0.05),
                   c=rng.gauss(0, 0.05))


def _noise_search(base, duel, seed):
    return halving_search(_Noise(base, duel), _noise_roots, 0, Budget(300), random.Random(seed))


def test_the_rule_bots_play_is_kept_when_the_candidates_tie():
    """Three plays of the same value: the race alone picks another than the rule bot's (the
    first) in about two searches of three, by the luck of its samples; with the duel the rule
    bot's play is kept unless the race's winner beats it on fresh samples by 1.5 standard
    errors (about one search in fifteen)."""
    tie = {"a": 0.3, "b": 0.3, "c": 0.3}
    plain = [_noise_search(tie, None, seed).action for seed in range(60)]
    kept = [_noise_search(tie, (0.4, 1.5), seed) for seed in range(60)]
    assert plain.count("a") < 30
    assert sum(r.action == "a" for r in kept) >= 52
    # the playouts are the budget's: the race's 180 and the duel's 120 (or the race alone)
    assert {r.playouts for r in kept} <= {180, 300}
    assert all(sum(n for n, _ in r.stats.values()) == r.playouts for r in kept)


def test_a_clearly_better_play_wins_the_duel():
    better = {"a": 0.3, "b": 0.36, "c": 0.3}
    assert all(_noise_search(better, (0.4, 1.5), seed).action == "b" for seed in range(20))


def test_shown_better_is_a_paired_test_of_the_mean():
    assert not shown_better([], 1.5) and not shown_better([0.1], 1.5)
    assert shown_better([0.01] * 5, 1.5)                    # alike and above zero
    assert not shown_better([0.0] * 5, 1.5) and not shown_better([-0.01] * 5, 1.5)
    assert not shown_better([0.1, -0.1, 0.1, -0.1, 0.01], 1.5)
    assert shown_better([0.1, 0.0, 0.1, 0.0, 0.1, 0.0, 0.1, 0.0], 1.5)
    assert not shown_better([1.0] + [0.0] * 30, 1.5)        # one sample's luck


def test_the_search_plays_the_rule_bots_play_unless_shown_better():
    """In a real hand: whenever the search leaves the rule bot's play, the race's winner beat
    it in the duel, so both were played out from the duel's 60 samples besides the race's."""
    game = qipai.load("shengji")
    for seed, plies in ((6, 2), (7, 5), (8, 9)):
        state, me = play_to_search(game, seed, plies)
        roots = sj.SEARCHER.root_states(game, sj.SEARCHER.inputs(state, me))
        rule = str(sj.SEARCHER.candidates(roots(random.Random(0)), me)[0])
        r = halving_search(sj.SEARCHER, roots, me, Budget(300), random.Random(seed))
        assert r.action in {str(a) for a in state.legal_actions(me)}
        if r.action != rule:
            assert r.playouts > 180 and min(r.stats[rule][0], r.stats[r.action][0]) > 60


def test_the_dealers_bury_is_searched_among_legal_kitties():
    """The bury is searched (the kitty decides close hands): the candidates are the rule bot's
    bury first, then other kitties of the right size from the dealer's hand, a side suit buried
    whole among them when one is short enough; the search answers one of them."""
    game = qipai.load("shengji")
    voids = 0
    for seed in (1, 2, 3):
        state, me = play_to_search(game, seed, 0)
        assert state.phase == "bury" and me == state.dealer
        hand = Counter(state.hand_faces(me))
        cands = sj.bury_candidates(state, me)
        assert cands[0] == make_bot("shengji", "rule").choose(state, me)
        assert len(cands) >= 3 and len({a.faces for a in cands}) == len(cands)
        for a in cands:
            assert a.kind == "bury" and len(a.faces) == state.kitty_size
            assert not Counter(a.faces) - hand
            left = hand - Counter(a.faces)
            voids += {state.trump.eff[f] for f in left} != {state.trump.eff[f] for f in hand}
        roots = sj.SEARCHER.root_states(game, sj.SEARCHER.inputs(state, me))
        result = halving_search(sj.SEARCHER, roots, me, Budget(60), random.Random(seed))
        chosen = next(a for a in cands if str(a) == result.action)
        state.apply(chosen, me)
        assert state.phase == "play" and len(state.buried) == state.kitty_size
    assert voids


def test_a_bury_sample_agrees_with_the_dealers_view():
    """At the bury the dealer knows its hand with the kitty; a sample deals the unseen cards
    into the three other hands, each with the cards it declared, and puts the dealer to bury."""
    game = qipai.load("shengji")
    state, me = play_to_search(game, 2, 0)
    view = state.view(me)
    declared = {d["seat"]: Counter(d["cards"]) for d in view["declarations"] if d["seat"] != me}
    others = set()
    for k in range(6):
        sample = sj.determinize(game, view, random.Random(k))
        assert sample.phase == "bury" and sample.to_act == (me,) and not sample.buried
        assert sample.hand_faces(me) == view["hand"]
        assert [sum(h.values()) for h in sample.hands] == view["counts"]
        for s, cards in declared.items():
            assert not cards - sample.hands[s]
        assert sample.view(me)["hand"] == view["hand"]
        others.add(tuple(sample.hand_faces((me + 1) % 4)))
    assert len(others) == 6


def test_unbury_puts_a_position_back_to_its_bury():
    state = position(["BJ 4D", "3C 6C", "7C 8C", "5H 9D"], 2, "S", dealer=1, leader=1,
                     buried="KS KS TS TS KC KC TC TC")
    state.unbury()
    assert state.phase == "bury" and state.to_act == (1,) and not state.buried
    assert sorted(state.hand_faces(1)) == sorted("3C 6C KS KS TS TS KC KC TC TC".split())
    trial = state.play_copy()
    kitty = ("3C", "6C", "KS", "KS", "TS", "TS", "KC", "KC")
    trial.apply(Action("bury", kitty), 1)
    assert not state.buried and state.phase == "bury" and sum(state.hands[1].values()) == 10
    assert trial.phase == "play" and sorted(c.face for c in trial.buried) == sorted(kitty)
    assert sorted(trial.hand_faces(1)) == ["TC", "TC"]


def test_a_search_bot_answers_the_bury_without_listing_every_kitty():
    """The dealer's legal set at the bury is every kitty of its hand (millions with two decks):
    the search bot finds the kitty the search chose without listing them, in play and live."""
    import asyncio
    import time

    from qipai.bots import search

    game = qipai.load("shengji")
    state, me = play_to_search(game, 102, 0)
    assert state.phase == "bury" and len(state.legal_actions(me)) > 10**6
    bot = make_bot("shengji", "mcts3", seed=1)
    bot.budget = Budget(8, bot.budget.ms)
    t0 = time.thread_time()
    action = bot.choose(state, me)
    assert time.thread_time() - t0 < 1.0
    hand = Counter(state.hand_faces(me))
    assert action.kind == "bury" and len(action.faces) == state.kitty_size and not action.counts - hand
    try:
        t0 = time.thread_time()
        live = asyncio.run(bot.choose_async(state, me, 60_000))
        assert time.thread_time() - t0 < 1.0
        assert live.kind == "bury" and len(live.faces) == state.kitty_size and not live.counts - hand
    finally:
        search.close_pool()
    trial = state.clone()
    trial.apply(action, me)
    assert trial.phase == "play"


def _rule_hand_views(game, seeds, every=1, bots=None):
    """(state, seat to act) at every ``every``-th play turn of hands played by ``bots`` (the rule
    bot in each seat by default), seeds ``seeds``."""
    for seed in seeds:
        state = game.new_state(seed=seed)
        players = bots(seed) if bots else [make_bot("shengji", "rule", s) for s in range(4)]
        turn = 0
        while not state.is_terminal():
            seat = state.to_act[0]
            if state.phase == "play":
                if turn % every == 0:
                    yield state, seat
                turn += 1
            state.apply(players[seat].choose(state, seat), seat)


def test_the_rule_bots_follows_to_single_cards_bar_what_it_did_not_hold():
    """Against rule bots a follow to a one-card lead shows cards the seat did not hold (it would
    have played one of them): over ten rule-bot hands, at every play turn no other seat holds
    a card that :func:`_rule_follows` bars, and it bars some a seat (about a dozen faces, where
    the voids alone bar a suit only when a seat has shown none)."""
    game = qipai.load("shengji")
    barred = checks = 0
    for state, me in _rule_hand_views(game, range(20, 30)):
        v = state.view(me)
        tricks = [t["plays"] for t in v["tricks"]] + ([v["trick"]] if v["trick"] else [])
        out = sj._rule_follows(tricks, state.trump, me, 4)
        assert not out[me]                      # the seat's own follows show it nothing
        for s in range(4):
            if s != me:
                held = {f for f, c in state.hands[s].items() if c}
                assert not held & out[s], (s, held & out[s])
                barred += len(out[s])
                checks += 1
    assert barred / checks > 5


def test_a_sample_holds_no_card_the_rule_bots_follows_bar():
    """:func:`determinize` deals no seat a card its follows to one-card leads bar (and the seat's
    own hand is its own); with ``infer=False`` such deals come."""
    game = qipai.load("shengji")
    rng = random.Random(3)
    seen_plain = 0
    for state, me in _rule_hand_views(game, range(40, 43), every=7):
        v = state.view(me)
        tricks = [t["plays"] for t in v["tricks"]] + ([v["trick"]] if v["trick"] else [])
        out = sj._rule_follows(tricks, state.trump, me, 4)
        for _ in range(3):
            sample = sj.determinize(game, v, rng)
            assert Counter(sample.hand_faces(me)) == Counter(v["hand"])
            for s in range(4):
                if s != me:
                    assert not {f for f, c in sample.hands[s].items() if c} & out[s]
            plain = sj.determinize(game, v, rng, infer=False)
            seen_plain += any({f for f, c in plain.hands[s].items() if c} & out[s]
                              for s in range(4) if s != me)
    assert seen_plain


def test_a_sample_is_drawn_when_the_seats_do_not_play_as_the_rule_bot():
    """Seats that play at random (a person may too) contradict the rule bot's reading of their
    follows: the sampler drops that reading rather than finding no deal."""
    game = qipai.load("shengji")
    rng = random.Random(5)
    searcher = sj.SEARCHER
    contradicted = 0
    for state, me in _rule_hand_views(game, range(50, 53), every=9,
                                      bots=lambda seed: [make_bot("shengji", "random", seed * 4 + s)
                                                         for s in range(4)]):
        v = state.view(me)
        tricks = [t["plays"] for t in v["tricks"]] + ([v["trick"]] if v["trick"] else [])
        out = sj._rule_follows(tricks, state.trump, me, 4)
        contradicted += any({f for f, c in state.hands[s].items() if c} & out[s] for s in range(4))
        roots = searcher.root_states(game, searcher.inputs(state, me))
        sample = roots(rng)
        assert Counter(sample.hand_faces(me)) == Counter(state.hand_faces(me))
    assert contradicted > 5


def test_the_margin_keeps_the_rule_bots_play_unless_beaten_in_the_race():
    """With ``margin`` set (and no duel) the search passes it to the race: the rule bot's play
    races to the end (it is played out from every sample of the race) and the budget is the
    race's alone."""
    game = qipai.load("shengji")
    state, me = play_to_search(game, 6, 2)
    searcher = copy.copy(sj.SEARCHER)
    searcher.duel, searcher.margin = None, 1.0
    roots = searcher.root_states(game, searcher.inputs(state, me))
    rule = str(searcher.candidates(roots(random.Random(0)), me)[0])
    r = searcher.search(roots, me, Budget(300), random.Random(6))
    runs = {t: n for t, (n, _) in r.stats.items()}
    assert runs[rule] == max(runs.values()) and r.playouts <= 300


def test_the_rule_bots_lead_shows_what_it_did_not_hold():
    """:func:`_rule_lead` reads the rule bot's lead: a trump lead means no side card, a side
    single no side pair and (below a king) no side king or ace and nothing lower, (a king or
    higher) nothing higher in its suit. Over 30 rule-bot hands the hand led from never holds
    what the reading bars, and the readings bar something."""
    game = qipai.load("shengji")
    read = 0
    for seed in range(60, 90):
        state = game.new_state(seed=seed)
        bots = [make_bot("shengji", "rule", s) for s in range(4)]
        while not state.is_terminal():
            seat = state.to_act[0]
            action = bots[seat].choose(state, seat)
            if state.phase == "play" and not state.trick:
                hand = {f: c for f, c in state.hands[seat].items() if c}
                reading = sj._rule_lead(action.faces, state.trump, 2)
                if reading is not None:
                    voids, no_pair, barred = reading
                    read += bool(voids or barred)
                    assert not set(hand) & barred
                    assert not any(state.trump.eff[f] in voids for f in hand)
                    assert not any(c >= 2 and state.trump.eff[f] in no_pair for f, c in hand.items())
            state.apply(action, seat)
    assert read > 100
    assert sj._rule_lead(("AS", "KS"), Trump(2, "H"), 2) is None          # a throw: not read
