"""Rule sets and games that are not for competition say so in the browser (issue 15): the
experimental 山东保皇 (baohuang ``ruleset=sdbh.provisional``) in the lobby's option list, the
lobby's table list and above the table, and a whole deal of it by clicks against the rule bots.
Screenshots at 1280 and 390 px in both languages go to tests/e2e/artifacts/."""

from __future__ import annotations

import re

from playwright.sync_api import Error as PlaywrightError

from .test_e2e_card_games import DESKTOP, PHONE, account, fits_both_widths, play_whole_game  # noqa: F401
from .test_e2e_play import post_table, sign_up  # noqa: F401
from .timing import until

SD = "sdbh.provisional"


def test_shandong_baohuang_is_marked_experimental_and_plays(server, browser, account, shot):  # noqa: F811
    for lang, size in (("en", DESKTOP), ("zh", PHONE)):
        ctx = browser.new_context(viewport=size, storage_state=account)
        ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        page = ctx.new_page()
        page.goto(server + "/")
        page.wait_for_selector("#create")
        # the custom-table form: the rule set's value says it is experimental, and choosing it
        # leaves 4 seats to choose from
        page.select_option('select[name="game"]', "baohuang")
        option = page.locator(f'select[data-opt="ruleset"] option[value=\'"{SD}"\']')
        assert re.search(r"experimental|试验", option.text_content()), option.text_content()
        page.click("details > summary")                 # the options are folded away
        page.select_option('select[data-opt="ruleset"]', f'"{SD}"')
        assert page.input_value('select[name="num_seats"]') == "4"
        tid = post_table(page, {"game": "baohuang", "options": {"ruleset": SD}, "bots": 3, "bot": "rule",
                                "settings": {"bot_delay_ms": 20, "clock": "none"}})
        page.goto(server + "/")
        row = page.locator(f'tr[data-table="{tid}"]')
        row.wait_for()
        assert row.locator('[data-marking="experimental"]').count() == 1
        shot(page, f"marked-lobby-{lang}-{size['width']}")
        page.goto(f"{server}/tables/{tid}")
        page.wait_for_selector("#hand .c")
        note = page.inner_text("#marking")
        assert re.search(r"[Ee]xperimental" if lang == "en" else r"试验", note), note
        assert page.locator(".ct .felt > .pl").count() == 3
        shot(page, f"marked-sdbh-{lang}-{size['width']}-deal")
        seen = play_whole_game(page, "baohuang", 4, lang, [])
        assert seen["play"] >= 1, seen
        assert page.locator("#ct-result .scores span").count() == 4
        fits_both_widths(page, shot, f"marked-sdbh-{lang}-{{}}-end")
        ctx.close()


BJ_SEQ = "document.querySelector('.mj').dataset.seq"
#: what the player of a 百变八雀 hand may click, or the hand's end
ACTIONABLE = "#record-link, #actions button.claim, #actions button[data-action=win], #hand .mj-t.can"


def test_baibian_bajue_is_marked_proposal_and_a_hand_plays_by_clicks(server, browser, account, shot):  # noqa: F811
    for lang, size in (("zh", DESKTOP), ("en", PHONE)):
        ctx = browser.new_context(viewport=size, storage_state=account)
        ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        page = ctx.new_page()
        page.goto(server + "/")
        chip = page.locator('.game-chips [data-pick="baibian-bajue"]')
        if size == PHONE:            # the phone's game picker: its chip carries the badge too
            chip.wait_for()
            assert chip.locator('[data-marking="proposal"]').count() == 1
            # the word once, apart from the name ("百变八雀提案" ran together; "(proposal)
            # proposal" said it twice)
            words = chip.text_content().strip()
            assert re.search(r"\S (proposal|提案)$", words), words
            assert len(re.findall("proposal|提案", words)) == 1, words
            chip.click()
        card = page.locator('.game-card[data-game="baibian-bajue"]')
        card.wait_for()
        badge = card.locator('[data-marking="proposal"]')
        assert badge.count() == 1 and re.search(r"proposal|提案", badge.inner_text()), badge.inner_text()
        shot(page, f"marked-bajue-lobby-{lang}-{size['width']}")
        tid = post_table(page, {"game": "baibian-bajue", "bots": 3, "bot": "rule",
                                "settings": {"bot_delay_ms": 20, "clock": "none"}})
        page.goto(f"{server}/tables/{tid}")
        page.wait_for_selector("#hand .mj-t")
        note = page.inner_text("#marking")
        assert re.search(r"[Pp]roposal" if lang == "en" else r"提案", note), note
        assert page.locator(".mj-others [data-seatbox]").count() == 3
        shot(page, f"marked-bajue-{lang}-{size['width']}-deal")
        # each click is looked at again if the page moved on before it landed (a click waits for
        # its element at most 5 s, not Playwright's 30 s that used up the test's time): a hand
        # that never ends still fails at the wait for the record below
        for _ in until(150):
            if page.locator("#record-link").count():
                break
            seq = page.get_attribute(".mj", "data-seq")
            win = page.locator('#actions button[data-action="win"]')
            claim = page.locator("#actions button.claim")
            can = page.locator("#hand .mj-t.can")
            try:
                if win.count():
                    win.click(timeout=5_000)
                elif claim.count():
                    page.click('#actions button[data-action="pass"]', timeout=5_000)
                elif can.count():
                    tile = page.locator("#hand .mj-t.drawn.can")
                    tile = tile if tile.count() else can.last
                    tile.click(timeout=5_000)                          # raise it ...
                    page.locator("#hand .mj-t.picked").click(timeout=5_000)   # ... and discard it
                else:
                    page.wait_for_function(f"{BJ_SEQ} !== '{seq}' || document.querySelector({ACTIONABLE!r})",
                                           timeout=15_000)
                    continue
            except PlaywrightError:
                continue
            page.wait_for_function(f"!document.querySelector('.mj') || {BJ_SEQ} !== '{seq}'"
                                   " || document.querySelector('#record-link')", timeout=60_000)
        page.wait_for_selector("#record-link", timeout=60_000)
        assert page.locator(".mj-result").count() == 1
        text = page.inner_text(".mj")
        if lang == "zh":
            assert not re.search(r"undefined|Round|fan\b", text), text
        fits_both_widths(page, shot, f"marked-bajue-{lang}-{{}}-end")
        ctx.close()
