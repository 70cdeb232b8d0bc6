"""The clock shows what it is, in real Chromium: byo-yomi periods left and the warnings given,
beside the time, in the page's language."""

from __future__ import annotations

import re

from tests.e2e.movelist import new_page


def test_a_go_table_shows_its_byoyomi_periods_and_the_time(browser, server):
    for lang, says in (("zh", "读秒 3 次"), ("en", "3 byo-yomi periods")):
        ctx, page, errors = new_page(browser, server, lang, "desktop")
        clock = {"bank": "5m", "overtime": {"byoyomi": {"periods": 3, "period": "30s"}}}
        r = page.request.post(server + "/api/tables", data={
            "game": "go", "options": {"board_size": 9}, "bots": 1, "bot": "random",
            "settings": {"clock": clock}})
        assert r.ok, r.text()
        page.goto(f"{server}/tables/{r.json()['id']}")
        page.wait_for_selector(".seat-extra .clock")            # in the board's box of the seat
        page.wait_for_function("(s) => [...document.querySelectorAll('.seat-extra .clock-notes')]"
                               ".some(e => e.textContent.includes(s))", arg=says)
        assert page.locator(".seat-extra .clock").first.inner_text().count(":") == 1    # m:ss
        assert not errors
        ctx.close()


# both seats' notes (not the first move's countdown) read `s`
NOTES_ARE = ("(s) => { const n = [...document.querySelectorAll('.seat-extra .clock-notes:not(.first-move)')];"
             " return n.length === 2 && n.every(e => e.textContent.trim() === s); }")


def test_the_last_byoyomi_period_is_sudden_death(browser, server):
    """A seat in its last byo-yomi period (no bank left) reads "SD" (OGS) / 最后一次读秒, with
    what it means on hover, never "1 byo-yomi period", which reads as one more to come; with
    its bank still running the one period after it is counted as before."""
    for lang, last, one in (("en", "SD", "1 byo-yomi period"), ("zh", "最后一次读秒", "读秒 1 次")):
        ctx, page, errors = new_page(browser, server, lang, "desktop" if lang == "en" else "phone")
        for clock, says in (({"overtime": {"byoyomi": {"periods": 1, "period": "30s"}}}, last),
                            ({"bank": "5m", "overtime": {"byoyomi": {"periods": 1, "period": "30s"}}}, one)):
            r = page.request.post(server + "/api/tables", data={
                "game": "go", "options": {"board_size": 9}, "bots": 1, "bot": "random",
                "settings": {"clock": clock}})
            assert r.ok, r.text()
            page.goto(f"{server}/tables/{r.json()['id']}")
            page.wait_for_function(NOTES_ARE, arg=says)
            sd = page.locator(".seat-extra .clock-notes .sudden-death")
            if says == last:
                assert sd.count() == 2
                assert sd.first.get_attribute("title") == {
                    "en": "Sudden death: the last byo-yomi period; running out of it loses the game",
                    "zh": "最后一次读秒：超时即判负"}[lang]
                page.screenshot(path=f"/tmp/shots-alerts/sd-{lang}.png")
            else:
                assert sd.count() == 0
        assert not errors
        ctx.close()


def test_a_finished_card_game_no_longer_says_the_computer_plays_a_seat(browser, server):
    """A seat put in trusteeship by its clock (two overruns in a row) says so while the game
    goes on ("played by the computer" / 托管中); under the result of the finished game it does not
    (no one plays a seat of a game that is over). The bot games' clock (1 s a play), its
    trusteeship playing after 0.2 s (not 1 s: the seat's plays took most of the test's time);
    both languages' games at once (they wait on their clocks)."""
    clock = {"move_cap": "1s", "on_cap": "auto", "trustee_delay": "200ms"}
    tables = []
    for lang, says in (("en", "played by the computer"), ("zh", "托管中")):
        ctx, page, errors = new_page(browser, server, lang, "phone")
        r = page.request.post(server + "/api/tables", data={
            "game": "doudizhu", "sit": True, "bots": 2, "bot": "random",
            "settings": {"clock": clock}})
        assert r.ok, r.text()
        page.goto(f"{server}/tables/{r.json()['id']}")
        # the page notes when it says so (the test looks at one page while the other plays on)
        page.evaluate("""(s) => { window.said = false; const t = setInterval(() => {
            if (document.body.innerText.includes(s)) { window.said = true; clearInterval(t); }
        }, 100); }""", says)
        tables.append((says, ctx, page, errors))
    for says, ctx, page, errors in tables:
        page.wait_for_selector("#status.over", timeout=120_000)
        assert page.evaluate("() => window.said"), says
        assert says not in page.locator("main").inner_text()
        assert not errors
        ctx.close()


def test_a_running_clock_under_ten_seconds_shows_its_tenths_in_red(browser, server):
    """A 9 s sudden-death clock is low from the start: the running one is marked low (red) and
    shown with its tenths ("0:08.7"), counting down. It runs from the player's first move on
    (a lobby game, as on lichess): before it the bank stands and the first move's own time
    limit is shown beside it."""
    ctx, page, errors = new_page(browser, server, "en", "desktop")
    r = page.request.post(server + "/api/tables", data={
        "game": "xiangqi", "sit": True, "seat": 0, "bots": 1, "bot": "random",
        "settings": {"clock": {"bank": "9s"}}})
    assert r.ok, r.text()
    page.goto(f"{server}/tables/{r.json()['id']}")
    note = page.wait_for_selector(".seat.to-act .clock-notes.first-move").inner_text()
    assert re.fullmatch(r"first move within 0:[23]\d", note), note
    assert page.inner_text(".seat.to-act .clock.idle") == "0:09"     # standing, not low
    page.fill('#move-entry input[name="move"]', "h2e2")
    page.press('#move-entry input[name="move"]', "Enter")
    first = page.wait_for_selector(".seat.to-act .clock.low").inner_text()
    assert re.fullmatch(r"0:0\d\.\d", first), first
    page.wait_for_function("(c) => { const e = document.querySelector('.seat.to-act .clock.low');"
                           " return e && /^0:0\\d\\.\\d$/.test(e.textContent) && e.textContent < c; }",
                           arg=first)
    assert not errors
    ctx.close()


def test_a_clock_of_a_time_a_move_shows_both_seats_and_the_warnings_left(browser, server):
    """A clock of 5 min a move with 3 warnings (the third overrun loses): the seat that waits
    shows the time its move may take ("5:00 a move") as the seat to move shows its countdown, and
    both show the warnings left before the one that loses."""
    ctx, page, errors = new_page(browser, server, "en", "desktop")
    r = page.request.post(server + "/api/tables", data={
        "game": "xiangqi", "bots": 1, "bot": "random",
        "settings": {"clock": {"move_cap": "300s", "on_cap": "warn:3"}}})
    assert r.ok, r.text()
    said = []
    page.on("console", lambda m: said.append(m.text))
    page.goto(f"{server}/tables/{r.json()['id']}")
    page.wait_for_function("document.querySelectorAll('.clock').length >= 2")
    clocks = page.locator(".clock").all_inner_texts()
    assert len(clocks) >= 2 and all(re.fullmatch(r"\d+:\d\d", c) for c in clocks), clocks
    assert page.locator(".clock.idle").count() >= 1
    notes = " ".join(page.locator(".clock-notes").all_inner_texts())
    assert "a move" in notes and notes.count("2 more warnings allowed") == 2, notes
    page.screenshot(path="/tmp/shots-table13/clock-per-move-en-1280.png")
    # the sounds' AudioContext waits for the first gesture: no "was not allowed to start" before
    assert not [x for x in said if "AudioContext" in x], said
    # the coordinates switch is a small secondary toggle, not a primary button
    look = page.eval_on_selector('[data-action="toggle-coords"]', """b => ({
        h: b.getBoundingClientRect().height, bg: getComputedStyle(b).backgroundColor })""")
    assert look["h"] < 36 and look["bg"] in ("rgba(0, 0, 0, 0)", "transparent"), look
    # with no warning to spare (warn:1), the seat says the next overrun loses, in either language
    for lang, words in (("en", "the next overrun loses"), ("zh", "再超时即判负")):
        r = page.request.post(server + "/api/tables", data={
            "game": "xiangqi", "bots": 1, "bot": "random",
            "settings": {"clock": {"move_cap": "300s", "on_cap": "warn:1"}}})
        assert r.ok, r.text()
        page.evaluate("(l) => localStorage.setItem('lang', l)", lang)
        page.goto(f"{server}/tables/{r.json()['id']}")
        page.wait_for_function("(w) => [...document.querySelectorAll('.clock-notes')]"
                               ".filter(n => n.textContent.includes(w)).length === 2", arg=words)
    assert not errors
    ctx.close()


def test_the_first_move_note_and_the_byo_yomi_periods_are_parted(browser, server):
    """Before the first move a byo-yomi clock's seat read "first move within 0:28 3 byo-yomi
    periods" (two numbers run together), then wrapped on a phone into ragged pieces ("0:29 内须走
    第一步 / · 读秒 3 次"): each piece stays whole, the clock and 读秒 3 次 share a line, the
    first-move countdown has the last line to itself."""
    for lang, said in (("en", r"\d+:\d\d\s+3 byo-yomi periods\s+first move within 0:[0-5]\d"),
                       ("zh", r"\d+:\d\d\s+读秒 3 次\s+0:[0-5]\d 内须走第一步")):
        ctx, page, errors = new_page(browser, server, lang, "phone")
        r = page.request.post(server + "/api/tables", data={
            "game": "xiangqi", "sit": True, "seat": 0, "bots": 1, "bot": "random"})   # usual clock: byo-yomi
        assert r.ok, r.text()
        page.goto(f"{server}/tables/{r.json()['id']}")
        page.wait_for_selector(".seat.to-act .clock-notes.first-move")
        text = re.sub(r"\s+", " ", page.inner_text(".seat.to-act"))
        assert re.search(said, text), text
        # each piece's line: the clock and the periods on one, the countdown whole on the next
        # (in English "3 byo-yomi periods" is too long to share the clock's line: its own line)
        lines = page.evaluate("""() => [".clock", ".clock-notes:not(.first-move)", ".first-move"].map((q) => {
            const rects = [...document.querySelector(".seat.to-act " + q).getClientRects()];
            return [rects.length, Math.round(rects[0].top), Math.round(rects[0].bottom)]; })""")
        (n_clock, _, clock_bottom), (n_notes, notes_top, notes_bottom), (n_first, first_top, _) = lines
        assert n_clock == n_notes == n_first == 1, lines
        assert first_top >= notes_bottom - 2, lines
        if lang == "zh":
            assert notes_top < clock_bottom, lines
        assert not errors
        ctx.close()


def test_the_clocks_stay_stopped_after_the_end(browser, server):
    """The clocks stay in the seats' boxes once a game is over, stopped (lichess keeps the
    final times): on a clock of a time a move (an event's 15 s a move) they vanished with the
    result. The seat that lost on time reads 0:00; live and in the finished table's view."""
    clock = {"move_cap": "4s", "on_cap": "lose"}
    for lang in ("en", "zh"):
        ctx, page, errors = new_page(browser, server, lang, "desktop" if lang == "en" else "phone")
        r = page.request.post(server + "/api/tables", data={
            "game": "xiangqi", "sit": True, "seat": 0, "bots": 1, "bot": "random",
            "settings": {"clock": clock}})
        assert r.ok, r.text()
        page.goto(f"{server}/tables/{r.json()['id']}")
        page.wait_for_selector("#move-entry input[name=move]:not([disabled])")
        page.fill("#move-entry input[name=move]", "h2e2")
        page.press("#move-entry input[name=move]", "Enter")
        page.wait_for_selector("#status.over", timeout=30_000)   # then red runs out of time
        for reload in (False, True):
            if reload:
                page.reload()
                page.wait_for_selector("#status.over")
            page.wait_for_function("() => document.querySelectorAll('.clock').length === 2")
            times = page.eval_on_selector_all(".clock", "cs => cs.map((c) => c.textContent.trim())")
            assert sorted(times) == ["0:00", "0:04"], times
        page.screenshot(path=f"/tmp/shots-boardfix/clocks-after-end-{lang}.png", full_page=True)
        assert not errors
        ctx.close()
