"""The referees' tools in a real browser against a real server (competition.md §5.7): an
organizer appoints a referee on the event page; the referee, from the console, pauses a table
(its clocks stop), adds time to a seat, voids a game that the event seats again, and disqualifies
an entrant, and the event's standings show it last. A player files a dispute from the table
page and the referee rules on it. Screenshots of the console at 1280 and 390 px in both
languages."""

from __future__ import annotations

import re
import time

import httpx

from .conftest import running_server
from .pages import accept_dialogs, appoint_referee, set_lang, shots, start_round
from .test_e2e_a11y import check
from .test_e2e_event_form import SETTINGS
from .test_e2e_play import sign_up

PLAYERS = ("alice", "bob", "carol", "dave")


def clock_of(page, table, seat):
    return page.inner_text(f'[data-table="{table}"] [data-seat="{seat}"] .clock')


def seconds(text):
    parts = [int(x) for x in text.split(":")]
    return sum(v * 60 ** i for i, v in enumerate(reversed(parts)))


def add_a_minute(ref, table, seat=1):
    """The referee adds a minute to ``seat`` (waiting, paused or not) of the console's ``table``;
    its bank shows exactly one minute more."""
    card = f'[data-table="{table}"]'
    bank = seconds(clock_of(ref, table, seat))
    ref.fill("#act-reason", "late start")
    ref.select_option(f'{card} select[data-seats="time"]', str(seat))
    ref.fill(f"{card} input.secs", "60")
    assert ref.inner_text(f"{card} input.secs + .unit") in ("s", "秒")     # the box's unit
    ref.click(f'{card} [data-act="add_time"]')
    # read by the test from the page until it shows (a wait_for_function made at once after
    # the click timed out at 30 s with the bank shown within 2 s, run after run: 3 of 3)
    want = f"{(bank + 60) // 60}:{(bank + 60) % 60:02d}"
    end = time.monotonic() + 30
    while (shown := clock_of(ref, table, seat).strip()) != want:
        assert time.monotonic() < end, (shown, want)
        ref.wait_for_timeout(200)


def test_a_referee_pauses_adds_time_voids_and_disqualifies(browser, shot, tmp_path):
    with running_server(tmp_path, SETTINGS) as base:
        boss_ctx, ref_ctx, alice_ctx = browser.new_context(), browser.new_context(), browser.new_context()
        boss, ref, alice = boss_ctx.new_page(), ref_ctx.new_page(), alice_ctx.new_page()
        accept_dialogs(ref)
        sign_up(boss, base, "boss", lobby=False)                   # the first account: an organizer
        sign_up(ref, base, "ref")
        sign_up(alice, base, "alice", lobby=False)
        for name in PLAYERS[1:]:
            r = httpx.post(base + "/api/signup", json={"username": name, "password": "correct horse"})
            assert r.status_code == 201
        # the organizer creates a round robin of four people and appoints the referee
        boss.goto(base + "/events")
        boss.select_option("select[name=preset]", "s3_xiangqi")
        boss.fill("input[name=name]", "Club night")
        boss.fill("textarea[name=players]", "\n".join(PLAYERS))
        boss.click("#create-event")
        boss.wait_for_url(re.compile(r"/events/[\w.-]+$"))
        event = boss.url.rsplit("/", 1)[1]
        boss.wait_for_selector("#appoint")
        boss.fill("#referee-name", "nobody")
        boss.click("#appoint")
        boss.wait_for_selector("#referees .error:has-text('no such account')")
        appoint_referee(boss, "ref")
        start_round(boss)
        # a player sees no console link; the referee does, and no appoint form
        alice.goto(f"{base}/events/{event}")
        alice.wait_for_selector("#referee-list")
        assert alice.locator("#console-link").count() == 0 and alice.locator("#appoint").count() == 0
        ref.goto(f"{base}/events/{event}")
        ref.click("#console-link")
        ref.wait_for_url(f"{base}/events/{event}/referee")
        ref.wait_for_selector("[data-table] .clock")
        # the console asks every 0.25 s here, its clocks change each time; what did not change is
        # not drawn again (a button drawn anew between a press's mouse down and up lost the click)
        ref.evaluate("() => { window.kept = ['#pause-round', '#ref-log > *', '#ref-disputes > *', "
                     "'#back-to-event'].map((s) => document.querySelector(s)); }")
        for _ in range(3):
            with ref.expect_request(lambda r: r.url.endswith(f"/api/events/{event}/console")):
                pass
        assert ref.evaluate("() => window.kept.map((e) => e.isConnected)") == [True] * 4
        cards = ref.locator("[data-table]")
        assert cards.count() == 2
        alice_table = ref.locator("[data-table]:has-text('alice')").get_attribute("data-table")
        other = [cards.nth(i).get_attribute("data-table") for i in range(2)
                 if cards.nth(i).get_attribute("data-table") != alice_table][0]
        card = f'[data-table="{other}"]'
        # the adjudication offers the game's results in words, by the players' names
        texts = "ns => ns.map((n) => n.textContent)"
        picks = ref.eval_on_selector_all(f"{card} select.outcome option", texts)
        names = ref.eval_on_selector_all(f"{card} .ref-clocks .n", texts)
        assert picks[1:] == [f"{names[0]} wins", f"{names[1]} wins", "drawn game",
                             "another result (type it)"], picks
        # an act without a reason is refused in words by the pressed button, before any request
        # (no HTTP 400 in the page's console), and the reason field is marked
        sent: list[str] = []
        ref.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
        ref.click(f'{card} [data-act="pause"]')
        ref.wait_for_selector(f"{card} [data-act='pause'] + .act-note:has-text('Write the reason above')")
        ref.click('[data-entrant="bob"] [data-act="warning"]')
        ref.wait_for_selector('[data-entrant="bob"] [data-act="warning"] + .act-note')
        assert ref.locator(".act-note").count() == 1                 # the last press's note only
        assert ref.get_attribute("#act-reason", "aria-invalid") == "true"
        assert not [u for u in sent if "/acts" in u], sent
        # pause: the paused tag, and the clock of the seat on turn stops
        ref.fill("#act-reason", "a phone rang")
        ref.click(f'{card} [data-act="pause"]')
        ref.wait_for_selector(f"{card} [data-paused]")
        shot(ref, "referee-paused")
        before = clock_of(ref, other, 0)
        time.sleep(2.2)
        assert clock_of(ref, other, 0) == before
        # add a minute to seat 1 (waiting: its bank shows exactly one minute more)
        add_a_minute(ref, other)
        ref.fill("#act-reason", "quiet again")
        ref.click(f'{card} [data-act="resume"]')
        ref.wait_for_selector(f"{card}:not(.paused) [data-act='pause']")
        # alice disputes from her table page; the referee rules on it
        alice.goto(f"{base}/tables/{alice_table}")
        alice.wait_for_selector("#dispute")
        # the reason is asked in the page (not window.prompt): in the page's language, at most
        # 500 characters, nothing sent while empty; Escape sends nothing, Enter sends
        native: list[str] = []
        alice.on("dialog", lambda d: (native.append(d.message), d.dismiss()))
        for lang in ("zh", "en"):
            set_lang(alice, base, lang)
            alice.goto(f"{base}/tables/{alice_table}")
            alice.click("#dispute")
            alice.wait_for_selector("#ask #ask-field:focus")
            assert alice.is_disabled('#ask [data-answer="yes"]')
            assert alice.get_attribute("#ask-field", "maxlength") == "500"
            alice.fill("#ask-field", "时钟没有开始走" if lang == "zh" else "the clock")
            asked = alice.inner_text("#ask")
            assert ("申诉什么" in asked and "送交裁判" in asked) if lang == "zh" else \
                ("What is the dispute about" in asked and "Send to the referees" in asked), asked
            for width in (1280, 390):
                alice.set_viewport_size({"width": width, "height": 844})
                shot(alice, f"referee-dispute-ask-{lang}-{width}")
            alice.set_viewport_size({"width": 1280, "height": 720})
            alice.keyboard.press("Escape")
            alice.wait_for_selector("#ask", state="detached")
            assert alice.evaluate("() => document.activeElement.id") == "dispute"
        alice.click("#dispute")
        alice.fill("#ask-field", "my opponent's clock did not start")
        alice.press("#ask-field", "Enter")
        alice.wait_for_selector("text=Your dispute was sent to the referees.")
        assert native == []
        ref.wait_for_selector("[data-dispute].open")
        assert ref.locator("[data-dispute]").count() == 1          # Escape sent nothing
        # a referee's line in the event's chat, reported by alice: the console lists it
        said = ref.request.post(f"{base}/api/events/{event}/chat", data={"text": "phones away"}).json()
        r = alice.request.post(f"{base}/api/chat/reports", data={
            "event": event, "user": said["user"], "at": said["at"], "text": said["text"], "reason": "rude"})
        assert r.status == 201, r.text()
        ref.wait_for_selector("#chat-reports [data-report]:has-text('phones away')", timeout=30_000)
        assert "alice" in ref.inner_text("#chat-reports") and "rude" in ref.inner_text("#chat-reports")
        assert "did not start" in ref.inner_text("#ref-disputes")
        ref.fill("#act-reason", "the clock started at the pairing")
        ref.click('[data-dispute].open [data-act="reject"]')
        assert "A ruling is final" in ref.inner_text("#ask-text")        # asked first
        ref.click('#ask [data-answer="yes"]')
        ref.wait_for_selector("[data-dispute].ruled:has-text('rejected')")
        # the whole round paused: the player's table page says so and its clocks stand
        ref.fill("#act-reason", "fire drill")
        ref.click("#pause-round")
        alice.wait_for_selector("#status:has-text('Paused by the referee')")
        shown = alice.inner_text(".seat.to-act .clock")
        time.sleep(1.2)
        assert alice.inner_text(".seat.to-act .clock") == shown
        ref.fill("#act-reason", "drill over")
        ref.click("#resume-round")
        alice.wait_for_selector("#status:not(:has-text('Paused by the referee'))")
        # void alice's game: the event seats it again at a new table, marked as a replayed game
        ref.fill("#act-reason", "wrong colours at the board")
        ref.click(f'[data-table="{alice_table}"] [data-act="void"]')
        assert "cannot be undone" in ref.inner_text("#ask-text")      # asked first: the game ends
        ref.click('#ask [data-answer="yes"]')
        ref.wait_for_selector(f'[data-table="{alice_table}"]', state="detached")
        alice.wait_for_selector("#status:has-text('voided by the referee')")
        ref.wait_for_selector("[data-table]:has-text('alice') .tag:has-text('replayed game')")
        replay = ref.locator("[data-table]:has-text('alice')").get_attribute("data-table")
        assert replay != alice_table
        shot(ref, "referee-console")
        check(ref, "referee console")
        # disqualify alice: her game in play is lost, and the standings rank her last
        ref.fill("#act-reason", "used a phone during play")
        ref.click('[data-entrant="alice"] [data-act="disqualify"]')
        ref.click('#ask [data-answer="yes"]')               # a disqualification asks first
        ref.wait_for_selector('[data-entrant="alice"] [data-act="disqualify"]:disabled')
        ref.wait_for_selector(f'[data-table="{replay}"]', state="detached", timeout=30_000)
        log = ref.inner_text("#ref-log")
        for words in ("pause", "time added", "resume", "ruling", "game voided", "disqualification",
                      "used a phone during play"):
            assert words in log, words
        boss.goto(f"{base}/events/{event}")
        boss.wait_for_selector("#standings [data-dq]")
        rows = boss.locator("#standings tbody tr")
        assert rows.nth(rows.count() - 1).get_attribute("data-entrant") == "alice"
        assert "disqualified" in rows.nth(rows.count() - 1).inner_text()
        shot(boss, "referee-standings")
        # a player cannot open the console: it says so in words
        alice.goto(f"{base}/events/{event}/referee")
        alice.wait_for_selector("#ref-refused:has-text('only the organizers and this event')")
        assert alice.locator("text=only the organizers and this event").count() == 1
        storage, organizer = ref_ctx.storage_state(), boss_ctx.storage_state()
        for c in (boss_ctx, ref_ctx, alice_ctx):
            c.close()
        shots(browser, base, f"/events/{event}/referee", "referee-console", shot, "[data-table]", storage)
        shots(browser, base, f"/events/{event}", "referee-event-page", shot, "#appoint", organizer)
        # the organizers read the lines reported at lobby tables on the events page (none here)
        shots(browser, base, "/events", "events-organizer", shot, "#chat-reports p:not(:empty)", organizer)
