"""Mistyped moves at a xiangqi table against a bot, in Chromium (issue 13): text written as no
move at all (``hello``, ``zz``) is refused with the words only and never counts toward the
illegal-move limit; a move written right but illegal now (``e2e9``) counts, and the page says how
many so far and at how many the game is lost (rules/xiangqi.md §4.4: three in one game lose it).
The count stays on the page after a reload (it is in the table's state, not only in the refusal).
Both languages; screenshots at 1280 and 390 px."""

from __future__ import annotations

from .conftest import rendered
from .test_e2e_play import sign_up
from .test_e2e_typed_refusals import typed

WIDTHS = {"en": {"width": 1280, "height": 900}, "zh": {"width": 390, "height": 844}}
COUNT = {"en": "Illegal move: {} of 3 allowed before the game is lost",
         "zh": "违例着法：已 {} 次，满 3 次判负"}
NOT_MOVE = {"en": "is not written as a move", "zh": "不是着法的写法"}


def open_xiangqi_against_a_bot(page, server, name):
    """Sign up as ``name`` and open a new xiangqi table against a bot, no clock (Red: to move)."""
    sign_up(page, server, name)
    tid = page.evaluate("""async () => (await (await fetch('/api/tables', {method: 'POST',
        credentials: 'same-origin', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game: 'xiangqi', bots: 1, settings: {clock: 'none'}})})).json()).id""")
    page.goto(f"{server}/tables/{tid}")


def one_message(page) -> None:
    """The refusal under the box says the count: neither the page's standing count line nor the
    box's warning is shown beside it (one message, not two)."""
    rendered(page)
    assert page.locator("#illegal-count").is_hidden()
    assert page.locator("#move-hint").is_hidden()


def test_a_typing_slip_never_counts_and_an_illegal_move_says_its_count(server, browser, shot):
    for lang in ("en", "zh"):
        ctx = browser.new_context(viewport=WIDTHS[lang], locale="zh-CN" if lang == "zh" else "en-US")
        page = ctx.new_page()
        open_xiangqi_against_a_bot(page, server, f"slip{lang}")
        page.wait_for_selector('#move-entry input[name="move"]:enabled')      # Red: my move
        for slip in ("hello", "zz", "hello"):                # three slips: no loss, no count
            said = typed(page, slip)
            assert NOT_MOVE[lang] in said and "3" not in said, said
        said = typed(page, "e2e9")                            # written as a move, not legal
        assert said.endswith(COUNT[lang].format(1)), said
        assert typed(page, "zz").count("3") == 0             # a slip between: still not counted
        page.fill('#move-entry input[name="move"]', "e2e9")
        page.press('#move-entry input[name="move"]', "Enter")
        page.wait_for_function("() => document.querySelector('#move-refused').textContent !== ''")
        said = page.inner_text("#move-refused")
        assert said.endswith(COUNT[lang].format(2)), said
        one_message(page)
        # the game goes on: my move box still takes a move, no result shown
        assert page.locator('#move-entry input[name="move"]:enabled').count() == 1
        assert page.locator("#record-link").count() == 0
        # the count comes with the table's state: a reload still shows it
        page.reload()
        page.wait_for_selector('#move-entry input[name="move"]:enabled')
        assert page.inner_text("#illegal-count") == COUNT[lang].format(2)
        shot(page, f"illegal-count-{lang}-{WIDTHS[lang]['width']}")
        ctx.close()


REASON = {"en": "Red has no cannon on file 2", "zh": "红方在第 2 路没有炮"}
HINT = {"en": "Careful: an illegal move counts against you; 3 lose the game",
        "zh": "注意：不合法的着法会被计次，累计 3 次判负"}


def test_a_typed_illegal_move_says_why_beside_the_box_and_the_box_warns_first(server, browser):
    """``C2.1`` with no cannon left on file 2: the refusal gives the referee's reason with the
    count, right under the box (not far below the board); before any move is typed a hint under
    the box says an illegal move counts (rules/xiangqi.md §4.4). Screenshots at 1280 and 390 px."""
    for lang in ("en", "zh"):
        ctx = browser.new_context(viewport={"width": 390, "height": 844},
                                  locale="zh-CN" if lang == "zh" else "en-US")
        page = ctx.new_page()
        open_xiangqi_against_a_bot(page, server, f"cannon{lang}")
        box = '#move-entry input[name="move"]'
        page.wait_for_selector(f"{box}:enabled")
        assert page.inner_text("#move-hint") == HINT[lang]
        page.fill(box, "C2=5")
        page.press(box, "Enter")
        # the move and the bot's answer are both applied (seq 2), and the box is Red's again
        # (its short disabled spell between them may fall between two frames of a loaded machine)
        page.wait_for_function("() => +document.querySelector('#status').dataset.seq >= 2")
        page.wait_for_selector(f"{box}:enabled")             # the bot answered
        page.fill(box, "C2.1")
        page.press(box, "Enter")
        page.wait_for_function("() => document.querySelector('#move-refused').textContent !== ''")
        said = page.inner_text("#move-refused")
        assert REASON[lang] in said and said.endswith(COUNT[lang].format(1)), said
        one_message(page)
        for w, h in ((390, 844), (1280, 900)):
            page.set_viewport_size({"width": w, "height": h})
            field, note = page.locator(box).bounding_box(), page.locator("#move-refused").bounding_box()
            assert 0 <= note["y"] - (field["y"] + field["height"]) < 40, (w, field, note)
            page.screenshot(path=f"/tmp/shots-tablefix/typed-{lang}-{w}.png", full_page=True)
        ctx.close()
