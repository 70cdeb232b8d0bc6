"""The table page and the server's session rules in a real browser: a seat opened in a second
tab closes the first one for good (no reconnect loop), a page whose table starts while the
start's write waits keeps one socket (and gets its record link), and a player in trusteeship
takes the seat back with one click."""

from __future__ import annotations

import re

from .conftest import running_server
from .test_e2e_play import create_table, sign_up, wait_seq

FAST_CARDS = {"move_cap": "400ms", "on_cap": "auto", "trustee_after": 2, "trustee_delay": "400ms"}


def new_table(page, body: dict) -> str:
    """Create a table from the page (its cookie and origin); the table id."""
    return page.evaluate("""async (body) => {
        const r = await fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
                                              body: JSON.stringify(body)});
        return (await r.json()).id;
    }""", body)


def test_a_second_tab_takes_the_seat_and_the_first_stays_closed(server, browser):
    ctx = browser.new_context(locale="en-US")
    ctx.clock.install()                          # the pages' timers run when the test says
    first = ctx.new_page()
    sign_up(first, server, "twotabs")
    tid = new_table(first, {"game": "xiangqi", "bots": 1, "settings": {"clock": "none", "bot_delay_ms": 0}})
    first.goto(f"{server}/tables/{tid}")
    first.wait_for_selector('#status[data-seq="0"]')
    first.wait_for_selector("#controls button")                 # resign, offer a draw
    sockets = []
    first.on("websocket", lambda ws: sockets.append(ws.url))
    second = ctx.new_page()
    second.goto(f"{server}/tables/{tid}")
    second.wait_for_selector('#status[data-seq="0"]')
    # said in words (close reason "replaced", competition.md §6.4), not as the code
    # as a sentence: a capital first letter
    said = "This table was opened in another window or tab; this one is closed"
    first.wait_for_function(f'document.querySelector("#status").textContent === {said!r}')
    # the first tab's timers run 1.5 s on (longer than the first reconnect delay): no new socket
    first.clock.run_for(1500)
    assert first.inner_text("#status") == said
    # the closed tab offers nothing to do at the table (no resign, no draw offer) any more
    assert first.locator("#controls button").count() == 0
    assert sockets == []
    ctx.close()


def test_a_table_that_starts_while_its_write_waits_keeps_the_page_and_its_record_link(browser, tmp_path):
    """The table page polls an open table; the socket's news waits for the writes behind it. A
    full run's slow commits let the poll see the start first: the page then opened its socket
    again, the old socket's late close opened a third, the server closed the second as replaced
    (4409) and the page took that for good — the game went on with no resign button and no
    record link at its end. Here the start's write waits (the storage fault file) until the
    poll has seen it."""
    settings = "storage_faults=True, storage_wait=0.5, limits=Limits(signup_ip=(100.0, 100))"
    with running_server(tmp_path, settings) as base:
        ctx_red, ctx_black = browser.new_context(locale="en-US"), browser.new_context(locale="en-US")
        red, black = ctx_red.new_page(), ctx_black.new_page()
        sign_up(red, base, "waitred")
        sign_up(black, base, "waitblack")
        red.select_option("select[name=game]", "xiangqi")
        table = create_table(red)
        red.wait_for_selector("#invite")                      # the open table, polled
        polls = []
        red.on("response", lambda r: polls.append(r) if r.url == f"{base}/api/tables/{table}" else None)
        fault = tmp_path / "qipai.db.fault"
        fault.write_text("full")
        try:
            # black sits (answered 503: the seat is kept, its write waits); the start reaches
            # the red page by its poll, its socket's "table" message waits for the write
            assert black.request.post(f"{base}/api/tables/{table}/sit").status == 503
            while not any(r.ok and r.json()["status"] == "playing" for r in polls):
                red.wait_for_event("response")
        finally:
            fault.unlink()
        black.goto(f"{base}/tables/{table}")
        wait_seq(red, 0)
        wait_seq(black, 0)
        black.click("#resign")
        black.click('#ask [data-answer="yes"]')
        for page in (black, red):
            page.wait_for_selector("#record-link")
        assert re.search(r"You won — \S+ resigned$", red.inner_text("#status")), red.inner_text("#status")
        ctx_red.close()
        ctx_black.close()


def test_a_player_in_trusteeship_takes_the_seat_back(server, browser):
    ctx = browser.new_context()
    page = ctx.new_page()
    sign_up(page, server, "trustee")
    tid = new_table(page, {"game": "doudizhu", "bots": 2,
                           "settings": {"clock": FAST_CARDS, "bot_delay_ms": 0}})
    page.goto(f"{server}/tables/{tid}")
    page.wait_for_selector("#takeback", timeout=30_000)   # two timeouts in a row: trusteeship
    page.click("#takeback")
    page.wait_for_selector("#takeback", state="detached", timeout=30_000)
    ctx.close()
