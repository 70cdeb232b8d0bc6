"""A whole event run from the server in a real browser (issue: organizers and referees run a
whole event): an organizer makes an event of a meet with changed fields in the form and opens
it for entries; three people join by its link with their units and play the round robin at live
tables; a referee pauses a table, adds time, voids a game that is played again, and disqualifies
an entrant; the standings rank the disqualified entrant last and the meet's unit standings give
its unit nothing. (A player disqualified at a live doudizhu table:
test_e2e_event_live_trusteeship.py.)"""

from __future__ import annotations

import re
import time

import httpx
from playwright.sync_api import Error as PlaywrightError

from .conftest import running_server
from .pages import (
    FIRST_EVENT_MS,
    accept_dialogs,
    appoint_referee,
    event_json,
    live_games,
    set_lang,
    shots,
    start_round,
    wait_for,
)
from .test_e2e_event_form import SETTINGS
from .test_e2e_play import sign_up
from .test_e2e_referee import add_a_minute

PEOPLE = {"alice": "East", "bob": "West", "carol": "North"}


def go_play(page, base, event, table):
    """The player reaches their live game ``table`` by the event page's link. The page they have
    open also goes there by itself a moment after the game is seated (the event page's ready
    notice, a finished table's call banner), and that navigation may cut off the one made here
    (net::ERR_ABORTED) or follow it: the player goes again until the table's page shows the
    game's controls."""
    at_table = re.compile(rf"/tables/{table}$")
    deadline = time.monotonic() + 90
    while True:
        try:
            if not at_table.search(page.url):
                page.goto(f"{base}/events/{event}")
                page.click("#play-link", timeout=10_000)
                page.wait_for_url(at_table, timeout=10_000)
            page.wait_for_selector("#resign", timeout=10_000)
            if at_table.search(page.url):
                return
        except PlaywrightError as e:
            assert time.monotonic() < deadline, f"{page.url}: not at the table {table}: {e}"


def test_an_event_from_the_form_to_unit_standings_with_a_referee(browser, shot, tmp_path):
    with running_server(tmp_path, SETTINGS) as base:
        ctxs = {n: browser.new_context() for n in ("boss", "ref", *PEOPLE)}
        pages = {n: c.new_page() for n, c in ctxs.items()}
        for n, p in pages.items():
            accept_dialogs(p)
            sign_up(p, base, n)                # boss first: the organizer
            set_lang(p, base, "en")
        boss, ref = pages["boss"], pages["ref"]
        # the form: S3 xiangqi with the S0 repetition rule and S2's placement points, in a meet
        boss.goto(base + "/events")
        boss.select_option("select[name=preset]", "s3_xiangqi")
        boss.wait_for_selector('[data-path="game.repetition_rule"]')
        boss.select_option('[data-path="game.repetition_rule"]', '"seed000_same_move"')
        boss.wait_for_selector('[data-field="game.repetition_rule"].changed')
        for field, value in (("champion", "5"), ("runner_up", "3"), ("other", "1")):
            boss.fill(f'[data-path="placement_points.{field}"]', value)
            boss.dispatch_event(f'[data-path="placement_points.{field}"]', "change")
            boss.wait_for_selector(f'[data-field="placement_points.{field}"].changed')
        boss.fill("input[name=name]", "City xiangqi")
        boss.fill("input[name=meet]", "City meet")
        boss.check("input[name=registration]")
        boss.click("#create-event")
        boss.wait_for_url(re.compile(r"/events/[\w.-]+$"), timeout=FIRST_EVENT_MS)
        event = boss.url.rsplit("/", 1)[1]
        link = boss.inner_text("#join-link")
        # three people join by the link, each with a unit
        for name, unit in PEOPLE.items():
            p = pages[name]
            p.goto(link)
            p.fill("#join-unit", unit)
            p.click("#join-event")
            p.wait_for_selector("#leave-event")
        # leaving asks first; No (Escape) keeps the entry
        first = pages[next(iter(PEOPLE))]
        first.click("#leave-event")
        first.wait_for_selector("#ask")
        first.keyboard.press("Escape")
        first.wait_for_selector("#ask", state="detached")
        assert len(event_json(base, event)["entrants"]) == len(PEOPLE)
        boss.wait_for_selector("#entries [data-entrant=carol]")
        boss.click("#close-entries")
        boss.click('#ask [data-answer="yes"]')          # asked first: it cannot be undone
        boss.wait_for_selector("#start-round")
        ev = event_json(base, event)
        assert ev["stage"] == "round_robin" and sorted(e["id"] for e in ev["entrants"]) == sorted(PEOPLE)
        # the organizer appoints the referee and starts round 1: one live table (one player sits out)
        appoint_referee(boss, "ref")
        start_round(boss)
        ((table, seats),) = wait_for(lambda: live_games(base, event), "round 1's table")
        for name in seats:
            go_play(pages[name], base, event, table)
        # the referee: pause, add a minute to the waiting seat, resume
        ref.goto(f"{base}/events/{event}/referee")
        card = f'[data-table="{table}"]'
        ref.wait_for_selector(f"{card} .clock")
        ref.fill("#act-reason", "a phone rang")
        ref.click(f'{card} [data-act="pause"]')
        ref.wait_for_selector(f"{card} [data-paused]")
        pages[seats[0]].wait_for_selector("#status:has-text('Paused by the referee')")
        add_a_minute(ref, table)
        ref.fill("#act-reason", "quiet again")
        ref.click(f'{card} [data-act="resume"]')
        ref.wait_for_selector(f"{card}:not(.paused) [data-act='pause']")
        # void the game: it is seated again at a new table, and played there
        ref.fill("#act-reason", "wrong colours at the board")
        ref.click(f'{card} [data-act="void"]')
        ref.click('#ask [data-answer="yes"]')          # asked first: the game ends
        ref.wait_for_selector(card, state="detached")
        pages[seats[0]].wait_for_selector("#status:has-text('voided by the referee')")
        ((again, seats2),) = wait_for(lambda: [g for g in live_games(base, event) if g[0] != table],
                                      "the replayed game")
        assert sorted(seats2) == sorted(seats)
        ref.wait_for_selector(f"[data-table='{again}'] .tag:has-text('replayed game')")
        for name in seats2:
            go_play(pages[name], base, event, again)
        loser1 = seats2[1]
        pages[loser1].click("#resign")
        pages[loser1].click('#ask [data-answer="yes"]')          # resigning asks first
        pages[loser1].wait_for_selector("#record-link")
        wait_for(lambda: event_json(base, event)["current_round"] == 2, "round 2")
        # the event page says who won the resigned game and how, in words alone (no "(1-0)" after)
        gid = next(g["id"] for r in event_json(base, event)["rounds"] for m in r["matches"]
                   for g in m["games"] if g["table"] == again)
        pages[loser1].goto(f"{base}/events/{event}")
        cell = pages[loser1].locator(f'.game[data-game="{gid}"]')
        cell.wait_for()
        words = cell.locator(".result-words").inner_text()
        assert re.fullmatch(r"\S+ won — \S+ resigned", words), cell.inner_text()
        assert not re.search(r"\b[01]-[01]\b", cell.inner_text()), cell.inner_text()
        # round 2: the referee disqualifies a player at the live table; the game is lost at once
        boss.reload()
        start_round(boss)
        ((table2, seats3),) = wait_for(lambda: live_games(base, event), "round 2's table")
        for name in seats3:
            go_play(pages[name], base, event, table2)
        out = seats3[0]
        ref.wait_for_selector(f'[data-table="{table2}"] .clock')
        ref.fill("#act-reason", "used a phone during play")
        ref.click(f'[data-entrant="{out}"] [data-act="disqualify"]')
        ref.click('#ask [data-answer="yes"]')               # a disqualification asks first
        ref.wait_for_selector(f'[data-entrant="{out}"] [data-act="disqualify"]:disabled')
        ref.wait_for_selector(f'[data-table="{table2}"]', state="detached", timeout=30_000)
        log = ref.inner_text("#ref-log")
        for words in ("pause", "time added", "resume", "game voided", "disqualification", "used a phone"):
            assert words in log, words
        # round 3, if the disqualified player is not in it, is played; else it is forfeited
        wait_for(lambda: event_json(base, event)["current_round"] == 3 or
                 event_json(base, event)["status"] == "finished", "round 3")
        if event_json(base, event)["status"] != "finished":
            boss.reload()
            boss.click("#start-round")
            boss.click('#ask [data-answer="yes"]')          # asked first: it cannot be undone
            got = wait_for(lambda: live_games(base, event) or event_json(base, event)["status"] == "finished",
                           "round 3's table or the end")
            if got is not True:
                ((table3, seats4),) = got
                for name in seats4:
                    go_play(pages[name], base, event, table3)
                pages[seats4[0]].click("#resign")
                pages[seats4[0]].click('#ask [data-answer="yes"]')          # resigning asks first
        ev = wait_for(lambda: (lambda e: e["status"] == "finished" and e)(event_json(base, event)), "the end")
        # the standings: the disqualified player last, marked; their results against others stand
        boss.goto(f"{base}/events/{event}")
        boss.wait_for_selector("#standings [data-dq]")
        rows = boss.locator("#standings tbody tr")
        assert rows.nth(rows.count() - 1).get_attribute("data-entrant") == out
        assert "disqualified" in rows.nth(rows.count() - 1).inner_text()
        # the unit standings: the champion's unit 5, the runner-up's 3, the disqualified player's 0
        champion, runner = ev["outcome"]["champion"], ev["outcome"]["runner_up"][0]
        assert out not in (champion, runner) and {champion, runner} == set(PEOPLE) - {out}
        boss.wait_for_selector("#unit-standings")
        pts = "rs => rs.map((r) => [r.dataset.unit, r.querySelector('.pts').textContent])"
        points = dict(boss.eval_on_selector_all("#unit-standings tbody tr", pts))
        assert points == {PEOPLE[champion]: "5", PEOPLE[runner]: "3", PEOPLE[out]: "0"}, points
        assert boss.locator("#units-running").count() == 0
        assert event_json(base, event)["secret"]          # the draw can be re-checked now
        boss.click("#draw > summary")
        assert boss.inner_text("#secret") == ev["secret"]
        shot(boss, "event-live-finished")
        # printed: the standings, unit standings, draw and pairings, without the screen's panels
        boss.emulate_media(media="print")
        assert boss.is_visible("#standings") and boss.is_visible("#unit-standings")
        assert not boss.is_visible("#referees") and not boss.is_visible("#event-chat")
        assert not boss.is_visible("#print-page") and not boss.is_visible("[data-export]")
        boss.set_viewport_size({"width": 794, "height": 1123})          # A4 portrait at 96 px an inch
        shot(boss, "event-live-print")
        boss.emulate_media(media="screen")
        # round 1's replayed game, resigned, is in the results export
        results = httpx.get(f"{base}/api/events/{event}/export/results.csv").text
        assert "resign" in results
        storage = ctxs["boss"].storage_state()
        for c in ctxs.values():
            c.close()
        shots(browser, base, f"/events/{event}", "event-live", shot, "#unit-standings", storage)
