"""Registration, the draw, unit standings and printing in a real browser (competition.md §2.1,
§2.6, §5.6, §6.1): an organizer opens an event of a meet for entries; players join by the link
with their unit and check in; one who does not check in is left out when entries close; the
draw is shown with its commitment and the meet's unit standings beside the event. Printed, the
page loses its buttons and a knockout bracket of 32 fits one landscape page. Screenshots at 1280
and 390 px in both languages."""

from __future__ import annotations

import re

import httpx
import pytest

from .conftest import ARTIFACTS
from .pages import accept_dialogs, set_lang, shots
from .test_e2e_a11y import check
from .test_e2e_event_form import signed_in_organizer
from .test_e2e_play import sign_up


def pdf_pages(data: bytes) -> int:
    """The number of pages of a PDF that Chromium wrote (its page objects are not compressed)."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", data))


@pytest.fixture(scope="module")
def organizer(browser, tmp_path_factory):
    """``(base, storage)``: a server the file's tests share (their events apart: the meet's,
    the bracket's), and the signed-in state of its first account ``boss`` (an organizer)."""
    with signed_in_organizer(browser, tmp_path_factory.mktemp("qipai-registration")) as shared:
        yield shared


def organizer_and_player(browser, base, signed_up=True, state=None):
    """``(organizer's page, alice's page, alice's context)``: the organizer signed up first
    (or signed in with ``state``, the storage of the server's first account), alice signed up
    unless ``signed_up`` is false, both reading English."""
    boss_ctx, alice_ctx = browser.new_context(storage_state=state), browser.new_context()
    boss, alice = boss_ctx.new_page(), alice_ctx.new_page()
    accept_dialogs(boss)
    if state is None:
        sign_up(boss, base, "boss", lobby=False)
    if signed_up:
        sign_up(alice, base, "alice", lobby=False)
    for p in (boss, alice):
        set_lang(p, base, "en")
    return boss, alice, alice_ctx


def test_players_join_check_in_and_the_draw_shows_its_commitment(browser, shot, organizer):
    base, state = organizer
    boss, alice, alice_ctx = organizer_and_player(browser, base, signed_up=False, state=state)
    boss.goto(base + "/events")
    boss.select_option("select[name=preset]", "s2_go")
    boss.wait_for_selector('[data-path="game.komi"]')
    boss.fill("input[name=name]", "Go open")
    boss.fill("input[name=meet]", "Spring meet")
    boss.check("input[name=registration]")
    boss.check("input[name=check_in]")
    boss.click("#create-event")
    boss.wait_for_url(re.compile(r"/events/[\w.-]+$"))
    event = boss.url.rsplit("/", 1)[1]
    boss.wait_for_selector("#join-link")
    link = boss.inner_text("#join-link")
    code = boss.inner_text("#join-code-shown")
    assert link.endswith(f"/events/{event}?join={code}")
    # on a phone the code stays on one line (a player types it), with a button that copies it
    boss.set_viewport_size({"width": 390, "height": 800})
    assert boss.evaluate("document.querySelector('#join-code-shown').getClientRects().length") == 1
    boss.click("#join-code-copy")
    boss.wait_for_selector("#join-copied:text-matches('Copied|Select it and copy it')")
    boss.set_viewport_size({"width": 1280, "height": 800})
    assert boss.inner_text("#event-status") == "Entries open"
    # alice follows the link, signs up, comes back and joins with her unit
    alice.goto(link)
    alice.wait_for_selector("#registration a[href^='/signup']")
    sign_up(alice, base, "alice", lobby=False)
    alice.goto(link)
    assert alice.input_value("#join-code") == code
    alice.fill("#join-unit", "North")
    alice.click("#join-event")
    alice.wait_for_selector("#check-in")
    assert "You are entered." in alice.inner_text("#my-entry")
    # two more join by the API (a wrong code refused); carol does not check in
    for name, unit in (("bob", "South"), ("carol", "East")):
        account = {"username": name, "password": "correct horse"}
        cookies = httpx.post(base + "/api/signup", json=account).cookies
        join = f"{base}/api/events/{event}/join"
        assert httpx.post(join, json={"code": "0000"}, cookies=cookies).json()["error"] == "bad_join"
        ok = httpx.post(join, json={"code": code, "unit": unit}, cookies=cookies)
        assert ok.status_code == 200, ok.text
        if name == "bob":
            assert httpx.post(f"{base}/api/events/{event}/checkin", cookies=cookies).status_code == 200
    alice.click("#check-in")
    alice.wait_for_selector("#my-entry:has-text('checked in')")
    # the organizer's list: who is in, units, who has checked in
    # (the list refreshes by itself: carol's row can show before alice's check-in reaches it)
    boss.wait_for_selector("#entries [data-entrant=carol]")
    boss.wait_for_selector("#entries [data-entrant=alice][data-status=checked_in]")
    status = dict(boss.eval_on_selector_all("#entries [data-entrant]",
                                            "rs => rs.map((r) => [r.dataset.entrant, r.dataset.status])"))
    assert status == {"alice": "checked_in", "bob": "checked_in", "carol": "registered"}
    assert "North" in boss.inner_text("#entries [data-entrant=alice]")
    shot(boss, "registration-organizer")
    check(boss, "the organizer's entries")
    check(alice, "a player's entry")
    shots(browser, base, f"/events/{event}", "registration", shot, "#entries", alice_ctx.storage_state())
    # close entries: carol, not checked in, is left out; the draw and its commitment show
    commitment = httpx.get(f"{base}/api/events/{event}").json()["commitment"]
    boss.click("#close-entries")
    assert "carol" in boss.inner_text("#ask-text")      # asked first: carol would be left out
    boss.click('#ask [data-answer="yes"]')
    boss.wait_for_selector("#draw")
    boss.click("#draw > summary")
    assert boss.inner_text("#commitment") == commitment
    assert "Left out for not checking in: carol" in boss.inner_text("#no-shows")
    draws = boss.eval_on_selector_all("#draw-numbers [data-draw]", "rs => rs.map((r) => r.dataset.draw)")
    assert sorted(draws) == ["1", "2"]
    # the meet's unit standings beside the event: units listed, the running event counted as it
    # stands (nobody has played: no points yet), marked provisional
    boss.wait_for_selector("#unit-standings [data-unit=North]")
    check(boss, "the drawn event with unit standings")
    assert "still being played" in boss.inner_text("#units-running")
    assert boss.locator("#unit-standings [data-unit=South]").count() == 1
    assert boss.locator("#unit-standings [data-unit=North] td.pts").inner_text() == "0"
    # another event of the meet, named after its preset: named in the reader's words
    bots = [{"id": f"d{i}", "bot": "random", "unit": u} for i, u in enumerate(("North", "South", "West"))]
    r = boss.request.post(base + "/api/events", data={"preset": "s2_doudizhu", "players": bots,
                                                       "meet": "Spring meet", "event_id": "ddz"})
    assert r.status == 201, r.text()
    zh = browser.new_context().new_page()
    set_lang(zh, base, "zh")
    zh.goto(f"{base}/meets/Spring%20meet")
    zh.wait_for_selector("#unit-standings th[data-event=ddz]")
    assert zh.inner_text("#unit-standings th[data-event=ddz]").startswith("斗地主")
    assert zh.inner_text(f"#unit-standings th[data-event='{event}']") == "Go open（暂定）"   # still on
    # the meet's page; the CSV links
    boss.goto(f"{base}/meets/Spring%20meet")
    boss.wait_for_selector("#unit-standings [data-unit=South]")
    check(boss, "the meet's page")
    csv = httpx.get(f"{base}/api/meets/Spring%20meet/units.csv").text
    assert csv.splitlines()[0].startswith("\ufeffrank,unit,points")      # the BOM: for Excel
    shots(browser, base, "/meets/Spring%20meet", "meet", shot, "#unit-standings [data-unit=South]")
    boss.goto(f"{base}/events/{event}")
    boss.wait_for_selector("[data-export=standings]")
    href = boss.get_attribute("[data-export=pairings]", "href")
    assert httpx.get(base + href).text.startswith("\ufeffround,match,kind")     # the BOM: for Excel
    # printed: no buttons, no chat, no referee panel; the tables stay
    boss.emulate_media(media="print")
    assert not boss.is_visible("#print-page") and not boss.is_visible("#referees")
    assert boss.is_visible("#unit-standings") and boss.is_visible("#bracket")
    boss.emulate_media(media="screen")
    pdf = boss.pdf()
    (ARTIFACTS / "event-print.pdf").write_bytes(pdf)
    assert pdf_pages(pdf) >= 1


def test_a_bracket_of_32_prints_on_one_page(browser, shot, organizer):
    base, state = organizer
    ctx = browser.new_context(storage_state=state)
    boss = ctx.new_page()
    set_lang(boss, base, "zh")
    bots = [{"id": f"player{i:02d}", "bot": "random"} for i in range(1, 33)]
    body = {"preset": "s2_xiangqi", "players": bots, "event_id": "big"}
    r = boss.request.post(base + "/api/events", data=body)
    assert r.status == 201, r.text()
    boss.goto(base + "/events/big")
    boss.wait_for_selector("#bracket [data-bracket-round='5']")
    # the printed layout of a landscape A4 page (8 mm margins: 281 x 194 mm at 96 px an inch)
    boss.set_viewport_size({"width": 1062, "height": 733})
    boss.emulate_media(media="print")
    boss.evaluate("document.body.dataset.print = 'bracket'")
    box = boss.evaluate("""() => { const b = document.querySelector('#bracket');
        const z = parseFloat(getComputedStyle(b).zoom) || 1, r = b.getBoundingClientRect();
        const s = document.querySelector('section.bracket-box').getBoundingClientRect();
        return {w: r.width, h: r.height, sh: s.height, z}; }""")
    assert box["z"] < 1 and box["sh"] <= 733 - 60 and box["w"] <= 1062, box
    boss.screenshot(path=str(ARTIFACTS / "bracket-print.png"), full_page=True)
    # the print button's own way: the page with ?print=bracket prints the bracket alone
    assert boss.get_attribute("#print-bracket", "href") == "/events/big?print=bracket"
    page = ctx.new_page()
    page.add_init_script("window.print = () => { window.printed = true; }")
    page.goto(base + "/events/big?print=bracket")
    page.wait_for_function("window.printed === true")
    pdf = page.pdf(prefer_css_page_size=True)
    (ARTIFACTS / "bracket-print.pdf").write_bytes(pdf)
    assert pdf_pages(pdf) == 1
    assert re.findall(rb"/MediaBox \[0 0 (\d+)\S* (\d+)", pdf)[0] == (b"841", b"594")     # A4 landscape
    # every first-round match is on that page
    assert page.locator("[data-bracket-round='1'] .bm").count() == 16
