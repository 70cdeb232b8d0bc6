"""Mistyped moves at a xiangqi table against a bot, in Chromium (issue 13): text written as no
move at all (``hello``, ``zz``) is refused with the words only and never counts toward the
illegal-move limit; a move written right but illegal now (``e2e9``) counts, and the page says how
many so far and at how many the game is lost (rules/xiangqi.md §4.4: three in one game lose it).
The count stays on the page after a reload (it is in the table's state, not only in the refusal).
Both languages; screenshots at 1280 and 390 px."""

from __future__ import annotations

from .test_e2e_play import sign_up
from .test_e2e_typed_refusals import typed

WIDTHS = {"en": {"width": 1280, "height": 900}, "zh": {"width": 390, "height": 844}}
COUNT = {"en": "Illegal move: {} of 3 allowed before the game is lost",
         "zh": "违例着法：已 {} 次，满 3 次判负"}
NOT_MOVE = {"en": "is not written as a move", "zh": "不是着法的写法"}


def test_a_typing_slip_never_counts_and_an_illegal_move_says_its_count(server, browser, shot):
    for lang in ("en", "zh"):
        ctx = browser.new_context(viewport=WIDTHS[lang], locale="zh-CN" if lang == "zh" else "en-US")
        page = ctx.new_page()
        sign_up(page, server, f"slip{lang}")
        tid = page.evaluate("""async () => (await (await fetch('/api/tables', {method: 'POST',
            credentials: 'same-origin', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({game: 'xiangqi', bots: 1, settings: {clock: 'none'}})})).json()).id""")
        page.goto(f"{server}/tables/{tid}")
        page.wait_for_selector('#move-entry input[name="move"]:enabled')      # Red: my move
        for slip in ("hello", "zz", "hello"):                # three slips: no loss, no count
            said = typed(page, slip)
            assert NOT_MOVE[lang] in said and "3" not in said, said
        said = typed(page, "e2e9")                            # written as a move, not legal
        assert said.endswith(COUNT[lang].format(1)), said
        assert typed(page, "zz").count("3") == 0             # a slip between: still not counted
        page.fill('#move-entry input[name="move"]', "e2e9")
        page.press('#move-entry input[name="move"]', "Enter")
        page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
        said = page.inner_text("#error")
        assert said.endswith(COUNT[lang].format(2)), said
        # the game goes on: my move box still takes a move, no result shown
        assert page.locator('#move-entry input[name="move"]:enabled').count() == 1
        assert page.locator("#record-link").count() == 0
        # the count comes with the table's state: a reload still shows it
        page.reload()
        page.wait_for_selector('#move-entry input[name="move"]:enabled')
        assert page.inner_text("#illegal-count") == COUNT[lang].format(2)
        shot(page, f"illegal-count-{lang}-{WIDTHS[lang]['width']}")
        ctx.close()
