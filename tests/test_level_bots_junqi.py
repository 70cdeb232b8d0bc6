"""Junqi's search (levels 3-5): the playout plays as the greedy bot does, read from the state
but only from what the moving seat may see, and the cut-off value weighs the danger to each
side's flag besides the material."""

from __future__ import annotations

import copy
import random

import pytest

import qipai
from qipai.bots import make_bot
from qipai.bots.junqi import SEARCHER, GreedyBot, move_score
from qipai.bots.junqi_guard import gates, posts
from qipai.bots.mcts import Budget
from qipai.games.junqi import parse_layout
from qipai.games.junqi.pieces import FLAG, MINE


def _greedy_game(seed: int, plies: int):
    game = qipai.load("junqi")
    state = game.new_state(seed=seed)
    bots = [make_bot("junqi", "greedy", seed=s) for s in range(2)]
    while len(state.history) < plies:
        seat = state.to_act[0]
        state.apply(bots[seat].choose(state, seat), seat)
    return game, state


def test_playout_move_depends_only_on_the_seats_view():
    """The playout's move for a seat is the same in the real position and in determinizations
    of its view (the other seat's pieces drawn anew), under the same random numbers."""
    game, state = _greedy_game(5, 30)
    me = state.to_act[0]
    view = state.view(me)
    SEARCHER.root_states(game, {"view": view})         # the seat searching is ``me``
    other = [p for p in range(state.board.n) if state.own[p] == 1 - me]
    moves, differs = set(), 0
    for k in range(4):
        twin = SEARCHER.determinize(game, view, random.Random(k))
        assert twin.view(me)["pieces"] == view["pieces"]
        differs += any(twin.kind[p] != state.kind[p] for p in other)
        moves.add((str(SEARCHER.policy(state, me, random.Random(k + 50))),
                   str(SEARCHER.policy(twin, me, random.Random(k + 50)))))
    assert differs
    assert all(a == b for a, b in moves), moves


def test_playout_move_is_the_greedy_bots_choice():
    """Without random moves the playout's move has the greedy bot's best one-move score (its
    score without memory), and a revealed flag in reach is taken."""
    game, state = _greedy_game(7, 24)
    me = state.to_act[0]
    searcher = copy.copy(SEARCHER)
    searcher.epsilon = 0.0
    bot = GreedyBot(0)
    view = state.view(me)
    at = {x["point"]: x for x in view["pieces"]}
    from qipai.bots.junqi import enemy_hq_distance

    dist = enemy_hq_distance(state.board, me, state.team)
    scores = {str(m): bot._score(state.board, at, m, dist, 0) for m in state.legal_actions(me)}
    point = state.board.point
    for m in state.legal_actions(me):
        assert move_score(state, me, point(m.frm), point(m.to), dist) == scores[str(m)]
    chosen = str(searcher.policy(state, me, random.Random(3)))
    assert scores[chosen] >= max(scores.values()) - 0.5
    shown = game.new_state(position="S:b1=F S:a4=33 N:b12=F N:b2=34 N:a9=38 turn=N revealed=S")
    assert str(searcher.policy(shown, 1, random.Random(1))) == "b2-b1"


def test_cut_off_value_weighs_the_danger_to_the_flag():
    """Same material: an enemy piece next to a side's flag, or its flag revealed, lowers that
    side's value."""
    game = qipai.load("junqi")
    far = game.new_state(position="S:b1=F S:a4=33 S:c3=M N:b12=F N:b6=34 N:a9=38 turn=N")
    near = game.new_state(position="S:b1=F S:a4=33 S:c3=M N:b12=F N:b2=34 N:a9=38 turn=N")
    shown = game.new_state(position="S:b1=F S:a4=33 S:c3=M N:b12=F N:b6=34 N:a9=38 turn=N "
                                    "revealed=S")
    v_far, v_near, v_shown = (SEARCHER.evaluate(s) for s in (far, near, shown))
    assert v_near[0] < v_shown[0] < v_far[0] < 0.5
    assert abs(sum(v_far) - 1) < 1e-9 and v_near[1] > v_far[1]


def test_tree_considers_the_greedy_orders_best_moves_defence_of_the_flag_first():
    """A node considers at most ``width`` moves, the greedy bot's best, and an attack on an
    enemy piece next to the seat's own flag comes first."""
    game = qipai.load("junqi")
    state = game.new_state(position="S:b1=F S:c2=37 S:a4=33 S:e4=32 S:c5=38 S:a2=35 N:b2=34 "
                                    "N:a9=38 N:b12=F turn=S")
    searcher = copy.copy(SEARCHER)
    searcher._rankers = {}
    moves = [str(m) for m in searcher.candidates(state, 0)]
    assert len(state.legal_actions(0)) > len(moves) == searcher.width
    assert set(moves[:2]) == {"c2-b2", "a2-b2"}


def test_search_assumes_the_enemy_finds_its_own_flag():
    """In a search for South, North takes South's hidden flag as soon as a piece of North's
    reaches it: in the playout as a revealed flag, and as North's only move in the tree; North's
    own flag is not given away to South (it is sampled in a search, never known)."""
    game = qipai.load("junqi")
    state = game.new_state(position="S:b1=F S:d1=33 S:a4=33 S:e4=32 N:b2=34 N:a9=38 N:b12=F "
                                    "N:d12=35 N:d11=36 turn=N")
    searcher = copy.copy(SEARCHER)
    searcher.epsilon = 0.0
    searcher.root_states(game, {"view": state.view(0)})
    assert searcher._guarded == 0
    assert str(searcher.policy(state, 1, random.Random(1))) == "b2-b1"
    assert [str(m) for m in searcher.candidates(state, 1)] == ["b2-b1"]
    south = game.new_state(position="S:b1=F S:a4=33 S:b11=34 N:b12=F N:d12=35 N:a9=38 turn=S")
    assert len(searcher.candidates(south, 0)) > 1


def test_cut_off_value_counts_the_pieces_free_to_move():
    """Same pieces: a piece on a headquarters (it never moves again) or walled in by its own
    side's mines and flag is worth less to the cut-off value than the same piece free to move."""
    from qipai.bots.junqi import free_movers

    game = qipai.load("junqi")
    north = "N:d12=F N:c12=M N:e12=M N:a9=38 N:e7=35 turn=N"
    free = game.new_state(position="S:d1=F S:c1=M S:e1=M S:a4=36 S:b11=38 " + north)
    stuck = game.new_state(position="S:d1=F S:c1=M S:e1=M S:a4=36 S:b12=38 " + north)
    walled = game.new_state(position="S:d1=F S:c1=M S:e1=38 S:e2=M S:a4=36 " + north)
    movers = [[p for p in range(s.board.n) if s.own[p] >= 0 and s.kind[p] >= 32] for s in
              (free, stuck, walled)]
    assert [free_movers(s, m)[0] for s, m in zip((free, stuck, walled), movers)] == [2, 1, 1]
    v_free, v_stuck, v_walled = (SEARCHER.evaluate(s)[0] for s in (free, stuck, walled))
    assert v_stuck < v_free and v_walled < v_free


def test_search_keeps_its_pieces_free_to_move():
    """South's 38 may take the 33 on North's empty-flagged headquarters (material gained, but the
    38 never moves again): valued at once (playouts cut after no move), the search keeps it free."""
    from qipai.bots.mcts import Budget, search

    game = qipai.load("junqi")
    text = ("S:d1=F S:c1=M S:e1=M S:d2=M S:b2=M S:c2=35 S:b11=38 N:d12=F N:c12=M N:e12=M N:d11=M "
            "N:b12=33 N:a12=32 N:e10=34 turn=S")
    searcher = copy.copy(SEARCHER)
    searcher.max_plies = 0
    searcher._rankers, searcher._guarded = {}, 0
    assert "b11-b12" in [str(m) for m in searcher.candidates(game.new_state(position=text), 0)]
    chosen = {search(searcher, lambda rng: game.new_state(position=text), 0, Budget(300, None),
                     random.Random(seed)).action for seed in range(2)}
    assert "b11-b12" not in chosen


def test_danger_to_the_flag_reads_the_railway():
    """An enemy engineer on the railway far from South's flag that may fly to the point next to
    it (b2, through empty stations) is two moves from the flag; the same piece off the railway,
    as far, is not within three; the cut-off value weighs it, and the tree puts the move that
    fills the empty point next to the flag first (without the threat it is still considered: an
    open gate is filled)."""
    from qipai.bots.junqi import flag_reach

    game = qipai.load("junqi")
    base = "S:b1=F S:a1=M S:c1=M S:c2=37 S:d4=35 N:b12=F N:b11=38 turn=S "
    rail = game.new_state(position=base + "N:e7=32")
    road = game.new_state(position=base + "N:d9=32")
    movers = [[p for p in range(s.board.n) if s.own[p] >= 0 and s.kind[p] >= 32]
              for s in (rail, road)]
    flag = rail.board.point("b1")
    assert {rail.board.names[p]: k for p, k in flag_reach(rail, flag, movers[0]).items()} == \
        {"e7": 2}
    assert flag_reach(road, flag, movers[1]) == {}
    ninth = game.new_state(position=base.replace("b11", "a9") + "N:d9=32")
    pieces = [p for p in range(ninth.board.n) if ninth.own[p] >= 0 and ninth.kind[p] >= 32]
    assert {ninth.board.names[p]: k for p, k in flag_reach(ninth, flag, pieces).items()} == \
        {"a9": 3}                      # a straight run to a2, two steps from the flag
    assert SEARCHER.evaluate(rail)[0] < SEARCHER.evaluate(road)[0]
    searcher = copy.copy(SEARCHER)
    searcher._rankers = {}
    assert str(searcher.candidates(rail, 0)[0]) == "c2-b2"
    assert "c2-b2" in [str(m) for m in searcher.candidates(road, 0)]


@pytest.mark.parametrize("variant", ["luzhan", "siguo"])
def test_search_levels_lay_out_the_flag_walled_in_by_mines(variant):
    """The search levels' layout is legal for every seat (the referee accepts it), the flag
    stands on a headquarters with a mine on each of its three gates, officers on the two posts
    behind them, and it varies with the seed."""
    game = qipai.load("junqi", variant=variant)
    texts = set()
    for seed in range(6):
        state = game.new_state(seed=seed)
        for seat in range(state.num_seats):
            layout = make_bot("junqi", "mcts3", seed=seed).choose(state, seat)
            placed = parse_layout(state.board, seat, layout.text)       # legal (rules §4)
            flag = next(p for p, k in placed.items() if k == FLAG)
            assert state.board.hq[flag]
            assert [placed[g] for g in gates(state.board, flag)] == [MINE] * 3
            guards = [placed[p] for p in posts(state.board, flag) if p in placed]
            assert len(guards) == 2 and all(32 < k < 40 for k in guards)
            state.apply(layout, seat)
            texts.add(layout.text)
        assert state.phase == "play"
    assert len(texts) > 6


def test_the_guards_stay_home_and_strike_the_piece_at_the_gate():
    """South's posts a2 and c2 hold officers behind the mined gates of its flag on b1. With no
    enemy near, their quiet moves are not among the moves the tree considers; when an enemy
    engineer has cleared the mine on b2 (next to the flag), the search takes it from a post."""
    from qipai.bots.mcts import search

    game = qipai.load("junqi")
    home = "S:b1=F S:a1=M S:c1=M S:a2=37 S:c2=36 S:d4=35 S:e4=34 S:b6=38 N:d12=F N:c12=M "
    quiet = game.new_state(position=home + "S:b2=M N:a9=38 N:e10=32 turn=S")
    searcher = copy.copy(SEARCHER)
    searcher._rankers, searcher._guarded = {}, 0
    moves = searcher.candidates(quiet, 0)
    at = quiet.board.point
    assert any(m.frm in ("a2", "c2") and quiet.own[at(m.to)] < 0 for m in quiet.legal_actions(0))
    assert moves and not [m for m in moves if m.frm in ("a2", "c2") and quiet.own[at(m.to)] < 0]
    broken = home + "N:b2=32 N:a9=38 N:e10=32 turn=S"
    chosen = {search(searcher, lambda rng: game.new_state(position=broken), 0, Budget(200, None),
                     random.Random(seed)).action for seed in range(2)}
    assert chosen <= {"a2-b2", "c2-b2"}, chosen
