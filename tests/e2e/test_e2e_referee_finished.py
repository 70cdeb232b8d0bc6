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
        sign_up(boss, base, "boss")                      # the first account: an organizer
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
        storage = boss.context.storage_state()
        boss.context.close()
        shots(browser, base, f"/events/{event['id']}/referee", "referee-finished", shot,
              "#ref-entrants [data-entrant]", storage)
