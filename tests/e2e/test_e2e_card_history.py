"""The card table's history navigates as a board game's move list does, a play at a time: each
play (a bid, a pass) is a step of its own in the row of its round, a click on it (or ← → Home
End) shows the table as it was right after it, End goes back to the game; the replay page of a
card game lists the rounds as cards and steps through them the same way, and fits the screen at
1280 and 390 px in both languages. Trick games (sandayi, shengji) list every trick of the hand
the same way."""

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

#: the play shown: its place among the plays of the rounds (1 = the first), and whether its
#: cards (none: a pass) lie on the table
SHOWN_PLAY = """() => {
    const cells = [...document.querySelectorAll('#movelist .ct-round:not(.ct-bids) .ml-move')];
    const cur = document.querySelector('#movelist .ml-move.current');
    const want = cur ? [...cur.querySelectorAll('[data-card]')].map((e) => e.dataset.card) : [];
    const laid = new Set([...document.querySelectorAll('.ct .lastplay [data-card]')]
        .map((e) => e.dataset.card));
    return { at: cells.indexOf(cur) + 1, laid: want.every((c) => laid.has(c)), cards: want.length };
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
    plays = page.locator("#movelist .ct-round:not(.ct-bids) .ml-move").count()
    assert plays > n                              # a step a play, not a round
    hand_at_end = page.locator("#hand .c").count()
    rounds.nth(0).locator(".ml-move").first.click()   # the table right after the first lead
    page.wait_for_function(SHOWS_ROUND, arg=0)
    at = page.evaluate(SHOWN_PLAY)
    assert at["at"] == 1 and at["laid"] and at["cards"], at
    assert page.locator("#ct-result").count() == 0
    assert page.locator("#hand .c").count() >= hand_at_end
    # the counter counts the plays, not the bidding's
    assert page.inner_text("#ml-where") == f"1 / {plays}"
    page.keyboard.press("ArrowRight")             # the next play (a pass, or cards), by key
    page.wait_for_function("() => document.querySelector('#ml-where').textContent.startsWith('2 / ')")
    assert page.evaluate(SHOWN_PLAY)["at"] == 2 and page.evaluate(SHOWN_PLAY)["laid"]
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")             # the bidding's first bid: named, not counted
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
        assert page.locator("#movelist .ct-round:not(.ct-bids) .ml-move").count() == plays
        assert page.inner_text("#movelist .ct-bids").startswith({"zh": "叫分", "en": "Bidding"}[lang])
        page.locator("#movelist .ct-round:not(.ct-bids)").nth(1).locator(".ml-move").first.click()
        page.wait_for_function(SHOWS_ROUND, arg=1)                 # round 2's lead
        first = int(page.get_attribute("#replay-status", "data-ply"))
        at = page.evaluate(SHOWN_PLAY)
        assert at["laid"] and at["cards"] and page.inner_text("#ml-where") == f"{at['at']} / {plays}"
        page.keyboard.press("ArrowRight")                          # the play after it
        page.wait_for_function("(w) => document.querySelector('#ml-where').textContent === w",
                               arg=f"{at['at'] + 1} / {plays}")
        assert int(page.get_attribute("#replay-status", "data-ply")) == first + 1
        assert page.evaluate(SHOWN_PLAY)["laid"]
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
    tricks.nth(2).locator(".ml-move").last.click()                # the table as trick 3 ended
    page.wait_for_function(SHOWS_ROUND, arg=2)
    assert page.locator(".ct .lastplay .c").count() == 4
    assert page.locator("#ct-result").count() == 0
    assert page.inner_text("#ml-where") == "12 / 48"              # the plays, not the bids
    page.keyboard.press("ArrowLeft")                              # trick 3's third card
    page.wait_for_function("() => document.querySelector('#ml-where').textContent === '11 / 48'")
    assert page.locator(".ct .lastplay:not(.stale) .c").count() == 3
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function(SHOWS_ROUND, arg=1)                    # trick 2 as it ended
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
    page.locator("#movelist .ct-round:not(.ct-bids)").nth(5).locator(".ml-move").last.click()
    page.wait_for_function(SHOWS_ROUND, arg=5)
    shot(page, "cards-sandayi-tricks-replay-en-1280")
    set_width(page, PHONE["width"], PHONE["height"])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "cards-sandayi-tricks-replay-en-390")
    ctx.close()
