"""Go rules: every edge case of rules/go.md §8, every option, the dead-stone phase."""

from __future__ import annotations

import pytest

import qipai
from qipai.core.errors import IllegalAction, OptionError
from qipai.core.record import Record, replay
from qipai.games.go import PASS, from_gtp, handicap_points, to_gtp
from tests.go_peers import column, position


def state_at(black=(), white=(), to_move="B", size=19, **options):
    game = qipai.load("go", board_size=size, **{"end_procedure": "agreement", **options})
    return game.new_state(position=position(size, black, white, to_move))


def stone(state, text):
    return ".XO"[state.board.color[from_gtp(text, state.size)]]


def count_after_passes(state):
    state.apply("pass")
    state.apply("pass")
    return state.result


def unchanged(state, action, match, seat=None):
    before = state.to_json(), state.rows(), state.board.hash, state.view(None)
    with pytest.raises(IllegalAction, match=match):
        state.apply(action, seat=seat)
    assert (state.to_json(), state.rows(), state.board.hash, state.view(None)) == before
    state.board.check()


# ----- §8 edge cases -----------------------------------------------------------------------
def test_capture():
    s = state_at(["C4", "E4", "D5"], ["D4"])
    s.apply("D3")
    assert stone(s, "D4") == "."
    assert s.board.prisoners[1] == 1
    assert s.view(0)["last_captures"] == ["D4"]
    s.board.check()


def test_single_stone_suicide():
    s = state_at(["C4"], ["A2", "B1"])
    assert from_gtp("A1", 19) not in s.legal_points()
    unchanged(s, "A1", "suicide")


def test_multi_stone_suicide():
    s = state_at(["A1", "A2"], ["B1", "B2", "B3", "A4"])
    unchanged(s, "A3", "suicide")


def test_capture_beats_suicide():
    s = state_at(["C1", "B2", "A3"], ["B1", "A2"])
    s.apply("A1")
    assert stone(s, "B1") == stone(s, "A2") == "."
    assert s.board.prisoners[1] == 2


@pytest.mark.parametrize("ko_rule", ["positional_superko", "situational_superko", "simple_ko"])
def test_ko(ko_rule):
    s = state_at(["C4", "D5", "D3"], ["D4", "E5", "E3", "F4"], ko_rule=ko_rule)
    s.apply("E4")
    assert stone(s, "D4") == "."
    unchanged(s, "D4", "ko")
    s.apply("Q16")
    s.apply("Q4")
    s.apply("D4")
    assert stone(s, "E4") == "."


def test_two_passes_end_play_and_a_play_between_does_not():
    s = state_at(size=19, end_procedure="all_alive")
    s.apply("pass")
    s.apply("D4")
    s.apply("pass")
    assert not s.is_terminal()
    s.apply("pass")
    assert s.is_terminal() and s.result.reason == "counted"
    with pytest.raises(IllegalAction, match="over"):
        s.apply("Q16")


J_L = (column("J", range(1, 20)), column("L", range(1, 20)))


@pytest.mark.parametrize("scoring,text,winner", [
    ("seed001_no_komi", "0", None), ("seed002_komi4", "W+8", 1), ("cn2017_komi_3_75", "W+7.5", 1)])
def test_shared_column(scoring, text, winner):
    s = state_at(*J_L, end_procedure="all_alive", scoring=scoring)
    res = count_after_passes(s)
    assert (res.details["black"], res.details["white"]) == (180.5, 180.5)
    assert res.text == text
    assert res.winners == (() if winner is None else (winner,))
    assert s.returns() == ([0.5, 0.5] if winner is None else [0.0, 1.0])


def test_185_wins_for_black():
    black = column("K", range(1, 15)) + column("J", range(15, 20))
    white = column("L", range(1, 15)) + column("K", range(15, 20))
    for scoring, text in (("seed002_komi4", "B+1"), ("seed001_no_komi", "B+9")):
        res = count_after_passes(state_at(black, white, end_procedure="all_alive", scoring=scoring))
        assert (res.details["black"], res.details["white"]) == (185, 176)
        assert res.text == text
        assert res.details["margin_stones"] == {"B+1": 0.5, "B+9": 4.5}[text]


def test_177_wins_for_white():
    black = column("K", range(1, 14)) + column("J", range(14, 20))
    white = column("L", range(1, 14)) + column("K", range(14, 20))
    got = {}
    for scoring in ("seed002_komi4", "seed001_no_komi", "cn2017_komi_3_75"):
        res = count_after_passes(state_at(black, white, end_procedure="all_alive", scoring=scoring))
        assert (res.details["black"], res.details["white"]) == (184, 177)
        got[scoring] = res.text
    assert got == {"seed002_komi4": "W+1", "seed001_no_komi": "B+7", "cn2017_komi_3_75": "W+0.5"}


def test_half_point_draw_under_seed002():
    black = column("K", range(1, 14)) + column("J", range(14, 20))
    white = column("L", range(1, 15)) + column("K", range(15, 20))
    got = {}
    for scoring in ("seed002_komi4", "seed001_no_komi", "cn2017_komi_3_75"):
        res = count_after_passes(state_at(black, white, end_procedure="all_alive", scoring=scoring))
        assert (res.details["black"], res.details["white"]) == (184.5, 176.5)
        got[scoring] = res.text
    assert got == {"seed002_komi4": "0", "seed001_no_komi": "B+8", "cn2017_komi_3_75": "B+0.5"}


def test_coordinates():
    pairs = {"D4": "dp", "Q16": "pd", "K10": "jj", "J10": "ij", "A19": "aa", "T1": "ss"}
    from qipai.games.go import from_sgf, to_sgf

    for gtp, sgf in pairs.items():
        assert to_sgf(from_gtp(gtp, 19), 19) == sgf
        assert to_gtp(from_sgf(sgf, 19), 19) == gtp
        assert from_gtp(gtp.lower(), 19) == from_sgf(sgf, 19)
    assert from_sgf("tt", 19) == PASS and from_sgf("", 19) == PASS
    s = qipai.load("go", end_procedure="agreement").new_state()
    unchanged(s, "I5", "no column I")
    unchanged(s, "Z5", "off the 19x19 board")
    unchanged(s, "D20", "off the 19x19 board")
    s.apply("dp")       # SGF letters are read too
    assert s.log == ["D4"]


@pytest.mark.parametrize("scoring,text", [("seed001_no_komi", "0"), ("seed002_komi4", "W+8")])
def test_immediate_double_pass(scoring, text):
    s = qipai.load("go", scoring=scoring, end_procedure="all_alive").new_state()
    res = count_after_passes(s)
    assert (res.details["black"], res.details["white"]) == (180.5, 180.5)
    assert res.text == text


def test_resignation():
    s = qipai.load("go", end_procedure="agreement").new_state()
    s.apply("D4")
    s.resign(1)
    assert s.result.text == "B+R" and s.result.reason == "resign" and s.returns() == [1.0, 0.0]
    s = qipai.load("go", end_procedure="agreement").new_state()
    s.forfeit(0, "timeout")
    assert s.result.text == "W+T"


# ----- options -----------------------------------------------------------------------------
def test_ko_rules_differ_after_passes():
    # Black takes the ko, both pass, play resumes and White retakes at once: the board returns
    # to the start position (Black to move then and now), which both superko rules forbid;
    # simple ko looks only at the board before the opponent's last action (a pass). Natural
    # situational superko allows it too: the start position was made by no play.
    results = {}
    for rule in ("positional_superko", "situational_superko", "natural_situational_superko",
                 "simple_ko"):
        s = state_at(["C4", "D5", "D3"], ["D4", "E5", "E3", "F4"], ko_rule=rule)
        s.apply("E4")
        s.apply("pass")
        s.apply("pass")
        s.apply("resume", seat=1)
        assert s.current_player == 1
        results[rule] = s.why_illegal(from_gtp("D4", 19)) is None
    assert results == {"positional_superko": False, "situational_superko": False,
                       "natural_situational_superko": True, "simple_ko": True}
    s = state_at(["C4", "D5", "D3"], ["D4", "E5", "E3", "F4"])
    for m in ("E4", "pass", "pass"):
        s.apply(m)
    s.apply("resume", seat=0)
    unchanged(s, "D4", "positional superko")


def test_scoring_free_komi_and_draws():
    s = state_at(*J_L, end_procedure="all_alive", scoring="free_komi", komi=0)
    assert count_after_passes(s).text == "0"
    s = state_at(*J_L, end_procedure="all_alive", scoring="free_komi", komi=-2.5)
    assert count_after_passes(s).text == "B+2.5"
    with pytest.raises(OptionError):
        qipai.load("go", komi="lots", end_procedure="agreement")
    with pytest.raises(OptionError):
        qipai.load("go", komi=0.3, end_procedure="agreement")
    assert qipai.load("go", komi="6.5", end_procedure="agreement").options["komi"] == 6.5


def test_board_sizes():
    for size in (9, 13, 19):
        s = qipai.load("go", board_size=size, end_procedure="agreement").new_state()
        assert len(s.legal_actions()) == size * size + 1
    with pytest.raises(OptionError):
        qipai.load("go", board_size=18, end_procedure="agreement")


def test_handicap():
    s = qipai.load("go", handicap=4, end_procedure="agreement").new_state()
    assert [to_gtp(p, 19) for p in handicap_points(19, 4)] == ["D4", "Q16", "D16", "Q4"]
    assert s.to_move == 2 and s.current_player == 1
    assert sorted(to_gtp(p, 19) for p in range(361) if s.board.color[p] == 1) == \
        ["D16", "D4", "Q16", "Q4"]
    assert [to_gtp(p, 9) for p in handicap_points(9, 5)] == ["C3", "G7", "C7", "G3", "E5"]
    # White receives one point per handicap stone
    g = qipai.load("go", handicap=2, scoring="seed001_no_komi", end_procedure="all_alive")
    s = g.new_state()
    res = count_after_passes(s)
    assert res.details["black"] == 361 and res.text == "B+359"


def test_max_moves_guard():
    s = qipai.load("go", board_size=9, max_moves=3, end_procedure="all_alive").new_state()
    for m in ("E5", "C3", "G7"):
        s.apply(m)
    assert s.is_terminal() and s.result.reason == "max_moves"
    s = qipai.load("go", board_size=9, max_moves=2, end_procedure="agreement").new_state()
    s.apply("E5")
    s.apply("C3")
    assert s.phase == "marking"
    assert "resume" not in [str(a) for a in s.legal_actions(0)]


def test_nigiri_colours():
    g = qipai.load("go", colours="nigiri", end_procedure="agreement")
    seats = {g.new_state(seed=k).black_seat for k in range(20)}
    assert seats == {0, 1}
    s = next(g.new_state(seed=k) for k in range(20) if g.new_state(seed=k).black_seat == 1)
    assert s.current_player == 1
    s.apply("D4")
    s.resign(0)
    assert s.result.text == "B+R" and s.returns() == [0.0, 1.0]
    with pytest.raises(IllegalAction, match="seed"):
        g.new_state()


# ----- dead-stone phase --------------------------------------------------------------------
def _dead_white_stone_game():
    # 9x9: Black walls off the left, White the right; a lone white stone inside Black's area
    black = column("D", range(1, 10))
    white = column("F", range(1, 10)) + ["B5"]
    return state_at(black, white, size=9, scoring="free_komi", komi=0)


def test_marks_agree_and_count():
    s = _dead_white_stone_game()
    s.apply("pass")
    s.apply("pass")
    assert s.phase == "marking" and s.to_act == (0, 1)
    assert s.view(0)["marking"]["proposal"] == ["B5"]
    s.apply("dead B5", seat=0)
    s.apply("done", seat=0)
    assert s.to_act == (1,)
    unchanged(s, "dead B5", "not to act", seat=0)
    s.apply("dead B5", seat=1)
    s.apply("alive B5", seat=1)
    s.apply("dead B5", seat=1)
    s.apply("done", seat=1)
    assert s.is_terminal() and s.result.reason == "counted"
    assert s.result.details["black"] == 40.5 and s.result.details["white"] == 40.5
    assert s.result.text == "0"
    v = s.view(None)
    assert v["dead"] == ["B5"] and v["score"] == {"black": 40.5, "white": 40.5}
    # the record replays to the same result
    again = replay(Record.from_json(s.to_json()))
    assert again.result == s.result


def test_marks_disagree_resume_then_all_alive():
    s = _dead_white_stone_game()
    s.apply("pass")
    s.apply("pass")
    s.apply("dead B5", seat=0)
    s.apply("done", seat=0)
    s.apply("done", seat=1)
    assert s.phase == "play" and s.current_player == 0 and s.disagreements == 1
    s.apply("A1")
    s.apply("pass")
    s.apply("pass")
    assert s.phase == "marking"
    s.apply("done", seat=1)
    s.apply("dead B5", seat=0)
    s.apply("done", seat=0)
    assert s.is_terminal() and s.result.details.get("marks_disagreed")
    assert s.result.details["dead"] == []


def test_resume_and_bad_marks():
    s = _dead_white_stone_game()
    s.apply("pass")
    s.apply("pass")
    unchanged(s, "dead E5", "no stone", seat=0)
    s.apply("dead B5", seat=1)
    unchanged(s, "D4", "dead-stone phase", seat=0)
    s.apply("resume", seat=1)
    assert s.phase == "play" and s.disagreements == 1   # a refusal is a disagreement
    unchanged(s, "done", "only after two passes")


def test_arbiter_and_forced_count():
    s = _dead_white_stone_game()
    with pytest.raises(IllegalAction):
        s.arbiter_decide(["B5"])
    s.apply("pass")
    s.apply("pass")
    s.arbiter_decide(["B5"])
    assert s.result.reason == "arbiter" and s.result.text == "0"
    again = replay(Record.from_json(s.to_json()))
    assert again.result.text == "0" and again.result.reason == "arbiter"
    s = _dead_white_stone_game()
    s.forced_count()
    assert s.result.reason == "arbiter" and s.result.text == "W+28"


def test_view_and_json_round_trip():
    s = qipai.load("go", board_size=9, end_procedure="agreement").new_state()
    for m in ("E5", "D5", "pass"):
        s.apply(m)
    v = s.view(1)
    assert v["board"][4] == "...OX...." and v["last_move"] == "pass" and v["colour"] == "white"
    assert v["to_move"] == "white" and "E4" in v["legal_moves"] and "E5" not in v["legal_moves"]
    again = s.game.state_from_json(s.to_json())
    assert again.rows() == s.rows() and again.log == s.log and again.view(1) == v


def test_the_library_counts_every_stone_alive_by_default_and_people_mark_dead_stones():
    """rules/go.md §4.2: all_alive is the default (two passes end a program's game with a score);
    the server's lobby tables and the S2 preset ask for agreement, as SGF records of people do."""
    from qipai.competition.config import load_preset
    from qipai.server.tabledefaults import LOBBY_ONE_GAME

    s = qipai.load("go", board_size=9).new_state()
    s.apply("pass")
    s.apply("pass")
    assert s.is_terminal() and s.result.reason != "agreement"
    assert LOBBY_ONE_GAME["go"]["end_procedure"] == "agreement"
    assert load_preset("s2_go").game_options["end_procedure"] == "agreement"


def test_the_marking_view_shades_each_points_owner_by_each_sides_marks():
    """While the dead stones are marked, the view gives, for each seat's marks, the owner of every
    point and the count they make (area, rules §4.3), the same the game counts once both agree,
    so a page can shade the territory before the players submit."""
    s = state_at(black=("A3", "B3", "C3", "C2", "C1"), white=("G7", "A1"), size=9)
    s.apply("pass")
    s.apply("pass")
    assert s.phase == "marking"
    who = s.to_act[0]
    s.apply("dead A1", seat=who)
    v = s.view(who)["marking"]
    mine, theirs = v["ownership"][who], v["ownership"][1 - who]
    # rows run from the top (row 9): A1, A2 Black's once White's A1 is dead, else White's and dame
    assert (mine[8][0], mine[7][0]) == ("X", "X") and (theirs[8][0], theirs[7][0]) == ("O", ".")
    assert v["count"][who] == dict(zip(("black", "white"), s.count(frozenset({from_gtp("A1", 9)}))))
    assert v["count"][1 - who] == dict(zip(("black", "white"), s.count()))
    s.apply("done", seat=who)
    s.apply("dead A1", seat=1 - who)
    s.apply("done", seat=1 - who)
    end = s.view(None)
    assert end["phase"] == "over" and end["ownership"] == mine
    assert (end["score"]["black"], end["score"]["white"]) == tuple(v["count"][who].values())
