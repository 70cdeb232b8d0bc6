"""Laizi mahjong beyond the referee: the rule bot, terminal play, records that replay through
``qipai replay`` and ``qipai export``."""

from __future__ import annotations

import io
import json

from rich.console import Console
from typer.testing import CliRunner

import qipai
from qipai.bots import bot_names, make_bot
from qipai.bots.laizi_mahjong import need
from qipai.cli import app
from qipai.tiles import parse_tiles

from .laizi_helpers import answer_all, laizi_deal, laizi_game

runner = CliRunner()


def _counts(text):
    c = [0] * 34
    for t in parse_tiles(text):
        c[t] += 1
    return c


def test_need_counts_the_tiles_missing_for_the_nearest_pattern():
    assert need(_counts("123m 456m 789m 11m EE"), 0, 0, False) == 1          # waits: 奏一色
    assert need(_counts("123m 456m 789m 11m E"), 1, 0, False) == 1           # the same with a wildcard
    assert need(_counts("123m 456m 789m 1m 9s EE"), 0, 0, False) > 1         # 9s is in the way
    assert need(_counts("11m 33p 55s 77m 99p EE 4s"), 0, 0, False) == 1      # seven pairs waits
    assert need(_counts("147m 258p 369s ESW"), 0, 0, False) > need(_counts("123m 456m 789m ES"), 0, 0, False)


def test_the_bot_is_the_default_and_wins_when_it_can():
    assert "rule" in bot_names("laizi-mahjong")
    s = laizi_game().new_state(deal=laizi_deal(
        ["123m 456m 789m 11m E 4p", "123p 567p 789p 11s SS", "2345678p 123s W 9s N", "99p 789s 22s NN CC FF"],
        "4p", head="E", tail="1m"))
    bot = make_bot("laizi-mahjong", "rule", 1)
    assert str(bot.choose(s, 0)) == "peel 4p"        # a peel kong costs nothing
    s.apply("peel 4p")
    assert str(bot.choose(s, 0)) == "win"


def test_the_bot_claims_what_brings_it_closer_and_passes_the_rest():
    hands = ["5m 1p 3p 7p 9p 2s 4s 6s 8s S W N P", "46m 2p 4p 6p 8p 1s 3s 5s 7s 9s S W",
             "55m 1p 2p 5p 8p 7s 8s 9s NN PP", "123m 46m 678m 999m EE"]
    s = laizi_game().new_state(deal=laizi_deal(hands, "C", head="1m"))
    s.apply("discard 5m")
    bot = make_bot("laizi-mahjong", "rule", 2)
    assert str(bot.choose(s, 3)) == "win"
    # seat 1 (46m and the rest dots, bamboo, winds): the chow takes its only characters out
    before = need(_counts("46m 2p 4p 6p 8p 1s 3s 5s 7s 9s S W"), 0, 0, False)
    after = need(_counts("2p 4p 6p 8p 1s 3s 5s 7s 9s S W"), 0, 1, True)
    assert (str(bot.choose(s, 1)) == "chow 456m") == (after < before)
    # seat 2: a pung of 5m in a hand of 1p 2p 5p 8p 789s NN PP gains nothing toward a pattern
    before = need(_counts("55m 1p 2p 5p 8p 7s 8s 9s NN PP"), 0, 0, False)
    after = need(_counts("1p 2p 5p 8p 7s 8s 9s NN PP"), 0, 1, False)
    assert (str(bot.choose(s, 2)) == "pung") == (after < before)
    answer_all(s)


def test_bot_matches_end_zero_sum_with_wins():
    g = qipai.load("laizi-mahjong", hands_per_match=4)
    wins = 0
    for seed in range(2):
        s = g.new_state(seed=seed)
        bots = {k: make_bot("laizi-mahjong", "rule", seed * 4 + k) for k in range(4)}
        while not s.is_terminal():
            seat = s.to_act[0]
            s.apply(bots[seat].choose(s, seat), seat=seat)
        assert sum(s.returns()) == 0
        wins += sum(1 for r in s.hand_results if r["winners"])
    assert wins >= 2


def test_terminal_match_played_by_numbers_and_quit():
    from qipai.games.laizi_mahjong.play import run

    out = io.StringIO()
    console = Console(file=out, width=200)
    g = qipai.load("laizi-mahjong", hands_per_match=1)
    lines = iter(["help", "bogus", "1"] + ["1"] * 400)
    run(g, bot="rule", seat=2, seed=4, console=console, read_line=lambda prompt: next(lines))
    text = out.getvalue()
    assert "indicator" in text and "Refused:" in text and "Match over: scores" in text
    out2 = io.StringIO()
    run(g, bot="rule", seat=0, seed=4, console=Console(file=out2), read_line=lambda prompt: "quit")
    assert "Match abandoned." in out2.getvalue()


def test_records_replay_and_export_through_the_cli(tmp_path):
    g = qipai.load("laizi-mahjong", hands_per_match=1)
    s = g.new_state(seed=9)
    bots = {k: make_bot("laizi-mahjong", "rule", k) for k in range(4)}
    while not s.is_terminal():
        seat = s.to_act[0]
        s.apply(bots[seat].choose(s, seat), seat=seat)
    path = tmp_path / "laizi.json"
    path.write_text(s.to_record(seats=["a", "b", "c", "d"]).dumps())
    r = runner.invoke(app, ["replay", str(path)])
    assert r.exit_code == 0 and r.output.startswith("OK"), r.output
    data = json.loads(path.read_text())
    data["actions"][-1] = "discard 1m" if data["actions"][-1] != "discard 1m" else "discard 2m"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    r = runner.invoke(app, ["replay", str(bad)])
    assert r.exit_code == 1
    r = runner.invoke(app, ["export", str(path)])
    assert r.exit_code == 0 and json.loads(r.output)["game"] == "laizi-mahjong"
