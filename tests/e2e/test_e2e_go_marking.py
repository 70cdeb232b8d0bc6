"""Go's dead-stone phase at the table page: it is nobody's turn, so no side reads "Your turn" /
轮到你; each is told what to do (mark the dead stones, then submit), then that it waits for the
other's marks, a spectator that the players are marking; the typed-move box takes no move there.
Both languages; screenshots at 1280 and 390 px into /tmp/shots-tablefix."""

from __future__ import annotations

from .conftest import set_width
from .test_e2e_play import create_table, join, sign_up, wait_seq

BOX = '#move-entry input[name="move"]'
MARK = {"en": "Mark the dead stones: click a group, then press Submit marks",
        "zh": "请标记死子：点击棋块，然后按“确认死子”"}
WAIT = {"en": "Your marks are submitted: waiting for your opponent's", "zh": "你已确认死子：等待对手确认"}


def test_the_dead_stone_phase_says_what_to_do_and_takes_no_typed_move(server, browser):
    cb, cw = browser.new_context(locale="en-US"), browser.new_context(locale="zh-CN")
    black, white = cb.new_page(), cw.new_page()
    sign_up(black, server, "markblack")
    sign_up(white, server, "markwhite")
    black.select_option("select[name=game]", "go")
    black.click("details summary")
    black.select_option('select[data-opt="board_size"]', "9")
    table = create_table(black)
    join(white, server, table)
    wait_seq(black, 0)
    for seq, page in enumerate((black, white)):           # two passes typed: play ends
        wait_seq(page, seq)
        page.wait_for_selector(f"{BOX}:enabled")
        page.fill(BOX, "pass")
        page.press(BOX, "Enter")
    for page, lang in ((black, "en"), (white, "zh")):
        page.wait_for_selector('.go-note[data-phase="marking"]')
        page.wait_for_function("(t) => document.querySelector('#status').textContent === t", arg=MARK[lang])
        assert page.locator(BOX).is_disabled() and page.locator("#move-hint").is_hidden()
        assert not page.title().startswith(("Your turn", "轮到你"))
        for w, h in ((1280, 900), (390, 844)):
            set_width(page, w, h)
            page.screenshot(path=f"/tmp/shots-tablefix/go-marking-{lang}-{w}.png", full_page=True)
    black.click('#go-actions [data-action="done"]')        # black submits its marks: it waits
    black.wait_for_function("(t) => document.querySelector('#status').textContent === t", arg=WAIT["en"])
    cb.close()
    cw.close()
