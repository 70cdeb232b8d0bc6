"""Two people play a 9x9 go game in real browsers to an agreed score: moves by clicks, the
last move ringed, a capture counted, and the dead-stone phase twice — the first time their
marks differ and play resumes, the second time they agree and the board is counted."""

from __future__ import annotations

import re

from .conftest import rendered
from .test_e2e_play import create_table, join, sign_up, wait_seq

# Black walls off column E, White column F; then each drops one stone into the other's area
OPENING = [p for r in range(1, 10) for p in (f"E{r}", f"F{r}")] + ["H5", "B5"]


#: count what the page sends on its WebSockets from now on (``window.sent``)
COUNT_SENDS = """() => { window.sent = 0; window.unsent = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
        window.sent += 1; return window.unsent.call(this, data); }; }"""


def click_point(page, point):
    page.click(f'#goban [data-pt="{point}"]')


def stone(page, point):
    loc = page.locator(f'#goban [data-pt="{point}"] .stone')
    if not loc.count():
        return None
    return "b" if "b" in loc.get_attribute("class").split() else "w"


def test_two_people_play_9x9_go_to_an_agreed_score(server, browser, shot):
    ctx_b = browser.new_context(locale="en-US")
    ctx_w = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})     # phone width
    black, white = ctx_b.new_page(), ctx_w.new_page()
    sign_up(black, server, "goblack")
    sign_up(white, server, "gowhite")

    black.select_option("select[name=game]", "go")
    black.click("details summary")
    black.select_option('select[data-opt="board_size"]', "9")
    table = create_table(black)
    # the open table offers its link for a friend (its copy button: test_e2e_copy.py)
    assert black.input_value("#invite input") == f"{server}/tables/{table}"
    white.goto(server + "/")                  # the lobby says the free seat in words, not "·"
    row = white.locator(f'tr[data-table="{table}"]')
    assert re.search(r"goblack\s*vs\s*open seat", row.inner_text()), row.inner_text()
    join(white, server, table)
    seq = 0
    both = (black, white)
    for page in both:
        wait_seq(page, seq)
        assert page.locator("#goban .pt").count() == 81
    assert black.locator('#goban [data-pt="J9"]').count() == 1        # no column I
    # the komi in points in English, as OGS and lichess say it (go.md §4.3: seed 002's 4 stones = 8)
    assert black.inner_text('[data-info="komi"]') == "Komi 8"
    said = black.evaluate("""async () => { const g = await import('/static/boards/go.js');
        return [7.5, 8, 0, -1, 2].map(g.komiText); }""")
    assert said == ["Komi 7.5", "Komi 8", "no komi", "Reverse komi 1", "Komi 2"], said
    assert black.locator("#goban svg circle").count() == 5           # 9 x 9: four star points and the centre
    assert white.locator("#goban").bounding_box()["width"] <= 390    # fits a phone

    def step(page, action):
        nonlocal seq
        if action == "pass":                      # a pass asks first, in the page
            page.click('#go-actions [data-action="pass"]')
            page.click('#ask [data-answer="yes"]')
        else:
            click_point(page, action)
        seq += 1
        for p in both:
            wait_seq(p, seq)

    # a click on an occupied point or out of turn sends nothing
    for ply, point in enumerate(OPENING):
        page = black if ply % 2 == 0 else white
        if ply == 1:
            for p in both:
                p.evaluate(COUNT_SENDS)
            click_point(black, "A1")                 # not Black's turn
            click_point(white, "E1")                 # occupied
            for p in both:
                rendered(p)                          # the clicks are handled
            assert [p.evaluate("window.sent") for p in both] == [0, 0]
            assert black.get_attribute("#status", "data-seq") == "1"
            for p in both:
                p.evaluate("() => { WebSocket.prototype.send = window.unsent; }")
        step(page, point)
        assert stone(black, point) == ("b" if ply % 2 == 0 else "w")
        for p in both:
            assert p.locator("#goban .pt.last").count() == 1
            assert p.locator(f'#goban [data-pt="{point}"].last').count() == 1
    shot(black, "go-play")
    # the pass asks in the page's own dialog: Escape sends nothing, Enter passes
    black.click('#go-actions [data-action="pass"]')
    black.wait_for_selector("#ask[open]")
    assert black.evaluate("document.activeElement.dataset.answer") == "yes"    # keyboard-ready
    assert "dead stones are marked" in black.inner_text("#ask-text")
    shot(black, "go-pass-ask")
    black.keyboard.press("Escape")
    black.wait_for_selector("#ask", state="detached")
    rendered(black)
    assert black.get_attribute("#status", "data-seq") == str(seq)
    black.click('#go-actions [data-action="pass"]')
    black.wait_for_selector("#ask[open]")
    black.keyboard.press("Enter")
    seq += 1
    for p in both:
        wait_seq(p, seq)
    assert "Your opponent passed" in white.inner_text("#go-note")
    assert "You passed" in black.inner_text("#go-note")
    white.click('#go-actions [data-action="pass"]')               # the second pass says it ends play
    assert "Your opponent has passed" in white.inner_text("#ask-text")
    white.keyboard.press("Escape")
    step(white, "pass")

    # dead-stone phase, round 1: Black takes the proposal (B5 and H5 dead), White marks only H5
    for p in both:
        p.wait_for_selector('.go-note[data-phase="marking"]')
    assert "B5" in black.inner_text("[data-proposal]") and "H5" in black.inner_text("[data-proposal]")
    black.click('#go-actions [data-action="proposal"]')
    seq += 2
    for p in both:
        wait_seq(p, seq)
    assert black.locator("#goban .pt.dead-mine").count() == 2
    assert white.locator("#goban .pt.dead-theirs").count() == 2      # the opponent's marks shown
    black.click('#go-actions [data-action="done"]')
    black.click('#ask [data-answer="yes"]')         # the marks differ: Submit asks first
    seq += 1
    wait_seq(white, seq)
    click_point(white, "H5")
    seq += 1
    wait_seq(white, seq)
    assert white.locator('#goban [data-pt="H5"].dead-mine').count() == 1
    assert white.get_attribute("[data-agree]", "data-agree") == "no"
    shot(white, "go-marks-differ")
    white.click('#go-actions [data-action="done"]')
    white.click('#ask [data-answer="yes"]')
    seq += 1
    for p in both:
        wait_seq(p, seq)
        p.wait_for_selector("[data-resumed]")           # the marks differed: play goes on
        assert p.locator("#goban .pt.dead-mine").count() == 0

    # Black proves B5 dead by capturing it
    for ply, point in enumerate(["A5", "pass", "C5", "pass", "B4", "pass", "B6"]):
        step(white if ply % 2 else black, point)
    for p in both:
        assert stone(p, "B5") is None
        assert p.inner_text('[data-cap="black"]') == "1"
        assert p.locator('#goban [data-pt="B5"].captured').count() == 1
    shot(white, "go-capture")
    step(white, "pass")
    step(black, "pass")

    # round 2: both mark H5 dead, see that the marks agree, and submit
    for p in both:
        p.wait_for_selector('.go-note[data-phase="marking"]')
        assert p.locator('#go-actions [data-action="resume"]').count() == 0    # resumed once already
    click_point(white, "H5")
    seq += 1
    for p in both:
        wait_seq(p, seq)
    click_point(black, "H5")
    seq += 1
    for p in both:
        wait_seq(p, seq)
        assert p.get_attribute("[data-agree]", "data-agree") == "yes"
        # equal marks, but nobody has submitted: no green "Marks agree" yet
        assert p.locator(".go-note.agree-waiting").count() == 1 and p.locator(".go-note.agree").count() == 0
        assert p.locator('#goban [data-pt="H5"].dead-mine.dead-theirs').count() == 1
    # the marking is said in words, without a move number ("White marked H5 dead")
    said = black.text_content("#board-text")
    assert re.search(r"(marked H5 dead|标 H5 为死子)", said) and "Move" not in said, said
    shot(black, "go-marks-agree")
    black.click('#go-actions [data-action="done"]')
    seq += 1
    wait_seq(white, seq)
    white.click('#go-actions [data-action="done"]')
    for p in both:
        p.wait_for_selector("#record-link")
        status = p.inner_text("#status")
        # words, not "B+1 (counted)"
        assert re.search(r"(You won|You lost|你赢了|你输了) — (Black wins by 1 point|黑胜 1 目)$",
                         status), status
        score = p.inner_text("[data-score]")
        assert "45" in score and "36" in score
        assert re.search(r"→ (Black wins by 1 point|黑胜 1 目)$", score), score      # not "1 points"
        # one unit on the line: the komi in points as the margin ("黑贴 8 目", not "黑贴 4 子")
        assert re.search(r"· (Komi 8|黑贴 8 目) →", score), score
        assert p.locator('#goban [data-pt="H5"].dead').count() == 1
        # area marks on every point a side owns but has no stone on (H5 is White's again)
        assert p.locator("#goban .pt.own-w").count() == 36 - 9
        assert p.locator("#goban .pt.own-b").count() == 45 - 13
        # the header's move count is the move list's last number: the marking steps are listed in
        # words without a number, a pass is "Pass" / 停一手, never the action's code
        moves = int(p.inner_text('[data-info="moves"]').split()[-1])
        numbers = p.eval_on_selector_all("#ml-list .ml-move .ml-n", "ns => ns.map((n) => +n.textContent)")
        assert numbers[-1] == moves, (numbers[-1], moves)
        assert p.inner_text("#ml-where") == f"{moves} / {moves}"     # the list's counter too
        texts = p.eval_on_selector_all("#ml-list .ml-move .ml-t", "ts => ts.map((x) => x.textContent)")
        assert not {"pass", "done", "marks done"} & set(texts) and "dead H5" not in texts, texts
        assert ("Pass" in texts) or ("停一手" in texts), texts
        # each marking round is one entry ("Marked dead: H5"), not a line a click and a submission;
        # the first round's marks differed, said per side
        assert p.locator("#ml-list .ml-aside").all_inner_texts() in (
            ["Marked dead: Black B5, H5 · White H5", "Marked dead: H5"],
            ["标记死子：黑 B5、H5 · 白 H5", "标记死子：H5"])
        assert "played" not in p.text_content("#board-text")
    shot(black, "go-counted")
    shot(white, "go-counted-phone")

    record = black.get_attribute("#record-link", "href").rsplit("/", 1)[1]
    black.goto(f"{server}/records/{record}")
    black.wait_for_selector("#goban .stone")
    black.click("#prev")
    assert black.locator('#goban [data-pt="H5"] .stone.b').count() == 1
    shot(black, "go-replay")
    ctx_b.close()
    ctx_w.close()


def test_the_bot_passes_after_the_persons_pass_on_a_settled_board(server, browser):
    """The review's game: the person (Black) played A9 and then passed; the level-2 bot played
    on for 30 moves to capture that one dead stone. Now the bot answers the person's pass with
    its own once nothing is left to play for, and the marking phase follows."""
    for lang in ("en", "zh"):
        ctx = browser.new_context(locale="en-US" if lang == "en" else "zh-CN",
                                  viewport={"width": 1280, "height": 900} if lang == "en"
                                  else {"width": 390, "height": 844})
        page = ctx.new_page()
        sign_up(page, server, f"gopass{lang}")
        r = page.request.post(server + "/api/tables", data={
            "game": "go", "options": {"board_size": 9, "end_procedure": "agreement"}, "sit": True,
            "seat": 0, "bots": 1, "bot": "greedy", "settings": {"clock": "none"}})
        assert r.ok, r.text()
        page.goto(f"{server}/tables/{r.json()['id']}")
        wait_seq(page, 0)
        click_point(page, "A9")
        wait_seq(page, 2)                                   # A9 and the bot's answer
        # the person passes until the bot passes too: a few moves at most (it played 30), then
        # the marking phase
        for _ in range(6):
            before = page.evaluate("() => window.qipaiLastState.view.moves")
            page.click('#go-actions [data-action="pass"]')
            page.click('#ask [data-answer="yes"]')
            page.wait_for_function("""(n) => { const m = window.qipaiLastState, v = m.view;
                return v.phase === 'marking' || (v.moves >= n + 2 && m.to_act.includes(m.seat)); }""",
                                   arg=before, timeout=30_000)
            if page.evaluate("() => window.qipaiLastState.view.phase") == "marking":
                break
        page.wait_for_selector('.go-note[data-phase="marking"]', timeout=30_000)
        assert page.locator("#goban .stone.w").count() <= 4
        page.screenshot(path=f"/tmp/shots-boardfix/go-bot-pass-{lang}.png", full_page=True)
        # the person takes the suggested marks and confirms: the count line has one unit, the
        # komi in points as its verdict ("黑贴 8 目 → 白胜 … 目", never "黑贴 4 子 → … 目")
        page.click('#go-actions [data-action="proposal"]')
        page.wait_for_selector('[data-agree="yes"]', timeout=30_000)
        page.click('#go-actions [data-action="done"]')
        page.wait_for_selector("[data-score]", timeout=30_000)
        score = page.inner_text("[data-score]")
        verdict = r"((Black|White) wins by \d+ points?|[黑白]胜 \d+ 目)"
        assert re.search(r"· (Komi 8|黑贴 8 目) → " + verdict + "$", score), score
        page.screenshot(path=f"/tmp/shots-boardfix/go-count-{lang}.png", full_page=True)
        ctx.close()
