"""Chinese checkers against OpenSpiel's ``chinese_checkers`` (pyspiel) on the positions of many
games, under matching rules: adjacent jumps (OpenSpiel has no equidistant jump), no
anti-stalling and no move cap (OpenSpiel has neither), 2, 3 and 6 players (see
``chinese_checkers_peer`` for the board mapping and why 4 players are left out).

At every position the sets of (from, to) moves of the player to move must be equal, and both
engines must see the first finished player at the same move. The rule differences past that
point (OpenSpiel ends the game at the first finisher; we complete the round) are in
docs/games/chinese-checkers.md.
"""

from __future__ import annotations

import random

import pytest

import qipai
from qipai.bots import make_bot

from . import chinese_checkers_peer as peer

pytest.importorskip("pyspiel")

GAMES = {2: 12, 3: 6, 6: 4}


@pytest.mark.parametrize("n", sorted(GAMES))
def test_same_moves_as_openspiel(n):
    game = qipai.load("chinese-checkers", anti_stalling=False, max_moves=10_000)
    positions = finishes = 0
    for g in range(GAMES[n]):
        rng = random.Random(f"{n}-{g}")
        greedy = make_bot(game.id, "greedy", g)
        ours = game.new_state(num_seats=n)
        theirs = peer.load(n).new_initial_state()
        while True:
            assert theirs.current_player() == ours.current_player
            actions = ours.legal_actions()
            mine = {(a.start, a.dest) for a in actions if a.kind == "move"}
            assert mine == peer.peer_pairs(theirs), f"game {g}, after {ours.log}"
            positions += 1
            # mostly greedy so that games reach the end, with random moves for variety
            move = rng.choice(actions) if rng.random() < 0.3 else greedy.choose(ours, ours.current_player)
            ours.apply(move)
            peer.play_on_peer(theirs, move.path if move.kind == "move" else None)
            done = any(s == "finished" for s in ours.status)
            assert theirs.is_terminal() == done
            if done:
                finishes += 1
                winner = ours.status.index("finished")
                assert theirs.returns()[winner] == n - 1
                break
            if len(ours.log) > 600 * n:
                break
    assert positions > 300 and finishes >= GAMES[n] // 2
