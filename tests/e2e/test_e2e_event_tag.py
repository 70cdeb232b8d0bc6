"""An event's game in the lobby's list of tables says its event by name (比赛：… / Event: …),
linked to the event's page, and is never tagged casual (不计等级分)."""

from __future__ import annotations

from .conftest import running_server
from .pages import create_event, set_lang, shots, two_people
from .test_e2e_play import sign_up


def test_an_event_table_in_the_lobby_says_its_event_never_casual(browser, shot, tmp_path):
    with running_server(tmp_path, "event_worker_at_start=True") as base:
        alice, bob = two_people(browser, base)
        event = create_event(alice, base, "s2_xiangqi", "Two friends", ["alice", "bob"])
        alice.evaluate("localStorage.setItem('lang', 'en')")
        alice.goto(f"{base}/events/{event}")
        alice.click("#start-round")
        alice.click('#ask [data-answer="yes"]')
        alice.wait_for_selector("#play-link")
        # the lobby read by carol, who plays in no event: a player's page, alice's or bob's, goes
        # to his waiting game's table by itself in a moment (events.js, eventcall.js), which would
        # cut off the navigations made here (net::ERR_ABORTED) or the reads after them
        carol = browser.new_context().new_page()
        sign_up(carol, base, "carol", lobby=False)
        for lang, words, casual in (("en", "Event: Two friends", "casual"),
                                    ("zh", "比赛：Two friends", "不计等级分")):
            set_lang(carol, base, lang)
            carol.goto(base + "/")
            tag = carol.wait_for_selector(f'#tables [data-event-tag="{event}"]')
            assert tag.inner_text() == words
            assert tag.get_attribute("href") == f"/events/{event}"
            row = carol.locator("#tables tr[data-table]").first
            assert casual not in row.inner_text()
        shots(browser, base, "/", "lobby-event-table", shot, f'[data-event-tag="{event}"]',
              storage=carol.context.storage_state())
        for page in (alice, bob, carol):
            page.context.close()
