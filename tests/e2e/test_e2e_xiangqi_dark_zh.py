"""The xiangqi move list in the dark theme in Chinese (炮二平五): every move's text, Red's and
Black's, current or not, and the list's heads read at WCAG AA (4.5:1) on what is behind them,
and axe finds no serious violation on the table; the English list's dark screenshots had no
Chinese counterpart. Screenshots at 1280 and 390 px in Chinese and English (/tmp/shots-ui13)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import set_width
from .test_e2e_a11y import CONTRAST, check
from .test_e2e_play import sign_up

SHOTS = Path("/tmp/shots-ui13")
HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_dark_xiangqi_move_list_in_chinese_is_legible(server, browser, lang):
    from .movelist import start_table

    SHOTS.mkdir(exist_ok=True)
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US", color_scheme="dark",
                              viewport={"width": 1280, "height": 900})
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    sign_up(page, server, f"xqdark{lang}")
    start_table(page, server, "xiangqi", {}, bot="random", bot_delay_ms=0)
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    for n in range(1, 4):
        # 炮二平五 first, then any legal move (the bot's answer may have taken a piece)
        move = "h2e2" if n == 1 else page.evaluate(
            "() => document.querySelector('#legal-moves option').value")
        page.fill('#move-entry input[name="move"]', move)
        page.press('#move-entry input[name="move"]', "Enter")
        page.wait_for_function(f"() => document.querySelectorAll('#ml-list .ml-move.black').length >= {n}",
                               timeout=30_000)
    texts = page.eval_on_selector_all("#ml-list .ml-move .ml-t", "ns => ns.map((n) => n.textContent)")
    assert len(texts) >= 6
    # Chinese notation in the Chinese interface (炮二平五), WXF in the English one (C2=5)
    assert all(bool(HAN.search(x)) is (lang == "zh") for x in texts), texts
    assert texts[0] == ("炮二平五" if lang == "zh" else "C2=5"), texts
    ratios = page.eval_on_selector_all("#ml-list .ml-move .ml-t, #ml-list .ml-n, .ml-title, #ml-where",
                                       f"ns => ns.map({CONTRAST})")
    assert min(ratios) >= 4.5, ratios
    page.click("#ml-list .ml-move.red >> nth=0")            # a move shown: the current one, on the highlight
    page.wait_for_selector("#ml-list .ml-move.red.current")
    assert page.eval_on_selector("#ml-list .ml-move.current .ml-t", CONTRAST) >= 4.5
    check(page, f"xiangqi table, dark, {lang}")
    for width in (1280, 390):
        set_width(page, width, 900 if width > 400 else 844)
        page.screenshot(path=str(SHOTS / f"xiangqi-movelist-dark-{lang}-{width}.png"), full_page=True)
    ctx.close()
