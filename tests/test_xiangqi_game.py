"""Xiangqi as a qipai game: options, scoring, external endings, refused moves, records."""

from __future__ import annotations

import json

import pytest

import qipai
from qipai import IllegalAction, OptionError, Record, replay
from qipai.games.xiangqi import XiangqiGame, XiangqiState

OPENING = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 a9b9 a0b0 b7b3 e2e6".split()   # 11 plies, one capture


def play(moves, fen=None, **options) -> XiangqiState:
    st = qipai.load("xiangqi", **options).new_state(position=fen)
    for mv in moves:
        st.apply(mv)
    return st


def test_load_with_every_option_and_defaults():
    game = qipai.load("xiangqi", end_rule="checkmate", repetition_rule="axf_simplified",
                      no_capture_plies=120, game_scoring="standard")
    assert isinstance(game, XiangqiGame)
    assert qipai.load("xiangqi").options == game.options
    for rule in ("seed000_same_move", "draw_only", "none"):
        assert qipai.load("xiangqi", repetition_rule=rule).options["repetition_rule"] == rule
    with pytest.raises(OptionError, match="axf_simplified"):
        qipai.load("xiangqi", repetition_rule="sometimes")
    with pytest.raises(OptionError):
        qipai.load("xiangqi", no_capture_plies=-1)
    with pytest.raises(OptionError):
        qipai.load("xiangqi", colour="red")


# ----- section 8.14 and scoring -------------------------------------------------------------

@pytest.mark.parametrize("plies, returns", [(9, [0.0, -1.0]), (10, [0.0, -1.0]), (11, [1.0, -1.0])])
def test_8_14_seed003_scoring_of_a_resignation(plies, returns):
    st = play(OPENING[:plies], game_scoring="seed003")
    loser = 1 if plies % 2 == 1 else 0
    winner = loser ^ 1
    st.resign(loser)
    expected = [0.0, 0.0]
    expected[winner], expected[loser] = returns[0], returns[1]
    assert st.returns() == expected
    assert st.result.reason == "resign" and st.result.winners == (winner,)
    assert st.result.text == ("1-0" if winner == 0 else "0-1")


def test_standard_scoring():
    st = play(OPENING[:3])
    st.resign(1)
    assert (st.returns(), st.result.text) == ([1.0, 0.0], "1-0")
    st = play(OPENING[:3])
    st.agree_draw()
    assert (st.returns(), st.result.text, st.result.reason) == ([0.5, 0.5], "1/2-1/2", "agreement")


def test_seed003_draw_scores_zero():
    st = play([], game_scoring="seed003")
    st.agree_draw()
    assert st.returns() == [0.0, 0.0]


def test_seed003_checkmate_within_ten_plies_scores_the_winner_zero():
    st = play(["b0b9"], fen="4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", game_scoring="seed003")
    assert (st.result.reason, st.returns()) == ("checkmate", [0.0, -1.0])


def test_forfeits_name_their_reason():
    for reason in ("timeout", "illegal_moves"):
        st = play(OPENING[:4])
        st.forfeit(0, reason)
        assert (st.result.reason, st.result.text, st.returns()) == (reason, "0-1", [0.0, 1.0])
    st = play([])
    st.forfeit(1, "timeout")
    with pytest.raises(IllegalAction):
        st.apply("h2e2")
    with pytest.raises(IllegalAction):
        st.resign(0)


def test_result_from_text():
    for text, returns in (("1-0", [1.0, 0.0]), ("0-1", [0.0, 1.0]), ("1/2-1/2", [0.5, 0.5])):
        st = play(OPENING[:2])
        st.end_by_result_text(text, "unknown")
        assert st.returns() == returns and st.result.text == text
    with pytest.raises(IllegalAction):
        play([]).end_by_result_text("2-0", "unknown")


# ----- refused moves never change the state ----------------------------------------------

@pytest.mark.parametrize("bad", ["h2h8", "e0e2", "a3b3", "e5e6", "h9g7", "zz", "", "h2-", "i9i9",
                                 "b0d1", "h2h7", Exception, 12, (100, 3), (25, 25)])
def test_refused_moves_leave_the_state_unchanged(bad):
    st = play(OPENING[:2])
    before = (st.fen(), list(st.log), list(st.history), dict(st.counts), st.no_capture)
    with pytest.raises(IllegalAction) as e:
        st.apply(bad)
    assert e.value.reason
    assert (st.fen(), list(st.log), list(st.history), dict(st.counts), st.no_capture) == before
    assert len(st.legal_moves()) > 0


def test_reasons_are_specific():
    st = play([])
    cases = {"e5e6": "no piece", "h9g7": "Black's", "a0a5": "line is blocked", "b0d1": "leg",
             "a3b3": "pawn", "a0a1": None}
    for text, words in cases.items():
        if words is None:
            st.apply(text)
            continue
        with pytest.raises(IllegalAction, match=words):
            st.apply(text)


def test_a_pair_of_squares_is_accepted_and_logged_in_iccs():
    st = play([])
    st.apply((25, 22))
    assert st.log == ["h2e2"]


def test_wrong_seat_is_refused():
    st = play([])
    with pytest.raises(IllegalAction):
        st.apply("h9g7", seat=1)
    st.apply("h2e2", seat=0)
    assert st.log == ["h2e2"]


# ----- records and JSON ---------------------------------------------------------------------

def test_json_round_trip_of_a_running_game():
    st = play(OPENING, no_capture_plies=60, game_scoring="seed003")
    data = json.loads(json.dumps(st.to_json()))
    again = st.game.state_from_json(data)
    assert again.fen() == st.fen() and again.log == st.log and again.game.options == st.game.options
    assert again.history == st.history


def test_json_round_trip_of_a_finished_game_from_a_fen():
    fen = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"
    st = play(["b0b9"], fen=fen)
    rec = st.to_record(seats=["Ann", "Bo"])
    again = replay(Record.loads(rec.dumps()))
    assert again.result == st.result and again.fen() == st.fen() and again.position == fen


def test_replay_of_an_external_ending():
    st = play(OPENING[:6])
    st.resign(0)
    again = replay(Record.from_json(json.loads(json.dumps(st.to_json()))))
    assert (again.result.text, again.result.reason, again.returns()) == ("0-1", "resign", [0.0, 1.0])


def test_replay_checks_the_recorded_result():
    st = play("a1a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9".split(),
              fen="4k4/9/9/4P4/9/9/9/9/R8/3K1R3 w - - 0 1")
    rec = st.to_record()
    assert replay(rec).result.reason == "repetition_loss"
    rec.result = {"text": "1-0", "reason": "checkmate"}
    with pytest.raises(qipai.RecordError):
        replay(rec)


def test_view_of_a_finished_game():
    st = play([], fen="1R2k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1")
    v = st.view(0)
    json.dumps(v)
    assert v["result"]["reason"] == "checkmate" and v["legal_moves"] == [] and v["in_check"] is True
