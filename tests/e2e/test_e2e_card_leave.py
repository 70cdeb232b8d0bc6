"""Leaving a lobby card table and a clock that runs out there (issue 13): the Leave button
hands the seat to the computer (托管, seen by everyone) and goes back to the lobby, and the
player takes the seat back at the table; the first timeout at a lobby card table puts the seat
in trusteeship at once, with 取消托管, and the move the server made is marked so in the history
(不叫（超时）), not shown as if the player chose it."""

from __future__ import annotations

from .movelist import new_page


def test_a_timeout_at_a_lobby_card_table_is_marked_and_hands_the_seat_to_the_computer(browser, server):
    ctx, page, errors = new_page(browser, server, "zh", "desktop")
    r = page.request.post(server + "/api/tables", data={
        "game": "doudizhu", "sit": True, "bots": 2, "bot": "random",
        "settings": {"clock": {"move_cap": "1s", "on_cap": "auto", "trustee_delay": "60s"}}})
    assert r.ok, r.text()
    page.goto(f"{server}/tables/{r.json()['id']}")
    # one timeout (not two): trusteeship, its take-back button and the note say so
    page.wait_for_selector("#takeback", timeout=30_000)
    assert page.inner_text("#takeback") == "取消托管"
    page.wait_for_function("() => document.querySelector('#table-note').textContent.includes('超时')")
    # the bid the clock made is in the history as a timeout, under the player's own seat
    mark = page.wait_for_selector(".ct-round-play:has(.auto)")
    assert "超时" in mark.inner_text(), mark.inner_text()
    # a timeout's move is the rules' default (不叫 in the bidding), not the bot's choice
    if page.locator(".ct-bids .ct-round-play:has(.auto)").count():
        assert page.inner_text(".ct-bids .ct-round-play:has(.auto) .txt") == "不叫"
    assert page.locator(".ct-round-play .auto").count() == 1
    assert "托管中" in page.inner_text("main")
    # the bots' seats are named in Chinese ("机器人（随机…）"), never by their code ("机器人random")
    assert "机器人（" in page.inner_text("main") and "random" not in page.inner_text("main")
    # the status line says the computer plays the seat, never "轮到你" (your turn)
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('托管中')")
    # nor does the screen readers' text or the tab title while the computer plays
    page.wait_for_function("() => document.querySelector('#board-text').textContent.includes('托管中')")
    assert "轮到你" not in page.inner_text("#board-text") and "轮到你" not in page.title()
    page.click("#takeback")
    page.wait_for_selector("#takeback", state="detached", timeout=30_000)
    page.wait_for_function("() => !document.querySelector('#status').textContent.startsWith('托管中')")
    assert not errors
    ctx.close()


def test_leave_hands_the_seat_to_the_computer_and_goes_to_the_lobby(browser, server):
    ctx, page, errors = new_page(browser, server, "en", "phone")
    r = page.request.post(server + "/api/tables", data={
        "game": "doudizhu", "sit": True, "bots": 2, "bot": "random",
        "settings": {"clock": "card_default", "bot_delay_ms": 60_000,
                     "spectator_delay_ms": 1000}})     # the watcher below sees it 1 s late, not 10 s
    assert r.ok, r.text()
    tid = r.json()["id"]
    page.goto(f"{server}/tables/{tid}")
    page.click("#leave-table")
    page.wait_for_url(f"{server}/", timeout=30_000)
    # everyone at the table sees the computer plays the seat: a spectator's state says so
    watcher = browser.new_context().new_page()
    watcher.goto(f"{server}/tables/{tid}")
    watcher.wait_for_function("() => document.body.innerText.includes('played by the computer')")
    watcher.context.close()
    page.goto(f"{server}/tables/{tid}")
    page.wait_for_selector("#takeback")
    assert page.inner_text("#takeback") == "Take my seat back"
    assert page.inner_text("#status") == "The computer is playing your seat"
    assert page.locator("#leave-table").count() == 1       # leaving again goes straight back
    page.click("#takeback")
    page.wait_for_selector("#takeback", state="detached", timeout=30_000)
    assert not errors
    ctx.close()
