"""Chinese checkers: faults found by black-box probing (rules/chinese-checkers.md), each kept as a
regression test: recorded place lists, refusal reasons, hole notation inside moves, the final
board of a two-player loss, and move counts of a position."""

from __future__ import annotations

import json
import random

import pytest

import qipai
from qipai.core.errors import IllegalAction, NotationError
from qipai.core.record import Record, replay
from qipai.games.chinese_checkers import parse_action
from qipai.games.chinese_checkers.board import hole_at

from .chinese_checkers_helpers import camp, position, state_at


def new(n: int = 2, **options):
    return qipai.load("chinese-checkers", **options).new_state(num_seats=n)


def _snap(state) -> str:
    return json.dumps([state.to_json(), state.view(None)], sort_keys=True)


# ----- §6 result text: places must be a real ranking ----------------------------------------------
@pytest.mark.parametrize("n,text", [
    (3, "3,3,1"), (3, "1,3,3"), (3, "2,2,2"), (3, "2,3,3"), (4, "1,1,1,2"), (4, "1,2,2,3"),
    (4, "1,3,3,3"), (6, "1,1,1,1,1,2"), (3, "2,2,3"),
])
def test_result_text_with_impossible_places_is_refused(n, text):
    """Competition ranking: a place p shared by c seats means exactly p - 1 seats rank above
    them. "3,3,1" (two seats third, none second) is no ranking of three seats; it used to be
    accepted and scored -0.5 for the two seats."""
    s = new(n)
    s.apply(s.legal_actions()[0])
    before = _snap(s)
    with pytest.raises(IllegalAction, match="places"):
        s.end_by_result_text(text, "agreement")
    assert _snap(s) == before


@pytest.mark.parametrize("n,text", [(3, "2,2,1"), (3, "1,2,2"), (3, "1,1,3"), (3, "1,1,1"),
                                    (4, "1,1,3,3"), (4, "1,2,2,2"), (6, "4,1,1,1,5,6"), (6, "2,2,2,2,1,6")])
def test_result_text_with_real_rankings_is_read_and_scored(n, text):
    s = new(n)
    s.apply(s.legal_actions()[0])
    s.end_by_result_text(text, "agreement")
    places = [int(p) for p in text.split(",")]
    assert s.result.details["places"] == places and s.result.text == text
    assert all(r >= 0 for r in s.returns()) and sum(s.returns()) == n * (n - 1) / 2
    assert set(s.result.winners) == {i for i, p in enumerate(places) if p == 1}
    again = replay(Record.loads(s.to_record().dumps()))
    assert again.result.returns == s.result.returns


# ----- §3.3: a refused short-form chain gives the real reason ---------------------------------------
def test_short_chain_into_a_foreign_camp_is_refused_for_the_camp_not_for_no_chain():
    """1,-1 jumps 2,-1 to 3,-1, then 4,-1 to 5,-1 (camp NE, foreign to S). With
    may_stop_in_foreign_camps=false the short form 1,-1>5,-1 must be refused because of the
    camp whether or not legal_actions() was asked first (it used to say no chain exists)."""
    pos = position(S=["1,-1", "2,-1", "4,-1"], N=["0,0"])
    for ask_first in (False, True):
        s = state_at(pos, may_stop_in_foreign_camps=False)
        if ask_first:
            assert "1,-1>5,-1" not in {f"{a.path[0]}>{a.path[-1]}" for a in s.legal_actions()}
            assert not any(a.dest == hole_at(5, -1) for a in s.legal_actions())
        before = _snap(s)
        with pytest.raises(IllegalAction, match="camp NE"):
            s.apply("1,-1>5,-1")
        assert _snap(s) == before
    ok = state_at(pos)
    ok.legal_actions()
    ok.apply("1,-1>5,-1")
    assert ok.to_record().actions == ["1,-1>3,-1>5,-1"]


# ----- §6 notation: holes written [q,r] inside a '>' move -----------------------------------------
@pytest.mark.parametrize("text,path", [
    ("[-1,5]>[-1,4]", [(-1, 5), (-1, 4)]),
    ("[-2,6] > [0,4] > [2,2]", [(-2, 6), (0, 4), (2, 2)]),
    ("[-2, 6]>(0, 4)>2,2", [(-2, 6), (0, 4), (2, 2)]),
])
def test_bracketed_holes_joined_by_arrows_are_read(text, path):
    """The docs read a hole as q,r, (q, r) or [q, r]; a move is holes joined by '>'."""
    a = parse_action(text)
    assert a.path == tuple(hole_at(q, r) for q, r in path)
    s = new()
    if len(path) == 2:
        s.apply(text)
        assert s.to_record().actions == ["-1,5>-1,4"]


def test_bad_json_moves_are_still_refused_with_a_reason():
    for text in ("[[-1,5],[-1,4]", "[[-1,5]]>", "[-1,5]>[-1]"):
        with pytest.raises(IllegalAction):
            parse_action(text)


# ----- §4.1/§4.3/§4.4: a two-player loss leaves the board as it was --------------------------------
def _loser_keeps_marbles(s, loser: int) -> None:
    assert len(s.view(None)["marbles"][loser]) == 10
    assert s.result.details["in_target"][loser] == s.in_target(loser)


def test_two_player_resignation_keeps_the_losers_marbles_on_the_board():
    s = new()
    s.apply("-1,5>-1,4")
    s.resign(1)
    assert s.result.text == "1-0" and s.result.reason == "resign"
    _loser_keeps_marbles(s, 1)
    assert s.view(None)["outside_home"] == [1, 0]
    s = new()
    s.forfeit(0, "timeout")
    assert s.result.text == "0-1"
    _loser_keeps_marbles(s, 0)


def test_two_player_stalling_loss_keeps_the_board():
    """The stalling seat loses the game (§4.3); it is not removed from the board: the final
    view and details["in_target"] show the real last position."""
    home = ["-4,5", "-3,5", "-2,5", "-4,6", "-3,6"]
    out = ["-1,4", "0,0", "1,0", "2,0", "3,0"]
    s = state_at(position(S=home + out, N=camp("N"), moves=(19, 19)))
    s.apply("-1,4>-1,5")
    assert s.result.reason == "stalling" and s.result.text == "0-1"
    assert s.view(None)["outside_home"][0] == 4
    assert "-1,5" in s.view(None)["marbles"][0]


def test_multi_player_elimination_still_clears_the_marbles():
    s = new(3)
    s.resign(1)
    assert s.view(None)["marbles"][1] == [] and s.result is None
    assert s.view(None)["status"] == ["playing", "out", "playing"]


# ----- positions: move counts must be those of a round in progress -------------------------------
@pytest.mark.parametrize("pos,n", [
    ("S=0,0;N=1,-4;to=S;moves=5,3", 2),
    ("S=0,0;N=1,-4;to=N;moves=39,39", 2),
    ("S=0,0;N=1,-4;to=N;moves=3,5", 2),
    ("S=0,0;NE=5,-4;NW=-4,-4;to=NE;moves=2,2,2", 3),
    ("S=0,0;NE=5,-4;NW=-4,-4;to=S;moves=2,2,1", 3),
])
def test_positions_with_impossible_move_counts_are_refused(pos, n):
    """Every seat moves once a round (passes count), so before seat t moves the seats ahead of
    it have made one move more than t and the seats from t on: other counts are no game."""
    with pytest.raises(NotationError) as e:
        qipai.load("chinese-checkers").new_state(position=pos, num_seats=n)
    assert e.value.field == "moves"


def test_position_move_counts_default_to_the_round_in_progress():
    s = state_at("S=0,0;NE=5,-4;NW=-4,-4;to=NW", num_seats=3)
    assert s.moves == [1, 1, 0] and s.round == 1
    t = state_at("S=0,0;NE=5,-4;NW=-4,-4;to=NE;moves=8,7,7")
    assert t.round == 8 and t.current_player == 1


def test_second_player_to_move_in_a_race_position_is_scored_by_own_moves():
    """N to move, S has made 40 moves (one more): N filling S with its 40th move answers S's
    40th: S has not finished, so N wins (§4.1) at once."""
    n_camp = [h for h in camp("S") if h != "-1,5"] + ["-1,4"]
    s_marbles = [h for h in camp("N") if h != "1,-5"] + ["0,-3"]
    s = state_at(position(to="N", moves=(40, 39), S=s_marbles, N=n_camp))
    s.apply("-1,4>-1,5")
    assert s.result.text == "0-1" and s.result.details["moves_by_seat"] == [40, 40]


def test_written_positions_of_random_games_read_back():
    rng = random.Random(7)
    for n in (2, 3, 4, 6):
        s = new(n, anti_stalling=False)
        for _ in range(rng.randrange(1, 40)):
            s.apply(rng.choice(s.legal_actions()))
            if s.result is not None:
                break
            t = qipai.load("chinese-checkers").new_state(position=s.position_text())
            assert t.board == s.board and t.moves == s.moves and t.round == s.round
            assert t.current_player == s.current_player
