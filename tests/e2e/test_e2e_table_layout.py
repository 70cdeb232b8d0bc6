"""What a table page keeps together: a seat's name is whole while its first move's countdown is
shown (the note wraps, never the name), and a chat line's report and mute buttons stay on that
line's own row, not below it beside the next message. Screenshots at 1280 and 390 px, in both
languages, into /tmp/shots-tablefix."""

from __future__ import annotations

import pytest

from .conftest import rendered, set_width
from .test_e2e_chat import chat, wait_line
from .test_e2e_play import create_table, join, sign_up, wait_seq

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


def test_a_chat_lines_buttons_stay_on_its_row(server, browser):
    ca = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    cb = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    a, b = ca.new_page(), cb.new_page()
    sign_up(a, server, "chatrowa")
    sign_up(b, server, "chatrowb")
    a.select_option("select[name=game]", "xiangqi")
    table = create_table(a)
    join(b, server, table)
    wait_seq(a, 0)
    chat(a, "hello from alice")
    chat(b, "Good luck, have fun")
    chat(a, "thanks")
    for page in (a, b):
        wait_line(page, "thanks")
    for page, lang in ((a, "en"), (b, "zh")):
        for w, h in SIZES:
            set_width(page, w, h)
            rendered(page)
            # each line with buttons: they lie within its own box, level with its first row of text
            bad = page.evaluate("""() => [...document.querySelectorAll('#chat .chat-line')]
                .filter((li) => li.querySelector('.chat-acts')).filter((li) => {
                  const box = li.getBoundingClientRect();
                  const acts = li.querySelector('.chat-acts').getBoundingClientRect();
                  const text = li.querySelector('.chat-text').getClientRects()[0];
                  return acts.top < box.top - 1 || acts.bottom > box.bottom + 1
                    || acts.top >= text.bottom || acts.bottom <= text.top;
                }).map((li) => li.textContent)""")
            assert bad == [], (lang, w, bad)
            page.screenshot(path=f"{SHOTS}/chatrow-{lang}-{w}.png", full_page=True)
    ca.close()
    cb.close()
