"""Boards and hands played with the keyboard alone, without the typed move field: one point of a
board (one card of a hand) is in the tab order, the arrow keys move the focus, Enter or Space
acts; every point has a name that says what is on it; axe finds nothing serious."""

from __future__ import annotations

from .test_e2e_a11y import NEW_TABLE, check
from .test_e2e_play import create_table, sign_up, wait_seq, wait_seq_reached

FOCUSED = ("() => { const e = document.activeElement; "
           "if (!e || e.getAttribute('role') !== 'button') return null; "
           "const d = e.dataset; return d.sq || d.pt || d.hole || d.key || d.i || null; }")


def tab_to_board(page, selector: str) -> str:
    """Tab until the focus is on a point of the board ``selector``; its key."""
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => !!document.activeElement.closest('{selector}')") and page.evaluate(FOCUSED):
            return page.evaluate(FOCUSED)
    raise AssertionError(f"no point of {selector} reached by Tab")


def walk_to(page, target: str, where) -> None:
    """Arrow keys until the focused point is ``target``; ``where(key)`` is its (column, row),
    row 0 at the top of the screen."""
    for _ in range(40):
        here = page.evaluate(FOCUSED)
        if here == target:
            return
        (c, r), (tc, tr) = where(here), where(target)
        key = "ArrowRight" if tc > c else "ArrowLeft" if tc < c else "ArrowDown" if tr > r else "ArrowUp"
        page.keyboard.press(key)
    raise AssertionError(f"did not reach {target}: at {page.evaluate(FOCUSED)}")


def test_xiangqi_is_played_with_arrows_and_enter(server, browser, shot):
    ctx = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    sign_up(page, server, "keys_xq")
    page.select_option("select[name=game]", "xiangqi")
    create_table(page, bots=1)
    wait_seq(page, 0)
    assert page.evaluate("() => document.querySelectorAll('.xq [data-sq][tabindex=\"0\"]').length") == 1
    tab_to_board(page, ".xq")
    # the outlined point says it is the keyboard's cursor, and which keys move it
    hint = page.locator("#kb-cursor-hint")
    hint.wait_for()
    assert "键盘光标" in hint.inner_text() and "方向键" in hint.inner_text(), hint.inner_text()
    page.screenshot(path="/tmp/shots-boardfix/xiangqi-cursor-zh-1280.png")
    # Red at the bottom: file a..i from the left, rank 0 at the bottom
    walk_to(page, "h2", lambda sq: ("abcdefghi".index(sq[0]), 9 - int(sq[1])))
    name = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert name == "h2：红炮", name
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.getAttribute('aria-pressed')") == "true"
    e2 = page.evaluate("() => document.querySelector('[data-sq=e2]').getAttribute('aria-label')")
    assert e2.endswith("可以走到这里"), e2
    walk_to(page, "e2", lambda sq: ("abcdefghi".index(sq[0]), 9 - int(sq[1])))
    page.keyboard.press(" ")
    wait_seq_reached(page, 1)                        # the move, perhaps the bot's answer too
    page.wait_for_function("() => window.qipaiLastState.moves.list[0].wxf === 'C2=5'")
    assert page.evaluate(FOCUSED) == "e2"            # the focus stays on the board after the move
    check(page, "xiangqi by keyboard", shot, "keys-xiangqi-zh")
    # a click off the board: the cursor and its note go
    page.click("#status")
    hint.wait_for(state="detached")
    ctx.close()


def test_go_and_gomoku_points_are_played_with_enter(server, browser):
    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    sign_up(page, server, "keys_go")
    for game, board, turn, cols in (("go", "#goban", "myturn", "ABCDEFGHJKLMNOPQRST"),
                                    ("gomoku", ".gm-board", "clickable", "abcdefghijklmno")):
        page.goto(server + "/")
        page.select_option("select[name=game]", game)
        create_table(page, bots=1)
        page.wait_for_selector(f"{board}.{turn}", timeout=30_000)      # this seat to play
        seq = int(page.get_attribute("#status", "data-seq"))
        start = tab_to_board(page, board)
        label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
        assert label.startswith(start), label
        page.keyboard.press("ArrowRight")
        right = page.evaluate(FOCUSED)
        assert cols.index(right[0]) == cols.index(start[0]) + 1 and right[1:] == start[1:], (start, right)
        target = right
        if "empty" in label:                 # gomoku's first stone goes in the centre: back there
            page.keyboard.press("ArrowLeft")
            target = start
        assert page.evaluate(FOCUSED) == target
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => +document.querySelector('#status').dataset.seq > {seq}")
        stone = f"document.querySelector('[data-pt=\"{target}\"]').getAttribute('aria-label')"
        page.wait_for_function(f"() => /stone/.test({stone})")
        check(page, f"{game} by keyboard")
    ctx.close()


def test_a_card_hand_is_browsed_and_picked_with_the_keyboard(server, browser):
    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    sign_up(page, server, "keys_cards")
    tid = page.evaluate(NEW_TABLE, "doudizhu")
    page.goto(f"{server}/tables/{tid}")
    page.wait_for_selector("#hand [data-key]")
    # the hand is drawn anew at each bid the bots make meanwhile: each check waits for its state
    page.wait_for_function("() => document.querySelectorAll('#hand [tabindex=\"0\"]').length === 1")
    first = tab_to_board(page, "#hand")
    page.keyboard.press("Home")
    first = page.evaluate(FOCUSED)
    page.keyboard.press("ArrowRight")
    second = page.evaluate(FOCUSED)
    assert second and second != first
    page.keyboard.press("Enter")                    # picks the card up; the hand is drawn anew
    card = f"document.querySelector('#hand [data-key=\"{second}\"]')"
    page.wait_for_function(f"() => {card}.classList.contains('sel')")
    # the focus is still on it, pressed
    page.wait_for_function(f"() => document.activeElement === {card} && "
                           "document.activeElement.getAttribute('aria-pressed') === 'true'")
    page.keyboard.press(" ")
    page.wait_for_function(f"() => !{card}.classList.contains('sel')")
    check(page, "doudizhu hand by keyboard")
    ctx.close()
