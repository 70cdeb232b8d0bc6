"""Abort (中止对局) at a casual two-seat board table, as on lichess: before both sides have moved
a player may abort, the game counts for nobody (no result, no record) and the page says who
aborted it; once both sides have moved the button is gone and the server refuses."""

from __future__ import annotations

import pytest

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
