"""Chinese checkers: every rule of rules/chinese-checkers.md, section by section, with the
edge cases of its §8 (named ``test_s8_<n>_...``)."""

from __future__ import annotations

import pytest

import qipai
from qipai.core.errors import IllegalAction
from qipai.games.chinese_checkers.board import (
    CAMP_OF,
    CAMPS,
    COORDS,
    LAYOUTS,
    NHOLES,
    OPPOSITE,
    hole_name,
    parse_hole,
)
from qipai.games.chinese_checkers.rules import table_points

from .chinese_checkers_helpers import camp, destinations, pairs, position, state_at

# ten central holes for a seat that must not be in the way (all outside every camp)
ROW_N = ["0,-4", "1,-4", "2,-4", "3,-4", "4,-4", "-1,-3", "0,-3", "1,-3", "2,-3", "3,-3"]
ROW_S = ["-4,3", "-3,3", "-2,3", "-1,3", "0,3", "1,3", "-4,4", "-3,4", "-2,4", "-1,4"]


def new(num_seats: int = 2, **options):
    return qipai.load("chinese-checkers", **options).new_state(num_seats=num_seats)


# ----- §1 identity ------------------------------------------------------------------------------
def test_s1_id_alias_and_seat_counts():
    game = qipai.load("tiaoqi")
    assert game.id == "chinese-checkers" and game.name_zh == "跳棋"
    assert game.seats == (2, 3, 4, 6)
    info = next(i for i in qipai.games() if i.id == "chinese-checkers")
    assert "tiaoqi" in info.aliases
    for n in (2, 3, 4, 6):
        assert game.new_state(num_seats=n).num_seats == n
    with pytest.raises(qipai.OptionError):
        game.new_state(num_seats=5)


def test_s1_presets_s0_and_s3_load():
    """competition presets s0_tiaoqi (defaults) and s3_tiaoqi (equidistant, tables of 3)."""
    s0 = qipai.load("tiaoqi")
    assert s0.options["jump_rule"] == "adjacent"
    s3 = qipai.load("tiaoqi", jump_rule="equidistant").new_state(num_seats=3)
    assert s3.camps == ("S", "NE", "NW")


# ----- §2 setup ---------------------------------------------------------------------------------
def test_s8_1_board_size_camps_and_centre():
    assert NHOLES == 121 == len(COORDS)
    for name, holes in CAMPS.items():
        assert len(holes) == 10, name
    assert sum(1 for c in CAMP_OF if c is None) == 61


def test_s2_2_camp_holes_match_the_table():
    table = {
        "N": "1,-5 2,-6 2,-5 3,-7 3,-6 3,-5 4,-8 4,-7 4,-6 4,-5",
        "NE": "5,-4 5,-3 5,-2 5,-1 6,-4 6,-3 6,-2 7,-4 7,-3 8,-4",
        "SE": "1,4 2,3 2,4 3,2 3,3 3,4 4,1 4,2 4,3 4,4",
        "S": "-4,5 -4,6 -4,7 -4,8 -3,5 -3,6 -3,7 -2,5 -2,6 -1,5",
        "SW": "-8,4 -7,3 -7,4 -6,2 -6,3 -6,4 -5,1 -5,2 -5,3 -5,4",
        "NW": "-4,-4 -4,-3 -4,-2 -4,-1 -3,-4 -3,-3 -3,-2 -2,-4 -2,-3 -1,-4",
    }
    for name, text in table.items():
        assert set(CAMPS[name]) == {parse_hole(h) for h in text.split()}, name
    assert OPPOSITE == {"N": "S", "S": "N", "NE": "SW", "SW": "NE", "NW": "SE", "SE": "NW"}


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_s2_3_layouts_start_filled_and_seat_0_first(n):
    s = new(n)
    assert s.camps == LAYOUTS[n]
    assert s.current_player == 0 and s.camps[0] == "S"
    for seat, c in enumerate(s.camps):
        assert sorted(s.marbles(seat)) == sorted(CAMPS[c])
    assert sum(1 for o in s.board if o >= 0) == 10 * n


def test_s8_14_three_players_order_and_targets():
    s = new(3)
    assert s.camps == ("S", "NE", "NW") and s.targets == ("N", "SW", "SE")
    for t in s.targets:
        assert all(s.board[h] == -1 for h in CAMPS[t])
    order = []
    for _ in range(6):
        order.append(s.current_player)
        s.apply(s.legal_actions()[0])
    assert order == [0, 1, 2, 0, 1, 2]


@pytest.mark.parametrize("n,order", [(4, ["S", "NE", "N", "SW"]),
                                     (6, ["S", "SE", "NE", "N", "NW", "SW"])])
def test_s2_3_turn_order_counter_clockwise(n, order):
    s = new(n)
    seen = []
    for _ in range(n):
        seen.append(s.camps[s.current_player])
        s.apply(s.legal_actions()[0])
    assert seen == order


# ----- §3 moves ---------------------------------------------------------------------------------
@pytest.mark.parametrize("rule", ["adjacent", "equidistant"])
def test_s8_2_first_move_has_14_moves(rule):
    s = new(2, jump_rule=rule)
    assert pairs(s) == {
        "-4,5>-4,4", "-4,5>-3,4", "-3,5>-3,4", "-3,5>-2,4", "-2,5>-2,4", "-2,5>-1,4",
        "-1,5>-1,4", "-1,5>0,4", "-4,6>-4,4", "-4,6>-2,4", "-3,6>-3,4", "-3,6>-1,4",
        "-2,6>-2,4", "-2,6>0,4"}
    total = 0
    for a in s.legal_actions():
        c = s.clone()
        c.apply(a)
        total += len(c.legal_actions())
    assert total == 196


def test_s3_1_step_to_an_empty_neighbour_only():
    s = state_at(position(S=["0,0"], N=["1,0"]))
    assert {"1,-1", "0,-1", "-1,0", "-1,1", "0,1"} <= destinations(s, "0,0")
    with pytest.raises(IllegalAction, match="occupied"):
        s.apply("0,0>1,0")


def test_s8_3_chain_adjacent_and_equidistant():
    pos = position(S=["0,0"], N=["0,-1", "1,-3", "2,-5", "2,-1"])
    s = state_at(pos)
    assert destinations(s, "0,0") == {"1,0", "-1,0", "1,-1", "0,1", "-1,1", "0,-2", "2,-4",
                                      "2,-6"}
    long = next(a for a in s.legal_actions() if hole_name(a.dest) == "2,-6")
    assert str(long) == "0,0>0,-2>2,-4>2,-6"
    e = state_at(pos, jump_rule="equidistant")
    assert destinations(e, "0,0") == destinations(s, "0,0") | {"2,2"}


def test_s8_4_jump_over_any_colour_captures_nothing():
    s = state_at(position(S=["0,0", "1,0"], N=["0,1"]))
    assert {"2,0", "0,2"} <= destinations(s, "0,0")
    s.apply("0,0>2,0")
    assert s.board[parse_hole("1,0")] == 0 and s.board[parse_hole("0,1")] == 1
    assert s.board[parse_hole("2,0")] == 0 and s.board[parse_hole("0,0")] == -1


def test_s8_5_gap_jump_only_when_equidistant():
    pos = position(S=["0,0"], N=["2,0"])
    s = state_at(pos)
    assert destinations(s, "0,0") == {"1,0", "-1,0", "1,-1", "0,-1", "0,1", "-1,1"}
    before = s.to_json()
    with pytest.raises(IllegalAction):
        s.apply("0,0>4,0")
    assert s.to_json() == before
    e = state_at(pos, jump_rule="equidistant")
    assert "4,0" in destinations(e, "0,0")
    e.apply("0,0>4,0")
    assert e.board[parse_hole("4,0")] == 0


def test_s8_6_equidistant_needs_the_far_side_empty():
    e = state_at(position(S=["0,0"], N=["2,0", "3,0"]), jump_rule="equidistant")
    with pytest.raises(IllegalAction):
        e.apply("0,0>4,0")
    east = {f"{q},0" for q in range(2, 5)}
    assert not destinations(e, "0,0") & east


def test_s3_2_equidistant_may_pass_over_the_start_hole():
    """The start hole counts as empty: 0,0>2,-2>2,0 and then westwards from 2,0 the first
    marble is -1,0 (the start 0,0 is crossed as empty) at distance 3, landing on -4,0."""
    pos = position(S=["0,0"], N=["1,-1", "2,-1", "-1,0"])
    e = state_at(pos, jump_rule="equidistant")
    assert "-4,0" in destinations(e, "0,0")
    e.apply("0,0>-4,0")
    assert e.log == ["0,0>2,-2>2,0>-4,0"]
    assert "-4,0" not in destinations(state_at(pos), "0,0")


def test_s8_7_step_then_jump_is_not_one_move():
    s = state_at(position(S=["0,0"], N=["1,-2"]))
    with pytest.raises(IllegalAction, match="never both"):
        s.apply("0,0>0,-1>2,-3")


def test_s8_8_null_chain_refused_and_destinations():
    s = state_at(position(S=["0,0"], N=["1,0", "2,-1", "1,-1"]))
    with pytest.raises(IllegalAction, match="different hole"):
        s.apply("0,0>2,0>2,-2>0,0")
    with pytest.raises(IllegalAction, match="start hole"):
        s.apply("0,0>2,0>2,-2>0,0>2,0")
    assert destinations(s, "0,0") == {"-1,0", "-1,1", "0,-1", "0,1", "2,0", "2,-2"}


def test_s3_2_chain_may_not_land_twice():
    s = state_at(position(S=["0,0"], N=["1,0", "2,-1", "1,-1", "3,-1"]))
    with pytest.raises(IllegalAction, match="twice"):
        s.apply("0,0>2,0>2,-2>2,0")


def test_s3_3_full_path_and_short_form_store_the_path():
    s = state_at(position(S=["0,0"], N=["0,-1", "1,-3", "2,-5", "2,-1"]))
    s.apply("0,0>2,-6")
    assert s.log == ["0,0>0,-2>2,-4>2,-6"]
    t = state_at(position(S=["0,0"], N=["0,-1", "1,-3", "2,-5", "2,-1"]))
    t.apply("[[0,0],[0,-2],[2,-4]]")
    assert t.log == ["0,0>0,-2>2,-4"]
    u = state_at(position(S=["0,0"], N=["0,-1", "1,-3", "2,-5", "2,-1"]))
    with pytest.raises(IllegalAction, match="not a jump"):
        u.apply("0,0>0,-2>2,-6")


def test_s3_3_may_stop_in_foreign_camps_option():
    pos = position(S=["3,-1"], N=["4,-1", "4,0"])
    s = state_at(pos)
    assert {"5,-1", "3,1"} <= destinations(s, "3,-1")
    s.apply("3,-1>5,-1")                    # NE camp: neither S's home nor target
    t = state_at(pos, may_stop_in_foreign_camps=False)
    d = destinations(t, "3,-1")
    assert "5,-1" not in d and "3,1" in d   # the chain through the NE camp is still legal
    with pytest.raises(IllegalAction, match="may_stop_in_foreign_camps"):
        t.apply("3,-1>5,-1")
    t.apply("3,-1>3,1")
    assert t.log == ["3,-1>5,-1>3,1"]
    # home and target camps are not foreign
    h = state_at(position(S=["-1,4"], N=["1,-4"]), may_stop_in_foreign_camps=False)
    h.apply("-1,4>-1,5")


def test_s3_4_pass_only_without_a_move_and_it_counts():
    blocked = position(S=["4,-8"], N=["4,-7", "3,-7", "4,-6", "2,-6"])
    for rule in ("adjacent", "equidistant"):
        s = state_at(blocked, jump_rule=rule)
        assert [str(a) for a in s.legal_actions()] == ["pass"]
        s.apply("pass")
        assert s.moves == [1, 0] and s.current_player == 1
    s = new(2)
    with pytest.raises(IllegalAction, match="no move is possible"):
        s.apply("pass")


# ----- §4.1 two players ---------------------------------------------------------------------------
def _race(s_done: bool, n_done: bool, moves=(39, 39)):
    """S one step from filling N (via 1,-4>1,-5); N one step from filling S (-1,4>-1,5)."""
    s_marbles = [h for h in camp("N") if h != "1,-5"] + ["1,-4"]
    n_marbles = [h for h in camp("S") if h != "-1,5"] + ["-1,4"]
    return state_at(position(S=s_marbles, N=n_marbles, moves=moves))


def test_s8_9_equal_moves_draw():
    s = _race(True, True)
    s.apply("1,-4>1,-5")
    assert not s.is_terminal() and s.current_player == 1 and s.status[0] == "finished"
    s.apply("-1,4>-1,5")
    r = s.result
    assert (r.text, r.reason, r.returns, r.winners) == ("1/2-1/2", "equal_moves_draw", (0.5, 0.5), ())
    assert r.details["places"] == [1, 1] and r.details["moves_by_seat"] == [40, 40]


def test_s8_9_first_player_wins_when_second_does_not_complete():
    s = _race(True, False)
    s.apply("1,-4>1,-5")
    s.apply("-1,4>-2,4")
    r = s.result
    assert (r.text, r.reason, r.returns, r.winners) == ("1-0", "finished", (1.0, 0.0), (0,))


def test_s8_10_second_player_wins_at_once():
    s = _race(False, True, moves=(37, 37))
    s.apply("1,-4>0,-3")                      # S's 38th move does not finish
    s.apply("-1,4>-1,5")                      # N finishes with its 38th
    r = s.result
    assert (r.text, r.reason, r.winners, r.returns) == ("0-1", "finished", (1,), (0.0, 1.0))
    assert s.to_act == () and s.moves == [38, 38]


# ----- §4.2 three or more players ------------------------------------------------------------------
def _three(ne_finishes: bool, **options):
    s_marbles = [h for h in camp("N") if h != "1,-5"] + ["1,-4"]
    ne_marbles = [h for h in camp("SW") if h != "-5,1"] + ["-4,1"]
    return state_at(position(S=s_marbles, NE=ne_marbles, NW=ROW_S[:6] + ["2,1", "2,0", "1,1", "1,0"],
                             moves=(40, 40, 40)), **options)


def test_s4_2_first_only_two_finish_in_one_round_share_first():
    s = _three(True)
    s.apply("1,-4>1,-5")
    s.apply("-4,1>-5,1")
    assert not s.is_terminal()                # the round is completed first
    s.apply("1,3>1,2")
    r = s.result
    assert r.reason == "finished" and r.details["places"] == [1, 1, 3]
    assert r.text == "1,1,3" and r.winners == (0, 1) and r.returns == (1.5, 1.5, 0.0)


def test_s4_2_first_only_the_others_share_the_next_place():
    s = _three(False)
    s.apply("1,-4>1,-5")
    s.apply("-4,1>-4,0")
    s.apply("1,3>1,2")
    r = s.result
    assert r.details["places"] == [1, 2, 2] and r.returns == (2.0, 0.5, 0.5) and r.winners == (0,)


def test_s4_2_full_ranking_plays_on_and_skips_finished_seats():
    s = _three(False, ranking="full")
    s.apply("1,-4>1,-5")                      # S finishes in round 41
    s.apply("-4,1>-4,0")
    s.apply("1,3>1,2")
    assert not s.is_terminal() and s.current_player == 1   # S is skipped
    s.apply("-4,0>-5,1")                      # NE finishes in round 42
    assert not s.is_terminal()
    s.apply("1,2>1,3")                        # end of round 42: only NW has not finished
    r = s.result
    assert r.reason == "finished" and r.details["places"] == [1, 2, 3]
    assert r.details["finish_round"] == [41, 42, None] and r.returns == (2.0, 1.0, 0.0)


# ----- §4.3 anti-stalling ---------------------------------------------------------------------------
def _stall(outside: int, moves: int, n: int = 2, **options):
    out_holes = ["0,0", "1,0", "2,0", "3,0", "4,0", "0,1", "1,1", "2,1", "3,1", "0,2"][:outside]
    inside = camp("S")[:10 - outside]
    marbles = {"S": inside + out_holes}
    if n == 2:
        marbles["N"] = ROW_N
    else:
        marbles["NE"] = ROW_N
        marbles["NW"] = ["-4,3", "-3,3", "-2,3", "-1,3", "-4,4", "-3,4", "-2,4", "-1,4",
                         "-4,2", "-3,2"]
    return state_at(position(moves=(moves - 1,) * n, **marbles), **options)


def test_s8_11_anti_stalling_at_20_two_players_loses():
    s = _stall(4, 20)
    s.apply("0,0>0,-1")
    r = s.result
    assert (r.text, r.reason, r.winners) == ("0-1", "stalling", (1,))
    ok = _stall(5, 20)
    ok.apply("0,0>0,-1")
    assert not ok.is_terminal() and ok.current_player == 1


def test_s8_11_anti_stalling_three_players_eliminates():
    s = _stall(4, 20, n=3)
    s.apply("0,0>0,-1")
    assert not s.is_terminal()
    assert s.status[0] == "out" and s.marbles(0) == [] and s.current_player == 1
    assert s.out == [{"seat": 0, "reason": "stalling", "moves": 20}]
    # eliminated seats rank below the others, the earliest lowest
    s.forfeit(1, "resign")
    r = s.result
    assert r.details["places"] == [3, 2, 1] and r.reason == "resign" and r.winners == (2,)


def _home_return(outside: int):
    """S with ``outside`` marbles out of home, one of them on -1,4 next to the empty -1,5."""
    out_holes = ["-1,4", "0,0", "1,0", "2,0", "3,0", "4,0", "0,1", "1,1", "2,1"][:outside]
    inside = [h for h in camp("S") if h != "-1,5"][:10 - outside]
    return state_at(position(S=inside + out_holes, N=ROW_N, moves=(24, 24)))


@pytest.mark.parametrize("outside,move,fails", [
    (8, "0,0>0,-1", False),     # 8 out after move 25: enough
    (9, "-1,4>-1,5", False),    # 9 had left, one came back: 8 out, enough
    (7, "0,0>0,-1", True),      # 7 out: too few
    (8, "-1,4>-1,5", True),     # 8 had left, one came back: 7 out, too few
])
def test_s8_12_marble_back_home_counts_inside(outside, move, fails):
    s = _home_return(outside)
    s.apply(move)
    assert s.is_terminal() == fails
    if fails:
        assert s.result.reason == "stalling" and s.result.text == "0-1"


def test_s8_13_keep_out_after_30_option():
    pos = position(S=["-1,4", "0,0", "1,0", "2,0", "3,0", "4,0", "0,1", "1,1", "2,1", "3,1"],
                   N=ROW_N, moves=(30, 30))
    s = state_at(pos)
    s.apply("-1,4>-1,5")                      # own move 31 brings a marble home
    assert s.result is not None and s.result.reason == "stalling"
    t = state_at(pos, keep_out_after_30=False)
    t.apply("-1,4>-1,5")
    assert not t.is_terminal()


def test_s4_3_anti_stalling_option_off():
    s = _stall(4, 20, anti_stalling=False)
    s.apply("0,0>0,-1")
    assert not s.is_terminal()


def test_s4_3_checkpoints_25_and_30_need_8_and_10():
    for moves, outside, fails in ((25, 7, True), (25, 8, False), (30, 9, True), (30, 10, False)):
        s = _stall(outside, moves)
        s.apply("0,0>0,-1")
        assert s.is_terminal() == fails, (moves, outside)


# ----- §4.4 other endings ---------------------------------------------------------------------------
def test_s4_4_resign_two_players():
    s = new(2)
    s.apply(s.legal_actions()[0])
    s.resign(0)
    r = s.result
    assert (r.text, r.reason, r.winners, r.returns) == ("0-1", "resign", (1,), (0.0, 1.0))
    assert s.log[-1] == [0, "resign"]
    again = s.game.state_from_json(s.to_json())
    assert again.result.text == "0-1" and again.result.reason == "resign"


def test_s4_4_resign_out_of_turn_three_players_eliminates():
    s = new(3)
    s.apply(s.legal_actions()[0])             # S moves; NE to act
    s.apply("resign", seat=2)                 # NW resigns during NE's turn
    assert s.status[2] == "out" and s.marbles(2) == [] and s.current_player == 1
    s.apply(s.legal_actions()[0])
    assert s.current_player == 0 and s.round == 2
    again = s.game.state_from_json(s.to_json())
    assert again.to_json() == s.to_json() and again.status == s.status
    with pytest.raises(IllegalAction, match="no longer playing"):
        s.apply("resign", seat=2)


def test_s4_4_forfeit_eliminates_with_three_players():
    s = new(3)
    s.forfeit(0, "timeout")
    assert s.status[0] == "out" and s.current_player == 1 and s.log == [[0, "forfeit:timeout"]]
    s.forfeit(1, "illegal_moves")
    r = s.result
    assert r.winners == (2,) and r.details["places"] == [3, 2, 1] and r.reason == "illegal_moves"


def test_s4_4_max_moves_two_players_draw():
    s = new(2, max_moves=2)
    for _ in range(4):
        s.apply(s.legal_actions()[0])
    r = s.result
    assert (r.text, r.reason, r.returns) == ("1/2-1/2", "max_moves", (0.5, 0.5))
    t = new(2, max_moves=3)
    for _ in range(4):
        t.apply(t.legal_actions()[0])
    assert not t.is_terminal()


def test_s4_4_max_moves_more_players_by_marbles_in_target():
    s = state_at(position(S=camp("N")[:3] + ROW_S[:7], NE=camp("SW")[:1] + ROW_N[:9],
                          NW=["-4,2", "-3,2", "-2,2", "-1,2", "0,2", "1,2", "2,2", "-4,1",
                              "-3,1", "-2,1"], moves=(1, 1, 1)), max_moves=2)
    for _ in range(3):
        s.apply(next(a for a in s.legal_actions()
                     if CAMP_OF[a.start] is None and CAMP_OF[a.dest] is None))
    r = s.result
    assert r.reason == "max_moves" and r.details["places"] == [1, 2, 3]
    assert r.details["in_target"] == [3, 1, 0] and r.text == "1,2,3"


def test_s4_4_all_pass_round_ends_the_game():
    s = new(3)
    for _ in range(3):
        s.apply("timeout")                    # a skipped turn counts as a pass (§5)
    r = s.result
    assert r.reason == "all_pass" and r.details["places"] == [1, 1, 1]
    t = new(3)
    t.apply("timeout")
    t.apply(t.legal_actions()[0])
    t.apply("timeout")
    assert not t.is_terminal()


# ----- §4.5 points ------------------------------------------------------------------------------------
def test_s4_5_points_and_table_points():
    assert table_points([1, 2]) == [1.0, 0.0]
    assert table_points([1, 1]) == [0.5, 0.5]
    assert table_points([1, 2, 2]) == [2.0, 0.5, 0.5]
    assert table_points([2, 1, 3, 3, 5, 6]) == [4.0, 5.0, 2.5, 2.5, 1.0, 0.0]


def test_s4_5_result_details_for_the_event_layer():
    s = new(3)
    s.forfeit(2, "resign")
    s.forfeit(1, "resign")
    d = s.result.details
    assert set(d) >= {"places", "camps", "moves", "moves_by_seat", "rounds", "finish_round",
                      "eliminated", "in_target"}
    assert d["places"] == [1, 2, 3] and d["camps"] == ["S", "NE", "NW"]


# ----- §5 timeouts -------------------------------------------------------------------------------------
def test_s5_timeout_default_action_and_third_strike():
    two = new(2)
    assert two.default_action(0) is None
    with pytest.raises(IllegalAction, match="two players"):
        two.apply("timeout")
    s = new(3)
    assert str(s.default_action(0)) == "timeout" and s.default_action(1) is None
    for _ in range(3):
        s.apply(s.default_action(0))
        assert s.moves[0] >= 1
        s.apply(s.legal_actions()[0])
        s.apply(s.legal_actions()[0])
    assert s.status[0] == "out" and s.strikes[0] == 3
    assert s.out[0]["reason"] == "timeout"


# ----- §6 notation ---------------------------------------------------------------------------------------
def test_s6_result_texts_read_back():
    s = new(2)
    s.end_by_result_text("1/2-1/2", "agreement")
    assert s.result.returns == (0.5, 0.5)
    t = new(3)
    t.end_by_result_text("2,1,3", "arbiter")
    assert t.result.winners == (1,) and t.result.details["places"] == [2, 1, 3]
    with pytest.raises(IllegalAction):
        new(3).end_by_result_text("1-0", "arbiter")
    with pytest.raises(IllegalAction):
        new(2).end_by_result_text("2,1", "arbiter")


def test_s6_agreed_draw():
    s = new(2)
    s.agree_draw()
    assert s.result.text == "1/2-1/2" and s.result.reason == "agreement"
