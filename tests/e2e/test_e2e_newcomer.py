"""What a newcomer meets first, in both languages at 1280 and 390 px: the sign-up and sign-in
forms (each label above its field, the new account's rules under it, a link to the other form),
an unknown event's address (the refusal and a link to the list, no event panels), the event
list at phone width (a long event name wraps instead of running off the screen), and the bots of
a lost card game named in words in the history's result, never by their ids ("bot:rule")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import running_server
from .test_e2e_play import create_table, sign_up

CATALOGUES = Path(__file__).resolve().parents[2] / "qipai" / "i18n"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A fresh server whose organizer is ``listboss`` (the first sign-up is a newcomer)."""
    with running_server(tmp_path_factory.mktemp("qipai-newcomer"), "organizers=('listboss',)") as base:
        yield base


@pytest.mark.parametrize(("lang", "widths"), [("en", (1280, 390)), ("zh", (390,))])
def test_forms_and_unknown_event(server, browser, shot, lang, widths):
    words = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    for width in widths:
        ctx = browser.new_context(viewport={"width": width, "height": 800})
        page = ctx.new_page()
        page.goto(server + "/signup")
        page.evaluate(f"localStorage.setItem('lang', '{lang}')")
        page.goto(server + "/signup")
        form = page.locator("form.auth-form")
        form.wait_for()
        text = form.inner_text()
        assert words["auth.usernamehint"] in text and words["auth.passwordhint"] in text
        label, field = form.locator("label.field").first.locator("span"), page.locator("input[name=username]")
        assert label.bounding_box()["y"] + label.bounding_box()["height"] <= field.bounding_box()["y"] + 1
        shot(page, f"newcomer-signup-{width}-{lang}")
        page.click("#auth-switch a")
        page.wait_for_url("**/login")
        page.wait_for_selector("#auth-switch")
        assert words["auth.usernamehint"] not in page.locator("form.auth-form").inner_text()
        page.click("#auth-switch a")
        page.wait_for_url("**/signup")

        sign_up(page, server, f"{lang}new{width}")

        page.goto(server + "/events/no-such-cup")
        page.wait_for_selector("#no-event")
        assert page.inner_text("#no-event") == words["error.no_event"]
        assert page.locator("#referees").count() == 0 and page.locator("a[href='/events']").count() >= 1
        shot(page, f"newcomer-noevent-{width}-{lang}")
        ctx.close()


def test_long_event_name_wraps_at_phone_width(server, browser, shot):
    ctx = browser.new_context(viewport={"width": 390, "height": 800})
    page = ctx.new_page()
    sign_up(page, server, "listboss")
    players = [{"id": f"b{i}", "bot": "random"} for i in range(4)]
    event = {"preset": "s3_gomoku", "event_id": "long-name-cup", "name": "A very long event name " * 4,
             "players": players}
    r = page.request.post(server + "/api/events", data=event, headers={"Origin": server})
    assert r.status == 201, r.text()
    page.goto(server + "/events")
    page.wait_for_selector("#event-list a[href='/events/long-name-cup']")
    sizes = page.evaluate("(() => { const t = document.querySelector('#event-list');"
                          " return [t.scrollWidth, t.parentElement.clientWidth]; })()")
    assert sizes[0] <= sizes[1], sizes
    shot(page, "newcomer-eventlist-390")
    ctx.close()


def test_history_names_bots_in_words(server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.on("dialog", lambda d: d.accept())
    sign_up(page, server, "cardnewcomer")
    page.select_option("select[name=game]", "doudizhu")
    create_table(page, bots=2)
    page.wait_for_selector("#resign")
    page.click("#resign")
    page.wait_for_selector("#record-link", timeout=15_000)
    page.goto(server + "/history")
    outcome = page.locator("#history td.outcome")
    outcome.first.wait_for()
    words = json.loads((CATALOGUES / "en.json").read_text(encoding="utf-8"))
    text = outcome.first.inner_text()
    assert "bot:" not in text, text                 # the result line is worded, no seat codes
    opponents = page.locator("#history td.opponents").first.inner_text()
    assert "bot:" not in opponents and words["botseat"].split("{")[0].strip() in opponents, opponents
    page.context.close()
