"""Ratings in a real browser against a real server: two people play rated games, then the
profile shows the ratings (provisional marked), the rating-history chart with a point per game,
the results and the recent games with replay links; the leaderboard lists the established
players best first; a player who hides their history shows others only the ratings. The lobby's
form makes rated tables. Screenshots at 1280 and 390 px in both languages."""

from __future__ import annotations

import sqlite3

import httpx
import pytest

from ..rating_helpers import play_xiangqi, real_server
from .conftest import running_server
from .pages import shots
from .test_e2e_a11y import check


@pytest.fixture(scope="module")
def rated(tmp_path_factory):
    """A server where ann and bob played three rated games (ann won two) and five more
    players have established go blitz ratings: ``(base, tokens by name)``."""
    data = tmp_path_factory.mktemp("qipai-ratings")
    with running_server(data, "nonce_window_ms=0, spectator_delay_ms=0") as base:
        tokens = {}
        for name in ("ann", "bob", "cai"):
            r = httpx.post(base + "/api/signup", json={"username": name, "password": "correct horse"})
            assert r.status_code == 201, r.text
            tokens[name] = r.cookies["qipai_session"]
        transport = real_server(base)
        records = [play_xiangqi(None, tokens["ann"], tokens["bob"], resigner=loser, transport=transport)
                   for loser in (1, 0, 1)]
        tokens["last_table"] = httpx.get(f"{base}/api/records/{records[-1]}").json()["table"]
        with sqlite3.connect(data / "qipai.db") as db:      # established players of another board
            ids = dict(db.execute("SELECT username, id FROM users"))
            for name, rating, dev in (("ann", 1840, 62), ("bob", 1710, 75), ("cai", 1655, 90)):
                db.execute("INSERT INTO ratings (user_id, game, time_class, system, rating, deviation,"
                           " volatility, games, updated) VALUES (?, 'go', 'blitz', 'glicko2', ?, ?, 0.06, 24,"
                           " '2026-12-01T10:00:00+00:00')", (ids[name], rating, dev))
        yield base, tokens


def as_signed_in(base: str, token: str) -> dict:
    return {"cookies": [{"name": "qipai_session", "value": token, "domain": "127.0.0.1", "path": "/"}],
            "origins": []}


def test_profile_shows_ratings_chart_and_games(rated, browser, shot):
    base, tokens = rated
    page = browser.new_context(storage_state=as_signed_in(base, tokens["cai"])).new_page()
    page.goto(base + "/u/ann")
    page.wait_for_selector("#rating-chart svg")
    row = page.locator('[data-rating="xiangqi/slow"]')
    assert row.locator("b").inner_text().endswith("?")             # three games: provisional
    # what the "?" means, on hover and to a screen reader (ratings.py: 5 rated games)
    why = "Provisional rating: fewer than 5 rated games (3 so far)"
    assert row.locator("td[title]", has=page.locator("b")).get_attribute("title") == why
    assert row.locator(".sr-only").inner_text().endswith(why)
    assert row.locator("b [aria-hidden=true]").count() == 1
    assert page.locator('[data-rating="go/blitz"] .sr-only').count() == 0   # established: the number
    assert "fewer than 5 rated games" in page.inner_text("#provisional-note")   # a phone has no hover
    zh = browser.new_context(locale="zh-CN", storage_state=as_signed_in(base, tokens["cai"])).new_page()
    zh.goto(base + "/api/me")
    zh.evaluate("localStorage.setItem('lang', 'zh')")
    zh.goto(base + "/u/ann")
    zh.wait_for_selector('[data-rating="xiangqi/slow"] .sr-only')
    assert zh.locator('[data-rating="xiangqi/slow"] .sr-only').inner_text().endswith(
        "暂定等级分：计等级分对局不足 5 局（目前 3 局）")
    # ann's results said from ann's side to cai, who reads ann's profile ("胜", never "你赢了")
    said = zh.locator("#history .outcome").all_inner_texts()
    assert sorted(x[0] for x in said) == ["胜", "胜", "负"] and "你" not in "".join(said), said
    zh.close()
    assert page.locator("#rating-chart circle.dot").count() == 3
    assert page.locator("#chart-pick option").count() == 1 or page.locator("#chart-pick").count() == 0
    assert page.locator("#history tbody tr").count() == 3
    said = page.locator("#history .outcome").all_inner_texts()     # from ann's side, not cai's
    assert sorted(x.split(" ")[0] for x in said) == ["Lost", "Won", "Won"], said
    assert page.locator('#record [data-stat="won"] b').inner_text() == "2"
    assert page.locator("#hide-history").count() == 0                # not on someone else's profile
    check(page, "profile with ratings")
    shots(browser, base, "/u/ann", "ratings-profile", shot, "#rating-chart svg",
          storage=as_signed_in(base, tokens["ann"]))


def test_the_finished_table_shows_the_rating_change(rated, browser):
    base, tokens = rated
    page = browser.new_context(storage_state=as_signed_in(base, tokens["ann"])).new_page()
    page.goto(f"{base}/tables/{tokens['last_table']}")
    page.wait_for_function("() => (document.querySelector('#rating-change') || {}).textContent")
    text = page.inner_text("#rating-change")
    assert "ann: Rating" in text and "bob: Rating" in text and "(+" in text and "(−" in text
    ann = httpx.get(f"{base}/api/users/ann/ratings").json()["ratings"]
    xq = next(r for r in ann if r["game"] == "xiangqi")
    page.wait_for_function("() => (document.querySelector('[data-rating-of=ann]') || {}).textContent")
    assert page.inner_text("[data-rating-of=ann] .rating-shown").strip() == f"{xq['rating']}?"   # the seat's
    why = "Provisional rating: fewer than 5 rated games (3 so far)"                 # and what "?" means
    assert page.get_attribute("[data-rating-of=ann]", "title") == why
    assert page.inner_text("[data-rating-of=ann] .sr-only") == f"{xq['rating']}: {why}"


def test_leaderboard_lists_established_players(rated, browser, shot):
    base, _ = rated
    page = browser.new_page()
    page.goto(base + "/leaderboard?game=go&tc=blitz")
    page.wait_for_selector("#leaderboard [data-player]")
    names = page.eval_on_selector_all("#leaderboard [data-player]", "rs => rs.map((r) => r.dataset.player)")
    assert names == ["ann", "bob", "cai"]
    check(page, "leaderboard")
    page.select_option("#board-pick", "xiangqi/slow")               # only provisional players there
    # the new board replaces the old one: no player listed, and the note why
    page.wait_for_function("() => document.querySelector('#leaderboard td.muted')"
                           " && !document.querySelector('#leaderboard [data-player]')")
    assert page.locator("#leaderboard [data-player]").count() == 0
    page.close()
    shots(browser, base, "/leaderboard?game=go&tc=blitz", "ratings-leaderboard", shot,
          "#leaderboard [data-player]")


def test_a_hidden_history_shows_only_ratings(rated, browser, shot):
    base, tokens = rated
    ctx = browser.new_context(storage_state=as_signed_in(base, tokens["bob"]))
    page = ctx.new_page()
    page.goto(base + "/u/bob")
    page.wait_for_selector("#hide-history")
    page.check("#hide-history")
    page.wait_for_function("() => document.querySelector('[role=status]').textContent !== ''")
    ctx.close()
    other = browser.new_context(storage_state=as_signed_in(base, tokens["cai"])).new_page()
    other.goto(base + "/u/bob")
    other.wait_for_selector("#history-hidden")
    assert other.locator("#ratings [data-rating]").count() == 2
    assert other.locator("#history, #rating-chart, #record").count() == 0
    check(other, "a hidden profile")
    shots(browser, base, "/u/bob", "ratings-hidden", shot, "#history-hidden",
          storage=as_signed_in(base, tokens["cai"]))
    mine = browser.new_context(storage_state=as_signed_in(base, tokens["bob"])).new_page()
    mine.goto(base + "/u/bob")                                       # the owner still sees it all
    mine.wait_for_selector("#rating-chart svg")
    assert mine.locator("#hide-history").is_checked()


def test_the_lobby_form_makes_a_rated_table(rated, browser):
    base, tokens = rated
    page = browser.new_context(storage_state=as_signed_in(base, tokens["cai"])).new_page()
    page.goto(base + "/")
    page.wait_for_selector("#create")
    assert page.locator("#rated").is_disabled()                      # bots fill the seats: casual
    page.select_option("select[name=bots]", "0")
    assert page.locator("#rated").is_enabled() and page.locator("#rated").is_checked()
    page.click("#create")
    page.wait_for_url("**/tables/*")
    table = page.url.rsplit("/", 1)[1]
    assert httpx.get(f"{base}/api/tables/{table}").json()["rated"] is True
