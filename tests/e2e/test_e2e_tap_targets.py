"""Links a thumb taps on a phone, in Debian's Chromium at 390 px: the small links in lists and
tables (复盘 / Replay, 观看 / Watch, my table, the CSV downloads, a player's name, the record's
downloads) are at least 40 px tall and wide, as lichess and OGS make them, on the lobby, the event list,
an event's page, the history, a profile and a replay. On those pages' lists no link or button
wraps onto a line of its own below the rest of its cell, no word is broken one character a
line, and an event's game line never leaves its "·" at a line's end ("confirmed" under it).
Screenshots in both languages."""

from __future__ import annotations

import httpx

from .conftest import running_server
from .pages import WIDTHS, accept_dialogs, run_from_command_line, set_lang
from .test_e2e_play import sign_up

#: every link shown in the page's main part but those drawn as buttons (a button's own size) and
#: the names in the bracket's boxes (a drawing that scrolls): [its text, its height, its width]
LINKS = """() => [...document.querySelectorAll('main a:not(.button)')]
    .filter((a) => a.offsetParent && !a.closest('.bracket'))
    .map((a) => { const r = a.getBoundingClientRect(); return [a.textContent.trim(), r.height, r.width]; })"""


#: the lists' links and buttons that wrapped onto a line of their own below the rest of their
#: cell or item (a row's text, then "Replay" alone under it): [its text, the line's text]
OWN_LINE = """() => [...document.querySelectorAll('main td, main li')].flatMap((box) => {
    const first = (() => { const r = document.createRange(); r.selectNodeContents(box);
      return [...r.getClientRects()].filter((x) => x.width > 0 && x.height > 0)[0]; })();
    if (!first || !box.offsetParent) return [];
    return [...box.querySelectorAll(':scope > a, :scope > button, :scope > * > a, :scope > * > button')]
      .filter((a) => a.offsetParent && box.textContent.trim() !== a.textContent.trim())
      .filter((a) => a.getBoundingClientRect().top >= first.bottom - 1)
      .map((a) => [a.textContent.trim(), box.textContent.trim()]);
  })"""

#: words broken one character a line in a narrow column: an element of text at least 3
#: characters long, more than two lines tall and under two characters wide
BROKEN = """() => [...document.querySelectorAll('main *')].filter((e) => e.offsetParent
    && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim().length >= 3)).filter((e) => {
      const r = e.getBoundingClientRect(), st = getComputedStyle(e), size = parseFloat(st.fontSize);
      const line = parseFloat(st.lineHeight) || size * 1.3;
      return r.height > 2.5 * line && r.width < 2 * size;
    }).map((e) => e.textContent.trim())"""


#: a "·" between the parts of a line left at the end of a line, the part it introduces under it:
#: [the part's text] (an event's game line has none: its Replay and confirmation are set apart
#: by space, tests/e2e/test_e2e_result_confirmation.py)
PARTED = """() => [...document.querySelectorAll('main .sep')].filter((s) => s.offsetParent
    && s.nextElementSibling && s.nextElementSibling.getClientRects().length).filter((s) => {
      const a = s.getBoundingClientRect(), b = s.nextElementSibling.getClientRects()[0];
      return b.top >= a.bottom || b.bottom <= a.top;       // not side by side on one line
    })
    .map((s) => s.nextElementSibling.textContent.trim())"""


def test_small_links_are_tall_enough_for_a_thumb_on_a_phone(browser, shot, tmp_path):
    run_from_command_line(tmp_path, "s3_xiangqi", 4)
    with running_server(tmp_path, "limits=Limits(signup_ip=(100.0, 100))") as base:
        ctx = browser.new_context(viewport=WIDTHS["phone"])
        page = ctx.new_page()
        accept_dialogs(page)
        sign_up(page, base, "thumbs", lobby=False)                      # the first account: an organizer
        # a game of the account's, resigned at once: a line of the history with its replay
        r = page.request.post(base + "/api/tables", data={"game": "xiangqi", "bots": 1,
                                                          "settings": {"clock": "none"}})
        page.goto(f"{base}/tables/{r.json()['id']}")
        page.click("#resign")
        page.click('#ask [data-answer="yes"]')          # resigning asks first
        page.wait_for_selector("#record-link")
        record = page.get_attribute("#record-link", "href")
        # a table of the account's in the lobby's list, and one of another's to watch
        page.request.post(base + "/api/tables", data={"game": "go", "bots": 0})
        other = httpx.post(base + "/api/signup", json={"username": "other", "password": "correct horse"})
        httpx.post(base + "/api/tables", cookies=other.cookies, json={"game": "gomoku", "bots": 0})
        event = httpx.get(base + "/api/events").json()[0]["id"]
        pages = [("lobby", "/", "#tables a"), ("events", "/events", "[data-event] a"),
                 ("event", f"/events/{event}", "[data-replay]"), ("history", "/history", "#history a"),
                 ("profile", "/u/thumbs", "main h2"), ("replay", record, "#next")]
        for lang in ("en", "zh"):
            set_lang(page, base, lang)
            for name, path, ready in pages:
                page.goto(base + path)
                page.wait_for_selector(ready)
                links = page.evaluate(LINKS)
                assert links, path
                small = [x for x in links if x[1] < 40 or x[2] < 40]
                assert small == [], (path, small)
                assert page.evaluate(OWN_LINE) == [], path
                assert page.evaluate(BROKEN) == [], path
                assert page.evaluate(PARTED) == [], path
                shot(page, f"tap-{name}-{lang}-390")
        ctx.close()
