"""The coordinates round the go, gomoku and Chinese checkers boards are readable at a phone's
width: drawn in the board's own units, a 390 px board shrank them to about 7 px. Each is now at
least 10 px high on the screen, and none covers a stone's place (a point's circle)."""

from __future__ import annotations

import pytest

from tests.e2e.movelist import new_page

SHOTS = "/tmp/shots-boardfix"

BOARDS = [
    ("go", {"board_size": 9}, ".go-board .coord text", ".go-board .pt", 0.47),
    ("go", {"board_size": 19}, ".go-board .coord text", ".go-board .pt", 0.47),
    ("gomoku", {}, ".gm-board .coord text", ".gm-board .pt", 0.45),
    ("chinese-checkers", {}, ".cc-rulers text", "#cc-board g.h .hit", 0.4),
]

MEASURE = """([texts, points, ratio]) => {
    // each text's ink: its box's width, and the height of its figures (about .72 of the font,
    // centred on the box; the box itself holds the line's ascent and descent too)
    const rects = [...document.querySelectorAll(texts)].map((e) => {
        const r = e.getBoundingClientRect(), svg = e.ownerSVGElement;
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        const px = parseFloat(getComputedStyle(e).fontSize) * scale;
        const mid = r.top + r.height / 2;
        return { left: r.left, right: r.right, top: mid - 0.36 * px, bottom: mid + 0.36 * px };
    });
    const circles = [...document.querySelectorAll(points)].map((e) => {
        const r = e.getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2, r.width * ratio];
    });
    // a text's box over a circle: its nearest point lies inside the circle
    const over = rects.filter((t) => circles.some(([x, y, rad]) => {
        const nx = Math.max(t.left, Math.min(x, t.right)), ny = Math.max(t.top, Math.min(y, t.bottom));
        return (nx - x) ** 2 + (ny - y) ** 2 < (rad - 0.5) ** 2;
    })).length;
    const sizes = [...document.querySelectorAll(texts)].map((e) => {
        const svg = e.ownerSVGElement, vb = svg.viewBox.baseVal;
        return parseFloat(getComputedStyle(e).fontSize) * svg.getBoundingClientRect().width / vb.width;
    });
    return { n: rects.length, smallest: Math.min(...sizes), over };
}"""


@pytest.mark.parametrize("game,options,texts,points,ratio", BOARDS,
                         ids=["go9", "go19", "gomoku", "chinese-checkers"])
def test_board_coordinates_are_readable_on_a_phone(browser, server, game, options, texts, points, ratio):
    for lang in ("zh", "en"):
        ctx, page, errors = new_page(browser, server, lang, "phone")
        r = page.request.post(server + "/api/tables", data={
            "game": game, "options": options, "sit": True, "seat": 0, "bots": 1, "bot": "random",
            "settings": {"clock": "none"}})
        assert r.ok, r.text()
        page.goto(f"{server}/tables/{r.json()['id']}")
        page.wait_for_selector(texts)
        page.wait_for_function("(q) => [...document.querySelectorAll(q)].every((e) => e.style.fontSize)",
                               arg=texts)
        got = page.evaluate(MEASURE, [texts, points, ratio])
        assert got["n"] >= 18, got
        assert got["smallest"] >= 10, got            # screen px of the font (was about 7)
        assert got["over"] == 0, got
        size = options.get("board_size", "")
        page.screenshot(path=f"{SHOTS}/coords-{game}{size}-{lang}-390.png", full_page=True)
        assert not errors
        ctx.close()
