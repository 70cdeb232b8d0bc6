"""`qipai play --lang zh|en`: the terminal speaks the chosen language (default: the locale's)
in its prompts, the referee's refusals and the results, from the same catalogues as the web
client (qipai.i18n)."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

import qipai
from qipai import i18n
from qipai.cli import app


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use("en")


def scripted(lines, prompts):
    feed = iter(lines)

    def read_line(prompt):
        prompts.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None
    return read_line


def english_words(text: str) -> list[str]:
    """Words of English in ``text``: runs of 4+ Latin letters, bar notation, commands typed by
    the player and the bots' kinds."""
    allowed = {"help", "pass", "resign", "greedy", "rule", "random", "hint", "moves", "quit"}
    return [w for w in re.findall(r"[A-Za-z]{4,}", text) if w.lower() not in allowed and not w.isupper()]


def test_xiangqi_in_chinese_prompts_refuses_and_ends_in_chinese():
    from qipai.games.xiangqi.play import run

    i18n.use("zh")
    out, prompts = io.StringIO(), []
    try:
        run(qipai.load("xiangqi"), bot="greedy", seat=0, seed=1, console=Console(file=out, width=100),
            read_line=scripted(["h2h7", "zz", "h2e2", "resign"], prompts))
    except EOFError:
        pass
    text = out.getvalue()
    assert "你执红方" in text and "不接受：" in text and "既不是着法也不是命令" in text
    assert "对局结束：你输了 — 你认输。" in text
    assert prompts and all(p.startswith("红方走") for p in prompts)
    said = "\n".join(line for line in text.splitlines() if "：" in line or "。" in line)
    assert english_words(said) == [], said


def test_doudizhu_deal_in_chinese():
    from qipai.games.doudizhu.play import run

    i18n.use("zh")
    out, prompts = io.StringIO(), []
    state = run(qipai.load("doudizhu"), bot="rule", seat=0, seed=12,
                console=Console(file=out, width=100, color_system=None),
                read_line=scripted(["hint", "xyz", "bid 0"], prompts))
    text = out.getvalue()
    assert "不接受：" in text and "not accepted" not in text
    assert "可以：" in text and prompts[0] == "你的动作> "
    if state.is_terminal() and not state.result.details.get("void"):
        assert "本副结束：" in text and "底分" in text


def test_english_stays_as_it_was():
    from qipai.games.xiangqi.play import run

    out = io.StringIO()
    try:
        run(qipai.load("xiangqi"), bot="greedy", seat=0, seed=1, console=Console(file=out, width=100),
            read_line=scripted(["h2h7", "resign"], []))
    except EOFError:
        pass
    assert "Refused:" in out.getvalue() and "Game over: You lost — you resigned." in out.getvalue()


def test_the_command_takes_lang_and_else_the_locale():
    runner = CliRunner()
    r = runner.invoke(app, ["play", "xiangqi", "--lang", "zh", "--seed", "1"], input="resign\n")
    assert "对局结束" in r.output and "你输了" in r.output, r.output
    r = runner.invoke(app, ["play", "gomoku", "--seed", "1"], input="resign\n",
                      env={"LANG": "zh_CN.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""})
    assert "对局结束" in r.output, r.output
    r = runner.invoke(app, ["play", "gomoku", "--seed", "1"], input="resign\n",
                      env={"LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""})
    assert "Game over" in r.output, r.output
    r = runner.invoke(app, ["play", "xiangqi", "--lang", "fr"])
    assert r.exit_code != 0 and "unknown language" in r.output


def test_env_language_reads_the_locale_variables_in_order():
    assert i18n.env_language({"LANG": "zh_CN.UTF-8"}) == "zh"
    assert i18n.env_language({"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}) == "en"
    assert i18n.env_language({"LC_MESSAGES": "zh_TW", "LANG": "C"}) == "zh"
    assert i18n.env_language({}) == "en" and i18n.env_language({"LANG": "C"}) == "en"
    with pytest.raises(KeyError):
        i18n.use("fr")


def test_gomoku_prompts_in_chinese():
    from qipai.games.gomoku.play import run

    i18n.use("zh")
    out, prompts = io.StringIO(), []
    run(qipai.load("gomoku"), bot="random", seat=0, seed=1, console=Console(file=out, width=100),
        read_line=scripted(["a1", "resign"], prompts))
    assert prompts[0].startswith("黑方（第 1 手") and prompts[0].endswith("）> ")
    assert "不接受：" in out.getvalue() and "对局结束" in out.getvalue()


@pytest.mark.parametrize("game_id", ["xiangqi", "gomoku", "chinese-checkers", "junqi", "go", "doudizhu",
                                     "shengji", "baohuang", "wakeng", "fouafour", "sandayi",
                                     "baibian-bajue"])
def test_every_games_welcome_and_help_are_chinese_in_the_chinese_terminal(game_id):
    """``help`` (and each game's welcome line) in the Chinese terminal: no English sentence."""
    runner = CliRunner()
    r = runner.invoke(app, ["play", game_id, "--lang", "zh", "--seed", "1"], input="help\nquit\n")
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    help_line = i18n.t("term.help." + game_id, lang="zh")
    assert help_line in r.output.replace("\n", ""), r.output
    english = [line for line in r.output.splitlines()
               if re.search(r"\b(You|Type|Commands|Actions|against|play a|while)\b", line)]
    assert english == [], english


TYPED = {"help", "pass", "resign", "hint", "moves", "quit", "bury", "declare", "trump", "bid", "accept",
         "decline", "discard", "win", "pung", "chow", "kong", "bomb", "add", "call", "timeout", "random",
         "greedy", "rule", "layouts", "cha", "gou"}


@pytest.mark.parametrize("game_id", ["doudizhu", "shengji", "baohuang", "wakeng", "fouafour", "sandayi",
                                     "baibian-bajue", "go"])
def test_the_chinese_terminal_table_has_no_english_labels(game_id):
    """The table a player sees before each decision (seats' columns, the phase, the hand, the trick,
    the play to beat, the points) is in Chinese: no English word but typed commands and card or tile
    codes."""
    runner = CliRunner()
    r = runner.invoke(app, ["play", game_id, "--lang", "zh", "--seed", "3"],
                      input="hint\n" + "pass\n" * 30 + "quit\n")
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    help_line = i18n.t("term.help." + game_id, lang="zh")
    english = {w for line in r.output.splitlines() if help_line not in line
               for w in re.findall(r"\b[A-Za-z]{3,}\b", line) if w.lower() not in TYPED and not w.isupper()}
    assert english == set(), r.output


def test_shengji_names_teams_in_words():
    from qipai.games.shengji.play import shape_words, team_words

    i18n.use("zh")
    assert team_words(0, dealer=2) == "庄家方（座位1、3）"
    assert team_words(1, dealer=2) == "闲家方（座位2、4）"
    assert team_words(1, seat=3) == "我方（座位2、4）" and team_words(0, seat=3) == "对方（座位1、3）"
    assert shape_words("tractor(3)") == "3 连拖拉机" and shape_words("pair") == "对子"
    i18n.use("en")
    assert team_words(0, dealer=0) == "the declarers (seats 1 & 3)"
    assert team_words(0, seat=2) == "your team (seats 1 & 3)"


def test_a_bad_option_is_refused_in_the_terminals_language():
    runner = CliRunner()
    r = runner.invoke(app, ["play", "go", "--lang", "zh", "-o", "komi=abc"])
    assert r.exit_code != 0 and "贴目必须是数字，不能是 abc" in r.output, r.output
    r = runner.invoke(app, ["play", "go", "--lang", "en", "-o", "komi=abc"])
    assert r.exit_code != 0 and "option 'komi': expected a number" in r.output, r.output


def test_shandong_baohuang_plays_to_its_end_in_chinese():
    """山东保皇 in the Chinese terminal: its table, the play to beat, the hand, the points held
    with each place's title and the result line say no English word but typed plays and cards."""
    from qipai.games.baohuang.shandong_play import run

    i18n.use("zh")
    # a follower passes; a leader cannot, and some single card is found (q alone would quit)
    answers = iter(["pass", *"3456789TJKA2LB", "QS", "QH", "QD", "QC"] * 400)
    out = io.StringIO()
    state = run(qipai.load("baohuang", ruleset="sdbh.provisional"), bot="rule", seat=0, seed=3,
                console=Console(file=out, width=120), read_line=lambda prompt: next(answers))
    assert state.is_terminal()
    text = out.getvalue()
    assert "手中剩余分数" in text and "对局结束" in text and "山东保皇（试行）" in text, text[-800:]
    help_line = i18n.t("term.help.sdbh", lang="zh")
    english = {w for line in text.splitlines() if help_line not in line
               for w in re.findall(r"\b[A-Za-z]{3,}\b", line) if w.lower() not in TYPED and not w.isupper()}
    assert english == set(), text[-1500:]
    i18n.use("en")
    assert i18n.say("term.sdbh.seatPoints", {"name": "you", "points": 0, "title": "x"}) == "you 0 (x)"


def test_a_typed_moves_refusal_names_the_cards_in_chinese():
    """The dealer of 三打一 buries cards it does not hold: the Chinese terminal names them in
    words (红桃10, not TH), the English one by their faces (♥10, not TH)."""
    typed = "bid 60\nbury AH KH QH JH TH 9H\nquit\n"
    r = CliRunner().invoke(app, ["play", "sandayi", "--lang", "zh", "--seed", "3"], input=typed)
    assert "不接受：你手里没有：红桃10、红桃J、红桃Q、红桃A" in r.output, r.output
    r = CliRunner().invoke(app, ["play", "sandayi", "--lang", "en", "--seed", "3"], input=typed)
    assert "not in your hand: ♥10, ♥J, ♥Q, ♥A" in r.output, r.output


def test_chinese_checkers_camps_are_words_in_chinese():
    """The camps of the Chinese terminal are the board's words (南方, 北营), not their letters
    (S, N); English keeps the letters the board's labels show."""
    runner = CliRunner()
    r = runner.invoke(app, ["play", "chinese-checkers", "--lang", "zh", "--seed", "1"], input="quit\n")
    assert "你执南方（红方，先走）" in r.output and "填满北营" in r.output, r.output
    assert "南方走（第 1 步）" in r.output, r.output
    assert not re.search(r"(?<![A-Za-z])[SN](?:走|营|（)", r.output), r.output
