"""Helpers for the Chinese checkers tests: positions written from hole lists, destination sets."""

from __future__ import annotations

import qipai
from qipai.games.chinese_checkers.board import CAMPS, hole_name, parse_hole


def holes(text: str) -> list[int]:
    """Hole indices of ``"q,r q,r ..."``."""
    return [parse_hole(h) for h in text.split()]


def camp(name: str, leave: int = 0) -> list[str]:
    """The hole names of camp ``name`` minus the first ``leave`` of them (in hole order)."""
    return [hole_name(h) for h in CAMPS[name]][leave:]


def position(to: str = "S", moves: tuple[int, ...] | None = None, **marbles) -> str:
    """A position text: ``position(S=["0,0"], N=[...], to="S", moves=(3, 3))``."""
    fields = [f"{c}={' '.join(hs)}" for c, hs in marbles.items()]
    fields.append(f"to={to}")
    if moves is not None:
        fields.append("moves=" + ",".join(str(m) for m in moves))
    return ";".join(fields)


def state_at(pos: str, num_seats: int | None = None, **options):
    return qipai.load("chinese-checkers", **options).new_state(position=pos, num_seats=num_seats)


def destinations(state, start: str) -> set[str]:
    """The destination holes (as ``q,r``) of the legal moves of the marble on ``start``."""
    a = parse_hole(start)
    return {hole_name(act.dest) for act in state.legal_actions() if act.kind == "move"
            and act.start == a}


def pairs(state) -> set[str]:
    """The legal moves of the player to move as ``from>to`` pairs."""
    return {f"{hole_name(a.start)}>{hole_name(a.dest)}" for a in state.legal_actions()
            if a.kind == "move"}
