"""Shared steps of the level-bot tests (tests/test_level_bots*.py)."""

from __future__ import annotations

import random
import time

import qipai
from qipai.bots import bot_levels, make_bot
from qipai.bots.search import searcher_for, think


def play_to_search(game, seed: int, plies: int) -> tuple[object, int]:
    """A state of ``game`` (seed ``seed``) after the rule bots played ``plies`` more actions
    once a searched turn was reached, and the seat whose searched turn it is."""
    state = game.new_state(seed=seed)
    rule = make_bot(game.id, bot_levels(game.id)[2], seed=seed)
    searcher = searcher_for(game.id)
    done = 0
    while not state.is_terminal():
        seat = state.to_act[0]
        if searcher.searched(state, seat):
            if done >= plies:
                return state, seat
            done += 1
        state.apply(rule.choose(state, seat), seat)
    raise AssertionError("the game ended before the searched turn")


def check_live_search_time(state, me: int) -> None:
    """A live search of level 3 with a 300 ms limit answers a legal action within the limit
    (plus one playout at most)."""
    job = make_bot(state.game.id, "mcts3", seed=1).job(state, me)
    t0 = time.monotonic()
    text = think(*job, 10**6, 300, 1)
    took = time.monotonic() - t0
    assert text in {str(a) for a in state.legal_actions(me)}
    assert took < 0.3 + 1.5, took


def check_twin(real, other, me: int, held, budget) -> bool:
    """``other`` (a state with the same view for ``me``, other hidden cards or pieces) gives
    the search the same job, the same samples under the same seeds (``held(state, seat)``: what
    a seat hides) and the same move. Returns whether the twins differ in what others hide."""
    import random

    from qipai.bots.search import SearchBot

    game_id = real.game.id
    searcher = searcher_for(game_id)
    view = real.view(me)
    assert other.view(me) == view
    others = [s for s in range(real.num_seats) if s != me]
    a, b = (SearchBot(searcher, make_bot(game_id, bot_levels(game_id)[2]), budget, 7, 3) for _ in "ab")
    job_a, job_b = a.job(real, me), b.job(other, me)
    assert job_a == job_b and job_a[3] == {"view": view}
    roots_a = searcher.root_states(real.game, job_a[3])
    roots_b = searcher.root_states(other.game, job_b[3])
    for k in range(2):
        sa, sb = roots_a(random.Random(k)), roots_b(random.Random(k))
        assert [held(sa, s) for s in others] == [held(sb, s) for s in others]
    assert str(a.choose(real, me)) == str(b.choose(other, me))
    return any(held(real, s) != held(other, s) for s in others)


def sampled(real, me: int, held, n: int, same=lambda a, b: a == b) -> int:
    """Draw ``n`` root states from ``me``'s view; each must show ``me`` the same view
    (``same``); returns how many different things the next seat hides across them."""
    import random

    view = real.view(me)
    roots = searcher_for(real.game.id).root_states(real.game, {"view": view})
    seen = set()
    for k in range(n):
        d = roots(random.Random(k))
        assert same(d.view(me), view)
        seen.add(held(d, (me + 1) % real.num_seats))
    return len(seen)


def two_seat_games(game, games: int, playouts: int) -> list[bool]:
    """Level 3 (``playouts``) against random in ``games`` two-seat games of ``game``, seats
    alternating: for each game, whether level 3 alone won."""
    from qipai.bots.mcts import Budget

    out = []
    for i in range(games):
        me = i % 2
        bots = [make_bot(game.id, "random", seed=10 * i + s) for s in range(2)]
        bots[me] = make_bot(game.id, "mcts3", seed=i)
        bots[me].budget = Budget(playouts)
        state = game.new_state(seed=i)
        while not state.is_terminal():
            seat = state.to_act[0]
            state.apply(bots[seat].choose(state, seat), seat)
        out.append(state.result.winners == (me,))
    return out


def rule_positions(game, rule_bot, seeds, random_share: float):
    """Every decision of rule-bot games of ``game`` from ``seeds`` (a share ``random_share`` of
    the plays random), as (state, seat)."""
    bot, rng = rule_bot(0), random.Random(7)
    for seed in seeds:
        state = game.new_state(seed=seed)
        while not state.is_terminal():
            seat = state.to_act[0]
            yield state, seat
            legal = state.legal_actions(seat)
            state.apply(rng.choice(legal) if rng.random() < random_share else bot.choose(state, seat), seat)


def check_rule_playout(searcher, rule_bot, game_id: str, seed: int = 5):
    """A playout of ``searcher`` from a fresh deal is ``rule_bot`` in every seat to the end of
    the deal (the same result and value); returns the two final states (playout, reference)."""
    state = qipai.load(game_id).new_state(seed=seed)
    reference = state.clone()
    values = searcher.playout(state, random.Random(1))
    bot = rule_bot(0)
    while not reference.is_terminal():
        seat = reference.to_act[0]
        reference.apply(bot.choose(reference, seat), seat)
    assert state.is_terminal() and state.result.returns == reference.result.returns
    assert values == searcher.terminal_values(reference)
    return state, reference
