"""The ko_rule options (rules/go.md §3.2) change which moves are legal.

The two game lines below are the shortest differences that ``benchmarks/go_ko_search.py``
found (seeded random games on 4x4 and 5x5 with passes, one state per ko rule in lockstep);
``test_seeded_search_finds_every_pair`` runs a short version of that search. Each option bans
a superset of the next: positional ⊇ situational ⊇ natural situational, so legal moves grow
along that order.
"""

from __future__ import annotations

import itertools

import pytest

import qipai
from qipai.core.errors import IllegalAction
from qipai.games.go import from_gtp
from qipai.games.go.rules import KO_RULES

PSK, SSK, NSSK, SIMPLE = ("positional_superko", "situational_superko",
                          "natural_situational_superko", "simple_ko")


def play_line(rule: str, moves: str, size: int = 4):
    state = qipai.load("go", board_size=size, ko_rule=rule, end_procedure="all_alive").new_state()
    for m in moves.split():
        state.apply(m)
    return state


def legal_after(moves: str, point: str, size: int = 4) -> dict[str, bool]:
    p = from_gtp(point, size)
    return {rule: p in play_line(rule, moves, size).legal_points() for rule in KO_RULES}


# Black A3, White B3, Black B1, White A2 (A3 in atari), Black passes, White A4 captures A3,
# Black B2, White A1 (the chain A2-A1 has one liberty, A3), Black A3 captures two stones.
# White to move: A2 captures A3 and leaves W A2 A4 B3 / B B1 B2, the board after move 7
# (Black's B2), when White was to move. After White's A2 Black is to move.
SEND_TWO_RETURN_ONE = "A3 B3 B1 A2 pass A4 B2 A1 A3"


def test_positional_and_situational_differ():
    assert legal_after(SEND_TWO_RETURN_ONE, "A2") == {PSK: False, SSK: True, NSSK: True,
                                                      SIMPLE: True}
    psk = play_line(PSK, SEND_TWO_RETURN_ONE)
    before = psk.to_json(), psk.rows()
    with pytest.raises(IllegalAction, match="positional superko: A2 would repeat the whole-board "
                                            "position after move 7"):
        psk.apply("A2")
    assert (psk.to_json(), psk.rows()) == before
    # situational superko compares the side to move too: Black is to move now, White was then
    ssk = play_line(SSK, SEND_TWO_RETURN_ONE)
    ssk.apply("A2")
    assert ssk.rows() == ["O...", ".O..", "OX..", ".X.."]      # rows 4 to 1, A to D
    assert ssk.last_captures == [from_gtp("A3", 4)]


# Black C4, White D3, Black B3, White B4, Black A4 captures B4, White A3 (A4 in atari), Black
# passes, White B4 captures A4 (a ko). Black to move: A4 retakes and gives back the board of
# move 6, White to move. That situation was made by Black's pass at move 7, never by a play.
PASS_THEN_KO = "C4 D3 B3 B4 A4 A3 pass B4"


def test_natural_situational_differs_from_situational():
    assert legal_after(PASS_THEN_KO, "A4") == {PSK: False, SSK: False, NSSK: True, SIMPLE: False}
    ssk = play_line(SSK, PASS_THEN_KO)
    assert "situational superko: A4 would repeat the position after move 7" in ssk.why_illegal(
        from_gtp("A4", 4))
    # natural: only a board that Black made by a play (moves 1, 3, 5) is banned to Black
    nssk = play_line(NSSK, PASS_THEN_KO)
    nssk.apply("A4")
    assert nssk.rows() == ["X.X.", "OX.O", "....", "...."]
    assert nssk.last_captures == [from_gtp("B4", 4)]
    # White may not retake at once: its own play B4 at move 8 made that board
    with pytest.raises(IllegalAction, match="natural situational superko: B4 would repeat the "
                                            "position that white's play at move 8 made"):
        nssk.apply("B4")
    # simple ko forbids the immediate retake that natural situational superko allows
    assert "ko: retaking at A4" in play_line(SIMPLE, PASS_THEN_KO).why_illegal(from_gtp("A4", 4))


def test_seeded_search_finds_every_pair():
    """A short run of the search: every pair of options differs on some position, and the
    legal sets are nested positional ⊆ situational ⊆ natural situational at every position."""
    from benchmarks.go_ko_search import search

    best, not_nested = search(games=1500, seed=1, sizes=(4,))
    assert set(best) == set(itertools.combinations(KO_RULES, 2))
    assert not_nested == 0
    for pair in ((PSK, SSK), (PSK, NSSK), (SSK, NSSK)):
        _size, _moves, only_a, only_b = best[pair]
        assert only_a == [] and only_b
