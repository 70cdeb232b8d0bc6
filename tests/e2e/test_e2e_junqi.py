"""Two people play luzhan junqi (陆战棋) in real browsers: both lay out (one takes the second
offered layout and swaps two pieces by clicks, a swap the rules forbid is refused on the board),
they play three moves each by clicks (the first an attack whose outcome is marked), North
resigns, and the record is in both histories and replays."""

from __future__ import annotations

import re

from .pages import both_see_the_outcome
from .test_e2e_play import create_table, join, sign_up, wait_seq


def cell(page, point):
    return page.locator(f'#jq-board [data-pt="{point}"]')


def piece(page, point):
    loc = page.locator(f'#jq-board [data-pt="{point}"] .jq-pc')
    return loc.get_attribute("data-piece") if loc.count() else None


def own_layout(page, seat):
    """point -> code of the seat's pieces as the board shows them (read in one snapshot)."""
    return page.evaluate("""(seat) => Object.fromEntries(
        [...document.querySelectorAll(`#jq-board .jq-pc[data-seat="${seat}"]`)]
            .map((pc) => [pc.parentElement.dataset.pt, pc.dataset.piece]))""", seat)


def test_two_people_lay_out_play_and_resign_luzhan(server, browser, shot):
    ctx_s = browser.new_context(locale="zh-CN")
    ctx_n = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")   # phone
    south, north = ctx_s.new_page(), ctx_n.new_page()
    sign_up(south, server, "jqsouth")
    sign_up(north, server, "jqnorth")

    south.select_option("select[name=game]", "junqi")
    table = create_table(south)
    join(north, server, table)
    both = (south, north)
    for page in both:
        wait_seq(page, 0)
        assert page.locator("#jq-board .jq-pt").count() == 60
        assert page.locator("#jq-board .jq-pt.camp").count() == 10
        assert page.locator("#jq-board .jq-pt.hq").count() == 4
        # the layout phase: three offered layouts, a draft of 25 own pieces, nobody else's
        page.wait_for_selector('#jq-actions [data-action="submit"]')
        assert page.locator("#jq-actions [data-layout]").count() == 3
        assert page.locator("#jq-board .jq-pc.mine").count() == 25
        assert page.locator("#jq-board .jq-pc:not(.mine)").count() == 0

    # each viewer sits at the bottom: North's board is turned round
    def y(page, point):
        return cell(page, point).bounding_box()["y"]
    assert y(south, "a1") > y(south, "a12") and y(north, "a1") < y(north, "a12")
    assert north.locator("#jq-board").bounding_box()["width"] <= 390           # fits a phone
    assert "司令" in south.inner_text("#jq-board")                               # Chinese ranks
    assert "Submit layout" in north.inner_text("#jq-actions")                    # English labels
    assert "提交布阵" in south.inner_text("#jq-actions")

    # South takes the second offered layout and swaps two pieces by clicks
    south.click('#jq-actions [data-layout="1"]')
    before = own_layout(south, 0)
    flag = next(p for p, c in before.items() if c == "F")
    south.click(f'#jq-board [data-pt="{flag}"]')                  # the flag may only go to the other HQ
    targets = [c.get_attribute("data-pt") for c in south.locator("#jq-board .jq-pt.target").all()]
    assert targets == [{"b1": "d1", "d1": "b1"}[flag]]
    south.click('#jq-board [data-pt="a6"]')                       # the front row: refused on the board
    assert south.locator("#jq-note").inner_text().startswith("这两个棋子不能互换")
    assert own_layout(south, 0) == before
    south.click('#jq-board [data-pt="a6"]')
    partners = south.locator("#jq-board .jq-pt.target")
    assert partners.count() >= 1
    other = partners.first.get_attribute("data-pt")
    shot(south, "junqi-layout-swap")
    south.click(f'#jq-board [data-pt="{other}"]')
    after = own_layout(south, 0)
    assert after["a6"] == before[other] and after[other] == before["a6"]
    rest = lambda layout: {p: c for p, c in layout.items() if p not in ("a6", other)}  # noqa: E731
    assert rest(after) == rest(before)
    shot(north, "junqi-layout-phone")

    south.click('#jq-actions [data-action="submit"]')
    for page in both:
        wait_seq(page, 1)
    assert own_layout(south, 0) == after                       # the referee placed that layout
    assert north.locator('#jq-actions [data-action="submit"]').count() == 1    # North still drafting
    assert south.locator('#jq-actions [data-action="submit"]').count() == 0
    assert "等待" in south.inner_text("#jq-note")
    # North, still drafting, sees South's laid-out army face down on South's half
    assert north.locator('#jq-board .jq-pc[data-seat="0"].back').count() == 25
    assert north.locator('#jq-board .jq-pc[data-seat="0"]:not([data-piece="?"])').count() == 0
    shot(north, "junqi-layout-opponent-laid-phone")
    # a point's name says its piece once, in the page's language ("a1: South Brigadier", not
    # "... 旅长Brig")
    labels = north.eval_on_selector_all('#jq-board .jq-pt:has(.jq-pc.mine)',
                                        "ps => ps.map((p) => p.getAttribute('aria-label'))")
    assert labels and not any(re.search(r"[\u4e00-\u9fff]", x) for x in labels), labels[:3]
    north.click('#jq-actions [data-action="submit"]')            # North keeps the first offer
    for page in both:
        wait_seq(page, 2)
        page.wait_for_selector('#jq-board[data-phase="play"]')
    # hidden information: each sees its own 25 identities and the other side face down
    assert south.locator('#jq-board .jq-pc[data-seat="1"]').count() == 25
    assert south.locator('#jq-board .jq-pc[data-seat="1"]:not([data-piece="?"])').count() == 0
    assert north.locator('#jq-board .jq-pc[data-seat="0"]:not([data-piece="?"])').count() == 0
    assert north.locator('#jq-board .jq-pc[data-seat="1"][data-piece="?"]').count() == 0

    # South's first move attacks North's front piece up the a-file railway
    seq = 2
    south.click('#jq-board [data-pt="a6"]')
    assert cell(south, "a6").get_attribute("class").split().count("sel") == 1
    assert south.locator('#jq-board [data-pt="a7"].target').count() == 1
    shot(south, "junqi-selected")
    south.click('#jq-board [data-pt="a7"]')
    seq += 1
    for page in both:
        wait_seq(page, seq)
        assert page.locator('#jq-board [data-pt="a6"].last-from').count() == 1
        assert page.locator('#jq-board [data-pt="a7"].last-to.combat').count() == 1
        badge = page.locator('#jq-board [data-pt="a7"] .jq-badge')
        assert badge.get_attribute("data-outcome") in ("win", "lose", "both", "flag")
    outcome = south.locator('#jq-board [data-pt="a7"] .jq-badge').get_attribute("data-outcome")
    english = {"win": "attacker wins", "lose": "attacker loses", "both": "both removed", "flag": "flag taken"}
    chinese = {"win": "进攻方胜", "lose": "进攻方负", "both": "同归于尽", "flag": "夺得军旗"}
    assert north.inner_text("#jq-last") == f"Last move: South a6–a7 · {english[outcome]}"
    assert south.inner_text("#jq-last") == f"上一步：南 a6–a7 · {chinese[outcome]}"
    assert piece(south, "a6") is None                               # the attacker left a6
    if outcome == "win":
        assert piece(south, "a7") == after["a6"]
    elif outcome == "lose":
        assert piece(south, "a7") == "?"
    else:
        assert piece(south, "a7") is None
    shot(north, "junqi-combat-phone")

    # then two more moves each, whatever piece can move, by clicks on the board
    for ply in range(5):
        page = north if ply % 2 == 0 else south
        assert page.locator("#jq-board .jq-pt.can-move").count() >= 1
        mover = page.locator("#jq-board .jq-pt.can-move").first.get_attribute("data-pt")
        page.click(f'#jq-board [data-pt="{mover}"]')
        target = page.locator("#jq-board .jq-pt.target").first.get_attribute("data-pt")
        page.click(f'#jq-board [data-pt="{target}"]')
        seq += 1
        for p in both:
            wait_seq(p, seq)
            assert p.locator(f'#jq-board [data-pt="{target}"].last-to').count() == 1
        # only the seat to move is offered pieces, and a click out of turn selects nothing
        assert page.locator("#jq-board .jq-pt.can-move").count() == 0
        page.click(f'#jq-board [data-pt="{target}"]')
        assert page.locator("#jq-board .jq-pt.sel, #jq-board .jq-pt.target").count() == 0
    shot(south, "junqi-play")

    north.click("#resign")
    north.click('#ask [data-answer="yes"]')          # resigning asks first
    for page in both:
        page.wait_for_selector("#record-link")
        status = page.inner_text("#status")
        # words, not "1-0 (resign)"
        assert re.search(r"(You won|You lost|你赢了|你输了) — \S+ ?(resigned|认输)$", status), status
    # the game is over: every identity is shown to both
    assert north.locator('#jq-board .jq-pc[data-piece="?"]').count() == 0
    shot(south, "junqi-over")
    shot(north, "junqi-over-phone")

    record = south.get_attribute("#record-link", "href").rsplit("/", 1)[1]
    both_see_the_outcome(both, server, record, ("jqnorth", "jqsouth"))
    south.goto(f"{server}/records/{record}")
    south.wait_for_selector("#jq-board .jq-pc")
    south.click("#prev")            # back to the last move: both armies shown as their owners saw them
    assert south.locator('#jq-board .jq-pc[data-piece="?"]').count() == 0
    assert south.locator("#jq-board .jq-pt.last-to").count() == 1
    shot(south, "junqi-replay")
    ctx_s.close()
    ctx_n.close()


def siguo_at_phone_width(browser, server, name, seat, lang):
    """A new account ``name`` at a 四国军棋 table of its own in seat ``seat`` with three bots, on
    a phone-width page in ``lang``."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844},
                              locale="zh-CN" if lang == "zh" else "en-US")
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    sign_up(page, server, name)
    r = page.request.post(server + "/api/tables", data={
        "game": "junqi", "options": {"variant": "siguo"}, "num_seats": 4, "seat": seat, "bots": 3})
    assert r.ok, r.text()
    page.goto(f"{server}/tables/{r.json()['id']}")
    return ctx, page


def test_siguo_seat_east_at_phone_width_lays_out_and_moves(server, browser, shot):
    """四国军棋 at phone width: East (seat 1) with three bots sees its own area at the bottom,
    submits the third offered layout and makes one move by clicks."""
    ctx, page = siguo_at_phone_width(browser, server, "jqeast", 1, "zh")
    page.wait_for_selector('#jq-actions [data-action="submit"]')
    assert page.locator("#jq-board .jq-pt").count() == 129
    assert page.locator("#jq-board .jq-pt.camp").count() == 20
    assert page.locator("#jq-board .jq-pc.mine").count() == 25
    assert page.locator("#jq-board").bounding_box()["width"] <= 390

    def centre(point):
        b = page.locator(f'#jq-board [data-pt="{point}"]').bounding_box()
        return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    # East's back row is at the bottom, its front row above it; West's back row at the top;
    # North, who plays after East (counter-clockwise order), on its right, South on its left
    assert centre("E63")[1] > centre("E13")[1] > centre("C22")[1] > centre("W63")[1]
    assert centre("N63")[0] > centre("C22")[0] > centre("S63")[0]

    page.click('#jq-actions [data-layout="2"]')
    layout = own_layout(page, 1)
    page.click('#jq-actions [data-action="submit"]')
    page.wait_for_selector('#jq-board[data-phase="play"]')
    placed = own_layout(page, 1)          # South (a bot) moves first and may already have hit one
    assert len(placed) >= 24 and all(layout[p] == c for p, c in placed.items())
    assert page.locator('#jq-board .jq-pc:not([data-seat="1"]):not([data-piece="?"])').count() == 0
    page.wait_for_selector("#jq-board .jq-pt.can-move", timeout=30_000)     # South (a bot) moved first
    mover = page.locator("#jq-board .jq-pt.can-move").first.get_attribute("data-pt")
    seq = int(page.get_attribute("#jq-board", "data-seq"))
    page.click(f'#jq-board [data-pt="{mover}"]')
    assert page.locator("#jq-board .jq-pt.target").count() >= 1
    shot(page, "junqi-siguo-selected-phone")
    target = page.locator("#jq-board .jq-pt.target").first.get_attribute("data-pt")
    page.click(f'#jq-board [data-pt="{target}"]')
    # the move was taken: the table's seq moved on (the three bots may have moved too and the
    # turn be East's again before the page is looked at, so no state without a movable piece is
    # waited for)
    page.wait_for_function(f"""+document.querySelector('#jq-board').dataset.seq > {seq}
        && !document.querySelector('#jq-board [data-pt="{mover}"] .jq-pc[data-seat="1"]')""")
    shot(page, "junqi-siguo-phone")
    ctx.close()


def test_siguo_in_english_shows_the_pieces_faces_and_its_key(server, browser, shot):
    """四国军棋 on an English page showed its pieces as codes (32–40, B, M, F) with the key folded
    away, while the two-player board showed 司令: each piece now shows its one-character face,
    and the key (face, name, English name) is open."""
    ctx, page = siguo_at_phone_width(browser, server, "jqsouthen", 0, "en")
    page.wait_for_selector("#jq-board .jq-pc.mine")
    faces = page.eval_on_selector_all("#jq-board .jq-pc.mine", "ps => ps.map((p) => p.textContent)")
    assert len(faces) == 25 and all(len(f) == 1 and "\u4e00" <= f <= "\u9fff" for f in faces), faces
    assert page.evaluate("document.querySelector('.jq-legend').open") is True
    assert page.inner_text('.jq-legend [data-leg="32"]').startswith("工 工兵 Engineer")
    shot(page, "junqi-siguo-en-phone")
    ctx.close()
