"""The call to an event game (competition.md §5.6 ready, §4.3 between_games) in a real browser:
a player in the lobby when his match's first game is seated is told it waits for him and taken
to his table, where it starts (no clock ran before); from game 1's finished table he is told
when game 2 starts and taken there; once the event is over within its results' appeal window,
its page says the champion is provisional. Screenshots: English at 1280 px, Chinese at 390 px."""

from __future__ import annotations

import re

from .conftest import running_server
from .pages import accept_dialogs
from .test_e2e_play import sign_up

NEW_EVENT = """async (lang) => {
  const { api } = await import("/static/app.js");
  localStorage.setItem("lang", lang);
  const id = `call-${lang}`;
  await api("POST", "/api/events", { preset: "s0_gomoku", event_id: id,
                                     players: [NAME, { id: "b1", bot: "random" }] });
  return id;
}"""


def _flow(page, base, name: str, lang: str, shot) -> None:
    page.set_viewport_size({"width": 390 if lang == "zh" else 1280, "height": 800})
    page.goto(base + "/")
    event = page.evaluate(NEW_EVENT.replace("NAME", repr(name)), lang)
    page.reload()
    page.wait_for_selector("#lobby, main")
    page.evaluate(f"""async () => {{ const {{ api }} = await import("/static/app.js");
                    await api("POST", "/api/events/{event}/start"); }}""")
    # the call's words and its place read as it appears, in one look: 3 s later the page goes to
    # the table by itself, and a read after that would find another page
    text, first_two = page.wait_for_function("""() => {
        const call = document.querySelector('#event-call[role=alert]');
        return call && [call.innerText,
                        [...document.body.children].slice(0, 2).map(e => e.className || e.id)];
    }""", timeout=30_000).json_value()
    assert ("waiting for you" in text) if lang == "en" else ("在等你" in text and "Your" not in text), text
    # the banner comes after Skip to content: that link stays the page's first Tab stop
    assert first_two == ["skip-link", "call-banner"]
    shot(page, f"call_lobby_{lang}")
    page.wait_for_url(re.compile(r"/tables/"), timeout=30_000)    # taken there: ready, it starts
    first = page.url
    page.wait_for_selector("#resign", timeout=30_000)
    if lang != "en":            # the rest reads the same in Chinese (i18n tests check the words)
        _provisional(page, base, shot)
        return
    page.click("#resign")
    page.click('#ask [data-answer="yes"]')
    # game 2: the pause, counted down on game 1's finished table, read as the call appears (3 s
    # later the page goes to game 2's table by itself: a wait for game 1's record link first, which
    # a loaded machine writes late, could outlast that)
    text = page.wait_for_function("""() => {
        const call = document.querySelector('#event-call .call-text');
        return document.querySelector('#status.over, #record-link') && call && call.textContent;
    }""", timeout=60_000).json_value()
    assert re.search(r"next game starts in \d+ s", text), text
    shot(page, f"call_between_{lang}")
    page.wait_for_url(lambda u: "/tables/" in u and u != first, timeout=30_000)
    notice = page.wait_for_selector("#hold-notice, #resign", timeout=30_000)
    if notice.get_attribute("id") == "hold-notice":
        shot(page, f"call_hold_{lang}")
    page.wait_for_selector("#resign", timeout=30_000)              # it started by itself


def _provisional(page, base, shot) -> None:
    """An event over while its results are within their appeal window (§5.7): its page names the
    champion provisionally. (A game played on paper, its result entered by the referee.)"""
    out = page.evaluate("""async () => {
      const { api } = await import("/static/app.js");
      const ev = await api("POST", "/api/events", { preset: "s3_xiangqi", event_id: "prov",
                                                    players: ["alice", { id: "b9", bot: "random" }] });
      const game = ev.rounds[0].matches[0].games[0].id;
      await api("POST", "/api/events/prov/acts",
                { act: "enter_result", game, result: "1-0", reason: "score sheet" });
      return (await api("GET", "/api/events/prov")).status; }""")
    assert out == "finished", out
    page.goto(f"{base}/events/prov")
    note = page.wait_for_selector("#provisional-note", timeout=30_000).inner_text()
    assert note.startswith("暂定") and "1" in note, note
    shot(page, "call_event_provisional_zh")


def test_the_call_takes_the_player_to_each_game_of_his_match(browser, shot, tmp_path):
    # 10 s between games: game 1's page, which asks every 0.75 s, shows the countdown before game 2
    # starts, even when a loaded machine holds its first look back by seconds
    settings = "event_ready_grace_ms=600000, event_between_games_ms=10000, organizers=('xiaoming',)"
    with running_server(tmp_path, settings) as base:
        for name, lang in (("alice", "en"), ("xiaoming", "zh")):
            ctx = browser.new_context()
            page = ctx.new_page()
            accept_dialogs(page)
            sign_up(page, base, name, lobby=False)               # both organizers: each makes his own event
            _flow(page, base, name, lang, shot)
            ctx.close()


def test_the_call_folds_to_a_slim_strip_on_a_phone(browser, shot, tmp_path):
    # the call sat on top of every page, 104 px of a phone's screen over a replay or a table's
    # seats, with no way to put it away: its ✕ folds it to a strip (kept so on the tab's other
    # pages), and on a phone the whole call scrolls away with the page
    settings = "event_ready_grace_ms=600000, organizers=('alice',)"
    with running_server(tmp_path, settings) as base:
        ctx = browser.new_context(viewport={"width": 390, "height": 844})
        page = ctx.new_page()
        sign_up(page, base, "alice", lobby=False)
        page.goto(base + "/history")                  # a page the call never leaves by itself
        page.evaluate(NEW_EVENT.replace("NAME", repr("alice")), "en")
        page.evaluate("""async () => { const { api } = await import("/static/app.js");
                         await api("POST", "/api/events/call-en/start"); }""")
        page.reload()
        call = page.wait_for_selector("#event-call", timeout=30_000)
        assert page.evaluate("getComputedStyle(document.querySelector('#event-call')).position") == "static"
        assert call.bounding_box()["height"] > 60
        page.click("#call-hide")
        page.wait_for_selector("#event-call.folded")
        assert call.bounding_box()["height"] <= 40, call.bounding_box()
        assert page.is_visible("#call-go") and not page.is_visible("#event-call .call-text")
        shot(page, "call_folded_en_390")
        page.goto(base + "/leaderboard")                # folded on the tab's next page too
        page.wait_for_selector("#event-call.folded", timeout=30_000)
        page.click("#call-hide")                        # and opened again
        page.wait_for_selector("#event-call:not(.folded) .call-text")
        ctx.close()
