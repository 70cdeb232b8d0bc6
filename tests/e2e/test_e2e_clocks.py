"""The clock shows what it is, in real Chromium: byo-yomi periods left and the warnings given,
beside the time, in the page's language."""

from __future__ import annotations

from tests.e2e.movelist import new_page


def test_a_go_table_shows_its_byoyomi_periods_and_the_time(browser, server):
    for lang, says in (("zh", "读秒 3 次"), ("en", "3 byo-yomi periods")):
        ctx, page, errors = new_page(browser, server, lang, "desktop")
        clock = {"bank": "5m", "overtime": {"byoyomi": {"periods": 3, "period": "30s"}}}
        r = page.request.post(server + "/api/tables", data={
            "game": "go", "options": {"board_size": 9}, "bots": 1, "bot": "random",
            "settings": {"clock": clock}})
        assert r.ok, r.text()
        page.goto(f"{server}/tables/{r.json()['id']}")
        page.wait_for_selector(".seat .clock")
        page.wait_for_function("(s) => [...document.querySelectorAll('.seat .clock-notes')]"
                               ".some(e => e.textContent.includes(s))", arg=says)
        assert page.locator(".seat .clock").first.inner_text().count(":") == 1    # m:ss
        assert not errors
        ctx.close()
