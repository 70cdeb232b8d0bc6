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
