"""One name per game and language (issue 13): the catalogues' ``gamename.<id>`` is the name every
page, the server and the terminal show (the lobby's buttons and cards, the table, history,
profiles, events, replays, leaderboards). No other name of the game may appear: not in another
catalogue text, not in a page's script, not as a name the game's class declares."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import qipai
from qipai import i18n

QIPAI = Path(qipai.__file__).resolve().parent
WEB = QIPAI / "server" / "web"

#: names a game was called by elsewhere (once: "Tractor" on the lobby's button, "Shengji
#: (Tractor)" on its card, "Tuolaji" in the event form); case-sensitive whole words. The card
#: terms that share a word (a shengji "tractor", 拖拉机 as a shape of cards; the doudizhu
#: "Landlord" role) are not game names and are not listed.
OTHER_NAMES = {
    "en": {
        "xiangqi": ["Chinese chess"],
        "doudizhu": ["Fight the Landlord", "Dou Dizhu", "Dou dizhu"],
        "go": ["Weiqi", "weiqi", "Baduk"],
        "mahjong-gb": ["Chinese Official Mahjong", "Guobiao Mahjong", "Mahjong Competition Rules"],
        "gomoku": ["Gomoku / Renju", "Five in a Row"],
        "shengji": ["Tractor", "Tuolaji", "Shengji (Tractor)", "Sheng Ji"],
        "junqi": ["Army Chess", "Army chess"],
        "chinese-checkers": ["Chinese checkers", "Tiaoqi", "Checkers"],
        "wakeng": ["Dig the Pit", "Dig the pit"],
        "baohuang": ["Protect the Emperor"],
        "fouafour": ["Four-Ace-Four"],
        "sandayi": ["Three Against One", "3 vs 1", "Three against one"],
        "laizi-mahjong": ["Laizi Mahjong (wildcard)"],
    },
    "zh": {
        "xiangqi": ["中国象棋"],
        "shengji": ["升级 / 拖拉机", "升级（拖拉机）", "拖拉机（"],
    },
}


def _whole(name: str) -> re.Pattern[str]:
    if re.match(r"\w", name) and not re.search(r"[\u4e00-\u9fff]", name):
        return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
    return re.compile(re.escape(name))


def _shipped_games():
    """The games the package ships (other tests register test games of their own, e.g.
    ``test-bid``, in the same process)."""
    from qipai.core.registry import _MODULES

    return [g for g in qipai.games() if _MODULES[g.id].startswith("qipai.")]


def test_every_game_has_one_name_in_each_catalogue_and_the_game_uses_it():
    for lang in i18n.LANGS:
        cat = i18n.catalogue(lang)
        assert not [k for k in cat if k.startswith("gameshort.")], "one name per game: gamename.<id>"
        for info in _shipped_games():
            name = cat.get(f"gamename.{info.id}")
            assert name, f"gamename.{info.id} missing from {lang}.json"
            assert (info.name_zh if lang == "zh" else info.name_en) == name
            assert qipai.load(info.id).name_en == i18n.catalogue("en")[f"gamename.{info.id}"]


def test_a_game_class_declares_no_name_of_its_own():
    """The names live in the catalogues alone: a game module that declared ``name_en`` would
    show another name on the terminal than on the pages."""
    for path in sorted((QIPAI / "games").rglob("*.py")):
        text = path.read_text("utf-8")
        assert not re.search(r"^\s+name_(en|zh)\s*=", text, re.M), path


def test_an_alias_without_rules_of_its_own_is_named_as_its_game():
    """``tuolaji`` and ``tiaoqi`` are other ids of shengji and chinese-checkers: the event form
    names them as the game (a catalogue name of their own would be a second name)."""
    from qipai.core.registry import _ALIASES

    qipai.games()                    # (every game module loaded: their aliases are registered)
    for alias, (game_id, preset) in _ALIASES.items():
        for lang in i18n.LANGS:
            has = f"gamealias.{alias}" in i18n.catalogue(lang)
            assert has == bool(preset), (alias, game_id, lang)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_no_catalogue_text_calls_a_game_by_another_name(lang):
    problems = []
    cat = i18n.catalogue(lang)
    own = [v for k, v in cat.items() if k.startswith("gamename.")]
    for key, text in cat.items():
        if key.startswith("gamename."):
            continue
        for name in own:                 # the game's own name ("Chinese Checkers") is right
            text = text.replace(name, "")
        for game_id, names in OTHER_NAMES[lang].items():
            for name in names:
                if _whole(name).search(text):
                    problems.append(f"{lang}.json {key}: {name!r} (the game is "
                                    f"{i18n.catalogue(lang)[f'gamename.{game_id}']!r})")
    assert problems == []


def _code(js: str) -> str:
    """A script without its comments (the words a page can show are in its code)."""
    js = re.sub(r"/\*.*?\*/", "", js, flags=re.S)
    return re.sub(r"(?m)(^|[^:\"'`\\])//.*$", r"\1", js)


def test_every_page_names_a_game_through_the_catalogue():
    """Pages name a game by ``gameName`` (app.js, the catalogues' ``gamename.<id>``): no script
    reads the server's ``name_en``/``name_zh`` or words a game itself, nor writes another name."""
    problems = []
    for path in sorted(WEB.rglob("*.js")):
        code = _code(path.read_text("utf-8"))
        for m in re.finditer(r"name_(en|zh)|gameshort|gamealias\.(tuolaji|tiaoqi)", code):
            line = code[:m.start()].count("\n") + 1
            if path.name == "app.js" and "export function gameName" in code.splitlines()[line - 1]:
                continue
            problems.append(f"{path.name}:{line}: {m.group(0)}")
        for games in OTHER_NAMES.values():
            for names in games.values():
                for name in names:
                    for m in _whole(name).finditer(code):
                        problems.append(f"{path.name}:{code[:m.start()].count(chr(10)) + 1}: {name!r}")
    html = (WEB / "index.html").read_text("utf-8")
    problems += [f"index.html: {n!r}" for names in OTHER_NAMES["en"].values() for n in names
                 if _whole(n).search(html)]
    assert problems == []


def test_the_catalogue_files_keep_their_form():
    """(The names were moved with a script: the files stay one key a line, indent 1.)"""
    for lang in i18n.LANGS:
        path = QIPAI / "i18n" / f"{lang}.json"
        text = path.read_text("utf-8")
        assert text == json.dumps(json.loads(text), ensure_ascii=False, indent=1) + "\n"
