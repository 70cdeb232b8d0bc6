"""Differential tests: our legal-move sets against Fairy-Stockfish and OpenSpiel.

Fairy-Stockfish (``pyffish``, variant ``xiangqi``) implements the full legality rules, so its
legal moves must equal ours in the default rules on every position.

OpenSpiel's xiangqi has the same legality rules (no move into check, flying general, a side with
no legal move loses) but no repetition, insufficient-material or no-capture rules and no FEN
input, so it is driven from the start position by the same moves, with those rules switched off
on our side (docs/games/xiangqi.md lists the differences).

Fairy-Stockfish answers in about 1.4 ms a call, so the unit tests check 2,500 random-playout
positions and every position of a fixed sample of the real records (OpenSpiel: every third
record); ``benchmarks/xiangqi_differential.py`` checks every position of every real record.
"""

from __future__ import annotations

import random

import pytest

import qipai
from qipai.core.formats import read_records

from .xiangqi_peers import ffish_moves, openspiel_iccs, openspiel_moves, random_games, shared_dir

pyffish = pytest.importorskip("pyffish")
pyspiel = pytest.importorskip("pyspiel")


def record_positions(every: int = 1):
    """Every position (before each move) of every ``every``-th real record in ../shared/data/xiangqi."""
    folder = shared_dir("xiangqi")
    game = qipai.load("xiangqi", repetition_rule="none", no_capture_plies=0)
    for path in sorted(folder.rglob("*.pgn"))[::every]:
        _, records = read_records(path.read_bytes(), str(path))
        for rec in records:
            st = game.new_state(position=rec.position)
            for text in rec.actions:
                yield st
                st.apply(text)


def _diff(ours: set[str], theirs: set[str], fen: str, peer: str) -> str:
    return f"{fen}: only ours {sorted(ours - theirs)}, only {peer} {sorted(theirs - ours)}"


def test_random_playouts_match_fairy_stockfish():
    n = 0
    for st in random_games(30, seed=2026, no_capture_plies=0, repetition_rule="none"):
        fen = st.fen()
        ours = {str(m) for m in st.legal_moves()}
        theirs = ffish_moves(fen)
        assert ours == theirs, _diff(ours, theirs, fen, "pyffish")
        n += 1
    assert n >= 2_500


def test_real_record_positions_match_fairy_stockfish():
    n = 0
    for st in record_positions(every=20):
        fen = st.fen()
        ours = {str(m) for m in st.legal_moves()}
        theirs = ffish_moves(fen)
        assert ours == theirs, _diff(ours, theirs, fen, "pyffish")
        n += 1
    assert n > 1_500


def test_random_playouts_match_openspiel():
    game = qipai.load("xiangqi", no_capture_plies=0, repetition_rule="none")
    os_game = pyspiel.load_game("xiangqi")
    rng = random.Random(7)
    n = 0
    for _ in range(120):
        st, os_st = game.new_state(), os_game.new_initial_state()
        while not os_st.is_terminal() and not st.is_terminal():
            theirs = openspiel_moves(os_st)
            ours = {str(m) for m in st.legal_moves()}
            assert ours == set(theirs), _diff(ours, set(theirs), st.fen(), "OpenSpiel")
            move = rng.choice(sorted(ours))
            st.apply(move)
            os_st.apply_action(theirs[move])
            n += 1
        if os_st.is_terminal() and len(st.log) < 500:   # OpenSpiel stops a game at 500 plies
            assert st.is_terminal() and st.result.reason in ("checkmate", "stalemate")
            assert (st.returns()[0] > st.returns()[1]) == (os_st.returns()[0] > 0)
        elif st.is_terminal():
            assert st.result.reason == "insufficient_material"
    assert n >= 10_000


def test_real_record_positions_match_openspiel():
    folder = shared_dir("xiangqi")
    game = qipai.load("xiangqi", repetition_rule="none", no_capture_plies=0)
    os_game = pyspiel.load_game("xiangqi")
    n = 0
    for path in sorted(folder.rglob("*.pgn"))[::3]:
        _, records = read_records(path.read_bytes(), str(path))
        for rec in records:
            st = game.new_state(position=rec.position)
            os_st = os_game.new_initial_state()
            for text in rec.actions:
                ours = {str(m) for m in st.legal_moves()}
                theirs = openspiel_moves(os_st)
                assert ours == set(theirs), _diff(ours, set(theirs), st.fen(), "OpenSpiel")
                st.apply(text)
                os_st.apply_action(theirs[str(st.log[-1])])
                n += 1
    assert n > 12_000


def test_openspiel_move_text_mapping():
    assert openspiel_iccs("S(6,0)-(5,0)") == "a3a4"
    assert openspiel_iccs("C(7,1)-(0,1)") == "b2b9"
