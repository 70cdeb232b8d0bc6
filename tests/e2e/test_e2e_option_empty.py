"""The lobby's table form says what an option left empty means: shengji's dealer boxes were
blank number boxes (a seat typed as 0..3) and its team levels and must-play levels blank too.
The dealer and the provisional dealer are picked as "Seat 1" … "Seat 4", their first choice
saying what happens without one ("Hand 1: the first to declare deals", "Drawn by lot"); an
empty level box reads the starting level it stands for, following that box. A table made with
a seat picked is dealt by that seat. Screenshots at 1280 and 390 px in both languages
(/tmp/shots-ui13)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import set_width
from .test_e2e_play import signed_in_in

SHOTS = Path("/tmp/shots-ui13")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_shengji_options_say_what_empty_means(server, browser, lang):
    SHOTS.mkdir(exist_ok=True)
    ctx, page, words = signed_in_in(browser, server, lang, f"sjempty{lang}")
    page.wait_for_selector("#create")
    page.select_option("select[name=game]", "shengji")
    page.click("details:has([data-opt]) summary")
    # the seats: their first choice says what empty means, then Seat 1 … Seat 4
    for name in ("dealer", "provisional_dealer"):
        options = page.locator(f'select[data-opt="{name}"] option')
        seats = [words["lobby.seatoption"].replace("{n}", str(n)) for n in range(1, 5)]
        assert options.all_inner_texts() == [words[f"optempty.shengji.{name}"], *seats]
        assert page.input_value(f'select[data-opt="{name}"]') == "null"
    # the level boxes: empty, saying the starting level they stand for (following its box)
    level = words["optempty.shengji.team0_level"]
    for name in ("team0_level", "team1_level"):
        box = page.locator(f'input[data-opt="{name}"]')
        assert box.input_value() == ""
        assert box.get_attribute("placeholder") == level.replace("{value}", "2")
    assert page.get_attribute('input[data-opt="must_play_levels"]', "placeholder") == \
        words["optempty.shengji.must_play_levels"]
    page.fill('input[data-opt="start_level"]', "5")
    page.wait_for_function("(want) => document.querySelector('[data-opt=team1_level]').placeholder === want",
                           arg=level.replace("{value}", "5"))
    page.fill('input[data-opt="start_level"]', "2")
    # no box of the form is left blank without words
    blank = page.evaluate("""() => [...document.querySelectorAll('input[data-opt]:not([type=checkbox])')]
        .filter((i) => !i.value && !i.placeholder).map((i) => i.dataset.opt)""")
    assert blank == []
    for width, height in ((1280, 900), (390, 844)):
        set_width(page, width, height)
        page.locator('[data-opt-field="dealer"]').scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"lobby-shengji-options-{lang}-{width}.png"))
    if lang == "en":
        # a seat picked is the game's seat (Seat 2 = seat 1): the table is made with it
        set_width(page, 1280, 900)
        page.select_option('select[data-opt="dealer"]', "1")
        with page.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST") as sent:
            page.click("#create")
        # what was left empty is not sent: the game decides it
        assert sent.value.post_data_json["options"] == {"dealer": 1}, sent.value.post_data_json
        page.wait_for_url("**/tables/*", timeout=30_000)
        tid = page.url.rsplit("/", 1)[1]
        info = page.evaluate("async (t) => (await (await fetch(`/api/tables/${t}`)).json())", tid)
        made = info["options"]
        assert made["dealer"] == 1 and made["provisional_dealer"] is None, made
    ctx.close()
