"""A game at a table made rated that does not count — resigned after one move each, fewer than
the two actions per seat a rated game needs (docs/server.md, ratings.MIN_PLIES_PER_SEAT) — says
so under its result, to both players, in English and Chinese; a game long enough says nothing of
the kind. Screenshots at 1280 and 390 px into /tmp/shots-tablefix."""

from __future__ import annotations

import httpx
import pytest

from ..rating_helpers import play_xiangqi, real_server
from .conftest import running_server, set_width
from .pages import set_lang
from .test_e2e_ratings import as_signed_in

SAID = {"en": "Not rated: fewer than 2 moves each", "zh": "不计等级分：双方各走不足 2 步"}


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("qipai-unrated"), "nonce_window_ms=0") as base:
        tokens = {}
        for name in ("shortann", "shortbo"):
            r = httpx.post(base + "/api/signup", json={"username": name, "password": "correct horse"})
            assert r.status_code == 201, r.text
            tokens[name] = r.cookies["qipai_session"]
        tables = []
        for moves in (2, 4):             # one move each, then two each: not rated, rated
            rec = play_xiangqi(None, tokens["shortann"], tokens["shortbo"], rated=True, moves=moves,
                               transport=real_server(base))
            tables.append(httpx.get(f"{base}/api/records/{rec}").json()["table"])
        yield base, tokens, tables


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_rated_game_too_short_to_count_says_so(games, browser, lang):
    base, tokens, (short, full) = games
    for name in ("shortann", "shortbo"):
        page = browser.new_context(storage_state=as_signed_in(base, tokens[name])).new_page()
        set_lang(page, base, lang)
        page.goto(f"{base}/tables/{short}")
        page.wait_for_selector("#not-rated")
        assert page.inner_text("#not-rated") == SAID[lang]
        for w, h in ((1280, 900), (390, 844)):
            set_width(page, w, h)
            page.screenshot(path=f"/tmp/shots-tablefix/not-rated-{name}-{lang}-{w}.png", full_page=True)
        page.goto(f"{base}/tables/{full}")             # counted: its rating change, no such words
        page.wait_for_selector("#rating-change:not(:empty)")
        assert page.locator("#not-rated").count() == 0
        page.context.close()
