"""The players file of ``qipai event new --players`` (qipai/competition/playerfile.py): JSON,
TOML and text read to the same players; a malformed or wrongly shaped JSON or TOML file is an
OptionError ``config.file_format`` naming the file and its format."""

from __future__ import annotations

import pytest

from qipai.competition.playerfile import read_players
from qipai.core.errors import OptionError


def test_json_toml_and_text_give_the_players(tmp_path):
    (tmp_path / "p.json").write_text('[{"id": "ann"}, {"id": "bob", "bot": "greedy"}]')
    (tmp_path / "p.toml").write_text('[[players]]\nid = "ann"\n[[players]]\nid = "bob"\nbot = "greedy"\n')
    (tmp_path / "p.txt").write_text("ann\nbob bot=greedy  # a bot\n")
    want = [{"id": "ann"}, {"id": "bob", "bot": "greedy"}]
    assert [read_players(tmp_path / f"p.{x}") for x in ("json", "toml", "txt")] == [want] * 3
    (tmp_path / "none.toml").write_text('title = "no players"\n')
    assert read_players(tmp_path / "none.toml") == []


@pytest.mark.parametrize("name,body,fmt,says", [
    ("p.json", '[{"id": "ann"},\n oops]', "JSON", "line 2: not valid JSON"),
    ("p.json", '{"players": []}', "JSON", "expected a list of players"),
    ("p.toml", "[[players]\nid = 1", "TOML", "not valid TOML"),
    ("p.toml", 'players = "ann"', "TOML", "expected a list of players"),
])
def test_a_malformed_file_is_named_with_its_format(tmp_path, name, body, fmt, says):
    path = tmp_path / name
    path.write_text(body)
    with pytest.raises(OptionError, match=says) as e:
        read_players(path)
    assert e.value.code == "config.file_format" and e.value.params == {"path": str(path), "format": fmt}
    assert str(e.value).startswith(f"{path}: ")
