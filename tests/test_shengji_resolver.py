"""Shengji's search bots look their answer up without listing the legal set
(ShengjiSearcher.resolver): the look-up is made outside the search's time limit, and in
SearchBot.choose_async on the server's event loop, before the job is sent to the pool. A
dictionary of the whole legal set cost 0.18 s of CPU in the first position below and 7-9 s in the
second, every table of the server waiting.

A follow to a long lead by a seat that cannot follow suit has a huge legal set: here (titanic,
three decks, a position reached by random seats and level-3 bots in a fuzz run, hand
seed 970401, ply 23) seat 0 holds one spade against a 6-card spade tractor, 27,669 legal
follows; a longer lead followed by a void seat has many more."""

from __future__ import annotations

import json
import pathlib
import time

import qipai
from qipai.bots import make_bot
from qipai.bots.search import searcher_for

DATA = json.loads((pathlib.Path(__file__).parent / "shengji_titanic_follow.json").read_text())


def _position():
    game = qipai.load("shengji", **DATA["options"])
    return game.state_from_json(DATA["record"]), DATA["seat"]


def test_the_position_has_a_huge_legal_set():
    state, seat = _position()
    assert state.phase == "play" and len(state.trick[0][1]) == 6
    assert len(state.legal_actions(seat)) > 20_000


def test_resolving_the_search_answer_does_not_list_the_legal_set():
    state, seat = _position()
    searcher = searcher_for("shengji")
    t0 = time.thread_time()
    lookup = searcher.resolver(state, seat)
    took = time.thread_time() - t0
    assert lookup is not None
    assert took < 0.02, took          # the work before the event loop's await, per decision


def test_a_decision_with_a_100_ms_limit_keeps_to_it():
    state, seat = _position()
    bot = make_bot("shengji", "mcts3", seed=1)
    bot.ms = 100
    bot.choose(state, seat)                       # imports and caches
    t0 = time.thread_time()
    action = bot.choose(state, seat)
    took = time.thread_time() - t0
    assert str(action) in {str(a) for a in state.legal_actions(seat)}
    assert took < 0.1 + 0.05, took


def _tractor_against_a_void():
    """Two decks, the first trick: seat 0 leads the tractor AS AS KS KS QS QS JS JS; seat 1 holds
    no spade (hearts and clubs): any 8 of its 25 cards follow, 1,081,575 legal follows."""
    from collections import Counter

    from .shengji_helpers import position

    pack = Counter({r + s: 2 for r in "AKQJT98765432" for s in "SHCD"})
    pack.update({"BJ": 2, "LJ": 2})

    def take(faces):
        pack.subtract(faces)
        assert min(pack.values()) >= 0
        return list(faces)

    h0 = take(["AS", "AS", "KS", "KS", "QS", "QS", "JS", "JS"])
    h1 = take([r + s for s in "HC" for r in "AKQJT9876543"] + ["2H"])
    rest = sorted(pack.elements())
    h2, h3 = take(rest[:25]), take(rest[25:50])
    h0 += take(rest[50:67])
    state = position([" ".join(h) for h in (h0, h1, h2, h3)], level=2, trump="D", dealer=0)
    state.apply("AS AS KS KS QS QS JS JS", 0)
    return state, 1


def test_resolving_a_follow_to_a_tractor_by_a_void_seat_is_quick():
    state, seat = _tractor_against_a_void()
    assert len(state.legal_actions(seat)) == 1_081_575
    t0 = time.thread_time()
    searcher_for("shengji").resolver(state, seat)
    took = time.thread_time() - t0
    assert took < 0.05, took


def test_the_look_up_answers_legal_texts_and_refuses_others():
    state, seat = _tractor_against_a_void()
    lookup = searcher_for("shengji").resolver(state, seat)
    legal = state.legal_actions(seat)
    for i in (0, 1, 500_000, len(legal) - 1):
        text = str(legal[i])
        assert str(lookup(text)) == text
    assert lookup("AS AS") is None                       # too few cards for the tractor
    assert lookup("AH AH KH KH QH QH JH XX") is None     # no such card
    assert lookup("AD AD KD KD QD QD JD JD") is None     # not in the hand
    before = state.to_json()
    lookup(str(legal[3]))
    assert state.to_json() == before                     # the look-up changes nothing


def test_the_bury_is_looked_up_without_listing_every_kitty():
    from collections import Counter

    from .level_helpers import play_to_search

    state, me = play_to_search(qipai.load("shengji"), 1, 0)
    assert state.phase == "bury" and me == state.dealer
    lookup = searcher_for("shengji").resolver(state, me)
    hand = state.hand_faces(me)
    kitty = "bury " + " ".join(hand[:state.kitty_size])
    found = lookup(kitty)
    assert found.kind == "bury" and Counter(found.faces) == Counter(hand[:state.kitty_size])
    assert lookup("bury " + " ".join(hand[:state.kitty_size - 1])) is None    # one card short
    missing = next(f for f in ("BJ", "LJ", "AS", "2H") if Counter(hand)[f] == 0)
    assert lookup("bury " + " ".join([*hand[:state.kitty_size - 1], missing])) is None
    assert lookup(" ".join(hand[:state.kitty_size])) is None             # a play, not a bury
