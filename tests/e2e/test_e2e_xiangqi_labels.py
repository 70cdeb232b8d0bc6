"""The xiangqi board's text alternative is the same at the live table and in the replay: each
occupied point says its square, its side and its piece once ("e0：红帅", "h0: Red horse"), an
empty one its square ("e1，空"); the piece's character is not added again ("e0：红帅 帥")."""

from __future__ import annotations

import re

import pytest

from .movelist import new_page, seq, start_table, wait_moved

LABELS = ("() => Object.fromEntries([...document.querySelectorAll('.xq .sq')]"
          ".map(e => [e.dataset.sq, e.getAttribute('aria-label')]))")
E0 = "(k) => document.querySelector('.xq .sq[data-sq=e0]').getAttribute('aria-label') === k"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_live_and_replay_boards_label_the_points_alike(browser, server, lang):
    ctx, page, errors = new_page(browser, server, lang, "desktop")
    start_table(page, server, "xiangqi", {}, bot="random", bot_delay_ms=0)
    before = seq(page)
    page.fill('#move-entry input[name="move"]', "h2e2")
    page.press('#move-entry input[name="move"]', "Enter")
    wait_moved(page, before)
    page.wait_for_function("() => document.querySelector('.xq .sq[data-sq=e0]').getAttribute('aria-label')")
    live = page.evaluate(LABELS)
    king = {"zh": "e0：红帅", "en": "e0: Red general"}[lang]
    assert live["e0"] == king, live["e0"]
    assert live["d1"] == {"zh": "d1，空", "en": "d1, empty"}[lang], live["d1"]   # no piece reaches it
    page.click("#resign")
    page.click('#ask [data-answer="yes"]')
    page.click("#record-link")
    page.wait_for_selector(".xq .sq[data-sq=e0] .pc")
    for sq, label in page.evaluate(LABELS).items():          # as the replay opens
        assert label and re.match(rf"{sq}[：:，,]", label), (sq, label)
    page.keyboard.press("End")               # the replay at its last position, as the live board
    page.wait_for_function(E0, arg=king)
    replay = page.evaluate(LABELS)
    for sq, label in replay.items():
        assert re.match(rf"{sq}[：:，,]", label), (sq, label)
    assert replay["e0"] == king and replay["d1"] == live["d1"]
    sides = {"zh": ("红", "黑"), "en": ("Red ", "Black ")}[lang]
    occupied = page.evaluate("() => [...document.querySelectorAll('.xq .sq:has(.pc)')]"
                             ".map(e => e.dataset.sq)")
    assert len(occupied) >= 30
    assert all(any(w in replay[sq] for w in sides) for sq in occupied), replay
    assert not errors
    ctx.close()
