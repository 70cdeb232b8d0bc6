"""An engine the organizer offers (``qipai serve --engine``), in a real browser: the lobby
lists it with the game's bots in words, a table seats it against the player, and the table
page names its seat; both languages, at desktop and phone widths."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import running_server
from tests.e2e.test_e2e_play import sign_up

ENGINE = ("engines=(__import__('qipai.engines', fromlist=['EngineSpec']).EngineSpec("
          "'fsf', '/usr/games/fairy-stockfish', 'uci', {'depth': 1}),)")


@pytest.fixture(scope="module")
def eserver(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("qipai-engines"), ENGINE) as base:
        yield base


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_player_meets_an_engine_from_the_lobby(eserver, browser, shot, lang):
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US",
                              viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    sign_up(page, eserver, f"{lang}engineplayer")
    page.select_option("select[name=game]", "xiangqi")
    options = page.locator("select[name=bot] option")
    labels = {options.nth(i).get_attribute("value"): options.nth(i).inner_text()
              for i in range(options.count())}
    assert labels["engine:fsf"] == ("Engine fsf" if lang == "en" else "引擎 fsf")
    page.select_option("select[name=bot]", "engine:fsf")
    shot(page, f"engines-lobby-{lang}-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, f"engines-lobby-{lang}-390")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.select_option("select[name=bots]", "1")
    page.click("#create")
    page.wait_for_url(re.compile(r"/tables/\w+$"))
    page.wait_for_selector('#status[data-seq="0"]', timeout=30_000)
    page.click('[data-sq="h2"]')
    page.click('[data-sq="e2"]')
    page.wait_for_selector('#status[data-seq="2"]', timeout=30_000)   # the engine answered
    body = page.inner_text("body")
    assert ("Engine fsf" if lang == "en" else "引擎 fsf") in body and "engine:fsf" not in body
    shot(page, f"engines-table-{lang}-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, f"engines-table-{lang}-390")
    ctx.close()
