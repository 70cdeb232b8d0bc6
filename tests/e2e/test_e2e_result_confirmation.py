"""Confirming and correcting results in a real browser (competition.md §5.7): a player confirms
their game's result on the event page, the result shows confirmed once both players have; a
referee corrects a result with a written reason in the console, and the event page shows the
correction (who, from what to what, why). Each page is read at 390 px in both languages (nothing
wider than the screen; the pages were looked at in screenshots at both widths when they were made:
the tests take none that nobody opens)."""

from __future__ import annotations

import os
import re

import httpx
import pytest

from .conftest import running_server, set_width
from .pages import WIDTHS, assert_fits_phone, set_lang
from .test_e2e_a11y import check
from .test_e2e_event_form import SETTINGS, signed_in_organizer
from .test_e2e_play import sign_up

SHOTS = os.environ.get("QIPAI_SHOTS")    # a folder for screenshots to look at, when asked for

FETCH = """async (a) => { const r = await fetch(a.path, { method: a.method, credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' }, body: a.body ? JSON.stringify(a.body) : undefined });
    return [r.status, await r.json()]; }"""


def call(page, method, path, body=None):
    return page.evaluate(FETCH, {"method": method, "path": path, "body": body})


@pytest.fixture(scope="module")
def organizer(browser, tmp_path_factory):
    """``(base, storage)``: a server the next two tests share (their events and players apart),
    and the signed-in state of its first account ``boss``, an organizer (who may referee). One
    server for both: a server's start took 17-25 s on a loaded machine."""
    with signed_in_organizer(browser, tmp_path_factory.mktemp("qipai-results")) as shared:
        yield shared


def test_a_player_confirms_and_a_referee_corrects_a_result(browser, organizer):
    base, state = organizer
    boss_ctx, alice_ctx = browser.new_context(storage_state=state), browser.new_context()
    boss, alice = boss_ctx.new_page(), alice_ctx.new_page()
    sign_up(alice, base, "alice", lobby=False)
    pages = {"alice": alice}
    for name in ("bob", "carol", "dave"):
        pages[name] = browser.new_context().new_page()
        sign_up(pages[name], base, name)
    set_lang(alice, base, "en")
    set_lang(boss, base, "en")
    boss.goto(base + "/events")
    status, _ = call(boss, "POST", "/api/events", {"preset": "s3_xiangqi", "event_id": "club",
                                                  "name": "Club night", "players": list(pages)})
    assert status == 201
    ev = httpx.get(base + "/api/events/club").json()
    games = {tuple(sorted(g["seats"])): g["id"] for m in ev["rounds"][0]["matches"] for g in m["games"]}
    ours = next(gid for seats, gid in games.items() if "alice" in seats)
    opponent = next(s for s in next(k for k in games if "alice" in k) if s != "alice")
    other = next(gid for gid in games.values() if gid != ours)
    # the games were played on paper: the referee enters both results
    for gid in games.values():
        status, out = call(boss, "POST", "/api/events/club/acts",
                           {"act": "enter_result", "game": gid, "result": "1-0", "reason": "score sheet"})
        assert status == 200, out
    # alice confirms hers on the event page; the others' games offer her no button
    alice.goto(base + "/events/club")
    alice.wait_for_selector(f'[data-confirm="{ours}"]')
    assert alice.locator(f'[data-game="{other}"] [data-confirm]').count() == 0
    assert alice.inner_text(f'[data-game="{other}"] [data-provisional]') == "not confirmed yet"
    # a result from paper says the referee entered it, not its reason ("unknown")
    winner = next(g["seats"][0] for m in ev["rounds"][0]["matches"] for g in m["games"] if g["id"] == other)
    assert alice.inner_text(f'[data-game="{other}"] .result-words') == \
        f"{winner} won (result entered by the referee)"
    # at a phone's width the line wraps: no "·" begins or ends a line of it (Replay and the
    # button are a group apart, set off by space); the event's facts line joins only its parts
    alice.set_viewport_size({"width": 390, "height": 844})
    line = alice.inner_text(f'[data-game="{ours}"]')
    assert "·" not in line, line
    assert alice.locator(f'[data-game="{ours}"] .game-acts [data-confirm]').count() == 1
    facts = alice.inner_text("#event-facts")
    assert not re.search(r"^\s*·|·\s*$|·\s*·", facts), facts
    if SHOTS:
        alice.screenshot(path=f"{SHOTS}/event-game-line-en-390.png", full_page=True)
    alice.set_viewport_size({"width": 1280, "height": 900})
    alice.click(f'[data-confirm="{ours}"]')
    # asked first (it cannot be taken back), saying the result: No keeps it unconfirmed
    asked = alice.inner_text("#ask-text")
    assert "won" in asked and "cannot be taken back" in asked, asked
    alice.keyboard.press("Escape")
    alice.wait_for_selector("#ask", state="detached")
    _, now = call(alice, "GET", "/api/events/club")
    mine = {g["id"]: g for m in now["rounds"][0]["matches"] for g in m["games"]}[ours]
    assert mine["confirmed_by"] == []
    alice.focus(f'[data-confirm="{ours}"]')
    alice.keyboard.press("Enter")                    # by the keyboard: Enter asks, Enter answers yes
    alice.wait_for_selector("#ask")
    alice.keyboard.press("Enter")
    alice.wait_for_selector(f'[data-game="{ours}"] [data-provisional]:has-text("you confirmed")')
    rounds = httpx.get(base + "/api/events/club").json()["rounds"]
    got = {g["id"]: g for m in rounds[0]["matches"] for g in m["games"]}
    assert got[ours]["confirmed_by"] == ["alice"] and not got[ours]["confirmed"]
    # her opponent confirms too: the result is confirmed
    opp_page = pages[opponent]
    opp_page.goto(base + "/events/club")
    opp_page.click(f'[data-confirm="{ours}"]')
    opp_page.click('#ask [data-answer="yes"]')
    alice.wait_for_selector(f'[data-game="{ours}"] [data-confirmed]')
    # the referee corrects the other game's result: the reason first, refused without one
    boss.goto(base + "/events/club/referee")
    boss.wait_for_selector(f'[data-result="{other}"] [data-act="correct"]')
    # confirmed already: no confirm button
    assert boss.locator(f'[data-result="{ours}"] [data-act="confirm"]').count() == 0
    # each result in words, its notation as their title ("alice won", never a bare "1-0")
    seats = {g["id"]: g["seats"] for m in ev["rounds"][0]["matches"] for g in m["games"]}
    text = boss.inner_text(f'[data-result="{other}"] td:nth-child(3)')
    assert text.startswith(f"{seats[other][0]} won"), text
    assert boss.get_attribute(f'[data-result="{other}"] [data-notation]', "data-notation") == "1-0"
    # the new result picked in words from the game's results ("bob wins"), nothing typed
    pick = f'[data-result="{other}"] select.outcome'
    assert not boss.is_visible(f'[data-result="{other}"] input.result')
    boss.select_option(pick, "0-1")
    boss.click(f'[data-result="{other}"] [data-act="correct"]')
    boss.wait_for_selector(f'[data-result="{other}"] [data-act="correct"] + .act-note:has-text("reason")')
    boss.fill("#act-reason", "wrong result on the score sheet")
    boss.select_option(pick, "0-1")
    boss.click(f'[data-result="{other}"] [data-act="correct"]')
    asked = boss.inner_text("#ask-text")                              # asked first, in words
    assert f"from {seats[other][0]} won to {seats[other][1]} wins" in asked, asked
    boss.click('#ask [data-answer="yes"]')
    boss.wait_for_selector(f'[data-result="{other}"]:has([data-notation="0-1"]) [data-confirmed]')
    assert "corrected once" in boss.inner_text(f'[data-result="{other}"]')
    assert f"{seats[other][1]} won" in boss.inner_text(f'[data-result="{other}"]')
    check(boss, "the referee console with results")
    # the event page shows the correction: who, from what to what, why
    alice.wait_for_selector(f'[data-game="{other}"] [data-correction]')
    text = alice.inner_text(f'[data-game="{other}"] [data-correction]')
    assert text == "Corrected by boss: 1-0 → 0-1: wrong result on the score sheet", text
    check(alice, "the event page with a corrected result")
    for who, ctx, path in (("event", alice_ctx, "/events/club"),      # a context per reader,
                           ("console", boss_ctx, "/events/club/referee")):  # loaded anew per language
        page = browser.new_context(viewport=WIDTHS["phone"], storage_state=ctx.storage_state()).new_page()
        for lang in ("en", "zh"):
            set_lang(page, base, lang)
            page.goto(base + path)
            page.wait_for_selector(f'[data-game="{other}"] [data-correction]' if who == "event"
                                   else f'[data-result="{other}"]')
            assert_fits_phone(page)
        page.context.close()


def test_a_pair_confirms_once_for_both_members(browser, organizer):
    """In a pair event (S0 shengji) either member confirms for the pair: the partner's page then
    says the pair has confirmed and offers no second button; the other pair's confirmation
    makes the result confirmed."""
    base, state = organizer
    boss = browser.new_context(storage_state=state).new_page()
    boss.goto(base + "/events")                     # a page of the site, for its requests
    pages = {}
    for name in ("ann", "ben", "cy", "dee"):
        pages[name] = browser.new_context().new_page()
        sign_up(pages[name], base, name)
    pairs = [{"id": "North", "members": ["ann", "ben"]}, {"id": "East", "members": ["cy", "dee"]}]
    status, out = call(boss, "POST", "/api/events", {"preset": "s0_shengji", "event_id": "pairs",
                                                    "players": pairs})
    assert status == 201, out
    gid = httpx.get(base + "/api/events/pairs").json()["rounds"][0]["matches"][0]["games"][0]["id"]
    status, out = call(boss, "POST", "/api/events/pairs/acts", {"act": "enter_result", "game": gid,
                                                                "result": "dealer 0 attack 45",
                                                                "reason": "score sheet"})
    assert status == 200, out
    for lang, name in (("zh", "ann"), ("en", "ben")):
        set_lang(pages[name], base, lang)
    ann, bob = pages["ann"], pages["ben"]
    ann.goto(base + "/events/pairs")
    ann.wait_for_selector(f'[data-confirm="{gid}"]')
    ann.click(f'[data-confirm="{gid}"]')
    assert "确认后不能撤回" in ann.inner_text("#ask-text")
    ann.click('#ask [data-answer="yes"]')
    ann.wait_for_selector(f'[data-game="{gid}"] [data-provisional]:has-text("North 已确认")')
    bob.goto(base + "/events/pairs")
    bob.wait_for_selector(f'[data-game="{gid}"] [data-provisional]')
    assert bob.locator(f'[data-confirm="{gid}"]').count() == 0
    said = bob.inner_text(f'[data-game="{gid}"] [data-provisional]')
    assert said == "North confirmed; waiting for the others", said
    set_width(bob, WIDTHS["phone"]["width"], WIDTHS["phone"]["height"])
    assert_fits_phone(bob)
    # the organizer reads it (to anyone outside the game it is held while the round is on)
    status, ev = call(boss, "GET", "/api/events/pairs")
    got = ev["rounds"][0]["matches"][0]["games"][0]
    assert got["confirmed_by"] == ["North"] and not got["confirmed"]
    status, out = call(pages["dee"], "POST", "/api/events/pairs/confirmations", {"game": gid})
    assert status == 200 and out["confirmed"], out
    status, out = call(pages["cy"], "POST", "/api/events/pairs/confirmations", {"game": gid})
    assert status == 409 and out["code"] == "event_refused", out
    bob.reload()
    bob.wait_for_selector(f'[data-game="{gid}"] [data-confirmed]')


def test_results_of_an_event_run_from_the_command_line_read_final(browser, tmp_path):
    """Bots' games played by ``qipai event run`` are engine judgements nobody plays in person to
    confirm or dispute (§5.7): the event page and the referee console say "final", never "not
    confirmed yet", and the console offers no confirm button for them."""
    from .pages import run_from_command_line

    run_from_command_line(tmp_path, "s3_xiangqi", 4)
    with running_server(tmp_path, SETTINGS) as base:
        eid = httpx.get(base + "/api/events").json()[0]["id"]
        games = [g for r in httpx.get(f"{base}/api/events/{eid}").json()["rounds"]
                 for m in r["matches"] for g in m["games"]]
        assert games and {g["standing"] for g in games} == {"final"}
        ctx = browser.new_context()
        boss = ctx.new_page()
        sign_up(boss, base, "boss", lobby=False)
        set_lang(boss, base, "en")
        boss.goto(f"{base}/events/{eid}")
        boss.wait_for_selector("[data-game] [data-final]")
        assert boss.locator("[data-game] [data-final]").count() == len(games)
        assert boss.locator("[data-provisional]").count() == 0
        assert boss.inner_text("[data-game] [data-final] >> nth=0") == "confirmed"     # not "final" (a round)
        boss.goto(f"{base}/events/{eid}/referee")
        boss.wait_for_selector("[data-result] [data-final]")
        assert boss.locator("[data-result] [data-final]").count() == len(games)
        assert boss.locator('[data-result] [data-act="confirm"]').count() == 0
        page = browser.new_context(viewport=WIDTHS["phone"], storage_state=ctx.storage_state()).new_page()
        for path, ready in ((f"/events/{eid}", "[data-game] [data-final]"),
                            (f"/events/{eid}/referee", "[data-result] [data-final]")):
            for lang in ("en", "zh"):
                set_lang(page, base, lang)
                page.goto(base + path)
                page.wait_for_selector(ready)
                assert_fits_phone(page)
        page.context.close()
