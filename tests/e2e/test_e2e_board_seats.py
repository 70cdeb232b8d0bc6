"""The seats of a board game's table on a phone (390 px) and at 1280 px, in Debian's Chromium:
every seat's name, rating and clock (and go's captures) are on the screen, none cut off at the
side, and each seat is shown once. Xiangqi keeps the strip of seats above the board, laid out to
fit; go, gomoku, junqi and chinese checkers draw a box per seat on the board, which takes the
seat's rating and clock, and the strip is hidden, at both widths. Screenshots at both widths in
both languages go to tests/e2e/artifacts/."""

from __future__ import annotations

import pytest

from .test_e2e_play import sign_up

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SLOW_BOTS = {"bot_delay_ms": 30_000}       # the seat to act stays the same while the test looks
#: the game, its seats, where its board names the seats (None: the strip does)
GAMES = [("xiangqi", 2, None), ("go", 2, "[data-player]"), ("gomoku", 2, ".gm-seat"),
         ("junqi", 2, ".jq-seat"), ("chinese-checkers", 6, ".cc-seat")]

#: every shown seat: its box's sides, whether its clock and name are inside the screen, the times
#: the player's name stands on the table's part of the page
SEEN = """(name) => {
    const shown = (e) => !!e.offsetParent;
    const inside = (e) => { const r = e.getBoundingClientRect();
        return r.width > 0 && r.left >= 0 && r.right <= innerWidth; };
    const strip = document.querySelector('.seats');
    const seats = [...document.querySelectorAll('.seats .seat, [data-seatbox]')].filter(shown);
    const main = document.querySelector('.table-main').innerText;
    return { strip: shown(strip) && strip.children.length > 0,
             stripFits: strip.scrollWidth <= strip.clientWidth + 1,
             seats: seats.map((s) => ({ text: s.innerText, inside: inside(s),
                 clock: !!s.querySelector('.clock') && inside(s.querySelector('.clock')) })),
             times: main.split(name).length - 1, wide: document.documentElement.scrollWidth };
}"""

#: the number of lines the text of the first element matching a selector stands on
ONE_LINE = """(sel) => { const r = document.createRange(); r.selectNodeContents(document.querySelector(sel));
    return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; }"""


#: every "·" of go's seat boxes: whether the element holding it keeps it on one line with the
#: captures after it, and whether the dot and the count stand on the same line
DOTS = """(word) => [...document.querySelectorAll('[data-seatbox][data-player]')]
    .filter((b) => b.offsetParent)
    .flatMap((box) => { const out = []; const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      const nodes = []; while (walk.nextNode()) nodes.push(walk.currentNode);
      nodes.forEach((n, k) => { const at = n.data.indexOf('·');
        const after = n.data.slice(at + 1) + nodes.slice(k + 1).map((m) => m.data).join('');
        if (at < 0 || !after.trim().startsWith(word)) return;
        const r = document.createRange(); r.setStart(n, at); r.setEnd(n, at + 1);
        const count = box.querySelector('[data-cap]').getBoundingClientRect();
        const dot = r.getBoundingClientRect();
        out.push({ nowrap: getComputedStyle(n.parentElement).whiteSpace === 'nowrap',
                   same: Math.abs((dot.top + dot.bottom) / 2 - (count.top + count.bottom) / 2)
                         < count.height / 2 }); });
      return out; })"""


@pytest.mark.parametrize(("game", "seats", "boxes"), GAMES, ids=[g for g, _, _ in GAMES])
def test_each_seat_fits_a_phone_once(server, browser, shot, game, seats, boxes):
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    name = f"seats{game[:6]}".replace("-", "")
    sign_up(page, server, name)
    tid = page.evaluate("""async (body) => {
        const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
        return (await r.json()).id; }""", {"game": game, "bots": seats - 1, "num_seats": seats,
                                           "settings": SLOW_BOTS,
                                           "options": {"board_size": 19} if game == "go" else {}})
    for lang in ("en", "zh"):
        page.evaluate(f"localStorage.setItem('lang', '{lang}')")
        page.set_viewport_size(PHONE)
        page.goto(f"{server}/tables/{tid}")
        page.wait_for_function("(n) => document.querySelectorAll('.seats .seat .clock, .seat-extra .clock')"
                               ".length === n", arg=seats)
        seen = page.evaluate(SEEN, name)
        assert seen["wide"] <= 390, seen
        assert len(seen["seats"]) == seats, seen
        assert all(s["inside"] and s["clock"] for s in seen["seats"]), seen
        assert seen["times"] == 1, seen                    # the player's seat once
        if boxes is None:
            assert seen["strip"] and seen["stripFits"], seen
        else:
            assert not seen["strip"], seen
            assert page.locator(f"{boxes}[data-seatbox] .seat-extra .clock").count() == seats
        # a board with no move yet says so on one line (gomoku's list of cells put it in one cell)
        assert page.evaluate(ONE_LINE, ".ml-empty") == 1
        if game == "chinese-checkers":    # six seats in short boxes: the board close under them
            seats_h = page.evaluate("document.querySelector('.cc-seats').getBoundingClientRect().height")
            assert seats_h < 844 / 4, seats_h
        # the player's own name whole, not cut short ("seatschin…" in a box of six at 390 px)
        cut = page.evaluate("""(name) => [...document.querySelectorAll('[data-seatbox] .nm')]
            .filter((e) => e.textContent.includes(name))
            .map((e) => e.scrollWidth > e.clientWidth + 1)""", name)
        assert cut == ([] if boxes is None else [False]), cut
        if game == "go":                                   # the prisoners stay beside the clock
            assert all(("Captures" if lang == "en" else "提子") in s["text"] for s in seen["seats"]), seen
            # "· 提子 0" wraps whole: the dot on the line of the count, never left at a line's end
            dots = page.evaluate(DOTS, "Captures" if lang == "en" else "提子")
            assert len(dots) == 2 and all(d["nowrap"] and d["same"] for d in dots), dots
        shot(page, f"board-seats-{game}-{lang}-390")
        page.set_viewport_size(DESKTOP)                     # each seat once at 1280 px too
        seen = page.evaluate(SEEN, name)
        assert len(seen["seats"]) == seats and seen["times"] == 1, seen
        assert all(s["inside"] and s["clock"] for s in seen["seats"]), seen
        assert seen["strip"] == (boxes is None), seen
        shot(page, f"board-seats-{game}-{lang}-1280")
    ctx.close()


#: whether the board's coordinates are shown, and the switch's state
COORDS = """() => ({ shown: [...document.querySelectorAll(
        '.xq-files, .go-board .coord, .gm-board .coord, .cc-rulers')]
    .map((e) => getComputedStyle(e).visibility === 'visible'),
    pressed: document.querySelector('[data-action=toggle-coords]').getAttribute('aria-pressed') })"""


def test_the_coordinates_switch_is_under_every_board_and_remembered(server, browser):
    """One switch (a toggle button under the xiangqi, go, gomoku and Chinese checkers boards)
    shows or hides the coordinates of all of them; the browser keeps the choice, as the theme and
    the sound."""
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    sign_up(page, server, "coordswitch")
    tables = {game: page.evaluate("""async (body) => {
        const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
        return (await r.json()).id; }""", {"game": game, "bots": 2, "settings": SLOW_BOTS,
                                           "options": {"board_size": 9} if game == "go" else {}})
        for game in ("go", "xiangqi", "gomoku", "chinese-checkers")}

    def seen():
        page.wait_for_selector("[data-action=toggle-coords]")
        return page.evaluate(COORDS)

    page.goto(f"{server}/tables/{tables['go']}")
    got = seen()
    assert got["pressed"] == "true" and got["shown"] and all(got["shown"]), got
    page.click("[data-action=toggle-coords]")
    got = seen()
    assert got["pressed"] == "false" and got["shown"] and not any(got["shown"])
    for game in ("xiangqi", "gomoku", "chinese-checkers", "go"):     # every board, after a reload too
        page.goto(f"{server}/tables/{tables[game]}")
        got = seen()
        assert got["pressed"] == "false" and got["shown"] and not any(got["shown"]), (game, got)
    page.click("[data-action=toggle-coords]")
    page.goto(f"{server}/tables/{tables['xiangqi']}")
    got = seen()
    assert got["pressed"] == "true" and all(got["shown"]), got
    ctx.close()


#: a seat's name, its tooltip, whether it is cut short, the lines the strip's seats stand on
STRIP = """() => { const s = [...document.querySelectorAll('.seats > .seat')];
    return { rows: new Set(s.map((x) => Math.round(x.getBoundingClientRect().top))).size,
             names: s.map((x) => { const n = x.querySelector('.seat-nm'); const b = n.getBoundingClientRect();
                 const mids = [...x.querySelector('.seat-who').children].map((c) => c.getBoundingClientRect())
                     .map((q) => (q.top + q.bottom) / 2);
                 return { title: n.title, cut: n.scrollWidth > n.clientWidth + 1, height: b.height,
                   lines: mids.every((m) => b.top <= m && m <= b.bottom) && b.height < 30 ? 1 : 2 }; }),
             ring: getComputedStyle(document.querySelector('.seat.to-act')).boxShadow }; }"""
#: the presence dot of my own seat box and the last line of its name's text: the same line
DOT = """() => { const nm = [...document.querySelectorAll('[data-seatbox] .nm')]
        .find((e) => e.querySelector('.presence-dot'));
    const r = document.createRange(); r.selectNodeContents(nm.firstChild);
    const rects = [...r.getClientRects()]; const last = rects[rects.length - 1];
    const d = nm.querySelector('.presence-dot').getBoundingClientRect();
    return { dotMid: (d.top + d.bottom) / 2, top: last.top, bottom: last.bottom,
             label: document.querySelector('#move-entry label').firstChild.textContent.trim(),
             button: document.querySelector('#move-entry button').textContent }; }"""


def test_long_names_keep_each_seat_on_its_lines(server, browser, shot):
    """Xiangqi's strip of seats stays one line at 1280 px with a long name (cut short with "…", the
    whole name in its tooltip), each seat's name on one line at 390 px ("Bot (Greedy)" not broken),
    the seat to act ringed in amber, not pink; a card table's presence dot stands on its name's last
    line, never alone, and its typed-input box asks for a play, not a move (输入出牌)."""
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    name = "longnames" + "x" * 23                      # 32 characters, the longest a name may be
    sign_up(page, server, name)
    make = """async (body) => { const r = await fetch('/api/tables', {method: 'POST',
        credentials: 'same-origin', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify(body)}); return (await r.json()).id; }"""
    xq = page.evaluate(make, {"game": "xiangqi", "bots": 1, "settings": SLOW_BOTS})
    ddz = page.evaluate(make, {"game": "doudizhu", "bots": 2, "settings": SLOW_BOTS})
    # the typed play's button has its own name, not the card Play button's ("Play typed")
    for lang, bot, typed, play in (("en", "Bot (Greedy)", "Type a play:", "Play typed"),
                                   ("zh", "机器人（贪心）", "输入出牌：", "按输入出牌")):
        page.evaluate(f"localStorage.setItem('lang', '{lang}')")
        page.set_viewport_size(DESKTOP)
        page.goto(f"{server}/tables/{xq}")
        page.wait_for_selector(".seat.to-act .clock")
        got = page.evaluate(STRIP)
        assert got["rows"] == 1 and [n["title"] for n in got["names"]] == [name, bot], got
        assert "255, 51, 204" not in got["ring"], got                 # not the old pink #f3c
        page.set_viewport_size(PHONE)
        got = page.evaluate(STRIP)
        assert all(n["lines"] == 1 for n in got["names"]) and got["names"][0]["cut"], got
        shot(page, f"board-seats-longname-{lang}-390")
        page.goto(f"{server}/tables/{ddz}")
        page.wait_for_selector("[data-seatbox] .nm .presence-dot")
        got = page.evaluate(DOT)
        assert got["top"] <= got["dotMid"] <= got["bottom"], got
        assert (got["label"], got["button"]) == (typed, play), got
        shot(page, f"card-seat-longname-{lang}-390")
    ctx.close()
