"""A muted person's chat box is closed from the moment the table page opens, saying until when
and why (the moderator's reason), in the reader's language and time; it used to look open until
a line was sent and refused. Another person's box at the same table is open. Screenshots at
1280 and 390 px in both languages (/tmp/shots-loose)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from .conftest import running_server, set_width
from .test_e2e_play import SECRET, post_table, signed_in_in

SHOTS = Path("/tmp/shots-loose")


@pytest.fixture(scope="module")
def mute_server(tmp_path_factory):
    """A server whose organizer (a moderator of every chat) is ``muteboss``."""
    settings = "organizers=('muteboss',), limits=Limits(signup_ip=(100.0, 100))"
    with running_server(tmp_path_factory.mktemp("qipai-chatmuted"), settings) as base:
        yield base


def _note(page) -> str:
    return page.locator("#chat .chat-note").inner_text()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_muted_persons_chat_box_is_closed_with_its_end_and_reason_at_once(mute_server, browser, lang):
    server = mute_server
    SHOTS.mkdir(exist_ok=True)
    boss = httpx.Client(base_url=server, timeout=30)
    r = boss.post("/api/signup", json={"username": "muteboss", "password": SECRET})
    if r.status_code != 201:                  # the organizer: signed up once, signed in again
        r = boss.post("/api/login", json={"username": "muteboss", "password": SECRET})
    ctx, page, words = signed_in_in(browser, server, lang, f"hushed{lang}")
    other_ctx, other, _ = signed_in_in(browser, server, lang, f"talker{lang}")
    me = page.request.get(server + "/api/me").json()["user"]["id"]
    boss_name = boss.get("/api/me").json()["user"]["username"]
    assert boss_name == "muteboss", boss_name
    reason = "shouting" if lang == "en" else "刷屏"
    r = boss.post("/api/chat/mutes", json={"user": me, "minutes": 60, "reason": reason})
    assert r.status_code == 201, r.text
    until = r.json()["until"]

    tid = post_table(other, {"game": "xiangqi", "settings": {"clock": "none"}})
    for p in (page, other):
        p.goto(f"{server}/tables/{tid}")
        p.wait_for_selector("#chat .chat-form input", state="attached", timeout=30_000)
    # the muted person's box: closed at once, its note the mute's end (local time) and reason
    page.wait_for_function("() => document.querySelector('#chat input[name=chat]').disabled",
                           timeout=30_000)
    shown = page.evaluate("async (u) => (await import('/static/i18n.js')).localTime(u)", until)
    want = words["chat.closed.mutedWhy"].replace("{until}", shown).replace("{reason}", reason)
    assert _note(page) == want, (_note(page), want)
    assert page.locator("#chat .chat-send").is_disabled()
    assert page.locator("#chat .chat-quick button").first.is_disabled()
    assert page.get_attribute("#chat", "data-closed") == "muted"
    # the other person's box at the same table is open, with no note
    assert other.locator("#chat input[name=chat]").is_enabled()
    assert _note(other) == ""
    for width, height in ((1280, 900), (390, 844)):
        set_width(page, width, height)
        page.locator("#chat").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"chat-muted-{lang}-{width}.png"))
    boss.close()
    ctx.close()
    other_ctx.close()
