"""The look-ups and short cuts that make shengji's search bot fast give what the general rules
code gives: face keys by table, a lone single's or pair's contender key, the follow check of a
holding worked out once, and a searcher's plays applied without checking them again."""

from __future__ import annotations

import random

import pytest

import qipai
from qipai.bots import make_bot
from qipai.games.shengji import combos as cb
from qipai.games.shengji.actions import canonical_key, canonical_order
from qipai.games.shengji.trump import FACE_POINTS, FACES, SUITS, Trump, face_points, trump_of


def test_face_tables_equal_their_functions() -> None:
    for f in FACES:
        assert canonical_key(f) == canonical_order(f) and FACE_POINTS[f] == face_points(f)
    assert canonical_key("ASx") == canonical_order("ASx")     # not a face: computed as before
    with pytest.raises(KeyError):
        canonical_key("ZZ")
    for two in (False, True):
        for suit in (*SUITS, None):
            trump = Trump(7, suit, two)
            assert trump.sort_keys == {f: trump.sort_key(f) for f in FACES}


def test_trump_of_is_made_once_and_equals_a_new_trump() -> None:
    for two in (False, True):
        for level in (2, 9, 14):
            for suit in (*SUITS, None):
                shared, new = trump_of(level, suit, two), Trump(level, suit, two)
                assert trump_of(level, suit, two) is shared
                for name in ("eff", "pos", "sort_keys", "spec"):
                    assert getattr(shared, name) == getattr(new, name)
    with pytest.raises(ValueError):
        trump_of(15, "S")


def _split_key(play, pos, fmt, rule):
    """The contender key from the general split (``best_splits``)."""
    splits = cb.best_splits(play, pos, fmt)
    if splits is None:
        return None
    return (max(t[0] for t in splits),) if rule == "key" else tuple(max(splits))


def test_a_lone_single_or_pair_key_equals_the_general_split() -> None:
    rng = random.Random(4)
    for _ in range(3000):
        trump = Trump(rng.randint(2, 14), rng.choice([*SUITS, None]), rng.random() < 0.5)
        fmt = [rng.choice([("single", 1), ("pair", 1)])]
        play = {f: rng.randint(0, 3) for f in rng.sample(FACES, rng.randint(1, 4))}
        if not any(play.values()):
            continue
        for rule in ("key", "all"):
            assert cb.contender_key(play, trump.pos, fmt, rule) == _split_key(play, trump.pos, fmt, rule)


def test_follow_checker_is_the_follow_rule() -> None:
    """``follow_checker(he)(play)``: the same tractor coverage as ``he`` and its pairs, up to
    the format's (§3.7), for random holdings and tractor leads."""
    rng = random.Random(5)
    trump = Trump(2, "S")
    hearts = [f for f in FACES if trump.eff[f] == "H"]
    for _ in range(500):
        he = {f: rng.randint(1, 2) for f in rng.sample(hearts, rng.randint(3, 8))}
        fmt = rng.choice([[("pair", 1)], [("tractor", 2)], [("tractor", 2), ("pair", 1)],
                          [("pair", 1), ("pair", 1), ("single", 1)]])
        n = sum(cb.shape_size(s) for s in fmt)
        if sum(he.values()) <= n:
            continue
        ok = cb.follow_checker(he, trump.pos, fmt)
        lengths = tuple(length for kind, length in fmt if kind == "tractor")
        pf = cb.pairs_in_format(fmt)
        flat = [f for f, c in he.items() for _ in range(c)]
        for _ in range(10):
            play: dict[str, int] = {}
            for f in rng.sample(flat, n):
                play[f] = play.get(f, 0) + 1
            cover = cb.tractor_coverage
            rule = (cover(play, trump.pos, lengths) == cover(he, trump.pos, lengths)
                    and min(cb.pair_count(play), pf) == min(cb.pair_count(he), pf))
            assert ok(play) == rule == cb.follow_ok_suited(play, he, trump.pos, fmt)


def _snapshot(state) -> tuple:
    return (list(state.log), state.tricks, state.trick, state.trick_points, state.penalty,
            state.failed_throws, state.captured, state.played, [dict(h) for h in state.hands],
            [sorted(c.id for cards in state.cards[s].values() for c in cards) for s in range(4)],
            state.result and (state.result.winners, state.result.details), state.turn,
            state.win_seat, state.win_key, state.lead_fmt)


@pytest.mark.parametrize("profile", ["seed000", "one_deck"])
def test_apply_legal_changes_the_state_as_apply_does(profile) -> None:
    """A search applies its tree's and playouts' plays with ``apply_legal`` (taken from the
    legal set, not checked again): over hands of random and rule-bot plays, failed throws
    included, both give the same state at every step."""
    game = qipai.load("shengji", profile=profile)
    rng = random.Random(6)
    throws = 0
    for seed in range(25):
        a, b = game.new_state(seed=seed), game.new_state(seed=seed)
        rule = make_bot("shengji", "rule", seed=seed)
        while not a.is_terminal():
            seat = a.to_act[0]
            acts = a.legal_actions(seat)
            play = a.phase == "play" and rng.random() < 0.5
            action = acts[rng.randrange(len(acts))] if play else rule.choose(a, seat)
            a.apply(action, seat)
            b.apply_legal(action, seat)
            assert _snapshot(a) == _snapshot(b)
        throws += len(a.failed_throws)
    assert throws > 0


def test_the_searcher_applies_without_checking_again() -> None:
    """Shengji's searcher applies a tree move or playout play by ``apply_legal``."""
    from qipai.bots.shengji import SEARCHER

    state = qipai.load("shengji").new_state(seed=1)
    seen = []
    state.apply_legal = lambda action, seat: seen.append((action, seat))
    SEARCHER.apply(state, "x", 2)
    assert seen == [("x", 2)]
