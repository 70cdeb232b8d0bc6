"""Built-in bots are named in the reader's language on every page (issue 13: no English in the
Chinese interface): a Chinese reader's lobby, table, history, profile and replay name each bot
机器人（规则型）, 机器人（贪心）..., never "Rule bot", "Bot (Greedy)", ``bot:rule`` or ``rule``."""

from __future__ import annotations

import re

import httpx
import pytest

from .conftest import rendered, running_server
from .pages import set_lang
from .test_e2e_ratings import as_signed_in

#: the bots' English words and codes, as they must never show in the Chinese interface
ENGLISH = re.compile(r"\b(bot|Bot|BOT|Rule|rule|Random|random|Greedy|greedy|Fast|fast|Search|mcts\d)\b")
BOTS = ["rule", "greedy", "random"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A server where ``zhbot`` sits at a xiangqi table with a greedy bot and at a doudizhu table
    with two rule bots."""
    with running_server(tmp_path_factory.mktemp("qipai-botnames"), "nonce_window_ms=0") as base:
        r = httpx.post(base + "/api/signup", json={"username": "zhbot", "password": "correct horse"})
        assert r.status_code == 201, r.text
        c = httpx.Client(base_url=base, timeout=30, cookies={"qipai_session": r.cookies["qipai_session"]})
        made = c.post("/api/tables", json={"game": "xiangqi", "bots": 1, "bot": "greedy",
                                           "settings": {"clock": "none"}})
        assert made.status_code == 201, made.text
        table = made.json()["id"]
        cards = c.post("/api/tables", json={"game": "doudizhu", "bots": 2, "bot": "rule",
                                            "settings": {"clock": "none"}})
        assert cards.status_code == 201, cards.text
        yield base, c, table, cards.json()["id"]


def english_on(page) -> list[str]:
    text = page.evaluate("() => document.body.innerText + ' ' + [...document.querySelectorAll('[title], "
                         "[aria-label]')].map((e) => (e.title || '') + ' ' + "
                         "(e.getAttribute('aria-label') || '')).join(' ')")
    return ENGLISH.findall(text)


def test_the_chinese_pages_name_the_bots_in_chinese(site, browser):
    base, c, table, cards = site
    page = browser.new_context(storage_state=as_signed_in(base, c.cookies["qipai_session"])).new_page()
    set_lang(page, base, "zh")
    page.goto(f"{base}/tables/{table}")
    page.wait_for_selector("#resign")
    assert "机器人（贪心）" in page.inner_text("body")
    assert english_on(page) == []
    page.click("#resign")
    page.click('#ask [data-answer="yes"]')
    page.wait_for_selector("#record-link")
    assert english_on(page) == [], page.inner_text("body")
    record = page.get_attribute("#record-link", "href")
    for path, ready in ((record, "#replay-result"), ("/history", "#history [data-record]"),
                        ("/u/zhbot", "#history [data-record]"), ("/", "select[name=game]")):
        page.goto(base + path)
        page.wait_for_selector(ready)
        rendered(page)
        assert english_on(page) == [], (path, page.inner_text("body"))
    # the result words themselves, given a bot's seat as the server stores it (bot:rule)
    words = page.evaluate("""async () => {
        const r = await import('/static/result.js'), i = await import('/static/i18n.js');
        return r.resultText({returns: [2, -2, 2, -2], winners: [0, 2], reason: 'hand_over',
            details: {dealer: 0, gains: [2, 0, 2, 0]}}, {game: 'shengji', seat: 0, brief: true,
            names: ['zhbot', 'bot:rule', 'bot:rule', 'bot:rule'], t: i.t, lang: 'zh'}); }""")
    assert "机器人（规则型）" in words and not ENGLISH.findall(words), words
    # a card table of two rule bots: their seats, the board's names, in Chinese
    page.goto(f"{base}/tables/{cards}")
    page.wait_for_function("() => window.qipaiLastState && window.qipaiLastState.status === 'playing'")
    rendered(page)
    assert english_on(page) == [], page.inner_text("body")
    page.context.close()
