"""Lobby and the small things a new user meets in a real browser against a real server: a
newcomer's default table starts, the phone header folds into a menu, sign-in and sign-up pages,
a missing table, a tab signed out elsewhere. Screenshots at 1280 and 390 px in both languages.
The event pages are in test_e2e_pages_event_*.py."""

from __future__ import annotations

import re

import pytest

from .conftest import rendered
from .pages import WIDTHS, assert_fits_phone, set_lang, shots
from .test_e2e_play import SECRET, sign_up


# ----- lobby -------------------------------------------------------------------------------------
def test_the_bots_menu_reads_without_brackets_in_chinese(server, browser):
    """The lobby's bots menu says "1 个，补满空位": a select's option cannot close up the
    full-width brackets' inner space, so "1（补满空位）" showed as "1 ( 补满空位 )"."""
    ctx = browser.new_context(locale="zh-CN")
    ctx.add_init_script("localStorage.setItem('lang', 'zh')")
    page = ctx.new_page()
    sign_up(page, server, "botsmenu", lobby=False)
    page.goto(server + "/")
    page.wait_for_selector("select[name=bots] option", state="attached")
    bots = page.eval_on_selector_all("select[name=bots] option", "os => os.map((o) => o.textContent)")
    assert bots[-1] == f"{len(bots) - 1} 个，补满空位", bots
    assert not any(re.search(r"[()（）]", b) for b in bots), bots
    ctx.close()


def casual(page):
    """The page's table is casual, as made and as played (a newcomer's game against bots is
    never rated, as on lichess; the lobby ticks "rated" only for a table of people)."""
    table = page.request.get(page.url.replace("/tables/", "/api/tables/")).json()
    assert table["settings"]["rated"] is False and table["rated"] is False, table


def test_a_newcomer_presses_create_and_the_game_starts(server, browser, shot):
    ctx = browser.new_context()
    page = ctx.new_page()
    sign_up(page, server, "newcomer", lobby=False)
    page.goto(server + "/")
    page.wait_for_selector("[data-quick]")
    order = page.eval_on_selector_all(".game-card", "cs => cs.map((c) => c.dataset.game)")
    assert order[:4] == ["xiangqi", "doudizhu", "go", "mahjong-gb"]
    # every clock, bot and option shown in words: no preset ids, no bot ids
    clocks = page.eval_on_selector_all("select[name=clock] option", "os => os.map((o) => o.textContent)")
    assert clocks and not any(re.search(r"_|default", c) for c in clocks), clocks
    bots = page.eval_on_selector_all("select[name=bot] option", "os => os.map((o) => o.textContent)")
    assert bots and not any(b in ("greedy", "random", "rule") for b in bots), bots
    assert page.input_value("select[name=bots]") == "1"          # the other seat is a bot
    page.click("#create")                                        # nothing changed
    page.wait_for_url(re.compile(r"/tables/\w+$"))
    page.wait_for_selector('#status[data-seq="0"]', timeout=30_000)
    assert page.locator(".xq .pc").count() == 32
    page.wait_for_selector("#resign")
    assert page.locator("#draw").count() == 0                   # a bot answers no draw offer
    casual(page)
    # "play a bot now" for a card game: a full table at once
    page.goto(server + "/")
    page.click('[data-quick="doudizhu"]')
    page.wait_for_url(re.compile(r"/tables/\w+$"))
    page.wait_for_selector("#hand .c", timeout=30_000)
    assert page.locator("#hand .c").count() == 17
    casual(page)
    storage = ctx.storage_state()
    ctx.close()
    shots(browser, server, "/", "lobby", shot, "[data-quick]", storage)


def test_lobby_signed_out_invites_to_sign_up(server, browser):
    page = browser.new_page()
    # the lists held back: each panel says it is loading, not an empty box; then "None yet"
    held, hold = [], [True]
    for path in ("tables", "presence", "seeks"):
        page.route(f"**/api/{path}", lambda route: held.append(route) if hold else route.continue_())
    page.goto(server + "/")
    page.wait_for_selector("#seeks")
    assert page.inner_text("#presence-counts") == "Loading…"
    assert page.inner_text("#seeks tbody") == page.inner_text("#tables tbody") == "Loading…"
    hold.clear()
    for route in held:
        route.continue_()
    page.wait_for_function("() => document.querySelector('#seeks tbody').innerText === 'None yet'")
    page.click('[data-quick="go"]')
    page.wait_for_url(re.compile(r"/signup\?next="))
    # signed up, the bot game asked for starts (next= carries it), not the lobby again
    page.fill("input[name=username]", "quickbot")
    page.fill("input[name=password]", SECRET)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/tables/\w+$"))
    made = page.request.get(page.url.replace("/tables/", "/api/tables/")).json()
    assert made["game"] == "go" and made["options"]["board_size"] == 9     # a newcomer's 9×9, as OGS
    # the lobby's own table seats its person: no clock made for games of bots only is offered
    page.goto(server + "/")
    for game in ("go", "gomoku", "doudizhu"):
        page.select_option("select[name=game]", game)
        clocks = page.eval_on_selector_all("select[name=clock] option", "os => os.map((o) => o.value)")
        assert len(clocks) > 1 and not [c for c in clocks if c.startswith("bot_")], (game, clocks)
    page.close()


SHOWN = "cs => cs.filter((c) => c.offsetParent).map((c) => c.dataset.game)"     # the cards shown


def test_the_phone_lobby_picks_a_game_from_chips_and_shows_the_tables_near_the_top(server, browser):
    """At 390 px the lobby is one screen: a row of game chips, the picked game's card, then the
    open tables (a person looking for a table to join sees them without scrolling past 14
    cards); at 1280 px every game's card shows and the tables close the page, as before."""
    host = browser.new_context()
    hp = host.new_page()
    sign_up(hp, server, "chiphost", lobby=False)
    hp.goto(server + "/")
    hp.wait_for_selector("#create")
    hp.select_option("select[name=game]", "doudizhu")
    hp.select_option("select[name=bots]", "0")
    hp.click("#create")
    hp.wait_for_url(re.compile(r"/tables/\w+$"))
    table = hp.url.rsplit("/", 1)[1]
    host.close()
    ctx = browser.new_context(viewport=WIDTHS["phone"])
    page = ctx.new_page()
    sign_up(page, server, "chipguest", lobby=False)
    for lang in ("zh", "en"):
        set_lang(page, server, lang)
        page.goto(server + "/")
        page.wait_for_selector(f'[data-join="{table}"]')
        if lang == "zh":           # the list is not drawn again while no table changed
            lists = []             # what the lobby's refreshes were answered
            for i in range(4):
                with page.expect_response(lambda r: r.url.endswith("/api/tables")) as answer:
                    pass
                lists.append(answer.value.json())
                if i == 0:         # the first answer drawn: its Sit button
                    rendered(page)
                    page.evaluate("(t) => { window.sit = document.querySelector(`[data-join='${t}']`); }",
                                  table)
            # (another test's game of this server may have moved on meanwhile: then it was drawn)
            if all(x == lists[0] for x in lists):
                assert page.evaluate("() => window.sit.isConnected")
        chips = page.locator(".game-chips [data-pick]")
        assert chips.count() == page.locator(".game-card").count() >= 14
        assert page.eval_on_selector_all(".game-card", SHOWN) == ["xiangqi"]
        assert page.get_attribute('[data-pick="xiangqi"]', "aria-pressed") == "true"
        # the open table can be joined from the first screen, above the other lobby boxes
        sit = page.locator(f'[data-join="{table}"]').bounding_box()
        assert sit["y"] + sit["height"] <= WIDTHS["phone"]["height"], sit
        order = page.eval_on_selector_all("#app > section", "ss => ss.map((s) => s.id || s.className)")
        assert order.index("tables-box") == order.index("play-now") + 1, order
        assert_fits_phone(page)
    # a chip shows its game's card, remembered on the next visit; its button plays that game
    page.click('.game-chips [data-pick="go"]')
    assert page.eval_on_selector_all(".game-card", SHOWN) == ["go"]
    page.reload()
    page.wait_for_selector('.game-card[data-game="go"].picked')
    page.click('.game-card.picked [data-quick="go"]')
    page.wait_for_url(re.compile(r"/tables/\w+$"))
    page.wait_for_selector("#status[data-seq]", timeout=30_000)
    assert page.request.get(server + "/api/tables/" + page.url.rsplit("/", 1)[1]).json()["game"] == "go"
    # a wide screen: no chips, every card, the tables at the end of the page
    page.set_viewport_size(WIDTHS["desktop"])
    page.goto(server + "/")
    page.wait_for_selector(f'[data-join="{table}"]')
    assert page.locator(".game-chips").is_hidden()
    assert len(page.eval_on_selector_all(".game-card", SHOWN)) >= 14
    order = page.eval_on_selector_all("#app > section", "ss => ss.map((s) => s.id || s.className)")
    assert order[-1] == "tables-box", order
    # the page turned to a phone's width rearranges itself
    page.set_viewport_size(WIDTHS["phone"])
    page.wait_for_function("document.querySelector('#play-now').nextElementSibling.id === 'tables-box'")
    ctx.close()


# ----- small things a new user met -----------------------------------------------------------
def test_sign_in_page_while_signed_in_goes_on_to_next(server, browser):
    ctx = browser.new_context()
    page = ctx.new_page()
    sign_up(page, server, "already", lobby=False)
    page.goto(server + "/login?next=/history")
    page.wait_for_url(server + "/history")
    page.goto(server + "/login?next=https://elsewhere.example/")
    page.wait_for_url(server + "/")                              # only this site's paths
    ctx.close()


@pytest.mark.parametrize("lang, words", [("en", "at most"), ("zh", "最多")])
def test_a_300_character_username_is_refused_as_too_long(server, browser, lang, words):
    page = browser.new_page()
    set_lang(page, server, lang)
    page.goto(server + "/signup")
    page.fill("input[name=username]", "x" * 300)
    assert len(page.input_value("input[name=username]")) == 32      # the form takes no more
    # a longer name sent anyway is refused with the limit and its length, in the page's words
    r = page.request.post(server + "/api/signup", data={"username": "y" * 300, "password": "correct horse"})
    assert r.status == 400 and r.json()["code"] == "username_too_long"
    assert r.json()["params"] == {"length": 300, "max": 32}
    cat = page.request.get(f"{server}/api/i18n/{lang}")
    assert cat.ok and words in cat.json()["error.username_too_long"]
    page.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_phone_header_is_one_row_with_a_menu(server, browser, lang):
    # at 390 px the nav and the account links fold into a menu (as lichess's): the header is
    # one row; the menu button opens it by keyboard, Escape and a click elsewhere close it,
    # and a link in it goes to its page. At 1280 px the nav is in the header and no button.
    ctx = browser.new_context(viewport=WIDTHS["phone"])
    page = ctx.new_page()
    set_lang(page, server, lang)
    sign_up(page, server, f"menu{lang}", lobby=False)
    page.goto(server + "/history")
    page.wait_for_selector("#theme")
    rows = page.evaluate("""() => [...document.querySelector('header').children]
        .filter((e) => e.offsetParent).map((e) => e.getBoundingClientRect())
        .map((r) => Math.round(r.top + r.height / 2))""")
    assert max(rows) - min(rows) <= 4 and page.evaluate("document.querySelector('header').offsetHeight") < 60
    menu = page.locator("#menu-btn")
    assert menu.get_attribute("aria-expanded") == "false" and not page.is_visible("header nav")
    assert menu.get_attribute("aria-label") == ("Menu" if lang == "en" else "菜单")
    menu.focus()
    page.keyboard.press("Enter")
    assert menu.get_attribute("aria-expanded") == "true" and page.is_visible("#my-bots")
    assert page.get_attribute('header nav a[href="/history"]', "aria-current") == "page"
    page.keyboard.press("Escape")
    assert not page.is_visible("header nav") and page.evaluate("document.activeElement.id") == "menu-btn"
    menu.click()
    page.mouse.click(200, 600)                  # elsewhere on the page
    assert menu.get_attribute("aria-expanded") == "false" and not page.is_visible("header nav")
    menu.click()
    page.click('header nav a[href="/events"]')
    page.wait_for_url(server + "/events")
    page.set_viewport_size(WIDTHS["desktop"])
    assert page.is_visible("header nav") and not page.is_visible("#menu-btn")
    ctx.close()


def test_a_missing_table_and_a_guests_history_say_so_in_words(server, browser):
    page = browser.new_page()
    set_lang(page, server, "zh")
    page.goto(server + "/tables/nosuch")
    page.wait_for_selector("#not-found")
    text = page.inner_text("main")
    assert "这张桌子不存在" in text and "404" not in text and page.is_visible('#not-found a[href="/"]')
    page.goto(server + "/history")                # a guest's history: its title and the ways in
    page.wait_for_selector("#need-account")
    assert page.inner_text("h2") == "我的对局"
    assert page.is_visible('#need-account a[href="/login?next=/history"]')
    assert page.is_visible('#need-account a[href="/signup?next=/history"]')
    page.close()


def test_a_tab_signed_out_elsewhere_says_so(server, browser):
    ctx = browser.new_context()
    one, two = ctx.new_page(), ctx.new_page()
    sign_up(one, server, "twotabs")
    two.goto(server + "/")
    two.wait_for_selector("#create")
    one.click("#who button")                                     # sign out in the first tab
    two.wait_for_selector("#signed-out")
    assert two.evaluate("document.getElementById('app').inert")
    assert "next=" in two.get_attribute("#signed-out a", "href")
    for page in (two, one):          # each page by itself, not waiting for unload handlers
        page.close(run_before_unload=False)
    ctx.close()


def test_the_header_keeps_the_account_links_apart(server, browser):
    """The signed-in name and the links after it are separate items — never "ros My bots" read as
    one — at 1280 px in the header's row and at 390 px in the menu's panel, where the name is
    never broken a character a line and nothing is wider than the screen."""
    from pathlib import Path

    out = Path("/tmp/shots-left13")
    out.mkdir(exist_ok=True)
    for lang, name in (("en", "ros"), ("zh", "cai")):
        signed = browser.new_context()
        sign_up(signed.new_page(), server, name, lobby=False)
        for kind, size in WIDTHS.items():
            ctx = browser.new_context(viewport=size, storage_state=signed.storage_state())
            page = ctx.new_page()
            set_lang(page, server, lang)
            page.goto(server + "/events")
            page.wait_for_selector("#my-bots", state="attached")
            if kind == "phone":
                page.click("#menu-btn")
                assert_fits_phone(page)
            boxes = page.evaluate("""() => [...document.querySelectorAll('#who > *')].map((e) => {
                const r = e.getBoundingClientRect(), s = getComputedStyle(e);
                return { left: r.left, right: r.right, top: r.top, height: r.height,
                         line: parseFloat(s.lineHeight) || parseFloat(s.fontSize) * 1.5 }; })""")
            for a, b in zip(boxes, boxes[1:], strict=False):
                # side by side with a clear gap, or one under the other
                apart = b["left"] - a["right"] >= 12 or b["top"] >= a["top"] + a["height"] - 1
                assert apart, (kind, lang, boxes)
            me = boxes[0]
            assert me["height"] < 1.5 * me["line"] + 20, me            # the name on one line (and padding)
            page.screenshot(path=str(out / f"header-{lang}-{kind}.png"), clip={
                "x": 0, "y": 0, "width": size["width"], "height": 320 if kind == "phone" else 60})
            ctx.close()
        signed.close()
