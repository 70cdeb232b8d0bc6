"""`qipai play` of the card and tile games names the other players by their place at the table
(Right / Across / Left, 下家 / 对家 / 上家) and the reader as you / 你, as the web table and the
doudizhu terminal do: no line says "seat 2" or "2 号位" (the plays, the claim windows of
mahjong, the dealer, the introduction)."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from qipai import i18n
from qipai.cli import app

SEAT_NUMBER = re.compile(r"\bseat \d|\d ?号位|You are seat|你坐")

#: what the reader types: card games pass (a refused pass when leading ends at the end of the
#: input), tile games take the first action offered (a discard, or an answer to a claim window)
GAMES = {"wakeng": "pass", "fouafour": "pass", "baohuang": "decline", "sandayi": "pass",
         "shengji": "pass", "mahjong-gb": "1", "laizi-mahjong": "1", "baibian-bajue": "1"}


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use("en")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_terminal_names_players_by_place(game, lang):
    out = CliRunner().invoke(app, ["play", game, "--seed", "3", "--lang", lang],
                             input="\n".join([GAMES[game]] * 40) + "\n").output
    assert SEAT_NUMBER.findall(out) == [], [line for line in out.splitlines() if SEAT_NUMBER.search(line)][:8]
    right, left = ("Right", "Left") if lang == "en" else ("下家", "上家")
    assert right in out and left in out, out[:2000]
