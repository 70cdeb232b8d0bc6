"""Abort (中止对局) at a casual two-seat board table, as on lichess: before both sides have moved
a player may abort, the game counts for nobody (no result, no record) and the page says who
aborted it; once both sides have moved the button is gone and the server refuses."""

from __future__ import annotations

import re

import pytest

from .conftest import set_width
from .movelist import new_page, seq, start_table, wait_moved

WORDS = {"zh": ("中止对局", "中止了对局，本局不计胜负"), "en": ("Abort", "Game aborted by")}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_player_aborts_before_both_sides_moved(browser, server, lang):
    ctx, page, errors = new_page(browser, server, lang, "phone")
    start_table(page, server, "xiangqi", {}, bot="random", bot_delay_ms=0)
    button, said = WORDS[lang]
    assert page.inner_text("#abort") == button
    page.click("#abort")
    page.click('#ask [data-answer="yes"]')
    page.wait_for_function("(s) => document.querySelector('#status').textContent.includes(s)", arg=said)
    assert page.locator("#record-link").count() == 0
    assert page.locator("#resign").count() == 0
    # nobody is to move any more: neither the screen reader's line nor the title says a turn
    said_turn = r"Your turn|to move|轮到"
    page.wait_for_function("(re) => !new RegExp(re).test(document.querySelector('#board-text').textContent)",
                           arg=said_turn)
    assert not re.search(said_turn, page.title()), page.title()
    # nor gomoku's status line above its board ("Black to move · move 1")
    start_table(page, server, "gomoku", {}, bot="random", bot_delay_ms=0)
    page.wait_for_selector("#gm-info .gm-line")
    page.click("#abort")
    page.click('#ask [data-answer="yes"]')
    page.wait_for_function("(s) => document.querySelector('#status').textContent.includes(s)", arg=said)
    page.wait_for_function("(re) => !new RegExp(re).test(document.querySelector('#gm-info').textContent"
                           " + document.querySelector('#board-text').textContent)",
                           arg=r"to move|走 ·|轮到|Your turn")
    assert page.locator("#gm-info .gm-seat.act").count() == 0
    # nor a hint of where the next stone may go
    assert page.inner_text("#gm-hint") == "" and page.locator(".gm-board .pt.area").count() == 0
    for width in (1280, 390):
        set_width(page, width, 900)
        page.screenshot(path=f"/tmp/shots-gofix/gomoku-aborted-{lang}-{width}.png", full_page=True)
    # once both sides moved: no Abort, and the server refuses one
    start_table(page, server, "xiangqi", {}, bot="random", bot_delay_ms=0)
    before = seq(page)
    page.fill('#move-entry input[name="move"]', "h2e2")
    page.press('#move-entry input[name="move"]', "Enter")
    wait_moved(page, before + 1)                     # the bot answered
    page.wait_for_selector("#resign")
    assert page.locator("#abort").count() == 0
    assert not errors
    ctx.close()
