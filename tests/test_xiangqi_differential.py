"""Differential tests: our legal-move sets against Fairy-Stockfish and OpenSpiel.

Fairy-Stockfish (``pyffish``, variant ``xiangqi``) implements the full legality rules, so its
legal moves must equal ours in the default rules on every position.

OpenSpiel's xiangqi has the same legality rules (no move into check, flying general, a side with
no legal move loses) but no repetition, insufficient-material or no-capture rules and no FEN
input, so it is driven from the start position by the same moves, with those rules switched off
on our side (docs/games/xiangqi.md lists the differences).

Fairy-Stockfish answers in about 1.4-2.6 ms a call, so the unit tests check some 800
random-playout positions and every position of every 60th real record (OpenSpiel: 20 random
playouts, which end in each way the comparison tells apart, and every 10th record);
``benchmarks/xiangqi_differential.py`` runs the same checks (``tests/xiangqi_peers.py``) on every
position of every real record and on more random playouts.
"""

from __future__ import annotations

import pytest

from .xiangqi_peers import (
    check_ffish,
    check_openspiel_playouts,
    check_openspiel_records,
    openspiel_iccs,
    random_games,
    record_positions,
    shared_dir,
)

pyffish = pytest.importorskip("pyffish")
pyspiel = pytest.importorskip("pyspiel")


def test_random_playouts_match_fairy_stockfish():
    assert check_ffish(random_games(10, seed=2026, no_capture_plies=0, repetition_rule="none")) >= 800


def test_real_record_positions_match_fairy_stockfish():
    assert check_ffish(record_positions(shared_dir("xiangqi"), every=60)) > 600


def test_random_playouts_match_openspiel():
    counts = check_openspiel_playouts(20, seed=7)
    assert counts["positions"] >= 7_000
    # every ending the playouts compare: ours (checkmate, stalemate, insufficient material) and
    # OpenSpiel's 500 plies
    ends = ("checkmate", "stalemate", "insufficient_material", "500_plies")
    assert all(counts[end] for end in ends), counts


def test_real_record_positions_match_openspiel():
    assert check_openspiel_records(shared_dir("xiangqi"), every=10) > 4_000


def test_openspiel_move_text_mapping():
    assert openspiel_iccs("S(6,0)-(5,0)") == "a3a4"
    assert openspiel_iccs("C(7,1)-(0,1)") == "b2b9"
