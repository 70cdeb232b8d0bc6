"""`qipai play` of the card and tile games shows cards and tiles as the web table does: a hand,
a trick, a kitty, the bots' plays as faces (♥10, ♠A, Big Joker / 大王), tiles in words (6 7 crak,
Red dragon / 67万, 红中), never the codes (TH, 6H0, BJ, 67m, C) that were typed into the
referee; and a bot's buried kitty stays hidden in shengji as it does at sandayi's table."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

import qipai
from qipai import i18n

from .test_terminal_lang import scripted

#: a card code as the referee writes it (a pack digit in games of several packs)
CARD_CODE = re.compile(r"(?<![\w♠♥♣♦])(?:[2-9TJQKA][SHDC]|[LB]J)\d?(?!\w)")
TILE_CODE = re.compile(r"(?<!\w)(?:[1-9]+[mps]|[ESWNCFP]|f[1-8])(?!\w)")


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use("en")


def shown(module, game_id, lang, bot, seed=3, lines=()):
    from importlib import import_module
    i18n.use(lang)
    out = io.StringIO()
    try:
        import_module(module).run(qipai.load(game_id), bot=bot, seat=0, seed=seed,
                                  read_line=scripted(lines, []),
                                  console=Console(file=out, width=200, color_system=None))
    except EOFError:
        pass
    return out.getvalue()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_card_hands_tricks_and_plays_are_faces(lang):
    ddz = shown("qipai.games.doudizhu.play", "doudizhu", lang, "rule")
    hand = next(line for line in ddz.splitlines() if re.search(r"[(（]17", line))
    assert CARD_CODE.findall(hand) == [] and "♥4 ♠4" in hand, hand
    assert ("Big Joker" if lang == "en" else "大王") in hand, hand
    sj = shown("qipai.games.shengji.play", "shengji", lang, "rule")
    rows = [line for line in sj.splitlines() if re.match(r"\s+(♠|♥|♦|♣)? ?\S+\s{2,}", line)]
    assert rows and all(CARD_CODE.findall(r) == [] for r in rows), rows
    played = [line for line in sj.splitlines() if re.match(r"(Left|上家)[:：]", line)]
    assert played and all(CARD_CODE.findall(p) == [] for p in played), played
    # the dealer to your left buried eight cards: how many, never which
    assert ("Left: bury (8 cards)" if lang == "en" else "上家：扣底（8 张）") in played, played
    bh = shown("qipai.games.baohuang.play", "baohuang", lang, "rule")
    hand = next(line for line in bh.splitlines() if re.search(r"[(（]43", line))
    assert CARD_CODE.findall(hand) == [] and "♦10" in hand, hand


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_mahjong_hands_and_actions_are_tile_words(lang):
    text = shown("qipai.games.mahjong_gb.play", "mahjong-gb", lang, "greedy", lines=["1"])
    hand = next(line for line in text.splitlines() if "hand:" in line or "手牌" in line)
    offered = [line for line in text.splitlines() if line.startswith("1:")]
    assert offered and all(TILE_CODE.findall(line) == [] for line in [hand, *offered]), (hand, offered)
    want = ("1 3 6 8 9 crak, 2 3 dot, 2 4 5 6 bam, West wind, Red dragon, Red dragon" if lang == "en"
            else "13689万 23筒 2456条 西风 红中 红中")
    assert want in hand, hand


#: an action's verb as the referee reads it, typed in English
VERB = re.compile(r"\b(?:discard|chow|pung|kong|add|win|pass|bid|declare|bury|accept|decline|trump|cha|gou)"
                  r"\b")


def test_chinese_tables_offer_and_tell_actions_in_words():
    """In Chinese the offered and played actions read as the web boards word them (打出 6万,
    亮 ♣2, 不亮), never the typed verbs; a hint keeps what to type after the words."""
    text = shown("qipai.games.mahjong_gb.play", "mahjong-gb", "zh", "greedy", lines=["1"])
    offered = [line for line in text.splitlines() if line.startswith("1:")]
    assert offered and all(VERB.search(line) is None and "打出" in line for line in offered), offered
    sj = shown("qipai.games.shengji.play", "shengji", "zh", "rule", seed=5, lines=["hint", "pass"])
    played = [line for line in sj.splitlines() if line.startswith(("上家：", "你："))]
    assert played == ["你：不亮", "上家：亮 ♣2"], played
    assert "可以：不亮（pass）、亮 ♦2（declare 2D）" in sj and "超时默认：不亮（pass）" in sj, sj


@pytest.mark.parametrize(("lang", "game", "text", "want"), [
    ("zh", "mahjong-gb", "kong 5p", "暗杠 5p"), ("zh", "mahjong-gb", "kong", "杠"),
    ("zh", "mahjong-gb", "pass", "过"), ("zh", "laizi-mahjong", "peel 4p", "皮子杠 4p"),
    ("zh", "baibian-bajue", "bomb", "炸弹"), ("zh", "baohuang", "accept", "当皇帝"),
    ("zh", "baohuang", "pass", "不要"), ("zh", "sandayi", "trump D", "主 方块"),
    ("zh", "sandayi", "pass", "不叫"), ("zh", "fouafour", "cha 77", "叉 77"),
    ("zh", "doudizhu", "bid 2", "叫 2"), ("zh", "doudizhu", "334455", "334455"),
    ("en", "mahjong-gb", "discard 5p", "discard 5p"), ("en", "shengji", "pass", "pass"),
])
def test_action_words(lang, game, text, want):
    from qipai.games.card_terminal import action_words
    i18n.use(lang)
    assert action_words(text, game) == want


def test_a_pass_while_bidding_is_no_bid():
    """A pass of the bidding reads 不叫, as the doudizhu and wakeng boards word it; 不要 in play."""
    from qipai.games.card_terminal import action_words
    i18n.use("zh")
    assert action_words("pass", "doudizhu", "bidding") == "不叫" and action_words("pass", "wakeng") == "不要"
    ddz = shown("qipai.games.doudizhu.play", "doudizhu", "zh", "rule", lines=["hint", "pass"])
    assert "可以：不叫（pass）、叫 3（bid 3）" in ddz and "你：不叫" in ddz, ddz
    assert "：不要" not in ddz.split("你：不叫")[0], ddz
