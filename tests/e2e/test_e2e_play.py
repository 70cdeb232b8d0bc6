"""Real browsers against a real server: sign up, create and join tables, play by clicks."""

from __future__ import annotations

import re

from .timing import until

SECRET = "e2e-password-1"
# a short game from the start position, ending in checkmate (cannon with the advisor as screen)
MATE = ["a3a4", "g9i7", "c3c4", "h7h8", "g3g4", "i9i8", "i3i4", "d9e8", "h2h9"]


def submit_account_form(page, base, path, name):
    page.goto(base + path)
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", SECRET)
    page.click("button[type=submit]")
    page.wait_for_selector("#me, .error:not(:empty)", state="attached")


def sign_up_by_form(page, base, name):
    """Sign up as ``name`` by the sign-up form: the page then goes on to the lobby, whose
    header's #me holds the name (read as text: at phone width #me is inside the closed header
    menu, and the header is drawn anew after /api/me answers)."""
    submit_account_form(page, base, "/signup", name)
    page.wait_for_function(
        """(name) => (document.querySelector('#me')?.textContent || '').startsWith(name)
                     || document.querySelector('.error:not(:empty)')""", arg=name, timeout=30_000)
    assert not page.locator(".error:not(:empty)").count(), page.locator(".error").all_text_contents()
    assert (page.locator("#me").text_content(timeout=5_000) or "").startswith(name)


def sign_up(page, base, name, lobby=True):
    """Sign up as ``name`` by the API in the page's context (the session cookie is the
    context's, as after the form), then, unless ``lobby`` is false, open the lobby signed in
    (where the form leaves the page). The form itself is filled in by :func:`sign_up_by_form`
    (this file's games, the newcomer's and the first organizer's tests): here it cost two page
    loads and a click per account, some 150 accounts of the browser files."""
    r = page.request.post(base + "/api/signup", data={"username": name, "password": SECRET})
    assert r.status == 201, r.text()
    if lobby:
        page.goto(base + "/")
        page.wait_for_function(
            "(name) => (document.querySelector('#me')?.textContent || '').startsWith(name)",
            arg=name, timeout=30_000)


def wait_seq(page, seq):
    page.wait_for_selector(f'#status[data-seq="{seq}"]', timeout=30_000)   # a full run's busy machine


def wait_seq_reached(page, seq):
    """Wait until the position number is ``seq`` or past it: a person's move at a table with a
    bot, which may have answered before the page is looked at (position ``seq`` shown only
    between two frames, or not at all)."""
    page.wait_for_function(f"() => +document.querySelector('#status')?.dataset.seq >= {seq}",
                           timeout=30_000)


def create_table(page, bots: int = 0) -> str:
    """Press the lobby form's create button (game and options already chosen) with ``bots``
    bots (none: the table waits for people; the form's default fills it with bots); the
    table id."""
    page.select_option("select[name=bots]", str(bots))
    page.click("#create")
    page.wait_for_url(re.compile(r"/tables/\w+$"))
    return page.url.rsplit("/", 1)[1]


def post_table(page, body: dict) -> str:
    """Create a table by the lobby API (``POST /api/tables`` with ``body``) in the page's
    session, as the lobby form does; the table id."""
    return page.evaluate("""async (body) => {
        const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
        return (await r.json()).id; }""", body)


def signed_in_in(browser, base, lang: str, name: str, width: int = 1280, height: int = 900):
    """A new browser context whose page speaks ``lang`` (``en`` or ``zh``, picked as a person
    picks it), signed up as ``name`` and on the lobby; the context, the page and the language's
    catalogue (key: words)."""
    import json
    from pathlib import Path

    words = json.loads((Path(__file__).resolve().parents[2] / "qipai" / "i18n" / f"{lang}.json")
                       .read_text(encoding="utf-8"))
    ctx = browser.new_context(viewport={"width": width, "height": height})
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    sign_up(page, base, name)
    return ctx, page, words


def join(page, server, table):
    """Join ``table`` from the lobby list."""
    page.goto(server + "/")
    page.click(f'[data-join="{table}"]')
    page.wait_for_url(f"**/tables/{table}")


def test_two_people_play_xiangqi_to_checkmate(server, browser, shot):
    ctx_red, ctx_black = browser.new_context(), browser.new_context()
    red, black = ctx_red.new_page(), ctx_black.new_page()
    sign_up_by_form(red, server, "redplayer")
    sign_up_by_form(black, server, "blackplayer")

    red.select_option("select[name=game]", "xiangqi")
    table = create_table(red)
    join(black, server, table)
    wait_seq(red, 0)
    wait_seq(black, 0)

    # Black's board is flipped: Red's home rank is at the top
    def y(page, sq):
        return page.locator(f'[data-sq="{sq}"]').bounding_box()["y"]
    assert y(red, "a0") > y(red, "a9") and y(black, "a0") < y(black, "a9")

    for ply, mv in enumerate(MATE):
        page = red if ply % 2 == 0 else black
        if ply == 2:        # one move by dragging the piece
            page.drag_and_drop(f'[data-sq="{mv[:2]}"]', f'[data-sq="{mv[2:]}"]')
        else:
            page.click(f'[data-sq="{mv[:2]}"]')
            targets = page.locator(".sq.target")
            assert targets.count() >= 1 and page.locator(f'[data-sq="{mv[2:]}"].target').count() == 1
            if ply == 0:
                shot(page, "xiangqi-selected")
            page.click(f'[data-sq="{mv[2:]}"]')
        wait_seq(red, ply + 1)
        wait_seq(black, ply + 1)
        assert red.locator(".sq.last").count() == 2
    assert black.locator(".sq.check").count() == 1          # Black's king is marked
    for page in (red, black):
        page.wait_for_selector("#record-link")
        assert page.inner_text("#status").endswith(("You won — checkmate", "You lost — checkmate",
                                                    "你赢了 — 将死", "你输了 — 将死"))
    shot(red, "xiangqi-red-mate")
    shot(black, "xiangqi-black-mate")
    record = red.get_attribute("#record-link", "href").rsplit("/", 1)[1]
    for page, opponent in ((red, "blackplayer"), (black, "redplayer")):
        page.goto(server + "/history")
        page.wait_for_selector(f'[data-record="{record}"]')
        row = page.inner_text(f'[data-record="{record}"]')
        assert opponent in row and "checkmate" in row.lower()
        assert re.search("You won|You lost|你赢了|你输了", row), row
    red.goto(f"{server}/records/{record}")
    red.wait_for_selector(".xq .pc")
    red.click("#prev")
    assert red.locator('[data-sq="h2"] .pc').count() == 1     # one step back: the cannon is home
    shot(red, "xiangqi-replay")
    ctx_red.close()
    ctx_black.close()


def test_organizer_creates_an_event_and_starts_a_round(server, browser, shot):
    ctx = browser.new_context()
    page = ctx.new_page()
    # redplayer, the first account of this server, is an organizer (run alone: sign it up first)
    submit_account_form(page, server, "/login", "redplayer")
    if not page.locator("#me").count():
        sign_up_by_form(page, server, "redplayer")
    assert page.locator("#me svg.icon-star[role=img]").count() == 1     # the organizer's mark
    page.goto(server + "/events")
    page.select_option("select[name=preset]", "s3_xiangqi")
    page.fill("input[name=name]", "Friday club")
    page.fill("textarea[name=players]", "redplayer\nb1 random\nb2 random\nb3 greedy")
    page.click("#create-event")
    page.wait_for_url(re.compile(r"/events/[\w.-]+$"))
    page.wait_for_selector("#start-round")
    assert page.locator("#standings tbody tr").count() == 4
    page.click("#start-round")
    page.click('#ask [data-answer="yes"]')          # asked first: it cannot be undone
    page.wait_for_selector('[data-round="1"] a')          # the games are at tables
    shot(page, "event-round-1")
    ctx.close()


def click_unless_answered(page, selector: str) -> bool:
    """Click ``selector``, unless the board answered first: where pass is the only answer the
    table passes by itself (auto-pass), and the button goes away under the click. Whether the
    click was made: not made, the caller looks again rather than wait for a change (a loaded
    machine's click can also time out with the turn still this seat's: nothing then changes)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.click(selector, timeout=3000)
    except PlaywrightTimeout:
        return False
    return True


def test_one_person_plays_doudizhu_against_two_bots(server, browser, shot):
    ctx = browser.new_context(viewport={"width": 390, "height": 844})   # phone width
    page = ctx.new_page()
    sign_up_by_form(page, server, "cardplayer")
    page.select_option("select[name=game]", "doudizhu")
    page.select_option("select[name=bots]", "2")
    page.click("#create")
    page.wait_for_url(re.compile(r"/tables/\w+$"))
    page.wait_for_selector("#hand .c")
    assert page.locator("#hand .c").count() == 17
    shot(page, "doudizhu-deal")
    plays = 0
    for _ in until(240):           # a time bound: a loaded machine's bots keep the page waiting longer
        if page.locator("#record-link").count():
            break
        enabled = page.locator("#actions button:enabled")
        if not enabled.count():
            page.wait_for_timeout(100)
            continue
        seq = page.get_attribute("#status", "data-seq")
        bids = page.locator('#actions button[data-action^="bid"]:enabled')
        if bids.count():
            bids.last.click()                      # bid the most
        elif page.locator('#actions button[data-action="hint"]:enabled').count():
            page.click('#actions button[data-action="hint"]')
            assert page.locator("#hand .c.sel").count() >= 1
            if plays == 2:
                shot(page, "doudizhu-selected")
            page.click('#actions button[data-action="play"]')
            plays += 1
        elif page.locator('#actions button[data-action="pass"]:enabled').count():
            if not click_unless_answered(page, '#actions button[data-action="pass"]'):
                continue
        elif not click_unless_answered(page, "#actions button:enabled >> nth=0"):
            continue
        page.wait_for_function(f'document.querySelector("#status").dataset.seq !== "{seq}"', timeout=30_000)
    page.wait_for_selector("#record-link")
    assert plays >= 1
    assert page.locator('[data-pile="kitty"] .c').count() == 3             # the kitty is shown once revealed
    assert "Multiplier" in page.inner_text(".ct .info") or "倍数" in page.inner_text(".ct .info")
    assert "Result" in page.inner_text("#status") or "结果" in page.inner_text("#status")
    shot(page, "doudizhu-end")
    record = page.get_attribute("#record-link", "href").rsplit("/", 1)[1]
    page.goto(server + "/history")
    page.wait_for_selector(f'[data-record="{record}"]')
    page.goto(f"{server}/records/{record}")
    page.wait_for_selector(".ct")
    page.click("#prev")
    assert page.locator(".ct .pl .cards.open .c").count() > 0     # the replay shows every hand
    shot(page, "doudizhu-replay")
    ctx.close()
