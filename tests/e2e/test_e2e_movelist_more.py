"""The board games' move lists, navigation and results in words, in real Chromium: for each board
game a person plays a whole game against a bot by clicking at 390 px (short options: 9x9 go with
a move cap, xiangqi and junqi with a short no-capture limit, Chinese checkers with a move cap) and
reads the result in words, then again in the other language at 1280 px; the move list navigates
by click and by keys, live and in the replay.
Screenshots at 1280 and 390 px in both languages go to tests/e2e/artifacts. Here Chinese checkers
and junqi (the other games: test_e2e_movelist.py); the live move list follows the game and
fetches older positions; every game's results read as words in both languages."""

from __future__ import annotations

import re

import pytest

from .movelist import (
    RAW,
    iccs,
    last_to,
    new_page,
    red_moves,
    seq,
    shows,
    start_table,
    wait_turn_or_end,
    whole_game,
)


@pytest.mark.parametrize("game", ["chinese-checkers", "junqi"])
def test_a_whole_game_against_a_bot_with_its_move_list(server, browser, shot, game):
    whole_game(server, browser, shot, game)


def test_live_move_list_follows_the_game_and_fetches_older_positions(server, browser, shot):
    ctx, page, errors = new_page(browser, server, "en", "desktop")
    start_table(page, server, "xiangqi", {}, bot="random")
    red_moves(page, 3)
    wait_turn_or_end(page)
    n = seq(page)
    assert n == 6 and int(page.get_attribute("#movelist", "data-total")) == 6
    assert page.get_attribute("#movelist", "data-ply") == "6" and page.locator("#ml-back").is_hidden()
    assert last_to(page) == iccs(page, 6)[2:]
    # back two moves with the keys: the board shows position 4, as a replay (nothing to click)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("#movelist", "data-ply") == "4"
    shows(page, 4)
    assert page.locator("#ml-back").is_visible()
    # Black's side stays at the top (two moves by the bot may have moved at most two of its back rank)
    assert page.locator('.xq .sq:has(.pc.b)[data-sq$="9"]').count() >= 7
    top, bottom = (page.locator(f'.xq .sq[data-sq="{sq}"]').bounding_box()["y"] for sq in ("a9", "a0"))
    assert top < bottom
    shot(page, "movelist-live-browsing-en-desktop")
    page.keyboard.press("End")
    assert page.get_attribute("#movelist", "data-ply") == "6" and last_to(page) == iccs(page, 6)[2:]
    # a move made while the viewer looks at the start: the list grows, the board stays at the start
    red_moves(page, 1)
    page.keyboard.press("Home")
    assert page.get_attribute("#movelist", "data-ply") == "0"
    page.wait_for_function("() => +document.querySelector('#status').dataset.seq >= 8")
    page.wait_for_function("() => document.querySelector('#movelist').dataset.total === '8'")
    assert page.get_attribute("#movelist", "data-ply") == "0" and last_to(page) is None
    # a click on a move, then End: the live game again, and it can be played
    page.locator('#ml-list .ml-move[data-ply="5"]').click()
    shows(page, 5)
    page.click("#ml-back")
    assert page.get_attribute("#movelist", "data-ply") == "8"
    red_moves(page, 1)
    # after a reload only the live position is known: an older one is asked of the server
    page.reload()
    page.wait_for_selector("#movelist")
    wait_turn_or_end(page)
    total = int(page.get_attribute("#movelist", "data-total"))
    assert total == seq(page) == 10
    page.keyboard.press("ArrowLeft")
    shows(page, 9)
    page.set_viewport_size({"width": 390, "height": 900})
    shot(page, "movelist-live-browsing-en-phone")
    # a move typed while looking back brings the game in play back
    assert page.get_attribute("#movelist", "data-ply") == "9"
    typed = page.get_attribute("#legal-moves option >> nth=0", "value")
    page.fill('#move-entry input[name="move"]', typed)
    page.press('#move-entry input[name="move"]', "Enter")
    page.wait_for_function("() => +document.querySelector('#status').dataset.seq >= 11")
    # read at once: the bot may answer between two reads
    assert page.evaluate("() => { const d = document.querySelector('#movelist').dataset; "
                         "return d.ply === d.total; }")
    assert errors == []
    ctx.close()


def finished_results():
    """(game, result, last public view, number of seats) of short seeded random games of every
    game, and of a resignation at the start of each."""
    import random

    import qipai

    out = []
    for info in qipai.games():
        if info.id.startswith("test-"):       # the tests' own games (tests/match_games.py)
            continue
        game = qipai.load(info.id)
        state = game.new_state(seed=5)
        rnd = random.Random(5)
        for _ in range(4000):
            if state.is_terminal():
                break
            seat = state.to_act[0]
            state.apply(rnd.choice(state.legal_actions(seat)), seat=seat)
        if state.result:
            out.append((info.id, state.result.to_json(), state.view(None), state.num_seats))
        resigned = game.new_state(seed=6)
        try:
            resigned.forfeit(0, "resign")
        except qipai.IllegalAction:
            continue
        out.append((info.id, resigned.result.to_json(), resigned.view(None), resigned.num_seats))
    # three players of Chinese checkers: a ranking, and a move cap that ties them all
    for options in ({"ranking": "full"}, {"ranking": "full", "max_moves": 10}):
        state = qipai.load("chinese-checkers", **options).new_state(seed=2, num_seats=3)
        rnd = random.Random(2)
        while not state.is_terminal():
            seat = state.to_act[0]
            state.apply(rnd.choice(state.legal_actions(seat)), seat=seat)
        out.append(("chinese-checkers", state.result.to_json(), state.view(None), 3))
    return out


def test_results_read_as_words_in_both_languages_for_every_game(server, browser):
    cases = finished_results()
    assert {c[0] for c in cases} >= {"xiangqi", "go", "gomoku", "chinese-checkers", "junqi", "doudizhu",
                                     "wakeng", "shengji", "baohuang", "fouafour", "sandayi"}
    for lang in ("zh", "en"):
        ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US")
        page = ctx.new_page()
        page.goto(server + "/")
        page.wait_for_selector("#theme")     # drawn once the header speaks the page's language
        for game, result, view, n in cases:
            names = [f"p{i}" for i in range(n)]
            for seat in (None, 0):
                text = page.evaluate(
                    """async ([result, game, seat, names, view]) => {
                        const { resultText } = await import('/static/result.js');
                        const { t, lang } = await import('/static/i18n.js');
                        return resultText(result, { game, seat, names, view, t, lang });
                    }""", [result, game, seat, names, view])
                where = (game, seat, result["text"], result["reason"], text)
                assert text and text != result["text"] and not RAW.search(text), where
                if lang == "zh":
                    assert re.search("[\u4e00-\u9fff]", text) and not re.search("[A-Za-z]{3,}", text), where
                    assert ": " not in text, where          # a Chinese colon (：) before the scores
                else:
                    assert not re.search("[\u4e00-\u9fff]", text), where
                if seat == 0 and result["winners"]:
                    won = 0 in result["winners"]
                    said = ("你赢了" if lang == "zh" else "You won") in text
                    assert said == won or game == "chinese-checkers", where
        ctx.close()
