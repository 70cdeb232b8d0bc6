"""Looking back at a card table after a redeal (doudizhu: all three passed the bidding, the cards
were dealt again and the first deal's bids are gone): the table after k plays is found in the
deal in play, never in the deal thrown in. The page's search halves the positions on the
count of plays in each view, which falls at a redeal; it landed in the first deal (the old
hand) for the first plays of the second. Tested in Chromium on the page's own module
(``boards/cardhistory.js`` ``lookBack``, with the count and deal number the card table passes)
and the views of a real doudizhu hand seen by seat 0, and at a live table of three people whose
first deal all pass."""

from __future__ import annotations

import asyncio
import json
import threading

import httpx
import websockets

import qipai

from ..server_process import answer_commitment
from .test_e2e_play import SECRET, post_table, signed_in_in, wait_seq_reached

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


async def _play(ws_base: str, cookies: list[dict[str, str]], tid: str, last: int,
                views: dict[int, dict]) -> None:
    """The three seats (sockets with ``cookies``) pass the first deal's bidding, bid 3 in the
    next, then play their first legal play, until position ``last``; seat 0's views by seq."""
    async def seat(cookie: dict[str, str], record: bool) -> None:
        async with websockets.connect(f"{ws_base}/ws/tables/{tid}", additional_headers=cookie) as s:
            while True:
                m = json.loads(await asyncio.wait_for(s.recv(), 60))
                await answer_commitment(s, m)
                if m["type"] != "state":
                    continue
                if record:
                    views[m["seq"]] = m["view"]
                if m["seq"] >= last:
                    return
                if m["seat"] not in m["to_act"] or not m.get("legal"):
                    continue
                v, legal = m["view"], m["legal"]
                if v["phase"] == "bidding":
                    action = "pass" if v["redeals"] == 0 else "bid 3"
                else:
                    action = next(a for a in legal if a != "pass")
                await s.send(json.dumps({"type": "move", "seq": m["seq"], "action": action}))
    await asyncio.gather(*(seat(c, i == 0) for i, c in enumerate(cookies)))


def test_a_live_table_looks_back_into_the_deal_in_play_after_a_redeal(server, browser):
    """Three people at a doudizhu table: all pass, the cards are dealt again (position 3), the
    bid of 3 (4) and the first play (5); then the first person's page opens, and a click on the
    bid in its list shows the table right after it (a position asked of the server): the
    second deal's hand, not the first deal's after its first pass (position 1)."""
    ctx, page, _ = signed_in_in(browser, server, "en", "redeal_ann")
    cookies = [{"Cookie": "; ".join(f"{c['name']}={c['value']}" for c in ctx.cookies())}]
    for name in ("redeal_bob", "redeal_cat"):
        r = httpx.post(server + "/api/signup", json={"username": name, "password": SECRET}, timeout=30)
        assert r.status_code == 201, r.text
        cookies.append({"Cookie": f"qipai_session={r.cookies['qipai_session']}"})
    tid = post_table(page, {"game": "doudizhu", "seat": 0, "settings": {"clock": "none"}})
    views: dict[int, dict] = {}
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(_play(server.replace("http", "ws", 1), cookies, tid, 5, views))
        except BaseException as e:  # noqa: BLE001 - told to the test below
            failed.append(e)
    players = threading.Thread(target=run)
    players.start()
    for c in cookies[1:]:
        assert httpx.post(f"{server}/api/tables/{tid}/sit", headers=c, timeout=30).status_code == 200
    players.join(120)
    assert not players.is_alive() and not failed, failed
    assert [views[q]["redeals"] for q in range(6)] == [0, 0, 0, 1, 1, 1], views
    # the page opens on the hand in play (one socket a seat: the players' have closed); the
    # earlier positions it shows are asked of the server
    page.goto(f"{server}/tables/{tid}")
    wait_seq_reached(page, 5)
    page.wait_for_selector("#movelist .ct-round.ct-bids .ml-move", timeout=30_000)
    page.locator("#movelist .ct-round.ct-bids .ml-move").first.click()
    want = sorted(views[4]["hand"])
    assert want != sorted(views[1]["hand"])
    page.wait_for_function("""(want) => JSON.stringify([...document.querySelectorAll('#hand .c')]
        .map((c) => c.dataset.card).sort()) === JSON.stringify(want)""", arg=want, timeout=30_000)
    ctx.close()
