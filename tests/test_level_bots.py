"""Levels 3-5 of the games searched by the shared policy / determinized MCTS
(qipai/bots/ismcts.py): the bots play only legal actions over random deals, a hidden-card
game's decision depends on the seat's view alone (a twin state with other hidden cards and the
same view gives the same job, samples and move), a determinization agrees with the view, a
live search keeps to its time, level 3 beats random, and the levels are offered by the lobby
and ``qipai play``."""

from __future__ import annotations

import random
import time

import pytest

import qipai
from qipai.bots import bot_levels, make_bot
from qipai.bots.mcts import Budget
from qipai.bots.search import SearchBot, searcher_for

from . import level_helpers
from .server_helpers import client, post, signup

#: game -> options of the games measured here
HIDDEN = {"wakeng": {}, "fouafour": {}, "sandayi": {}, "mahjong-gb": {}, "laizi-mahjong": {},
          "baibian-bajue": {}}
PERFECT = {"chinese-checkers": {}}
TILES = ("mahjong-gb", "laizi-mahjong", "baibian-bajue")
SMALL = Budget(10)


def held(state, seat: int) -> tuple:
    """What ``seat`` holds hidden: its cards (ids, sorted) or its concealed tile counts."""
    if state.game.id in TILES:
        return tuple(state.hands[seat])
    return tuple(sorted(map(str, state.hand(seat) if hasattr(state, "hand") else state.hands[seat])))


def twin(real, me: int, rng: random.Random):
    """Another full state with the same view for ``me`` and other hidden cards or tiles: a
    determinization of the view (for mahjong written into a fresh match of the same options)."""
    view = real.view(me)
    searcher = searcher_for(real.game.id)
    if real.game.id in TILES:             # a turn or a claim window
        return searcher.write(real.game.new_state(seed=99), view, rng)
    return searcher.determinize(real.game, view, rng)


def same_view(a: dict, b: dict) -> bool:
    """Equal views, but for what a one-hand determinization of a match cannot copy (the hand's
    number in the match, earlier hands' results)."""
    drop = ("hands_per_match", "hand", "results")
    return {k: v for k, v in a.items() if k not in drop} == {k: v for k, v in b.items() if k not in drop}


def small_bot(game_id: str, seed: int) -> SearchBot:
    """A search bot of ``game_id`` with a tiny playout budget (tests stay fast)."""
    bot = make_bot(game_id, "mcts3", seed=seed)
    bot.budget = SMALL
    return bot


def play_to_search(game_id: str, seed: int, plies: int) -> tuple[object, int]:
    """:func:`tests.level_helpers.play_to_search` in ``game_id`` with the options measured here."""
    return level_helpers.play_to_search(qipai.load(game_id, **{**HIDDEN, **PERFECT}[game_id]), seed, plies)


@pytest.mark.parametrize("game_id", [*HIDDEN, *PERFECT])
def test_level_bot_plays_only_legal_actions_over_random_deals(game_id):
    game = qipai.load(game_id, **{**HIDDEN, **PERFECT}[game_id])
    t0 = time.monotonic()
    for seed in range(1 if game_id in TILES else 2):
        state = game.new_state(seed=100 + seed)
        bots = [small_bot(game_id, seed * 10 + s) for s in range(state.num_seats)]
        bots[1] = make_bot(game_id, "random", seed=seed)
        plies = 0
        while not state.is_terminal() and plies < 24:
            seat = state.to_act[0]
            action = bots[seat].choose(state, seat)
            assert action in state.legal_actions(seat)
            state.apply(action, seat)
            plies += 1
    assert time.monotonic() - t0 < 60


@pytest.mark.parametrize("game_id", list(HIDDEN))
def test_decision_depends_only_on_the_seats_view(game_id):
    """A twin of the real state with the other seats' cards sampled anew (a determinization of
    the seat's view) shows the seat the same view; the search is given the same job and draws
    the same samples from it, and chooses the same move."""
    differ, n = 0, 3 if game_id in TILES else 4
    for seed in range(n):
        real, me = play_to_search(game_id, seed, plies=3 + seed)
        other = twin(real, me, random.Random(seed))
        differ += level_helpers.check_twin(real, other, me, held, SMALL)
    assert differ >= n - 1                                 # the twins really hide other cards


@pytest.mark.parametrize("game_id", list(HIDDEN))
def test_determinizations_agree_with_the_view_and_vary(game_id):
    real, me = play_to_search(game_id, 5, plies=6)
    assert level_helpers.sampled(real, me, held, 15, same_view) >= 12


@pytest.mark.parametrize("game_id", [*HIDDEN, *PERFECT])
def test_live_search_keeps_to_its_time(game_id):
    level_helpers.check_live_search_time(*play_to_search(game_id, 3, plies=2))


def claim_window(game_id: str, seed: int, skip: int = 0) -> tuple[object, int]:
    """A claim window of a hand of ``game_id`` (rule bots playing) where a seat has more than
    the pass, and that seat: the ``skip``-th such (window, seat) of the hand."""
    state = qipai.load(game_id, **HIDDEN[game_id]).new_state(seed=seed)
    rule = make_bot(game_id, bot_levels(game_id)[2], seed=seed)
    found = 0
    while not state.is_terminal():
        if state.phase != "turn":
            for seat in state.to_act:
                if len(state.legal_actions(seat)) > 1:
                    if found == skip:
                        return state, seat
                    found += 1
        seat = state.to_act[0]
        state.apply(rule.choose(state, seat), seat)
    raise AssertionError("the hand ended before the claim window")


@pytest.mark.parametrize("game_id", TILES)
def test_claim_windows_are_searched_from_the_seats_view(game_id):
    """An answer to a discard with a set or a win to claim is the search's (levels 3-5), not
    the rule bot's: its job is the seat's view alone, a determinization is the same window
    (the same legal answers for the seat), and a twin with the other hands sampled anew gives
    the same samples and the same answer."""
    differ = 0
    for seed in range(3):
        real, me = claim_window(game_id, seed, skip=seed)
        bot = small_bot(game_id, seed)
        job = bot.job(real, me)
        assert job is not None and job[3] == {"view": real.view(me)}
        roots = searcher_for(game_id).root_states(real.game, job[3])
        legal = sorted(map(str, real.legal_actions(me)))
        for k in range(4):
            d = roots(random.Random(k))
            assert d.phase == real.phase and me in d.to_act
            assert sorted(map(str, d.legal_actions(me))) == legal
        differ += level_helpers.check_twin(real, twin(real, me, random.Random(seed)), me, held, SMALL)
    assert differ >= 2


@pytest.mark.parametrize("game_id", TILES)
def test_claim_search_weighs_claiming_against_passing(game_id):
    """The search of a claim window plays out both the pass and the claims (every answer of
    the seat gets playouts) and answers with one of the seat's legal actions."""
    from qipai.bots.mcts import search

    real, me = claim_window(game_id, 1)
    searcher = searcher_for(game_id)
    roots = searcher.root_states(real.game, {"view": real.view(me)})
    result = search(searcher, roots, me, Budget(40), random.Random(1))
    legal = {str(a) for a in real.legal_actions(me)}
    assert result.action in legal and set(result.stats) == legal
    assert all(visits > 0 for visits, _ in result.stats.values())


@pytest.mark.parametrize("game_id", TILES)
def test_search_bots_answer_claim_windows_legally_in_play(game_id):
    """In a hand played on (rule bots on the turns), every seat's answer in a window with
    something to claim is a search bot's (a tiny budget) and legal, and the hand goes on."""
    state = qipai.load(game_id, **HIDDEN[game_id]).new_state(seed=21)
    rule = make_bot(game_id, bot_levels(game_id)[2], seed=21)
    bots = [small_bot(game_id, s) for s in range(4)]
    searched = 0
    while not state.is_terminal() and searched < 4:
        seat = state.to_act[0]
        bot = rule
        if state.phase != "turn" and bots[seat].job(state, seat) is not None:
            bot, searched = bots[seat], searched + 1
        action = bot.choose(state, seat)
        assert action in state.legal_actions(seat)
        state.apply(action, seat)
    assert searched == 4


@pytest.mark.parametrize("game_id", TILES)
def test_claim_search_keeps_to_its_time(game_id):
    level_helpers.check_live_search_time(*claim_window(game_id, 2))


@pytest.mark.parametrize("game_id", ["wakeng", "fouafour", "sandayi"])
def test_level_3_beats_random_in_card_games(game_id):
    """Duplicate deals: one seat searched (30 playouts, 三打一 10) against random seats, and the same
    deals with that seat random too; the searched seat wins clearly more. In 4A4 the seat's side
    wins only with its random partner (a random seat's side won 2 of 16 deals, the searched seat's
    8 of 16, the rule bot's 23 of 40), so it plays 12 deals and must win 5."""
    game = qipai.load(game_id, **HIDDEN[game_id])
    deals, need = (12, 5) if game_id == "fouafour" else (4, 3)
    won, base = 0, 0
    for i in range(deals):
        seats = game.seat_counts()[0]
        me = i % seats
        for searched in (True, False):
            bots = [make_bot(game_id, "random", seed=100 * i + s) for s in range(seats)]
            if searched:
                bots[me] = make_bot(game_id, "mcts3", seed=i)
                bots[me].budget = Budget(10 if game_id == "sandayi" else 30)
            state = game.new_state(seed=i)
            while not state.is_terminal():
                seat = state.to_act[0]
                state.apply(bots[seat].choose(state, seat), seat)
            if searched:
                won += me in state.result.winners
            else:
                base += me in state.result.winners
    assert won >= need and won > base, (won, base)


def test_level_3_beats_random_in_chinese_checkers():
    assert level_helpers.two_seat_games(qipai.load("chinese-checkers"), 2, 8) == [True, True]


def test_new_levels_are_offered_by_the_lobby_and_the_terminal(tmp_path):
    from typer.testing import CliRunner

    from qipai.cli import app

    for game_id in (*HIDDEN, *PERFECT):
        assert bot_levels(game_id) == {1: "random", 2: bot_levels(game_id)[2], 3: "mcts3", 4: "mcts4",
                                       5: "mcts5"}
    r = CliRunner().invoke(app, ["play", "chinese-checkers", "--level", "3", "--seed", "1", "--seat", "1"],
                           input="")
    assert r.exit_code == 0 and "Search, level 3" in r.output and "S plays" in r.output, r.output
    r = CliRunner().invoke(app, ["play", "wakeng", "--level", "4", "--seed", "1"], input="")
    assert r.exit_code == 0 and "your action>" in r.output, r.output
    with client(tmp_path, bot_delay_ms=0) as c:
        me = signup(c, "alice")
        levels = {g["id"]: g["levels"] for g in c.get("/api/games").json()}
        assert levels["wakeng"]["3"] == "mcts3" and levels["chinese-checkers"]["5"] == "mcts5"
        r = post(c, me, "/api/tables", {"game": "fouafour", "bots": 3, "level": 4})
        assert r.status_code == 201, r.text
        assert [s.get("bot") for s in r.json()["seats"]].count("mcts4") == 3
