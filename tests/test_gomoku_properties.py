"""Gomoku properties (Hypothesis): random playouts under every opening and rule set never crash,
every legal action applies, illegal ones are refused with the state unchanged, JSON round-trips;
and the fast forbidden-point test agrees with the literal transcription of the rules."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import qipai
from qipai.core.errors import IllegalAction
from qipai.games.gomoku.board import NPOINTS, Board, ForbiddenScan

from . import gomoku_reference as reference

OPTION_SETS = [
    {}, {"forbidden_handling": "reject"}, {"forbidden_handling": "claim"},
    {"ruleset": "freestyle"}, {"ruleset": "standard"}, {"opening": "swap3"},
    {"opening": "two5"}, {"opening": "swap3_two5"},
    {"opening": "designated", "opening_name": "I7"},
    {"opening": "designated_two5", "opening_name": "D12"},
]


def _snapshot(state):
    return state.to_json(), state.board.diagram(), state.to_act, state.view(None)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.sampled_from(OPTION_SETS), seed=st.integers(0, 2**32 - 1))
def test_random_playouts(options, seed):
    rng = random.Random(seed)
    game = qipai.load("gomoku", **options)
    state = game.new_state()
    plies = 0
    while not state.is_terminal() and plies < 120:
        seat = state.current_player
        actions = state.legal_actions()
        assert actions, "a running game always offers an action"
        texts = {str(a) for a in actions}
        # an illegal action is refused and changes nothing
        before = _snapshot(state)
        bad = [f"{c}{r}" for c in "abcdefghijklmno" for r in range(1, 16)
               if f"{c}{r}" not in texts]
        probes = [rng.choice(bad)] if bad else []
        probes += [a for a in ("swap", "pass", "claim_forbidden", "choose:h8", "offer:a1,o15")
                   if a not in texts]
        for text in probes:
            try:
                state.apply(text)
            except IllegalAction:
                assert _snapshot(state) == before
            else:
                raise AssertionError(f"{text} applied but is not in legal_actions")
        other = 1 - seat
        try:
            state.apply(actions[0], seat=other)
        except IllegalAction:
            assert _snapshot(state) == before
        else:
            raise AssertionError("the seat not to act could act")
        action = rng.choice(actions)
        state.apply(str(action) if rng.random() < 0.5 else action)
        plies += 1
    again = game.state_from_json(state.to_json())
    assert again.board.diagram() == state.board.diagram()
    assert again.to_act == state.to_act and again.log == state.log
    assert (again.result is None) == (state.result is None)
    if state.result is not None:
        assert again.result.to_json() == state.result.to_json()
        assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])


def _random_position(rng: random.Random):
    board = Board()
    stones = {}
    nb = rng.randint(4, 45)
    nw = rng.randint(nb // 3, nb)
    spread = rng.choice((2.0, 3.0, 4.5, 100.0))
    while len(stones) < nb + nw:
        if spread > 50:
            p = rng.randrange(NPOINTS)
        else:
            c = min(14, max(0, round(rng.gauss(7, spread))))
            r = min(14, max(0, round(rng.gauss(7, spread))))
            p = r * 15 + c
        if p not in stones:
            stones[p] = "x" if len(stones) < nb else "o"
    for p, colour in stones.items():
        board.place(p, colour)
    return board, stones


def test_fast_forbidden_test_matches_the_literal_rules():
    rng = random.Random(20240601)
    checked = forbidden = 0
    for _ in range(25):
        board, stones = _random_position(rng)
        ref_stones = {(p % 15, p // 15): c for p, c in stones.items()}
        for p in board.empties():
            got = board.forbidden(p)
            assert got == reference.forbidden(ref_stones, (p % 15, p // 15)), p
            checked += 1
            forbidden += got is not None
    assert checked > 3000 and forbidden > 30


def test_the_kept_forbidden_scan_equals_a_whole_scan():
    """Stones are put on (and a few taken off) a board one at a time, near each other so that
    threes, fours and their recursive tests are common; after every change the kept scan
    (brought up to date from the last one) equals a scan of the whole board made afresh."""
    rng = random.Random(20261205)
    checked = deep = forbidden = 0
    for _ in range(12):
        board = Board()
        board.forbidden_points()
        spread = rng.choice((1.5, 2.5, 4.0))
        for _ in range(60):
            row, col = (min(14, max(0, round(rng.gauss(7, spread)))) for _ in "rc")
            p = row * 15 + col
            if board.get(p) != ".":
                if rng.random() < 0.3:
                    board.remove(p)
            else:
                board.place(p, "x" if rng.random() < 0.55 else "o")
            kept = board.forbidden_points()
            fresh = ForbiddenScan.full(board)
            assert kept == fresh.points and list(kept) == list(fresh.points)
            checked += 1
            deep += len(fresh.deep)
            forbidden += len(kept)
    assert checked == 720 and deep > 300 and forbidden > 500
