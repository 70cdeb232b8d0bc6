"""The cards laid on a climbing game's table are shown by the table's labels of their ranks
(qipai.cards.table_ids: the k-th card of a rank laid in the deal shows the k-th suit of ♠ ♥ ♦ ♣),
and still look like normal cards, at 1280 and 390 px, in English and Chinese (doudizhu, baohuang)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from .conftest import set_width
from .test_e2e_card_games import DESKTOP, PHONE, account, live, open_table  # noqa: F401
from .timing import until

SEQ = "document.querySelector('#status').dataset.seq"
#: the cards laid on the table now, and the history's plays, as [card id, text shown]
LAID = """() => [...document.querySelectorAll('.ct .lastplay [data-card], #movelist .ct-round [data-card]')]
    .map((e) => [e.dataset.card, e.textContent.trim()])"""
SUIT_ORDER = "SHDC"


def step(page, prefer: list[str]) -> None:
    """Answer once when it is the person's turn (a hint played, a pass, a preferred button)."""
    seq = page.evaluate(SEQ)
    if page.locator('#actions [data-action="play"]').count() and live(page, '[data-action="hint"]'):
        page.click('#actions [data-action="hint"]')
        page.click('#actions [data-action="play"]')
    else:
        for sel in prefer + ['[data-action="pass"]', '[data-action^="decline"]', "button.opt"]:
            if b := live(page, sel):
                b.first.click()
                break
        else:
            return
    page.wait_for_function(f"{SEQ} !== '{seq}' || !!document.querySelector('#ct-result')", timeout=30_000)


@pytest.mark.parametrize("game,bots,prefer", [
    ("doudizhu", 2, ['[data-action="bid 3"]', '[data-action^="bid"]', '[data-action="call"]']),
    ("baohuang", 4, ['[data-action="accept"]', '[data-action^="declare"]']),
])
def test_laid_cards_show_the_table_labels_as_normal_cards(server, browser, account, shot, game, bots, prefer):  # noqa: F811
    ctx = browser.new_context(viewport=DESKTOP, storage_state=account)
    ctx.add_init_script("localStorage.setItem('lang', 'en')")
    page = ctx.new_page()
    page.goto(server + "/")
    tid = open_table(page, server, game, bots)
    for _ in until(120):                        # until the history holds three rounds of plays
        if page.locator("#ct-result").count() or page.locator(
                "#movelist .ct-round:not(.ct-bids)").count() >= 3:
            break
        if page.locator(".ct > .pl.me.act").count() and page.locator("#actions button:enabled").count():
            step(page, prefer)
        else:
            page.wait_for_timeout(40)
    laid = page.evaluate(LAID)
    assert len(laid) >= 3, laid
    # the history's cards of each rank show the first suits of S H D C, as many as were laid
    history = page.evaluate("""() => [...document.querySelectorAll('#movelist .ct-round [data-card]')]
        .map((e) => e.dataset.card)""")
    per: dict[str, Counter] = {}
    for card in history:
        if card[1] in SUIT_ORDER:
            per.setdefault(card[0], Counter())[card[1]] += 1
    for rank, got in per.items():
        n = sum(got.values())
        assert got == Counter(SUIT_ORDER[k % 4] for k in range(n)), (rank, got)
    for card, text in laid:                      # a normal card: its rank and suit (or joker) shown
        assert re.fullmatch(r"[2-9TJQKA][SHDC]\d|[LB]J\d", card), card
        assert text, card
    ctx.close()
    for lang in ("en", "zh"):
        ctx = browser.new_context(viewport=DESKTOP, storage_state=account)
        ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        page = ctx.new_page()
        page.goto(f"{server}/tables/{tid}")
        page.wait_for_selector("#movelist .ct-round [data-card]")
        for name, vp in (("1280", DESKTOP), ("390", PHONE)):
            set_width(page, vp["width"], vp["height"])
            assert page.evaluate("document.documentElement.scrollWidth") <= vp["width"], (lang, name)
            shot(page, f"table-labels-{game}-{lang}-{name}")
        ctx.close()
