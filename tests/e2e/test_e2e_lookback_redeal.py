"""Looking back at a card table after a redeal (doudizhu: all three passed the bidding, the cards
were dealt again and the first deal's bids are gone): the table after k plays is found in the
deal in play, never in the deal thrown in. The page's search halves the positions on the
count of plays in each view, which falls at a redeal; it landed in the first deal (the old
hand) for the first plays of the second. Tested in Chromium on the page's own module
(``boards/cardhistory.js`` ``lookBack``, with the count and deal number the card table passes)
and the views of a real doudizhu hand seen by seat 0."""

from __future__ import annotations

import qipai

#: the search as the card table runs it: count = the plays of the history's rows (the bids'
#: row too), deal = the view's ``redeals``; ``cases``: [k, hi]; ``drop``: seqs never received
SEARCH = """async ([views, cases, local, drop]) => {
    const { lookBack, playCount } = await import('/static/boards/cardhistory.js');
    const { bidsThenRounds } = await import('/static/boards/cardtable.js');
    const rounds = bidsThenRounds('ddz.bids', 3);
    const back = lookBack(null);
    views.forEach((v, seq) => { if (!drop.includes(seq)) back.seen(seq, v); });
    const out = [];
    for (const [k, hi] of cases) {
        const at = await back.after(k, hi, (v) => playCount(rounds(v)), () => false, local,
                                    (v) => (v && v.redeals) || 0);
        out.push(at ? at.seq : null);
    }
    return out;
}"""


def _views() -> list[dict]:
    """Seat 0's view after each action of a doudizhu hand: three passes (the cards are dealt
    again), a bid of 3, then six plays."""
    state = qipai.load("doudizhu").new_state(seed=5)
    views = [state.view(0)]
    for i in range(9):
        seat = state.to_act[0]
        legal = [str(a) for a in state.legal_actions(seat)]
        state.apply("pass" if i < 3 else "bid 3" if i == 3 else legal[0], seat)
        views.append(state.view(0))
    return views


def test_looking_back_after_a_redeal_stays_in_the_deal_in_play(server, browser):
    views = _views()
    assert [v["redeals"] for v in views] == [0, 0, 0] + [1] * 7      # seq 3: dealt again
    assert [len(v["bids"]) for v in views[:5]] == [0, 1, 2, 0, 1]    # its count falls there
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server + "/")
    # [k plays, latest seq]: the position of the second deal after k plays (3: none yet, 4:
    # the bid); before the redeal, the first deal's as before
    cases = [[0, 5], [1, 5], [0, 9], [1, 9], [4, 9], [2, 8], [1, 2], [0, 2]]
    want = [3, 4, 3, 4, 7, 5, 1, 0]
    assert page.evaluate(SEARCH, [views, cases, False, []]) == want
    # a spectator searches only the views it received: those of the deal in play, none of the
    # first deal's however few it holds (none with k plays: no position)
    assert page.evaluate(SEARCH, [views, cases, True, []]) == want
    assert page.evaluate(SEARCH, [views, [[1, 9], [0, 9], [2, 9]], True, [3, 4]]) == [None, None, 5]
    ctx.close()
