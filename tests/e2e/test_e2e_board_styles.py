"""A board with a stylesheet of its own (gomoku, junqi, Chinese checkers) is never seen unstyled:
its sheet is in the page's head, so it is in use when the board first draws (added when the
board was first shown, a slow sheet showed a moment of bare markup)."""

from __future__ import annotations

import pytest

from .test_e2e_a11y import NEW_TABLE
from .test_e2e_play import sign_up

#: records, at the board's first drawing, whether the game's sheet is loaded and in use
WATCH = """(game) => {
  window.__styledAtFirstDraw = null;
  new MutationObserver((_, obs) => {
    const board = document.getElementById('board');
    if (!board || !board.childElementCount) return;
    window.__styledAtFirstDraw = [...document.styleSheets].some((s) =>
      (s.href || '').endsWith(`/${game}.css`) && s.cssRules.length > 0);
    obs.disconnect();
  }).observe(document, {childList: true, subtree: true});
}"""


@pytest.mark.parametrize("game", ["gomoku", "junqi", "chinese-checkers"])
def test_a_boards_stylesheet_is_in_use_when_it_first_draws(server, browser, game):
    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    sign_up(page, server, f"sheet_{game.replace('-', '_')}")
    tid = page.evaluate(NEW_TABLE, game)
    page.add_init_script(f"({WATCH})({game!r})")
    page.goto(f"{server}/tables/{tid}")
    page.wait_for_function("() => typeof window.__styledAtFirstDraw === 'boolean'")
    assert page.evaluate("() => window.__styledAtFirstDraw") is True
    ctx.close()
