"""The table's sounds (qipai/server/web/sound.js) in a real browser: a burst of states, as a card
deal asking each seat in turn sends, makes one move tone; a turn and the end always sound."""

from __future__ import annotations


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
