"""One person plays a hand of Guobiao mahjong against three bots in Debian's Chromium, by clicks,
at phone width: discards by clicking tiles, claims by the claim buttons, the fan list at the end,
then the replay with every hand shown."""

from __future__ import annotations

import re

from playwright.sync_api import Error as PlaywrightError

from .conftest import set_width
from .test_e2e_play import sign_up
from .timing import until

SEQ = "document.querySelector('.mj').dataset.seq"


#: a claim of seat 0 is settled: its set is on the table, another seat's set is (a claim of higher
#: priority took the tile), or the hand is over
CLAIM_SETTLED = """([meld, before]) =>
    document.querySelector(`[data-melds="0"] [data-meld="${meld}"]`)
    || document.querySelectorAll('[data-melds]:not([data-melds="0"]) [data-meld]').length > before
    || document.querySelector('#record-link')"""

def wait_change(page, seq: str) -> None:
    page.wait_for_function(f"!document.querySelector('.mj') || {SEQ} !== '{seq}'"
                           " || document.querySelector('#record-link')", timeout=60_000)


def end_in_both_languages(page, shot, game: str, check=None) -> None:
    """The finished table again in English and in Chinese, at desktop and phone width, with
    nothing wider than the page; ``check(page, lang)`` looks at each language's page. Leaves
    the page in English at phone width."""
    table_url = page.url
    for lang in ("en", "zh"):
        page.evaluate(f"localStorage.setItem('lang', '{lang}')")
        page.goto(table_url)
        page.wait_for_selector(".mj-result")
        for width, size in (("1280", {"width": 1280, "height": 900}), ("390", {"width": 390, "height": 844})):
            set_width(page, size["width"], size["height"])
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
            shot(page, f"{game}-{lang}-{width}-end")
        if check:
            check(page, lang)
    page.evaluate("localStorage.setItem('lang', 'en')")
    page.set_viewport_size({"width": 390, "height": 844})


def test_one_person_plays_a_mahjong_hand_against_three_bots(server, browser, shot):
    ctx = browser.new_context(viewport={"width": 390, "height": 844})   # phone width
    page = ctx.new_page()
    sign_up(page, server, "tileplayer")
    page.select_option("select[name=game]", "mahjong-gb")
    page.select_option("select[name=bots]", "3")
    page.click("details summary")
    # a lobby table plays one hand: the form offers it by default
    assert page.input_value("select[data-opt=hands_per_match]") == "1"
    page.click("#create")
    page.wait_for_url(re.compile(r"/tables/\w+$"))
    page.wait_for_selector("#hand .mj-t")
    # the creator sits in seat 0, the dealer of the first hand: 14 tiles, the 14th apart
    assert page.locator("#hand .mj-t").count() == 14
    assert page.locator("#hand .mj-t.drawn").count() == 1
    assert page.locator('[data-seatbox="0"].me').count() == 1
    assert page.locator(".mj-others [data-seatbox]").count() == 3
    assert page.locator("#autopass").is_checked()
    shot(page, "mahjong-gb-deal")

    discards = claims = passes = 0
    claimed_meld = None
    for _ in until(150):
        if page.locator("#record-link").count():
            break
        seq = page.get_attribute(".mj", "data-seq")
        # a seat's concealed tiles are never drawn for another seat during the hand
        assert page.locator(".mj-others .mj-open").count() == 0
        win = page.locator('#actions button[data-action="win"]')
        claim = page.locator("#actions button.claim")
        can = page.locator("#hand .mj-t.can")
        if win.count():
            shot(page, "mahjong-gb-win-button")
            win.click()
        elif claim.count():
            if claims == 0:
                assert page.locator("#claim.mine").count() == 1          # the tile to claim is named
                assert page.locator('#actions button[data-action="pass"]').count() == 1
                shot(page, "mahjong-gb-claim")
                action = claim.first.get_attribute("data-action")
                others_before = page.locator('[data-melds]:not([data-melds="0"]) [data-meld]').count()
                claim.first.click()
                claims += 1
                claimed_meld = action.split()[0]
            else:
                page.click('#actions button[data-action="pass"]')
                passes += 1
        elif can.count():
            tile = page.locator("#hand .mj-t.drawn.can")
            tile = tile if tile.count() else can.last
            # the tile itself, not a locator found again after the state moved on (a bot's
            # answer can redraw the hand between reading the tile and clicking it)
            try:
                handle = tile.element_handle(timeout=5_000)
                code = handle.get_attribute("data-tile")
                handle.click(timeout=5_000)                 # raise it ...
            except PlaywrightError:                         # redrawn: look again
                continue
            # a new state (even one keeping the position number, as a claim window does) drops
            # the raised tile: look again; a tile that never rises leaves the hand unfinished,
            # which the wait for the record below catches. A tile still raised is raised in the
            # position shown (the seq read above may be older: the turn can come after it): it
            # is discarded now, never clicked again as a tile to raise (that click discards it)
            picked = page.locator("#hand .mj-t.picked")
            try:
                picked.wait_for(timeout=3_000)
                seq = page.get_attribute(".mj", "data-seq")
                raised = picked.get_attribute("data-tile", timeout=1_000)
            except PlaywrightError:
                continue
            assert raised == code
            try:
                if discards % 2:                                    # ... and discard by button
                    page.click('#actions button[data-action="discard"]', timeout=5_000)
                else:                                               # ... or by a second click
                    picked.click(timeout=5_000)
            except PlaywrightError:                                 # a new state came first
                continue
            discards += 1
        else:
            page.wait_for_timeout(60)
            continue
        wait_change(page, seq)
        if claimed_meld and claims == 1 and claimed_meld in ("pung", "chow", "kong"):
            # the claim is made, unless a claim of higher priority by a bot took the tile (another
            # seat's new set, or its win ends the hand)
            page.wait_for_function(CLAIM_SETTLED, arg=[claimed_meld, others_before], timeout=30_000)
            if page.locator(f'[data-melds="0"] [data-meld="{claimed_meld}"]').count():
                shot(page, "mahjong-gb-after-claim")
            claimed_meld = None
    page.wait_for_selector("#record-link", timeout=60_000)
    assert discards >= 1
    status = page.inner_text("#status")
    assert "Result" in status or "结果" in status
    # every seat's discards are on the table
    assert sum(page.locator(f'[data-discards="{s}"] .mj-t').count() for s in range(4)) >= 4
    result = page.locator(".mj-result")
    assert result.count() == 1 and result.get_attribute("open") is not None
    assert page.locator(".mj-revealed > div").count() == 4          # every hand is shown at the end
    # the result notation, from the record (the page says it only in words)
    record = page.get_attribute("#record-link", "href").rsplit("/", 1)[1]
    text = page.request.get(f"{server}/api/records/{record}").json()["result"]["text"]
    if "|" in text:                     # a win: the fan list matches the result notation
        total = int(re.search(r"= (\d+)", text).group(1))
        assert page.locator("#fans tr[data-fan]").count() >= 1
        assert int(page.get_attribute("#fans tr.total", "data-total")) == total
        for row in page.locator("#fans tr[data-fan]").all():
            fan_name = row.get_attribute("data-name")
            assert fan_name in text
        # the win in words: "Bot (Greedy, Across) won by self-draw, 12 fans · Payments: …", never
        # "wins — win" nor the payments after "winning hand:" as if they were the hand
        if "Result" in status:
            assert "— win:" not in status and "winning hand" not in status, status
            assert f", {total} fans · Payments: " in status, status
    else:
        assert "荒庄" in result.inner_text() or "Drawn" in result.inner_text()
    shot(page, "mahjong-gb-end")
    # a lobby table plays one hand, said so; the end at desktop and phone width, in both languages
    assert page.inner_text(".mj-info").count("One hand") + page.inner_text(".mj-info").count("一局") == 1
    end_in_both_languages(page, shot, "mahjong-gb")

    # the steps held back: the page says it is loading them, not a blank page
    held = []
    page.route("**/api/records/*/steps*", lambda route: route.continue_() if held else held.append(route))
    page.goto(f"{server}/records/{record}")
    page.wait_for_selector("#replay-loading")
    assert page.inner_text("#replay-loading") == "Loading…"
    held[0].continue_()
    page.wait_for_selector(".mj")
    assert page.locator("#replay-loading").count() == 0
    page.click("#prev")
    assert page.locator(".mj .mj-open").count() == 4                # the replay shows every hand
    assert page.locator(".mj-result").count() == 0                  # one step before the end
    assert "tileplayer" in page.inner_text('[data-seatbox="0"]')
    # its turns listed in words with the tiles drawn (boards/mjhistory.js), never as raw action texts
    assert page.locator("#movelist .mj-turn .mj-t").count() >= 4
    listed = page.inner_text("#movelist")
    assert not re.search(r"discard \d[mps]", listed) and "discard" in listed
    # at phone width every step shows whole: a name, its act and its tile wrap, never cut off
    # ("Bot (Greedy) Disca…")
    page.set_viewport_size({"width": 390, "height": 844})
    cut = page.evaluate("""() => [...document.querySelectorAll('#movelist .ml-move')]
        .filter((li) => li.scrollWidth > li.clientWidth + 1).map((li) => li.innerText)""")
    assert cut == []
    shot(page, "mahjong-gb-replay")
    page.click("#lang")                                             # 中文
    page.wait_for_selector(".mj-result")
    assert "圈风" in page.inner_text(".mj-info")
    assert "打出" in page.inner_text("#movelist")
    assert "番" in page.inner_text(".mj-result") or "荒庄" in page.inner_text(".mj-result")
    assert ": " not in page.inner_text(".mj-result")              # Chinese takes the full-width colon
    # the replay names the bots by their seats' winds (东家 …) as its result line does, not 下家 / 对家 /
    # 上家 nor a screen side (下方)
    words = page.inner_text(".mj-result") + page.inner_text("#replay-result")
    # (two bots of one kind are their seats alone, 北家, never 机器人（贪心，北家）)
    assert not re.search("下家|对家|上家|下方", words), words
    assert re.search("[东南西北]家", words) and "（贪心，" not in words, words
    shot(page, "mahjong-gb-replay-zh")
    ctx.close()


def test_a_sent_move_locks_the_hand_until_the_table_answers(server, browser, tmp_path):
    """A tile discarded, nothing more of the hand takes a click until the table answers: a tap on
    another tile neither raises it nor sends a second move (the table refused it, and a test
    clicking on the stale hand waited for a raised tile that the answer took away). The table's
    answers are held back (a WebSocket route) to look at the page in between."""
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    held: list = []
    hold = {"on": False}
    sent: list[str] = []

    def route(ws):
        table = ws.connect_to_server()
        ws.on_message(lambda m: (sent.append(m), table.send(m)))
        table.on_message(lambda m: held.append(m) if hold["on"] else ws.send(m))
        hold["ws"] = ws
    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    sign_up(page, server, "lockplayer")
    tid = page.evaluate("""async () => {
        const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({game: 'baibian-bajue', bots: 3, bot: 'rule',
                                  settings: {bot_delay_ms: 20, clock: 'none'}})});
        return (await r.json()).id; }""")
    page.goto(f"{server}/tables/{tid}")
    page.wait_for_selector("#hand .mj-t.drawn.can")          # the dealer's first turn
    hold["on"] = True
    moves = lambda: [m for m in sent if '"move"' in m]       # noqa: E731
    page.click("#hand .mj-t.drawn.can")                      # raise the drawn tile ...
    page.click("#hand .mj-t.picked")                         # ... and discard it
    page.wait_for_function("() => !document.querySelector('#hand .mj-t.can')", timeout=30_000)
    assert len(moves()) == 1, moves()
    assert page.locator('#actions button[data-action="discard"]').count() == 0
    first = page.locator("#hand .mj-t").first
    first.click()                                            # a tap on the stale hand: nothing
    first.click()
    assert page.locator("#hand .mj-t.picked").count() == 0
    assert len(moves()) == 1, moves()
    hold["on"] = False                                       # the table's answers arrive
    for m in held:
        hold["ws"].send(m)
    page.wait_for_function(f"{SEQ} !== '0'", timeout=30_000)
    assert page.locator("#error").inner_text() == ""
    page.context.close()


def test_every_tile_has_an_english_name_in_the_english_interface(server, browser, shot):
    """English mahjong sets carry the characters, so the faces keep them; in the English page each
    honour has its word under the face, each flower its number as English sets print it (春 over
    1: a cut word such as "4 Wtr" read as nothing), and each its whole name as its title (春
    named "Spring 1"), as the tiles' names in text ("Spring 1", not "Flower 1")."""
    page = browser.new_page()
    page.goto(server + "/")
    codes = ["f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "E", "S", "W", "N", "C", "F", "P"]
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 400})
        for zh in (False, True):
            faces = page.evaluate("""async ([codes, zh]) => {
                const m = await import('/static/boards/mahjong-gb.js');
                const row = document.createElement('div'); row.className = 'mj-row'; row.id = 'tiles';
                document.querySelector('#tiles')?.remove();
                row.append(...codes.map((c) => m.tileFace(c, zh)));
                document.querySelector('main').prepend(row);
                const word = (t) => t.querySelector('i');
                const fits = (t) => !word(t) || word(t).scrollWidth <= t.clientWidth + 1;
                return [...row.children].map((t) => [t.title, word(t)?.textContent || '', fits(t)]); }""",
                                  [codes, zh])
            if not zh:
                assert [f[0] for f in faces[:8]] == [
                    "Spring 1", "Summer 2", "Autumn 3", "Winter 4", "Plum 5", "Orchid 6", "Bamboo 7",
                    "Chrysanthemum 8"], faces
                assert [f[1] for f in faces[:8]] == [str(n) for n in range(1, 9)], faces
                assert all(f[1] for f in faces), faces
                assert faces[9][0] == "South wind" and faces[12][0] == "Red dragon", faces
                assert not any(re.search(r"[\u4e00-\u9fff]", f[0] + f[1]) for f in faces), faces
            assert all(f[2] for f in faces), faces[8:]          # each word within its tile
            shot(page, f"mj-tiles-{'zh' if zh else 'en'}-{width}")
    words = page.evaluate("""async () => { const { t } = await import('/static/i18n.js');
        return [1, 5].map((n) => t(`tile.flower.${n}`)); }""")
    assert words == ["Spring 1", "Plum 5"], words
    page.close()
