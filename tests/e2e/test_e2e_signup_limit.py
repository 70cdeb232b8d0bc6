"""Sign-ups from one address, on a real server with the default limits: a school's or club's room
of players behind one internet address signs up together (30 in a row), the next one is refused
with words on the sign-up page ("Too many sign-ups from this network; try again in N s"), and an
operator raises the limit ($QIPAI_SIGNUPS_PER_ADDRESS, as ``qipai serve --signups-per-address``)."""

from __future__ import annotations

import re

import httpx

from .conftest import running_server
from .pages import set_lang
from .test_e2e_play import SECRET

WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def signups(base, names):
    with httpx.Client(base_url=base, timeout=30) as c:
        return [c.post("/api/signup", json={"username": n, "password": SECRET}) for n in names]


def test_a_room_signs_up_together_and_the_next_is_refused_in_words(browser, shot, tmp_path):
    # the server's own limits (no signup_ip given): not the tests' raised one
    with running_server(tmp_path) as base:
        answers = signups(base, [f"pupil{i}" for i in range(30)])
        refused = [r.text for r in answers if r.status_code != 201]
        assert [r.status_code for r in answers] == [201] * 30, refused
        r = signups(base, ["pupil30"])[0]
        assert r.status_code == 429 and r.json()["error"] == "rate_limited", r.text
        assert r.json()["limit"] == "signup" and r.json()["retry_after"] > 0
        words = {"en": r"^Too many sign-ups from this network; try again in \d+ s\.",
                 "zh": r"^这个网络注册的账号太多，请 \d+ 秒后再试。"}
        ctx = browser.new_context(viewport=WIDTHS["desktop"])
        page = ctx.new_page()
        for lang in ("en", "zh"):
            set_lang(page, base, lang)
            for kind, size in WIDTHS.items():
                page.set_viewport_size(size)
                page.goto(base + "/signup")
                page.fill("input[name=username]", f"late_{lang}_{kind}")
                page.fill("input[name=password]", SECRET)
                page.click("button[type=submit]")
                page.wait_for_selector(".error:not(:empty)", timeout=30_000)
                said = page.inner_text(".error")
                assert re.search(words[lang], said), said
                shot(page, f"signup-limited-{lang}-{kind}")
        ctx.close()


def test_an_operator_raises_the_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("QIPAI_SIGNUPS_PER_ADDRESS", "35")     # the server process inherits it
    with running_server(tmp_path) as base:
        codes = [r.status_code for r in signups(base, [f"club{i}" for i in range(36)])]
        assert codes == [201] * 35 + [429]
