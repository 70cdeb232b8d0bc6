"""The referee console's log says an adjudication as a ruling reads, in the reader's language:
"adjudication alice vs carol · result: carol wins" / "判定结果 … · 结果：carol 胜" (it said
"carol won", a line of news rather than a ruling, and "carol胜" without a space), its notation
only as the words' title. Screenshots at 1280 and 390 px in both languages."""

from __future__ import annotations

import re

from .conftest import running_server
from .pages import xiangqi_event_started
from .timing import until

WORDS = {"en": "result: carol wins", "zh": "结果：carol 胜"}


def test_an_adjudication_reads_as_a_ruling(browser, shot, tmp_path):
    with running_server(tmp_path, "nonce_window_ms=0") as base:
        boss, table = xiangqi_event_started(base, "10.7.0")
        seats = [s["name"] for s in boss.get(f"/api/tables/{table}").json()["seats"]]
        result = "1-0" if seats[0] == "carol" else "0-1"             # carol wins
        # adjudicated once the game runs (its players are ready: not_playing before)
        for _ in until(60):
            r = boss.post("/api/events/xq/acts", json={"act": "adjudicate", "table": table, "result": result,
                                                       "reason": "alice left the hall"})
            if r.status_code != 409:
                break
            boss.get("/api/events/xq")                               # a moment, asking
        assert r.status_code == 200, r.text
        for lang in ("en", "zh"):
            for width in (1280, 390):
                ctx = browser.new_context(viewport={"width": width, "height": 800})
                ctx.add_cookies([{"name": k, "value": v, "url": base} for k, v in boss.cookies.items()])
                ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
                page = ctx.new_page()
                page.goto(base + "/events/xq/referee")
                ruled = page.wait_for_selector("#ref-log .ruled")
                assert ruled.inner_text() == WORDS[lang]
                assert ruled.get_attribute("title") == result
                log = page.inner_text("#ref-log")
                assert " won" not in log and not re.search(r"[A-Za-z]胜", log), log
                shot(page, f"referee-log-{lang}-{width}")
                ctx.close()
