"""A bad option value typed in the lobby's table form is refused in the page's language: the
server answers with the option error's code and parameters, and the page words them (the
option's name and the fault in Chinese in a Chinese browser, in English in an English one).
Photographed at 1280 and 390 px in both languages."""

from __future__ import annotations

import re

import pytest

from .conftest import running_server, set_width

SECRET = "e2e-password-1"
HAN = re.compile(r"[\u3400-\u9fff]")


@pytest.fixture(scope="module")
def oserver(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("qipai-opterr"),
                        "private_window_ms=300, organizers=('orgzh', 'orgen')") as base:
        yield base


@pytest.mark.parametrize("locale, want", [
    ("zh-CN", "规则选项有误：贴目必须是数字，不能是 abc"),
    ("en-US", "The rule options cannot be used: Komi must be a number, not abc"),
])
def test_a_bad_option_value_is_refused_in_the_pages_language(oserver, browser, shot, locale, want):
    ctx = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    name = f"opt{locale[:2]}"
    r = page.request.post(oserver + "/api/signup", data={"username": name, "password": SECRET})
    assert r.status in (200, 201), r.text()
    page.goto(oserver + "/")
    page.wait_for_selector("#create")
    page.select_option("select[name=game]", "go")
    page.click("details:has([data-opt]) summary")
    page.select_option("select[data-opt=scoring]", '"free_komi"')     # the scoring that takes a komi
    page.fill("input[data-opt=komi]", "abc")
    page.click("#create")
    page.wait_for_selector("#lobby-error:not(:empty)")
    text = page.inner_text("#lobby-error")
    assert text == want
    assert bool(HAN.search(text)) is (locale == "zh-CN")
    for width, height in ((1280, 900), (390, 844)):
        set_width(page, width, height)
        shot(page, f"option-error-{locale[:2]}-{width}")
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("locale, want, column", [("zh-CN", "0对选手", "组合"), ("en-US", "0 pairs", "Pair")])
def test_a_pair_events_header_counts_pairs(oserver, browser, shot, locale, want, column):
    """A pair event says what its entrants are: its header counts pairs, the entries' column
    names the pair."""
    ctx = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    name = f"org{locale[:2]}"
    r = page.request.post(oserver + "/api/signup", data={"username": name, "password": SECRET})
    assert r.status in (200, 201), r.text()
    event = f"pairs{locale[:2]}"
    r = page.request.post(oserver + "/api/events", data={"preset": "s2_tuolaji", "event_id": event,
                                                         "players": [], "registration": True})
    assert r.status in (200, 201), r.text()
    page.goto(f"{oserver}/events/{event}")
    page.wait_for_selector("#event-status")
    head = page.inner_text("h2 + div.muted")
    assert want in head, head
    assert page.inner_text("#entries th >> nth=0") == column
    for width, height in ((1280, 900), (390, 844)):
        set_width(page, width, height)
        shot(page, f"pair-event-{locale[:2]}-{width}")
    ctx.close()
