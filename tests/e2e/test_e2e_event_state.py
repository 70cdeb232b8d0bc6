"""An event's state in the same words on every page that names it (web/eventstatus.js): an event
whose draw is made but whose first round was never started is "Final not started yet" on the
event list, on a player's profile and on its own page, never "Running" / 进行中."""

from __future__ import annotations

from .conftest import running_server
from .pages import create_event, shots, two_people, waiting_event


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
            # each page names itself in the tab's title, so open tabs can be told apart
            assert alice.title() == {"en": "Events · qipai", "zh": "比赛 · qipai"}[lang]
            alice.goto(base + "/u/bob")
            assert words in alice.inner_text(f'#events-entered li[data-event="{event}"]')
            assert alice.title() == "bob · qipai"
            alice.goto(f"{base}/events/{event}")
            assert alice.inner_text("#event-status") == words
            alice.wait_for_function("document.title === 'Two friends · qipai'")
            # the download links as large as the text around them, not in small print
            sizes = alice.evaluate("""() => ['.csv-links a', '#event-status'].map((q) =>
                parseFloat(getComputedStyle(document.querySelector(q)).fontSize))""")
            assert sizes[0] >= 15 and sizes[0] >= sizes[1] * 0.9, sizes
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


def test_a_round_whose_game_waits_for_its_player_reads_as_waiting_not_in_play(browser, shot, tmp_path):
    """A round started whose game waits at its table for its player (the banner says it starts
    when you reach the table) read "Final in play" / "Game 1 in play": it reads "Final: waiting
    for the players" (决赛：等待选手入座) and the game's row says it waits, until it starts."""
    # the game waits for its person (the tests' server starts it at once by default)
    with running_server(tmp_path, "event_ready_grace_ms=600000") as base:
        alice, bob = two_people(browser, base)
        made = waiting_event(alice, bob, base, "wait1")
        words = {"en": ("Final: waiting for the players", "waiting for the players"),
                 "zh": ("决赛：等待选手入座", "等待选手入座")}
        for lang, (state, row) in words.items():
            alice.evaluate(f"localStorage.setItem('lang', '{lang}')")
            alice.goto(f"{base}/events/wait1")
            alice.wait_for_selector(f"#event-status:has-text('{state}')")
            assert alice.inner_text("[data-game] [data-seating]") == row
            assert alice.locator("[data-game] .live").count() == 0
        shots(browser, base, "/events/wait1", "event-seating", shot, "[data-seating]",
              storage=alice.context.storage_state())
        alice.evaluate("localStorage.setItem('lang', 'en')")
        alice.goto(base + "/events")
        assert alice.inner_text('#event-list tr[data-event="wait1"] .event-state') == words["en"][0]
        # bob reaches the table: the game starts, the round is in play
        bob.goto(f"{base}/tables/{made['tables'][0]}")
        alice.goto(f"{base}/events/wait1")
        alice.wait_for_selector("#event-status:has-text('Final in play')", timeout=30_000)
        alice.wait_for_selector("[data-game] .live")
        alice.context.close()
        bob.context.close()
