"""Two referee acts in a row at the console, the first one's answer late (a slow connection, a
loaded machine): the console's own reading shows the first act done before its answer comes,
the referee writes the next reason and presses the next act, and that act goes too, with its
reason, once the first is answered. It was dropped (the console still busy with the first act),
and the reason typed for it wiped by the first act's answer: the table stayed paused. A double
press of the same act still sends it once."""

from __future__ import annotations

from .conftest import running_server
from .pages import xiangqi_event_started
from .timing import until


def test_an_act_pressed_while_the_one_before_is_answered_goes_too(browser, tmp_path):
    with running_server(tmp_path, "nonce_window_ms=0") as base:
        boss, table = xiangqi_event_started(base, "10.8.0")
        for _ in until(60):                                           # its clocks run: it can be paused
            tb = next(x for x in boss.get("/api/events/xq/console").json()["tables"] if x["id"] == table)
            if tb["clocks"]:
                break
        assert tb["clocks"], tb
        ctx = browser.new_context(locale="en-US")
        ctx.add_cookies([{"name": k, "value": v, "url": base} for k, v in boss.cookies.items()])
        page = ctx.new_page()
        page.goto(base + "/events/xq/referee")
        card = f'[data-table="{table}"]'
        page.wait_for_selector(f"{card} [data-act='pause']")
        # the first act reaches the server at once; its answer is held until the test lets it go
        sent, held = [], []

        def hold_the_first(route):
            sent.append(route.request.post_data_json)
            if held:
                route.continue_()
            else:
                held.append((route, route.fetch()))
        page.route("**/api/events/xq/acts", hold_the_first)
        page.fill("#act-reason", "a phone rang")
        page.click(f"{card} [data-act='pause']")
        page.wait_for_selector(f"{card} [data-paused]")              # seen by the console's reading
        page.fill("#act-reason", "quiet again")
        page.click(f"{card} [data-act='resume']")
        page.click(f"{card} [data-act='resume']")                    # a double press
        route, answer = held[0]
        route.fulfill(response=answer)
        page.wait_for_selector(f"{card}:not(.paused) [data-act='pause']")
        page.wait_for_function("() => document.querySelector('#act-reason').value === ''")
        assert [(b["act"], b["reason"]) for b in sent] == [("pause", "a phone rang"),
                                                           ("resume", "quiet again")]
        log = [(e["act"], e["reason"]) for e in boss.get("/api/events/xq/log").json()]
        assert ("pause", "a phone rang") in log and ("resume", "quiet again") in log, log
        ctx.close()
