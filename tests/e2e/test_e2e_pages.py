"""Lobby, events, history and profiles in a real browser against a real server: a newcomer's
default table starts, an event goes from creation to its champion between two people, an event
run from the command line shows its bracket, results and replays, and a player's history and
profile say whom they played and how it went. Screenshots at 1280 and 390 px in both languages."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import httpx
import pytest

from .conftest import running_server
from .test_e2e_a11y import check
from .test_e2e_play import sign_up

WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def set_lang(page, base, lang):
    page.goto(base + "/api/me")          # any page of the site, to reach its storage
    page.evaluate(f"localStorage.setItem('lang', '{lang}')")


def shots(browser, base, path, name, shot, ready, storage=None):
    """Screenshots of ``path`` at both widths in both languages; at phone width nothing is wider
    than the screen and no word is broken a character a line. Returns nothing."""
    for lang in ("en", "zh"):
        for kind, size in WIDTHS.items():
            ctx = browser.new_context(viewport=size, storage_state=storage)
            page = ctx.new_page()
            set_lang(page, base, lang)
            page.goto(base + path)
            page.wait_for_selector(ready)
            shot(page, f"{name}-{lang}-{kind}")
            if kind == "phone":
                assert_fits_phone(page)
            ctx.close()


def assert_fits_phone(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # a list of games, events, tables or tokens fits its box too (its scrolling box would hide the cut)
    assert page.evaluate("""() => [...document.querySelectorAll('#history,#event-list,#tables,#token-list')]
        .every((t) => t.parentElement.scrollWidth <= t.parentElement.clientWidth + 1)""")
    # no text stands one character a line (Chinese in a squeezed table cell would): a box whose
    # text of 3 or more letters takes about as many lines as it has letters
    squeezed = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter((e) => e.offsetParent && e.children.length === 0)
        .filter((e) => {
            const chars = e.innerText.replace(/\\s/g, '').length;
            if (chars < 3) return false;
            const r = document.createRange(); r.selectNodeContents(e);
            const lines = new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
            return lines >= 3 && lines * 2 > chars;
        })
        .map((e) => e.innerText)""")
    assert squeezed == []


def pts(x: float) -> str:
    """Points as the page writes them: 1.5 -> "1½", 0.5 -> "½", 2.0 -> "2"."""
    whole = int(x)                               # towards zero, as the page's Math.trunc
    if abs(x - whole) != 0.5:
        return f"{x:g}".replace("-", "−")
    return ((str(whole) if whole else "-" if x < 0 else "") + "½").replace("-", "−")


def accept_dialogs(page):
    page.on("dialog", lambda d: d.accept())


# ----- lobby -------------------------------------------------------------------------------------
def test_a_newcomer_presses_create_and_the_game_starts(server, browser, shot):
    ctx = browser.new_context()
    page = ctx.new_page()
    sign_up(page, server, "newcomer")
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
    page.wait_for_selector('#status[data-seq="0"]', timeout=10_000)
    assert page.locator(".xq .pc").count() == 32
    # "play a bot now" for a card game: a full table at once
    page.goto(server + "/")
    page.click('[data-quick="doudizhu"]')
    page.wait_for_url(re.compile(r"/tables/\w+$"))
    page.wait_for_selector("#hand .c", timeout=10_000)
    assert page.locator("#hand .c").count() == 17
    storage = ctx.storage_state()
    ctx.close()
    shots(browser, server, "/", "lobby", shot, "[data-quick]", storage)


def test_lobby_signed_out_invites_to_sign_up(server, browser):
    page = browser.new_page()
    page.goto(server + "/")
    page.click('[data-quick="go"]')
    page.wait_for_url(re.compile(r"/signup\?next="))
    page.close()


SHOWN = "cs => cs.filter((c) => c.offsetParent).map((c) => c.dataset.game)"     # the cards shown


def test_the_phone_lobby_picks_a_game_from_chips_and_shows_the_tables_near_the_top(server, browser):
    """At 390 px the lobby is one screen: a row of game chips, the picked game's card, then the
    open tables (a person looking for a table to join sees them without scrolling past 14
    cards); at 1280 px every game's card shows and the tables close the page, as before."""
    host = browser.new_context()
    hp = host.new_page()
    sign_up(hp, server, "chiphost")
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
    sign_up(page, server, "chipguest")
    for lang in ("zh", "en"):
        set_lang(page, server, lang)
        page.goto(server + "/")
        page.wait_for_selector(f'[data-join="{table}"]')
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
    page.wait_for_selector("#status[data-seq]", timeout=10_000)
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
    sign_up(page, server, "already")
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
    sign_up(page, server, f"menu{lang}")
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


# ----- an event between two people, from creation to champion -----------------------------------
def test_event_from_creation_to_champion_between_two_people(browser, shot, tmp_path):
    with running_server(tmp_path) as base:
        ctx_a, ctx_b = browser.new_context(), browser.new_context()
        alice, bob = ctx_a.new_page(), ctx_b.new_page()
        accept_dialogs(alice)
        sign_up(alice, base, "alice")                            # the first account: an organizer
        sign_up(bob, base, "bob")
        alice.goto(base + "/events")
        assert alice.inner_text("#create-event") == "Create event"
        alice.select_option("select[name=preset]", "s2_xiangqi")
        alice.fill("input[name=name]", "Two friends")
        alice.fill("textarea[name=players]", "alice\nbob")
        alice.click("#create-event")
        alice.wait_for_url(re.compile(r"/events/[\w.-]+$"))
        event = alice.url.rsplit("/", 1)[1]
        assert alice.inner_text("#start-round") == "Start round 1"
        shot(alice, "event-created")
        bob.goto(f"{base}/events/{event}")                      # waiting for the round
        bob.wait_for_selector(".event-head h2")
        assert bob.locator("#play-link").count() == 0
        alice.click("#start-round")
        alice.wait_for_selector("#start-round:disabled")
        assert "under way" in alice.inner_text("#start-round")
        for n in (1, 2):                                         # best of three: alice resigns twice
            # the page follows the event: the game appears without a reload (game 2 once game 1
            # is stored), and the tab's title says it is ready
            if n == 2:
                bob.goto(f"{base}/events/{event}")
            bob.wait_for_selector(f"#play-link:has-text('game {n}')", timeout=15_000)
            if n == 1:
                assert bob.title().startswith("Your game is ready")
            else:                                                # the series so far, from bob's side
                assert "bob 1–0 alice" in bob.inner_text('[data-round="1"] tr.me')
            if n == 1:
                shot(bob, "event-your-game")
            alice.goto(f"{base}/events/{event}")
            alice.click(f"#play-link:has-text('game {n}')", timeout=15_000)
            alice.wait_for_url(re.compile(r"/tables/\w+$"))
            alice.wait_for_selector("#resign", timeout=15_000)
            alice.click("#resign")
            alice.wait_for_selector("#record-link", timeout=15_000)
            assert alice.get_attribute("#event-link", "href") == f"/events/{event}"     # back to it
        alice.goto(f"{base}/events/{event}")
        alice.wait_for_selector("#champion", timeout=15_000)
        assert "bob" in alice.inner_text("#champion")
        final = alice.locator('#bracket [data-match="1.1"]')
        assert final.locator(".bs.win").inner_text().split() == ["bob", "2"]
        # the pairings from alice's side: her score first, "You lost"
        row = alice.inner_text('[data-round="1"] tr.me')
        assert "alice 0–2 bob" in row and "You lost" in row
        assert alice.locator('[data-round="1"] tr.me a.player').count() == 2           # their profiles
        assert alice.locator("[data-replay]").count() == 2
        shot(alice, "event-champion")
        check(alice, "finished event")
        alice.click("[data-replay] >> nth=0")
        alice.wait_for_url(re.compile(r"/records/\d+$"))
        alice.wait_for_selector(".xq .pc")
        # history and profile: the opponent by name, the result in words
        alice.goto(base + "/history")
        alice.wait_for_selector("#history [data-record]")
        rows = alice.locator("#history tbody tr")
        assert rows.count() == 2
        for i in range(2):
            text = rows.nth(i).inner_text()
            assert "bob" in text and "You lost" in text and "resign" in text.lower()
        assert re.search(r"\d{4}", rows.nth(0).inner_text())     # a date, the reader's
        shot(alice, "history")
        check(alice, "history")
        bob.goto(base + "/u/bob")
        bob.wait_for_selector("#record")
        assert bob.inner_text('[data-stat="won"] b') == "2" and bob.inner_text('[data-stat="lost"] b') == "0"
        assert bob.locator("#history tbody tr").count() == 2 and "alice" in bob.inner_text("#history")
        bob.click("#history a.player >> nth=0")                 # an opponent's name: their profile
        bob.wait_for_url(base + "/u/alice")
        bob.wait_for_selector("#record")
        assert bob.inner_text('[data-stat="lost"] b') == "2"
        check(bob, "profile")
        storage, organizer = ctx_b.storage_state(), ctx_a.storage_state()
        ctx_a.close()
        ctx_b.close()
        shots(browser, base, "/u/bob", "profile", shot, "#record", storage)
        shots(browser, base, "/history", "history", shot, "#history", storage)
        shots(browser, base, f"/events/{event}", "event-two-people", shot, "#champion", storage)
        shots(browser, base, "/events", "events-organizer", shot, "#create-event", organizer)


# ----- an event run from the command line ----------------------------------------------------------
def run_from_command_line(data, preset: str, bots: int) -> None:
    """``qipai event new --preset P --bots N && qipai event run`` on the database in ``data``."""
    env = {**os.environ, "QIPAI_DATABASE_URL": f"sqlite:///{data}/qipai.db"}
    qipai = [sys.executable, "-m", "qipai.cli"]
    for args in (["event", "new", "--preset", preset, "--bots", str(bots)], ["event", "run"]):
        subprocess.run([*qipai, *args], env=env, check=True, capture_output=True, timeout=300)


def test_event_run_from_the_command_line_shows_bracket_results_and_replays(browser, shot, tmp_path):
    run_from_command_line(tmp_path, "s0_xiangqi", 12)
    with running_server(tmp_path) as base:
        eid = httpx.get(base + "/api/events").json()[0]["id"]
        page = browser.new_page()
        page.goto(f"{base}/events/{eid}")
        page.wait_for_selector("#bracket")
        heads = page.eval_on_selector_all("#bracket .bhead", "hs => hs.map((h) => h.textContent)")
        assert heads == ["Round 1", "Quarter-finals", "Semi-finals", "Final", "Champion"]
        assert page.locator("#bracket .bm.bye").count() == 4      # 12 players: 4 byes
        games = page.locator("[data-game]")
        assert games.count() > 10
        for text in games.all_inner_texts():
            assert "finished" not in text and ("won" in text or "draw" in text) and "Replay" in text
        for box in page.locator("#bracket .bm.series").all():
            assert box.locator(".bs.win").count() == 1
        champion = page.inner_text("#champion").split()[-1]
        assert page.locator("#bracket .champ").inner_text().strip() == champion
        page.click("[data-replay] >> nth=0")
        page.wait_for_url(re.compile(rf"/events/{eid}/games/\d+$"))
        page.wait_for_selector(".xq .pc")
        page.click("#prev")
        page.close()
        for scheme in ("light", "dark"):                          # axe: no serious violation
            ctx = browser.new_context(color_scheme=scheme, locale="zh-CN")
            page = ctx.new_page()
            page.goto(f"{base}/events/{eid}")
            page.wait_for_selector("#bracket")
            check(page, f"bracket ({scheme})")
            assert re.search("[\u4e00-\u9fff]", page.inner_text(".event-head h2"))   # the preset, in Chinese
            ctx.close()
        shots(browser, base, f"/events/{eid}", "event-cli", shot, "#bracket")
        shots(browser, base, "/events", "events", shot, "[data-event]")


def test_swiss_standings_show_every_tie_break_and_the_lot(browser, shot, tmp_path):
    run_from_command_line(tmp_path, "s3_xiangqi", 10)
    with running_server(tmp_path) as base:
        ev = httpx.get(base + "/api/events").json()[0]
        full = httpx.get(f"{base}/api/events/{ev['id']}").json()
        assert full["stage"] == "swiss"
        page = browser.new_page()
        page.goto(f"{base}/events/{ev['id']}")
        page.wait_for_selector("#standings")
        heads = page.eval_on_selector_all("#standings th", "hs => hs.map((h) => h.textContent)")
        direct = ["DE"] if any(s["direct"] is not None for s in full["standings"]) else []
        assert heads == ["#", "Player", "Points", "Buchholz −1", "Buchholz", "SB", "Wins", *direct]
        rows = page.locator("#standings tbody tr")
        assert rows.count() == 10
        by_lot = {s["id"] for s in full["standings"] if s.get("lot")}
        marked = set(page.eval_on_selector_all("#standings tr:has(.lot)",
                                               "rs => rs.map((r) => r.dataset.entrant)"))
        assert marked == by_lot
        assert page.locator("#lot-note").count() == (1 if by_lot else 0)
        first = full["standings"][0]
        cells = [first["id"], *(pts(first[k]) for k in ("points", "buchholz_cut1", "buchholz", "sb", "wins"))]
        assert rows.nth(0).inner_text().split()[1:] == cells
        page.close()
        shots(browser, base, f"/events/{ev['id']}", "event-swiss", shot, "#standings")


def test_round_robin_standings_show_the_direct_encounter_where_it_was_asked(browser, shot, tmp_path):
    """competition.md §2.8: a round robin breaks ties by the direct encounter first; the event
    page shows its column right after the points, with a value for the entrants it separated."""
    from concurrent.futures import ThreadPoolExecutor

    from qipai.competition import create_event, open_db
    from tests.test_competition_formats import play_by_hand

    def make() -> str:          # in a thread of its own: the director runs its own event loop
        db = open_db(f"sqlite:///{tmp_path}/qipai.db")
        overrides = {"standings": "match_points", "game_points": {"win": 1, "drawn": 0.5, "loss": 0}}
        eid = create_event(db, "s3_xiangqi", [{"id": n} for n in "abcde"], overrides=overrides)
        beats = {"a": "bcde", "b": "cd", "c": "e", "d": "c", "e": "bd"}      # e and b tie, d and c tie
        play_by_hand(db, eid, {frozenset((w, x)): w for w, xs in beats.items() for x in xs})
        return eid

    with ThreadPoolExecutor(1) as pool:
        eid = pool.submit(make).result()
    with running_server(tmp_path) as base:
        for lang, head in (("en-US", "DE"), ("zh-CN", "直胜")):
            ctx = browser.new_context(locale=lang)
            page = ctx.new_page()
            page.goto(f"{base}/events/{eid}")
            page.wait_for_selector("#standings")
            heads = page.eval_on_selector_all("#standings th", "hs => hs.map((h) => h.textContent)")
            assert heads[2:4] == (["Points", head] if lang == "en-US" else ["积分", head]), heads
            cells = dict(page.eval_on_selector_all(
                "#standings tbody tr", "rs => rs.map((r) => [r.dataset.entrant, r.children[3].textContent])"))
            assert cells == {"a": "", "e": "1", "b": "0", "d": "1", "c": "0"}
            check(page, f"round robin standings ({lang})")
            ctx.close()
        shots(browser, base, f"/events/{eid}", "event-direct-encounter", shot, "#standings")
