"""What a newcomer meets first, in both languages at 1280 and 390 px: the sign-up and sign-in
forms (each label above its field, the new account's rules under it, a link to the other form),
an unknown event's address (the refusal and a link to the list, no event panels), the event
list at phone width (a long event name wraps instead of running off the screen), and the bots of
a lost card game named in words in the history's result, never by their ids ("bot:rule"); the
history and profile keep each link's word whole (复盘, not 复 over 盘); a player named in Chinese
enters an event with its code; the account forms refuse a short password in the page's language
and, once sent, say so and are not sent twice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import running_server
from .pages import FIRST_EVENT_MS
from .test_e2e_play import create_table, sign_up, sign_up_by_form

CATALOGUES = Path(__file__).resolve().parents[2] / "qipai" / "i18n"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A fresh server whose organizers are ``listboss`` and ``cupboss`` (the first sign-up is a
    newcomer); sign-ups not limited, as every test signs up from 127.0.0.1."""
    settings = "organizers=('listboss', 'cupboss'), limits=Limits(signup_ip=(100.0, 100))"
    with running_server(tmp_path_factory.mktemp("qipai-newcomer"), settings) as base:
        yield base


@pytest.mark.parametrize(("lang", "widths"), [("en", (1280, 390)), ("zh", (390,))])
def test_forms_and_unknown_event(server, browser, shot, lang, widths):
    words = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    for width in widths:
        ctx = browser.new_context(viewport={"width": width, "height": 800})
        page = ctx.new_page()
        page.goto(server + "/signup")
        page.evaluate(f"localStorage.setItem('lang', '{lang}')")
        page.goto(server + "/signup")
        form = page.locator("form.auth-form")
        form.wait_for()
        text = form.inner_text()
        assert words["auth.usernamehint"] in text and words["auth.passwordhint"] in text
        label, field = form.locator("label.field").first.locator("span"), page.locator("input[name=username]")
        assert label.bounding_box()["y"] + label.bounding_box()["height"] <= field.bounding_box()["y"] + 1
        shot(page, f"newcomer-signup-{width}-{lang}")
        page.click("#auth-switch a")
        page.wait_for_url("**/login")
        page.wait_for_selector("#auth-switch")
        assert words["auth.usernamehint"] not in page.locator("form.auth-form").inner_text()
        page.click("#auth-switch a")
        page.wait_for_url("**/signup")

        sign_up_by_form(page, server, f"{lang}new{width}")

        page.goto(server + "/events/no-such-cup")
        page.wait_for_selector("#not-found")
        said = words["error.no_event"]              # the page's sentence: a capital first letter
        assert page.inner_text("#not-found h2") == said[:1].upper() + said[1:]
        assert page.locator("#referees").count() == 0 and page.locator("a[href='/events']").count() >= 1
        shot(page, f"newcomer-noevent-{width}-{lang}")
        ctx.close()


def test_long_event_name_wraps_at_phone_width(server, browser, shot):
    ctx = browser.new_context(viewport={"width": 390, "height": 800})
    page = ctx.new_page()
    sign_up(page, server, "listboss", lobby=False)
    players = [{"id": f"b{i}", "bot": "random"} for i in range(4)]
    event = {"preset": "s3_gomoku", "event_id": "long-name-cup", "name": "A very long event name " * 4,
             "players": players}
    r = page.request.post(server + "/api/events", data=event, headers={"Origin": server},
                           timeout=FIRST_EVENT_MS)       # the server's first event may take long
    assert r.status == 201, r.text()
    page.goto(server + "/events")
    page.wait_for_selector("#event-list a[href='/events/long-name-cup']")
    sizes = page.evaluate("(() => { const t = document.querySelector('#event-list');"
                          " return [t.scrollWidth, t.parentElement.clientWidth]; })()")
    assert sizes[0] <= sizes[1], sizes
    shot(page, "newcomer-eventlist-390")
    ctx.close()


def test_history_names_bots_in_words(server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.on("dialog", lambda d: d.accept())
    sign_up(page, server, "cardnewcomer")
    page.select_option("select[name=game]", "doudizhu")
    create_table(page, bots=2)
    page.wait_for_selector("#resign")
    page.click("#resign")
    page.click('#ask [data-answer="yes"]')          # resigning asks first
    page.wait_for_selector("#record-link", timeout=60_000)
    page.goto(server + "/history")
    outcome = page.locator("#history td.outcome")
    outcome.first.wait_for()
    words = json.loads((CATALOGUES / "en.json").read_text(encoding="utf-8"))
    text = outcome.first.inner_text()
    assert "bot:" not in text, text                 # the result line is worded, no seat codes
    opponents = page.locator("#history td.opponents").first.inner_text()
    assert "bot:" not in opponents and words["botseat"].split("{")[0].strip() in opponents, opponents
    page.context.close()


# a link, button, game name or opponent's name whose word breaks over lines (复 over 盘 in a table's
# last column, 机器 over 人（规则型）among the opponents)
BROKEN_WORDS = """() => [...document.querySelectorAll(
        'main a, main button, main th, #history td.game, #history td.opponents > *')]
    .filter((e) => e.offsetParent && e.innerText.trim().length >= 2 && e.innerText.trim().length <= 12)
    .filter((e) => {
        const r = document.createRange(); r.selectNodeContents(e);
        const rows = [...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top));
        return new Set(rows).size > 1;
    })
    .map((e) => e.innerText)"""


def test_history_and_profile_keep_each_word_whole(server, browser, shot):
    """A Chinese player's history and profile beside a long result line: 复盘 stays one word."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    page = ctx.new_page()
    page.on("dialog", lambda d: d.accept())
    sign_up(page, server, "复盘棋手")
    page.select_option("select[name=game]", "doudizhu")        # a result with every seat's score
    create_table(page, bots=2)
    page.wait_for_selector("#resign")
    page.click("#resign")
    page.click('#ask [data-answer="yes"]')          # resigning asks first
    page.wait_for_selector("#record-link", timeout=60_000)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        for path in ("/history", "/u/%E5%A4%8D%E7%9B%98%E6%A3%8B%E6%89%8B"):
            page.goto(server + path)
            page.wait_for_selector("#history a[href^='/records/']")
            assert page.evaluate(BROKEN_WORDS) == [], (path, width)
            shot(page, f"newcomer-{path.split('/')[1]}-zh-{width}")
    ctx.close()


def test_a_chinese_named_account_enters_an_event(server, browser, shot):
    """Accounts may be named in Chinese; such a player joins an event with its code."""
    boss = browser.new_page()
    sign_up(boss, server, "cupboss", lobby=False)
    players = [{"id": f"c{i}", "bot": "random"} for i in range(3)]
    event = {"preset": "s3_gomoku", "event_id": "zh-name-cup", "players": players, "registration": True}
    r = boss.request.post(server + "/api/events", data=event, headers={"Origin": server},
                          timeout=FIRST_EVENT_MS)       # the server's first event may take long
    assert r.status == 201, r.text()
    code = boss.request.get(server + "/api/events/zh-name-cup/entries").json()["code"]
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    page = ctx.new_page()
    sign_up(page, server, "报名棋手", lobby=False)
    page.goto(f"{server}/events/zh-name-cup?join={code}")
    page.click("#join-event")
    page.wait_for_selector("#my-entry")
    assert not page.locator("#registration .error:not(:empty)").count(), page.inner_text("#registration")
    page.wait_for_selector("[data-entrant='报名棋手']")
    shot(page, "newcomer-zh-entrant-390")
    ctx.close()
    boss.context.close()


def test_the_account_forms_answer_in_the_pages_language_and_once(server, browser):
    """The browser's own bubble for a short password speaks the page's language (Chromium here
    speaks English), and the form, once sent, shows it is on its way and is not sent twice."""
    ctx = browser.new_context(locale="zh-CN")
    page = ctx.new_page()
    page.goto(server + "/signup")
    page.fill("input[name=username]", "一次棋手")
    page.fill("input[name=password]", "short")
    page.click("button[type=submit]")
    words = json.loads((CATALOGUES / "zh.json").read_text(encoding="utf-8"))
    bubble = page.eval_on_selector("input[name=password]", "e => e.validationMessage")
    assert bubble == words["auth.passwordhint"]
    held, sent = [], []
    page.route("**/api/signup", lambda route: (sent.append(1), held.append(route)))
    page.fill("input[name=password]", "long-enough-1")
    page.click("button[type=submit]")
    page.wait_for_function("document.querySelector('button[type=submit]').disabled")
    assert page.inner_text("button[type=submit]") == words["auth.sending"]
    page.evaluate("document.querySelector('form.auth-form').requestSubmit()")
    assert len(sent) == 1
    held[0].continue_()
    page.wait_for_url(server + "/")
    ctx.close()


def test_boxes_to_tick_are_big_enough_for_a_thumb_on_a_phone(server, browser):
    """The lobby's "rated" box and the token scopes of the bots page, at 390 px: at least 20 px
    each way (the browser's own box is 13 px)."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    sign_up(page, server, "thumbplayer", lobby=False)
    for path in ("/", "/account/bots"):
        page.goto(server + path)
        page.wait_for_selector("main input[type=checkbox]")
        sizes = page.eval_on_selector_all("main input[type=checkbox]", """bs => bs
            .filter((b) => b.offsetParent)
            .map((b) => { const r = b.getBoundingClientRect(); return [b.name, r.width, r.height]; })""")
        assert sizes and all(w >= 20 and h >= 20 for _, w, h in sizes), (path, sizes)
    page.context.close()


def test_the_lobby_counts_seats_from_the_fewest(server, browser):
    """Baohuang is played by 5, or by 4: its card says "4/5 players", never "5/4" (a fraction)."""
    page = browser.new_page()
    page.goto(server + "/")
    page.evaluate("localStorage.setItem('lang', 'en')")
    page.goto(server + "/")
    counts = page.locator('.game-card[data-game="baohuang"] .muted')
    counts.wait_for(state="attached")
    assert counts.text_content() == "4/5 players"
    page.context.close()


# every "·" of a mahjong seat's head that stands first on its line (a box too narrow for the
# name and the counts put the "· score 0 · 13 tiles" part on a line of its own)
DOT_FIRST = """() => [...document.querySelectorAll('.mj-head')].flatMap((head) => {
    const left = head.getBoundingClientRect().left + parseFloat(getComputedStyle(head).paddingLeft);
    const walk = document.createTreeWalker(head, NodeFilter.SHOW_TEXT);
    const out = [];
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        for (let i = n.data.indexOf('·'); i >= 0; i = n.data.indexOf('·', i + 1)) {
            const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
            if (r.getBoundingClientRect().left - left < 3) out.push(head.innerText);
        }
    }
    return out;
})"""


def test_a_mahjong_seats_counts_never_start_a_line_with_a_dot(server, browser):
    """Laizi mahjong at 1280 px, where the three other seats' boxes are narrow: their heads wrap
    the score and tile count to a line of their own, which does not start with "·"."""
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    sign_up(page, server, "麻将新手", lobby=False)
    body = {"game": "laizi-mahjong", "sit": True, "bots": 3, "bot": None, "options": {}}
    r = page.request.post(server + "/api/tables", data=body, headers={"Origin": server})
    assert r.status == 201, r.text()
    page.goto(f"{server}/tables/{r.json()['id']}")
    page.wait_for_selector('.mj-head >> nth=3')
    assert page.evaluate(DOT_FIRST) == []
    page.context.close()


@pytest.mark.parametrize(("lang", "who"), [("zh", "看客"), ("en", "onlooker")])
def test_a_spectator_of_a_card_game_is_told_of_the_delay_at_once(server, browser, lang, who):
    """Watching bots play doudizhu: the table shows the play 10 s late (hidden cards), and says
    so from the first moment, while the table is still empty: the game has started (not
    "Starting…", which it said for the whole delay)."""
    page = browser.new_page(locale="zh-CN" if lang == "zh" else "en-US")
    sign_up(page, server, who, lobby=False)
    body = {"game": "doudizhu", "sit": False, "bots": 3, "bot": None, "options": {}}
    r = page.request.post(server + "/api/tables", data=body, headers={"Origin": server})
    assert r.status == 201, r.text()
    page.goto(f"{server}/tables/{r.json()['id']}")
    # the notice and the status read together as the notice shows (a wait on the page, not a
    # short timeout: a loaded machine draws a page seconds late; "at once" is the status still
    # saying the game is on, before the first position, 10 s late, reaches the spectator)
    delay, status = page.wait_for_function("""() => {
        const d = document.querySelector('#watch-delay');
        return d && d.checkVisibility() && [d.innerText, document.querySelector('#status').innerText];
    }""").json_value()
    words = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    assert delay == words["watch.delay"].replace("{seconds}", "10")
    assert status == words["watch.started"].replace("{seconds}", "10")
    page.context.close()
