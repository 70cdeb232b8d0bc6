"""A card or tile game's replay steps one play at a time, as a board game's replay does (and
lichess): ← / → show the table right after the next or the last play (a seat's cards or pass,
a bid, a declaration, a mahjong draw or discard), Home / End the ends; the list marks the one
play shown, in the row of its round (trick, turn); a click on a play shows the table after it.
Each game's record is a whole game of random legal moves stored as a lobby game of bots, read
by a visitor. Screenshots at 1280 and 390 px in English and Chinese in /tmp/shots-replay."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import migrated_sqlite

from .conftest import running_server
from .replaygames import GAMES, random_record, store_record

SHOTS = Path("/tmp/shots-replay")

#: the list's state: the plays marked as shown, the step shown, the counter
SHOWN = """() => {
    const cur = document.querySelector('#movelist .ml-move.current');
    return { current: [...document.querySelectorAll('#movelist .ml-move.current')].map((e) => +e.dataset.ply),
      ply: +document.querySelector('#replay-status').dataset.ply,
      where: document.querySelector('#ml-where').textContent,
      cells: document.querySelectorAll('#movelist .ml-move').length,
      rowOf: cur ? cur.closest('.ml-row').querySelector('.ml-n').textContent : null };
}"""

#: the play ``k`` of the list marked as shown
MARKED = "(k) => document.querySelector(`#movelist .ml-move.current[data-ply=\"${k}\"]`)"

#: the cards of the play shown (none: a pass, a bid) all lie on the table
ON_TABLE = """() => { const c = document.querySelector('#movelist .ml-move.current');
    const want = [...c.querySelectorAll('[data-card]')].map((e) => e.dataset.card);
    const laid = new Set([...document.querySelectorAll('#board [data-card]')].map((e) => e.dataset.card));
    return want.every((x) => laid.has(x)); }"""


@pytest.fixture(scope="module")
def replays(tmp_path_factory):
    """A server holding one finished game of every card and tile game: base URL, {game: id}."""
    data = tmp_path_factory.mktemp("replays")
    shutil.copyfile(migrated_sqlite(), data / "qipai.db")
    ids = {g: store_record(data / "qipai.db", g, random_record(g, 1)) for g in GAMES}
    # a doudizhu deal nobody bid on (pass, pass, pass), dealt again: bid 3, then the plays
    redealt = random_record("doudizhu", 106)
    assert redealt["actions"][:4] == ["pass", "pass", "pass", "bid 3"]
    ids["redealt"] = store_record(data / "qipai.db", "doudizhu", redealt)
    with running_server(data) as base:
        yield base, ids


def _open(browser, base, rid, lang, width=1280, height=900):
    ctx = browser.new_context(viewport={"width": width, "height": height})
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    page.goto(f"{base}/records/{rid}")
    page.wait_for_selector("#movelist .ml-move", timeout=30_000)
    return ctx, page


@pytest.mark.parametrize("game", list(GAMES))
def test_the_replay_steps_one_play_at_a_time(browser, replays, game):
    base, ids = replays
    ctx, page = _open(browser, base, ids[game], "zh", 390, 844)
    end = page.evaluate(SHOWN)
    n = end["cells"]
    assert end["current"] == [n] and n >= 8, end           # the last play, the game's end
    # each step of the list is one play (a row holds its round's plays), not a whole round
    plays = page.evaluate("""() => [...document.querySelectorAll('#movelist .ml-move')].map((c) =>
        c.querySelectorAll('.ct-round-play, .mj-step').length)""")
    assert set(plays) == {1}, plays
    page.keyboard.press("Home")
    page.wait_for_function("() => document.querySelector('#replay-status').dataset.ply === '0'")
    assert page.evaluate(SHOWN)["current"] == []
    seen = [0]
    for k in range(1, 9):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(MARKED, arg=k)
        now = page.evaluate(SHOWN)
        assert now["current"] == [k], (k, now)              # one play marked: the k-th
        assert now["ply"] >= seen[-1], (k, now, seen)       # the table goes forward with it
        seen.append(now["ply"])
        if game not in ("mahjong-gb", "laizi-mahjong", "baibian-bajue"):
            assert page.evaluate(ON_TABLE), (k, now)
    # a step a play: eight presses show several of the game's steps (a mahjong deal lays its
    # flowers out at once: they are plays of its first step)
    assert len(set(seen)) >= 5, seen
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(MARKED, arg=7)
    assert page.evaluate(SHOWN)["ply"] == seen[7]
    # a click on a play in the list: that play shown
    mid = n // 2
    page.locator(f'#movelist .ml-move[data-ply="{mid}"]').click()
    page.wait_for_function(MARKED, arg=mid)
    at = page.evaluate(SHOWN)
    assert at["current"] == [mid] and at["ply"] > seen[-1], at
    if game not in ("mahjong-gb", "laizi-mahjong", "baibian-bajue"):
        assert page.evaluate(ON_TABLE), at
    page.keyboard.press("End")
    page.wait_for_function(MARKED, arg=n)
    assert page.evaluate(SHOWN)["ply"] == end["ply"]
    ctx.close()


def test_a_redealt_hand_steps_from_the_bid_of_its_last_deal(browser, replays):
    """The list holds the deal that was played (its bids); its first step is that deal's bid,
    shown as the table right after it, not the first deal's pass."""
    base, ids = replays
    ctx, page = _open(browser, base, ids["redealt"], "en")
    page.keyboard.press("Home")
    page.wait_for_function("() => document.querySelector('#replay-status').dataset.ply === '0'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(MARKED, arg=1)
    now = page.evaluate(SHOWN)
    assert now["ply"] == 4 and now["where"] == "Bidding", now
    page.keyboard.press("ArrowRight")                      # the landlord's lead: step 5
    page.wait_for_function("() => document.querySelector('#replay-status').dataset.ply === '5'")
    assert page.evaluate(SHOWN)["where"].startswith("1 / "), page.evaluate(SHOWN)
    assert page.evaluate(ON_TABLE)
    ctx.close()


@pytest.mark.parametrize("game", ["doudizhu", "shengji", "mahjong-gb"])
def test_the_replay_after_five_steps_fits_both_widths(browser, replays, game):
    """The finding's path (Home, then → five times): the fifth play marked in its round's row,
    the page as wide as the window, in both languages at 1280 and 390 px."""
    base, ids = replays
    SHOTS.mkdir(exist_ok=True)
    for lang in ("zh", "en"):
        for width, height in ((1280, 900), (390, 844)):
            ctx, page = _open(browser, base, ids[game], lang, width, height)
            page.keyboard.press("Home")
            for _ in range(5):
                page.keyboard.press("ArrowRight")
            page.wait_for_function(MARKED, arg=5)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            # the marked play is in view inside the list
            assert page.evaluate("""() => {
                const c = document.querySelector('#movelist .ml-move.current').getBoundingClientRect();
                const l = document.querySelector('#ml-list').getBoundingClientRect();
                return c.top >= l.top - 1 && c.bottom <= l.bottom + 1; }""")
            page.screenshot(path=str(SHOTS / f"replay-{game}-step5-{lang}-{width}.png"), full_page=True)
            ctx.close()


def test_the_focus_ring_follows_the_play_shown(browser, replays):
    """A play clicked in the list keeps the focus; ← / → then move it with the play shown, so
    the ring never stays on a play that is not the one shown."""
    base, ids = replays
    ctx, page = _open(browser, base, ids["doudizhu"], "en", 390, 844)
    page.locator('#movelist .ml-move[data-ply="6"]').click()
    page.wait_for_function(MARKED, arg=6)
    page.keyboard.press("ArrowRight")
    page.wait_for_function(MARKED, arg=7)
    assert page.evaluate("document.activeElement.dataset.ply") == "7"
    page.keyboard.press("Home")
    page.wait_for_function("() => !document.querySelector('#movelist .ml-move.current')")
    assert page.evaluate("!document.activeElement.classList.contains('ml-move')")
    ctx.close()
