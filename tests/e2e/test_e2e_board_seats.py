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
