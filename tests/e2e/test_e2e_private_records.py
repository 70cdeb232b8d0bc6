"""A private table's finished game in a real browser: whoever holds the table's link opens its
replay from the table page (the link carries the table's id, the key to its record) and
downloads it; the record's address alone shows nothing; its players find it in their history,
others find it in no list (recent games of a profile, its counts). Screenshots of the replay
opened by the link at 1280 and 390 px in both languages."""

from __future__ import annotations

import re

import httpx

from ..rating_helpers import play_xiangqi, real_server, signed_up
from .conftest import running_server
from .pages import shots
from .test_e2e_ratings import as_signed_in


def test_a_private_tables_replay_opens_by_the_tables_link_only(browser, shot, tmp_path):
    with running_server(tmp_path, "nonce_window_ms=0, spectator_delay_ms=0") as base:
        tokens = signed_up(base, ("pia", "quinn", "ros"))
        rec = play_xiangqi(None, tokens["pia"], tokens["quinn"], rated=False, moves=2,
                           transport=real_server(base), private=True)
        pia = {"qipai_session": tokens["pia"]}
        table = httpx.get(f"{base}/api/records/{rec}", cookies=pia).json()["table"]
        page = browser.new_context(storage_state=as_signed_in(base, tokens["ros"])).new_page()
        page.goto(f"{base}/tables/{table}")                      # a stranger with the link
        # the table says so: one line once the game is on, what it means in its tooltip
        assert page.inner_text("#private-note").startswith("Private table")
        assert "record is unlisted" in page.get_attribute("#private-line", "title")
        page.click("#record-link")
        page.wait_for_url(re.compile(rf"/records/{rec}\?table={table}$"))
        page.wait_for_selector(".xq .pc")
        page.wait_for_selector("#replay-result")
        href = page.get_attribute("a[href*='download?format=json']", "href")
        got = page.request.get(base + href)
        assert got.status == 200 and got.json()["game"] == "xiangqi"
        page.goto(f"{base}/records/{rec}")                       # its address alone: nothing
        page.wait_for_selector("#not-found")                     # the refusal alone, the way back
        assert "No such game record" in page.inner_text("#not-found h2")
        assert page.locator(".xq .pc").count() == 0
        page.goto(f"{base}/u/pia")                               # pia's profile: no trace of it
        page.wait_for_selector("#record")
        assert page.locator(f'#history a[href^="/records/{rec}"]').count() == 0
        assert page.locator('#record [data-stat="games"] b').inner_text() == "0"
        mine = browser.new_context(storage_state=as_signed_in(base, tokens["quinn"])).new_page()
        mine.goto(f"{base}/history")                              # its player's own history has it
        mine.wait_for_selector(f'#history a[href="/records/{rec}"]')
        mine.click(f'#history a[href="/records/{rec}"]')
        mine.wait_for_selector(".xq .pc")
        # quinn played Black: the replay is drawn from Black's side, as the table was; the flip
        # button turns it to Red's side and back
        assert mine.get_attribute(".xq-files.bottom", "data-side") == "black"
        mine.click('[data-action="flip-board"]')
        assert mine.get_attribute(".xq-files.bottom", "data-side") == "red"
        mine.click('[data-action="flip-board"]')
        shots(browser, base, f"/records/{rec}?table={table}", "private-record", shot, ".xq .pc",
              storage=as_signed_in(base, tokens["ros"]))
