"""Drag and drop on the junqi and Chinese checkers boards, and their flip switch, in real browsers:
one player with a mouse on a 1280 px page, the other with a finger on a 390 px phone page (real
touch input through Chromium's DevTools protocol, so a board that let the page scroll under the
finger would lose the drag). A drag shows the piece under the pointer and its legal targets, a
drop on a target makes the move (or, in junqi's layout, the swap), a drop off the board or on an
illegal point cancels it with nothing sent; the flip switch turns the board round and back."""

from __future__ import annotations

import qipai

from .test_e2e_play import create_table, join, sign_up, wait_seq


def centre(page, selector):
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def into_view(page, board):
    page.eval_on_selector(board, "b => b.scrollIntoView({block: 'center'})")


class Mouse:
    """A mouse drag in steps: press, move, release."""

    def __init__(self, page):
        self.page = page

    def down(self, x, y):
        self.page.mouse.move(x, y)
        self.page.mouse.down()

    def move(self, x, y):
        self.page.mouse.move(x, y, steps=6)

    def up(self):
        self.page.mouse.up()


class Finger:
    """A finger on a touch screen (the DevTools protocol's touch events: the browser's own touch
    handling, scrolling included, as on a phone)."""

    def __init__(self, page):
        self.cdp = page.context.new_cdp_session(page)
        self.at = (0.0, 0.0)

    def _touch(self, kind, x=None, y=None):
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def down(self, x, y):
        self.at = (x, y)
        self._touch("touchStart", x, y)

    def move(self, x, y):
        (x0, y0) = self.at
        for i in range(1, 7):
            self._touch("touchMove", x0 + (x - x0) * i / 6, y0 + (y - y0) * i / 6)
        self.at = (x, y)

    def up(self):
        self._touch("touchEnd")


def lift(page, hand, selector):
    """Press on ``selector`` and move a little: the drag is on (a copy of the piece under the
    pointer, the piece selected, its targets shown)."""
    x, y = centre(page, selector)
    hand.down(x, y)
    hand.move(x + 14, y - 14)
    page.wait_for_selector(".drag-ghost")


def seated(server, browser, game, prefix, board, south_lang, north_lang):
    """Two people at a new two-seat table of ``game``: South (seat 0) with a mouse on a 1280 px
    page, North with a touch screen on a 390 px page; each page's board scrolled into view."""
    ctx_s = browser.new_context(locale=south_lang, viewport={"width": 1280, "height": 900})
    ctx_n = browser.new_context(locale=north_lang, viewport={"width": 390, "height": 844}, has_touch=True)
    south, north = ctx_s.new_page(), ctx_n.new_page()
    sign_up(south, server, f"{prefix}south")
    sign_up(north, server, f"{prefix}north")
    south.select_option("select[name=game]", game)
    table = create_table(south)
    join(north, server, table)
    for page in (south, north):
        wait_seq(page, 0)
        page.wait_for_selector(board)
        into_view(page, board)
    return south, north


def test_junqi_pieces_drag_by_mouse_and_finger_and_the_board_flips(server, browser, shot):
    south, north = seated(server, browser, "junqi", "drag", "#jq-board", "en-US", "zh-CN")
    both = (south, north)
    for page in both:
        page.wait_for_selector('#jq-actions [data-action="submit"]')
        into_view(page, "#jq-board")             # the layout's buttons came above it
    mouse, finger = Mouse(south), Finger(north)

    def layout(page, seat):
        return page.evaluate("""(seat) => Object.fromEntries(
            [...document.querySelectorAll(`#jq-board .jq-pc[data-seat="${seat}"]`)]
                .map((pc) => [pc.parentElement.dataset.pt, pc.dataset.piece]))""", seat)

    def targets(page):
        return page.eval_on_selector_all("#jq-board .jq-pt.target", "els => els.map(e => e.dataset.pt)")

    def pt(name):
        return f'#jq-board [data-pt="{name}"]'

    # the layout: South drags a front-row piece onto a piece it may trade places with
    before = layout(south, 0)
    lift(south, mouse, pt("a6"))
    assert south.locator("#jq-board .jq-pt.sel").get_attribute("data-pt") == "a6"
    partners = targets(south)
    assert partners and "a6" not in partners
    mouse.move(*centre(south, pt(partners[0])))
    shot(south, "junqi-drag-layout-1280-en")
    mouse.up()
    after = layout(south, 0)
    assert after["a6"] == before[partners[0]] and after[partners[0]] == before["a6"]
    assert south.locator(".drag-ghost").count() == 0 and south.locator("#jq-board .jq-pt.sel").count() == 0
    # dropped off the board: the layout stays as it was
    lift(south, mouse, pt("a6"))
    board = south.locator("#jq-board").bounding_box()
    mouse.move(board["x"] + board["width"] + 150, board["y"] + board["height"] / 2)
    mouse.up()
    assert layout(south, 0) == after and south.locator("#jq-board .jq-pt.sel").count() == 0

    # North swaps by finger (its front row is row 7)
    before_n = layout(north, 1)
    lift(north, finger, pt("a7"))
    partners = targets(north)
    assert partners
    finger.move(*centre(north, pt(partners[0])))
    shot(north, "junqi-drag-layout-390-zh")
    finger.up()
    after_n = layout(north, 1)
    assert after_n["a7"] == before_n[partners[0]] and after_n[partners[0]] == before_n["a7"]

    south.click('#jq-actions [data-action="submit"]')
    for page in both:
        wait_seq(page, 1)
    north.click('#jq-actions [data-action="submit"]')
    for page in both:
        wait_seq(page, 2)
        page.wait_for_selector('#jq-board[data-phase="play"]')
    assert layout(south, 0) == after and layout(north, 1) == after_n     # the swaps were kept

    # South's a6 may attack a7 up the railway or step into the camp b5. A drag over a7 that ends
    # off the board sends nothing: the move then dragged to the other target is the one made
    lift(south, mouse, pt("a6"))
    tg = targets(south)
    assert "a7" in tg and len(tg) >= 2, tg
    mouse.move(*centre(south, pt("a7")))
    board = south.locator("#jq-board").bounding_box()
    mouse.move(board["x"] + board["width"] + 150, board["y"] + board["height"] / 2)
    mouse.up()
    assert south.locator("#jq-board .jq-pt.sel").count() == 0
    assert south.get_attribute("#status", "data-seq") == "2"
    other = next(t for t in tg if t != "a7")
    lift(south, mouse, pt("a6"))
    shot(south, "junqi-drag-play-1280-en")
    mouse.move(*centre(south, pt(other)))
    mouse.up()
    for page in both:
        wait_seq(page, 3)
        assert page.locator(f'{pt("a6")}.last-from').count() == 1
        assert page.locator(f'{pt(other)}.last-to').count() == 1

    # North, by finger: a drop on a point that is not a target cancels; then a move by drag
    movers = north.eval_on_selector_all("#jq-board .jq-pt.can-move", "els => els.map(e => e.dataset.pt)")
    mover = movers[0]
    lift(north, finger, pt(mover))
    tg = targets(north)
    assert tg
    wrong = next(n for n in movers if n != mover and n not in tg)     # another own piece
    finger.move(*centre(north, pt(wrong)))
    finger.up()
    assert north.locator("#jq-board .jq-pt.sel").count() == 0
    assert north.get_attribute("#status", "data-seq") == "3"
    lift(north, finger, pt(mover))
    assert targets(north) == tg
    shot(north, "junqi-drag-play-390-zh")
    finger.move(*centre(north, pt(tg[-1])))
    finger.up()
    for page in both:
        wait_seq(page, 4)
        assert page.locator(f'{pt(mover)}.last-from').count() == 1
        assert page.locator(f'{pt(tg[-1])}.last-to').count() == 1

    # the flip switch turns the board round, and back
    def y(page, name):
        return page.locator(pt(name)).bounding_box()["y"]
    assert y(south, "a1") > y(south, "a12")
    south.click('[data-action="flip-board"]')
    assert y(south, "a1") < y(south, "a12")
    assert south.get_attribute('[data-action="flip-board"]', "aria-pressed") == "true"
    assert south.locator(f'{pt(tg[-1])}.last-to').count() == 1       # the same position
    shot(south, "junqi-flipped-1280-en")
    south.click('[data-action="flip-board"]')
    assert y(south, "a1") > y(south, "a12")
    assert y(north, "a1") < y(north, "a12")
    north.click('[data-action="flip-board"]')
    assert y(north, "a1") > y(north, "a12")
    assert north.inner_text('[data-action="flip-board"]') == "翻转棋盘"
    shot(north, "junqi-flipped-390-zh")
    south.context.close()
    north.context.close()


def test_chinese_checkers_marbles_drag_by_mouse_and_finger_and_the_board_flips(server, browser, shot):
    south, north = seated(server, browser, "chinese-checkers", "ccdrag", "#cc-board", "zh-CN", "en-US")
    both = (south, north)
    mouse, finger = Mouse(south), Finger(north)
    state = qipai.load("chinese-checkers").new_state(num_seats=2)

    def hole(name):
        return f'#cc-board [data-hole="{name}"]'

    def targets(page):
        return sorted(page.eval_on_selector_all("#cc-board .h.target", "els => els.map(e => e.dataset.hole)"))

    def choice(seat):
        """A marble with two destinations or more, its destinations, and the action to each."""
        moves: dict[str, dict[str, str]] = {}
        for a in map(str, state.legal_actions(seat)):
            if ">" in a:
                moves.setdefault(a.split(">")[0], {})[a.split(">")[-1]] = a
        start = min(h for h, d in moves.items() if len(d) >= 2)
        return start, moves[start]

    def drag_move(page, pointer, start, dest, action, seat, seq, name):
        """Drag the marble on ``start`` to ``dest`` (a screenshot while over it), drop it, and
        see the move land on both pages as the referee's ``action`` (move number ``seq``) with
        its last-move marks."""
        lift(page, pointer, hole(start))
        pointer.move(*centre(page, hole(dest)))
        shot(page, name)
        pointer.up()
        state.apply(action, seat)
        for each in both:
            wait_seq(each, seq)
            assert each.locator("#cc-board .h.last-from").get_attribute("data-hole") == start
            assert each.locator("#cc-board .h.last-to").get_attribute("data-hole") == dest

    # South (mouse): the targets shown while dragging are the referee's; a drop off the board
    # after passing over one sends nothing; then a drag to another target moves
    start, dests = choice(0)
    lift(south, mouse, hole(start))
    assert targets(south) == sorted(dests)
    assert south.locator("#cc-board .h.sel").get_attribute("data-hole") == start
    first, second = sorted(dests)[:2]
    mouse.move(*centre(south, hole(first)))
    board = south.locator("#cc-board").bounding_box()
    mouse.move(board["x"] + board["width"] + 120, board["y"] + 40)
    mouse.up()
    assert south.locator("#cc-board .h.sel").count() == 0 and south.locator(".drag-ghost").count() == 0
    assert south.get_attribute("#status", "data-seq") == "0"
    drag_move(south, mouse, start, second, dests[second], 0, 1, "chinese-checkers-drag-1280-zh")

    # North (finger): a drop on a hole that is no target cancels; then a move by drag
    start, dests = choice(1)
    lift(north, finger, hole(start))
    assert targets(north) == sorted(dests)
    wrong = next(h for h in ("0,0", "1,0", "-1,0", "0,1") if h not in dests and h != start)
    finger.move(*centre(north, hole(wrong)))
    finger.up()
    assert north.locator("#cc-board .h.sel").count() == 0
    assert north.get_attribute("#status", "data-seq") == "1"
    dest = sorted(dests)[-1]
    drag_move(north, finger, start, dest, dests[dest], 1, 2, "chinese-checkers-drag-390-en")

    # the flip switch: the opposite camp at the bottom, and back
    def y(page, name):
        return page.locator(hole(name)).bounding_box()["y"]
    assert y(south, "-4,8") > y(south, "4,-8") and south.get_attribute("#cc-board", "data-home") == "S"
    south.click('[data-action="flip-board"]')
    assert y(south, "-4,8") < y(south, "4,-8") and south.get_attribute("#cc-board", "data-home") == "N"
    assert south.locator("#cc-board .mb").count() == 20
    assert south.locator("#cc-board .h.last-to").get_attribute("data-hole") == dest
    shot(south, "chinese-checkers-flipped-1280-zh")
    south.click('[data-action="flip-board"]')
    assert y(south, "-4,8") > y(south, "4,-8") and south.get_attribute("#cc-board", "data-home") == "S"
    north.click('[data-action="flip-board"]')
    assert y(north, "-4,8") > y(north, "4,-8") and north.get_attribute("#cc-board", "data-home") == "S"
    assert north.inner_text('[data-action="flip-board"]') == "Flip board"
    shot(north, "chinese-checkers-flipped-390-en")
    south.context.close()
    north.context.close()
