"""Wakeng's list of rounds starts with the bidding, as doudizhu's does: a bid shown on the table
("Bid 1" in its seat's place) stood above a list that said "No moves yet"; the list's first row is
now the bidding in the page's words (叫分 / Bidding, 不叫 / No bid, 叫 1 / Bid 1), by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .test_e2e_play import sign_up

CATALOGUES = Path(__file__).resolve().parents[2] / "qipai" / "i18n"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_bidding_is_the_first_row_of_the_list(server, browser, shot, lang):
    words = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    sign_up(page, server, f"wkbids{lang}", lobby=False)
    r = page.request.post(server + "/api/tables", data={"game": "wakeng", "bots": 2,
                                                         "settings": {"bot_delay_ms": 20, "clock": "none"}})
    assert r.status == 201, r.text()
    page.goto(f"{server}/tables/{r.json()['id']}")
    # the person's turn to bid, or a bot's bid: either way a bid is made (the person passes)
    page.wait_for_selector("#actions [data-action=pass]:not([disabled]), .ct-bids", timeout=30_000)
    if not page.locator(".ct-bids").count():
        page.click("#actions [data-action=pass]")
    row = page.wait_for_selector(".ct-bids", timeout=30_000).inner_text()
    assert row.startswith(words["wk.bids"]), row
    bids = {words["wk.nobid"], *(words["wk.bid"].replace("{n}", str(n)) for n in (1, 2, 3))}
    assert any(b in row for b in bids), row
    assert "pass" not in row and "bid " not in row, row          # no action codes
    shot(page, f"wakeng-bids-{lang}-390")
    ctx.close()
