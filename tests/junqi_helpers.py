"""Helpers shared by the junqi tests: positions, a valid layout, and reachable-point sets."""

from __future__ import annotations

import qipai

# A valid South layout for luzhan (rules/junqi.md §10.1): flag d1, mines a1 e1 c2, bombs b2 d2.
SOUTH_LAYOUT = {
    "d1": "F", "a1": "M", "e1": "M", "c2": "M", "b2": "B", "d2": "B",
    "b1": "40", "c1": "39", "a2": "38", "e2": "38", "a3": "37", "c3": "37", "e3": "36",
    "a4": "36", "b4": "35", "d4": "35", "e4": "34", "a5": "34", "c5": "34", "e5": "33",
    "a6": "33", "b6": "33", "c6": "32", "d6": "32", "e6": "32",
}


def layout_text(entries: dict[str, str]) -> str:
    return " ".join(f"{p}={c}" for p, c in entries.items())


def mirror_north(entries: dict[str, str]) -> dict[str, str]:
    """The same layout for North (South's local (r, c) on North's area)."""
    out = {}
    for p, c in entries.items():
        col, row = "abcde".index(p[0]) + 1, int(p[1:])
        r, lc = 7 - row, col                      # South local
        out[f"{'abcde'[6 - lc - 1]}{6 + r}"] = c  # North (r, c) -> column 6 - c, row 6 + r
    return out


def position(text: str, **options):
    """A luzhan state (or siguo with ``variant="siguo"``) at the test position ``text``."""
    return qipai.load("junqi", **options).new_state(position=text)


def reach(state, point: str) -> set[str]:
    """Names of the points the piece on ``point`` may move to."""
    b = state.board
    return {b.names[q] for q in state.destinations(b.point(point))}


def started(seed: int = 1, **options):
    """A game past its layout phase: every seat placed its first offered layout."""
    state = qipai.load("junqi", **options).new_state(seed=seed)
    while state.phase == "layout":
        seat = state.to_act[0]
        state.apply(state.legal_actions(seat)[0], seat)
    return state
