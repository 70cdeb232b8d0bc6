"""The referee console's card of an event table whose game has not started (it waits for its
players to reach the table): it says so in the words the event page uses ("waiting for the
players" / 等待选手入座), with the players' names, in both languages, and the round counts it
as waiting, not live; each seat says whether its player is at the table, the card offers no
pause, time or result (it says why), the tables' heading covers waiting tables and the players'
list says "not at the table yet" / "at the table", not "playing"; once the player comes, the
card shows the clocks and its acts, the list "playing". Screenshots at 1280
and 390 px in both languages (/tmp/shots-ui13)."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import running_server, set_width
from .pages import two_people, waiting_event

SHOTS = Path("/tmp/shots-ui13")
CATALOGUES = Path(__file__).resolve().parents[2] / "qipai" / "i18n"


def test_the_console_says_a_table_waits_for_its_players(browser, tmp_path):
    # the game waits for its person (the tests' server starts an event game at once by default)
    with running_server(tmp_path, "event_ready_grace_ms=600000") as base:
        alice, bob = two_people(browser, base)
        made = waiting_event(alice, bob, base, "refwait")
        table = made["tables"][0]
        SHOTS.mkdir(exist_ok=True)
        card = f'[data-table="{table}"]'
        for lang in ("en", "zh"):
            words = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
            alice.evaluate(f"localStorage.setItem('lang', '{lang}')")
            alice.goto(f"{base}/events/refwait/referee")
            alice.wait_for_selector(f"{card} .ref-clocks [data-waiting]", timeout=30_000)
            line = alice.inner_text(f"{card} .ref-clocks [data-waiting]")
            vs = words["vs"]
            assert sorted(line.split(" · ")[0].split(f" {vs} ")) == ["b1", "bob"], line
            assert line.endswith(f" · {words['events.seating']}"), line
            assert "#" not in line and "(" not in line
            # the round's count: a table waiting for its players, not a live one
            count = words["ref.waitingcount.one" if lang == "en" else "ref.waitingcount.other"]
            assert alice.inner_text("#ref-count") == count.replace("{n}", "1")
            # the tables' heading covers a waiting table too ("Tables of the round", not "Live")
            assert alice.inner_text("#ref-tables >> xpath=.. >> h3") == words["ref.tables"]
            # each seat in words: the bot is at the table, bob not yet
            alice.wait_for_selector(f'{card} .ref-clocks [data-state="waiting"]', timeout=30_000)
            states = {alice.inner_text(f"{card} .ref-clocks [data-seat='{i}'] .n"):
                      alice.inner_text(f"{card} .ref-clocks [data-seat='{i}'] .tag") for i in (0, 1)}
            assert states == {"bob": words["ref.status.waiting"], "b1": words["ref.status.seated"]}, states
            # no pause, time, warning or result for a game not started: the card says why
            assert alice.locator(f"{card} [data-act]").count() == 0
            assert alice.inner_text(f"{card} [data-waiting-note]") == words["ref.waitingacts"]
            # the players' list: bob waits, b1 sits; neither "Playing"
            bob_row = alice.inner_text('#ref-entrants tr:has(td:text-is("bob")) td[data-state]')
            assert bob_row == words["ref.status.waiting"], bob_row
            assert words["ref.status.playing"] not in alice.inner_text("#ref-entrants")
            for width, height in ((1280, 900), (390, 844)):
                set_width(alice, width, height)
                alice.locator(card).scroll_into_view_if_needed()
                alice.screenshot(path=str(SHOTS / f"referee-waiting-{lang}-{width}.png"), full_page=True)
            set_width(alice, 1280, 900)
        # bob reaches the table: the game starts and the console shows its clocks
        bob.goto(f"{base}/tables/{table}")
        alice.wait_for_selector(f"{card} .clock", timeout=30_000)
        assert alice.locator(f"{card} [data-waiting]").count() == 0
        alice.wait_for_selector("#ref-count:text-is('进行中 1 桌')", timeout=30_000)   # in Chinese now
        # the game on: the table's acts, and bob playing in the players' list
        alice.wait_for_selector(f'{card} [data-act="pause"]', timeout=30_000)
        assert alice.locator(f"{card} [data-waiting-note]").count() == 0
        bob_state = '#ref-entrants tr:has(td:text-is("bob")) td[data-state]'
        alice.wait_for_selector(bob_state.replace("[data-state]", '[data-state="playing"]'), timeout=30_000)
        assert alice.inner_text(bob_state) == "对局中"
        alice.context.close()
        bob.context.close()
