"""A table that names no clock gets its game's default (competition.md §4.4-4.5): card and tile
games their card clock, where a timeout plays the game's default action; wakeng its seed clock
S4; board games the board clock, where running out of time loses."""

from __future__ import annotations

from qipai.core import games
from qipai.match import clock_preset

from .server_helpers import client, post, signup

EXPECTED = {
    "doudizhu": "card_default", "shengji": "card_default", "baohuang": "card_default",
    "sandayi": "card_default", "fouafour": "card_default", "mahjong-gb": "card_default",
    "laizi-mahjong": "card_default", "baibian-bajue": "card_default", "wakeng": "wakeng_s4",
    "xiangqi": "board_default", "go": "board_default", "gomoku": "board_default",
    "chinese-checkers": "board_default", "junqi": "board_default",
}


def test_each_game_gets_its_default_clock(tmp_path):
    shipped = {info.id for info in games() if not info.id.startswith("test-")}   # not tests' toys
    assert shipped == set(EXPECTED), "a new game: give it its default clock"
    with client(tmp_path, max_open_tables=len(EXPECTED)) as c:   # one table per game
        alice = signup(c, "alice")
        for gid, preset in EXPECTED.items():
            r = post(c, alice, "/api/tables", {"game": gid})
            assert r.status_code == 201, r.text
            assert r.json()["settings"]["clock"] == preset, gid
            spec = clock_preset(preset)
            if preset == "board_default":
                assert spec.on_out.kind == "lose", gid
            else:      # a timeout is answered by the game's default action, never a loss
                assert spec.on_cap.kind == "auto" and spec.bank is None, gid
