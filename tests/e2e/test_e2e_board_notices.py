"""Notices at junqi and Chinese checkers tables go at the next move and at the game's end, as at
xiangqi and go (test_e2e_takeback): a refused swap of the layout said on the junqi board, a
typed move the referee refused, a draw offer declined (said to both). Two people play by
clicks, one page in English at 1280 px, one in Chinese at 390 px; screenshots of both at 1280
and 390 px (/tmp/shots-ui13)."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import set_width
from .test_e2e_play import sign_up

SHOTS = Path("/tmp/shots-ui13")
CATALOGUES = Path(__file__).resolve().parents[2] / "qipai" / "i18n"
WORDS = {lang: json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "zh")}
SEQ = "() => +document.querySelector('#status')?.dataset.seq"
CLEAR = {"table": "", "refused": "", "error": ""}


def _people(browser, server, game):
    """Two people at a table of ``game`` (no clock): an English page at 1280 px in seat 0, a
    Chinese one at 390 px in seat 1; both pages at the table."""
    pages, ctxs = [], []
    for lang, width in (("en", 1280), ("zh", 390)):
        ctx = browser.new_context(viewport={"width": width, "height": 900})
        ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        page = ctx.new_page()
        page.on("dialog", lambda d: d.accept())
        sign_up(page, server, f"{game[:4]}note{lang}")
        ctxs.append(ctx)
        pages.append(page)
    a, b = pages
    r = a.request.post(server + "/api/tables", data={"game": game, "seat": 0, "bots": 0,
                                                    "settings": {"clock": "none"}})
    assert r.ok, r.text()
    tid = r.json()["id"]
    assert b.request.post(f"{server}/api/tables/{tid}/sit", data={"seat": 1}).ok
    for p in pages:
        p.goto(f"{server}/tables/{tid}")
    for p in pages:
        p.wait_for_selector("#status[data-seq]", state="attached", timeout=30_000)
    return ctxs, pages


def _seq(page):
    return page.evaluate(SEQ)


def _wait_seq(pages, n):
    for p in pages:
        p.wait_for_function(f"() => +document.querySelector('#status')?.dataset.seq >= {n}", timeout=30_000)


def _to_move(pages):
    """The page whose person is to move (waited for: both pages at the same position)."""
    for p in pages:
        p.wait_for_function("() => window.qipaiLastState && !!document.querySelector('#resign')",
                            timeout=30_000)
    return next(p for p in pages if p.evaluate(
        "() => window.qipaiLastState.to_act.includes(window.qipaiLastState.seat)"))


def _note_is(page, key, lang):
    text = WORDS[lang][key] if key else ""
    page.wait_for_function("(s) => document.querySelector('#table-note').textContent === s",
                           arg=text, timeout=30_000)


def _notes(page):
    return page.evaluate("""() => ({table: document.querySelector('#table-note').textContent,
        refused: document.querySelector('#move-refused').textContent,
        error: document.querySelector('#error').textContent})""")


def _shots(page, name, lang):
    SHOTS.mkdir(exist_ok=True)
    width = page.viewport_size["width"]
    for w in (1280, 390):
        set_width(page, w, 900)
        page.screenshot(path=str(SHOTS / f"{name}-{lang}-{w}.png"), full_page=True)
    set_width(page, width, 900)


def _notices(pages, move, name):
    """The notices of a game between the two pages, each gone when it should be."""
    lang = {pages[0]: "en", pages[1]: "zh"}
    # a typed move the referee refuses: said under the box, gone with the mover's next move
    x = _to_move(pages)
    y = pages[1] if x is pages[0] else pages[0]
    x.fill('#move-entry input[name="move"]', "a1>z9" if name == "cc" else "a1-z9")
    x.press('#move-entry input[name="move"]', "Enter")
    x.wait_for_function("() => document.querySelector('#move-refused').textContent !== ''"
                        " || document.querySelector('#error').textContent !== ''", timeout=30_000)
    _shots(x, f"{name}-refused", lang[x])
    seq = _seq(x)
    move(x)
    _wait_seq(pages, seq + 1)
    assert _notes(x) == CLEAR, _notes(x)
    # a draw offer with a move, declined: said to both, gone with the next move
    seq = _seq(y)
    y.click("#draw")
    _note_is(y, "draw.held", lang[y])
    move(y)
    _wait_seq(pages, seq + 1)
    _note_is(y, "draw.sent", lang[y])
    _note_is(x, "draw.received", lang[x])
    x.click("#draw-decline")
    _note_is(y, "draw.declinedMine", lang[y])
    _note_is(x, "draw.declined", lang[x])
    _shots(y, f"{name}-declined", lang[y])
    move(x)
    _wait_seq(pages, seq + 2)
    for p in pages:
        _note_is(p, None, lang[p])
    # an offer made during the opponent's turn, declined; the game's end takes the note away
    x.click("#draw")
    _note_is(x, "draw.sent", lang[x])
    _note_is(y, "draw.received", lang[y])
    y.click("#draw-decline")
    _note_is(x, "draw.declinedMine", lang[x])
    x.click("#resign")
    x.click('#ask [data-answer="yes"]')
    for p in pages:
        p.wait_for_selector("#record-link", timeout=30_000)
        _note_is(p, None, lang[p])
        assert _notes(p) == CLEAR, _notes(p)
    for p in pages:
        _shots(p, f"{name}-over-notices", lang[p])


def _click_move_junqi(page):
    page.wait_for_selector("#jq-board .jq-pt.can-move", timeout=30_000)
    mover = page.locator("#jq-board .jq-pt.can-move").first.get_attribute("data-pt")
    page.click(f'#jq-board [data-pt="{mover}"]')
    target = page.locator("#jq-board .jq-pt.target").first.get_attribute("data-pt")
    page.click(f'#jq-board [data-pt="{target}"]')


def test_junqi_notices_go_at_the_next_move_and_the_end(server, browser):
    ctxs, pages = _people(browser, server, "junqi")
    a, b = pages
    for p in pages:
        p.wait_for_selector('#jq-actions [data-action="submit"]', timeout=30_000)
    # a swap the rules forbid is said on the board (the flag may only go to the other HQ) ...
    flag = a.evaluate("""() => [...document.querySelectorAll('#jq-board .jq-pc.mine')]
        .find((pc) => pc.dataset.piece === 'F').parentElement.dataset.pt""")
    a.click(f'#jq-board [data-pt="{flag}"]')
    a.click('#jq-board [data-pt="a6"]')
    assert a.inner_text("#jq-note") == WORDS["en"]["junqi.cannotSwap"]
    # ... and the layout sent as it stands: once play starts the warning is gone
    for p in pages:
        p.click('#jq-actions [data-action="submit"]')
    for p in pages:
        p.wait_for_selector('#jq-board[data-phase="play"]', timeout=30_000)
    assert a.inner_text("#jq-note") == "", a.inner_text("#jq-note")
    _notices(pages, _click_move_junqi, "junqi")
    for c in ctxs:
        c.close()


def _click_move_cc(page):
    page.wait_for_selector(".cc [data-hole].movable", timeout=30_000)
    page.locator(".cc [data-hole].movable").first.click()
    page.locator(".cc [data-hole].target").first.click()


def test_chinese_checkers_notices_go_at_the_next_move_and_the_end(server, browser):
    ctxs, pages = _people(browser, server, "chinese-checkers")
    _notices(pages, _click_move_cc, "cc")
    # the note under the board says nothing of a turn once the game is over
    for p in pages:
        assert p.inner_text("#cc-note") == "", p.inner_text("#cc-note")
    for c in ctxs:
        c.close()
