"""Records with dead-stone and territory marks (TB/TW/AE) are recounted and compared with RE:
by territory for Japanese rules, by area for Chinese rules, either when the rules are not given.
Also the refused or warned result margins and GTP rows with a leading zero."""

from __future__ import annotations

from pathlib import Path

import pytest

from qipai.core.errors import NotationError, RecordError
from qipai.core.record import replay
from qipai.games.go import from_gtp, read_sgf
from qipai.games.go.recount import area_count, territory_count

MARKED = (Path(__file__).resolve().parent / "data" / "go" / "own_5x5_japanese_marks.sgf").read_text()


def read(text: str):
    return read_sgf(text, "marks.sgf")[0]


def test_japanese_record_is_counted_by_territory():
    rec = read(MARKED)
    assert rec.meta["recount"] == {"method": "territory", "black": 6.0, "white": 4.0, "komi": 0.5,
                                   "text": "B+1.5", "dead": ["A3"]}
    state = replay(rec, source="marks.sgf")
    assert state.result.text == "B+1.5"
    # the two counts of the same end position differ: one prisoner and the stone count
    board = state.board
    tb = {from_gtp(p, 5) for p in ("A1", "A2", "A3", "A4", "A5")}
    tw = {from_gtp(p, 5) for p in ("E1", "E3", "E5")}
    assert board.prisoners[2] == 1 and board.prisoners[1] == 0
    assert territory_count(board, tb, tw, 0.5).text == "B+1.5"
    area = area_count(board, tb, tw, 0.5)
    assert (area.black, area.white, area.text) == (13.0, 12.0, "B+0.5")


def test_territory_mismatch_is_reported_as_the_records_own():
    with pytest.raises(RecordError) as e:
        read(MARKED.replace("RE[B+1.5]", "RE[B+0.5]"))
    msg = str(e.value)
    assert "recorded result B+0.5 disagrees with the record's own dead-stone and territory marks" \
           in msg and "territory count: Black 6, White 4, komi 0.5 -> B+1.5" in msg
    assert e.value.line == 9 and "TB[aa]" in msg          # the marks node is named


def test_chinese_record_is_counted_by_area_through_the_referee():
    rec = read(MARKED.replace("RU[Japanese]", "RU[Chinese]").replace("RE[B+1.5]", "RE[B+0.5]"))
    assert rec.meta["recount"]["method"] == "area"
    state = replay(rec)
    assert (state.result.reason, state.result.text) == ("counted", "B+0.5")
    assert state.result.details["dead"] == ["A3"]
    with pytest.raises(RecordError, match=r"area rules\): area count: Black 13, White 12"):
        read(MARKED.replace("RU[Japanese]", "RU[Chinese]"))      # B+1.5 is not the area count


def test_rules_not_given_accepts_either_count():
    no_ru = MARKED.replace("RU[Japanese]", "")
    assert read(no_ru).meta["recount"]["method"] == "territory"
    rec = read(no_ru.replace("RE[B+1.5]", "RE[B+0.5]"))
    assert rec.meta["recount"]["method"] == "area" and replay(rec).result.reason == "counted"
    with pytest.raises(RecordError, match="rules not given: area and territory tried"):
        read(no_ru.replace("RE[B+1.5]", "RE[W+0.5]"))


def test_dead_stones_cleared_with_ae_on_the_last_node():
    ae = MARKED.replace("RU[Japanese]", "RU[Chinese]").replace("RE[B+1.5]", "RE[B+0.5]")
    ae = ae.replace(";TB[aa][ab][ac][ad][ae]TW[ea][ec][ee]", ";AE[ac]")
    state = replay(read(ae))
    assert state.result.text == "B+0.5" and state.result.details["dead"] == ["A3"]
    # Japanese rules without TB/TW: the territory is every region bordered by one colour
    assert read(ae.replace("RU[Chinese]", "RU[Japanese]").replace("RE[B+0.5]", "RE[B+1.5]")
                ).meta["recount"]["text"] == "B+1.5"
    with pytest.raises(RecordError, match="AE clears aa, which holds no stone"):
        read(ae.replace("AE[ac]", "AE[aa]"))
    with pytest.raises(RecordError, match="AE is read only on the last node"):
        read(ae.replace(";B[];W[ac]", ";B[]AE[bc];W[ac]"))


def test_result_margins():
    # a count gives B - W whole and komi is a multiple of 0.25: B+0.3 comes from no count
    with pytest.raises(RecordError, match=r"RE\[B\+0.3\].*multiple of 0.25"):
        read("(;GM[1]SZ[9]KM[6.5]RE[B+0.3];B[ee])")
    # a margin that cannot come from the recorded komi (KM missing or wrong in real records):
    # read, result kept, with a warning
    rec = read("(;GM[1]SZ[9]KM[0]RE[B+1.5];B[ee])")
    assert rec.result["text"] == "B+1.5" and "cannot come from a count with komi 0" in \
        rec.meta["warnings"][0]
    assert "warnings" not in read("(;GM[1]SZ[9]KM[6.5]RE[B+1.5];B[ee])").meta


def test_gtp_row_with_leading_zero_is_refused():
    with pytest.raises(NotationError, match="no leading zero: D4"):
        from_gtp("D04", 19)
    assert from_gtp("D4", 19) == from_gtp("d4", 19)
