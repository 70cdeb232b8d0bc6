"""The table's sounds (qipai/server/web/sound.js) in a real browser: a burst of states, as a card
deal asking each seat in turn sends, makes one move tone; a turn and the end always sound; the
start of a game and a check have sounds of their own."""

from __future__ import annotations

from .test_e2e_play import create_table, join, sign_up, wait_seq


def test_a_burst_of_moves_is_one_tone_and_a_turn_still_sounds(server, browser):
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server + "/")
    got = page.evaluate("""async () => {
        const s = await import('/static/sound.js');
        const state = (seq, toAct) => ({ seq, seat: 0, to_act: toAct, view: {} });
        const kinds = [];
        for (let i = 1; i <= 30; i++) kinds.push(s.forState(state(i - 1, [1]), state(i, [1])));
        kinds.push(s.forState(state(30, [1]), state(31, [0])));            // the seat's turn
        await new Promise((r) => setTimeout(r, s.MOVE_GAP_MS + 50));
        kinds.push(s.forState(state(31, [1]), state(32, [1])));            // a move after a pause
        return { kinds, count: window.qipaiSounds.count };
    }""")
    ctx.close()
    # no gesture on the page: nothing is heard, but every sound the page makes is counted; the
    # 29 moves after the first in the burst make none
    assert got["count"] == {"move": 2, "turn": 1}, got
    assert got["kinds"][1:30] == [None] * 29, got


def test_the_start_and_a_check_have_sounds_of_their_own(server, browser):
    """The first state of a game sounds its start, the first state of a page opened on a game
    under way (a reload) does not; a state whose side to move is in check (xiangqi's
    `in_check`) sounds the check, over the capture or the turn it also is."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server + "/")
    got = page.evaluate("""async () => {
        const s = await import('/static/sound.js');
        const state = (seq, toAct, view = {}) => ({ seq, seat: 0, to_act: toAct, status: 'playing', view });
        return [
            s.forState(null, state(0, [0])),                    // a table that just began
            s.forState(null, state(7, [0])),                    // a reload in the middle of a game
            s.forState(null, state(7, [0]), true),              // the page saw the table wait
            s.forState(null, { ...state(9, []), result: { winner: 0 } }, true),   // over already
            s.forState(state(7, [1]), state(8, [0], { in_check: true })),
            s.forState(state(8, [0], { in_check: true }), state(9, [1], { in_check: false })),
            window.qipaiSounds.count,
        ];
    }""")
    ctx.close()
    # what sounded (or, before the page's first gesture, would have: false, yet counted); a
    # reload in the middle of a game and a finished one are silent (null)
    assert [k if k is None else k or "unheard" for k in got[:6]] in (
        ["start", None, "start", None, "check", "move"],
        ["unheard", None, "unheard", None, "unheard", "unheard"]), got
    assert got[6] == {"start": 2, "check": 1, "move": 1}, got


def test_two_people_hear_the_start_of_their_game_and_a_check(server, browser):
    """At a table two people play, each page sounds the game's start once (the creator's page
    saw the table wait for its second player; the one who joined opened it at its first
    position), and both hear the check a cannon gives with the advisor as its screen."""
    pages = []
    for name in ("soundred", "soundblack"):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        ctx.add_init_script("localStorage.setItem('lang', 'en')")
        page = ctx.new_page()
        sign_up(page, server, name)
        pages.append(page)
    red, black = pages
    red.select_option("select[name=game]", "xiangqi")
    table = create_table(red)
    join(black, server, table)
    for page in pages:
        wait_seq(page, 0)
        page.wait_for_function("() => (window.qipaiSounds.count.start || 0) === 1")
    # the red cannon to the middle, Black's advisor up; the cannon takes the middle pawn and
    # checks across the advisor
    for ply, (page, mv) in enumerate(((red, "h2e2"), (black, "d9e8"), (red, "e2e6"))):
        page.fill('#move-entry input[name="move"]', mv)
        page.press('#move-entry input[name="move"]', "Enter")
        for p in pages:
            wait_seq(p, ply + 1)
    for page in pages:
        page.wait_for_function("() => window.qipaiSounds.count.check === 1")
        assert page.evaluate("() => window.qipaiSounds.last") == "check"
        assert page.evaluate("() => window.qipaiSounds.count.start") == 1
    assert black.locator(".sq.check").count() == 1
    for page in pages:
        page.context.close()
