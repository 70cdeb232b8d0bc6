"""`qipai event ...` speaks one language at a time, as `qipai play` does: ``--lang zh|en``, else
the locale's (LC_ALL, LC_MESSAGES, LANG); its tables, statuses, results and errors come from the
catalogues. Piped, no line is cut or wrapped at 80 columns."""

from __future__ import annotations

import io
import re

import pytest
from rich.table import Table
from typer.testing import CliRunner

from qipai import i18n
from qipai.cli import app
from qipai.console import Terminal
from tests import match_games  # noqa: F401  (test-nim)

ZH_ENV = {"LANG": "zh_CN.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
EN_ENV = {"LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
#: words that are no English sentence: ids, codes, commands typed, the test game and its end
NOT_PROSE = {"ann", "bob", "dee", "random", "test", "nim", "last_stone", "qipai", "event", "result",
             "organizer", "ref", "phone", "nope", "pairings", "results", "standings"}


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use("en")


@pytest.fixture
def cli(tmp_path, monkeypatch):
    monkeypatch.setenv("QIPAI_DATABASE_URL", f"sqlite:///{tmp_path / 'ev.db'}")
    runner = CliRunner()

    def run(*args, env=None):
        return runner.invoke(app, ["event", *args], env=env)
    players = tmp_path / "players.txt"
    players.write_text("ann bot=random\nbob bot=random\ncy bot=random\ndee bot=random\n")
    res = run("new", "--preset", "s3_xiangqi", "--players", str(players), "--id", "ko",
              "--set", "game.id=test-nim", "--secret", "ab" * 32, env=EN_ENV)
    assert res.exit_code == 0 and "created event ko" in res.output, res.output
    return run


def english(text: str) -> set[str]:
    """English words in ``text`` but codes (``s3_xiangqi``), options (``--preset``), the draw's
    commitment (hex) and :data:`NOT_PROSE`."""
    text = re.sub(r"\b[a-z0-9]+_[a-z0-9_]+\b|--[a-z-]+|\b[0-9a-f]{16}\b", "", text)
    return {w for w in re.findall(r"[A-Za-z][A-Za-z_]{2,}", text) if w.lower() not in NOT_PROSE}


def session(run, *lang, env=None):
    """The organizer's commands of one event, their outputs joined."""
    outs = [run("run", "ko", "--max-games", "3", *lang, env=env),
            run("withdraw", "cy", "-e", "ko", *lang, env=env),
            run("disqualify", "bob", "--by", "ref", "-r", "phone", "-e", "ko", *lang, env=env),
            run("show", "ko", *lang, env=env), run("list", *lang, env=env), run("log", "ko", *lang, env=env)]
    assert all(r.exit_code == 0 for r in outs), [r.output for r in outs]
    errors = [run("result", "999", "1-0", "-e", "ko", *lang, env=env),
              run("show", "nope", *lang, env=env),
              run("export", "ko", "--table", "nope", *lang, env=env),
              run("new", "--bots", "4", *lang, env=env)]
    assert all(r.exit_code == 2 for r in errors), [r.output for r in errors]
    return "\n".join(r.output for r in outs + errors)


@pytest.mark.parametrize("how", [("--lang", "zh"), ("env",)])
def test_event_commands_speak_chinese(cli, how):
    text = session(cli, *([] if how == ("env",) else how), env=ZH_ENV if how == ("env",) else EN_ENV)
    for said in ("已下 3 局", "cy 已退赛", "bob 已被取消资格", "抽签", "签号", "轮次", "第 1 轮", "积分",
                 "1 局后", "弃权", "赛制 循环赛", "进行中", "退赛",
                 "错误：本赛事没有第 999 局", "错误：没有赛事 nope", "错误：--table 必须是",
                 "错误：请给出 --preset 名称"):
        assert said in text, (said, text)
    assert english(text) == set(), (english(text), text)


def test_event_commands_speak_english(cli):
    text = session(cli, "--lang", "en", env=ZH_ENV)          # the flag wins over the locale
    for said in ("3 games played, running", "cy withdrawn", "bob disqualified", "Draw", "round 1",
                 "after 1 game", "forfeit", "withdraw by organizer", "error: ",
                 "has no game 999", "give --preset NAME or --config FILE"):
        assert said in text, (said, text)
    assert not re.search(r"[\u4e00-\u9fff]", text.replace("象棋", "")), text


def test_an_unknown_language_is_refused(cli):
    res = cli("list", "--lang", "fr")
    assert res.exit_code == 2 and "unknown language 'fr'" in res.output


def test_piped_output_is_never_cut_at_80_columns(tmp_path, monkeypatch):
    """Piped (CliRunner is no terminal), ``event show`` keeps each pairing and each game on one
    line however long the names: nothing is wrapped or cut at 80 columns."""
    monkeypatch.setenv("QIPAI_DATABASE_URL", f"sqlite:///{tmp_path / 'ev.db'}")
    ids = [c * 40 for c in "abc"]
    players = tmp_path / "players.txt"
    players.write_text("".join(f"{i} bot=random\n" for i in ids))
    runner = CliRunner()
    res = runner.invoke(app, ["event", "new", "--preset", "s3_xiangqi", "--players", str(players),
                              "--id", "w", "--set", "game.id=test-nim"], env=EN_ENV)
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["event", "show", "w"], env={**EN_ENV, "COLUMNS": "80"})
    games = [line for line in res.output.splitlines() if re.search(r"game \d+ \(#1\): ", line)]
    assert games and all(line.count(" / ") == 1 and line.rstrip().endswith("pending") for line in games), \
        res.output
    assert all(len(line) > 100 for line in games)


def test_the_shared_console_wraps_only_in_a_terminal():
    table = Table("name")
    table.add_row("y" * 150)
    piped, tty = io.StringIO(), io.StringIO()
    Terminal(file=piped).print(table)
    Terminal(file=tty, force_terminal=True, width=80, color_system=None).print(table)
    assert "y" * 150 in piped.getvalue()
    assert "y" * 150 not in tty.getvalue() and max(map(len, tty.getvalue().splitlines())) <= 80


def test_presets_and_a_penalty_in_chinese(tmp_path):
    url = ["--db", f"sqlite:///{tmp_path / 'pen.db'}"]
    runner = CliRunner()
    res = runner.invoke(app, ["event", "presets", "--lang", "zh"])
    assert res.exit_code == 0 and "s0_baohuang  baohuang  保皇（通用规则）" in res.output, res.output
    res = runner.invoke(app, ["event", "new", "--preset", "s0_shengji", "--bots", "2", "--id", "sj", *url])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["event", "penalty", "bot01", "deal_fault", "-r", "kitty", "-e", "sj",
                              "--by", "chief", "--lang", "zh", *url])
    assert res.exit_code == 0 and res.output.startswith("bot01 在第 1 轮第 1 场第 1 次"), res.output
    res = runner.invoke(app, ["event", "show", "sj", "--lang", "zh", *url])
    assert res.exit_code == 0 and "处罚" in res.output and "裁判" in res.output and "kitty" in res.output
    res = runner.invoke(app, ["event", "log", "sj", "--lang", "zh", *url])
    assert "chief：处罚 — 第 1 局 选手 bot01（类别=" in res.output and "effect" not in res.output, res.output
    assert res.output.strip().endswith("）：kitty")
