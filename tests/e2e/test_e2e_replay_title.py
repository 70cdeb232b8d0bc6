"""A replay's title names the game, its players and its day in the reader's language and time
zone, "象棋 · alice 对 bob · 12月6日" / "Xiangqi · alice vs bob · Dec 6" (it said "Xiangqi #2",
the site-wide record number, for a user's first game); the number stays in the address and the
downloads. Screenshots at 1280 and 390 px in both languages."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import httpx
import pytest

from ..rating_helpers import play_xiangqi, real_server
from .conftest import running_server
from .pages import set_lang

ZONE = "Asia/Shanghai"      # a reader east of UTC: the day is the reader's, not the server's


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("qipai-title"), "nonce_window_ms=0") as base:
        tokens = {}
        for name in ("alice", "bob"):
            r = httpx.post(base + "/api/signup", json={"username": name, "password": "correct horse"})
            assert r.status_code == 201, r.text
            tokens[name] = r.cookies["qipai_session"]
        rec = play_xiangqi(None, tokens["alice"], tokens["bob"], rated=False, moves=2,
                           transport=real_server(base))
        yield base, httpx.get(f"{base}/api/records/{rec}").json()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("width", [1280, 390])
def test_a_replays_title_says_the_players_and_the_day(played, browser, shot, lang, width):
    base, rec = played
    day = datetime.fromisoformat(rec["finished"].replace("Z", "+00:00"))
    if day.tzinfo is None:
        day = day.replace(tzinfo=ZoneInfo("UTC"))
    day = day.astimezone(ZoneInfo(ZONE))
    a, b = rec["names"]
    want = {"zh": f"象棋 · {a} 对 {b} · {day.month}月{day.day}日",
            "en": f"Xiangqi · {a} vs {b} · {day:%b} {day.day}"}[lang]
    page = browser.new_context(viewport={"width": width, "height": 900}, timezone_id=ZONE).new_page()
    set_lang(page, base, lang)
    page.goto(f"{base}/records/{rec['id']}")
    title = page.wait_for_selector(".replay-title")
    assert " ".join(title.inner_text().split()) == want
    assert "#" not in title.inner_text()
    # the record's number where it belongs: the address and the downloads
    assert page.locator(f"a[href^='/api/records/{rec['id']}/download']").count() >= 1
    shot(page, f"replay-title-{lang}-{width}")
    page.screenshot(path=f"/tmp/shots-fixc/replay-title-{lang}-{width}.png")
    page.context.close()
