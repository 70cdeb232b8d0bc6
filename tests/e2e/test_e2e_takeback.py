"""A takeback at a casual table of two people (lichess): one proposes, the other sees the
proposal with Accept and Decline in the page's language; declined, the proposer is told; accepted,
both boards go back to where the proposer is to move, and the move list is shorter."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import set_width
from .language import sign_up
from .movelist import seq

SHOTS = Path("/tmp/shots-takeback")
WORDS = {"zh": {"propose": "请求悔棋", "received": "对方请求悔棋", "sent": "已请求悔棋，等待对方回应",
                "accept": "同意", "decline": "拒绝", "declinedMine": "对方拒绝了你的悔棋请求。",
                "done": "同意悔棋：退回了 2 步。", "drawDeclined": "对方拒绝了你的提和。",
                "lost": "你输了 — 你认输", "won": "你赢了 — tb-red-zh 认输"},
         "en": {"propose": "Propose a takeback", "received": "Your opponent proposes a takeback",
                "sent": "Takeback proposed, waiting for the answer", "accept": "Accept",
                "decline": "Decline", "declinedMine": "Your opponent declined your takeback request.",
                "done": "Takeback accepted: 2 moves taken back.",
                "drawDeclined": "Your opponent declined your draw offer.",
                "lost": "You lost — you resigned", "won": "You won — tb-red-en resigned"}}


def person(browser, server, lang, name):
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US",
                              viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    sign_up(page, server, name)
    return ctx, page, errors


def move(page, text):
    before = seq(page)
    page.fill('#move-entry input[name="move"]', text)
    page.press('#move-entry input[name="move"]', "Enter")
    wait_seq(page, before + 1)


def wait_seq(page, n):
    page.wait_for_function(f"() => +document.querySelector('#status').dataset.seq === {n}")


def note_is(page, text):
    page.wait_for_function("(s) => document.querySelector('#table-note').textContent === s", arg=text)


def shoot(page, name):
    SHOTS.mkdir(exist_ok=True)
    for width in (1280, 390):
        set_width(page, width, 900)
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    set_width(page, 1280, 900)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_takeback_is_proposed_declined_then_accepted(browser, server, lang):
    w = WORDS[lang]
    rctx, red, rerr = person(browser, server, lang, f"tb-red-{lang}")
    bctx, black, berr = person(browser, server, lang, f"tb-black-{lang}")
    r = red.request.post(server + "/api/tables", data={"game": "xiangqi", "settings": {"clock": "none"}})
    assert r.ok, r.text()
    table = r.json()["id"]
    assert black.request.post(f"{server}/api/tables/{table}/sit", data={}).ok
    for p in (red, black):
        p.goto(f"{server}/tables/{table}")
        p.wait_for_selector("#status[data-seq]")
    assert red.locator("#propose-takeback").count() == 0       # nothing of red's to take back
    move(red, "h2e2")
    wait_seq(black, 1)
    # red asks on black's turn; black declines
    assert red.inner_text("#propose-takeback") == w["propose"]
    red.click("#propose-takeback")
    black.wait_for_selector("#takeback-offer")
    assert black.inner_text("#takeback-offer") == w["received"]
    assert black.inner_text("#takeback-accept") == w["accept"]
    assert black.inner_text("#takeback-decline") == w["decline"]
    red.wait_for_selector("#takeback-sent")
    assert red.inner_text("#takeback-sent") == w["sent"]
    shoot(black, f"received-{lang}")
    shoot(red, f"sent-{lang}")
    black.click("#takeback-decline")
    note_is(red, w["declinedMine"])
    black.wait_for_selector("#takeback-offer", state="detached")
    red.wait_for_selector("#propose-takeback")
    # black moves; red asks on its own turn: both moves go back, red is to move again
    move(black, "h9g7")
    wait_seq(red, 2)
    note_is(red, "")                     # the answer to a request goes with the next move
    red.click("#propose-takeback")
    black.wait_for_selector("#takeback-accept")
    black.click("#takeback-accept")
    for p in (red, black):
        wait_seq(p, 3)          # the state's number never goes back (the position is the start)
        p.wait_for_selector("#takeback-offer, #takeback-sent", state="detached")
    assert red.locator("#propose-takeback").count() == 0
    note_is(red, w["done"])
    assert "0 / 0" in red.inner_text("#side")                  # the move list is empty again
    assert red.inner_text("#status") == ("轮到你" if lang == "zh" else "Your turn")
    shoot(red, f"accepted-{lang}")
    move(red, "b2e2")                                           # play goes on from the start
    wait_seq(black, 4)
    for p in (red, black):               # the note of the takeback goes with the next move
        note_is(p, "")
    # a draw offer declined is told, and the note goes when the game ends (a resignation), whose
    # words say who resigned
    red.click("#draw")
    black.click("#draw-decline")
    note_is(red, w["drawDeclined"])
    red.click("#resign")
    red.click('#ask [data-answer="yes"]')
    for p in (red, black):
        p.wait_for_selector("#record-link")
        note_is(p, "")
    assert red.inner_text("#status").endswith(w["lost"]), red.inner_text("#status")
    assert black.inner_text("#status").endswith(w["won"]), black.inner_text("#status")
    shoot(red, f"resigned-{lang}")
    assert not rerr and not berr
    rctx.close()
    bctx.close()
