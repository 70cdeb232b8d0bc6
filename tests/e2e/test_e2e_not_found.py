"""Pages of a thing that is not there (a record, an event, a player): the refusal in words alone
(no "Loading…" left beside it, no panels) and a link the way back."""

from __future__ import annotations

from tests.e2e.pages import set_lang, shots


def test_missing_record_event_and_player_say_so_alone_with_a_way_back(server, browser, shot):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    set_lang(page, server, "zh")
    for path, said, back in (("/records/99999", "没有这个棋谱", "/"),
                             ("/events/no-such-cup", "没有这个比赛", "/events"),
                             ("/u/nobody-here", "nobody-here", "/")):
        page.goto(server + path)
        page.wait_for_selector("#not-found")
        text = page.inner_text("main")
        assert said in page.inner_text("#not-found h2"), (path, text)
        assert "加载中" not in text and "404" not in text, (path, text)
        assert page.locator("#replay-loading, #referees, #event-chat").count() == 0, path
        assert page.is_visible(f'#not-found a[href="{back}"]'), path
    page.close()
    shots(browser, server, "/records/99999", "record404", shot, "#not-found")
