"""Perft of the xiangqi move generator against published and Fairy-Stockfish counts."""

import re

import pytest

import qipai
from qipai.games.xiangqi import START_FEN, divide, perft

# Middlegame positions and their perft counts to depth 3, computed with Fairy-Stockfish 0.0.90
# (pyffish.legal_moves, variant "xiangqi") by counting legal move sequences; the live test
# below re-checks depth 2 against pyffish whenever it is installed.
MIDDLEGAMES = [
    # central cannon against screen horses, after 16 plies
    ("1rbakabr1/9/c1n3nc1/pC2p1pRp/9/6P2/P1p1P3P/2N1C1N2/9/R1BAKAB2 w - - 6 9", (44, 1380, 59977)),
    # pieces on the horse legs, cannons aimed at the kings
    ("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", (38, 1128, 43929)),
    # red in check from a cannon through its own advisor
    ("3k5/4a4/4ba3/p3p3p/2b6/2B3R2/P3P1n1P/4c4/4A4/2BAK4 w - - 0 1", (6, 125, 2645)),
    # a seeded random game after 30 plies
    ("rn2kab2/2r1C4/b7n/4p3P/p1p3p2/9/P1P1P1P2/8B/2R1A2C1/1NBAK2R1 w - - 1 16", (39, 861, 35900)),
]


@pytest.mark.parametrize("depth, nodes", [(1, 44), (2, 1920), (3, 79666), (4, 3290240)])
def test_8_1_start_position(depth, nodes):
    assert perft(START_FEN, depth) == nodes


@pytest.mark.parametrize("fen, counts", MIDDLEGAMES)
def test_middlegames(fen, counts):
    for depth, nodes in enumerate(counts, 1):
        assert perft(fen, depth) == nodes


def _ffish_perft(pyffish, fen, moves, depth):
    legal = pyffish.legal_moves("xiangqi", fen, moves)
    if depth == 1:
        return len(legal)
    return sum(_ffish_perft(pyffish, fen, moves + [m], depth - 1) for m in legal)


@pytest.mark.parametrize("fen", [fen for fen, _ in MIDDLEGAMES])
def test_depth_two_matches_fairy_stockfish(fen):
    pyffish = pytest.importorskip("pyffish")
    assert perft(fen, 2) == _ffish_perft(pyffish, fen, [], 2)


def test_divide_matches_fairy_stockfish_move_by_move():
    pyffish = pytest.importorskip("pyffish")
    fen = MIDDLEGAMES[1][0]
    ours = divide(fen, 2)
    for uci in pyffish.legal_moves("xiangqi", fen, []):
        f1, r1, f2, r2 = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", uci).groups()
        iccs = f"{f1}{int(r1) - 1}{f2}{int(r2) - 1}"
        assert ours.pop(iccs) == len(pyffish.legal_moves("xiangqi", fen, [uci]))
    assert ours == {}


def test_perft_of_a_state_equals_perft_of_its_fen():
    st = qipai.load("xiangqi").new_state()
    for mv in ("h2e2", "h9g7", "h0g2", "i9h9"):
        st.apply(mv)
    assert perft(st, 2) == perft(st.fen(), 2)
    assert sum(divide(st, 2).values()) == perft(st, 2)
    assert st.fen() == "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3"


def test_perft_ignores_game_endings_and_rejects_bad_depths():
    # insufficient material ends this game on loading, but the pieces still have moves
    assert perft("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", 1) == 2
    assert perft(START_FEN, 0) == 1
    with pytest.raises(ValueError):
        perft(START_FEN, -1)
