"""Go's move list keeps one column a colour at phone width too (390 px): Black's moves under
each other and White's in the other column, as at 1280 px (an auto-filled grid of three columns
mixed the colours in each)."""

from __future__ import annotations

import pytest

from .movelist import new_page, seq, start_table, wait_moved, wait_turn_or_end

#: the left edge of each seat's moves in the list: {seat: [x, ...]}
COLUMNS = """() => {
  const out = {};
  for (const li of document.querySelectorAll('#ml-list .ml-move:not(.ml-aside)')) {
    (out[li.dataset.seat] = out[li.dataset.seat] || []).push(Math.round(li.getBoundingClientRect().left));
  }
  return out;
}"""


@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_go_lists_each_colours_moves_in_its_own_column(browser, server, width):
    ctx, page, errors = new_page(browser, server, "en", width)
    start_table(page, server, "go", {"board_size": 9}, bot="random", bot_delay_ms=0)
    while page.locator("#ml-list .ml-move").count() < 7:
        wait_turn_or_end(page)
        before = seq(page)
        points = page.locator(".go-board.myturn .pt.legal")
        points.nth(points.count() // 2).click()
        wait_moved(page, before)
    page.wait_for_function("() => document.querySelectorAll('#ml-list .ml-move').length >= 7")
    cols = page.evaluate(COLUMNS)
    assert len(cols) == 2, cols
    lefts = [set(xs) for xs in cols.values()]
    assert all(len(x) == 1 for x in lefts) and lefts[0] != lefts[1], cols
    assert not errors
    ctx.close()
