"""What the page files share (``test_e2e_pages*.py`` and the event, referee and registration
files): the two widths, a page's language, screenshots of a page at both widths in both
languages with the phone-width checks, an event run from the command line, and an event's
state as its API gives it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import httpx

#: ms to wait for a server's first event to be made: it took 7.5 s on a machine at a load of 17
#: (the next one 0.1 s), and past Playwright's 30 s under heavier load
FIRST_EVENT_MS = 90_000
WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def set_lang(page, base, lang):
    page.goto(base + "/api/me")          # any page of the site, to reach its storage
    page.evaluate(f"localStorage.setItem('lang', '{lang}')")


def shots(browser, base, path, name, shot, ready, storage=None):
    """Screenshots of ``path`` at both widths in both languages; at phone width nothing is wider
    than the screen and no word is broken a character a line. Returns nothing. One context (a
    new one and its renderer cost seconds on a loaded machine), sized before the page is loaded
    anew for each width and language."""
    ctx = browser.new_context(viewport=WIDTHS["desktop"], storage_state=storage)
    page = ctx.new_page()
    for kind, size in WIDTHS.items():
        page.set_viewport_size(size)
        for lang in ("en", "zh"):
            if page.url.startswith(base):       # on the site: its storage is at hand (no detour)
                page.evaluate(f"localStorage.setItem('lang', '{lang}')")
            else:
                set_lang(page, base, lang)
            page.goto(base + path)
            page.wait_for_selector(ready)
            shot(page, f"{name}-{lang}-{kind}")
            assert_no_raw_values(page)
            if kind == "phone":
                assert_fits_phone(page)
    ctx.close()


def assert_no_raw_values(page):
    """No text of the page is a script's raw value (``null``, ``undefined``, ``NaN``, ``[object
    Object]``): a missing part written out by the DOM (issue 13: "null" beside the round's
    pause buttons of the referee console)."""
    raw = page.evaluate(r"""() => { const out = [], w = document.createTreeWalker(document.body,
        NodeFilter.SHOW_TEXT); let n; while ((n = w.nextNode())) { const s = n.textContent.trim();
        if (/^(null|undefined|NaN)$|\[object Object\]/.test(s)) out.push(s); } return out; }""")
    assert raw == [], raw


def assert_fits_phone(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # a list of games, events, tables, tokens or seeks fits its box too (its scrolling box would hide the cut)
    assert page.evaluate("""() => [...document.querySelectorAll(
        '#history,#event-list,#tables,#token-list,#seeks')]
        .every((t) => t.parentElement.scrollWidth <= t.parentElement.clientWidth + 1)""")
    # no text stands one character a line (Chinese in a squeezed table cell would): a box whose
    # text of 3 or more letters takes about as many lines as it has letters
    squeezed = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter((e) => e.offsetParent && e.children.length === 0)
        .filter((e) => {
            const chars = e.innerText.replace(/\\s/g, '').length;
            if (chars < 3) return false;
            const r = document.createRange(); r.selectNodeContents(e);
            const lines = new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
            return lines >= 3 && lines * 2 > chars;
        })
        .map((e) => e.innerText)""")
    assert squeezed == []


def pts(x: float) -> str:
    """Points as the page writes them: 1.5 -> "1½", 0.5 -> "½", 2.0 -> "2"."""
    whole = int(x)                               # towards zero, as the page's Math.trunc
    if abs(x - whole) != 0.5:
        return f"{x:g}".replace("-", "−")
    return ((str(whole) if whole else "-" if x < 0 else "") + "½").replace("-", "−")


def two_people(browser, base):
    """Two signed-up people, each in a context of their own: the organizer alice (the site's
    first account, who accepts every dialog) and bob. Returns (alice's page, bob's page)."""
    from .test_e2e_play import sign_up
    alice, bob = browser.new_context().new_page(), browser.new_context().new_page()
    accept_dialogs(alice)
    sign_up(alice, base, "alice", lobby=False)
    sign_up(bob, base, "bob", lobby=False)
    return alice, bob


def waiting_event(alice, bob, base, event_id: str) -> dict:
    """A gomoku final of ``bob`` and a bot (entrant ``b1``) made and started by the organizer
    ``alice`` while bob is away, on a server whose event games wait for their players
    (``event_ready_grace_ms``): its game waits at its table. The start's answer (its "tables")."""
    bob.goto("about:blank")                          # bob is away: his game waits for him
    alice.goto(base + "/events")
    made = alice.evaluate("""async (id) => {
      const post = (u, b) => fetch(u, { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(b) }).then((r) => r.json());
      await post("/api/events", { preset: "s0_gomoku", event_id: id,
        players: ["bob", { id: "b1", bot: "random" }] });
      return post(`/api/events/${id}/start`, {});
    }""", event_id)
    assert made["tables"], made
    return made


def create_event(page, base, preset: str, name: str, players: list[str]) -> str:
    """The organizer on ``page`` makes an event with the form of /events; returns its id."""
    page.goto(base + "/events")
    page.select_option("select[name=preset]", preset)
    page.fill("input[name=name]", name)
    page.fill("textarea[name=players]", "\n".join(players))
    page.click("#create-event")
    page.wait_for_url(re.compile(r"/events/[\w.-]+$"))
    return page.url.rsplit("/", 1)[1]


def appoint_referee(boss, name: str) -> None:
    """On the event page, the organizer appoints the account ``name`` referee."""
    boss.fill("#referee-name", name)
    boss.click("#appoint")
    boss.wait_for_selector(f"#referee-list:has-text('{name}')")


def start_round(boss) -> None:
    """On the event page, the organizer starts the next round (asked first: it cannot be
    undone); the button is then disabled."""
    boss.click("#start-round")
    boss.click('#ask [data-answer="yes"]')
    boss.wait_for_selector("#start-round:disabled")


def both_see_the_outcome(pages, base, record: str, opponents) -> None:
    """Each of the two players' ``pages`` finds game ``record`` in its history (/history), naming
    its opponent (``opponents``, in the same order) and its outcome in words; one won, one lost."""
    outcomes = set()
    for page, opponent in zip(pages, opponents, strict=True):   # each sees the other
        page.goto(base + "/history")
        page.wait_for_selector(f'[data-record="{record}"]')
        row = page.locator(f'[data-record="{record}"]')
        assert opponent in row.inner_text()
        assert re.search("You won|You lost|你赢了|你输了", row.inner_text()), row.inner_text()
        outcomes.add(row.locator("[data-outcome]").get_attribute("data-outcome"))
    assert outcomes == {"won", "lost"}


def accept_dialogs(page):
    page.on("dialog", lambda d: d.accept())


def run_from_command_line(data, preset: str, bots: int) -> None:
    """``qipai event new --preset P --bots N && qipai event run`` on the database in ``data``."""
    env = {**os.environ, "QIPAI_DATABASE_URL": f"sqlite:///{data}/qipai.db"}
    qipai = [sys.executable, "-m", "qipai.cli"]
    for args in (["event", "new", "--preset", preset, "--bots", str(bots)], ["event", "run"]):
        subprocess.run([*qipai, *args], env=env, check=True, capture_output=True, timeout=300)


def event_json(base, event):
    return httpx.get(f"{base}/api/events/{event}").json()


def live_games(base, event):
    """(table, seats) of each pending game of the event that sits at a live table."""
    ev = event_json(base, event)
    return [(g["table"], g["seats"]) for r in ev["rounds"] for m in r["matches"] for g in m["games"]
            if g["status"] == "pending" and g["table"]]


def wait_for(fn, what, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = fn()
        if got:
            return got
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def xiangqi_event_started(base, subnet: str) -> tuple[httpx.Client, str]:
    """The accounts boss (the organizer: the first), alice and carol signed up by the API (each
    from its own address of ``subnet``, e.g. "10.7.0"), and boss's event "xq" (S3 xiangqi, alice
    against carol) started: boss's client and the table of its game."""
    clients = {}
    for i, name in enumerate(("boss", "alice", "carol")):
        c = httpx.Client(base_url=base, timeout=30)
        r = c.post("/api/signup", json={"username": name, "password": "correct horse"},
                   headers={"X-Forwarded-For": f"{subnet}.{i + 1}"})
        assert r.status_code == 201, r.text
        clients[name] = c
    boss = clients["boss"]
    r = boss.post("/api/events", json={"preset": "s3_xiangqi", "event_id": "xq",
                                       "players": ["alice", "carol"]})
    assert r.status_code == 201, r.text
    return boss, boss.post("/api/events/xq/start").json()["tables"][0]
