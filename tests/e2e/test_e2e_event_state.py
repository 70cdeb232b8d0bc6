"""An event's state in the same words on every page that names it (web/eventstatus.js): an event
whose draw is made but whose first round was never started is "Final not started yet" on the
event list, on a player's profile and on its own page, never "Running" / 进行中."""

from __future__ import annotations

from .conftest import running_server
from .pages import create_event, shots, two_people


def test_an_event_not_started_reads_so_on_the_list_the_profile_and_its_page(browser, shot, tmp_path):
    with running_server(tmp_path, "event_worker_at_start=True") as base:
        alice, bob = two_people(browser, base)
        event = create_event(alice, base, "s2_xiangqi", "Two friends", ["alice", "bob"])
        alice.wait_for_selector("#event-status:has-text('Final not started yet')")
        for lang, words in (("en", "Final not started yet"), ("zh", "决赛尚未开始")):
            alice.evaluate(f"localStorage.setItem('lang', '{lang}')")
            alice.goto(base + "/events")
            cell = alice.locator(f'#event-list tr[data-event="{event}"] .event-state')
            assert cell.inner_text() == words
            alice.goto(base + "/u/bob")
            assert words in alice.inner_text(f'#events-entered li[data-event="{event}"]')
            alice.goto(f"{base}/events/{event}")
            assert alice.inner_text("#event-status") == words
            # the downloads in the page's words (no "CSV" in Chinese), the file type in English
            assert alice.inner_text(".csv-links") == {"en": "Download (CSV): pairings · results · standings",
                                                      "zh": "下载表格：对阵表 · 成绩 · 名次"}[lang]
        shots(browser, base, f"/events/{event}", "event-downloads", shot, ".csv-links",
              storage=alice.context.storage_state())
        shots(browser, base, "/events", "events-list-not-started", shot, "#event-list .event-state",
              storage=alice.context.storage_state())
        alice.evaluate("localStorage.setItem('lang', 'en')")
        alice.goto(f"{base}/events/{event}")
        alice.click("#start-round")
        alice.click('#ask [data-answer="yes"]')
        alice.wait_for_selector("#event-status:has-text('Final in play')")
        alice.goto(base + "/events")
        assert alice.inner_text(f'#event-list tr[data-event="{event}"] .event-state') == "Final in play"
        alice.goto(base + "/u/bob")
        assert "Final in play" in alice.inner_text(f'#events-entered li[data-event="{event}"]')
        alice.context.close()
        bob.context.close()
