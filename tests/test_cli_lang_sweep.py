"""Every ``qipai`` command a player or an organizer reads speaks the chosen language (``--lang``,
else the locale's): game list, legal moves, perft, replay, a refused bot, migrate, account
roles. Help texts may stay English; what the commands say may not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qipai import i18n
from qipai.cli import app

ZH_ENV = {"LANG": "zh_CN.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
SAMPLE = sorted((Path(__file__).parent / "data" / "xiangqi").glob("*.pgn"))[0]


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use("en")


def invoke(*args, env=None):
    return CliRunner().invoke(app, list(args), env=env)


def test_games_in_chinese_names_each_game_once_and_its_marks():
    r = invoke("games", "--lang", "zh")
    assert r.exit_code == 0
    line = next(x for x in r.stdout.splitlines() if x.startswith("shengji"))
    assert "升级" in line and "座位数：4" in line and "（又名：tuolaji, titanic, dabaifen）" in line
    assert "Shengji" not in line and "seats" not in r.stdout and "also" not in r.stdout
    assert "［提案：不用于比赛］" in r.stdout and "[试行]" in r.stdout
    assert "not for competition" not in r.stdout


def test_moves_perft_replay_and_refusals_in_chinese():
    r = invoke("moves", "xiangqi", "--lang", "zh")
    assert r.exit_code == 0 and r.stderr.strip() == "44 个合法着法"
    r = invoke("perft", "xiangqi", "1", env=ZH_ENV)
    assert r.exit_code == 0 and re.fullmatch(r"[\d.]+ 秒，每秒 [\d,]+ 个节点", r.stderr.strip()), r.stderr
    r = invoke("perft", "xiangqi", "deep", "--lang", "zh")
    assert r.exit_code == 2 and "错误：用法：qipai perft 棋种" in r.stderr
    r = invoke("replay", str(SAMPLE), "--lang", "zh")
    lines = r.stdout.strip().splitlines()
    assert lines[0].startswith("通过 ") and "137 手，1-0 （未记录原因）" in lines[0], lines
    assert lines[-1] == "共 1 局：1 局通过，0 局失败"
    r = invoke("play", "xiangqi", "--bot", "nope", "--lang", "zh")
    assert r.exit_code == 2 and "错误：xiangqi 没有名为 nope 的电脑；可选：" in r.stderr
    r = invoke("play", "xiangqi", "--bot", "nope", "--lang", "en")
    assert "error: unknown bot 'nope' for xiangqi; valid bots:" in r.stderr


def test_migrate_and_account_roles_in_chinese(tmp_path):
    url = f"sqlite:///{tmp_path / 'qipai.db'}"
    r = invoke("migrate", "--database-url", url, "--lang", "zh")
    assert r.exit_code == 0 and r.stdout.startswith("数据库结构已是版本 "), r.stdout
    r = invoke("account", "role", "nobody", "player", "--database-url", url, env=ZH_ENV)
    assert r.exit_code == 2 and "错误：没有账号 nobody" in r.stderr

    from qipai.competition.db import open_db
    from qipai.server import auth
    from qipai.server.models import UserRow

    db = open_db(url)
    with db() as s:
        s.add(UserRow(username="Ann", username_key=auth.username_key("Ann"), password_hash="!",
                      role="player"))
        s.commit()
    db.kw["bind"].dispose()
    r = invoke("account", "role", "Ann", "organizer", "--database-url", url, "--lang", "zh")
    assert r.exit_code == 0 and r.stdout == "Ann：选手 → 组织者\n", r.stdout


def test_verify_and_fan_in_chinese(tmp_path):
    import json

    import qipai

    path = tmp_path / "game.json"
    path.write_text(json.dumps(qipai.load("xiangqi").new_state().to_record().to_json()))
    r = invoke("verify", str(path), "--lang", "zh")
    assert r.exit_code == 1 and r.stdout.strip() == "失败 记录：记录没有随机数数据（meta.rng）", r.stdout
    r = invoke("verify", str(path), "--lang", "en")
    assert r.stdout.strip() == "FAIL record: the record carries no random-number data (meta.rng)", r.stdout
    r = invoke("fan", "123m 456p 789s 111p 1s + 1s", "--lang", "zh")
    assert r.exit_code == 0 and r.stdout.splitlines()[-1] == "合计 13 番（不计花牌 13 番）", r.stdout
    r = invoke("fan", "123m 456p 789s 111p 1z + 1s", "--lang", "zh")
    assert r.exit_code == 2 and r.stderr.startswith("错误：第 22 个字符 z 不是花色字母"), r.stderr


def test_export_speaks_the_chosen_language(tmp_path):
    """``qipai export`` takes --lang (else the locale's) like every other command: a file it
    cannot read, a record it does not know, an illegal move (where it is and why) and a format
    the game has not, each in that language."""
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Game "Chinese Chess"]\n[Result "*"]\n\n1. C2.5 C8.5 2. C5+4 K5.4\n', encoding="utf-8")
    r = invoke("export", str(bad), "--lang", "zh")
    assert r.exit_code == 2
    assert r.stderr.strip() == (f"错误：{bad}，第 1 局，第 4 行，第 4 手，“K5.4”：不合规则的着法："
                                "没有合法着法符合 K5.4（e9d9：d9 上是自己的棋子）"), r.stderr
    r = invoke("export", str(bad), "--lang", "en")
    assert r.stderr.strip() == (f"error: {bad}, game 1, line 4, move 4, 'K5.4': illegal move: no legal move "
                                "matches 'K5.4' (e9d9: d9 holds an own piece)"), r.stderr
    r = invoke("export", str(tmp_path / "missing.pgn"), env=ZH_ENV)
    assert r.exit_code == 2
    assert r.stderr.strip() == f"错误：{tmp_path / 'missing.pgn'}：无法读取：没有这个文件或文件夹"
    junk = tmp_path / "junk.txt"
    junk.write_text("nothing to read\n")
    r = invoke("export", str(junk), "--lang", "zh")
    assert r.stderr.startswith(f"错误：{junk}：无法识别的棋谱格式（可识别的格式：") and \
        r.stderr.strip().endswith("qipai-json）"), r.stderr
    r = invoke("export", str(SAMPLE), "-f", "sgf", "--lang", "zh")
    assert r.exit_code == 2
    assert r.stderr.startswith("错误：象棋的棋谱不能写成 sgf 格式；可用的格式：json"), r.stderr
    r = invoke("export", str(SAMPLE), "-O", str(tmp_path / "no" / "out.json"), "--lang", "zh")
    assert r.exit_code == 2 and r.stderr.strip().endswith("：无法写入：没有这个文件或文件夹"), r.stderr
    r = invoke("export", str(SAMPLE), "--lang", "zh")        # the record itself is data: as it is
    assert r.exit_code == 0 and r.stdout.lstrip().startswith("{") and '"game": "xiangqi"' in r.stdout


def test_replay_words_a_broken_record_in_chinese(tmp_path):
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Game "Chinese Chess"]\n[Result "*"]\n\n1. C2.5 C8.5 2. C5+4 K5.4\n', encoding="utf-8")
    r = invoke("replay", str(bad), "--lang", "zh")
    assert r.exit_code == 1
    assert r.stdout.splitlines()[0].startswith(f"失败 {bad}，第 1 局，第 4 行，第 4 手"), r.stdout


def test_serve_start_up_lines_speak_the_chosen_language(tmp_path):
    """``qipai serve``'s lines at start-up (where to open it; why it cannot start) follow --lang,
    else the locale's, as every other command does."""
    from qipai.server import _lock_database

    from .server_process import free_port, start, wait_up

    r = invoke("serve", "--workers", "2", "--lang", "zh")
    assert r.exit_code == 2 and r.stderr.strip() == (
        "错误：--workers N 需要 --redis-url（或 $QIPAI_REDIS_URL）和 PostgreSQL 的 --database-url"), r.stderr
    port = free_port()
    first = start(tmp_path, port, LANG="zh_CN.UTF-8", LC_ALL="", LC_MESSAGES="")
    try:
        wait_up(port)                                       # its first line is written before
        line = first.out.read_text().splitlines()[0]
        assert line.strip() == (f"qipai serve：请在浏览器中打开 http://127.0.0.1:{port}/"
                                f"（数据库 sqlite:///{tmp_path / 'qipai.db'}；按 Ctrl+C 停止）"), line
        second = start(tmp_path / "other", port, "--lang", "zh")
        _, err = second.communicate(timeout=60)
        assert second.returncode != 0 and err.strip().startswith(
            f"qipai serve：无法在 127.0.0.1:{port} 上监听："), err
        i18n.use("zh")
        with pytest.raises(SystemExit) as stop:            # the database's lock, taken by the first
            _lock_database(f"sqlite:///{tmp_path / 'qipai.db'}")
        assert str(stop.value) == f"qipai serve：另一个服务器正在使用数据库 {tmp_path / 'qipai.db'}"
    finally:
        first.terminate()
        _, err = first.communicate(timeout=30)
    # uvicorn's own lines as it starts and stops, and their level, in the same language
    assert "信息:" in err and "服务器进程已启动［" in err and "应用已启动。" in err, err
    assert not re.search(r"INFO|Started|Application|Waiting", err), err


#: the functions that make a record reader's error, and the place of their reason
READER_ERRORS = {"RecordError", "_err", "err", "error"}


def test_every_record_readers_error_is_a_code_of_both_catalogues():
    """Every reason a record reader gives (PGN, SGF, gomoku's, mahjong's and doudizhu's logs, a
    qipai-json record) is a code with its parameters, worded from the catalogues, so a Chinese
    ``qipai replay`` or page never shows an English reason in a Chinese line."""
    import ast

    root = Path(__file__).parent.parent / "qipai"
    readers = [root / "core" / "record.py", root / "core" / "formats.py",
               *(root / "games").glob("*/pgn.py"), *(root / "games").glob("*/records.py"),
               *(root / "games").glob("*/sgf*.py"), *(root / "games").glob("*/formats.py")]
    uncoded, codes = [], set()
    for path in readers:
        for n in ast.walk(ast.parse(path.read_text("utf-8"))):
            f = getattr(n, "func", None)
            name = getattr(f, "id", None) or getattr(f, "attr", None)
            if not isinstance(n, ast.Call) or name not in READER_ERRORS or not n.args:
                continue
            code = next((k.value for k in n.keywords if k.arg == "code"), None)
            if code is None:
                uncoded.append(f"{path.name}:{n.lineno}")
            elif isinstance(code, ast.Constant):
                codes.add(code.value)
    assert uncoded == []
    for lang in ("en", "zh"):
        assert {c for c in codes if not i18n.has(f"refusal.{c}", lang)} == set(), lang


def test_replay_of_unreadable_records_says_why_in_chinese(tmp_path):
    """A PGN whose Result tag is unknown, an SGF never closed: the reason in Chinese words; a
    record that replays: the game in its name."""
    files = {"tag.pgn": '[Game "Chinese Chess"]\n[Result "2-0"]\n\n1. C2.5 C8.5\n',
             "x.sgf": "(;GM[1]SZ[9];B[ee]"}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    r = invoke("replay", *(str(tmp_path / n) for n in files), str(SAMPLE), "--lang", "zh")
    said = r.stdout.replace(str(tmp_path), "").replace(str(SAMPLE), "")
    assert "未知的 Result 标签 2-0（应为 1-0, 0-1, 1/2-1/2, * 之一）" in said, said
    assert "SGF 格式错误（第 19 列）：第 1 行第 1 列开始的棋局树没有结束（缺少 ')'）" in said, said
    assert "：象棋，137 手" in said, said
    words = set(re.findall(r"[A-Za-z]{4,}", said)) - {"Result"}
    assert words == set(), (words, said)


def test_a_record_readers_reason_reaches_a_page_as_its_code():
    """A server that cannot export or replay a record says the reader's own reason in the
    page's words (``why`` carries its code and parameters), not a general "does not replay"."""
    from qipai.core.errors import RecordError, why
    from qipai.games.go.sgf import read_sgf

    with pytest.raises(RecordError) as e:
        read_sgf("(;GM[1]SZ[9];B[ee]")
    got = why(e.value, "record.unreplayable")
    assert got["why"] == "record.sgf.malformed" and got["what"] == "record.sgf.tree_open"
    assert i18n.t(f"refusal.{got['why']}", got, lang="zh").startswith("SGF 格式错误（第 19 列）：")
