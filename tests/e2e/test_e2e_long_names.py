"""A 32-character name on a phone (390 px) in both languages: the lobby's open seek of such a
player fits the screen with its accept button in view, and every page that shows the name (the
lobby's players, the profile, the history, a replay, a table's player bars) fits the phone's
width with no word broken a character a line, and no list's link wraps onto a line of its own.
Screenshots at 390 px into tests/e2e/artifacts."""

from __future__ import annotations

import httpx
import pytest

from ..rating_helpers import play_xiangqi, real_server
from .conftest import running_server
from .pages import WIDTHS, assert_fits_phone, set_lang
from .test_e2e_ratings import as_signed_in
from .test_e2e_tap_targets import OWN_LINE

LONG = "x" * 32


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("qipai-long"), "nonce_window_ms=0") as base:
        tokens = {}
        for name in (LONG, "leilei"):
            r = httpx.post(base + "/api/signup", json={"username": name, "password": "correct horse"})
            assert r.status_code == 201, r.text
            tokens[name] = r.cookies["qipai_session"]
        rec = play_xiangqi(None, tokens[LONG], tokens["leilei"], rated=False, moves=2,
                           transport=real_server(base))
        table = httpx.get(f"{base}/api/records/{rec}").json()["table"]
        yield base, tokens, rec, table


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_long_names_seek_fits_the_phone_with_its_accept_button(played, browser, shot, lang):
    base, tokens, _, _ = played
    r = httpx.post(base + "/api/seeks", json={"game": "xiangqi", "rated": True},
                   cookies={"qipai_session": tokens[LONG]})
    assert r.status_code in (200, 201), r.text
    try:
        page = browser.new_context(viewport=WIDTHS["phone"],
                                   storage_state=as_signed_in(base, tokens["leilei"])).new_page()
        set_lang(page, base, lang)
        page.goto(base + "/")
        page.wait_for_selector("#seeks [data-play-seek]")
        shot(page, f"long-name-seek-{lang}-phone")
        assert_fits_phone(page)
        box = page.locator("#seeks [data-play-seek]").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert page.evaluate("(() => { const s = document.getElementById('seeks'); "
                             "return s.parentElement.scrollWidth <= s.parentElement.clientWidth + 1; })()")
        page.context.close()
    finally:
        httpx.delete(f"{base}/api/seeks/{r.json()['id']}", cookies={"qipai_session": tokens[LONG]})


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("where", ["profile", "history", "record", "table"])
def test_every_page_showing_a_long_name_fits_the_phone(played, browser, shot, lang, where):
    base, tokens, rec, table = played
    path, ready = {"profile": (f"/u/{LONG}", "#record"),
                   "history": ("/history", "#history a[href^='/records/']"),
                   "record": (f"/records/{rec}", ".xq .pc"), "table": (f"/tables/{table}", ".xq .pc")}[where]
    viewer = "leilei" if where == "history" else LONG        # the history shows the opponents' names
    page = browser.new_context(viewport=WIDTHS["phone"],
                               storage_state=as_signed_in(base, tokens[viewer])).new_page()
    set_lang(page, base, lang)
    page.goto(base + path)
    page.wait_for_selector(ready)
    page.wait_for_function(f"() => document.querySelector('main').innerText.includes('{LONG}')")
    shot(page, f"long-name-{where}-{lang}-phone")
    assert_fits_phone(page)
    # the lists' links (the name, Replay) stay on the line of their row's words
    assert page.evaluate(OWN_LINE) == [], where
    page.context.close()
