"""What a table page keeps together: a seat's name is whole while its first move's countdown is
shown (the note wraps, never the name), and a chat line's report and mute buttons stay on that
line's own row, not below it beside the next message. Screenshots at 1280 and 390 px, in both
languages, into /tmp/shots-tablefix."""

from __future__ import annotations

import pytest

from .conftest import set_width
from .test_e2e_play import create_table, sign_up, wait_seq

SHOTS = "/tmp/shots-tablefix"
SIZES = ((1280, 900), (390, 844))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_seat_name_is_whole_beside_the_first_move_countdown(server, browser, lang):
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US")
    page = ctx.new_page()
    sign_up(page, server, f"bob{lang}")
    page.select_option("select[name=game]", "xiangqi")
    create_table(page, bots=1)
    wait_seq(page, 0)
    page.wait_for_selector(".seats .first-move")          # red's first move: its countdown shown
    for w, h in SIZES:
        set_width(page, w, h)
        cut = page.evaluate("""() => [...document.querySelectorAll('.seats .seat-nm')]
            .filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent)""")
        assert cut == [], (w, cut)
        page.screenshot(path=f"{SHOTS}/firstmove-{lang}-{w}.png", full_page=True)
    ctx.close()

