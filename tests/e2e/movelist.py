"""What the move-list files (``test_e2e_movelist*.py``) share: a signed-in page per server and
language, a table against a bot, playing each board game by clicks to its end, the result in
words, screenshots in both languages."""

from __future__ import annotations

import re

from .conftest import rendered, set_width

SECRET = "e2e-password-1"
WIDTHS = {"desktop": 1280, "phone": 390}
# a result notation or a bare reason code must never be all the page says
RAW = re.compile(r"(^|\s)(1-0|0-1|1/2-1/2|[BW]\+\S*|\d+,\d+,\d+)(\s|$)"
                 r"|\((resign|timeout|checkmate|five|counted)\)")


# one account per server and language (sign-ups are rate-limited); a file of tests that imports
# new_page has a server of its own, where the accounts of another file's server do not exist
_STATES: dict[tuple[str, str], dict] = {}


def new_page(browser, server, lang, width, account=None):
    """A page in ``lang`` at ``width``, signed in as the server's account of the language
    ``account`` (``lang``'s unless given): ``(context, page, its script errors)``."""
    account = account or lang
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US",
                              storage_state=_STATES.get((server, account)),
                              viewport={"width": WIDTHS[width], "height": 900})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    if (server, account) not in _STATES:          # a signed-in state belongs to one server
        page.goto(server + "/signup")
        page.fill("input[name=username]", f"movelist-{account}")
        page.fill("input[name=password]", SECRET)
        page.click("button[type=submit]")
        # signed in once the page names the account (#me is on the page before that)
        page.wait_for_function("(n) => (document.querySelector('#me') || {}).textContent?.includes(n)",
                               arg=f"movelist-{account}")
        _STATES[(server, account)] = ctx.storage_state()
    return ctx, page, errors


def start_table(page, server, game, options, bot="greedy", bot_delay_ms=None):
    """A table of ``game`` against one bot, no clock, the page at it; the bot thinks the
    server's time unless ``bot_delay_ms`` is given."""
    settings = {"clock": "none"} if bot_delay_ms is None else {"clock": "none", "bot_delay_ms": bot_delay_ms}
    r = page.request.post(server + "/api/tables", data={
        "game": game, "options": options, "bots": 1, "bot": bot, "settings": settings})
    assert r.ok, r.text()
    table = r.json()["id"]
    page.goto(f"{server}/tables/{table}")
    page.wait_for_selector("#status[data-seq]")
    return table


def seq(page) -> int:
    return int(page.get_attribute("#status", "data-seq"))


def wait_moved(page, before: int) -> None:
    """Wait until the position number passes ``before`` or the game is over."""
    page.wait_for_function(f"() => +document.querySelector('#status').dataset.seq > {before} || "
                           "document.querySelector('#record-link')")


def over(page) -> bool:
    return page.locator("#record-link").count() > 0


def my_turn(page) -> bool:
    return page.locator("#resign").count() > 0 and page.inner_text("#status") in ("轮到你", "Your turn")


# the seat's time to act: its turn, or go's dead-stone phase (nobody's turn: both sides mark at
# once, and the status says to mark, then, once the seat submitted, that it waits; not "Your turn")
TO_ACT = ["轮到你", "Your turn", "请标记死子：点击棋块，然后按“确认死子”",
          "Mark the dead stones: click a group, then press Submit marks"]


def wait_turn_or_end(page, timeout=30_000):
    page.wait_for_function(
        "(said) => document.querySelector('#record-link') || "
        "said.includes(document.querySelector('#status').textContent)", arg=TO_ACT,
        timeout=timeout)


def check_result(page, lang, words):
    page.wait_for_selector("#record-link", timeout=60_000)
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
        wait_moved(page, before)


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
        wait_moved(page, before)


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
            page.click('#ask [data-answer="yes"]')                # a pass asks first
        else:                 # the dead-stone phase: take the referee's proposal and submit
            # (clicked only while enabled: the seat's submission, sent a state or two later,
            # disables them, and a click that waited for them would outlive the game)
            page.evaluate("""() => { for (const a of ['proposal', 'done'])
                document.querySelector(`#go-actions [data-action="${a}"]:enabled`)?.click(); }""")
        wait_moved(page, before)


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
        wait_moved(page, before)


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
        wait_moved(page, before)


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


SETUP = {"zh": ("布阵", ["南", "北"]), "en": ("Setup", ["South", "North"])}


def check_setup_row(page, lang):
    """Junqi's opening layouts, made by both seats at once, are one row "布阵" / "Setup" (by
    seat: 南 北), not a numbered move; the moves are numbered from the first real move."""
    label, seats = SETUP[lang]
    row = page.locator("#ml-list .ml-setup")
    assert row.locator(".ml-n").inner_text().strip() == label
    assert [x.strip() for x in row.locator(".ml-move").all_inner_texts()] == seats
    first = page.locator("#ml-list .ml-row:not(.ml-setup)").first
    assert first.locator(".ml-n").inner_text().strip() == "1."
    assert first.locator(".ml-move").first.get_attribute("data-ply") == "3"


def current_in_view(page):
    """The move list's current row lies wholly inside the list's visible box (never cut by its
    edge), once the page has drawn a frame."""
    rendered(page)
    box = page.evaluate("""() => {
        const l = document.querySelector('#ml-list'), c = l.querySelector('.ml-move.current');
        if (!c) return null;
        const a = l.getBoundingClientRect(), b = c.getBoundingClientRect();
        return [a.top + l.clientTop, a.top + l.clientTop + l.clientHeight, b.top, b.bottom];
    }""")
    assert box and box[0] - 0.5 <= box[2] and box[3] <= box[1] + 0.5, box


def whole_game(server, browser, shot, game):
    """A person plays a whole game of ``game`` against a bot by clicks in English at 390 px,
    then reads the finished game again in Chinese at 1280 px (one game: a second one played at
    the other width showed nothing more, the boards' clicks at 1280 px being the two-person
    game files'): the result in words, the move list navigates by click and by keys, at the
    table and in the replay (screenshots in both languages)."""
    options, play = GAMES[game]
    table = None
    for lang, width in (("en", "phone"), ("zh", "desktop")):
        ctx, page, errors = new_page(browser, server, lang, width, account="en")
        if table is None:
            table = start_table(page, server, game, options, bot_delay_ms=20)   # the play waits for its turn
            play(page)
        else:
            page.goto(f"{server}/tables/{table}")
        check_result(page, lang, OUTCOME)
        n = int(page.get_attribute("#movelist", "data-total"))
        # (go's marking round is one entry of the list for its every mark and submission)
        assert n == seq(page) and (len(list_texts(page)) == n or game == "go"), (n, seq(page))
        if game == "junqi":
            check_setup_row(page, lang)
        if game == "go":               # the marking round: one entry, what was marked dead
            said = [x for x in list_texts(page) if x.startswith(("标记死子：", "Marked dead: "))]
            steps = [x for x in list_texts(page) if "submitted" in x or "提交" in x]
            assert len(said) == 1 and not steps, (said, steps)
        if lang == "zh":               # what a screen reader hears, with Chinese full stops
            said = page.evaluate("() => document.querySelector('#board-text').textContent")
            assert ". " not in said and "。" in said, said
        assert page.get_attribute("#movelist", "data-ply") == str(n)
        current_in_view(page)
        # a whole-page capture lays the page out anew at another height (Chromium then puts the
        # list's scroll back at the top): the last move is still in view, in the capture too (at
        # 1280 px in a low window, where the list is shorter than the game)
        if width == "desktop":
            set_width(page, 1280, 420)
        current_in_view(page)
        shot(page, f"movelist-{game}-over-{lang}-{width}")
        current_in_view(page)
        if width == "desktop":
            set_width(page, 1280, 900)
        page.reload()                  # a finished game's page opens at its last move, in view
        page.wait_for_selector(f'#movelist[data-ply="{n}"]')
        current_in_view(page)
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
        current_in_view(page)
        # the replay: the same list, the result in words
        page.click("#record-link")
        page.wait_for_selector("#replay-result")
        told = page.inner_text("#replay-result")      # by side or name, not to "you"
        assert not RAW.search(told) and not any(w in told for w in OUTCOME[lang][:2]), told
        assert len(told) > len(page.evaluate("() => document.querySelector('#replay-result').title")), told
        assert len(list_texts(page)) == n or game == "go"    # (go: a marking round is one entry)
        current_in_view(page)
        shot(page, f"movelist-{game}-replayed-{lang}-{width}")
        current_in_view(page)
        if game == "junqi":
            check_setup_row(page, lang)
        page.keyboard.press("Home")
        assert page.get_attribute("#replay-status", "data-ply") == "0"
        page.keyboard.press("ArrowRight")
        assert page.get_attribute("#replay-status", "data-ply") == "1"
        page.locator("#ml-list .ml-move").last.click()             # the last entry: the end
        assert page.get_attribute("#replay-status", "data-ply") == str(n)
        if lang == "zh":
            shoot_all(page, shot, f"movelist-{game}-replay", "#movelist")
        assert errors == []
        ctx.close()
