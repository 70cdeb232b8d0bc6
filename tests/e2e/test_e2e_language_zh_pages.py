"""One language at a time (tests/e2e/language.py): in a Chinese browser the lobby, the history,
the event list, a replay, every game's rule options and an event's page speak Chinese."""

from __future__ import annotations

from .language import CLICKED_BOARD, GAMES, check, english_words, new_table, sign_up
from .pages import FIRST_EVENT_MS


def test_lobby_history_and_events_speak_chinese(lserver, zh, shot):
    page = zh.new_page()
    sign_up(page, lserver, "zhorganizer")    # an organizer (the server's settings)
    found: dict[str, list[str]] = {}
    names = ["zhorganizer"]
    t = new_table(page, lserver, "xiangqi", sit=True, clock=CLICKED_BOARD)
    page.goto(f"{lserver}/tables/{t}")
    page.wait_for_selector("#status[data-seq]")
    # one move (a game whose first move never comes is aborted, with no record), then the
    # player's clock runs out: a game lost on time, with its record and replay
    page.click('[data-sq="h2"]')
    page.click('[data-sq="e2"]')
    page.wait_for_selector("#status.over, #record-link", timeout=60_000)
    for path in ("/", "/history", "/events", "/account/bots"):
        page.goto(lserver + path)
        page.wait_for_load_state("networkidle")
        # the bots page names the command that connects an engine (qipai bot connect), as typed
        check(page, path.strip("/") or "lobby", names + ["qipai bot connect"], shot, found)
    records = page.request.get(lserver + "/api/records?user=me").json()
    assert records
    page.goto(f"{lserver}/records/{records[0]['id']}")
    page.wait_for_selector("#board")
    check(page, "replay", names, shot, found)
    # every game's rule options and their values, as the create form shows them
    page.goto(lserver + "/")
    page.wait_for_selector("select[name=game]")
    page.click("details summary")
    for game in GAMES:
        page.select_option("select[name=game]", game)
        text = page.evaluate("""() => { const d = document.querySelector('details');
          const values = [...d.querySelectorAll('option')].map((o) => o.textContent)
            .concat([...d.querySelectorAll('[title]')].map((l) => l.title));     // each option's help
          return [d.innerText, ...values].join('\\n'); }""")
        words = english_words(text, [])
        if words:
            found[f"options-{game}"] = sorted(set(words))
    r = page.request.post(lserver + "/api/events", timeout=FIRST_EVENT_MS, data={     # its first event
        "preset": "s3_xiangqi", "name": None,
        "players": ["zhorganizer", {"id": "b1", "bot": "random"}, {"id": "b2", "bot": "random"},
                    {"id": "b3", "bot": "random"}]})
    assert r.status in (200, 201), r.text()
    ev = r.json()["id"]
    page.goto(f"{lserver}/events/{ev}")
    page.wait_for_load_state("networkidle")
    # the draw's help names the command that re-checks it (qipai verify), as typed
    check(page, "event", names + ["b1", "b2", "b3", "qipai verify"], shot, found)
    page.close()
    assert found == {}
    assert zh.errors == []
