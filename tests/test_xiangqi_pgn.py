"""Xiangqi PGN: reading real records (Big5, traditional text, under-specified moves), encodings,
several games per file, export and re-import, broken files, and the 500 real games."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

import qipai
from qipai import RecordError
from qipai.core.formats import read_records
from qipai.games.xiangqi import START_FEN
from qipai.games.xiangqi.pgn import RECORD_OPTIONS, read_pgn, sniff, write_game, write_games

SAMPLES = Path(__file__).parent / "data" / "xiangqi"
SAMPLE_FILES = sorted(SAMPLES.glob("*.pgn"))
REAL = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "xiangqi"


def _provenance_rows() -> dict[str, dict[str, str]]:
    """The table of PROVENANCE.md (copied from the upstream MANIFEST): file -> columns."""
    rows = {}
    for line in (SAMPLES / "PROVENANCE.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0].endswith(".pgn"):
            rows[cells[0]] = {"blob": cells[2], "result": cells[3], "plies": cells[4], "mate": cells[5]}
    return rows


PROVENANCE = _provenance_rows()


def test_sample_is_shipped_with_provenance():
    assert len(SAMPLE_FILES) == 10
    assert set(PROVENANCE) == {p.name for p in SAMPLE_FILES}
    text = (SAMPLES / "PROVENANCE.md").read_text(encoding="utf-8")
    assert "Yu-Han Tseng and Bo-Nian Chen (2026). Chinese Chess Practical Dataset (CCPD)." in text
    assert "CC BY 4.0" in text


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.name)
def test_sample_replays(path):
    data = path.read_bytes()
    fmt, records = read_records(data, str(path))
    assert fmt == "xiangqi-pgn"
    assert len(records) == 1
    rec = records[0]
    row = PROVENANCE[path.name]
    assert rec.game == "xiangqi" and rec.options == RECORD_OPTIONS and rec.position is None
    assert rec.result == {"text": row["result"], "reason": None}
    assert rec.meta["tags"]["Result"] == row["result"]
    assert rec.meta["game_index"] == 1
    assert len(rec.actions) == len(rec.meta["move_lines"]) == int(row["plies"])
    st = qipai.replay(rec, source=str(path))
    assert len(st.log) == int(row["plies"])
    assert st.result.text == row["result"]
    if row["mate"] == "yes":
        assert st.result.reason in ("checkmate", "stalemate")
        assert not st.legal_moves()
    else:
        assert st.result.reason == "unknown"          # a declared result, applied after the moves


def test_sample_text_details():
    rec = read_pgn((SAMPLES / "ccpd_s_0001.pgn").read_bytes(), "s1")[0]
    tags = rec.meta["tags"]
    assert tags["Game"] == "Chinese Chess" and tags["Red"] == "廈門鄭一泓" and tags["Date"] == "1999.1.21"
    assert rec.seats == ["廈門鄭一泓", "浦東葛維蒲"]
    assert rec.actions[:4] == ["兵七進一", "卒７進１", "炮二平三", "象７進５"]
    lines = (SAMPLES / "ccpd_s_0001.pgn").read_bytes().decode("cp950").splitlines()
    for text, line in zip(rec.actions, rec.meta["move_lines"]):
        assert text in lines[line - 1]
    # unescaped quotes inside a tag value are kept
    rec = read_pgn((SAMPLES / "ccpd_s_0124.pgn").read_bytes(), "s124")[0]
    assert rec.meta["tags"]["Event"].startswith('2003年"千年銀荔杯"全國象棋甲級聯賽')


# ----- encodings and layout ---------------------------------------------------------------------

def _sample_text(name: str = "ccpd_s_0034.pgn") -> str:
    return (SAMPLES / name).read_bytes().decode("cp950")


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "gb18030", "cp950"])
def test_encodings_are_detected(encoding):
    text = _sample_text()
    expected = read_pgn(text, "text")[0]
    rec = read_pgn(text.encode(encoding), "bytes")[0]
    assert rec.actions == expected.actions and rec.meta["tags"] == expected.meta["tags"]


def test_simplified_text_in_gbk():
    st = qipai.replay(read_pgn(_sample_text(), "s")[0])
    text = write_game(st, {"Event": "测试赛", "Red": "红方", "Black": "黑方"}, notation_style="chinese")
    rec = read_pgn(text.encode("gbk"), "gbk")[0]
    assert rec.meta["tags"]["Event"] == "测试赛"
    assert len(rec.actions) == len(st.log)
    assert not any(ch in "車馬進後帥將" for move in rec.actions for ch in move)   # simplified only
    assert qipai.replay(rec).log == st.log


def test_several_games_in_one_file():
    a, b = _sample_text("ccpd_s_0034.pgn"), _sample_text("ccpd_s_0030.pgn")
    offset = len(a.splitlines()) + 1
    records = read_pgn((a + "\n" + b).encode("utf-8"), "two")
    assert [r.meta["game_index"] for r in records] == [1, 2]
    one, two = read_pgn(a, "a")[0], read_pgn(b, "b")[0]
    assert records[0].actions == one.actions and records[1].actions == two.actions
    assert records[1].meta["move_lines"] == [n + offset for n in two.meta["move_lines"]]
    for rec in records:
        qipai.replay(rec)


def test_move_text_extras_are_skipped():
    text = """[Game "Chinese Chess"]
[Event "手写"]
{开局评注} 1. 炮二平五 {中炮} 马８进７ $1
2.马二进三 (2. 兵七进一 卒７进１) 车９平８!?
; 整行注释
3. 車一平二 1... 炮８平９
4. R2+6 H2+3 5. b0c2
"""
    rec = read_pgn(text, "x")[0]
    assert rec.actions == ["炮二平五", "马８进７", "马二进三", "车９平８", "車一平二", "炮８平９", "R2+6",
                           "H2+3", "b0c2"]
    assert rec.meta["move_lines"] == [3, 3, 4, 4, 6, 6, 7, 7, 7]
    assert rec.result is None
    assert qipai.replay(rec).log == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7i7", "h0h6", "b9c7",
                                     "b0c2"]


def test_black_to_move_from_a_fen_tag():
    fen = "4k4/R8/9/9/9/9/p8/9/9/1R1K5 b - - 0 1"
    text = f'[Game "Chinese Chess"]\n[FEN "{fen}"]\n[Result "1-0"]\n\n1... 卒1进1 2. 车八进九 1-0\n'
    rec = read_pgn(text, "fen")[0]
    assert rec.position == fen
    st = qipai.replay(rec)
    assert st.log == ["a3a2", "b0b9"]
    assert st.result.text == "1-0" and st.result.reason == "checkmate"
    out = write_game(st)
    assert f'[FEN "{fen}"]' in out and "1... a3a2" in out


def test_start_fen_tag_means_no_position():
    text = f'[FEN "{START_FEN}"]\n1. h2e2 *\n'
    rec = read_pgn(text, "s")[0]
    assert rec.position is None and rec.result is None and rec.actions == ["h2e2"]


# ----- export and re-import ---------------------------------------------------------------------

@pytest.mark.parametrize("style, traditional, fullwidth", [
    ("iccs", False, False), ("wxf", False, False), ("chinese", False, False), ("chinese", True, True)])
@pytest.mark.parametrize("path", SAMPLE_FILES[:5], ids=lambda p: p.name)
def test_export_import_replay(path, style, traditional, fullwidth):
    rec = read_pgn(path.read_bytes(), str(path))[0]
    st = qipai.replay(rec)
    text = write_game(st, rec.meta["tags"], notation_style=style, traditional=traditional,
                      fullwidth=fullwidth)
    back = read_pgn(text.encode("utf-8"), "exported")[0]
    assert back.meta["tags"]["Event"] == rec.meta["tags"]["Event"]
    again = qipai.replay(back)
    assert again.log == st.log
    assert again.result.text == st.result.text


def test_write_games_from_records():
    records = [read_pgn(p.read_bytes(), p.name)[0] for p in SAMPLE_FILES[:3]]
    text = write_games(records, notation_style="chinese")
    back = read_pgn(text, "all")
    assert [r.meta["game_index"] for r in back] == [1, 2, 3]
    for old, new in zip(records, back):
        assert qipai.replay(new).log == qipai.replay(old).log
        assert new.result == old.result
        assert new.seats == old.seats


def test_unfinished_game_is_written_with_star():
    st = qipai.load("xiangqi").new_state()
    for m in ("h2e2", "h9g7"):
        st.apply(m)
    text = write_game(st, notation_style="wxf")
    assert "1. C2=5 H8+7" in text and text.rstrip().endswith("*")
    rec = read_pgn(text, "u")[0]
    assert rec.result is None and qipai.replay(rec).log == ["h2e2", "h9g7"]


# ----- broken files -----------------------------------------------------------------------------

BROKEN_MOVE = """[Game "Chinese Chess"]
[Result "1-0"]
1. 炮二平五 马８进７
2. 马二进三 车９平８
3. 車一平二 炮８@９
1-0

[Game "Chinese Chess"]
1. h2e2 *
"""


def test_garbled_move_names_file_game_line_and_move():
    with pytest.raises(RecordError) as e:
        read_records(BROKEN_MOVE.encode("utf-8"), "broken.pgn")
    err = e.value
    assert (err.source, err.game, err.line, err.move, err.text) == ("broken.pgn", 1, 5, 6, "炮８@９")
    assert "broken.pgn, game 1, line 5, move 6, '炮８@９'" in str(err)


def test_garbled_move_in_the_second_game():
    text = BROKEN_MOVE.replace("炮８@９", "炮８平９").replace("1. h2e2 *", "1. h2e2 h9g7\n2. 相三进五 ???")
    with pytest.raises(RecordError) as e:
        read_pgn(text.encode("utf-8"), "b2.pgn")
    assert (e.value.game, e.value.line, e.value.move, e.value.text) == (2, 10, 4, "???")


def test_illegal_move_is_reported_on_replay_with_its_line():
    text = BROKEN_MOVE.replace("炮８@９", "炮８进９")       # readable, but not a legal move
    rec = read_pgn(text, "illegal.pgn")[0]
    with pytest.raises(RecordError) as e:
        qipai.replay(rec, source="illegal.pgn")
    err = e.value
    assert (err.source, err.game, err.line, err.move, err.text) == ("illegal.pgn", 1, 5, 6, "炮８进９")
    assert "no legal move matches" in err.reason


@pytest.mark.parametrize("text, line, message", [
    ('[Game "Chinese Chess"]\n[Event unquoted]\n1. h2e2 *\n', 2, "malformed tag"),
    ('[Result "2-0"]\n1. h2e2\n', 1, "unknown Result"),
    ('[Result "1-0"]\n1. h2e2 0-1\n', 2, "contradicts"),
    ('[FEN "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"]\n1. e0d0 *\n', 1, "bad FEN"),
    ('[Game "Chinese Chess"]\n1. h2e2 ) h9g7 *\n', 2, "without"),
])
def test_broken_file_structure(text, line, message):
    with pytest.raises(RecordError, match=message) as e:
        read_pgn(text.encode("utf-8"), "bad.pgn")
    assert e.value.source == "bad.pgn" and e.value.game == 1 and e.value.line == line


@pytest.mark.parametrize("text", ['[Event "x"]\n1. h2e2 {never closed\n', '1. h2e2 (h2d2\n'])
def test_unclosed_comment_or_variation(text):
    with pytest.raises(RecordError, match="never closed"):
        read_pgn(text, "open.pgn")


def test_undecodable_bytes():
    with pytest.raises(RecordError, match="cannot decode"):
        read_pgn(b'[Event "\xff\xff\xff"]\n', "junk.pgn")


def test_sniff():
    assert sniff((SAMPLES / "ccpd_s_0001.pgn").read_bytes())
    assert sniff("1. 炮二平五 马８进７\n".encode("gb18030"))
    assert sniff(b"1. h2e2 h9g7\n")
    assert not sniff(b'[{"format": "qipai-record/1"}]')
    assert not sniff(b"(;GM[1]FF[4]SZ[19];B[pd])")
    assert not sniff(b'[Event "chess"]\n1. e4 e5 2. Nf3 *\n')


# ----- every real record in the developer set ---------------------------------------------------

def _real_rows() -> list[dict[str, str]]:
    manifest = REAL / "MANIFEST.tsv"
    if not manifest.exists():
        if os.environ.get("CI"):
            pytest.fail(f"real xiangqi records missing: {REAL}")
        pytest.skip(f"real xiangqi records not present at {REAL}")
    with manifest.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def test_all_real_records_replay():
    rows = _real_rows()
    assert len(rows) == 500
    failures = []
    mates = 0
    for row in rows:
        path = REAL / row["file"]
        try:
            fmt, records = read_records(path.read_bytes(), str(path))
            assert fmt == "xiangqi-pgn" and len(records) == 1
            st = qipai.replay(records[0], source=str(path))
            assert len(st.log) == int(row["num_plies"]), "ply count"
            assert st.result.text == row["Result"], "result"
            ended_by_rules = st.result.reason in ("checkmate", "stalemate")
            assert ended_by_rules == (row["side_to_move_has_no_legal_move_at_end"] == "yes"), "ending"
            mates += ended_by_rules
        except (RecordError, AssertionError) as e:
            failures.append(f"{row['file']}: {e}")
    assert not failures, "\n".join(failures)
    assert mates == 9


@pytest.mark.parametrize("fen, moves, reason", [
    (None, ["h2e2"], "resign"),                                  # an ending outside the rules
    ("3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", ["a0a9"], "checkmate"),
])
def test_termination_tag_keeps_the_ending(fen, moves, reason):
    from qipai.games.xiangqi.pgn import read_pgn, write_game

    state = qipai.load("xiangqi").new_state(position=fen)
    for m in moves:
        state.apply(m)
    if reason == "resign":
        state.resign(1)
    assert state.is_terminal() and state.result.reason == reason
    text = write_game(state)
    assert f'[Termination "{state.result.reason}"]' in text
    back = qipai.replay(read_pgn(text)[0])
    assert (back.result.text, back.result.reason) == (state.result.text, state.result.reason)
    # another program's words ("normal") are not ours to check: read as no reason
    other = text.replace(f'[Termination "{state.result.reason}"]', '[Termination "normal"]')
    assert read_pgn(other)[0].result["reason"] is None
