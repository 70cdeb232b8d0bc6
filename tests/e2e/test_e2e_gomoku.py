"""Renju in real browsers against a real server: the lobby's rule options, moves by clicks on the
board, the swap and two-offer buttons, a forbidden point marked and refused (``reject``) or
confirmed by a second click and lost (``loss``), a five, the replay."""

from __future__ import annotations

import re

from .test_e2e_play import create_table, join, sign_up, wait_seq
from .timing import RECORD_MS

PHONE = {"width": 390, "height": 844}


def create_from_lobby(page, options: dict[str, str]) -> str:
    """Create a gomoku table through the lobby form with the given rule options; its id."""
    page.select_option("select[name=game]", "gomoku")
    page.click("details summary")
    for name, value in options.items():
        page.select_option(f'select[data-opt="{name}"]', f'"{value}"')
    return create_table(page)


def click_point(page, point, seq, *others):
    """Click ``point`` and wait until every page shows the state after it (``seq``)."""
    page.click(f'[data-pt="{point}"]')
    for p in (page, *others):
        wait_seq(p, seq)


def stone(page, point):
    return page.locator(f'[data-pt="{point}"] .st')


def test_two_people_play_renju_with_a_swap_to_a_five(server, browser, shot):
    ctx_a, ctx_b = browser.new_context(), browser.new_context(viewport=PHONE)
    alice, bob = ctx_a.new_page(), ctx_b.new_page()
    sign_up(alice, server, "alicerenju")
    sign_up(bob, server, "bobrenju")
    table = create_from_lobby(alice, {"ruleset": "renju", "opening": "swap3",
                                      "forbidden_handling": "reject"})
    join(bob, server, table)
    wait_seq(alice, 0)
    wait_seq(bob, 0)
    info = alice.inner_text("#gm-info")
    assert ("Renju" in info and "swap" in info) or ("连珠" in info and "三手可交换" in info)

    # the opening limits: Black's first stone on h8, White's in the central 3x3
    assert alice.locator(".pt.area").count() == 1 and alice.locator('[data-pt="h8"].area').count() == 1
    click_point(alice, "h8", 1, bob)
    assert bob.locator(".pt.area").count() == 8
    bob.click('[data-pt="a1"]')                  # outside the 3x3: the referee refuses it
    bob.wait_for_selector("#error:has-text('3x3')")
    assert bob.get_attribute("#status", "data-seq") == "1" and stone(bob, "a1").count() == 0
    click_point(bob, "g9", 2, alice)
    click_point(alice, "i8", 3, bob)

    # move 4: White (bob) may swap; Alice gets no such button
    bob.wait_for_selector('#gm-actions [data-action="swap"]')
    assert alice.locator('#gm-actions [data-action="swap"]').count() == 0
    shot(bob, "gomoku-swap-offered")
    bob.click('#gm-actions [data-action="swap"]')
    for p in (alice, bob):
        wait_seq(p, 4)
        assert p.locator('.gm-seat[data-seat="1"][data-colour="black"]').count() == 1
        assert p.locator('.gm-seat[data-seat="0"][data-colour="white"]').count() == 1
    assert "Your turn" in alice.inner_text("#status") or "轮到你" in alice.inner_text("#status")

    seq = 4
    for page, point in ((alice, "a1"), (bob, "j9"), (alice, "o1"), (bob, "j10"), (alice, "a15")):
        seq += 1
        click_point(page, point, seq, alice if page is bob else bob)
        assert bob.locator(".pt.last").count() == 1 and bob.locator(f'[data-pt="{point}"].last').count() == 1

    # j8 is a double three for Black (bob): marked once he asks for forbidden points, refused
    assert bob.locator(".pt.forbidden").count() == 0
    bob.click('[data-action="toggle-forbidden"]')
    bob.wait_for_selector('[data-pt="j8"].forbidden[data-kind="double_three"]')
    assert bob.locator(".pt.forbidden").count() == 1
    shot(bob, "gomoku-forbidden-marked")
    bob.click('[data-pt="j8"]')
    bob.wait_for_selector("#error:has-text('forbidden point')")
    assert bob.get_attribute("#status", "data-seq") == str(seq) and stone(bob, "j8").count() == 0
    assert stone(alice, "j8").count() == 0
    shot(bob, "gomoku-forbidden-refused")

    for page, point in ((bob, "j11"), (alice, "o15"), (bob, "j12"), (alice, "b1"), (bob, "j13")):
        seq += 1
        click_point(page, point, seq, alice if page is bob else bob)
    for page in (alice, bob):
        page.wait_for_selector("#record-link", timeout=RECORD_MS)
        assert re.search(r"(You won|You lost|你赢了|你输了) — (five|连五)", page.inner_text("#status"))
        assert "Black wins (five)" in page.inner_text("#gm-info")
        assert page.locator(".pt.win").count() == 5
        assert page.locator(".pt.win .st.b").count() == 5
    # the seats' rating badges show the ratings after the game, as the result line does
    alice.wait_for_selector("#rating-change:has-text('bobrenju')")
    after = re.search(r"bobrenju\S* \S+ 1500 → (\d+)", alice.inner_text("#rating-change")).group(1)
    alice.wait_for_function("(n) => document.querySelector('[data-rating-of=\"bobrenju\"]')"
                            ".textContent.startsWith(n)", arg=after)
    # the move list: a row a move number, Black's stone then White's; the swap a row of its own
    rows = alice.eval_on_selector_all("#ml-list > li",
                                      "ls => ls.map((l) => l.innerText.split(/\\s+/).join(' '))")
    assert rows[:4] == ["1. h8 g9", "2. i8", "Swap", "2. a1"], rows
    widest = "ps => Math.max(...ps.map((p) => p.children.length))"
    assert alice.eval_on_selector_all("#ml-list .ml-pair", widest) == 2
    assert alice.get_attribute('#ml-list [data-ply="14"]', "style") == "grid-column: 1;"   # j13, Black's
    # the row numbers stand clear of column a's stones (a1, a15 are on the board) and of the
    # 3 px ring a last or winning stone wears: a clear gap, not a touch
    gap = alice.evaluate("""() => {
        const num = [...document.querySelectorAll('.gm-board .coord text')]
            .find((x) => x.textContent === '15');
        const st = document.querySelector('[data-pt="a15"] .st');
        return st.getBoundingClientRect().left - num.getBoundingClientRect().right; }""")
    assert gap >= 5, gap
    shot(alice, "gomoku-five")
    shot(bob, "gomoku-five-phone")

    record = alice.get_attribute("#record-link", "href").rsplit("/", 1)[1]
    alice.goto(f"{server}/records/{record}")
    alice.wait_for_selector(".gm-board .st")
    assert alice.locator(".gm-board .st").count() == 13
    alice.click("#prev")
    assert stone(alice, "j13").count() == 0 and alice.locator('[data-pt="b1"].last').count() == 1
    shot(alice, "gomoku-replay")
    ctx_a.close()
    ctx_b.close()


def test_two_offers_and_a_losing_forbidden_stone_at_phone_width(server, browser, shot):
    ctx_a = browser.new_context(viewport=PHONE)
    ctx_b = browser.new_context(viewport=PHONE, locale="zh-CN")      # Chinese labels
    carol, dave = ctx_a.new_page(), ctx_b.new_page()
    sign_up(carol, server, "carolrenju")
    sign_up(dave, server, "daverenju")
    table = create_from_lobby(carol, {"opening": "two5"})
    join(dave, server, table)
    wait_seq(carol, 0)
    seq = 0
    for page, point in ((carol, "h8"), (dave, "h9"), (carol, "j10"), (dave, "i10")):
        seq += 1
        click_point(page, point, seq, dave if page is carol else carol)

    # Black picks two points, then offers them with the button
    carol.wait_for_selector('#gm-actions [data-action="offer"]:disabled')
    carol.click('[data-pt="k11"]')
    carol.click('[data-pt="g7"]')
    assert carol.locator(".pt.picked").count() == 2
    shot(carol, "gomoku-two-offers-picked")
    carol.click('#gm-actions [data-action="offer"]:enabled')
    wait_seq(carol, 5)
    wait_seq(dave, 5)
    assert [p.locator(".pt.offered").count() for p in (carol, dave)] == [2, 2]
    assert carol.locator("#gm-actions button").count() == 0
    # White chooses one of the two with its button
    dave.wait_for_selector('#gm-actions [data-action="choose:g7"]')
    assert dave.locator('#gm-actions [data-action="choose:k11"]').count() == 1
    assert dave.inner_text('#gm-actions [data-action="choose:k11"]') == "选 k11"
    shot(dave, "gomoku-two-offers-choose")
    dave.click('#gm-actions [data-action="choose:k11"]')
    wait_seq(carol, 6)
    wait_seq(dave, 6)
    for p in (carol, dave):
        assert p.locator(".pt.offered").count() == 0 and p.locator('[data-pt="g7"] .st').count() == 0
        assert p.locator('[data-pt="k11"] .st.b').count() == 1
    assert "Your turn" in dave.inner_text("#status") or "轮到你" in dave.inner_text("#status")
    # a forbidden stone loses under the default handling: the board asks for a second click
    for seq, (page, point) in enumerate(((dave, "a1"), (carol, "n14"), (dave, "a15")), start=7):
        click_point(page, point, seq, carol if page is dave else dave)
    carol.click('[data-action="toggle-forbidden"]')
    carol.wait_for_selector('[data-pt="l12"].forbidden[data-kind="double_four"]')
    carol.click('[data-pt="l12"]')
    carol.wait_for_selector('[data-pt="l12"].warn')
    assert "Click again" in carol.inner_text("#gm-hint")
    assert carol.get_attribute("#status", "data-seq") == "9" and stone(carol, "l12").count() == 0
    shot(carol, "gomoku-forbidden-warning")
    click_point(carol, "l12", 10, dave)
    for p in (carol, dave):
        p.wait_for_selector("#record-link", timeout=RECORD_MS)
        assert re.search(r"(You won|You lost|你赢了|你输了) — (double four|四四)", p.inner_text("#status"))
        assert p.locator('[data-pt="l12"].foul .st.b').count() == 1
    assert "白方胜（四四）" in dave.inner_text("#gm-info")
    shot(dave, "gomoku-forbidden-loss")
    ctx_a.close()
    ctx_b.close()
