"""A move typed at a card table and refused, in Debian's Chromium: the Chinese page names the
cards in words (大王, not BJ1) and shows a command only as the thing to type (叫分请输入 bid 1、
bid 2 或 bid 3); the English page names them as the table's faces read (Big Joker, ♥7, not BJ1 or
7H0). The page words the referee's refusal itself
(qipai/server/web/i18n.js cardWords, as qipai.i18n.card_words), and a Chinese checkers hole by
its cell name (n9, not 0,0). Screenshots at 390 px."""

from __future__ import annotations

from .test_e2e_cardtable import open_table
from .test_e2e_play import sign_up

PHONE = {"width": 390, "height": 844}
SAID = {"zh": ("斗地主用一副牌：没有第二张大王", "叫分请输入 bid 1、bid 2 或 bid 3"),
        "en": ("Doudizhu uses one pack: Big Joker does not exist", None)}


def typed(page, text):
    """Type ``text`` into the table's move box and wait for the refusal it brings."""
    page.fill('#move-entry input[name="move"]', text)
    page.press('#move-entry input[name="move"]', "Enter")
    page.wait_for_function("() => document.querySelector('#move-refused').textContent !== ''")
    said = page.inner_text("#move-refused")
    page.evaluate("() => { document.querySelector('#move-refused').textContent = ''; }")
    return said


def test_a_typed_moves_refusal_names_the_cards_in_the_pages_words(server, browser, shot):
    for lang in ("zh", "en"):
        ctx = browser.new_context(viewport=PHONE, locale="zh-CN" if lang == "zh" else "en-US")
        page = ctx.new_page()
        sign_up(page, server, f"typed{lang}")
        open_table(page, server, "doudizhu", 2)
        page.wait_for_selector('#move-entry input[name="move"]:enabled')      # my turn to bid
        card, bid = SAID[lang]
        assert typed(page, "BJ1") == card
        if bid:
            assert typed(page, "bid 9") == bid
        # the page's own words for cards, as the terminal's
        words = page.evaluate("""async () => { const { t } = await import('/static/i18n.js');
            return t('refusal.doudizhu.not_hand', { missing: '7H0 TS LJ0' }); }""")
        want = "你手里没有：红桃7、黑桃10、小王" if lang == "zh" else "not in your hand: ♥7, ♠10, Small Joker"
        assert words == want, words
        # a Chinese checkers hole by its cell name, as the board and the move list name it
        hole = page.evaluate("""async () => { const { t } = await import('/static/i18n.js');
            return t('refusal.chinese-checkers.no_marble', { a: '0,0' }); }""")
        assert hole == ("n9 上没有棋子" if lang == "zh" else "there is no marble on n9"), hole
        page.fill('#move-entry input[name="move"]', "BJ1")
        page.press('#move-entry input[name="move"]', "Enter")
        page.wait_for_function("() => document.querySelector('#move-refused').textContent !== ''")
        shot(page, f"typed-refusal-{lang}-390")
        ctx.close()


def test_the_play_typed_button_with_an_empty_box_says_what_to_type(server, browser, shot):
    """"Play typed" / 按输入出牌 pressed with nothing typed: the line under the box says what to
    type, with a play open now as the example, and the box has the focus; nothing is sent."""
    for lang, said in (("zh", "还没有输入：请在框里输入，例如 "),
                       ("en", "Nothing typed yet: type in the box, for example ")):
        ctx = browser.new_context(viewport=PHONE, locale="zh-CN" if lang == "zh" else "en-US")
        page = ctx.new_page()
        sign_up(page, server, f"empty{lang}")
        open_table(page, server, "doudizhu", 2)
        page.wait_for_selector('#move-entry input[name="move"]:enabled')      # my turn to bid
        seq = page.get_attribute("#status", "data-seq")
        page.click('#move-entry button[type="submit"]')
        page.wait_for_function("() => document.querySelector('#move-refused').textContent !== ''")
        line = page.inner_text("#move-refused")
        example = page.evaluate("[...document.querySelectorAll('#legal-moves option')].map((o) => o.value)"
                                ".find((x) => x !== 'pass')")
        assert line == said + example, line
        assert page.evaluate("document.activeElement.name") == "move"
        assert page.get_attribute("#status", "data-seq") == seq
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 844})
            shot(page, f"typed-empty-{lang}-{width}")
        ctx.close()


HAND_20 = ["3S0", "4C0", "4D0", "5H0", "6S0", "7H0", "7S0", "8C0", "8S0", "9D0", "9S0", "TS0", "JD0",
           "QD0", "QS0", "KD0", "KH0", "AC0", "2D0", "BJ0"]


def test_a_landlords_hand_at_phone_width_shows_every_rank_and_no_stray_ring(server, browser, shot):
    """A landlord's 20 cards at 390 px: each card's rank corner ("10" beside the J) in sight, a
    raised (selected) card in its own row of the hand, the rows shared evenly enough that no
    card stands alone; a card tapped shows no focus ring (a ring is for the keyboard)."""
    ctx = browser.new_context(viewport=PHONE, locale="zh-CN")
    page = ctx.new_page()
    sign_up(page, server, "landlord390")
    open_table(page, server, "doudizhu", 2)
    page.wait_for_selector("#hand .c")
    page.click("#hand .c >> nth=3")                 # a tap selects it; the hand is drawn anew
    page.wait_for_selector("#hand .c.sel")
    assert page.evaluate("document.querySelectorAll('#hand .c:focus-visible').length") == 0
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 844})
        got = page.evaluate("""async (ids) => {
            const m = await import('/static/boards/cardtable.js');
            const hand = document.querySelector('#hand');
            hand.replaceChildren(...ids.map((id) => m.cardEl(id, 'zh', false)));
            hand.children[0].classList.add('sel');
            m.fitRow(hand);
            const cs = [...hand.children];
            const right = (c) => c.querySelector('b').getBoundingClientRect().right;
            const cut = cs.slice(0, -1).filter((c, i) => c.offsetTop === cs[i + 1].offsetTop
                && right(c) > cs[i + 1].getBoundingClientRect().left + 0.5);
            const rows = {};
            for (const c of cs) rows[c.offsetTop] = (rows[c.offsetTop] || 0) + 1;
            return { cut: cut.map((c) => c.dataset.card), rows: Object.values(rows) }; }""", HAND_20)
        assert got["cut"] == [], got
        assert min(got["rows"]) >= 4, got
        shot(page, f"ddz-hand20-zh-{width}")
    ctx.close()
