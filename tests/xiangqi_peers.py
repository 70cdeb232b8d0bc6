"""Helpers shared by the xiangqi differential tests and benchmarks: positions and peer move sets."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

import qipai

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
_OS_MOVE = re.compile(r"^[A-Za-z]\((\d),(\d)\)-\((\d),(\d)\)$")


def shared_dir(name: str) -> Path:
    """``../shared/data/<name>``; fails under CI when it is missing, skips elsewhere."""
    path = SHARED / name
    if not path.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing (CI must have ../shared beside the clone)")
        pytest.skip(f"{path} not present")
    return path


def ffish_moves(fen: str) -> set[str]:
    """Fairy-Stockfish's legal moves of ``fen`` in ICCS (its ranks are 1-10)."""
    import pyffish

    out = set()
    for m in pyffish.legal_moves("xiangqi", fen, []):
        fr, to = _uci_split(m)
        out.add(fr[0] + str(int(fr[1:]) - 1) + to[0] + str(int(to[1:]) - 1))
    return out


def _uci_split(m: str) -> tuple[str, str]:
    match = re.match(r"^([a-i]\d+)([a-i]\d+)$", m)
    assert match, m
    return match.group(1), match.group(2)


def openspiel_iccs(text: str) -> str:
    """OpenSpiel xiangqi action text ``C(7,1)-(0,1)`` (row 0 = Black's back rank) as ICCS."""
    m = _OS_MOVE.match(text)
    assert m, text
    r1, c1, r2, c2 = map(int, m.groups())
    return f"{'abcdefghi'[c1]}{9 - r1}{'abcdefghi'[c2]}{9 - r2}"


def openspiel_moves(os_state) -> dict[str, int]:
    return {openspiel_iccs(os_state.action_to_string(a)): a for a in os_state.legal_actions()}


def random_games(n_games: int, seed: int, max_plies: int = 150, **options):
    """Yield (state, ...) along ``n_games`` seeded random playouts: every position visited."""
    game = qipai.load("xiangqi", **options)
    rng = random.Random(seed)
    for _ in range(n_games):
        st = game.new_state()
        for _ in range(max_plies):
            if st.is_terminal():
                break
            yield st
            st.apply(rng.choice(st.legal_moves()))


def _diff(ours: set[str], theirs: set[str], fen: str, peer: str) -> str:
    return f"{fen}: only ours {sorted(ours - theirs)}, only {peer} {sorted(theirs - ours)}"


def record_positions(folder: Path, every: int = 1):
    """Every position (before each move) of every ``every``-th real record in ``folder``."""
    from qipai.core.formats import read_records

    game = qipai.load("xiangqi", repetition_rule="none", no_capture_plies=0)
    for path in sorted(folder.rglob("*.pgn"))[::every]:
        _, records = read_records(path.read_bytes(), str(path))
        for rec in records:
            st = game.new_state(position=rec.position)
            for text in rec.actions:
                yield st
                st.apply(text)


def check_ffish(states) -> int:
    """Our legal moves equal Fairy-Stockfish's at each of ``states`` (asserted): how many."""
    n = 0
    for st in states:
        fen = st.fen()
        ours = {str(m) for m in st.legal_moves()}
        theirs = ffish_moves(fen)
        assert ours == theirs, _diff(ours, theirs, fen, "pyffish")
        n += 1
    return n


def check_openspiel_records(folder: Path, every: int = 1) -> int:
    """Every ``every``-th real record in ``folder`` played along in OpenSpiel from the start:
    the legal moves equal ours at each position (asserted): how many positions."""
    import pyspiel

    from qipai.core.formats import read_records

    game = qipai.load("xiangqi", repetition_rule="none", no_capture_plies=0)
    os_game = pyspiel.load_game("xiangqi")
    n = 0
    for path in sorted(folder.rglob("*.pgn"))[::every]:
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
    return n


def check_openspiel_playouts(games: int, seed: int = 7):
    """``games`` random playouts played in OpenSpiel beside ours: the legal moves are equal at
    every position, and the games end alike (asserted): a checkmate or stalemate of ours is
    OpenSpiel's win for the same side, OpenSpiel stops at 500 plies, and a game only ours ends
    ends on insufficient material. Counts: ``positions`` and each ending (``checkmate``,
    ``stalemate``, ``insufficient_material``, ``500_plies``)."""
    from collections import Counter

    import pyspiel

    game = qipai.load("xiangqi", no_capture_plies=0, repetition_rule="none")
    os_game = pyspiel.load_game("xiangqi")
    rng = random.Random(seed)
    counts: Counter = Counter()
    for _ in range(games):
        st, os_st = game.new_state(), os_game.new_initial_state()
        while not os_st.is_terminal() and not st.is_terminal():
            theirs = openspiel_moves(os_st)
            ours = {str(m) for m in st.legal_moves()}
            assert ours == set(theirs), _diff(ours, set(theirs), st.fen(), "OpenSpiel")
            move = rng.choice(sorted(ours))
            st.apply(move)
            os_st.apply_action(theirs[move])
            counts["positions"] += 1
        if os_st.is_terminal() and len(st.log) < 500:   # OpenSpiel stops a game at 500 plies
            assert st.is_terminal() and st.result.reason in ("checkmate", "stalemate")
            assert (st.returns()[0] > st.returns()[1]) == (os_st.returns()[0] > 0)
            counts[st.result.reason] += 1
        elif st.is_terminal():
            assert st.result.reason == "insufficient_material"
            counts["insufficient_material"] += 1
        else:
            counts["500_plies"] += 1
    return counts
