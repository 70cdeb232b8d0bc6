"""Xiangqi move rules and endings: rules/xiangqi.md sections 3-4 and the edge cases of section 8."""

from __future__ import annotations

import pytest

import qipai
from qipai import IllegalAction, NotationError
from qipai.games.xiangqi import START_FEN, Move, XiangqiState, divide


def new(fen: str | None = None, **options) -> XiangqiState:
    return qipai.load("xiangqi", **options).new_state(position=fen)


def moves_from(st: XiangqiState, square: str) -> set[str]:
    return {str(m) for m in st.legal_moves() if str(m)[:2] == square}


def legal(st: XiangqiState, text: str) -> bool:
    return Move.parse(text) in st.legal_moves()


# ----- section 8 edge cases -------------------------------------------------------------

def test_8_2_horse_leg():
    st = new()
    assert not legal(st, "b0d1")
    assert legal(st, "b0c2") and legal(st, "b0a2")
    with pytest.raises(IllegalAction, match="leg c0"):
        st.apply("b0d1")


def test_8_3_cannon_screens():
    st = new()
    assert legal(st, "h2h9")
    assert not legal(st, "h2h7")
    assert not legal(st, "h2h8")
    st.apply("h2h9")
    assert st.piece_at(Move.parse("h2h9").to_sq) == "C"
    assert st.fen().split()[0].split("/")[0] == "rnbakabCr"


def test_8_4_pawn_before_river():
    st = new()
    assert not legal(st, "a3b3")
    assert legal(st, "a3a4")
    assert moves_from(st, "a3") == {"a3a4"}


def rule_moves(fen: str, square: str) -> set[str]:
    """Moves of the piece on ``square`` by the move rules alone (perft ignores game endings)."""
    return {m for m in divide(fen, 1) if m[:2] == square}


def test_8_5_elephant():
    assert legal(new(), "c0e2")
    fen = "4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1"
    assert rule_moves(fen, "c4") == {"c4a2", "c4e2"}
    # the same with a black pawn on the board, so that the game is not drawn on loading
    st = new("4k4/9/9/p8/9/2B6/9/9/9/3K5 w - - 0 1")
    assert not legal(st, "c4e6") and not legal(st, "c4a6")
    assert moves_from(st, "c4") == {"c4a2", "c4e2"}
    with pytest.raises(IllegalAction, match="river"):
        st.apply("c4e6")


def test_positions_8_5_to_8_7_are_drawn_on_loading():
    # only kings, advisors and elephants: section 4.2.2 ends the game at once
    for fen in ("4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1", "4k4/9/9/9/9/9/9/3A5/9/3K5 w - - 0 1",
                "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1"):
        st = new(fen)
        assert st.result.reason == "insufficient_material" and st.legal_moves() == []


def test_elephant_eye_blocked():
    st = new("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w - - 0 1")     # horse d1 sits on the eye
    assert moves_from(st, "c0") == {"c0a2"}


def test_8_6_advisor():
    assert legal(new(), "d0e1")
    assert rule_moves("4k4/9/9/9/9/9/9/3A5/9/3K5 w - - 0 1", "d2") == {"d2e1"}
    st = new("4k4/9/9/p8/9/9/9/3A5/9/3K5 w - - 0 1")
    assert moves_from(st, "d2") == {"d2e1"}
    with pytest.raises(IllegalAction, match="palace"):
        st.apply("d2c3")


def test_8_7_flying_general_piece_between_kings_is_pinned():
    assert set(divide("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", 1)) == {"e0d0", "e0f0"}
    st = new("4k4/9/9/p8/9/9/9/9/4A4/4K4 w - - 0 1")
    assert {str(m) for m in st.legal_moves()} == {"e0d0", "e0f0"}
    with pytest.raises(IllegalAction, match="face"):
        st.apply("e1d2")


def test_king_may_not_step_onto_an_open_file_facing_the_other_king():
    st = new("3k5/9/9/p8/9/9/9/9/9/4K4 w - - 0 1")
    assert not legal(st, "e0d0")
    assert legal(st, "e0f0") and legal(st, "e0e1")


def test_8_8_stalemate_loses():
    st = new("4k4/9/4P4/9/9/9/9/9/9/3R1K3 b - - 0 1")
    assert not st.in_check()
    assert st.is_terminal()
    assert (st.result.text, st.result.reason) == ("1-0", "stalemate")
    assert st.returns() == [1.0, 0.0]
    assert st.current_player is None and st.turn == 1


def test_8_9_checkmate():
    st = new("1R2k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1")
    assert st.in_check()
    assert (st.result.text, st.result.reason) == ("1-0", "checkmate")
    assert st.legal_moves() == []


def test_checkmate_by_a_move():
    st = new("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1")
    assert not st.is_terminal()
    st.apply("b0b9")
    assert (st.result.text, st.result.reason, st.result.winners) == ("1-0", "checkmate", (0,))


def test_checkmate_escape_blocked_only_by_flying_general():
    # pawn e8 checks the king e9; the rook f8 guards the pawn and f9; d9 is free of attacks
    # but would face the red king on d0, so it is mate
    st = new("4k4/4PR3/9/9/9/9/9/9/9/3K5 b - - 0 1")
    assert (st.result.text, st.result.reason) == ("1-0", "checkmate")
    # with the red king on e0 instead, d9 is an escape
    st = new("4k4/4PR3/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert st.in_check() and {str(m) for m in st.legal_moves()} == {"e9d9"}


def test_8_10_insufficient_material_at_load_and_after_a_capture():
    st = new("4k4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 0 1")
    assert (st.result.text, st.result.reason) == ("1/2-1/2", "insufficient_material")
    assert st.returns() == [0.5, 0.5]
    st = new("4k4/4a4/9/9/9/9/9/5r3/4A4/3K5 w - - 0 1")
    assert not st.is_terminal()
    st.apply("e1f2")
    assert (st.result.text, st.result.reason) == ("1/2-1/2", "insufficient_material")


def test_8_11_crossed_pawn():
    st = new("4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1")
    assert moves_from(st, "e5") == {"e5d5", "e5f5", "e5e6"}
    assert not legal(st, "e5e4")


def test_pawn_on_the_last_rank_moves_only_sideways():
    st = new("3k4P/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    assert moves_from(st, "i9") == {"i9h9"}


def test_black_pawn_moves_down():
    st = new("4k4/9/9/2p6/9/9/9/9/9/3K5 b - - 0 1")
    assert moves_from(st, "c6") == {"c6c5"}
    st = new("4k4/9/9/9/9/2p6/9/9/9/3K5 b - - 0 1")
    assert moves_from(st, "c4") == {"c4c3", "c4b4", "c4d4"}


def test_8_17_king_capture_mode():
    fen = "3k5/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1"
    with pytest.raises(NotationError) as e:
        new(fen)
    assert e.value.field == "board"
    st = new(fen, end_rule="king_capture")
    assert legal(st, "d0d9")
    st.apply("d0d9")
    assert (st.result.text, st.result.reason) == ("1-0", "king_captured")


def test_king_capture_mode_allows_leaving_the_king_attacked_and_capturing_it():
    st = new("4k4/9/9/9/9/9/P8/9/9/3K5 b - - 0 1", end_rule="king_capture")
    # black king e9, red king d0: black may step onto the d-file facing the red king
    assert legal(st, "e9d9")
    st.apply("e9d9")
    st.apply("d0d9")
    assert (st.result.text, st.result.reason, st.returns()) == ("1-0", "king_captured", [1.0, 0.0])


# ----- check, pins, the cannon's screen --------------------------------------------------

def test_piece_may_not_become_the_screen_of_a_cannon_aimed_at_its_king():
    st = new("3k5/9/9/9/4c4/9/9/R8/9/4K4 w - - 0 1")
    assert not st.in_check()
    assert not legal(st, "a2e2")
    assert legal(st, "a2d2") and legal(st, "a2a9")
    with pytest.raises(IllegalAction, match="check"):
        st.apply("a2e2")


def test_removing_one_of_two_screens_exposes_the_king_to_the_cannon():
    st = new("3k5/9/9/9/4c4/9/9/4R4/4A4/4K4 w - - 0 1")
    assert not st.in_check()
    assert moves_from(st, "e2") == {"e2e3", "e2e4", "e2e5"}
    assert moves_from(st, "e1") == set()


def test_cannon_check_through_one_screen_and_its_answers():
    st = new("9/4k4/9/9/4c4/9/9/9/4A4/4K4 w - - 0 1")
    assert st.in_check()
    got = {str(m) for m in st.legal_moves()}
    # the king steps aside, or the advisor (the screen) steps off the file
    assert got == {"e0d0", "e0f0", "e1d0", "e1f0", "e1d2", "e1f2"}


def test_rook_pin():
    st = new("9/4k4/9/9/4r4/9/9/9/4N4/4K4 w - - 0 1")
    assert moves_from(st, "e1") == set()
    assert moves_from(st, "e0") == {"e0d0", "e0f0"}


def test_horse_leg_blocker_is_pinned():
    # the black horse g1 would attack e0 through its leg f1, where a red rook stands: the rook
    # may only capture the horse
    st = new("3k5/9/9/9/9/9/9/9/5Rn2/4K4 w - - 0 1")
    assert not st.in_check()
    assert moves_from(st, "f1") == {"f1g1"}
    with pytest.raises(IllegalAction, match="check"):
        st.apply("f1f5")


def test_horse_check_and_pawn_check():
    assert new("3k5/9/9/9/9/9/9/9/6n2/4K4 w - - 0 1").in_check()
    assert new("3k5/9/9/9/9/9/9/9/4p4/4K4 w - - 0 1").in_check()
    # a crossed black pawn beside the king attacks it too
    assert new("3k5/9/9/9/9/9/9/9/9/3pK4 w - - 0 1").in_check()


def test_in_check_for_black():
    st = new("4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1")
    st.apply("i0i9")
    assert st.in_check() and st.turn == 1


# ----- no-capture limit -------------------------------------------------------------------

def test_no_capture_limit_draw():
    st = new(no_capture_plies=4)
    for mv in ("b0c2", "b9c7", "c2b0"):
        st.apply(mv)
        assert not st.is_terminal()
    st.apply("c7b9")
    assert (st.result.text, st.result.reason) == ("1/2-1/2", "no_capture_limit")


def test_no_capture_counter_resets_on_capture():
    st = new(no_capture_plies=4)
    for mv in ("b0c2", "b9c7", "h2h9", "i9h9"):
        st.apply(mv)
    assert st.no_capture == 0
    for mv in ("c2b0", "c7b9", "b0c2"):
        st.apply(mv)
        assert not st.is_terminal()
    st.apply("b9c7")
    assert st.no_capture == 4 and st.result.reason == "no_capture_limit"


def test_no_capture_limit_zero_disables():
    st = new(no_capture_plies=0, repetition_rule="none")
    for _ in range(40):
        for mv in ("b0c2", "b9c7", "c2b0", "c7b9"):
            st.apply(mv)
    assert not st.is_terminal() and st.no_capture == 160


def test_mate_on_the_last_ply_beats_the_no_capture_limit():
    st = new("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 3 1", no_capture_plies=4)
    st.apply("b0b9")
    assert (st.result.text, st.result.reason) == ("1-0", "checkmate")


def test_no_capture_counter_at_the_limit_on_loading_ends_the_game():
    st = new("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 120 70")
    assert st.result.reason == "no_capture_limit"
    assert not new("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 119 70").is_terminal()


# ----- the API ------------------------------------------------------------------------------

def test_start_state_basics():
    st = new()
    assert st.fen() == START_FEN
    assert st.turn == 0 and st.current_player == 0
    assert len(st.legal_moves()) == 44 and st.legal_moves() == st.legal_actions()
    assert st.piece_at(4) == "K" and st.piece_at(85) == "k" and st.piece_at(40) is None
    assert not st.in_check()
    st.apply(Move.parse("h2e2"))
    assert st.turn == 1 and st.current_player == 1
    assert st.fen() == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    st.apply("h9g7")
    assert st.fen().endswith("w - - 2 2")


def test_move_object():
    m = Move.parse("H2-E2")
    assert m == Move(25, 22) == Move.parse("h2e2")
    assert (m.from_sq, m.to_sq) == (25, 22)
    assert str(m) == "h2e2"
    assert hash(m) == hash(Move(25, 22))
    assert len({m, Move(25, 22)}) == 1
    for bad in ("h2", "j2e2", "h2e", "h10e2", "", "h2e2e"):
        with pytest.raises(NotationError):
            Move.parse(bad)


def test_parse_action_iccs_and_other_notations():
    game = qipai.load("xiangqi")
    st = game.new_state()
    assert game.parse_action("h2e2", st) == Move(25, 22)
    assert game.parse_action("H2-E2") == Move(25, 22)
    with pytest.raises(IllegalAction):
        game.parse_action("zzz", st)
    with pytest.raises(IllegalAction):
        game.parse_action("not a move")


def test_wxf_and_chinese_text_reach_the_notation_module():
    pytest.importorskip("qipai.games.xiangqi.notation")
    game = qipai.load("xiangqi")
    st = game.new_state()
    assert game.parse_action("C2=5", st) == Move.parse("h2e2")      # §8.16
    assert game.parse_action("H8+7", st) == Move.parse("b0c2")
    st.apply("炮二平五")
    assert st.log == ["h2e2"]


def test_clone_is_independent():
    st = new()
    st.apply("h2e2")
    c = st.clone()
    c.apply("h9g7")
    assert st.fen() != c.fen() and st.log == ["h2e2"] and c.log == ["h2e2", "h9g7"]
    assert len(st.history) == 2 and len(c.history) == 3


def test_view_is_json_ready():
    import json

    st = new()
    st.apply("h2e2")
    v = st.view(1)
    json.dumps(v)
    assert v["fen"] == st.fen() and v["last_move"] == "h2e2" and v["turn"] == 1
    assert v["board"][7] == ".C..C...."
    assert len(v["board"]) == 10 and all(len(r) == 9 for r in v["board"])
    assert set(v["legal_moves"]) == {str(m) for m in st.legal_moves()}
    assert v["in_check"] is False and v["result"] is None
    assert st.view(None)["fen"] == v["fen"]
