"""The card table's history navigates as a board game's move list does: a click on a round (or
← → Home End) shows the table as it was when that round ended, End goes back to the game; the
replay page of a card game lists its rounds as cards and shows each one the same way, and fits
the screen at 1280 and 390 px in both languages. Trick games (sandayi, shengji) list every trick
of the hand the same way."""

from __future__ import annotations

from .conftest import set_width
from .test_e2e_card_games import DESKTOP, GAMES, PHONE, account, open_table, play_whole_game  # noqa: F401

#: whether the cards laid on the table all belong to round i of the list (and some are laid)
SHOWS_ROUND = """(i) => {
    const row = document.querySelectorAll('#movelist .ct-round:not(.ct-bids)')[i];
    const inRow = new Set([...row.querySelectorAll('[data-card]')].map((e) => e.dataset.card));
    const laid = [...document.querySelectorAll('.ct .lastplay [data-card]')].map((e) => e.dataset.card);
    return laid.length > 0 && laid.every((c) => inRow.has(c));
}"""


def test_card_rounds_rewind_the_table_live_and_in_the_replay(server, browser, account, shot):  # noqa: F811
    ctx = browser.new_context(viewport=DESKTOP, storage_state=account)
    ctx.add_init_script("localStorage.setItem('lang', 'zh')")
    page = ctx.new_page()
    page.goto(server + "/")
    prefer = next(g[4] for g in GAMES if g[0] == "doudizhu")
    open_table(page, server, "doudizhu", 2)
    play_whole_game(page, "doudizhu", 3, "zh", prefer)
    # the bidding in words before the first play: 叫分 alice 1分 · 机器人 不叫
    bids = page.inner_text("#movelist .ct-round.ct-bids")
    assert bids.startswith("叫分") and ("分" in bids[2:] or "叫地主" in bids), bids
    assert page.locator("#movelist .ct-round").first.get_attribute("class").endswith("ct-bids")
    rounds = page.locator("#movelist .ct-round:not(.ct-bids)")
    n = rounds.count()
    assert n >= 2
    hand_at_end = page.locator("#hand .c").count()
    rounds.nth(0).click()                         # the table when the first round ended
    page.wait_for_function(SHOWS_ROUND, arg=0)
    assert page.locator("#ct-result").count() == 0
    assert page.locator("#hand .c").count() >= hand_at_end
    # the counter counts the rounds as their rows number them, not the bidding's row
    assert page.inner_text("#ml-where") == f"1 / {n}"
    page.keyboard.press("ArrowRight")             # the second round, by key
    page.wait_for_function(SHOWS_ROUND, arg=1)
    assert page.inner_text("#ml-where") == f"2 / {n}"
    assert page.inner_text("#movelist .ml-move.current .ct-round .n") == "2"
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")             # the bidding's row: named, not counted
    page.wait_for_function("() => document.querySelector('#ml-where').textContent === '叫分'")
    page.keyboard.press("End")                    # back to the game as it is
    page.wait_for_selector("#ct-result")
    assert page.locator("#hand .c").count() == hand_at_end

    record = page.get_attribute("#record-link", "href").rsplit("/", 1)[1]
    ctx.close()
    for lang in ("zh", "en"):
        ctx = browser.new_context(viewport=DESKTOP, storage_state=account)
        ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        page = ctx.new_page()
        page.goto(f"{server}/records/{record}")
        page.wait_for_selector("#movelist .ct-round .c")           # the rounds, as cards
        assert page.locator("#movelist .ct-round:not(.ct-bids)").count() == n
        assert page.inner_text("#movelist .ct-bids").startswith({"zh": "叫分", "en": "Bidding"}[lang])
        page.locator("#movelist .ct-round:not(.ct-bids)").nth(0).click()
        page.wait_for_function(SHOWS_ROUND, arg=0)
        first = int(page.get_attribute("#replay-status", "data-ply"))
        page.keyboard.press("ArrowRight")
        page.wait_for_function(SHOWS_ROUND, arg=1)
        assert int(page.get_attribute("#replay-status", "data-ply")) > first
        assert page.inner_text("#ml-where") == f"2 / {n}"            # the row numbered 2
        assert page.inner_text("#movelist .ml-move.current .ct-round .n") == "2"
        for name, vp in (("1280", DESKTOP), ("390", PHONE)):
            set_width(page, vp["width"], vp["height"])
            assert page.evaluate("document.documentElement.scrollWidth") <= vp["width"], (lang, name)
            shot(page, f"cards-history-replay-{lang}-{name}")
        ctx.close()


def test_sandayi_tricks_rewind_the_table_live_and_in_the_replay(server, browser, account, shot):  # noqa: F811
    ctx = browser.new_context(viewport=PHONE, storage_state=account)
    ctx.add_init_script("localStorage.setItem('lang', 'zh')")
    page = ctx.new_page()
    page.goto(server + "/")
    prefer = next(g[4] for g in GAMES if g[0] == "sandayi")
    open_table(page, server, "sandayi", 3)
    play_whole_game(page, "sandayi", 4, "zh", prefer)
    # the bidding in words before the first trick (叫分 alice 60分 · 机器人 不叫), then every trick
    bids = page.inner_text("#movelist .ct-round.ct-bids")
    assert bids.startswith("叫分") and "分" in bids[2:], bids
    tricks = page.locator("#movelist .ct-round:not(.ct-bids)")
    assert tricks.count() == 12                                   # every trick of the hand
    assert tricks.nth(0).locator(".n").inner_text() == "1"        # numbered from the first trick
    assert page.inner_text("#movelist .ml-title").strip() == "出牌记录"
    for row in tricks.all():
        assert row.locator(".ct-round-play").count() == 4 and row.locator(".c").count() == 4
    tricks.nth(2).click()                                         # the table as trick 3 ended
    page.wait_for_function(SHOWS_ROUND, arg=2)
    assert page.locator(".ct .lastplay.stale .c").count() == 4
    assert page.locator("#ct-result").count() == 0
    assert page.inner_text("#ml-where") == "3 / 12"               # as the row, not 4 / 13
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(SHOWS_ROUND, arg=1)
    shot(page, "cards-sandayi-tricks-zh-390")
    page.set_viewport_size(DESKTOP)
    shot(page, "cards-sandayi-tricks-zh-1280")
    page.keyboard.press("End")
    page.wait_for_selector("#ct-result")
    record = page.get_attribute("#record-link", "href").rsplit("/", 1)[1]
    ctx.close()
    ctx = browser.new_context(viewport=DESKTOP, storage_state=account)
    ctx.add_init_script("localStorage.setItem('lang', 'en')")
    page = ctx.new_page()
    page.goto(f"{server}/records/{record}")
    page.wait_for_selector("#movelist .ct-round .c")
    assert page.locator("#movelist .ct-round:not(.ct-bids)").count() == 12
    assert page.inner_text("#movelist .ct-bids").startswith("Bidding")
    page.locator("#movelist .ct-round:not(.ct-bids)").nth(5).click()
    page.wait_for_function(SHOWS_ROUND, arg=5)
    shot(page, "cards-sandayi-tricks-replay-en-1280")
    set_width(page, PHONE["width"], PHONE["height"])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "cards-sandayi-tricks-replay-en-390")
    ctx.close()
