"""Clocks read as what they are: a go table whose clock is one limit for the whole game (60
minutes, then counted) says so in words with the time left, in both languages; the referee
console shows a waiting seat's time a move on a per-move clock (never "no clock"), and its seat
pickers start at the person's seat, not a bot's."""

from __future__ import annotations

import re

import httpx

from .conftest import running_server, set_width
from .pages import set_lang
from .test_e2e_play import sign_up

GAME_CLOCK = {"en": re.compile(r"^Game clock: (59:[0-5]\d|60:00) left of 60 min for the whole game, "
                               r"then the board is counted$"),
              "zh": re.compile(r"^全局限时 60 分钟：还剩 (59:[0-5]\d|60:00)，到时数子判胜负$")}


def test_a_go_table_with_a_game_limit_says_it_in_words(server, browser, shot):
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    sign_up(page, server, "walltimer", lobby=False)
    table = page.request.post(f"{server}/api/tables", data={
        "game": "go", "bots": 1, "settings": {"clock": "go_s2_walltime"}}).json()["id"]
    for lang in ("en", "zh"):
        set_lang(page, server, lang)
        page.goto(f"{server}/tables/{table}")
        page.wait_for_selector("#game-clock:not([hidden])")
        text = page.inner_text("#game-clock")
        assert GAME_CLOCK[lang].match(text), text
        shot(page, f"go-game-clock-{lang}-phone")
        set_width(page, 1280, 900)
        assert GAME_CLOCK[lang].match(page.inner_text("#game-clock"))
        shot(page, f"go-game-clock-{lang}-desktop")
        set_width(page, 390, 844)
    ctx.close()


def test_the_referee_console_shows_a_waiting_seats_time_a_move(browser, shot, tmp_path):
    settings = "nonce_window_ms=0, limits=Limits(signup_ip=(100.0, 100), api_ip=(1000.0, 1000))"
    with running_server(tmp_path, settings) as base:
        ctx = browser.new_context()
        boss = ctx.new_page()
        sign_up(boss, base, "boss", lobby=False)                   # the first account: an organizer
        for name in ("ann",):
            assert httpx.post(base + "/api/signup", json={"username": name, "password": "correct horse"}
                              ).status_code == 201
        boss.goto(base + "/events")
        boss.select_option("select[name=preset]", "s0_xiangqi")      # 5 min a move, warnings
        boss.fill("input[name=name]", "Slow night")
        boss.fill("textarea[name=players]", "ann\nb1 random")     # a person and a bot
        boss.click("#create-event")
        boss.wait_for_url(re.compile(r"/events/[\w.-]+$"))
        event = boss.url.rsplit("/", 1)[1]
        boss.click("#start-round")
        boss.click('#ask [data-answer="yes"]')          # asked first: it cannot be undone
        boss.wait_for_selector("#start-round:disabled")
        for lang, per_move in (("en", "a move"), ("zh", "每步")):
            set_lang(boss, base, lang)
            boss.goto(f"{base}/events/{event}/referee")
            boss.wait_for_selector("[data-table] .to-act .clock")
            waiting = boss.locator("[data-table] [data-seat]:not(.to-act)")
            assert waiting.count() == 1
            text = waiting.inner_text()
            assert "no clock" not in text and "不计时" not in text, text
            assert waiting.locator(".clock").inner_text() == "5:00", text
            assert per_move in text, text
            # the seat to give time to or warn is the person's by default, never the bot's
            for act in ("time", "warn"):
                picked = boss.eval_on_selector(f'[data-table] select[data-seats="{act}"]',
                                               "e => e.selectedOptions[0].textContent")
                assert picked == "ann", (act, picked)
            shot(boss, f"referee-per-move-{lang}")
            set_width(boss, 390, 844)
            assert waiting.locator(".clock").inner_text() == "5:00"
            shot(boss, f"referee-per-move-{lang}-phone")
            set_width(boss, 1280, 900)
        ctx.close()
