"""The referee console of a finished event says so: no "start a round" advice, the entrants
finished (not "playing"), and no warning, penalty or disqualification left to give. Screenshots
at 1280 and 390 px in both languages."""

from __future__ import annotations

from .conftest import running_server
from .pages import run_from_command_line, shots
from .test_e2e_play import sign_up


def test_the_console_of_a_finished_event(browser, shot, tmp_path):
    run_from_command_line(tmp_path, "s2_go", 2)
    with running_server(tmp_path) as base:
        boss = browser.new_page()
        sign_up(boss, base, "boss", lobby=False)                      # the first account: an organizer
        (event,) = boss.request.get(base + "/api/events").json()
        assert event["status"] == "finished"
        boss.goto(f"{base}/events/{event['id']}/referee")
        boss.wait_for_selector("#ref-entrants [data-entrant]")
        assert "start a round" not in boss.inner_text("main")
        assert "The event is finished" in boss.inner_text("#ref-tables")
        statuses = boss.eval_on_selector_all("#ref-entrants [data-entrant] td:nth-child(2)",
                                             "ts => ts.map((t) => t.textContent)")
        assert "Playing" not in statuses, statuses
        assert boss.locator("#ref-entrants button:enabled").count() == 0
        # nothing logged: said so, not bare column heads; results in words, never raw "(B+)"
        assert boss.inner_text("#ref-log") == "None yet"
        boss.wait_for_selector("[data-result]")
        words = boss.locator("[data-result]").first.locator("td").nth(2).inner_text()
        assert " won" in words and "(" not in words, words
        # a correction picked from the results in words (as at a live table), never a notation
        # typed; no pause or resume of a round left to give
        pick = boss.locator("[data-result] select.outcome >> nth=0")
        options = pick.locator("option").all_inner_texts()
        assert any(o.endswith(" wins") for o in options) and not any("+" in o for o in options), options
        assert not boss.is_visible("[data-result] input.result >> nth=0")
        assert boss.locator("#pause-round, #resume-round").count() == 0
        # the event's page: the final's winner wins the event (not "goes through"), and a result
        # no longer open to dispute reads "confirmed", not "final" (the round's name)
        boss.goto(f"{base}/events/{event['id']}")
        verdict = boss.wait_for_selector(".verdict").inner_text()
        assert verdict.endswith("wins the event") and "goes through" not in verdict, verdict
        assert "final" not in [x.lower() for x in boss.locator("[data-game] .tag").all_inner_texts()]
        storage = boss.context.storage_state()
        boss.context.close()
        shots(browser, base, f"/events/{event['id']}/referee", "referee-finished", shot,
              "#ref-entrants [data-entrant]", storage)
