"""A board with a stylesheet of its own (gomoku, junqi, Chinese checkers) is never seen unstyled:
the sheet is added when the board is first shown, and until it has loaded the board keeps its
place but is hidden (a slow sheet showed a moment of bare markup before)."""

from __future__ import annotations

import pytest

from .test_e2e_a11y import NEW_TABLE
from .test_e2e_play import sign_up
from .timing import until

HIDDEN = "() => getComputedStyle(document.querySelector('#board')).visibility"


@pytest.mark.parametrize("game", ["gomoku", "junqi", "chinese-checkers"])
def test_a_board_is_hidden_until_its_stylesheet_has_loaded(server, browser, game):
    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    sign_up(page, server, f"sheet_{game.replace('-', '_')}")
    held = []
    page.route(f"**/static/{game}.css", lambda route: held.append(route))
    tid = page.evaluate(NEW_TABLE, game)
    page.goto(f"{server}/tables/{tid}")
    page.wait_for_function(f"() => !!document.getElementById('{game}-css') && "
                           "document.querySelector('#board').childElementCount > 0")
    assert page.evaluate(HIDDEN) == "hidden"              # drawn, its sheet not loaded: unseen
    for _ in until(30):                  # the held request reaches the handler
        if held:
            break
        page.wait_for_timeout(50)
    assert held, f"{game}.css was never asked for"
    assert page.evaluate(HIDDEN) == "hidden"
    held[0].continue_()
    page.wait_for_function(f"() => ({HIDDEN})() === 'visible'")
    # the sheet is in use: one of its rules is in the page's style sheets
    assert page.evaluate(f"() => [...document.styleSheets].some((s) => "
                         f"(s.href || '').endsWith('/{game}.css') && s.cssRules.length > 0)")
    ctx.close()
