"""Property tests for the xiangqi referee: random games, random input, JSON round trips."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import qipai
from qipai import IllegalAction
from qipai.games.xiangqi import Move, XiangqiState
from qipai.games.xiangqi.board import attacked, find_king, pseudo_moves

OPTIONS = st.fixed_dictionaries({
    "end_rule": st.sampled_from(["checkmate", "king_capture"]),
    "repetition_rule": st.sampled_from(["axf_simplified", "seed000_same_move", "draw_only", "none"]),
    "no_capture_plies": st.sampled_from([0, 20, 120]),
    "game_scoring": st.sampled_from(["standard", "seed003"]),
})
SQUARE = st.integers(0, 89)
ICCS = st.builds(lambda a, b, c, d: f"{a}{b}{c}{d}", st.sampled_from("abcdefghi"), st.integers(0, 9),
                 st.sampled_from("abcdefghi"), st.integers(0, 9))
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(options: dict, seed: int, plies: int) -> XiangqiState:
    rng = random.Random(seed)
    state = qipai.load("xiangqi", **options).new_state()
    while not state.is_terminal() and len(state.log) < plies:
        moves = state.legal_moves()
        assert moves, "a running game always has a legal move"
        state.apply(rng.choice(moves))
    return state


def snapshot(state: XiangqiState):
    return state.fen(), list(state.log), list(state.history), state.result


@FAST
@given(OPTIONS, st.integers(0, 10**6))
def test_random_games_never_crash_and_every_legal_move_applies(options, seed):
    state = random_game(options, seed, 160)
    if not state.is_terminal():
        for mv in state.legal_moves():
            child = state.clone()
            child.apply(mv)
            assert child.log[-1] == str(mv)
            assert child.board != state.board
    else:
        assert state.legal_moves() == [] and state.current_player is None
        assert state.result.reason in {"checkmate", "stalemate", "repetition_loss", "repetition_draw",
                                       "insufficient_material", "no_capture_limit", "king_captured"}


@FAST
@given(st.integers(0, 10**6), st.lists(ICCS, min_size=1, max_size=20))
def test_random_iccs_is_applied_only_when_legal(seed, texts):
    state = random_game({}, seed, 30)
    for text in texts:
        if state.is_terminal():
            break
        legal = {str(m) for m in state.legal_moves()}
        before = snapshot(state)
        if text in legal:
            state.apply(text)
            assert state.log[-1] == text
        else:
            try:
                state.apply(text)
            except IllegalAction as e:
                assert e.reason
            else:
                raise AssertionError(f"{text} was accepted in {before[0]}")
            assert snapshot(state) == before


@FAST
@given(st.integers(0, 10**6), SQUARE, SQUARE)
def test_a_move_is_legal_exactly_when_it_is_pseudo_legal_and_keeps_the_king_safe(seed, f, t):
    state = random_game({"repetition_rule": "none", "no_capture_plies": 0}, seed, 40)
    if state.is_terminal():
        return
    code = f << 7 | t
    pseudo = code in pseudo_moves(state.board, state.turn)
    legal = Move(f, t) in state.legal_moves()
    if legal:
        assert pseudo
    if pseudo:
        board = list(state.board)
        board[t], board[f] = board[f], 0
        safe = not attacked(board, find_king(board, state.turn), state.turn)
        assert legal == safe


@FAST
@given(OPTIONS, st.integers(0, 10**6), st.integers(0, 120), st.sampled_from([None, "resign", "draw"]))
def test_json_round_trip_equals(options, seed, plies, ending):
    state = random_game(options, seed, plies)
    if ending and not state.is_terminal():
        if ending == "resign":
            state.resign(state.turn)
        else:
            state.agree_draw()
    data = json.loads(json.dumps(state.to_json()))
    again = state.game.state_from_json(data)
    assert snapshot(again) == snapshot(state)
    assert again.view(0) == state.view(0)
