"""A stage's tie-break order on the organizer's form in a real browser: the preset's order shown
in words (the lot last), a tie-break moved up, left out and put back, each change checked by the
server, and the event made with that order; the form read at 390 px in both languages (no English
left in the Chinese one, nothing wider than the screen)."""

from __future__ import annotations

import re

import httpx

from .conftest import running_server
from .pages import FIRST_EVENT_MS, WIDTHS, assert_fits_phone, set_lang
from .test_e2e_a11y import check
from .test_e2e_event_form import SETTINGS
from .test_e2e_play import sign_up

FIELD = '[data-path="stages.0.tiebreaks"]'


def order(page):
    return page.eval_on_selector_all(FIELD + " li", "ns => ns.map((n) => n.firstChild.textContent)")


def test_the_tie_break_order_is_shown_changed_and_kept(browser, tmp_path):
    with running_server(tmp_path, SETTINGS) as base:
        ctx = browser.new_context()
        boss = ctx.new_page()
        sign_up(boss, base, "boss", lobby=False)
        set_lang(boss, base, "en")
        boss.goto(base + "/events")
        boss.select_option("select[name=preset]", "s3_xiangqi")
        boss.wait_for_selector(FIELD)
        assert order(boss) == ["Buchholz cut 1", "Buchholz", "Sonneborn-Berger", "games won", "head-to-head",
                               "lot"]
        assert boss.inner_text('[data-field="stages.0.tiebreaks"] > span:first-child') == "Tie-break order"
        boss.click(FIELD + ' [data-up="wins"]')
        boss.wait_for_selector('[data-field="stages.0.tiebreaks"].changed')
        assert order(boss)[:4] == ["Buchholz cut 1", "Buchholz", "games won", "Sonneborn-Berger"]
        boss.click(FIELD + ' [data-drop="buchholz"]')
        boss.wait_for_selector(FIELD + ' [data-add="buchholz"]')
        assert order(boss) == ["Buchholz cut 1", "games won", "Sonneborn-Berger", "head-to-head", "lot"]
        boss.click(FIELD + ' [data-add="buchholz"]')
        boss.wait_for_selector(FIELD + ' [data-drop="buchholz"]')
        assert order(boss)[-2:] == ["Buchholz", "lot"]
        check(boss, "the event form with a tie-break order")
        boss.fill("textarea[name=players]", "a random\nb random\nc random\nd random")
        boss.click("#create-event")
        boss.wait_for_url(re.compile(r"/events/[\w.-]+$"), timeout=FIRST_EVENT_MS)
        event = boss.url.rsplit("/", 1)[1]
        assert httpx.get(f"{base}/api/events/{event}").status_code == 200
        state = ctx.storage_state()
        page = browser.new_context(viewport=WIDTHS["phone"], storage_state=state).new_page()
        for lang in ("en", "zh"):                # the page loaded anew per language
            set_lang(page, base, lang)
            page.goto(base + "/events")
            page.select_option("select[name=preset]", "s3_xiangqi")
            page.wait_for_selector(FIELD)
            if lang == "zh":
                words = " ".join(order(page)) + page.inner_text('[data-field="stages.0.tiebreaks"]')
                assert not re.search(r"[A-Za-z]{3,}", words), words
            assert_fits_phone(page)
        page.context.close()
