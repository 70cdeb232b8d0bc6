"""An event between two people in a real browser against a real server, from creation to its
champion; then a player's history and profile say whom they played and how it went.
Screenshots at 1280 and 390 px in both languages."""

from __future__ import annotations

import re

from .conftest import running_server
from .pages import accept_dialogs, shots
from .test_e2e_a11y import check
from .test_e2e_play import sign_up


# ----- an event between two people, from creation to champion -----------------------------------
def test_event_from_creation_to_champion_between_two_people(browser, shot, tmp_path):
    with running_server(tmp_path, "event_worker_at_start=True") as base:   # it makes an event
        ctx_a, ctx_b = browser.new_context(), browser.new_context()
        alice, bob = ctx_a.new_page(), ctx_b.new_page()
        accept_dialogs(alice)
        sign_up(alice, base, "alice", lobby=False)                 # the first account: an organizer
        sign_up(bob, base, "bob", lobby=False)
        alice.goto(base + "/events")
        assert alice.inner_text("#create-event") == "Create event"
        alice.select_option("select[name=preset]", "s2_xiangqi")
        alice.fill("input[name=name]", "Two friends")
        alice.fill("textarea[name=players]", "alice\nbob")
        alice.click("#create-event")
        alice.wait_for_url(re.compile(r"/events/[\w.-]+$"))
        event = alice.url.rsplit("/", 1)[1]
        assert alice.inner_text("#start-round") == "Start round 1"
        assert alice.inner_text("#event-status") == "Final not started yet"       # not "Running"
        shot(alice, "event-created")
        bob.goto(f"{base}/events/{event}")                      # waiting for the round
        bob.wait_for_selector(".event-head h2")
        assert bob.locator("#play-link").count() == 0
        alice.click("#start-round")                    # asked first, as resigning: it cannot be undone
        assert "Start round 1?" in alice.inner_text("#ask-text")
        shot(alice, "event-start-ask")
        alice.click('#ask [data-answer="no"]')           # no: nothing starts
        assert not alice.locator("#start-round").is_disabled()
        alice.click("#start-round")
        alice.click('#ask [data-answer="yes"]')
        alice.wait_for_selector("#start-round:disabled")
        assert "under way" in alice.inner_text("#start-round")
        alice.wait_for_selector("#event-status:has-text('Final in play')")
        finished = None                                          # the table of the game before
        for n in (1, 2):                                         # best of three: alice resigns twice
            # the page follows the event: the game appears without a reload (game 2 once game 1
            # is stored), and the tab's title says it is ready
            if n == 2:
                # both finished tables' pages go on to game 2's table by themselves (the call
                # banner, eventcall.js): that navigation would cut off one made here meanwhile
                # (net::ERR_ABORTED), so it is waited for first
                for p in (bob, alice):
                    p.wait_for_url(lambda u, before=finished: "/tables/" in u and u != before, timeout=30_000)
                bob.goto(f"{base}/events/{event}")
            bob.wait_for_selector(f"#play-link:has-text('game {n}')", timeout=30_000)
            if n == 1:
                # the round started while bob looked at the event: an alert, the tab's title,
                # and in a moment bob is at his table, with the way back to the event
                bob.wait_for_selector("#ready-notice[role=alert]")
                assert bob.title().startswith("Your game is ready")
                assert "Taking you to your table" in bob.inner_text("#ready-notice")
                shot(bob, "event-your-game")
                bob.wait_for_url(re.compile(r"/tables/\w+$"), timeout=30_000)
                bob.wait_for_selector("#event-link")
                assert bob.get_attribute("#event-link", "href") == f"/events/{event}"
            else:                                                # the series so far, from bob's side
                row = bob.inner_text('[data-round="1"] tr.me')
                assert "bob 1–0 alice" in row or "alice 0–1 bob" in row, row
                # the pairings name the sides in the bracket's order
                boxed = bob.eval_on_selector_all('#bracket [data-match="1.1"] .n',
                                                 "ns => ns.map((n) => n.textContent)")
                assert row.index(boxed[0]) < row.index(boxed[1]), (boxed, row)
            if n == 1:
                # alice's event page had the same notice and goes to her table by itself too
                alice.wait_for_url(re.compile(r"/tables/\w+$"), timeout=30_000)
            alice.goto(f"{base}/events/{event}")
            alice.click(f"#play-link:has-text('game {n}')", timeout=30_000)
            alice.wait_for_url(re.compile(r"/tables/\w+$"))
            finished = alice.url
            alice.wait_for_selector("#resign", timeout=30_000)
            alice.click("#resign")
            alice.click('#ask [data-answer="yes"]')          # resigning asks first
            alice.wait_for_selector("#record-link", timeout=60_000)
            assert alice.get_attribute("#event-link", "href") == f"/events/{event}"     # back to it
        alice.goto(f"{base}/events/{event}")
        alice.wait_for_selector("#champion", timeout=30_000)
        assert "bob" in alice.inner_text("#champion")
        final = alice.locator('#bracket [data-match="1.1"]')
        assert final.locator(".bs.win").inner_text().split() == ["bob", "2"]
        # the pairings in the bracket's order (bob first), alice's row marked, "You lost"
        row = alice.inner_text('[data-round="1"] tr.me')
        assert ("bob 2–0 alice" in row or "alice 0–2 bob" in row) and "You lost" in row
        assert alice.locator('[data-round="1"] tr.me a.player').count() == 2           # their profiles
        assert alice.locator("[data-replay]").count() == 2
        shot(alice, "event-champion")
        check(alice, "finished event")
        alice.click("[data-replay] >> nth=0")
        alice.wait_for_url(re.compile(r"/records/\d+$"))
        alice.wait_for_selector(".xq .pc")
        # history and profile: the opponent by name, the result in words
        alice.goto(base + "/history")
        alice.wait_for_selector("#history [data-record]")
        rows = alice.locator("#history tbody tr")
        assert rows.count() == 2
        for i in range(2):
            text = rows.nth(i).inner_text()
            assert "bob" in text and "You lost" in text and "resign" in text.lower()
        assert re.search(r"\d{4}", rows.nth(0).inner_text())     # a date, the reader's
        shot(alice, "history")
        check(alice, "history")
        bob.goto(base + "/u/bob")
        bob.wait_for_selector("#record")
        assert bob.inner_text('[data-stat="won"] b') == "2" and bob.inner_text('[data-stat="lost"] b') == "0"
        assert bob.locator("#history tbody tr").count() == 2 and "alice" in bob.inner_text("#history")
        bob.click("#history a.player >> nth=0")                 # an opponent's name: their profile
        bob.wait_for_url(base + "/u/alice")
        bob.wait_for_selector("#record")
        assert bob.inner_text('[data-stat="lost"] b') == "2"
        check(bob, "profile")
        storage, organizer = ctx_b.storage_state(), ctx_a.storage_state()
        ctx_a.close()
        ctx_b.close()
        shots(browser, base, "/u/bob", "profile", shot, "#record", storage)
        shots(browser, base, "/history", "history", shot, "#history", storage)
        shots(browser, base, f"/events/{event}", "event-two-people", shot, "#champion", storage)
        shots(browser, base, "/events", "events-organizer", shot, "#create-event", organizer)
