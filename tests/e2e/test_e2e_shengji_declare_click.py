"""A person at a lobby shengji table with three bots declares trump by a click during the deal,
and the table shows it: the Declared row names the person ("You" / "你") with the cards the
button named, and the list beside the table starts with the declarations.

A lobby table deals from its commit-reveal seed (competition.md §6.1: the server's secret and
the seats' nonces), which no test can choose: a deal that gives the person no declaration to
make before the bots have declared (about one in three with the random bots) is resigned and
another table dealt. The pace of the deal is no matter here: with one person and bots that
answer at once, a declaration prompt (``deal_prompt="when_able"``: only a seat that can
declare is asked) waits for the person's answer (no deal hold, no clock: ``clock="none"``), so
a slow machine cannot miss it. Screenshots at 1280 and 390 px in both languages
(/tmp/shots-ui13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import set_width
from .test_e2e_play import sign_up

SHOTS = Path("/tmp/shots-ui13")
CATALOGUES = Path(__file__).resolve().parents[2] / "qipai" / "i18n"
BIDDING = ("deal", "window", "bao", "fan")

#: the person's declare buttons once asked, or the phase once the declarations are over
ASKED = """() => {
  const ct = document.querySelector('.ct');
  if (!ct || !ct.dataset.phase) return null;
  const declare = document.querySelectorAll('#actions button[data-action^="declare"]:enabled').length;
  if (declare && document.querySelector('.ct .pl.me.act')) return 'asked';
  return ['deal', 'window', 'bao', 'fan'].includes(ct.dataset.phase) ? null : 'over';
}"""


def _table(page, server) -> str:
    """A shengji table: the person in seat 0, three random bots (they declare less at once
    than the rule bot), no clock."""
    tid = page.evaluate("""async () => {
        const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({game: 'shengji', seat: 0, bots: 3, bot: 'random',
                                  settings: {bot_delay_ms: 20, clock: 'none'}})});
        return (await r.json()).id; }""")
    page.goto(f"{server}/tables/{tid}")
    page.wait_for_selector("#hand .c", timeout=30_000)
    return tid


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_person_declares_trump_by_a_click_during_the_deal(server, browser, lang):
    SHOTS.mkdir(exist_ok=True)
    words = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    sign_up(page, server, f"sjclick{lang}")
    asked = None
    for _ in range(8):            # an account holds at most 10 open or playing tables
        _table(page, server)
        asked = page.wait_for_function(ASKED, timeout=30_000).json_value()
        if asked == "asked":
            break
        page.click("#resign")     # no declaration to make: this table is given up, another dealt
        page.click('#ask [data-answer="yes"]')
        page.wait_for_selector("#record-link", timeout=30_000)
    assert asked == "asked", "no deal of eight gave the person a declaration to make"
    # asked while the cards are still coming: the deal phase, fewer than the 25 cards in hand
    assert page.get_attribute(".ct", "data-phase") == "deal"
    held = page.locator("#hand .c").count()
    assert 0 < held < 25, held
    button = page.locator('#actions button[data-action^="declare"]:enabled').last
    action = button.get_attribute("data-action")
    label = button.inner_text().strip()
    cards = action.split()[1:]
    page.screenshot(path=str(SHOTS / f"shengji-declare-asked-{lang}-1280.png"), full_page=True)
    button.click()
    # the declaration on the table: its row names the person with the cards the button named
    # ("You ♠2" / "你 ♠2"; a seat's later declarations after an arrow, seats apart by "; ")
    you = words["ct.you"]
    want = page.evaluate("""async ([cards, lang]) => (await import('/static/boards/shengji.js'))
        .groupedFaces(cards, lang)""", [cards, lang])
    assert label == words["sj.declare"].replace("{cards}", want), (label, want)
    page.wait_for_function("""([you, want]) => {
        const v = document.querySelector('[data-info="declared"]')?.dataset.value || '';
        return v.split(/; |；/).some((p) => p.startsWith(you + ' ') && p.endsWith(want)); }""",
                           arg=[you, want], timeout=30_000)
    # the list's first row: the declarations, with the person's cards among them
    first = page.locator(".ct-history .ct-round").first
    assert first.locator(".n").inner_text() == words["sj.declared"]
    assert first.locator(".c").count() >= len(cards)
    # the page sent it during the deal: the person's own declaration is in the table's view
    assert page.locator("#error").inner_text() == ""
    for width, height in ((1280, 900), (390, 844)):
        set_width(page, width, height)
        page.screenshot(path=str(SHOTS / f"shengji-declared-{lang}-{width}.png"), full_page=True)
    ctx.close()
