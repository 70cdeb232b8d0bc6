"""One language at a time (tests/e2e/language.py): in an English browser the table of every game
(some moves in, then the seat's own clock runs out), the lobby, the history and the event list
hold no Chinese outside names and the game's own signs on its board."""

from __future__ import annotations

import pytest

from .language import (
    FAST_CARDS,
    GAMES,
    chinese_outside_boards,
    new_table,
    seated_table,
    sign_up,
    wait_moves,
    wait_own_clock_out,
    widths,
)


@pytest.mark.parametrize("game", GAMES)
def test_a_table_of_every_game_speaks_english(lserver, en, game, shot):
    page = en.new_page()
    name = f"en{GAMES.index(game)}player"
    sign_up(page, lserver, name)
    table = seated_table(page, lserver, game)
    page.goto(f"{lserver}/tables/{table}")
    page.wait_for_selector("#theme")     # drawn once the header speaks the page's language
    assert page.evaluate("document.documentElement.lang") == "en"
    wait_moves(page, 4)
    wait_own_clock_out(page)
    found: dict[str, list[str]] = {}
    widths(page, f"lang-en-{game}", shot, found)
    assert chinese_outside_boards(page, [name]) == []
    assert found == {}
    page.close()
    assert en.errors == []


def test_lobby_history_and_events_speak_english(lserver, en, shot):
    page = en.new_page()
    sign_up(page, lserver, "en99player")
    t = new_table(page, lserver, "doudizhu", sit=True, clock=FAST_CARDS)
    page.goto(f"{lserver}/tables/{t}")
    page.wait_for_selector("#status[data-seq]")
    found = {}
    for path in ("/", "/history", "/events", "/account/bots"):
        page.goto(lserver + path)
        page.wait_for_load_state("networkidle")
        han = chinese_outside_boards(page, ["en99player"])
        if han:
            found[path] = han
        widths(page, f"lang-en-{path.strip('/') or 'lobby'}", shot, found)
    page.close()
    assert found == {}
    assert en.errors == []


def test_xiangqi_files_are_numbered_in_english_as_the_wxf_moves(lserver, en, shot):
    """In English Red's files read 9 … 1 from Red's left, as its moves (C2=5) count them, not
    九 … 一; Black's read 1 … 9 across the top."""
    page = en.new_page()
    sign_up(page, lserver, "enfiles")
    table = new_table(page, lserver, "xiangqi", sit=True)
    page.goto(f"{lserver}/tables/{table}")
    page.wait_for_selector(".xq-files.bottom span")
    assert page.locator(".xq-files.bottom span").all_inner_texts() == [str(9 - f) for f in range(9)]
    assert page.locator(".xq-files.top span").all_inner_texts() == [str(f + 1) for f in range(9)]
    shot(page, "lang-en-xiangqi-files")
    page.close()
    assert en.errors == []
