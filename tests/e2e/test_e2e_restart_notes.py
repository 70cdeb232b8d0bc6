"""What a finished game's page says beside its result outlives the server (competition.md §4.7):
after the server is stopped and started again, a rated game too short to count still says "Not
rated: fewer than 2 moves each" at its table, on its replay and in its players' history, and a
game nobody began still says who did not make the first move. Both languages; screenshots at
1280 and 390 px into /tmp/shots-state."""

from __future__ import annotations

import time

import httpx
import pytest

from ..rating_helpers import play_xiangqi, real_server
from .conftest import running_server, set_width
from .pages import set_lang
from .test_e2e_ratings import as_signed_in

SETTINGS = "first_move_ms=1500, nonce_window_ms=0"
NOT_RATED = {"en": "Not rated: fewer than 2 moves each", "zh": "不计等级分：双方各走不足 2 步"}
ABORTED = {"en": "Game aborted: rsann did not make the first move in time; it counts for nobody",
           "zh": "对局已中止：rsann 未在时限内走第一步，本局不计胜负"}
SHOTS = "/tmp/shots-state"


@pytest.fixture(scope="module")
def restarted(tmp_path_factory):
    """A server that played a short rated game, a rated game that counted and a game aborted at
    its first move, stopped, then started again on the same database: its base URL, the two
    accounts' tokens and the games' ids."""
    data = tmp_path_factory.mktemp("qipai-restart-notes")
    with running_server(data, SETTINGS) as base:
        tokens = {}
        for name in ("rsann", "rsbo"):
            r = httpx.post(base + "/api/signup", json={"username": name, "password": "correct horse"})
            assert r.status_code == 201, r.text
            tokens[name] = r.cookies["qipai_session"]
        records = [play_xiangqi(None, tokens["rsann"], tokens["rsbo"], rated=True, moves=moves,
                                transport=real_server(base)) for moves in (2, 4)]
        tables = [httpx.get(f"{base}/api/records/{rec}").json()["table"] for rec in records]
        made = httpx.post(base + "/api/tables", json={"game": "xiangqi", "settings": {}},
                          cookies={"qipai_session": tokens["rsann"]})
        aborted = made.json()["id"]
        sat = httpx.post(f"{base}/api/tables/{aborted}/sit", cookies={"qipai_session": tokens["rsbo"]})
        assert sat.status_code == 200, sat.text
        deadline = time.monotonic() + 30
        while httpx.get(f"{base}/api/tables/{aborted}").json()["status"] != "aborted":
            assert time.monotonic() < deadline, "the game was not aborted"
            time.sleep(0.1)
    with running_server(data, SETTINGS) as base:
        yield base, tokens, records, tables, aborted


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_not_rated_note_and_the_abort_reason_outlive_a_restart(restarted, browser, lang):
    base, tokens, (short_rec, full_rec), (short, full), aborted = restarted
    page = browser.new_context(storage_state=as_signed_in(base, tokens["rsbo"])).new_page()
    set_lang(page, base, lang)
    page.goto(f"{base}/tables/{short}")
    page.wait_for_selector("#not-rated")
    assert page.inner_text("#not-rated") == NOT_RATED[lang]
    page.goto(f"{base}/tables/{full}")                  # counted: its rating change, no such words
    page.wait_for_selector("#rating-change:not(:empty)")
    assert page.locator("#not-rated").count() == 0
    page.goto(f"{base}/records/{short_rec}")
    page.wait_for_selector("#replay-not-rated")
    assert page.inner_text("#replay-not-rated") == NOT_RATED[lang]
    shoot(page, f"replay-not-rated-{lang}")
    page.goto(f"{base}/records/{full_rec}")
    page.wait_for_selector("#replay-result")
    assert page.locator("#replay-not-rated").count() == 0
    page.goto(f"{base}/history")
    page.wait_for_selector(f'[data-record="{full_rec}"]')
    assert page.inner_text(f'[data-record="{short_rec}"] .not-rated') == NOT_RATED[lang]
    assert page.locator(f'[data-record="{full_rec}"] .not-rated').count() == 0
    shoot(page, f"history-not-rated-{lang}")
    page.goto(f"{base}/tables/{aborted}")
    page.wait_for_function("(t) => document.querySelector('#status')?.textContent === t",
                           arg=ABORTED[lang])
    shoot(page, f"aborted-restarted-{lang}")
    page.context.close()


def shoot(page, name: str) -> None:
    for w, h in ((1280, 900), (390, 844)):
        set_width(page, w, h)
        page.screenshot(path=f"{SHOTS}/{name}-{w}.png", full_page=True)
    set_width(page, 1280, 900)
