"""An event run from the command line, in a real browser against a real server: its bracket,
results and replays, in both languages and both themes. Screenshots at 1280 and 390 px in both
languages."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import httpx
import pytest

from .conftest import ARTIFACTS, running_server
from .pages import WIDTHS, assert_fits_phone, run_from_command_line, set_lang, shots
from .test_e2e_a11y import check


@pytest.fixture(scope="module")
def events(tmp_path_factory):
    """``(base, {preset: event id})``: one server on a database holding two knockout events run
    from the command line, xiangqi of twelve bots and doudizhu of six (one server for the
    file's tests: a start costs a second of CPU, several on a loaded machine)."""
    data = tmp_path_factory.mktemp("qipai-bracket")
    run_from_command_line(data, "s0_xiangqi", 12)
    run_from_command_line(data, "s0_doudizhu", 6)
    # a knockout of four with a no-show: bot01 declared absent from its first match (§5.6)
    cli = [sys.executable, "-m", "qipai.cli", "event"]
    env = {**os.environ, "QIPAI_DATABASE_URL": f"sqlite:///{data}/qipai.db"}
    for args in (["new", "--preset", "s0_gomoku", "--bots", "4", "--id", "noshow"],
                 ["noshow", "bot01", "-e", "noshow", "--reason", "absent"], ["run", "noshow"]):
        subprocess.run([*cli, *args], env=env, check=True, capture_output=True, timeout=300)
    with running_server(data) as base:
        yield base, {e["preset"]: e["id"] for e in httpx.get(base + "/api/events").json()}


def test_event_run_from_the_command_line_shows_bracket_results_and_replays(browser, shot, events):
    base, ids = events
    eid = ids["s0_xiangqi"]
    page = browser.new_page()
    page.goto(f"{base}/events/{eid}")
    page.wait_for_selector("#bracket")
    heads = page.eval_on_selector_all("#bracket .bhead", "hs => hs.map((h) => h.textContent)")
    assert heads == ["Round 1", "Quarter-finals", "Semi-finals", "Final", "Champion"]
    assert page.locator("#bracket .bm.bye").count() == 4      # 12 players: 4 byes
    games = page.locator("[data-game]")
    assert games.count() > 10
    for text in games.all_inner_texts():
        assert "finished" not in text and ("won" in text or "draw" in text) and "Replay" in text
    for box in page.locator("#bracket .bm.series").all():
        assert box.locator(".bs.win").count() == 1
    champion = page.inner_text("#champion").split()[-1]
    assert page.locator("#bracket .champ").inner_text().strip() == champion
    page.click("[data-replay] >> nth=0")
    page.wait_for_url(re.compile(rf"/events/{eid}/games/\d+$"))
    page.wait_for_selector(".xq .pc")
    assert "null" not in page.inner_text("main")       # an event game's replay has no downloads row
    page.click("#prev")
    page.close()
    for scheme in ("light", "dark"):                          # axe: no serious violation
        ctx = browser.new_context(color_scheme=scheme, locale="zh-CN")
        page = ctx.new_page()
        page.goto(f"{base}/events/{eid}")
        page.wait_for_selector("#bracket")
        check(page, f"bracket ({scheme})")
        assert re.search("[\u4e00-\u9fff]", page.inner_text(".event-head h2"))   # the preset, in Chinese
        ctx.close()
    for lang in ("en", "zh"):                                 # a phone: the bracket scrolls in its box
        ctx = browser.new_context(viewport=WIDTHS["phone"])
        page = ctx.new_page()
        set_lang(page, base, lang)
        page.goto(f"{base}/events/{eid}")
        page.wait_for_selector("#bracket .champ")
        assert_fits_phone(page)
        got = page.evaluate("""() => { const box = document.querySelector('.bracket-box > .scroll');
            box.scrollLeft = box.scrollWidth; const b = box.getBoundingClientRect();
            const c = document.querySelector('#bracket .champ').getBoundingClientRect();
            return {scrolls: box.scrollWidth > box.clientWidth, left: c.left - b.left,
                    right: b.right - c.right}; }""")
        # the champion's box wholly inside, its border too
        assert got["scrolls"] and got["left"] >= 0 and got["right"] >= 4, (lang, got)
        shot(page, f"event-cli-bracket-end-{lang}-phone")
        ctx.close()
    shots(browser, base, f"/events/{eid}", "event-cli", shot, "#bracket")
    shots(browser, base, "/events", "events", shot, "[data-event]")


def test_a_small_bracket_fits_a_phone_whole(browser, events):
    """A three-column bracket (six players at tables of three: round 1, final, champion) fits a
    390 px screen without scrolling, its champion's box whole, in both languages."""
    base, ids = events
    eid = ids["s0_doudizhu"]
    ctx = browser.new_context(viewport=WIDTHS["phone"])
    page = ctx.new_page()
    for lang in ("en", "zh"):
        set_lang(page, base, lang)
        page.goto(f"{base}/events/{eid}")
        page.wait_for_selector("#bracket .champ")
        got = page.evaluate("""() => { const box = document.querySelector('.bracket-box > .scroll');
            const b = box.getBoundingClientRect();
            const c = document.querySelector('#bracket .champ').getBoundingClientRect();
            return {over: box.scrollWidth - box.clientWidth, right: b.right - c.right}; }""")
        assert got["over"] <= 0 and got["right"] >= 0, (lang, got)
        if lang == "zh":       # a list of names (two winners, a table's scores) with 、 not ", "
            text = page.inner_text("main")
            assert "、" in text and ", " not in text
        out = ARTIFACTS / f"event-small-bracket-{lang}-phone.png"
        page.locator(".bracket-box").screenshot(path=str(out))
    # a finished event is drawn once: the page asks for it no more (the event chat's own
    # polls mark the time passing) and the bracket, scrolled sideways, stays where it was
    asked = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith(f"/api/events/{eid}") else None)
    page.evaluate("""() => { const box = document.querySelector('.bracket-box > .scroll');
        box.style.width = '120px'; box.scrollLeft = 40;
        window.__drawn = document.querySelector('#bracket'); }""")
    for _ in range(3):
        with page.expect_request(lambda r: r.url.endswith(f"/api/events/{eid}/chat")):
            pass
    assert asked == []
    assert page.evaluate("""() => window.__drawn === document.querySelector('#bracket')
        && document.querySelector('.bracket-box > .scroll').scrollLeft === 40""")
    ctx.close()


def test_the_bracket_marks_a_no_show_in_its_box(browser, shot, events):
    """The knockout's box of a match decided by a no-show (§5.6) marks the absent side, as the
    match's row and the standings do, in both languages; screenshots at 1280 and 390 px."""
    base, ids = events
    ctx = browser.new_context()
    page = ctx.new_page()
    for lang, word in (("en", "no-show"), ("zh", "缺席")):
        set_lang(page, base, lang)
        page.goto(f"{base}/events/noshow")
        page.wait_for_selector("#bracket .champ")
        marked = page.eval_on_selector_all("#bracket [data-noshow]",
                                           "ts => ts.map((t) => [t.closest('.bs').textContent,"
                                           " t.textContent])")
        assert len(marked) == 1 and "bot01" in marked[0][0] and marked[0][1] == word, (lang, marked)
        box = page.locator("#bracket .bs:has([data-noshow])")
        assert "win" not in box.get_attribute("class")
    ctx.close()
    shots(browser, base, "/events/noshow", "event-noshow", shot, "#bracket .champ")
