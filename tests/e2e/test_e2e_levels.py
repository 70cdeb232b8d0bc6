"""Bot levels in the lobby, in a real browser, both languages, desktop and phone widths: the table
form lists the levels first in the reader's language, and a level-3 bot takes the other seat,
named in words."""

from __future__ import annotations

import re

import pytest

from tests.e2e.test_e2e_play import create_table, sign_up


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_table_form_offers_levels_and_seats_a_search_bot(server, browser, shot, lang):
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US",
                              viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    sign_up(page, server, f"{lang}leveller")
    page.wait_for_selector("select[name=game]")
    page.select_option("select[name=game]", "gomoku")
    labels = page.eval_on_selector_all("select[name=bot] option",
                                       "os => os.map(o => [o.value, o.textContent])")
    values = [v for v, _ in labels]
    assert values[:5] == ["random", "greedy", "mcts3", "mcts4", "mcts5"], labels
    words = dict(labels)
    if lang == "en":
        assert words["mcts3"] == "Level 3 · Search, level 3" and words["random"].startswith("Level 1 · ")
    else:
        assert words["mcts3"] == "3级 · 搜索型 3级" and words["mcts5"] == "5级 · 搜索型 5级（最强）"
        assert not any(re.search("[A-Za-z]", w) for w in words.values()), words
    page.select_option("select[name=bot]", "mcts3")
    shot(page, f"levels-form-{lang}-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, f"levels-form-{lang}-390")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.set_viewport_size({"width": 1280, "height": 900})
    create_table(page, bots=1)
    name = "Bot (Search 3)" if lang == "en" else "机器人（搜索3级）"   # a seat's short words (botshort.*)
    page.wait_for_selector(f"text={name}", timeout=30_000)
    shot(page, f"levels-table-{lang}-1280")
    ctx.close()
