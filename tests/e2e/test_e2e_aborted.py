"""A lobby game aborted because nobody made the first move reads as aborted on every page —
the players' (English and Chinese), a spectator's, one opened later — with who did not move,
never as a loss on time; and a rematch follows it, as one follows a finished game (lichess)."""

from __future__ import annotations

import re

import pytest

from .conftest import rendered, running_server, set_width
from .test_e2e_play import create_table, join, sign_up

SHOTS = "/tmp/shots-tablefix"
BOARD_SHOTS = "/tmp/shots-boardfix"


@pytest.fixture(scope="module")
def fserver(tmp_path_factory):
    """A server whose lobby games' first move must come within 2 s, and where an account may
    hold one open table."""
    settings = "first_move_ms=2000, max_open_tables=1"
    with running_server(tmp_path_factory.mktemp("qipai-abort"), settings) as base:
        yield base


def status(page) -> str:
    return page.locator("#status").text_content() or ""


def says(page, text: str) -> None:
    page.wait_for_function("(t) => document.querySelector('#status')?.textContent === t", arg=text,
                           timeout=30_000)


def test_a_game_nobody_began_is_said_aborted_everywhere_and_a_rematch_follows(fserver, browser):
    ca, cc, cd = (browser.new_context(locale=loc) for loc in ("en-US", "zh-CN", "zh-CN"))
    alice, carol, dave = ca.new_page(), cc.new_page(), cd.new_page()
    sign_up(alice, fserver, "alice")
    sign_up(carol, fserver, "carol")
    sign_up(dave, fserver, "dave")
    alice.select_option("select[name=game]", "xiangqi")
    table = create_table(alice)
    join(carol, fserver, table)
    dave.goto(f"{fserver}/tables/{table}")
    en = "Game aborted: alice did not make the first move in time; it counts for nobody"
    zh = "对局已中止：alice 未在时限内走第一步，本局不计胜负"
    for page, text in ((alice, en), (carol, zh), (dave, zh)):
        says(page, text)
    # opened again later (a reload): the same words, no result, nobody to move
    for page, text in ((alice, en), (carol, zh), (dave, zh)):
        page.reload()
        says(page, text)
        assert not re.search(r"lost|won|输|赢|time out|超时", status(page)), status(page)
        assert page.locator("#move-entry").is_hidden()
    assert dave.locator("#rematch").count() == 0          # a spectator has no rematch
    for page, lang in ((alice, "en"), (carol, "zh")):
        for w, h in ((1280, 900), (390, 844)):
            set_width(page, w, h)
            page.screenshot(path=f"{SHOTS}/aborted-{lang}-{w}.png", full_page=True)
    # a rematch: alice asks, carol joins it (its seats swapped)
    alice.click("#rematch")
    alice.wait_for_url(lambda url: "/tables/" in url and not url.endswith(table))
    new = alice.url.rsplit("/", 1)[1]
    carol.wait_for_selector("#rematch", timeout=30_000)
    carol.click("#rematch")
    carol.wait_for_url(f"**/tables/{new}")
    for c in (ca, cc, cd):
        c.close()


def test_a_refused_rematch_reads_as_an_error(fserver, browser):
    """A rematch the server refuses (here: erin holds an open table already, the most she may)
    is said in the error colour, never in the note's success colour."""
    ctx = browser.new_context(locale="en-US")
    page = ctx.new_page()
    sign_up(page, fserver, "erin")
    page.select_option("select[name=game]", "xiangqi")
    table = create_table(page, bots=1)
    # a game over: erin never moves, and the server aborts it after 2 s (a resignation raced
    # that timer: a loaded machine could abort the game under the resign button's click)
    says(page, "Game aborted: erin did not make the first move in time; it counts for nobody")
    page.wait_for_selector("#rematch", timeout=30_000)
    page.goto(fserver + "/")
    page.select_option("select[name=game]", "xiangqi")
    create_table(page)                          # open, waiting for a player
    page.goto(f"{fserver}/tables/{table}")
    page.click("#rematch")
    page.wait_for_function("() => document.querySelector('#table-note').textContent !== ''")
    rendered(page)
    note = page.locator("#table-note")
    assert note.evaluate("(n) => getComputedStyle(n).color") == "rgb(204, 0, 0)"
    ctx.close()


@pytest.fixture(scope="module")
def jserver(tmp_path_factory):
    """A server whose lobby junqi layouts must come within 4 s, other first moves within 3 s."""
    with running_server(tmp_path_factory.mktemp("qipai-jqabort"),
                        "first_layout_ms=4000, first_move_ms=3000") as base:
        yield base


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_junqi_layout_never_sent_aborts_with_one_story(jserver, browser, lang):
    """Junqi against a bot, the layout never sent: while it may come the seat says how long the
    layout may take ("lay out within"); then the game is aborted and every part of the page
    says only that — no forfeit in the move list, no "forfeited" line, no seat struck out."""
    ctx = browser.new_context(locale="en-US" if lang == "en" else "zh-CN",
                              viewport={"width": 1280, "height": 900} if lang == "en"
                              else {"width": 390, "height": 844})
    page = ctx.new_page()
    sign_up(page, jserver, f"jq{lang}")
    page.select_option("select[name=game]", "junqi")
    create_table(page, bots=1)
    note = page.locator(".first-move")
    note.first.wait_for(timeout=30_000)
    assert re.search(r"lay out within|内须布阵完毕", note.first.text_content()), note.first.text_content()
    page.wait_for_function("() => /aborted|中止/.test(document.querySelector('#status')?.textContent)",
                           timeout=30_000)
    rendered(page)
    said = {"en": "Game aborted: jqen did not lay out in time; it counts for nobody",
            "zh": "对局已中止：jqzh 未在时限内布阵，本局不计胜负"}[lang]
    assert status(page) == said
    body = page.inner_text("body")
    assert not re.search(r"forfeit|认输|弃权|判负|waiting for the others|等待其他", body, re.I), body
    mine = page.locator(".jq-seat").first.inner_text()
    assert ("not laid out" if lang == "en" else "未布阵") in mine, mine
    assert page.locator(".jq-seat.out").count() == 0
    assert page.locator("#jq-actions [data-action=submit]").count() == 0 or \
        page.locator("#jq-actions [data-action=submit]").is_hidden()
    page.screenshot(path=f"{BOARD_SHOTS}/junqi-aborted-{lang}.png", full_page=True)
    ctx.close()


@pytest.mark.parametrize("game", ["chinese-checkers", "go"])
def test_other_boards_first_move_abort_tells_one_story_too(jserver, browser, game):
    """The same abort on Chinese checkers and go (English at 1280 px, Chinese at 390 px): the
    status says the game was aborted, and nothing on the page says a forfeit, a seat out or a
    result. Both languages' tables are made before either abort is waited for (their first-move
    times run together)."""
    pages = {}
    for lang in ("en", "zh"):
        ctx = browser.new_context(locale="en-US" if lang == "en" else "zh-CN",
                                  viewport={"width": 1280, "height": 900} if lang == "en"
                                  else {"width": 390, "height": 844})
        page = ctx.new_page()
        name = f"{game[:2]}{lang}"
        sign_up(page, jserver, name)
        page.select_option("select[name=game]", game)
        create_table(page, bots=1)
        pages[lang] = ctx, page, name
    for lang, (ctx, page, name) in pages.items():
        page.wait_for_function("() => /aborted|中止/.test(document.querySelector('#status')?.textContent)",
                               timeout=30_000)
        rendered(page)
        said = {"en": f"Game aborted: {name} did not make the first move in time; it counts for nobody",
                "zh": f"对局已中止：{name} 未在时限内走第一步，本局不计胜负"}[lang]
        assert status(page) == said
        body = page.inner_text("main").replace(said, "")
        bad = re.search(r"forfeit|resigned|out of the game|ran out|认输|判负|出局|胜|wins", body, re.I)
        assert not bad, (bad.group(0), body[max(0, bad.start() - 80):bad.end() + 80])
        page.screenshot(path=f"{BOARD_SHOTS}/{game}-aborted-{lang}.png", full_page=True)
        ctx.close()
