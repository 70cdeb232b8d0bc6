"""The replay of a mahjong match of several hands (an event's match: 4 or 16 hands) lists every
hand, not only the last: the turns of each hand one after another, each hand headed by its number
("Hand 2/4", "第2/4局"), and a click on a turn of an earlier hand shows the table in that hand.
(At the table, while the match goes on, the list is the hand in play, as on Tenhou and Mahjong
Soul; the earlier hands are the replay's.) Screenshots at 1280 and 390 px into /tmp/shots-state."""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

import qipai
from qipai.bots import make_bot
from qipai.match import BotPlayer, play_game_sync
from qipai.server.models import RecordRow

from ..conftest import migrated_sqlite
from .conftest import running_server, set_width
from .pages import set_lang

HEADS = {"en": [f"Hand {n}/4" for n in range(1, 5)], "zh": [f"第{n}/4局" for n in range(1, 5)]}


@pytest.fixture(scope="module")
def match(tmp_path_factory):
    """A server whose database holds one stored 4-hand Guobiao match of random bots (record 1)."""
    data = tmp_path_factory.mktemp("qipai-mj-hands")
    game = qipai.load("mahjong-gb", hands_per_match=4)
    # played in a thread of its own: play_game_sync runs an event loop, and the browser tests of
    # this worker may already run Playwright's loop in this thread
    with ThreadPoolExecutor(1) as pool:
        bots = [BotPlayer(make_bot("mahjong-gb", "random", seed=s)) for s in range(4)]
        out = pool.submit(play_game_sync, game, bots, names=["bot:random"] * 4).result()
    assert out.state.hand_no == 4
    shutil.copyfile(migrated_sqlite(), data / "qipai.db")
    engine = create_engine(f"sqlite:///{data}/qipai.db")
    with Session(engine) as s:
        s.add(RecordRow(id=1, table_id=None, game="mahjong-gb", players=[None] * 4, names=["bot:random"] * 4,
                        result=out.record.to_json()["result"], record=out.record.to_json()))
        s.commit()
    engine.dispose()
    with running_server(data) as base:
        # the replay's steps of a long match are worked out once, on the first call: done here
        assert httpx.get(f"{base}/api/records/1/steps", timeout=120).status_code == 200
        yield base


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_replay_lists_every_hand_of_the_match(match, browser, lang):
    page = browser.new_context().new_page()
    set_lang(page, match, lang)
    page.goto(f"{match}/records/1")
    page.wait_for_selector("#movelist .mj-turn")
    heads = page.locator("#movelist .mj-hand-no")
    assert heads.all_inner_texts() == HEADS[lang]
    # a step of hand 2: the table shows hand 2
    second = page.locator("#movelist .mj-turn", has=page.locator(".mj-hand-no", has_text=HEADS[lang][1]))
    second.locator(".ml-move").first.click()
    page.wait_for_function("(t) => document.querySelector('.mj-info').textContent.includes(t)",
                           arg=HEADS[lang][1])
    for w, h in ((1280, 900), (390, 844)):
        set_width(page, w, h)
        page.screenshot(path=f"/tmp/shots-state/mj-hands-{lang}-{w}.png", full_page=True)
    page.context.close()
