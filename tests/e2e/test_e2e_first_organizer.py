"""The sign-up page of a fresh server tells its first visitor, in both languages, that the
account they make will be the site's organizer; once an account exists it says nothing of it,
and the public answer behind it (``GET /api/signup``) tells nothing else."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from .conftest import running_server

CATALOGUES = Path(__file__).resolve().parents[2] / "qipai" / "i18n"
SHOTS = Path("/tmp/shots-botapiask")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("qipai-first"), "") as base:
        yield base


def open_signup(browser, base: str, lang: str, width: int):
    """A page of ``/signup`` in ``lang`` at ``width`` px, once it has asked ``/api/signup``."""
    ctx = browser.new_context(viewport={"width": width, "height": 800})
    page = ctx.new_page()
    page.goto(base + "/signup")
    page.evaluate(f"localStorage.setItem('lang', '{lang}')")
    with page.expect_response(lambda r: r.url.endswith("/api/signup") and r.request.method == "GET"):
        page.goto(base + "/signup")
    page.locator("form.auth-form").wait_for()
    return ctx, page


def test_the_first_sign_up_is_told_it_becomes_the_organizer(server, browser):
    SHOTS.mkdir(exist_ok=True)
    assert httpx.get(server + "/api/signup").json() == {"first_organizer": True}
    for lang in ("en", "zh"):
        words = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
        for width in (1280, 390):
            ctx, page = open_signup(browser, server, lang, width)
            note = page.locator("#first-organizer")
            note.wait_for()
            assert note.inner_text() == words["auth.firstorganizer"]
            box, form = note.bounding_box(), page.locator("form.auth-form").bounding_box()
            assert box["x"] + box["width"] <= width and box["y"] < form["y"]
            # the note's box lines up with the form's, left and right edges (it was wider)
            edges = lambda b: (round(b["x"]), round(b["x"] + b["width"]))  # noqa: E731
            assert edges(box) == edges(form), (box, form)
            page.screenshot(path=str(SHOTS / f"first-organizer-{width}-{lang}.png"), full_page=True)
            ctx.close()
    r = httpx.post(server + "/api/signup", json={"username": "founder", "password": "correct horse"})
    assert r.status_code == 201 and r.json()["role"] == "organizer", r.text
    assert httpx.get(server + "/api/signup").json() == {"first_organizer": False}
    for lang in ("en", "zh"):
        ctx, page = open_signup(browser, server, lang, 390)
        assert page.locator("#first-organizer").count() == 0
        page.screenshot(path=str(SHOTS / f"second-signup-390-{lang}.png"), full_page=True)
        ctx.close()
