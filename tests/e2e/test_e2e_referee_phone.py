"""The referee console on a phone (390 px), in Debian's Chromium: the games to enter from paper
and the results to confirm stack a row's parts one under another, and a game's label ("Round 1 ·
Game 1", 第1轮 · 第1局) and its players each stand on one line (the label stood on three);
the tables in play keep their watch link 40 px tall. Screenshots at 1280 and 390 px in both
languages."""

from __future__ import annotations

import re

import httpx

from .conftest import running_server
from .pages import WIDTHS, assert_fits_phone, set_lang
from .test_e2e_event_form import SETTINGS
from .test_e2e_play import sign_up
from .test_e2e_result_confirmation import call

PLAYERS = ["alice", "bob", "carol", "dave", "erin", "frank"]
#: the lines each label and players' cell of the rows stands on, by the row's kind
LINES = """() => {
    const lines = (e) => { const r = document.createRange(); r.selectNodeContents(e);
        return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; };
    return [...document.querySelectorAll('#ref-paper tr, #ref-results tr')].map((tr) => [
        tr.dataset.game ? 'paper' : 'result', tr.cells[0].innerText, lines(tr.cells[0]), lines(tr.cells[1])]);
}"""


def test_the_console_on_a_phone_keeps_each_games_label_whole(browser, shot, tmp_path):
    with running_server(tmp_path, SETTINGS) as base:
        ctx = browser.new_context(viewport=WIDTHS["phone"])
        boss = ctx.new_page()
        sign_up(boss, base, "boss", lobby=False)        # the first account: an organizer (who may referee)
        for name in PLAYERS:
            r = httpx.post(base + "/api/signup", json={"username": name, "password": "correct horse"})
            assert r.is_success, r.text
        boss.goto(base + "/events")
        status, _ = call(boss, "POST", "/api/events", {"preset": "s3_xiangqi", "event_id": "club",
                                                      "name": "Club night", "players": PLAYERS})
        assert status == 201
        ev = httpx.get(base + "/api/events/club").json()
        first = ev["rounds"][0]["matches"][0]["games"][0]["id"]
        status, out = call(boss, "POST", "/api/events/club/acts",
                           {"act": "enter_result", "game": first, "result": "1-0", "reason": "score sheet"})
        assert status == 200, out
        for when in ("paper", "playing"):
            for lang in ("en", "zh"):
                set_lang(boss, base, lang)
                for kind, size in WIDTHS.items():
                    boss.set_viewport_size(size)
                    boss.goto(base + "/events/club/referee")
                    boss.wait_for_selector("[data-game]" if when == "paper" else "[data-table] .clock")
                    boss.wait_for_selector("[data-result]")
                    shot(boss, f"referee-{when}-{lang}-{kind}")
                    if kind != "phone":
                        continue
                    assert_fits_phone(boss)
                    rows = boss.evaluate(LINES)
                    kinds = {"paper", "result"} if when == "paper" else {"result"}
                    assert {r[0] for r in rows} == kinds, rows
                    assert all(r[2] == 1 and r[3] == 1 for r in rows), rows
                    watch = boss.eval_on_selector_all("[data-table] a.watch",
                                                      "ws => ws.map((w) => w.getBoundingClientRect().height)")
                    assert len(watch) == (2 if when == "playing" else 0), watch
                    assert all(h >= 40 for h in watch), watch
            if when == "paper":
                assert call(boss, "POST", "/api/events/club/start", None)[0] == 200
        # an event named after its preset: the console names it in the reader's words, as its page
        status, _ = call(boss, "POST", "/api/events", {"preset": "s3_xiangqi", "event_id": "club2",
                                                      "players": PLAYERS})
        assert status == 201
        boss.goto(base + "/events/club2/referee")
        boss.wait_for_selector("#back-to-event")
        named = boss.inner_text("#back-to-event")
        assert re.search("[\u4e00-\u9fff]", named), named
        ctx.close()


def test_the_console_names_a_knockout_round_as_the_event_page_does(browser, tmp_path):
    # a knockout of four: round 1 is the semi-finals on the event page and its bracket, and so
    # in the console (it said "Round 1" beside the page's "Semi-finals")
    with running_server(tmp_path, SETTINGS) as base:
        ctx = browser.new_context(viewport=WIDTHS["desktop"])
        boss = ctx.new_page()
        sign_up(boss, base, "boss", lobby=False)
        for name in PLAYERS[:4]:
            r = httpx.post(base + "/api/signup", json={"username": name, "password": "correct horse"})
            assert r.is_success, r.text
        boss.goto(base + "/events")
        status, _ = call(boss, "POST", "/api/events", {"preset": "s2_xiangqi", "event_id": "ko",
                                                      "name": "Knockout", "players": PLAYERS[:4]})
        assert status == 201
        for lang, semi in (("en", "Semi-finals"), ("zh", "半决赛")):
            set_lang(boss, base, lang)
            boss.goto(base + "/events/ko")
            boss.wait_for_selector('[data-bracket-round="1"] .bhead')
            assert boss.inner_text('[data-bracket-round="1"] .bhead') == semi
            boss.goto(base + "/events/ko/referee")
            boss.wait_for_selector("#ref-paper [data-game]")
            labels = boss.eval_on_selector_all("#ref-paper [data-game] td:first-child",
                                               "ts => ts.map((t) => t.innerText)")
            assert labels and all(x.startswith(semi) for x in labels), labels
        ctx.close()
