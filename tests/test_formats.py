"""Record formats: detection by content, and writing records in a game's own format."""

from pathlib import Path

import pytest

from qipai.core.errors import RecordError
from qipai.core.formats import read_records, write_records, writer_names

DATA = Path(__file__).parent / "data"


def test_xiangqi_pgn_round_trip_through_every_writer():
    path = sorted((DATA / "xiangqi").glob("*.pgn"))[0]
    _, records = read_records(path.read_bytes(), str(path))
    assert writer_names("xiangqi") == ["json", "pgn", "pgn-chinese"]
    for fmt in writer_names("xiangqi"):
        text = write_records(records, fmt)
        name, again = read_records(text.encode(), f"out.{fmt}")
        assert name == ("qipai-json" if fmt == "json" else "xiangqi-pgn")
        assert len(again[0].actions) == len(records[0].actions)


def test_go_sgf_writer():
    path = sorted((DATA / "go").glob("*.sgf"))[0]
    _, records = read_records(path.read_bytes(), str(path))
    text = write_records(records, "sgf")
    assert text.startswith("(;") and read_records(text.encode(), "x.sgf")[0] == "sgf-go"


def test_unknown_format_and_mixed_games_are_refused():
    path = sorted((DATA / "xiangqi").glob("*.pgn"))[0]
    _, records = read_records(path.read_bytes(), str(path))
    with pytest.raises(RecordError, match="formats: json, pgn"):
        write_records(records, "sgf")
    go_path = sorted((DATA / "go").glob("*.sgf"))[0]
    _, go_records = read_records(go_path.read_bytes(), str(go_path))
    with pytest.raises(RecordError, match="several games"):
        write_records(records + go_records, "pgn")
    with pytest.raises(RecordError, match="unrecognised record format"):
        read_records(b"hello world", "x.txt")
