"""The mahjong tables' hand record (boards/mjhistory.js): one person plays a Guobiao hand against
three bots in Debian's Chromium while the list grows, a turn a row, in words with the tiles drawn
— the player's own draws with their tile, the bots' draws as "draw" alone, no claim-window pass;
a click on a row shows the table as that turn ended, End goes back; the replay lists the hand
too. Screenshots at 1280 and 390 px in English and Chinese go to /tmp/shots-mjlist/."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError

from .conftest import set_width
from .test_e2e_play import sign_up
from .timing import RECORD_MS, until

SHOTS = Path("/tmp/shots-mjlist")

#: each row of the list: who, and its steps (kind, tile codes drawn)
ROWS = """() => [...document.querySelectorAll('#movelist .mj-turn')].map((r) => ({
    who: r.querySelector('.who') ? r.querySelector('.who').innerText : '',
    steps: [...r.querySelectorAll('.mj-step')].map((s) => [s.dataset.step,
        [...s.querySelectorAll('.mj-t')].map((t) => t.dataset.tile || '')]),
    text: r.innerText.replace(/\\s+/g, ' ') }))"""

#: the list's words without the tiles' faces (an honour tile shows its Chinese sign in English too)
WORDS = """() => { const l = document.querySelector('#movelist .ml-list').cloneNode(true);
    l.querySelectorAll('.mj-t').forEach((t) => t.remove()); return l.textContent; }"""

#: something for the player to do, or the hand is over
ACTIONABLE = "document.querySelector('#hand .mj-t.can, #actions button[data-action], #record-link')"


def _shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _open_table(page, server, name: str, game: str, bot: str) -> None:
    """Sign up as ``name`` and sit at a new lobby table of ``game`` (one hand) with three bots
    (a spectator sees it 1 s late, not the server's 10 s: the laizi test's spectator waited for it)."""
    sign_up(page, server, name)
    tid = page.evaluate("""async ([game, bot]) => {
        const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({game, bots: 3, bot,
                                  settings: {bot_delay_ms: 20, clock: 'none', spectator_delay_ms: 1000}})});
        return (await r.json()).id; }""", [game, bot])
    page.goto(f"{server}/tables/{tid}")


def _check_rows(rows: list[dict], me: str) -> None:
    """What a player may read: its own draws with their tile, every other seat's without."""
    for r in rows:
        for kind, tiles in r["steps"]:
            assert kind != "pass"
            if kind == "draw":
                assert bool(tiles) == (r["who"] == me), r
            if kind in ("discard", "chow", "pung", "kong", "flower"):
                assert tiles and all(tiles), r
    assert not re.search(r"\bpass", " ".join(r["text"] for r in rows), re.I)


def _play_turn(page) -> None:
    """One thing of the player's: win, pass a claim, or discard the drawn tile (raise, then
    click again); with nothing to do, wait till there is."""
    win = page.locator('#actions button[data-action="win"]')
    claim = page.locator('#actions button[data-action="pass"]')
    tile = page.locator("#hand .mj-t.drawn.can")
    tile = tile if tile.count() else page.locator("#hand .mj-t.can").last
    try:
        if win.count():
            win.click(timeout=3_000)
        elif claim.count():
            claim.click(timeout=3_000)
        elif tile.count():
            handle = tile.element_handle(timeout=3_000)
            handle.click(timeout=3_000)
            page.locator("#hand .mj-t.picked").click(timeout=3_000)
        else:
            page.wait_for_function(ACTIONABLE, timeout=30_000)
    except PlaywrightError:           # a new state came first: look again
        pass


def test_the_hand_record_grows_in_words_and_hides_the_others_draws(server, browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script("localStorage.setItem('mj-autopass', '1')")
    page = ctx.new_page()
    _open_table(page, server, "mjlister", "mahjong-gb", "fast")
    page.wait_for_selector("#movelist .mj-turn")
    # the dealer's first turn: its draw, with the tile, as the first row of the list
    first = page.evaluate(ROWS)
    assert first[-1]["who"] == "You" and ["draw", [page.get_attribute("#hand .mj-t.drawn", "data-tile")]] \
        in first[-1]["steps"], first
    sizes, looked_back = [], False
    for _ in until(240):
        if page.locator("#record-link").count():
            break
        rows = page.evaluate(ROWS)
        sizes.append(len(rows))
        if not looked_back and len(rows) >= 6 and page.locator("#hand .mj-t.can").count():
            _check_rows(rows, "You")
            _shot(page, "mahjong-gb-en-1280-live")
            # a click on the first step: the table right after it (one discard on it at most,
            # the board not playable), End back to the game
            seq = int(page.get_attribute(".mj", "data-seq"))
            page.locator("#movelist li.ml-move").first.click()
            page.wait_for_function(f"+document.querySelector('.mj').dataset.seq < {seq}")
            assert page.locator("#hand").count() == 0 and page.locator(".mj-open").count() == 1
            assert sum(page.locator(f'[data-discards="{s}"] .mj-t').count() for s in range(4)) <= 1
            page.keyboard.press("End")
            page.wait_for_selector("#hand")
            looked_back = True
            continue
        _play_turn(page)
    page.wait_for_selector("#record-link", timeout=RECORD_MS)
    assert looked_back
    rows = page.evaluate(ROWS)
    assert sizes == sorted(sizes) and len(rows) > sizes[0] >= 1      # the list only grew
    _check_rows(rows, "You")
    kinds = [k for r in rows for k, _ in r["steps"]]
    assert {"draw", "discard"} <= set(kinds)
    last = rows[-1]["steps"][-1]
    assert last[0] in ("win", "drawn"), rows[-1]
    if last[0] == "win":                  # the winning tile and the fans
        assert last[1] and re.search(r"\d+ fan", rows[-1]["text"]), rows[-1]
        assert re.search(r"self-drawn win|win", rows[-1]["text"])
    n = len(rows)

    table_url = page.url
    for lang in ("en", "zh"):
        page.evaluate(f"localStorage.setItem('lang', '{lang}')")
        page.goto(table_url)
        page.wait_for_selector("#movelist .mj-turn")
        text = page.evaluate(WORDS)
        if lang == "zh":
            assert "摸牌" in text and "打出" in text and not re.search("[A-Za-z]{3,}", text), text
        else:
            assert "draw" in text and "discard" in text and not re.search("[\u4e00-\u9fff]", text), text
        for width, height in ((1280, 900), (390, 844)):
            set_width(page, width, height)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            # every row shows whole at a phone's width (it wraps, never cut off)
            cut = page.evaluate("""() => [...document.querySelectorAll('#movelist .ml-move')]
                .filter((li) => li.scrollWidth > li.clientWidth + 1).map((li) => li.innerText)""")
            assert cut == []
            _shot(page, f"mahjong-gb-{lang}-{width}-end")

    # the replay lists the same turns; there every draw shows its tile (every hand is shown)
    record = page.get_attribute("#record-link", "href").rsplit("/", 1)[1]
    for lang in ("en", "zh"):
        page.evaluate(f"localStorage.setItem('lang', '{lang}')")
        page.goto(f"{server}/records/{record}")
        page.wait_for_selector("#movelist .mj-turn")
        replay_rows = page.evaluate(ROWS)
        assert len(replay_rows) == n
        assert all(tiles for r in replay_rows for k, tiles in r["steps"] if k == "draw")
        # a click on a step of a turn (a draw, a discard: each its own) shows the table right
        # after it, the next step a later one (the deal's flowers are all laid out before the
        # first step: steps after them); the final step is the one shown first
        plies = []
        cells = page.locator("#movelist li.ml-move").count()
        for i in (cells // 2, cells // 2 + 1):
            before = page.get_attribute("#replay-status", "data-ply")
            page.locator("#movelist li.ml-move").nth(i).click()
            page.wait_for_function("(p) => document.querySelector('#replay-status').dataset.ply !== p",
                                   arg=before)
            plies.append(int(page.get_attribute("#replay-status", "data-ply")))
        assert 0 < plies[0] < plies[1]
        assert page.locator(".mj-result").count() == 0
        for width, height in ((1280, 900), (390, 844)):
            set_width(page, width, height)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            _shot(page, f"mahjong-gb-replay-{lang}-{width}")
    ctx.close()


def test_a_laizi_table_lists_its_turns_in_chinese(server, browser):
    """The laizi board shares the list: its turns in Chinese, the player's draws with the tile."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.add_init_script("localStorage.setItem('lang', 'zh')")
    page = ctx.new_page()
    _open_table(page, server, "lzlister", "laizi-mahjong", "rule")
    for _ in until(60):
        rows = page.evaluate(ROWS)
        if len(rows) >= 6 or page.locator("#record-link").count():
            break
        _play_turn(page)
    rows = page.evaluate(ROWS)
    assert len(rows) >= 6
    _check_rows(rows, "你")
    text = page.evaluate(WORDS)
    assert "摸牌" in text and "打出" in text and not re.search("[A-Za-z]{3,}", text), text
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    _shot(page, "laizi-mahjong-zh-390-live")
    # a spectator (some seconds late) reads no draw's tile; a click on a turn shows a position it
    # received (the server tells a spectator no earlier one while the hand is on), or, before
    # the first it got, the game again: never a table that stopped following the game
    watcher = browser.new_context(viewport={"width": 1280, "height": 900})
    watcher.add_init_script("localStorage.setItem('lang', 'zh')")
    spec = watcher.new_page()
    sent: list[str] = []

    def route(ws):
        table = ws.connect_to_server()
        ws.on_message(lambda m: (sent.append(m), table.send(m)))
        table.on_message(ws.send)
    spec.route_web_socket(re.compile(r"/ws/tables/"), route)
    spec.goto(page.url)
    spec.wait_for_selector("#movelist .mj-turn", timeout=30_000)
    seen = spec.evaluate(ROWS)
    assert all(not tiles for r in seen for k, tiles in r["steps"] if k == "draw"), seen
    spec.locator("#movelist li.ml-move").first.click()
    # an earlier position than the game's (the table's seq below the status's), or the game again
    spec.wait_for_function("""() => { const m = document.querySelector('#movelist');
        const shown = +document.querySelector('.mj').dataset.seq;
        const game = +document.querySelector('#status').dataset.seq;
        return m.dataset.ply === m.dataset.total || shown < game; }""")
    assert spec.locator("#error").inner_text() == "" and not [m for m in sent if '"position"' in m]
    watcher.close()
    ctx.close()
