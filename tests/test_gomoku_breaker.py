"""Adversarial tests of the gomoku/renju referee: faults found by black-box probing.

Each test names the input, what the rules (rules/gomoku.md) or the project's working rules ask
for, and checks it through the public API.
"""

from __future__ import annotations

import pytest

import qipai
from qipai.core.errors import IllegalAction, NotationError, OptionError, RecordError
from qipai.core.formats import read_records
from qipai.core.record import replay
from qipai.games.gomoku import records

# ----- Piskvork .rec reader ------------------------------------------------------------------


def test_rec_final_line_with_two_minus_signs_is_a_record_error():
    # "--5" looked like a final integer to the reader, then int() raised ValueError.
    with pytest.raises(RecordError) as e:
        records.read_rec(b"a\nb\n7,7,0\n--5\n", "bad.rec")
    assert (e.value.source, e.value.line, e.value.text) == ("bad.rec", 4, "--5")


@pytest.mark.parametrize("line", ["9" * 5000, "7,7," + "1" * 5000, "9" * 5000 + ",7,0"])
def test_rec_numbers_too_long_for_int_are_record_errors(line):
    with pytest.raises(RecordError) as e:
        records.read_rec("a\nb\n7,7,0\n" + line + "\n", "long.rec")
    assert e.value.line == 4 and e.value.move == 2


def test_rec_only_ascii_digits_are_coordinates():
    # "٣" (Arabic-Indic three) matched \d and int() read it as 3.
    with pytest.raises(RecordError) as e:
        records.read_rec("a\nb\n7,7,0\n\u0663,2,3\n", "digits.rec")
    assert e.value.line == 4 and e.value.move == 2


# ----- renju lines -----------------------------------------------------------------------------


def test_renju_lines_non_ascii_byte_is_a_record_error_naming_the_line():
    data = "black h8 h9\nwhite h8 \u2014\n".encode()
    with pytest.raises(RecordError) as e:
        records.read_lines(data, "dash.renju")
    assert e.value.source == "dash.renju" and e.value.line == 2
    # and through format detection, as `qipai replay` does it
    with pytest.raises(RecordError):
        read_records(data, "dash.renju")


def test_renju_lines_with_a_utf8_byte_order_mark_are_read():
    data = b"\xef\xbb\xbfblack h8 h9\n"
    fmt, recs = read_records(data, "bom.renju")
    assert fmt == "renju-lines" and recs[0].actions == ["h8", "h9"]


# ----- RenjuNet RIF ------------------------------------------------------------------------------

RIF_BAD_TOKEN = (b'<?xml version="1.0"?>\n<database>\n<games>\n'
                 b'<game id="1" bresult="1">\n<move>h8 h9\ni9 h7</move>\n</game>\n'
                 b'<game id="2" bresult="0">\n<move>h8\nh9\nz9</move>\n</game>\n'
                 b'</games>\n</database>\n')


def test_rif_malformed_move_names_the_line():
    with pytest.raises(RecordError) as e:
        records.read_rif(RIF_BAD_TOKEN, "bad.rif")
    assert (e.value.game, e.value.line, e.value.move, e.value.text) == (2, 11, 3, "z9")


def test_rif_illegal_move_on_replay_names_the_line():
    data = RIF_BAD_TOKEN.replace(b"z9", b"h8")
    recs = records.read_rif(data, "dup.rif")
    assert recs[0].meta["move_lines"] == [5, 5, 6, 6]
    with pytest.raises(RecordError) as e:
        replay(recs[1], source="dup.rif")
    assert (e.value.game, e.value.line, e.value.move) == (2, 11, 3)


# ----- positions -------------------------------------------------------------------------------


def _full_board_without_five() -> str:
    # stripes two points wide, shifted by one each row: no five in any direction
    return "\n".join("".join("x" if ((c // 2) + r) % 2 == 0 else "o" for c in range(15))
                     for r in range(15))


def test_full_board_position_is_a_draw():
    state = qipai.load("gomoku").new_state(position=_full_board_without_five())
    assert state.is_terminal()
    assert (state.result.text, state.result.reason) == ("draw", "board_full")
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []


def test_position_where_both_colours_have_won_is_refused():
    with pytest.raises(NotationError):
        qipai.load("gomoku").new_state(position="a1 b1 c1 d1 e1 / a3 b3 c3 d3 e3")


# ----- options ---------------------------------------------------------------------------------


@pytest.mark.parametrize("opening,extra", [("swap3", {}), ("swap3_two5", {}),
                                           ("designated", {"opening_name": "D4"}),
                                           ("designated_two5", {"opening_name": "I1"})])
def test_free_first_move_with_an_opening_that_fixes_h8_is_refused(opening, extra):
    # first_move_center=false was silently ignored: the first stone still had to be h8
    with pytest.raises(OptionError):
        qipai.load("gomoku", opening=opening, first_move_center=False, **extra)
    qipai.load("gomoku", opening=opening, first_move_center=True, **extra)


def test_free_first_move_is_honoured_where_it_applies():
    for opening in ("standard", "two5"):
        state = qipai.load("gomoku", opening=opening, first_move_center=False).new_state()
        state.apply("a1")
        assert state.last_move() == "a1"


# ----- writers: what is written must read back as the same game ----------------------------


def _play(game, moves):
    state = game.new_state()
    for m in moves:
        state.apply(m)
    return state


def test_renju_game_is_not_written_as_a_freestyle_rec():
    # Black's overline loses in renju (W+ overline); the .rec reader replays freestyle, where
    # the same stones make Black win: the writer produced a file with the opposite winner.
    state = _play(qipai.load("gomoku"), "h8 a2 d8 b2 e8 c2 f8 e2 i8 g2 j8 a15 g8".split())
    assert (state.result.text, state.result.reason) == ("W+", "overline")
    with pytest.raises(RecordError):
        records.write_rec(state)


def test_freestyle_game_is_not_written_as_renju_lines():
    state = _play(qipai.load("gomoku", ruleset="freestyle"),
                  "a1 a2 b1 b2 c1 c2 e1 e2 f1 g2 d1".split())
    assert (state.result.text, state.result.reason) == ("B+", "five")
    with pytest.raises(RecordError):
        records.write_lines([state])
    # the formats that carry the rule set keep it
    back = records.classify(records.read_rif(records.write_rif([state]))[0])
    assert back[0] == "ok" and back[1].result.text == "B+"
    back = records.classify(records.read_rec(records.write_rec(state))[0])
    assert back[0] == "ok" and back[1].result.text == "B+"


def test_claim_game_with_a_lapsed_foul_is_not_written_as_a_losing_foul():
    # claim mode: Black's i9 (double three) is not claimed, the game goes on; the line and RIF
    # readers replay forbidden stones as losing, so the written game would end at i9.
    moves = ["h8", "a1", "i10", "c1", "i11", "e1", "g9", "g1", "h9", "i1", "i9", "a15", "a14"]
    state = _play(qipai.load("gomoku", forbidden_handling="claim"), moves)
    assert state.result is None
    with pytest.raises(RecordError):
        records.write_lines([state])
    with pytest.raises(RecordError):
        records.write_rif([state])
    # a claimed foul ends the game the same way in both rule readings
    claimed = _play(qipai.load("gomoku", forbidden_handling="claim"), moves[:11])
    claimed.apply("claim_forbidden")
    back = records.classify(records.read_lines(records.write_lines([claimed]))[0])
    assert back[0] == "ok" and (back[1].result.text, back[1].result.reason) == ("W+",
                                                                                 "double_three")


def test_refused_action_leaves_the_state_unchanged():
    state = _play(qipai.load("gomoku", opening="swap3"), ["h8", "h9", "j10"])
    before = state.to_json()
    for bad in ("h9", "pass", "offer:a1,b1", "choose:a1", "claim_forbidden"):
        with pytest.raises(IllegalAction):
            state.apply(bad)
        assert state.to_json() == before


@pytest.mark.parametrize("bresult", ["2", "white", "-1", "0.25", "1e0"])
def test_rif_result_that_is_not_a_score_is_a_record_error(bresult):
    # an unreadable bresult was silently read as "no result"
    data = RIF_BAD_TOKEN.replace(b"z9", b"i9").replace(b'bresult="0"',
                                                        f'bresult="{bresult}"'.encode())
    with pytest.raises(RecordError) as e:
        records.read_rif(data, "res.rif")
    assert (e.value.game, e.value.line, e.value.text) == (2, 8, bresult)


@pytest.mark.parametrize("bresult,text", [("1", "B+"), ("1.0", "B+"), ("0", "W+"), ("0.0", "W+"),
                                          ("0.5", "draw"), ("", None)])
def test_rif_scores_read(bresult, text):
    data = RIF_BAD_TOKEN.replace(b"z9", b"i9").replace(b'bresult="0"',
                                                        f'bresult="{bresult}"'.encode())
    rec = records.read_rif(data, "res.rif")[1]
    assert (rec.result or {}).get("text") == text
