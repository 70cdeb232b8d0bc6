"""Gomoku/renju rules: every edge case of rules/gomoku.md §8, the options, bad input, the view."""

from __future__ import annotations

import pytest

import qipai
from qipai.core.errors import IllegalAction, NotationError, OptionError
from qipai.games.gomoku.board import Board
from qipai.games.gomoku.notation import parse_point


def pos(black: str, white: str, to_move: str = "") -> str:
    return f"{black} / {white}" + (f" / {to_move}" if to_move else "")


def play(state, *moves):
    for m in moves:
        state.apply(m)
    return state


def renju(**options):
    return qipai.load("renju", **options)


def snapshot(state):
    return state.to_json(), state.board.diagram(), state.view(None)


# ----- §8 edge cases --------------------------------------------------------------------------

def test_first_move_must_be_centre_in_renju_not_in_freestyle():
    s = renju().new_state()
    with pytest.raises(IllegalAction, match="h8"):
        s.apply("g8")
    assert s.log == []
    f = qipai.load("gomoku", ruleset="freestyle").new_state()
    f.apply("g8")
    assert f.board.get(parse_point("g8")) == "x"


def test_first_move_center_option_in_freestyle():
    f = qipai.load("gomoku", ruleset="freestyle", first_move_center=True).new_state()
    with pytest.raises(IllegalAction):
        f.apply("a1")
    f.apply("h8")


CASE2 = pos("h8 i10 i11 g9 h9", "a1 c1 e1 g1 i1")


def test_double_three_loses():
    s = renju().new_state(position=CASE2)
    s.apply("i9")
    assert s.result.text == "W+" and s.result.reason == "double_three"
    assert s.result.winners == (1,) and s.returns() == [0.0, 1.0]


def test_double_four_two_directions():
    s = renju().new_state(position=pos("h8 i10 i11 i12 f9 g9 h9", "a1 c1 e1 g1 i1 k1 m1"))
    s.apply("i9")
    assert (s.result.text, s.result.reason) == ("W+", "double_four")


def test_double_four_on_one_line():
    s = renju().new_state(position=pos("h8 d10 f10 h10 j10", "a1 c1 e1 g1 i1"))
    s.apply("g10")
    assert (s.result.text, s.result.reason) == ("W+", "double_four")


CASE5 = pos("h8 d6 e6 f6 h6 i6", "a1 c1 e1 g1 i1 k1")


def test_overline_forbidden_for_black_wins_for_white_and_in_freestyle():
    s = renju().new_state(position=CASE5)
    s.apply("g6")
    assert (s.result.text, s.result.reason) == ("W+", "overline")
    w = renju().new_state(position=pos("a1 c1 e1 g1 i1 k1 m1", "d6 e6 f6 h6 i6 o15"))
    w.apply("g6")
    assert (w.result.text, w.result.reason) == ("W+", "five")
    assert len(w.result.details["line"]) == 6
    f = qipai.load("gomoku", ruleset="freestyle").new_state(position=CASE5)
    f.apply("g6")
    assert (f.result.text, f.result.reason) == ("B+", "five")


def test_overline_in_standard_gomoku_neither_wins_nor_loses():
    s = qipai.load("gomoku", ruleset="standard").new_state(position=CASE5)
    s.apply("g6")
    assert s.result is None
    s2 = qipai.load("gomoku", ruleset="standard").new_state(position=pos("h8 d6 e6 f6 g6", "a1 c1 e1 g1 i1"))
    s2.apply("h6")
    assert s2.result.text == "B+"


def test_five_beats_forbidden_shape():
    s = renju().new_state(position=pos("h8 d12 e12 f12 g12 h13 h14 i11 j10",
                                       "a1 c1 e1 g1 i1 k1 m1 o1 a3"))
    assert s.board.forbidden(parse_point("h12")) is None
    s.apply("h12")
    assert (s.result.text, s.result.reason) == ("B+", "five")
    assert s.result.details["line"] == ["d12", "e12", "f12", "g12", "h12"]


def test_four_three_is_legal():
    s = renju().new_state(position=pos("h8 i4 j4 k4 l5 l6", "h4 a1 c1 e1 g1 i1"))
    s.apply("l4")
    assert s.result is None


def test_blocked_three_is_not_a_three():
    s = renju().new_state(position=pos("h8 d11 d12 e10 f10", "d13 a1 c1 e1 g1"))
    s.apply("d10")
    assert s.result is None


def test_split_three_counts():
    s = renju().new_state(position=pos("h8 e6 f6 c7 c8", "a1 c1 e1 g1 i1"))
    s.apply("c6")
    assert s.result.reason == "double_three"


def test_white_is_never_forbidden():
    # White makes the case-2 double three and the case-3 double four: play goes on
    s = renju().new_state(position=pos("a1 c1 e1 g1 i1 k1", "h8 i10 i11 g9 h9"))
    s.apply("i9")
    assert s.result is None
    assert s.view(None)["forbidden"] is not None        # Black to move again: hints shown


def test_three_whose_extension_makes_five_is_not_a_three():
    # e11: vertical e8 e9 _ e11 can only grow through e10, which makes a five on row 10
    # (c10 d10 e10 f10 g10): that is no three (§3.2 condition 1); the other lines hold a three
    # (d12 e11 f10) and nothing else, so e11 is legal.
    board = Board()
    for name in "c10 d10 f10 g10 d12 e8 e9".split():
        board.place(parse_point(name), "x")
    assert board.forbidden(parse_point("e11")) is None


def test_three_whose_extension_is_forbidden_is_not_a_three():
    # Black k9: horizontal j9 k9 _ m9 is a three (l9 makes a straight four). The anti-diagonal
    # i11 _ k9 l8 could become a straight four only through j10, and with k9 on the board j10
    # is a double four (row f10 g10 h10 _ j10 and the straight four i11 j10 k9 l8): not a three
    # (§3.2 condition 3), so k9 is legal. Without h10, j10 is an ordinary point and k9 a
    # double three. (Found by a random search, confirmed by tests/gomoku_reference.py.)
    board = Board()
    for name in "f10 g10 h10 i11 j9 l8 m9".split():
        board.place(parse_point(name), "x")
    k9 = parse_point("k9")
    assert board.forbidden(k9) is None
    board.place(k9, "x")
    assert board.forbidden(parse_point("j10")) == "double_four"
    board.remove(k9)
    board.remove(parse_point("h10"))
    assert board.forbidden(k9) == "double_three"


def test_designated_opening():
    s = renju(opening="designated", opening_name="D4").new_state()
    assert s.board.get(parse_point("h8")) == "x"
    assert s.board.get(parse_point("h9")) == "o"
    assert s.board.get(parse_point("i9")) == "x"
    assert s.current_player == 1 and s.to_move == "o"
    s.apply("j9")
    indirect = renju(opening="designated", opening_name="I13").new_state()
    assert indirect.board.get(parse_point("i9")) == "o"
    assert indirect.board.get(parse_point("f6")) == "x"


def test_designated_needs_a_name_and_names_need_designated():
    with pytest.raises(OptionError):
        renju(opening="designated")
    with pytest.raises(OptionError):
        renju(opening_name="D1")
    with pytest.raises(OptionError):
        renju(opening="designated", opening_name="D14")


def test_swap_after_move_three():
    s = renju(opening="swap3").new_state()
    play(s, "h8", "h9")
    with pytest.raises(IllegalAction, match="swap"):
        s.apply("swap")                           # at move 3
    s.apply("j10")
    assert s.current_player == 1 and "swap" in [str(a) for a in s.legal_actions()]
    s.apply("swap")
    assert s.view(None)["colours"] == ["white", "black"]
    assert s.current_player == 0 and s.to_move == "o"     # P1 now White makes move 4
    s.apply("g7")
    assert s.current_player == 1                          # P2 (Black) makes move 5
    with pytest.raises(IllegalAction):
        s.apply("swap")
    s2 = renju(opening="swap3").new_state()
    play(s2, "h8", "h9", "j10", "g7")
    with pytest.raises(IllegalAction):
        s2.apply("swap")                          # after move 4


def test_swap_area_limits():
    s = renju(opening="swap3").new_state()
    s.apply("h8")
    with pytest.raises(IllegalAction, match="3x3"):
        s.apply("h11")
    s.apply("h9")
    with pytest.raises(IllegalAction, match="5x5"):
        s.apply("k8")
    s.apply("j10")
    free = renju(opening="swap3", rif_area_limits=False).new_state()
    play(free, "h8", "h11", "k8")


def test_two_offers_must_differ_by_symmetry():
    s = renju(opening="two5").new_state()
    play(s, "h8", "h9", "h10", "h7")
    assert s.phase() == "offer" and s.view(0)["choices"]["offer"]
    snap = snapshot(s)
    with pytest.raises(IllegalAction, match="symmetric"):
        s.apply("offer:g11,i11")
    with pytest.raises(IllegalAction, match="offer"):
        s.apply("g11")
    assert snapshot(s) == snap
    s.apply("offer:g11,j11")
    assert s.current_player == 1 and s.view(1)["choices"]["choose"] == ["g11", "j11"]
    with pytest.raises(IllegalAction):
        s.apply("choose:k11")
    s.apply("choose:j11")
    assert s.board.get(parse_point("j11")) == "x" and s.board.get(parse_point("g11")) == "."
    assert s.current_player == 1 and s.to_move == "o"      # White makes move 6
    s.apply("a1")
    assert s.current_player == 0


def test_offer_legal_actions_are_all_the_valid_pairs():
    s = renju(opening="two5").new_state()
    play(s, "h8", "h9", "h10", "h7")
    offers = s.legal_actions()
    assert all(a.kind == "offer" for a in offers)
    texts = {str(a) for a in offers}
    assert "offer:g11,j11" in texts and "offer:g11,i11" not in texts
    # mirror-symmetric only: 11 empty points on column h, the other 210 in 105 mirror pairs
    assert len(offers) == 221 * 220 // 2 - 105


def test_swap3_two5_and_designated_two5():
    s = renju(opening="swap3_two5").new_state()
    play(s, "h8", "i9", "j10", "swap", "g9")
    assert s.phase() == "offer" and s.current_player == 1
    s.apply("offer:j8,k11")
    s.apply("choose:k11")
    d = renju(opening="designated_two5", opening_name="I2").new_state()
    d.apply("h10")
    assert d.phase() == "offer"


def test_claim_mode():
    s = renju(forbidden_handling="claim").new_state(position=CASE2)
    s.apply("i9")
    assert s.result is None and s.current_player == 1
    assert s.view(1)["choices"]["claim"] and s.view(1)["forbidden"] is None
    won = s.clone()
    won.apply("claim_forbidden")
    assert (won.result.text, won.result.reason) == ("W+", "double_three")
    s.apply("a15")                               # White plays on: the right lapses
    s.apply("o15")
    s.apply("a14")
    with pytest.raises(IllegalAction, match="claim"):
        s.apply("claim_forbidden")


def test_claim_against_a_legal_stone_is_rejected_once():
    s = renju(forbidden_handling="claim").new_state(position=CASE2)
    s.apply("a15")
    s.apply("claim_forbidden")
    assert s.result is None and s.current_player == 1      # White keeps the turn
    with pytest.raises(IllegalAction):
        s.apply("claim_forbidden")
    s.apply("b15")


def test_reject_mode_refuses_and_changes_nothing():
    s = renju(forbidden_handling="reject").new_state(position=CASE2)
    snap = snapshot(s)
    with pytest.raises(IllegalAction, match="double three"):
        s.apply("i9")
    assert snapshot(s) == snap
    assert "i9" not in {str(a) for a in s.legal_actions()}
    s.apply("j9")


def test_consecutive_passes_draw():
    s = renju().new_state()
    play(s, "h8", "pass", "pass")
    assert (s.result.text, s.result.reason, s.returns()) == ("draw", "double_pass", [0.5, 0.5])
    t = renju().new_state()
    play(t, "h8", "pass", "h9", "pass")
    assert t.result is None


def test_pass_option_and_no_pass_before_the_first_stone():
    s = renju().new_state()
    with pytest.raises(IllegalAction):
        s.apply("pass")
    n = renju(allow_pass=False).new_state()
    n.apply("h8")
    with pytest.raises(IllegalAction, match="allow_pass"):
        n.apply("pass")


def _pattern(col: int, row: int) -> str:
    """A full-board colouring whose runs are at most two long in every direction."""
    return "x" if (col + 2 * row) % 4 < 2 else "o"


def _pattern_position(holes: set[tuple[int, int]], to_move: str) -> str:
    cols = "abcdefghijklmno"
    blacks = [f"{cols[c]}{r + 1}" for r in range(15) for c in range(15)
              if (c, r) not in holes and _pattern(c, r) == "x"]
    whites = [f"{cols[c]}{r + 1}" for r in range(15) for c in range(15)
              if (c, r) not in holes and _pattern(c, r) == "o"]
    return pos(" ".join(blacks), " ".join(whites), to_move)


def test_board_full_draw():
    blacks = sum(_pattern(c, r) == "x" for r in range(15) for c in range(15))
    assert blacks == 113                          # so the last empty point is a black one
    g = qipai.load("gomoku", ruleset="freestyle")
    s = g.new_state(position=_pattern_position({(0, 0)}, "b"))
    assert s.result is None
    s.apply("a1")
    assert (s.result.text, s.result.reason, s.returns()) == ("draw", "board_full", [0.5, 0.5])


def test_dead_draw_detection_option_changes_the_outcome():
    # every 5-point window of the pattern holds at least two stones of each colour; holes at
    # least five points apart leave at least one of each, so no window is free for anyone
    holes = {(c, r) for c in (0, 5, 10) for r in (0, 5, 10)}
    text = _pattern_position(holes, "b")
    assert _pattern(0, 0) == "x"
    on = qipai.load("gomoku", ruleset="freestyle").new_state(position=text)
    off = qipai.load("gomoku", ruleset="freestyle", dead_draw_detection=False).new_state(position=text)
    on.apply("a1")
    off.apply("a1")
    assert (on.result.text, on.result.reason) == ("draw", "dead_draw")
    assert off.result is None


# ----- bad input ------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "p8", "h16", "h0", "z", "offer:h9", "offer:h9,h9", "choose",
                                  "h8h9", 17])
def test_bad_action_text_refused(text):
    s = renju().new_state()
    snap = snapshot(s)
    with pytest.raises(IllegalAction):
        s.apply(text)
    assert snapshot(s) == snap


def test_occupied_point_and_wrong_seat_refused():
    s = play(renju().new_state(), "h8")
    snap = snapshot(s)
    with pytest.raises(IllegalAction, match="occupied"):
        s.apply("h8")
    with pytest.raises(IllegalAction, match="not to act"):
        s.apply("h9", seat=0)
    assert snapshot(s) == snap


def test_moves_after_the_end_refused():
    s = renju().new_state(position=CASE2)
    s.apply("i9")
    with pytest.raises(IllegalAction, match="over"):
        s.apply("a15")


def test_bad_positions():
    for text in ("h8 h8 / a1", "h8 / a1 / q", "h8 i8 j8 / a1", "x" * 15):
        with pytest.raises(NotationError):
            renju().new_state(position=text)


def test_unknown_option_values():
    with pytest.raises(OptionError):
        qipai.load("gomoku", ruleset="caro")
    with pytest.raises(OptionError):
        qipai.load("gomoku", forbidden_handling="warn")


# ----- results, resignation, view --------------------------------------------------------------

def test_resign_and_result_text_follow_colours_after_a_swap():
    s = renju(opening="swap3").new_state()
    play(s, "h8", "h9", "j10", "swap")
    s.resign(0)                                  # seat 0 now holds White
    assert s.result.text == "B+" and s.result.winners == (1,) and s.returns() == [0.0, 1.0]
    d = renju().new_state()
    d.agree_draw()
    assert d.result.text == "draw" and d.returns() == [0.5, 0.5]


def test_view_for_a_web_board():
    s = renju().new_state(position=pos("h8 i10 i11 g9 h9", "a1 c1 e1 g1 i1"))
    v = s.view(0)
    assert v["to_move"] == "black" and v["to_act"] == [0] and v["phase"] == "play"
    assert len(v["board"]) == 15 and v["board"][0] == "." * 15
    assert v["forbidden"]["i9"] == "double_three"
    s.apply("a15")
    v = s.view(1)
    assert v["last_move"] == "a15" and v["forbidden"] is None
    assert s.view(1, forbidden=True)["forbidden"]["i9"] == "double_three"
    assert v["stones"][-1] == {"point": "a15", "colour": "black", "n": 1}
    first = renju().new_state().view(None)
    assert first["area"] == ["h8"] and first["last_move"] is None


def test_json_round_trip_and_alias():
    g = qipai.load("renju", opening="swap3_two5")
    s = play(g.new_state(), "h8", "h9", "j10", "swap", "g7", "offer:k11,e6", "choose:e6", "f7")
    again = g.state_from_json(s.to_json())
    assert again.board.diagram() == s.board.diagram() and again.black_seat == s.black_seat
    assert again.log == s.log and again.current_player == s.current_player
    assert qipai.load("renju").options["ruleset"] == "renju"
    assert qipai.load("renju").id == "gomoku"
