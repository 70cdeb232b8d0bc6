"""Go's dead-stone phase at the table page: it is nobody's turn, so no side reads "Your turn" /
轮到你; each is told what to do (mark the dead stones, then submit), then that it waits for the
other's marks, a spectator that the players are marking; neither the typed-move box nor a
takeback is offered there (marking is no move).
Both languages; screenshots at 1280 and 390 px into /tmp/shots-tablefix."""

from __future__ import annotations

from .conftest import set_width
from .test_e2e_play import create_table, join, sign_up, wait_seq

BOX = '#move-entry input[name="move"]'
MARK = {"en": "Mark the dead stones: click a group, then press Submit marks",
        "zh": "请标记死子：点击棋块，然后按“确认死子”"}
WAIT = {"en": "Your marks are submitted: waiting for your opponent's", "zh": "你已确认死子：等待对手确认"}


def _nine_by_nine(server, browser, black_name: str, white_name: str):
    """Two people (English and Chinese pages) at a 9x9 go table, the game begun: the two
    contexts, Black's page, White's page and the table's id."""
    cb, cw = browser.new_context(locale="en-US"), browser.new_context(locale="zh-CN")
    black, white = cb.new_page(), cw.new_page()
    sign_up(black, server, black_name)
    sign_up(white, server, white_name)
    black.select_option("select[name=game]", "go")
    black.click("details summary")
    black.select_option('select[data-opt="board_size"]', "9")
    table = create_table(black)
    join(white, server, table)
    wait_seq(black, 0)
    return cb, cw, black, white, table


def test_the_dead_stone_phase_says_what_to_do_and_takes_no_typed_move(server, browser):
    cb, cw, black, white, table = _nine_by_nine(server, browser, "markblack", "markwhite")
    for seq, page in enumerate((black, white)):           # two passes typed: play ends
        wait_seq(page, seq)
        page.wait_for_selector(f"{BOX}:enabled")
        page.fill(BOX, "pass")
        page.press(BOX, "Enter")
    for page, lang in ((black, "en"), (white, "zh")):
        page.wait_for_selector('.go-note[data-phase="marking"]')
        page.wait_for_function("(t) => document.querySelector('#status').textContent === t", arg=MARK[lang])
        assert page.locator("#move-entry").is_hidden() and page.locator("#move-hint").is_hidden()
        assert page.locator("#propose-takeback").count() == 0      # marking is no move to take back
        assert not page.title().startswith(("Your turn", "轮到你"))
        # nor do the screen readers hear "your turn": they hear what the status line says
        said = page.inner_text("#board-text")
        assert MARK[lang] in said and "Your turn" not in said and "轮到你" not in said, said
        for w, h in ((1280, 900), (390, 844)):
            set_width(page, w, h)
            page.screenshot(path=f"/tmp/shots-tablefix/go-marking-{lang}-{w}.png", full_page=True)
    black.click('#go-actions [data-action="done"]')        # black submits its marks: it waits
    black.wait_for_function("(t) => document.querySelector('#status').textContent === t", arg=WAIT["en"])
    cb.close()
    cw.close()


SHOTS = "/tmp/shots-gofix"
DIFFER = {"en": "Your marks differ from your opponent's: submitting resumes play, and a second "
                "disagreement counts every stone alive. Submit?",
          "zh": "你的死子标记与对手的不同：确认后将恢复对局，若再次不一致，所有棋子都按活棋计算。确认吗？"}


def typed(page, move):
    page.wait_for_selector(f"{BOX}:enabled", timeout=30_000)
    page.fill(BOX, move)
    page.press(BOX, "Enter")


def marked(page, point, dead=True):
    """Click ``point``'s chain and wait till the page shows it marked (dead or alive again)."""
    page.click(f'.go-board .pt[data-pt="{point}"]')
    page.wait_for_function("([p, d]) => document.querySelector(`.go-board .pt[data-pt='${p}']`)"
                           ".classList.contains('dead-mine') === d", arg=[point, dead])


def shots(page, lang, name):
    for w, h in ((1280, 900), (390, 844)):
        set_width(page, w, h)
        page.screenshot(path=f"{SHOTS}/go-{name}-{lang}-{w}.png", full_page=True)
    set_width(page, 1280, 900)


def test_marking_shades_the_count_asks_before_a_disputed_submit_and_lists_a_round_once(server, browser):
    """While the dead stones are marked each player sees the board's owners by their own marks
    (small squares on the points, as OGS and Fox draw them) and the count they make; Submit while
    the two sides' marks differ asks first, saying play resumes and a second disagreement counts
    every stone alive (cancelled, nothing is submitted); the move list words each marking round
    as one entry ("Marked dead: D7"), not a line a click; the result keeps the shading."""
    import os
    os.makedirs(SHOTS, exist_ok=True)
    cb, cw, black, white, table = _nine_by_nine(server, browser, "shadeblack", "shadewhite")
    for page, move in ((black, "E5"), (white, "D7"), (black, "pass"), (white, "pass")):
        typed(page, move)
    for page in (black, white):
        page.wait_for_selector('.go-note[data-phase="marking"]')
    # nothing marked: the lone stones share the board, no point is shaded
    assert black.locator(".go-board .pt.own-b, .go-board .pt.own-w").count() == 0
    marked(black, "D7")
    # Black's marks: every point is Black's (D7 taken off), shaded so, and counted so
    black.wait_for_function("() => document.querySelectorAll('.go-board .pt.own-b').length === 80")
    assert black.locator('.go-board .pt[data-pt="D7"]').get_attribute("class").split().count("own-b") == 1
    count = black.inner_text(".go-note [data-count]")
    assert count.startswith("By your marks: Black 81 · White 0 → Black wins by"), count
    # White has marked nothing: its own count shares the board
    white.wait_for_function("() => /D7/.test(document.querySelector('.go-note').textContent)")
    assert white.locator(".go-board .pt.own-b, .go-board .pt.own-w").count() == 0
    assert white.inner_text(".go-note [data-count]").startswith("按你的标记：黑 ")
    shots(black, "en", "marking-shaded")
    shots(white, "zh", "marking-unshaded")
    # Submit while the marks differ asks first; cancelled, nothing is submitted
    black.click('#go-actions [data-action="done"]')
    black.wait_for_selector("#ask")
    assert black.inner_text("#ask-text") == DIFFER["en"]
    shots(black, "en", "submit-asks")
    black.click('#ask [data-answer="no"]')
    black.wait_for_selector("#ask", state="detached")
    assert black.inner_text(".go-note").count("(not submitted)") == 2, black.inner_text(".go-note")
    black.click('#go-actions [data-action="done"]')
    black.click('#ask [data-answer="yes"]')
    white.wait_for_function("() => /已确认/.test(document.querySelector('.go-note').textContent)")
    white.click('#go-actions [data-action="done"]')
    white.wait_for_selector("#ask")
    assert white.inner_text("#ask-text") == DIFFER["zh"]
    shots(white, "zh", "submit-asks")
    white.click('#ask [data-answer="yes"]')
    # the marks differed: play resumes; the round is one entry of the list, said per side
    for page in (black, white):
        page.wait_for_selector('.go-note[data-phase="play"]')
    rounds = black.locator("#ml-list .ml-move.ml-aside")
    assert rounds.all_inner_texts() == ["Marked dead: Black D7 · White none"], rounds.all_inner_texts()
    assert white.locator("#ml-list .ml-move.ml-aside").all_inner_texts() == ["标记死子：黑 D7 · 白 无"]
    typed(black, "pass")                 # Black, who did not pass last, plays first
    typed(white, "pass")
    for page in (black, white):
        page.wait_for_selector('.go-note[data-phase="marking"]')
    marked(white, "D7")
    marked(black, "D7")
    # the marks agree: submitted without a question, the game is counted
    black.click('#go-actions [data-action="done"]')
    white.click('#go-actions [data-action="done"]')
    for page in (black, white):
        page.wait_for_selector('.go-note[data-phase="over"]')
    assert black.locator("#ask").count() == 0 and white.locator("#ask").count() == 0
    assert black.locator("#ml-list .ml-move.ml-aside").all_inner_texts() == [
        "Marked dead: Black D7 · White none", "Marked dead: D7"]
    assert white.locator("#ml-list .ml-move.ml-aside").all_inner_texts()[-1] == "标记死子：D7"
    assert not black.locator("#ml-list").get_by_text("Dead D7", exact=True).count()
    # the result keeps the owners drawn, the dead stone marked
    for page in (black, white):
        assert page.locator(".go-board .pt.own-b").count() == 80
        assert "dead" in page.locator('.go-board .pt[data-pt="D7"]').get_attribute("class").split()
    shots(black, "en", "result-shaded")
    shots(white, "zh", "result-shaded")
    cb.close()
    cw.close()
