"""First-contact behaviour of the ``qipai`` command: the version flag and the fan calculator's
hand-line errors, as a new user meets them."""

from typer.testing import CliRunner

import qipai
from qipai.cli import app

runner = CliRunner()


def test_version_flag_prints_the_package_version():
    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0
    assert r.output.strip() == f"qipai {qipai.__version__}"


def test_fan_names_a_wrong_suit_letter_and_the_honor_letters():
    r = runner.invoke(app, ["fan", "19m19p19s1234567z + 1m"])
    assert r.exit_code == 2
    text = " ".join(r.output.split())
    assert "'z' at position 17 is not a suit letter" in text
    assert "E S W N C F P" in text


def test_fan_scores_the_help_example():
    r = runner.invoke(app, ["fan", "123m 456p 789s 1p [CCC] + 1p | seat=E"])
    assert r.exit_code == 0
    assert "total 11" in r.output


def test_replay_summary_and_one_line_per_game_when_piped():
    from pathlib import Path

    sample = sorted((Path(__file__).parent / "data" / "xiangqi").glob("*.pgn"))[0]
    r = runner.invoke(app, ["replay", str(sample)])
    assert r.exit_code == 0, r.output
    lines = r.output.strip().splitlines()
    # the record gives a result but no reason; the summary counts in the singular
    assert lines[0].startswith("OK   ") and lines[0].endswith("(no reason recorded)"), lines
    assert lines[-1] == "1 game: 1 OK, 0 failed" and len(lines) == 2


def test_games_lists_aliases():
    r = runner.invoke(app, ["games"])
    assert r.exit_code == 0
    line = next(x for x in r.output.splitlines() if x.startswith("shengji"))
    assert "(also: tuolaji, titanic, dabaifen)" in line
    assert "(also: renju)" in next(x for x in r.output.splitlines() if x.startswith("gomoku"))


def test_replay_a_folder_and_an_empty_file(tmp_path):
    from pathlib import Path

    data = Path(__file__).parent / "data" / "xiangqi"
    r = runner.invoke(app, ["replay", "-q", str(data)])
    n = len(list(data.glob("*.pgn")))
    assert r.exit_code == 0, r.output
    assert r.output.strip().splitlines()[-1].startswith(f"{n} games: {n} OK, 0 failed (")
    empty = tmp_path / "empty.pgn"
    empty.write_text("")
    r = runner.invoke(app, ["replay", str(empty)])
    assert r.exit_code == 1 and f"FAIL {empty}: empty file" in r.output


def test_help_keeps_every_bracketed_word():
    """A help text's "[engines]" is words, not console markup: every bracketed word of every
    command's help shows in its --help (the markup reader dropped "[engines]")."""
    import re

    from typer.main import get_command

    def walk(command, path):
        yield path, command
        for name, sub in getattr(command, "commands", {}).items():
            yield from walk(sub, [*path, name])

    checked = 0
    for path, command in walk(get_command(app), []):
        texts = [command.help or ""] + [getattr(p, "help", None) or "" for p in command.params]
        words = {w for text in texts for w in re.findall(r"\[[^\]\s]+\]", text.replace("\\[", "["))}
        if not words:
            continue
        out = runner.invoke(app, [*path, "--help"], terminal_width=100).output
        for w in words:
            assert w in out, (path, w)
            checked += 1
    assert checked >= 5
