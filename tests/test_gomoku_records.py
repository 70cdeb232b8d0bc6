"""Gomoku record formats: renju lines (plain and .tar.xz), Piskvork .rec, RenjuNet RIF, the
forbidden-point test vectors, writers, and replays of the real sets in ../shared/data."""

from __future__ import annotations

import io
import lzma
import tarfile
from pathlib import Path

import pytest

from qipai.core.errors import RecordError
from qipai.core.formats import read_records
from qipai.core.record import replay
from qipai.games.gomoku import records
from qipai.games.gomoku.board import point_name

from .xiangqi_peers import shared_dir

DATA = Path(__file__).resolve().parent / "data" / "gomoku"


def test_formats_detected_by_content():
    for name, fmt in (("sample.renju", "renju-lines"), ("sample.rec", "piskvork-rec"),
                      ("sample.rif", "renjunet-rif")):
        got, recs = read_records((DATA / name).read_bytes(), name)
        assert got == fmt and recs
        for r in recs:
            replay(r, source=name)


def test_renju_lines_read_and_round_trip():
    recs = records.read_lines((DATA / "sample.renju").read_bytes(), "sample.renju")
    assert [r.meta["recorded_result"] for r in recs] == ["black", "white", "white", "unknown"]
    assert recs[3].actions[-1] == "pass" and recs[3].result is None
    states = [replay(r) for r in recs]
    assert states[0].result.reason == "five" and states[2].result.reason == "unknown"
    text = records.write_lines(states)
    assert text == (DATA / "sample.renju").read_text()


def test_tar_xz_archive_read_directly():
    raw = (DATA / "sample.renju").read_bytes()
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz") as tar:
        info = tarfile.TarInfo("games.renju")
        info.size = len(raw)
        tar.addfile(info, io.BytesIO(raw))
    data = buf.getvalue()
    fmt, recs = read_records(data, "games.tar.xz")
    assert fmt == "renju-lines-tar" and len(recs) == 4
    assert recs[0].meta["member"] == "games.tar.xz:games.renju"
    assert not records.sniff_tar_xz(lzma.compress(b"not a tar"))


def test_malformed_records_name_file_line_and_move():
    with pytest.raises(RecordError) as e:
        records.read_lines(b"black h8 h9\nwhite h8 z9\n", "bad.renju")
    assert (e.value.source, e.value.line, e.value.move, e.value.text) == ("bad.renju", 2, 2, "z9")
    with pytest.raises(RecordError, match="line 4"):
        records.read_rec(b"a\nb\n7,7,0\n7,x,0\n0\n", "bad.rec")
    with pytest.raises(RecordError, match="outside"):
        records.read_rec(b"a\nb\n7,7,0\n19,3,0\n0\n", "big.rec")
    with pytest.raises(RecordError, match="XML"):
        records.read_rif(b"<database><games><game></database>", "bad.rif")
    rec = records.read_lines(b"black h8 h9 h8\n", "occupied.renju")[0]
    with pytest.raises(RecordError, match="occupied") as e:
        replay(rec, source="occupied.renju")
    assert e.value.move == 3 and e.value.line == 1


def test_result_contradicting_the_board_is_classified_apart():
    five = "h8 a1 i8 a2 j8 a3 k8 a4 l8"
    ok, wrong, early, bad = records.read_lines(
        f"black {five}\nwhite {five}\nblack {five} a5\nblack h8 h8\n".encode())
    assert records.classify(ok)[0] == "ok"
    cat, err = records.classify(wrong)
    assert cat == "result_contradicts_board" and "recorded result W+" in err.reason
    assert records.classify(early)[0] == "moves_after_end"
    assert records.classify(bad)[0] == "illegal_move"
    with pytest.raises(RecordError, match="recorded result W\\+ but the rules give B\\+"):
        replay(wrong)


def test_forbidden_stone_ends_a_renju_record():
    # a black double three on move 9 (case 2 of the rule file's edge cases), recorded as a
    # white win: confirmed; recorded as a black win: contradicts the board
    moves = "h8 a1 i10 c1 i11 e1 g9 g1 h9 i1 i9"
    assert records.classify(records.read_lines(f"white {moves}".encode())[0])[0] == "ok"
    cat, _ = records.classify(records.read_lines(f"black {moves}".encode())[0])
    assert cat == "result_contradicts_board"


def test_rec_coordinates_and_writer():
    rec = records.read_rec((DATA / "sample.rec").read_bytes(), "sample.rec")[0]
    assert rec.seats == ["greedy-7", "greedy-8"] and rec.options["ruleset"] == "freestyle"
    assert rec.actions[0] == "h8"          # 7,7 is the centre
    lines = (DATA / "sample.rec").read_text().splitlines()
    x, y, _ = map(int, lines[3].split(","))
    assert rec.actions[1] == point_name((14 - y) * 15 + x)
    state = replay(rec)
    assert records.write_rec(state, engines=tuple(rec.seats)) == (DATA / "sample.rec").read_text()


def test_rif_reader_tables_and_writer_round_trip():
    recs = records.read_rif((DATA / "sample.rif").read_bytes(), "sample.rif")
    assert recs[0].seats == ["Ann Lee", "Bo Ma"] and recs[1].seats == ["Bo Ma", "Ann Lee"]
    assert recs[0].meta["rule"] == "RIF" and recs[0].options["ruleset"] == "renju"
    assert recs[0].result["text"] == "B+"
    states = [replay(r) for r in recs]
    again = records.read_rif(records.write_rif(states, seats=[tuple(r.seats) for r in recs]).encode())
    assert [r.actions for r in again] == [r.actions for r in recs]
    assert [r.seats for r in again] == [r.seats for r in recs]


def test_rif_gomoku_rule_names():
    xml = (b'<database><rules><rule id="5" name="Gomoku" /><rule id="6" name="Standard Gomoku" />'
           b'</rules><games><game id="1" rule="5" bresult="0.5"><move>a1 b2</move></game>'
           b'<game id="2" rule="6" bresult=""><move>h8</move></game></games></database>')
    free, std = records.read_rif(xml)
    assert free.options["ruleset"] == "freestyle" and free.result["text"] == "draw"
    assert std.options["ruleset"] == "standard" and std.result is None


# ----- the shared real sets -------------------------------------------------------------------

def test_forbidden_point_fixtures():
    renju = shared_dir("renju")
    n = 0
    for path in sorted(renju.glob("*.pos")):
        board, points = records.read_pos_diagram(path.read_text())
        kind = "double_four" if path.name.split("_")[-1].startswith("df") else "double_three"
        assert points, path
        for p in points:
            assert board.forbidden(p) == kind, (path.name, point_name(p))
            n += 1
    for path in sorted(renju.glob("*.json")):
        for case in records.read_forbidden_cases(path.read_bytes()):
            board = case["board"]
            for p in case["forbidden"]:
                assert board.forbidden(p) is not None, (case["name"], point_name(p))
                n += 1
            for p in case["legal"]:
                legal = case["to_move"] == "o" or board.forbidden(p) is None
                assert legal, (case["name"], point_name(p))
                n += 1
    assert n >= 9


def test_piskvork_games_replay():
    folder = shared_dir("gomoku") / "yixin_selfplay"
    files = sorted(folder.glob("*.rec"))
    assert len(files) == 617
    ends = {}
    for path in files:
        rec = records.read_rec(path.read_bytes(), path.name)[0]
        state = replay(rec, source=path.name)
        assert state.is_terminal(), path.name
        ends[(state.result.text, state.result.reason)] = ends.get(
            (state.result.text, state.result.reason), 0) + 1
    # SOURCES.md: black five 424 + overline 5, white five 169 + overline 2, 17 full boards
    assert ends == {("B+", "five"): 429, ("W+", "five"): 171, ("draw", "board_full"): 17}


def test_renju_archive_first_games_replay():
    path = shared_dir("renju") / "dasimagin-renju_train-2.tar.xz"
    data = path.read_bytes()
    assert records.sniff_tar_xz(data)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:xz") as tar:
        member = next(m for m in tar if m.isfile())
        f = tar.extractfile(member)
        head = b"".join(f.readline() for _ in range(3000))
    counts: dict[str, int] = {}
    for rec in records.read_lines(head, path.name):
        cat, _ = records.classify(rec, path.name)
        counts[cat] = counts.get(cat, 0) + 1
    assert sum(counts.values()) == 3000
    assert counts.get("illegal_move", 0) == 0
    assert counts["ok"] > 2500


def test_export_writers_registered():
    from qipai.core.formats import write_records, writer_names

    assert {"renju-lines", "rec", "rif"} <= set(writer_names("gomoku"))
    recs = records.read_rif((DATA / "sample.rif").read_bytes(), "sample.rif")
    again = records.read_rif(write_records(recs, "rif").encode())
    assert [r.seats for r in again] == [r.seats for r in recs]
    lines = records.read_lines(write_records(recs, "renju-lines"))
    assert [r.actions for r in lines] == [r.actions for r in recs]
    one = records.read_rec((DATA / "sample.rec").read_bytes())
    assert write_records(one, "rec") == (DATA / "sample.rec").read_text()
    with pytest.raises(RecordError, match="one game"):
        write_records(recs, "rec")
