"""Xiangqi's level 3 (qipai/bots/xiangqi.py, XiangqiSearcher): the places of the pieces in the
search's value and move order, and positions it must not get wrong (a hanging piece, a mate in
one against it)."""

from __future__ import annotations

import qipai
from qipai.bots import make_bot
from qipai.bots.search import searcher_for
from qipai.bots.xiangqi import PLACE, material
from qipai.games.xiangqi.fen import parse_fen

GAME = qipai.load("xiangqi")


def _board(fen: str) -> list[int]:
    return list(parse_fen(fen).board)


def test_the_value_is_even_at_the_start_and_mirrors_between_the_sides():
    start = GAME.new_state()
    assert abs(material(start.board)) < 1e-9
    # the same set-up for each side, Red's seen from the other side of the board
    red = "4k4/9/9/9/9/9/2P6/4C4/9/RN2K4 w - - 0 1"
    black = "rn2k4/9/4c4/2p6/9/9/9/9/9/4K4 w - - 0 1"
    assert abs(material(_board(red)) + material(_board(black))) < 1e-9
    for kind in range(1, 8):                      # a Black piece is worth minus the Red one
        for sq in range(90):                      # on the point mirrored between the sides
            assert PLACE[kind | 8][(9 - sq // 9) * 9 + sq % 9] == -PLACE[kind][sq]


def test_the_value_keeps_the_king_home_and_likes_developed_pieces():
    home = material(_board("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"))
    up = material(_board("3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1"))
    assert up < home
    # a horse on its first point is worth less than the same horse developed to c2
    first = material(_board("3k5/9/9/9/9/9/9/9/9/1N2K4 w - - 0 1"))
    developed = material(_board("3k5/9/9/9/9/9/9/2N6/9/4K4 w - - 0 1"))
    assert developed > first
    # a pawn across the river counts about twice one at home
    home_pawn = material(_board("4k4/9/9/9/9/9/4P4/9/9/3K5 w - - 0 1"))
    crossed = material(_board("4k4/9/9/4P4/9/9/9/9/9/3K5 w - - 0 1"))
    assert crossed - home_pawn > 0.9


def test_opening_candidates_develop_before_the_king_advisors_and_elephants_move():
    state = GAME.new_state()
    moves = searcher_for("xiangqi").candidates(state, 0)
    movers = {state.piece_at(m.from_sq) for m in moves}
    assert movers <= {"R", "N", "C"}, movers
    for seed in range(3):
        m = make_bot("xiangqi", "mcts3", seed=seed).choose(state, 0)
        assert state.piece_at(m.from_sq) in ("R", "N", "C")


def test_black_candidates_are_ordered_as_reds_mirrored():
    red = GAME.new_state()
    red.apply(GAME.parse_action("b2e2"))          # a central cannon: now Black develops too
    moves = searcher_for("xiangqi").candidates(red, 1)
    assert {red.piece_at(m.from_sq) for m in moves} <= {"r", "n", "c"}


def test_level_3_does_not_leave_a_rook_hanging():
    # the red rook on c5 is attacked by the black horse on b7 and defended by nothing
    state = GAME.new_state(position="3k5/9/1n7/9/2R6/9/9/9/4A4/3AK4 w - - 0 1")
    for seed in range(3):
        m = make_bot("xiangqi", "mcts3", seed=seed).choose(state, 0)
        after = state.clone()
        after.apply(m)
        assert all(after.piece_at(r.to_sq) != "R" for r in after.legal_moves()), m


#: Red to move; 26 of its 32 moves let Black mate at once (found by play between greedy bots)
MATE_THREAT = "2ba1kb2/4a4/n5C2/2p6/r3c2P1/2P3P2/9/4B4/3K5/2B2A1NR w - - 6 20"


def test_level_3_stops_a_mate_in_one():
    state = GAME.new_state(position=MATE_THREAT)
    moves = state.legal_moves()
    losing = [m for m in moves if any(_mates(_after(state, m), r) for r in _after(state, m).legal_moves())]
    assert len(moves) == 32 and len(losing) == 26
    for seed in range(3):
        m = make_bot("xiangqi", "mcts3", seed=seed).choose(state, 0)
        assert m not in losing, m


def _after(state, move):
    child = state.clone()
    child.apply(move)
    return child


def _mates(state, move) -> bool:
    child = _after(state, move)
    return child.is_terminal() and state.turn in child.result.winners
