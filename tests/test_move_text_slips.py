"""Which typed texts are written as a move at all (issue 13): a slip such as ``hello`` is no
move and is refused at a table without counting toward the illegal-move limit; a move written
right but illegal now (``e2e9``, a point taken) is a move text and counts (rules/xiangqi.md §4.4)."""

from qipai import load as get_game


def test_xiangqi_reads_iccs_wxf_and_chinese_as_moves_and_nothing_else():
    g = get_game("xiangqi")
    for text in ("h2e2", "e2e9", "C2=5", "H8+7", "炮二平五", "1. h2e2"):
        assert g.is_move_text(text), text
    for text in ("hello", "zz", "", "e2e", "h2e2e2", "炮二平"):
        assert not g.is_move_text(text), text


def test_go_reads_points_pass_and_marks_as_moves_and_nothing_else():
    g = get_game("go", board_size=9)
    for text in ("D4", "pass", "dead C3", "done"):
        assert g.is_move_text(text), text
    for text in ("hello", "zz", "Z99"):
        assert not g.is_move_text(text), text
