"""One person plays a hand of laizi mahjong against three bots in Debian's Chromium, by clicks,
at phone width, on the mahjong table: the indicator and the laizi beside the wall, the laizi
marked in the hand, discards by clicking tiles, peel and laizi kongs and claims by their buttons,
the pattern, doublings and points at the end (matching the payments), then the replay with
every hand shown; the end at both widths in both languages."""

from __future__ import annotations

import re

from .test_e2e_mahjong_gb import end_in_both_languages, wait_change
from .test_e2e_play import sign_up
from .timing import until


def test_one_person_plays_a_laizi_mahjong_hand_against_three_bots(server, browser, shot):
    ctx = browser.new_context(viewport={"width": 390, "height": 844})   # phone width
    page = ctx.new_page()
    sign_up(page, server, "laiziplayer")
    page.select_option("select[name=game]", "laizi-mahjong")
    page.select_option("select[name=bots]", "3")
    page.click("details summary")
    assert page.input_value("select[data-opt=hands_per_match]") == "1"    # a lobby table: one hand
    page.click("#create")
    page.wait_for_url(re.compile(r"/tables/\w+$"))
    page.wait_for_selector("#hand .mj-t")
    assert page.locator("#hand .mj-t").count() == 14
    # the indicator and the laizi are shown beside the wall, the laizi in the hand marked wild
    ind = page.get_attribute('[data-info="indicator"] .mj-t', "data-tile")
    laizi = page.get_attribute('[data-info="laizi"] .mj-t', "data-tile")
    assert ind and laizi and ind != laizi
    for t in page.locator("#hand .mj-t").all():
        assert ("wild" in t.get_attribute("class")) == (t.get_attribute("data-tile") == laizi)
    shot(page, "laizi-mahjong-deal")

    discards = kongs = 0
    for _ in until(150):
        if page.locator("#record-link").count():
            break
        seq = page.get_attribute(".mj", "data-seq")
        assert page.locator(".mj-others .mj-open").count() == 0     # nobody's tiles shown to others
        win = page.locator('#actions button[data-action="win"]')
        peel = page.locator('#actions button[data-action^="peel "]')
        claim = page.locator("#actions button.claim")
        can = page.locator("#hand .mj-t.can")
        if win.count():
            win.click()
        elif peel.count():
            peel.first.click()                          # a peel kong: ×2, a replacement tile
            kongs += 1
        elif claim.count():
            page.click('#actions button[data-action="pass"]')
        elif can.count():
            # a laizi or peel tile is never offered as a discard while the wall has tiles
            # (once the wall is empty, any tile may be discarded: rule §2.3)
            wall = int(re.findall(r"\d+", page.inner_text('[data-info="wall"]'))[-1])
            if wall:
                assert all(t.get_attribute("data-tile") not in (ind, laizi) for t in can.all())
            tile = page.locator("#hand .mj-t.drawn.can")
            tile = tile if tile.count() else can.last
            tile.click()
            if discards % 2:
                page.click('#actions button[data-action="discard"]')
            else:
                page.locator("#hand .mj-t.picked").click()
            discards += 1
        elif page.locator('#actions button[data-action^="laizi "]').count():
            page.click('#actions button[data-action^="laizi "]')   # nothing else to play
        else:
            page.wait_for_timeout(60)
            continue
        wait_change(page, seq)
        if kongs == 1:
            page.wait_for_selector('[data-seatbox="0"] [data-kongs="peel"]', timeout=30_000)
            shot(page, "laizi-mahjong-peel-kong")
            kongs += 1
    page.wait_for_selector("#record-link", timeout=60_000)
    result = page.locator(".mj-result")
    assert result.count() == 1 and result.get_attribute("open") is not None
    assert page.locator(".mj-revealed > div").count() == 4
    if page.locator("#points").count():                 # a win: the points and what makes them
        total = int(page.get_attribute("#points tr.total", "data-total"))
        cells = page.locator("#points tr[data-doubling] td.num").all_inner_texts()
        factors = [int(x.replace("×", "")) for x in cells]
        base = int(page.locator("#points tr[data-pattern] td.num").inner_text().split()[0])
        product = base
        for f in factors:
            product *= f
        assert product == total
    else:
        assert "Drawn" in result.inner_text()
    shot(page, "laizi-mahjong-end")

    def indicator_named(page, lang):
        words = ("皮子", "赖子") if lang == "zh" else ("Indicator", "Laizi")
        assert all(w in page.inner_text(".mj-info") for w in words)

    end_in_both_languages(page, shot, "laizi-mahjong", indicator_named)

    record = page.get_attribute("#record-link", "href").rsplit("/", 1)[1]
    page.goto(f"{server}/records/{record}")
    page.wait_for_selector(".mj")
    page.click("#prev")
    assert page.locator(".mj .mj-open").count() == 4                # the replay shows every hand
    assert "laiziplayer" in page.inner_text('[data-seatbox="0"]')
    shot(page, "laizi-mahjong-replay")
    ctx.close()
