"""Finding people to play in a real browser: two players press "Find an opponent" for the same
game and meet at one table; a player challenges someone listed online, who accepts from the
lobby, and both are taken to the game (the challenger's next visit to the lobby stays there);
the lobby shows who is online and playing. Screenshots of the lobby's players section at 1280
and 390 px in both languages."""

from __future__ import annotations

import re

import httpx
import pytest

from .conftest import running_server
from .pages import set_lang
from .test_e2e_a11y import check

# a waiting xiangqi table's game, clock and casual
KIND = {"en": "Xiangqi · 10 min + 3 × 30 s byo-yomi · casual",
        "zh": "象棋 · 10 分钟 + 3 次 30 秒读秒 · 不计等级分"}
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def people(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("qipai-seeks"),
                        "nonce_window_ms=0, limits=Limits(signup_ip=(100.0, 100))") as base:
        tokens = {}
        for name in ("kai", "lin", "mei"):
            r = httpx.post(base + "/api/signup", json={"username": name, "password": "correct horse"})
            assert r.status_code == 201, r.text
            tokens[name] = r.cookies["qipai_session"]
        yield base, tokens


def page_of(browser, base, token, size=SIZES["desktop"], lang=None):
    ctx = browser.new_context(viewport=size, storage_state={"cookies": [
        {"name": "qipai_session", "value": token, "domain": "127.0.0.1", "path": "/"}], "origins": []})
    page = ctx.new_page()
    if lang:
        set_lang(page, base, lang)
    page.goto(base + "/")
    page.wait_for_selector("#presence-counts:not(:empty)")
    return page


def test_two_seekers_meet_at_one_table(people, browser):
    base, tokens = people
    kai, lin = page_of(browser, base, tokens["kai"], lang="en"), page_of(browser, base, tokens["lin"])
    # a game's card pairs with a person at its usual clock, the players' section with a chosen
    # one: two buttons, two names
    buttons = kai.inner_text('[data-seek-game="gomoku"]'), kai.inner_text("#seek-go")
    assert buttons == ("Play a person", "Find an opponent")
    kai.click('[data-seek-game="gomoku"]')
    kai.wait_for_selector("#seek-words")
    assert "±" in kai.inner_text("#seek-words")
    lin.wait_for_selector('#seeks [data-play-seek]', timeout=30_000)       # kai's seek is listed
    # with kai's rating, provisional ("1500?") and why on hover and to a screen reader
    rating = lin.locator("#seeks [data-seek] .seek-rating")
    assert rating.locator(".rating-shown").inner_text() == "1500?"
    assert "5" in rating.get_attribute("title") and rating.get_attribute("title") in rating.inner_text()
    lin.click('[data-seek-game="gomoku"]')
    for p in (kai, lin):
        p.wait_for_url(re.compile(r"/tables/\w+$"), timeout=30_000)
    assert kai.url == lin.url
    table = httpx.get(base + "/api/tables/" + kai.url.rsplit("/", 1)[1]).json()
    assert table["rated"] is True and table["status"] == "playing"
    mei = page_of(browser, base, tokens["mei"])
    mei.wait_for_function("() => document.querySelectorAll('#online [data-user] .tag').length >= 2",
                          timeout=30_000)
    assert "2" in mei.inner_text("#presence-counts")
    for p in (kai, lin, mei):
        p.context.close()


def test_a_seek_with_a_chosen_clock_and_casual(people, browser):
    base, tokens = people
    mei = page_of(browser, base, tokens["mei"])
    mei.select_option("#seek-game", "go")
    mei.select_option("#seek-clock", "go_s2")
    mei.uncheck("#seek-rated")
    mei.click("#seek-go")
    mei.wait_for_selector("#seek-words")
    (seek,) = httpx.get(base + "/api/seeks").json()
    assert (seek["game"], seek["clock"], seek["rated"]) == ("go", "go_s2", False)
    mei.click("#seek-cancel")
    mei.wait_for_selector("#seek-words", state="detached")
    assert httpx.get(base + "/api/seeks").json() == []
    mei.context.close()


def test_a_challenge_from_the_online_list_is_accepted(people, browser, shot):
    base, tokens = people
    mei = page_of(browser, base, tokens["mei"])
    kai = page_of(browser, base, tokens["kai"])
    mei.wait_for_selector('[data-challenge="kai"]', timeout=30_000)
    mei.click('[data-challenge="kai"]')
    mei.select_option('[data-challenge-game="kai"]', "xiangqi")
    # the challenge takes a clock, as a new table does: the same choices, carried to its table
    mei.select_option("select[name=game]", "xiangqi")
    values = "s => [...s.options].map((o) => o.value)"
    offered = mei.eval_on_selector('[data-challenge-clock="kai"]', values)
    assert offered == mei.eval_on_selector("select[name=clock]", values)
    assert "xq_s0_rapid" in offered and "none" in offered
    chosen = next(c for c in offered if c and c != "none")
    mei.select_option('[data-challenge-clock="kai"]', chosen)
    mei.click('[data-send-challenge="kai"]')
    kai.wait_for_selector("[data-accept]", timeout=30_000)
    assert "mei" in kai.inner_text("#challenges")
    check(kai, "lobby with a challenge")
    # the challenge's buttons stay across the lobby's polls (drawn anew at each poll, a click whose
    # press and release fell on either side of one was lost, and a box measured then was gone)
    kai.evaluate("() => { window.acceptShown = document.querySelector('[data-accept]'); }")
    for _ in range(2):
        with kai.expect_response(lambda r: "/api/challenges" in r.url):
            pass
    assert kai.evaluate("() => window.acceptShown.isConnected")
    for lang in ("en", "zh"):
        for kind, size in SIZES.items():
            p = page_of(browser, base, tokens["kai"], size, lang)
            p.wait_for_selector("[data-accept]", timeout=30_000)
            shot(p, f"seeks-lobby-{lang}-{kind}")
            if kind == "phone":
                assert p.evaluate("document.documentElement.scrollWidth") <= 390
                # the challenge shows above the games: seen on a phone without scrolling
                assert p.locator("[data-accept]").bounding_box()["y"] < size["height"]
            p.context.close()
    kai.click("[data-accept]")
    kai.wait_for_url(re.compile(r"/tables/\w+$"), timeout=30_000)
    mei.wait_for_url(re.compile(r"/tables/\w+$"), timeout=30_000)    # the challenger follows
    assert kai.url == mei.url
    made = httpx.get(base + "/api/tables/" + kai.url.rsplit("/", 1)[1],
                     cookies={"qipai_session": tokens["kai"]}).json()
    assert (made["game"], made["settings"]["clock"], made["rated"]) == ("xiangqi", chosen, True)
    # back in the lobby while the server still keeps the answer, the challenger stays there: only
    # an acceptance the page saw coming takes it to the table
    table = mei.url
    lobby = page_of(browser, base, tokens["mei"])
    lobby.evaluate("document.getElementById('presence-counts').textContent = ''")
    lobby.wait_for_selector("#presence-counts:not(:empty)", timeout=30_000)     # polled again
    assert lobby.url == base + "/" and lobby.url != table
    lobby.context.close()


def test_a_seeks_owner_goes_to_the_game_after_reloading_the_lobby(people, browser):
    """A seek's owner who reloads the lobby while the seek waits is shown the seek again, and
    taken to the table when someone plays it (as lichess does), without a press."""
    base, _ = people
    tokens = {}
    for name in ("nia", "oto"):
        r = httpx.post(base + "/api/signup", json={"username": name, "password": "correct horse"})
        assert r.status_code == 201, r.text
        tokens[name] = r.cookies["qipai_session"]
    nia = page_of(browser, base, tokens["nia"], lang="en")
    nia.select_option("#seek-game", "gomoku")
    nia.click("#seek-go")
    nia.wait_for_selector("#seek-words")
    nia.reload()
    nia.wait_for_selector("#seek-words:not(:empty)", timeout=30_000)     # followed again
    oto = page_of(browser, base, tokens["oto"])
    oto.wait_for_selector('#seeks [data-play-seek]', timeout=30_000)
    oto.click('#seeks [data-play-seek]')
    for p in (oto, nia):
        p.wait_for_url(re.compile(r"/tables/\w+$"), timeout=30_000)
    assert nia.url == oto.url
    for p in (nia, oto):
        p.context.close()


def test_the_clock_menus_offer_only_the_chosen_games_clocks(people, browser):
    """The seek's and the new table's clock menus: a clock named after another game's rule
    sheet (Junqi's 30 s a move, Wakeng's) is not offered; the general ones are."""
    base, tokens = people
    page = page_of(browser, base, tokens["mei"], lang="en")
    values = "s => [...s.options].map((o) => o.value)"
    for game, own in (("xiangqi", "xq_s0_rapid"), ("go", "go_s2")):
        page.select_option("#seek-game", game)
        page.select_option("select[name=game]", game)
        for menu in ("#seek-clock", "select[name=clock]"):
            clocks = page.eval_on_selector(menu, values)
            assert own in clocks and "none" in clocks, (game, menu, clocks)
            others = [c for c in clocks
                      if re.match(r"(xq|go|junqi|wakeng|tiaoqi)_", c) and not c.startswith(own[:3])]
            assert others == [], (game, menu, clocks)
    page.context.close()


def test_the_rated_box_is_empty_while_a_bot_sits_at_the_new_table(people, browser):
    """A game against a bot is never rated: the box says so (empty and greyed), and shows the
    person's own choice again when no bot is asked for."""
    base, tokens = people
    page = page_of(browser, base, tokens["mei"], lang="en")
    page.select_option("select[name=game]", "xiangqi")
    state = "() => [document.getElementById('rated').checked, document.getElementById('rated').disabled]"
    assert page.evaluate(state) == [False, True]          # the usual new table: one bot
    page.select_option("select[name=bots]", "0")
    assert page.evaluate(state) == [True, False]          # no bot: rated, as by default
    page.uncheck("#rated")
    page.select_option("select[name=bots]", "1")
    page.select_option("select[name=bots]", "0")
    assert page.evaluate(state) == [False, False]         # the person's choice is kept
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_go_rule_options_read_whole_and_komi_only_with_free_komi(people, browser, shot, lang):
    """The new table's rule options at 1280 px: each box shows its chosen value's words whole
    ("positional superko", "area, Black gives 4 stones"); go's komi field shows only with the
    scoring that takes it (free komi): the other scorings give their own komi (8 points for 4
    stones), which a field reading 7.5 beside them contradicted."""
    base, tokens = people
    page = page_of(browser, base, tokens["mei"], lang=lang)
    page.select_option("select[name=game]", "go")
    page.click("details:has(.options) > summary")
    page.wait_for_selector('.options [data-opt="scoring"]')
    cut = """() => [...document.querySelectorAll('.options select')].filter((s) => {
        const c = document.createElement('canvas').getContext('2d'), st = getComputedStyle(s);
        c.font = `${st.fontSize} ${st.fontFamily}`;
        return c.measureText(s.selectedOptions[0].textContent).width > s.clientWidth - 28;
      }).map((s) => s.selectedOptions[0].textContent)"""
    assert page.evaluate(cut) == []
    assert page.locator('[data-opt-field="komi"]').count() == 1
    assert page.is_hidden('[data-opt-field="komi"]')
    page.select_option('.options [data-opt="scoring"]', '"free_komi"')
    assert page.is_visible('[data-opt-field="komi"]')
    # the rule sheet's "60 minutes a game" beside the Clock: a whole-game limit, "none" by default
    # (the clock alone), read so (it was "Reading of the 60-minute rule: 30 min each (the clock)")
    limit = page.locator('[data-opt-field="time_control"]')
    assert limit.inner_text().startswith({"en": "Whole-game time limit", "zh": "整局限时"}[lang])
    assert page.eval_on_selector('[data-opt="time_control"]', "s => s.selectedOptions[0].textContent") == \
        {"en": "none (the clock alone)", "zh": "不限（只看计时）"}[lang]
    assert "60" in limit.get_attribute("title")
    shot(page, f"go-options-{lang}-desktop")
    page.context.close()


def test_the_lobby_offers_no_option_of_a_whole_match(people, browser, shot):
    """A lobby table plays one deal: shengji's "Match time (minutes)" and "Tie at time out",
    baohuang's match time, doudizhu's match scoring, ... changed nothing there, and the form
    offered them. They are gone from it (``/api/games`` names them ``match_options``); baohuang's
    number of deals shows only with the sdbh.provisional rule set, whose table plays that many
    deals, and the table made with it gets them."""
    base, tokens = people
    games = {g["id"]: g for g in httpx.get(base + "/api/games").json()}
    page = page_of(browser, base, tokens["mei"], lang="en")
    page.click("details:has(.options) > summary")
    for game, gone, kept in (("shengji", ("time_limit_min", "timeout_tiebreak"), "start_level"),
                             ("baohuang", ("time_limit_min",), "early_finish"),
                             ("doudizhu", ("match", "match_deals"), "max_redeals"),
                             ("sandayi", ("hands",), "max_redeals"),
                             ("wakeng", ("deals_per_match",), "strict_fouls"),
                             ("chinese-checkers", ("max_games",), None)):
        assert set(games[game]["match_options"]) == set(gone), game
        page.select_option("select[name=game]", game)
        page.wait_for_function("g => document.querySelector('select[name=game]').value === g", arg=game)
        if kept:
            page.wait_for_selector(f'.options [data-opt="{kept}"]')
        for name in gone:
            assert page.locator(f'.options [data-opt="{name}"]').count() == 0, (game, name)
    page.select_option("select[name=game]", "baohuang")
    page.wait_for_selector('.options [data-opt="ruleset"]')
    assert page.is_hidden('[data-opt-field="deals_per_match"]')
    shot(page, "baohuang-options-en-desktop")
    page.select_option('.options [data-opt="ruleset"]', '"sdbh.provisional"')
    assert page.is_visible('[data-opt-field="deals_per_match"]')
    page.fill('.options [data-opt="deals_per_match"]', "3")
    page.click("#create")
    page.wait_for_url(re.compile(r"/tables/\w+$"), timeout=30_000)
    tid = page.url.rsplit("/", 1)[1]
    made = httpx.get(base + "/api/tables/" + tid, cookies={"qipai_session": tokens["mei"]}).json()
    assert made["options"]["ruleset"] == "sdbh.provisional" and made["options"]["deals_per_match"] == 3
    page.context.close()


def test_no_bots_and_rated_survive_a_rule_option_change(people, browser, shot):
    """Bots "none (wait for people)" and the Rated box are the person's choices: changing a rule
    option (go's board size) kept neither (the bots went back to "fill every free seat", the box
    emptied and greyed). The table made waits for a person, rated; in the lobby's list at 390 px
    its "My table" link stays on the line of its game, in both languages."""
    base, _ = people
    r = httpx.post(base + "/api/signup",
                   json={"username": "a-rather-long-player-name", "password": "correct horse"})
    assert r.status_code == 201, r.text
    token = r.cookies["qipai_session"]
    page = page_of(browser, base, token, lang="en")
    page.select_option("select[name=game]", "go")
    page.select_option("select[name=bots]", "0")
    page.click("details:has(.options) > summary")
    for size in ("9", "13"):
        page.select_option('.options [data-opt="board_size"]', size)
        assert page.input_value("select[name=bots]") == "0"
        assert page.evaluate("() => [document.getElementById('rated').checked,"
                             " document.getElementById('rated').disabled]") == [True, False]
    page.select_option('.options [data-opt="ko_rule"]', '"simple_ko"')
    assert page.input_value("select[name=bots]") == "0"
    page.click("#create")
    page.wait_for_url(re.compile(r"/tables/\w+$"), timeout=30_000)
    tid = page.url.rsplit("/", 1)[1]
    made = httpx.get(base + "/api/tables/" + tid, cookies={"qipai_session": token}).json()
    assert made["status"] == "open" and made["rated"] is True and made["options"]["board_size"] == 13
    assert [bool(s) for s in made["seats"]] == [True, False]          # waits for a person
    page.context.close()
    for lang in ("en", "zh"):
        for kind, size in SIZES.items():
            p = page_of(browser, base, token, size, lang)
            link = p.locator(f'#tables tr[data-table="{tid}"] td.actions a')
            link.wait_for(timeout=30_000)
            # one word for "rated" in the seek, the challenge and the new table (计等级分, not 计分)
            term = p.inner_text("label:has(#rated) > span:first-child").strip()
            assert term == {"en": "Rated", "zh": "计等级分"}[lang]
            assert p.inner_text("label:has(#seek-rated)").strip() == term
            game = p.locator(f'#tables tr[data-table="{tid}"] td').first.bounding_box()
            box = link.bounding_box()
            middle = box["y"] + box["height"] / 2
            assert abs(middle - (game["y"] + game["height"] / 2)) < game["height"] / 2, (lang, kind)
            shot(p, f"lobby-my-table-{lang}-{kind}")
            p.context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_private_table_is_joined_by_its_code(people, browser, shot, lang):
    """A private table shows its code (房间号, 8 characters of an alphabet without 0/O/1/I/L) with a
    copy button; in the lobby's "Join by code" box a wrong code says so, and the right one (typed
    in lower case, with spaces) takes the reader to the table to sit. Tries are rate-limited per
    account, as an event's join code is: past 20 at once, 429 even for the right code."""
    base, tokens = people
    made = {}
    for name in (f"host-{lang}", f"guest-{lang}", f"guesser-{lang}"):
        r = httpx.post(base + "/api/signup", json={"username": name, "password": "correct horse"})
        assert r.status_code == 201, r.text
        made[name] = r.cookies["qipai_session"]
    host = {"qipai_session": made[f"host-{lang}"]}
    table = httpx.post(base + "/api/tables", cookies=host, json={
        "game": "xiangqi", "bots": 0, "settings": {"private": True}}).json()
    code = table["settings"]["code"]
    assert re.fullmatch(r"[2-9A-HJKMNP-Z]{8}", code), code
    page = page_of(browser, base, made[f"host-{lang}"], lang=lang)
    page.goto(f"{base}/tables/{table['id']}")
    page.wait_for_selector("#table-code")
    assert page.inner_text("#table-code") == f"{code[:4]}-{code[4:]}"
    page.click("#code-copy")
    page.wait_for_function("() => document.getElementById('code-said').textContent !== ''")
    # the waiting table says what is played (no lobby list shows a private table); its owner
    # may seat bots
    assert page.inner_text("#table-kind") == KIND[lang]
    assert page.locator("#addbot").count() == 1 and page.locator("#fill").count() == 1
    for kind, size in SIZES.items():
        page.set_viewport_size(size)
        shot(page, f"private-table-code-{lang}-{kind}")
    page.context.close()
    guest = page_of(browser, base, made[f"guest-{lang}"], SIZES["phone"], lang)
    wrong = ("ABCD-EFGH" if code != "ABCDEFGH" else "ABCD-EFGJ")
    guest.fill("#table-code", wrong)
    guest.click("#table-code-go")
    guest.wait_for_function("() => document.getElementById('table-code-error').textContent !== ''")
    said = guest.inner_text("#table-code-error")
    assert said.startswith({"en": "No open private table has this code",
                            "zh": "没有哪张进行中的私密桌用这个房间号"}[lang])
    assert "K7MX-3QPA" in said, said
    shot(guest, f"lobby-join-by-code-{lang}-phone")
    guest.fill("#table-code", f" {code[:4].lower()} {code[4:].lower()} ")
    guest.click("#table-code-go")
    guest.wait_for_url(f"{base}/tables/{table['id']}", timeout=30_000)
    guest.wait_for_selector("#sit")
    assert guest.inner_text("#table-kind") == KIND[lang]
    # only watching: not offered the bot buttons the server would refuse them
    assert guest.locator("#addbot").count() == 0 and guest.locator("#fill").count() == 0
    assert guest.locator("#code-box").count() == 1
    shot(guest, f"private-table-guest-{lang}-phone")
    guest.click("#sit")
    # the seats full, the game on: the note is one line with the code, the kind line gone
    guest.wait_for_selector("#private-line")
    line = {"en": "Private table · code ", "zh": "私密桌 · 房间号 "}[lang] + f"{code[:4]}-{code[4:]}"
    assert guest.inner_text("#private-line") == line
    assert guest.locator("#code-box").count() == 0
    assert guest.locator("#private-note").bounding_box()["height"] < 40
    assert guest.locator("#table-kind").is_hidden()
    guest.wait_for_selector(".xq .pc")
    shot(guest, f"private-table-playing-{lang}-phone")
    guest.context.close()
    guesser = {"qipai_session": made[f"guesser-{lang}"]}
    answers = [httpx.post(base + "/api/tables/by-code", cookies=guesser,
                          json={"code": f"WRONG{i:03d}"}).status_code for i in range(20)]
    assert answers == [404] * 20
    late = httpx.post(base + "/api/tables/by-code", cookies=guesser, json={"code": code})
    assert late.status_code == 429 and late.json()["error"] == "rate_limited", late.text
