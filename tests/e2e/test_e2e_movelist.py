"""The board games' move lists, navigation and results in words, in real Chromium: for each board
game a person plays a whole game against a bot by clicking (short options: 9x9 go with a move
cap, xiangqi and junqi with a short no-capture limit, Chinese checkers with a move cap) and reads
the result in words; the move list navigates by click and by keys, live and in the replay.
Screenshots at 1280 and 390 px in both languages go to tests/e2e/artifacts."""

from __future__ import annotations

import re

import pytest

SECRET = "e2e-password-1"
WIDTHS = {"desktop": 1280, "phone": 390}
# a result notation or a bare reason code must never be all the page says
RAW = re.compile(r"(^|\s)(1-0|0-1|1/2-1/2|[BW]\+\S*|\d+,\d+,\d+)(\s|$)"
                 r"|\((resign|timeout|checkmate|five|counted)\)")


# one account per server and language (sign-ups are rate-limited); a file of tests that imports
# new_page has a server of its own, where the accounts of another file's server do not exist
_STATES: dict[tuple[str, str], dict] = {}


def new_page(browser, server, lang, width):
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US",
                              storage_state=_STATES.get((server, lang)),
                              viewport={"width": WIDTHS[width], "height": 900})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    if (server, lang) not in _STATES:             # a signed-in state belongs to one server
        page.goto(server + "/signup")
        page.fill("input[name=username]", f"movelist-{lang}")
        page.fill("input[name=password]", SECRET)
        page.click("button[type=submit]")
        # signed in once the page names the account (#me is on the page before that)
        page.wait_for_function("(n) => (document.querySelector('#me') || {}).textContent?.includes(n)",
                               arg=f"movelist-{lang}")
        _STATES[(server, lang)] = ctx.storage_state()
    return ctx, page, errors


def start_table(page, server, game, options, bot="greedy"):
    r = page.request.post(server + "/api/tables", data={
        "game": game, "options": options, "bots": 1, "bot": bot, "settings": {"clock": "none"}})
    assert r.ok, r.text()
    table = r.json()["id"]
    page.goto(f"{server}/tables/{table}")
    page.wait_for_selector("#status[data-seq]")
    return table


def seq(page) -> int:
    return int(page.get_attribute("#status", "data-seq"))


def over(page) -> bool:
    return page.locator("#record-link").count() > 0


def my_turn(page) -> bool:
    return page.locator("#resign").count() > 0 and page.inner_text("#status") in ("轮到你", "Your turn")


def wait_turn_or_end(page, timeout=15_000):
    page.wait_for_function(
        "() => document.querySelector('#record-link') || "
        "['轮到你', 'Your turn'].includes(document.querySelector('#status').textContent)", timeout=timeout)


def check_result(page, lang, words):
    page.wait_for_selector("#record-link", timeout=20_000)
    text = page.inner_text("#status")
    assert not RAW.search(text), text
    assert any(w in text for w in words[lang]), text
    return text


OUTCOME = {"zh": ["你赢了", "你输了", "和棋"], "en": ["You won", "You lost", "Draw"]}


def play_xiangqi(page):
    """Red by clicks: each turn the first of its pieces that has a target goes to its first target."""
    while not over(page):
        wait_turn_or_end(page)
        if over(page):
            break
        before = seq(page)
        for sq in page.locator(".xq .sq:has(.pc.r)").all():
            sq.click()
            if page.locator(".xq .sq.target").count():
                page.locator(".xq .sq.target").first.click()
                break
        page.wait_for_function(f"() => +document.querySelector('#status').dataset.seq > {before} || "
                               "document.querySelector('#record-link')")


def play_gomoku(page):
    points = iter(["h8", "a1", "o15", "a15", "o1", "c13", "m3", "c3", "m13", "a8", "o8", "h1", "h15",
                   "e1", "k15", "a5", "o11", "a11", "o5", "e15", "k1"])
    while not over(page):
        wait_turn_or_end(page)
        if over(page):
            break
        before = seq(page)
        for p in points:
            if page.locator(f'.gm-board .pt[data-pt="{p}"] .st').count() == 0:
                page.click(f'.gm-board .pt[data-pt="{p}"]')
                break
        page.wait_for_function(f"() => +document.querySelector('#status').dataset.seq > {before} || "
                               "document.querySelector('#record-link')")


def play_go(page):
    """Black plays a few stones on the 3-3 points, then passes until the move cap counts the board."""
    points = iter(["C3", "G7", "C7", "G3"])
    while not over(page):
        wait_turn_or_end(page)
        if over(page):
            break
        before = seq(page)
        page.wait_for_selector('[data-action="pass"]:enabled, [data-action="proposal"]:enabled, #record-link')
        if over(page):
            break
        p = next(points, None)
        if p and page.locator(f'#goban .pt.legal[data-pt="{p}"]').count():
            page.click(f'#goban .pt[data-pt="{p}"]')
        elif page.locator('[data-action="pass"]').count():
            page.click('[data-action="pass"]')
        else:                 # the dead-stone phase: take the referee's proposal and submit
            page.click('[data-action="proposal"]')
            page.click('[data-action="done"]')
        page.wait_for_function(f"() => +document.querySelector('#status').dataset.seq > {before} || "
                               "document.querySelector('#record-link')")


def play_checkers(page):
    while not over(page):
        wait_turn_or_end(page)
        if over(page):
            break
        before = seq(page)
        if page.locator('[data-action="pass"]').count():
            page.click('[data-action="pass"]')
        else:
            page.locator("#cc-board .h.movable").first.click()
            page.locator("#cc-board .h.target").first.click()
        page.wait_for_function(f"() => +document.querySelector('#status').dataset.seq > {before} || "
                               "document.querySelector('#record-link')")


def play_junqi(page):
    while not over(page):
        wait_turn_or_end(page)
        if over(page):
            break
        before = seq(page)
        if page.locator('[data-action="submit"]').count():
            page.click('[data-action="submit"]')
        else:
            done = False
            for pt in page.locator(".jq-pt.can-move").all():
                pt.click()
                if page.locator(".jq-pt.target").count():
                    page.locator(".jq-pt.target").first.click()
                    done = True
                    break
            assert done
        page.wait_for_function(f"() => +document.querySelector('#status').dataset.seq > {before} || "
                               "document.querySelector('#record-link')")


GAMES = {
    "xiangqi": ({"no_capture_plies": 10}, play_xiangqi),
    "gomoku": ({}, play_gomoku),
    "go": ({"board_size": 9, "max_moves": 20}, play_go),
    "chinese-checkers": ({"max_moves": 10}, play_checkers),
    "junqi": ({"no_capture_moves": 10}, play_junqi),
}


def shoot_all(page, shot, name, ready):
    """Screenshots of the page at 1280 and 390 px in both languages (the page's own size and
    language are put back)."""
    size, lang = page.viewport_size, page.evaluate("() => localStorage.getItem('lang')")
    for lg in ("zh", "en"):
        for width, px in WIDTHS.items():
            page.set_viewport_size({"width": px, "height": 900})
            page.evaluate(f"() => localStorage.setItem('lang', '{lg}')")
            page.reload()
            page.wait_for_selector(ready)
            shot(page, f"{name}-{lg}-{width}")
    page.set_viewport_size(size)
    page.evaluate("(l) => l ? localStorage.setItem('lang', l) : localStorage.removeItem('lang')", lang)
    page.reload()
    page.wait_for_selector(ready)


def list_texts(page):
    return [x.strip() for x in page.locator("#ml-list .ml-move").all_inner_texts()]


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_against_a_bot_with_its_move_list(server, browser, shot, game):
    options, play = GAMES[game]
    for lang, width in (("zh", "desktop"), ("en", "phone")):
        ctx, page, errors = new_page(browser, server, lang, width)
        start_table(page, server, game, options)
        play(page)
        check_result(page, lang, OUTCOME)
        n = int(page.get_attribute("#movelist", "data-total"))
        assert n == seq(page) and len(list_texts(page)) == n, (n, seq(page))
        assert page.get_attribute("#movelist", "data-ply") == str(n)
        if lang == "zh":
            shoot_all(page, shot, f"movelist-{game}-end", "#movelist")
        # the list navigates: Home, a click on a move, the arrows, End
        page.keyboard.press("Home")
        assert page.get_attribute("#movelist", "data-ply") == "0"
        page.locator("#ml-list .ml-move").nth(2).click()
        assert page.get_attribute("#movelist", "data-ply") == "3"
        assert page.locator("#ml-list .ml-move.current").get_attribute("data-ply") == "3"
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        assert page.get_attribute("#movelist", "data-ply") == "2"
        page.keyboard.press("End")
        assert page.get_attribute("#movelist", "data-ply") == str(n)
        # the replay: the same list, the result in words
        page.click("#record-link")
        page.wait_for_selector("#replay-result")
        told = page.inner_text("#replay-result")      # by side or name, not to "you"
        assert not RAW.search(told) and not any(w in told for w in OUTCOME[lang][:2]), told
        assert len(told) > len(page.evaluate("() => document.querySelector('#replay-result').title")), told
        assert len(list_texts(page)) == n
        page.keyboard.press("Home")
        assert page.get_attribute("#replay-status", "data-ply") == "0"
        page.keyboard.press("ArrowRight")
        assert page.get_attribute("#replay-status", "data-ply") == "1"
        page.locator("#ml-list .ml-move").nth(n - 1).click()
        assert page.get_attribute("#replay-status", "data-ply") == str(n)
        if lang == "zh":
            shoot_all(page, shot, f"movelist-{game}-replay", "#movelist")
        assert errors == []
        ctx.close()



def last_to(page):
    sq = page.locator(".xq .sq.last-to")
    return sq.get_attribute("data-sq") if sq.count() else None


def iccs(page, ply):
    """The ICCS text of move ``ply`` (1-based), from its hover title."""
    return page.get_attribute(f'#ml-list .ml-move[data-ply="{ply}"]', "title").rsplit(" ", 1)[1]


def shows(page, ply):
    """Wait until the board's last-move mark is on the destination of move ``ply``."""
    page.wait_for_function("(sq) => document.querySelector('.xq .sq.last-to')?.dataset.sq === sq",
                           arg=iccs(page, ply)[2:])


def red_moves(page, n):
    for _ in range(n):
        wait_turn_or_end(page)
        before = seq(page)
        for sq in page.locator(".xq .sq:has(.pc.r)").all():
            sq.click()
            if page.locator(".xq .sq.target").count():
                page.locator(".xq .sq.target").first.click()
                break
        page.wait_for_function(f"() => +document.querySelector('#status').dataset.seq > {before}")


def test_live_move_list_follows_the_game_and_fetches_older_positions(server, browser, shot):
    ctx, page, errors = new_page(browser, server, "en", "desktop")
    start_table(page, server, "xiangqi", {}, bot="random")
    red_moves(page, 3)
    wait_turn_or_end(page)
    n = seq(page)
    assert n == 6 and int(page.get_attribute("#movelist", "data-total")) == 6
    assert page.get_attribute("#movelist", "data-ply") == "6" and page.locator("#ml-back").is_hidden()
    assert last_to(page) == iccs(page, 6)[2:]
    # back two moves with the keys: the board shows position 4, as a replay (nothing to click)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("#movelist", "data-ply") == "4"
    shows(page, 4)
    assert page.locator("#ml-back").is_visible()
    # Black's side stays at the top (two moves by the bot may have moved at most two of its back rank)
    assert page.locator('.xq .sq:has(.pc.b)[data-sq$="9"]').count() >= 7
    top, bottom = (page.locator(f'.xq .sq[data-sq="{sq}"]').bounding_box()["y"] for sq in ("a9", "a0"))
    assert top < bottom
    shot(page, "movelist-live-browsing-en-desktop")
    page.keyboard.press("End")
    assert page.get_attribute("#movelist", "data-ply") == "6" and last_to(page) == iccs(page, 6)[2:]
    # a move made while the viewer looks at the start: the list grows, the board stays at the start
    red_moves(page, 1)
    page.keyboard.press("Home")
    assert page.get_attribute("#movelist", "data-ply") == "0"
    page.wait_for_function("() => +document.querySelector('#status').dataset.seq >= 8")
    page.wait_for_function("() => document.querySelector('#movelist').dataset.total === '8'")
    assert page.get_attribute("#movelist", "data-ply") == "0" and last_to(page) is None
    # a click on a move, then End: the live game again, and it can be played
    page.locator('#ml-list .ml-move[data-ply="5"]').click()
    shows(page, 5)
    page.click("#ml-back")
    assert page.get_attribute("#movelist", "data-ply") == "8"
    red_moves(page, 1)
    # after a reload only the live position is known: an older one is asked of the server
    page.reload()
    page.wait_for_selector("#movelist")
    wait_turn_or_end(page)
    total = int(page.get_attribute("#movelist", "data-total"))
    assert total == seq(page) == 10
    page.keyboard.press("ArrowLeft")
    shows(page, 9)
    page.set_viewport_size({"width": 390, "height": 900})
    shot(page, "movelist-live-browsing-en-phone")
    # a move typed while looking back brings the game in play back
    assert page.get_attribute("#movelist", "data-ply") == "9"
    typed = page.get_attribute("#legal-moves option >> nth=0", "value")
    page.fill('#move-entry input[name="move"]', typed)
    page.press('#move-entry input[name="move"]', "Enter")
    page.wait_for_function("() => +document.querySelector('#status').dataset.seq >= 11")
    # read at once: the bot may answer between two reads
    assert page.evaluate("() => { const d = document.querySelector('#movelist').dataset; "
                         "return d.ply === d.total; }")
    assert errors == []
    ctx.close()


def finished_results():
    """(game, result, last public view, number of seats) of short seeded random games of every
    game, and of a resignation at the start of each."""
    import random

    import qipai

    out = []
    for info in qipai.games():
        if info.id.startswith("test-"):       # the tests' own games (tests/match_games.py)
            continue
        game = qipai.load(info.id)
        state = game.new_state(seed=5)
        rnd = random.Random(5)
        for _ in range(4000):
            if state.is_terminal():
                break
            seat = state.to_act[0]
            state.apply(rnd.choice(state.legal_actions(seat)), seat=seat)
        if state.result:
            out.append((info.id, state.result.to_json(), state.view(None), state.num_seats))
        resigned = game.new_state(seed=6)
        try:
            resigned.forfeit(0, "resign")
        except qipai.IllegalAction:
            continue
        out.append((info.id, resigned.result.to_json(), resigned.view(None), resigned.num_seats))
    # three players of Chinese checkers: a ranking, and a move cap that ties them all
    for options in ({"ranking": "full"}, {"ranking": "full", "max_moves": 10}):
        state = qipai.load("chinese-checkers", **options).new_state(seed=2, num_seats=3)
        rnd = random.Random(2)
        while not state.is_terminal():
            seat = state.to_act[0]
            state.apply(rnd.choice(state.legal_actions(seat)), seat=seat)
        out.append(("chinese-checkers", state.result.to_json(), state.view(None), 3))
    return out


def test_results_read_as_words_in_both_languages_for_every_game(server, browser):
    cases = finished_results()
    assert {c[0] for c in cases} >= {"xiangqi", "go", "gomoku", "chinese-checkers", "junqi", "doudizhu",
                                     "wakeng", "shengji", "baohuang", "fouafour", "sandayi"}
    for lang in ("zh", "en"):
        ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US")
        page = ctx.new_page()
        page.goto(server + "/")
        page.wait_for_selector("#theme")     # drawn once the header speaks the page's language
        for game, result, view, n in cases:
            names = [f"p{i}" for i in range(n)]
            for seat in (None, 0):
                text = page.evaluate(
                    """async ([result, game, seat, names, view]) => {
                        const { resultText } = await import('/static/result.js');
                        const { t, lang } = await import('/static/i18n.js');
                        return resultText(result, { game, seat, names, view, t, lang });
                    }""", [result, game, seat, names, view])
                where = (game, seat, result["text"], result["reason"], text)
                assert text and text != result["text"] and not RAW.search(text), where
                if lang == "zh":
                    assert re.search("[\u4e00-\u9fff]", text) and not re.search("[A-Za-z]{3,}", text), where
                    assert ": " not in text, where          # a Chinese colon (：) before the scores
                else:
                    assert not re.search("[\u4e00-\u9fff]", text), where
                if seat == 0 and result["winners"]:
                    won = 0 in result["winners"]
                    said = ("你赢了" if lang == "zh" else "You won") in text
                    assert said == won or game == "chinese-checkers", where
        ctx.close()
