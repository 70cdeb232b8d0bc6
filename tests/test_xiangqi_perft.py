"""Perft of the xiangqi move generator against published and Fairy-Stockfish counts."""

import pytest

import qipai
from qipai.games.xiangqi import START_FEN, divide, perft


@pytest.mark.parametrize("depth, nodes", [(1, 44), (2, 1920), (3, 79666)])
def test_start_position(depth, nodes):
    assert perft(START_FEN, depth) == nodes


def test_perft_of_a_state_equals_perft_of_its_fen():
    st = qipai.load("xiangqi").new_state()
    for mv in ("h2e2", "h9g7", "h0g2", "i9h9"):
        st.apply(mv)
    assert perft(st, 2) == perft(st.fen(), 2)
    assert sum(divide(st, 2).values()) == perft(st, 2)


def test_depth_zero_is_one():
    assert perft(START_FEN, 0) == 1
