"""Go's score estimate during play (checklist B17, as OGS gives one on request): the "Estimate
score" button under the board, for the players and the spectators of a lobby table; the
server's estimate drawn as shading over each side's area, the stones it takes as dead faded,
and the result in words ("Estimate: Black ahead by about 1" / "形势判断：黑约领先 1 目");
gone at the next move or a click on the board. English at 1280 px, Chinese at a phone's 390."""

from __future__ import annotations

from pathlib import Path

from .test_e2e_play import sign_up, wait_seq

SHOTS = Path("/tmp/shots-estimate")
# Black walls column E, White column F; Black's H5 dead in White's area, White's B5 in Black's
OPENING = [p for r in range(1, 10) for p in (f"E{r}", f"F{r}")] + ["H5", "B5"]
EST = '#go-actions [data-action="estimate"]'


def snap(page, shot, name):
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    shot(page, name)


def shows_estimate(page):
    page.wait_for_selector("#goban.estimate", timeout=30_000)
    page.wait_for_selector("#go-note [data-estimate]", timeout=30_000)


def test_players_and_spectators_ask_for_the_score_estimate(server, browser, shot):
    ctx_b = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    ctx_w = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    ctx_s = browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844})
    black, white, spec = ctx_b.new_page(), ctx_w.new_page(), ctx_s.new_page()
    errors = []
    for p in (black, white, spec):
        p.on("pageerror", lambda e: errors.append(str(e)))
    black.add_init_script("localStorage.setItem('lang', 'en')")
    white.add_init_script("localStorage.setItem('lang', 'en')")
    spec.add_init_script("localStorage.setItem('lang', 'zh')")
    sign_up(black, server, "estb", lobby=False)
    sign_up(white, server, "estw", lobby=False)
    r = black.request.post(server + "/api/tables", data={
        "game": "go", "options": {"board_size": 9}, "settings": {"clock": "none"}})
    assert r.ok, r.text()
    table = r.json()["id"]
    assert white.request.post(f"{server}/api/tables/{table}/sit").ok
    for p in (black, white, spec):
        p.goto(f"{server}/tables/{table}")
        wait_seq(p, 0)
    # offered to both players and to a signed-out spectator, during play
    for p in (black, white, spec):
        p.wait_for_selector(EST)
    assert black.inner_text(EST) == "Estimate score" and spec.inner_text(EST) == "形势判断"
    seq = 0
    for ply, point in enumerate(OPENING):
        (black if ply % 2 == 0 else white).click(f'#goban [data-pt="{point}"]')
        seq += 1
        for p in (black, white, spec):
            wait_seq(p, seq)

    # a player asks: each side's area shaded, the dead stones faded, the result in words
    black.click(EST)
    shows_estimate(black)
    assert black.inner_text("#go-note [data-estimate]") == "Estimate: Black ahead by about 1"
    assert "Black 45 · White 36 · Komi 8" in black.inner_text("#go-note")
    assert black.locator("#goban .pt.est-dead").count() == 2
    for pt in ("B5", "H5"):
        assert black.locator(f'#goban [data-pt="{pt}"].est-dead').count() == 1
    assert black.locator("#goban .pt.own-b").count() == 45 - 9       # every point not a Black stone
    assert black.locator("#goban .pt.own-w").count() == 36 - 9
    assert black.get_attribute(EST, "aria-pressed") == "true" and black.inner_text(EST) == "Hide estimate"
    snap(black, shot, "go-estimate-en-1280")
    assert white.locator("#goban.estimate").count() == 0              # asked by one reader alone

    # the spectator, in Chinese at a phone's width
    spec.click(EST)
    shows_estimate(spec)
    assert spec.inner_text("#go-note [data-estimate]") == "形势判断：黑约领先 1 目"
    assert spec.locator("#goban").bounding_box()["width"] <= 390
    box = spec.locator(EST).bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    snap(spec, shot, "go-estimate-zh-390")
    # a click on the board takes it away (and plays nothing: a spectator's click never does)
    spec.click('#goban [data-pt="A1"]')
    spec.wait_for_selector("#goban:not(.estimate)")
    assert spec.locator("#goban .pt.est-dead, #goban .pt.own-b").count() == 0
    assert spec.locator("#go-note [data-estimate]").count() == 0
    assert spec.inner_text(EST) == "形势判断"

    # a click on the board by the player to move (Black: the estimate still shown) dismisses
    # the estimate without playing
    white.click(EST)
    shows_estimate(white)
    black.wait_for_selector("#goban.estimate")
    black.click('#goban [data-pt="A1"]')
    black.wait_for_selector("#goban:not(.estimate)")
    assert black.get_attribute("#status", "data-seq") == str(seq)
    assert black.locator('#goban [data-pt="A1"] .stone').count() == 0
    # the next move dismisses it on the page of the other player, who asked for it
    black.click('#goban [data-pt="A1"]')
    seq += 1
    for p in (black, white, spec):
        wait_seq(p, seq)
    white.wait_for_selector("#goban:not(.estimate)")
    assert white.locator("#go-note [data-estimate]").count() == 0
    assert white.inner_text(EST) == "Estimate score"

    # the phone in English and the desktop in Chinese too
    for page, lang, words, name in ((spec, "en", "Estimate: ", "go-estimate-en-390"),
                                    (black, "zh", "形势判断：", "go-estimate-zh-1280")):
        page.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        page.reload()
        wait_seq(page, seq)
        page.click(EST)
        shows_estimate(page)
        assert page.inner_text("#go-note [data-estimate]").startswith(words)
        snap(page, shot, name)
    assert not errors, errors
    for c in (ctx_b, ctx_w, ctx_s):
        c.close()
