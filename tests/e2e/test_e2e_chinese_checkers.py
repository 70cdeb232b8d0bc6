"""Two people play Chinese checkers (跳棋) in real browsers: one creates a two-player table, the
other joins (at phone width), each board is turned so its own home camp is at the bottom, they
make five moves each by clicking a marble and then one of its highlighted holes (steps and jump
chains), and the second player resigns; the record is in both histories and replays."""

from __future__ import annotations

import re

import pytest

import qipai

from .pages import both_see_the_outcome
from .test_e2e_play import create_table, join, sign_up, wait_seq

PLIES = 10


def progress(action, seat: int) -> int:
    """Rows gained towards the target camp (seat 0 heads north, r falling; seat 1 south)."""
    holes = str(action).split(">")
    r0, r1 = int(holes[0].split(",")[1]), int(holes[-1].split(",")[1])
    return (r0 - r1) if seat == 0 else (r1 - r0)


def pick(state, seat: int) -> str:
    """The move gaining the most rows (a jump chain whenever one gains more than a step)."""
    acts = [a for a in state.legal_actions(seat) if ">" in str(a)]
    return str(max(acts, key=lambda a: (progress(a, seat), str(a).count(">"), str(a))))


def is_jump(action: str) -> bool:
    """A chain of jumps: more than one landing, or one landing two holes away."""
    holes = [tuple(map(int, h.split(","))) for h in action.split(">")]
    (q0, r0), (q1, r1) = holes[0], holes[1]
    return len(holes) > 2 or max(abs(q1 - q0), abs(r1 - r0), abs(q1 - q0 + r1 - r0)) == 2


def marbles(page) -> dict[str, str]:
    """Hole -> owner seat of every marble drawn on the page's board."""
    return page.eval_on_selector_all(
        "#cc-board [data-hole] .mb",
        "els => Object.fromEntries(els.map(e => [e.closest('[data-hole]').dataset.hole, e.dataset.owner]))")


def expected(state) -> dict[str, str]:
    return {h: str(seat) for seat, holes in enumerate(state.view(None)["marbles"]) for h in holes}


def hole(page, name):
    return page.locator(f'#cc-board [data-hole="{name}"]')


def test_two_people_play_chinese_checkers_and_one_resigns(server, browser, shot):
    ctx_s = browser.new_context(locale="en-US")
    ctx_n = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")    # phone
    south, north = ctx_s.new_page(), ctx_n.new_page()
    sign_up(south, server, "ccsouth")
    sign_up(north, server, "ccnorth")

    south.select_option("select[name=game]", "chinese-checkers")
    assert south.input_value("select[name=num_seats]") == "2"
    table = create_table(south)
    join(north, server, table)
    both = (south, north)
    for page in both:
        wait_seq(page, 0)
        assert page.locator("#cc-board [data-hole]").count() == 121
        assert page.locator("#cc-board .mb").count() == 20
    state = qipai.load("chinese-checkers").new_state(num_seats=2)
    assert marbles(south) == expected(state) == marbles(north)

    # each board has its own home camp at the bottom: S (tip -4,8) for seat 0, N (4,-8) for seat 1
    def y(page, name):
        return hole(page, name).bounding_box()["y"]
    assert y(south, "-4,8") > y(south, "0,0") > y(south, "4,-8")
    assert y(north, "4,-8") > y(north, "0,0") > y(north, "-4,8")
    assert south.get_attribute("#cc-board", "data-home") == "S"
    assert north.get_attribute("#cc-board", "data-home") == "N"
    assert north.locator("#cc-board").bounding_box()["width"] <= 390       # fits a phone
    assert "Click one of your marbles" in south.inner_text("#cc-note")       # English labels
    # the seat's facts as a player reads them, not raw labels ("S · moves 0 · target 0/10")
    assert "South · 0 moves · 0 of 10 home" in south.inner_text("#cc-info")
    assert re.search(r"Round 1 · jump rule: (adjacent|equidistant) jumps", south.inner_text("#cc-info"))
    assert "北方 · 走了 0 步 · 0/10 子到达目标" in north.inner_text("#cc-info")   # Chinese

    # a click out of turn, or on the opponent's marble, selects and sends nothing
    hole(north, "4,-5").click()
    hole(south, "4,-5").click()
    assert north.locator("#cc-board .sel").count() == 0 and south.locator("#cc-board .sel").count() == 0

    played = []
    for ply in range(PLIES):
        seat = ply % 2
        page, other = (south, north) if seat == 0 else (north, south)
        action = pick(state, seat)
        start, dest = action.split(">")[0], action.split(">")[-1]
        hole(page, start).click()
        # the highlighted holes are exactly the destinations the referee allows this marble
        allowed = sorted(str(a).split(">")[-1] for a in state.legal_actions(seat)
                         if str(a).split(">")[0] == start)
        shown = sorted(page.eval_on_selector_all("#cc-board .h.target",
                                                 "els => els.map(e => e.dataset.hole)"))
        assert shown == allowed and dest in shown
        assert other.locator("#cc-board .h.target").count() == 0
        if ply == 2:
            shot(page, "chinese-checkers-selected")
        hole(page, dest).click()
        state.apply(action, seat)
        played.append(action)
        for p in both:
            wait_seq(p, ply + 1)
            assert marbles(p) == expected(state)
            assert p.locator("#cc-board .h.last-to").get_attribute("data-hole") == dest
            assert p.locator("#cc-board .h.last-from").get_attribute("data-hole") == start
            assert p.locator("#cc-board .cc-last").count() == 1
        assert state.view(None)["last_move"] == action
    assert any(is_jump(a) for a in played), "the opening played no jump"
    shot(south, "chinese-checkers-play")
    shot(north, "chinese-checkers-play-phone")

    # North (seat 1) resigns: South wins 1-0
    north.click("#resign")
    north.click('#ask [data-answer="yes"]')          # resigning asks first
    for page in both:
        page.wait_for_selector("#record-link")
        status = page.inner_text("#status")
        # words, not "1-0 (resign)"
        assert re.search(r"(You won|You lost|你赢了|你输了) — \S+ ?(resigned|认输)$", status), status
        assert page.locator("#cc-board .mb").count() == 20
    shot(south, "chinese-checkers-resigned")
    record = south.get_attribute("#record-link", "href").rsplit("/", 1)[1]
    assert north.get_attribute("#record-link", "href") == f"/records/{record}"
    both_see_the_outcome(both, server, record, ("ccnorth", "ccsouth"))

    # the replay: the last position, then one move back (South's last move undone)
    south.goto(f"{server}/records/{record}")
    south.wait_for_selector("#cc-board .mb")
    assert marbles(south) == expected(state)
    south.click("#prev")
    south.click("#prev")
    before = qipai.load("chinese-checkers").new_state(num_seats=2)
    for a in played[:-1]:
        before.apply(a)
    assert marbles(south) == expected(before)
    shot(south, "chinese-checkers-replay")
    ctx_s.close()
    ctx_n.close()


CAMP_TIPS = {"N": "4,-8", "NE": "8,-4", "SE": "4,4", "S": "-4,8", "SW": "-8,4", "NW": "-4,-4"}


@pytest.mark.parametrize(("players", "seat", "home"), [(3, 1, "NE"), (4, 3, "SW"), (6, 4, "NW")])
def test_more_players_each_board_turned_to_its_home_camp(server, browser, shot, players, seat, home):
    """A person at a 3-, 4- or 6-player table with greedy bots: every seat's marbles in their
    colour, the person's home camp at the bottom, and a move made by two clicks."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    sign_up(page, server, f"cc{players}p", lobby=False)
    r = page.request.post(server + "/api/tables", data={
        "game": "chinese-checkers", "num_seats": players, "sit": True, "seat": seat,
        "bots": players - 1, "bot": "greedy"})
    assert r.ok, r.text()
    page.goto(f"{server}/tables/{r.json()['id']}")
    page.wait_for_selector("#cc-board.myturn")
    assert page.get_attribute("#cc-board", "data-home") == home
    assert page.locator("#cc-board .cc-rulers").count() == 0      # names on hover only, the board turned
    owners = page.eval_on_selector_all("#cc-board .mb", "els => els.map(e => e.dataset.owner)")
    assert sorted(set(owners)) == [str(s) for s in range(players)] and len(owners) == 10 * players
    fills = page.eval_on_selector_all("#cc-board .mb", "els => els.map(e => e.getAttribute('fill'))")
    assert len(set(fills)) == players                                  # a colour per seat
    # the home camp's tip is the lowest hole of the board, its opposite the highest
    ys = {c: page.locator(f'#cc-board [data-hole="{h}"]').bounding_box()["y"] for c, h in CAMP_TIPS.items()}
    opposite = {"N": "S", "S": "N", "NE": "SW", "SW": "NE", "NW": "SE", "SE": "NW"}[home]
    assert max(ys, key=ys.get) == home and min(ys, key=ys.get) == opposite
    tip = page.locator(f'#cc-board [data-hole="{CAMP_TIPS[home]}"] .mb')
    assert tip.get_attribute("data-owner") == str(seat)
    seq = int(page.get_attribute("#status", "data-seq"))

    page.locator("#cc-board .h.movable").first.click()
    start = page.get_attribute("#cc-board .h.sel", "data-hole")
    dest = page.get_attribute("#cc-board .h.target >> nth=0", "data-hole")
    shot(page, f"chinese-checkers-{players}p-selected")
    page.click(f'#cc-board [data-hole="{dest}"]')
    page.wait_for_function(
        "([s, d]) => { const g = document.querySelector(`#cc-board [data-hole='${d}'] .mb`);"
        " return g && g.dataset.owner === s && +document.querySelector('#status').dataset.seq > "
        f"{seq}; }}", arg=[str(seat), dest])
    assert page.locator(f'#cc-board [data-hole="{start}"] .mb').count() == 0 or \
        page.get_attribute(f'#cc-board [data-hole="{start}"] .mb', "data-owner") != str(seat)
    shot(page, f"chinese-checkers-{players}p")
    ctx.close()


MOUNT = """async ([msg, lang]) => {
  const mod = await import("/static/boards/chinese-checkers.js");
  const { t } = await import("/static/i18n.js");     // the page's own words (plural forms too)
  const root = document.createElement("div");
  document.querySelector("#app").replaceChildren(root);
  window.sent = [];
  window.ccBoard = mod.mount(root, { lang, t, send: (a) => window.sent.push(a) });
  window.ccBoard.update(msg);
}"""


def state_message(state, seat, seq):
    """The server's state message for ``seat`` (qipai/server/tables.py), from the real referee."""
    to_act = [] if state.is_terminal() else list(state.to_act)
    msg = {"type": "state", "seq": seq, "seat": seat, "to_act": to_act, "view": state.view(seat),
           "names": [f"p{i}" for i in range(state.num_seats)],
           "result": state.result.to_json() if state.result else None}
    if seat in to_act:
        msg["legal"] = [str(a) for a in state.legal_actions(seat)]
    return msg


def test_board_offers_pass_only_when_the_referee_does_and_shows_places(server, browser, shot):
    """The board module alone, fed the real referee's views: a seat with no move gets a pass
    button (the only action it can send, once); a 3-player game ended by eliminations shows
    each seat's status and place."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    page = ctx.new_page()
    page.goto(server + "/login")
    game = qipai.load("chinese-checkers")
    blocked = game.new_state(position="S=-4,8;N=-4,7 -3,7 -4,6 -2,6;to=S")
    assert [str(a) for a in blocked.legal_actions(0)] == ["pass"]
    page.evaluate(MOUNT, [state_message(blocked, 0, 7), "en"])
    assert "No move possible" in page.inner_text("#cc-note")
    hole(page, "-4,8").click()                                   # the marble has no destination
    assert page.locator("#cc-board .sel, #cc-board .target").count() == 0
    shot(page, "chinese-checkers-pass")
    page.click('#cc-actions [data-action="pass"]')
    assert page.locator('#cc-actions [data-action="pass"]').count() == 0     # sent once only
    assert page.evaluate("window.sent") == ["pass"]

    # the opponent's turn: no pass button, nothing clickable
    blocked.apply("pass", 0)
    page.evaluate("m => window.ccBoard.update(m)", state_message(blocked, 0, 8))
    assert page.locator('#cc-actions [data-action="pass"]').count() == 0
    assert "pass" in page.inner_text("#cc-note").lower()

    three = game.new_state(num_seats=3)
    three.apply("-4,5>-4,4", 0)
    three.forfeit(2, "timeout")
    three.resign(1)
    # the board speaks the page's language (a Chinese browser's), as the table page passes it
    ctx.close()
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    page = ctx.new_page()
    page.goto(server + "/login")
    page.evaluate(MOUNT, [state_message(three, 1, 3), "zh"])
    chips = [page.inner_text(f'[data-seat-info="{s}"]') for s in range(3)]
    assert "第1名" in chips[0] and "第2名" in chips[1] and "第3名" in chips[2]
    # why each is out, in words: seat 1 resigned, seat 2 ran out of time
    assert "已认输" in chips[1] and "超时出局" in chips[2], chips
    # eliminated seats' marbles leave the board
    assert page.locator('#cc-board .mb[data-owner="0"]').count() == 10
    assert page.locator('#cc-board .mb[data-owner="1"], #cc-board .mb[data-owner="2"]').count() == 0
    assert page.get_attribute("#cc-board", "data-home") == "NE"
    shot(page, "chinese-checkers-3p-places-zh")
    ctx.close()


CELL = re.compile(r"[a-hj-z]\d{1,2}")


def cell(hole: str) -> str:
    """The cell name of hole ``q,r`` (docs/games/chinese-checkers.md, Notation)."""
    q, r = map(int, hole.split(","))
    return f"{'abcdefghjklmnopqrstuvwxyz'[2 * q + r + 12]}{9 - r}"


def moves_listed(page) -> list[tuple[str, str]]:
    """(text, hover title) of every entry of the move list."""
    return page.eval_on_selector_all("#ml-list .ml-move", "ms => ms.map((m) => [m.querySelector('.ml-t')"
                                     "?.textContent ?? m.textContent, m.title])")


def test_the_move_list_names_each_hole_by_its_cell(server, browser, shot):
    """The live move list and the replay name every hole of a move by its cell name (``q4 → r5``,
    each landing of a jump chain), in both languages, with the engine's ``q,r`` on hover; the
    board names a hole on hover and writes the column letters and row numbers on its edges when
    S or N is at the bottom."""
    ctx = browser.new_context(locale="zh-CN")
    page = ctx.new_page()
    sign_up(page, server, "cccells", lobby=False)
    r = page.request.post(server + "/api/tables", data={
        "game": "chinese-checkers", "bots": 1, "bot": "greedy", "settings": {"clock": "none"}})
    assert r.ok, r.text()
    page.goto(f"{server}/tables/{r.json()['id']}")
    for i in range(4):                                  # four moves each: three by clicks, one typed
        page.wait_for_selector("#cc-board.myturn")
        seq = int(page.get_attribute("#status", "data-seq"))
        if i < 3:
            page.locator("#cc-board .h.movable").last.click()
            page.locator("#cc-board .h.target").last.click()
        else:                                           # the moves offered to type are in cell names
            typed = page.get_attribute("#legal-moves option >> nth=0", "value")
            assert re.fullmatch(r"[a-hj-z]\d{1,2}(>[a-hj-z]\d{1,2})+", typed), typed
            page.fill('#move-entry input[name="move"]', typed)
            page.press('#move-entry input[name="move"]', "Enter")
        page.wait_for_function(f"() => +document.querySelector('#status').dataset.seq > {seq + 1}")
    assert page.text_content('#cc-board [data-hole="-1,5"] title') == "q4"
    rulers = page.locator("#cc-board .cc-rulers text").all_text_contents()
    assert rulers.count("a") == rulers.count("z") == 2 and rulers.count("17") == 2 and len(rulers) == 84
    listed = moves_listed(page)
    assert len(listed) >= 8
    for text, title in listed:
        holes = title.split(" → ")
        assert text == " → ".join(cell(h) for h in holes), (text, title)
        assert all(CELL.fullmatch(c) for c in text.split(" → ")) and "," not in text, text
    shot(page, "chinese-checkers-cells-zh-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "chinese-checkers-cells-zh-390")
    # a chain of three jumps shows its four holes (the list's own words, in the page)
    shown = page.evaluate("""async () => { const { moveFormat } = await import('/static/movetext.js');
        const f = moveFormat('chinese-checkers', (k) => k, 'en').format;
        return [f({ seat: 0, text: '-2,6>0,4>2,2>4,0' }).text,
                f({ seat: 1, text: '-2,6>0,4', cells: ['m3', 'q5'] }).text]; }""")
    assert shown == ["p3 → r5 → t7 → v9", "m3 → q5"], shown
    page.click("#resign")
    page.click('#ask [data-answer="yes"]')          # resigning asks first
    page.click("#record-link")
    page.wait_for_selector("#replay-result")
    page.evaluate("localStorage.setItem('lang', 'en')")
    page.reload()
    page.wait_for_selector("#ml-list .ml-move")
    assert [t for t, _ in moves_listed(page)] == [t for t, _ in listed] + ["Resigned"]
    shot(page, "chinese-checkers-cells-replay-en-390")
    page.set_viewport_size({"width": 1280, "height": 900})
    shot(page, "chinese-checkers-cells-replay-en-1280")
    ctx.close()
