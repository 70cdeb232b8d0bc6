"""The table page's chat, sounds, theme and rematch in real Chromium: two people (one with the
Chinese interface, one with the English) chat across two browser contexts, markup stays text,
a draw offer says what became of it, sounds play unless muted, the tab title shows the turn,
dark mode follows the toggle (and the system), and 再来一局 seats both again with colours
swapped. Screenshots at 1280 and 390 px, both languages, light and dark."""

from __future__ import annotations

import pytest

from .conftest import set_width
from .pages import FIRST_EVENT_MS
from .test_e2e_a11y import check
from .test_e2e_cardtable import BOARD_SCRIPT
from .test_e2e_play import create_table, join, sign_up, submit_account_form, wait_seq
from .timing import until

HOSTILE = '<b>bold?</b> <img src=x onerror="window.pwned=1"> & 你好'


def chat(page, text):
    page.fill("#chat input[name=chat]", text)
    page.press("#chat input[name=chat]", "Enter")


def lines(page):
    return page.locator("#chat .chat-text").all_inner_texts()


TEXTS = "[...document.querySelectorAll('#chat .chat-text')]"


def wait_line(page, text):
    page.wait_for_function(f"t => {TEXTS}.some(e => e.textContent === t)", arg=text, timeout=30_000)


def sounds(page, kind):
    return page.evaluate("k => (window.qipaiSounds && window.qipaiSounds.count[k]) || 0", kind)


def move(page, mv):
    page.click(f'[data-sq="{mv[:2]}"]')
    page.click(f'[data-sq="{mv[2:]}"]')


def open_table(page, server, game, clock):
    """Sit at a new table of ``game`` with bots in the other seats, and open its page."""
    tid = page.evaluate("""async ([game, clock]) => (await (await fetch('/api/tables', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game, bots: 8, settings: {clock}})})).json()).id""", [game, clock])
    page.goto(f"{server}/tables/{tid}")
    return tid


def test_chat_draw_offer_sound_theme_and_rematch(server, browser, shot):
    ctx_a = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    ctx_b = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    a, b = ctx_a.new_page(), ctx_b.new_page()
    for p in (a, b):
        p.on("dialog", lambda d: d.accept())
    sign_up(a, server, "chat_red")
    sign_up(b, server, "chat_black")
    a.select_option("select[name=game]", "xiangqi")
    table = create_table(a)
    join(b, server, table)
    wait_seq(a, 0)
    wait_seq(b, 0)
    assert "轮到你了" in a.title() and "Your turn" not in b.title()

    # chat both ways; markup is shown as text and runs nothing
    chat(a, HOSTILE)
    wait_line(b, HOSTILE)
    assert b.evaluate(f"() => {TEXTS}.every(e => e.children.length === 0)")
    assert b.evaluate("() => window.pwned") is None
    assert b.locator("#chat img, #chat b:not(.chat-who)").count() == 0
    chat(b, "good luck")
    wait_line(a, "good luck")
    wait_line(b, "good luck")          # the writer's own line comes back from the server too
    assert lines(a) == lines(b) == [HOSTILE, "good luck"]
    # a quick phrase goes in one click, and each reader reads it in their own language
    a.click('#chat [data-quick="好棋！"]')
    wait_line(b, "Nice move!")
    wait_line(a, "好棋！")
    assert b.locator('#chat [data-quick="Nice move!"]').count() == 1
    assert a.input_value("#chat input[name=chat]") == ""
    # too long for the field: the browser keeps 300 characters; the server refuses nothing
    chat(b, "x" * 350)
    wait_line(a, "x" * 300)

    # a draw offer on one's own turn goes out with the move, and the page says so
    a.click("#draw")
    a.wait_for_function("() => document.querySelector('#table-note').textContent.includes('走完这步后')")
    assert a.locator("#draw").count() == 0 and a.locator("#draw-pending").count() == 1
    move(a, "h2e2")
    wait_seq(b, 1)
    b.wait_for_function("() => document.querySelector('#table-note').textContent.includes('offers a draw')")
    a.wait_for_function("() => document.querySelector('#table-note').textContent.includes('已向对方提和')")
    assert "Your turn" in b.title() and "轮到你了" not in a.title()
    b.wait_for_function("() => (window.qipaiSounds.count.turn || 0) >= 1")
    shot(b, "chat-table-en-1280")
    shot(a, "chat-table-zh-1280")
    b.click("#controls button:has-text('Decline')")
    a.wait_for_function("() => document.querySelector('#table-note').textContent.includes('拒绝了你的提和')")

    # muting: remembered across a reload, and nothing plays while muted
    assert b.get_attribute("#mute", "data-muted") == "0"
    b.click("#mute")
    b.reload()
    wait_seq(b, 1)
    assert b.get_attribute("#mute", "data-muted") == "1"
    assert lines(b)[-1] == "x" * 300                     # the reload shows the recent lines
    move(b, "h9g7")
    wait_seq(a, 2)
    a.wait_for_function("() => (window.qipaiSounds.count.turn || 0) >= 1")
    assert sounds(b, "turn") + sounds(b, "move") + sounds(b, "capture") == 0

    # dark mode: follows the system until chosen, then the choice (remembered)
    ctx_a.close()
    ctx_a = browser.new_context(locale="zh-CN", color_scheme="dark", viewport={"width": 1280, "height": 900},
                                storage_state=None)
    a = ctx_a.new_page()
    a.on("dialog", lambda d: d.accept())
    a.goto(server + "/login")
    a.fill("input[name=username]", "chat_red")
    a.fill("input[name=password]", "e2e-password-1")
    a.click("button[type=submit]")
    a.wait_for_selector("#me", state="attached")
    a.goto(f"{server}/tables/{table}")
    wait_seq(a, 2)
    assert a.evaluate("() => document.documentElement.dataset.theme") == "dark"
    bg = a.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert bg == "rgb(21, 23, 27)", bg
    shot(a, "chat-table-zh-1280-dark")
    a.click("#theme")                                     # auto -> dark (chosen)
    a.click("#theme")                                     # dark -> light
    assert a.evaluate("() => document.documentElement.dataset.theme") == "light"
    a.reload()
    wait_seq(a, 2)
    assert a.evaluate("() => document.documentElement.dataset.theme") == "light"
    a.click("#theme")                                     # light -> follow the system (dark here)
    assert a.evaluate("() => document.documentElement.dataset.theme") == "dark"

    # phone width, both languages
    for page, name in ((a, "zh"), (b, "en")):
        page.set_viewport_size({"width": 390, "height": 844})
        shot(page, f"chat-table-{name}-390" + ("-dark" if name == "zh" else ""))
        page.set_viewport_size({"width": 1280, "height": 900})

    # the end, and 再来一局: the asker sits with the other colour, the other joins from its page
    a.click("#resign")
    a.click('#ask [data-answer="yes"]')          # resigning asks first
    for page in (a, b):
        page.wait_for_selector("#rematch")
    a.click("#rematch")
    a.wait_for_url(lambda url: table not in url)
    new = a.url.rsplit("/", 1)[1]
    b.wait_for_function("() => document.querySelector('#table-note').textContent.includes('wants a rematch')")
    assert "chat_red" in b.inner_text("#rematch")
    shot(b, "rematch-offered-en-1280")
    b.click("#rematch")
    b.wait_for_url(f"**/tables/{new}")
    wait_seq(a, 0)
    wait_seq(b, 0)
    # chat_black now plays Red (first to move) and chat_red Black
    assert "Your turn" in b.title() and "轮到你了" not in a.title()
    # the old game's page, opened again, links to the rematch (issue 13)
    b.goto(f"{server}/tables/{table}")
    assert b.wait_for_selector("#rematch-link").get_attribute("href") == f"/tables/{new}"
    shot(b, "rematch-link-en-1280")
    ctx_a.close()
    ctx_b.close()


def test_a_card_player_hands_the_seat_to_the_computer_and_takes_it_back(server, browser, shot):
    ctx = browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    sign_up(page, server, "tuoguan")
    open_table(page, server, "doudizhu", "card_default")
    page.wait_for_selector("#entrust")
    page.click("#entrust")
    page.wait_for_selector("#takeback")
    page.wait_for_function("() => document.querySelector('#table-note').textContent.includes('托管')")
    shot(page, "tuoguan-zh-390")
    # the computer plays on; the seat is taken back at once after a few plies, before the hand
    # can end (a screenshot here, on a loaded machine, let the whole hand finish first)
    seq = int(page.get_attribute("#status", "data-seq"))
    page.wait_for_function(f"() => +document.querySelector('#status').dataset.seq > {seq + 3}",
                           timeout=30_000)
    page.click("#takeback")
    page.wait_for_selector("#entrust", timeout=30_000)
    assert page.locator("#takeback").count() == 0
    ctx.close()


def only_pass(game_id, seed):
    """A state of a random playout of ``game_id`` where a seat's only answer is to pass, and
    that seat (the first such state)."""
    import random

    import qipai
    state, rng = qipai.load(game_id).new_state(seed=seed), random.Random(seed)
    while not state.is_terminal():
        for seat in state.to_act:
            only = [str(a) for a in state.legal_actions(seat)] == ["pass"]
            if only and state.view(seat)["phase"] != "bidding":
                return state, seat
        seat = state.to_act[0]
        state.apply(rng.choice([str(a) for a in state.legal_actions(seat)]), seat)
    raise AssertionError(f"no state of {game_id} where a seat can only pass")


@pytest.mark.parametrize("game_id", ["doudizhu", "mahjong-gb"])
def test_the_auto_pass_leaves_a_seat_in_trusteeship_to_the_computer(server, browser, game_id):
    """A seat in trusteeship whose only answer is to pass (要不起, a claim window it cannot
    claim): the board's auto-pass sent the pass itself, which the server takes as the player's
    own action, ending the trusteeship the player asked for (the take-back button went with it,
    and the player's turns waited for the player again). Now the board leaves the turn to the
    computer, and passes by itself again once the seat is taken back."""
    state, seat = only_pass(game_id, 1)
    n = state.num_seats
    msg = {"type": "state", "seq": 7, "seat": seat, "to_act": list(state.to_act), "view": state.view(seat),
           "names": ["ann", "Bot", "Bot", "Bot"][:n], "bots": [s != seat for s in range(n)],
           "legal": ["pass"], "turn": 3, "result": None, "status": "playing",
           "clocks": [{"trustee": True} if s == seat else {} for s in range(n)]}
    taken_back = {**msg, "seq": 8, "clocks": [{} for _ in range(n)]}
    ctx = browser.new_context()
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    entrusted, back = page.evaluate(BOARD_SCRIPT, [game_id, [msg, taken_back], []])
    assert errors == [], errors
    assert entrusted["sent"] == [], entrusted          # the computer's turn: nothing from the page
    assert back["sent"] == ["pass"], back              # the player's again: the auto-pass answers
    ctx.close()


def sign_in_or_up(page, server, name):
    submit_account_form(page, server, "/login", name)
    if not page.locator("#me").count():
        sign_up(page, server, name)


def test_event_chat_with_the_referees(server, browser, shot):
    ctx_r = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    ctx_p = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844}, color_scheme="dark")
    ref, player = ctx_r.new_page(), ctx_p.new_page()
    sign_in_or_up(ref, server, "chat_red")          # the first account of this server: an organizer
    sign_in_or_up(player, server, "ev_player")
    ref.goto(server + "/events")
    ref.select_option("select[name=preset]", "s3_xiangqi")
    ref.fill("textarea[name=players]", "ev_player\nb1 random\nb2 random\nb3 random")
    ref.click("#create-event")
    ref.wait_for_selector("#event-chat", timeout=FIRST_EVENT_MS)      # the server's first event
    event_url = ref.url
    player.goto(event_url)
    player.wait_for_selector("#event-chat")
    player.wait_for_function("() => document.querySelector('#event-chat .chat-note').textContent"
                             ".includes('referees only')")      # once the chat has loaded
    player.fill("#event-chat input[name=chat]", "When does round 1 start?")
    player.press("#event-chat input[name=chat]", "Enter")
    ref.wait_for_selector("#event-chat .chat-text:has-text('When does round 1 start?')", timeout=30_000)
    assert "给裁判" in ref.inner_text("#event-chat")
    ref.fill("#event-chat input[name=chat]", "<i>十分钟后</i>")
    ref.press("#event-chat input[name=chat]", "Enter")
    player.wait_for_selector("#event-chat .chat-text:has-text('<i>十分钟后</i>')", timeout=30_000)
    assert "referee" in player.inner_text("#event-chat .role-referee")
    shot(ref, "event-chat-zh-1280")
    shot(player, "event-chat-en-390-dark")
    # at the event's table during play: the table's chat is off, the referees' chat is there
    ref.click("#start-round")
    ref.click('#ask [data-answer="yes"]')          # asked first: it cannot be undone
    event_id = event_url.rstrip("/").rsplit("/", 1)[1]
    table = None
    for _ in until(60):                  # a loaded machine seats the round's games in seconds
        # asked outside the page, which goes to the table by itself once it sees the game ready
        ev = player.request.get(f"{server}/api/events/{event_id}").json()
        table = next((g["table"] for r in ev["rounds"] for m in r["matches"] for g in m["games"]
                      if g.get("table") and "ev_player" in m["entrants"]), None)
        if table:
            break
        player.wait_for_timeout(200)
    # the event page's notice takes the player there by itself (a navigation made here as well
    # could be cut off by it: net::ERR_ABORTED)
    player.wait_for_url(f"{server}/tables/{table}", timeout=30_000)
    player.wait_for_selector("#status[data-seq]")
    player.wait_for_function("() => document.querySelector('#chat input[name=chat]').disabled")
    assert "Chat is off" in player.inner_text("#chat .chat-note")
    player.wait_for_selector("#event-chat .chat-text:has-text('<i>十分钟后</i>')", timeout=30_000)
    assert player.locator("#event-chat input[name=chat]").is_enabled()
    shot(player, "event-table-chat-en-390-dark")
    ctx_r.close()
    ctx_p.close()


def test_low_time_and_game_end_sound(server, browser):
    ctx = browser.new_context(locale="en-US")
    page = ctx.new_page()
    page.on("dialog", lambda d: d.accept())
    sign_up(page, server, "sound_check")
    open_table(page, server, "xiangqi", "xq_s2_15s")            # 15 s a move
    wait_seq(page, 0)
    page.click("#board")                                         # a gesture: the page may play sound
    page.wait_for_function("() => (window.qipaiSounds.count.lowtime || 0) === 1", timeout=30_000)
    page.click("#resign")
    page.click('#ask [data-answer="yes"]')          # resigning asks first
    page.wait_for_function("() => (window.qipaiSounds.count.end || 0) === 1", timeout=30_000)
    assert page.evaluate("() => window.qipaiSounds.count.lowtime") == 1      # once a turn
    ctx.close()


def dots(page):
    """The seats' presence dots as [(online, words)]."""
    return [tuple(d) for d in page.evaluate("""() => [...document.querySelectorAll('.presence-dot')]
        .map((d) => [d.dataset.online === '1', d.getAttribute('aria-label')])""")]


def test_a_private_table_its_seats_dots_and_a_reported_and_muted_line(server, browser, shot):
    """A private table made from the lobby's form is not in the other person's lobby list; its
    link seats them. Each seat shows whether its player has the table open (a dot, in words for
    a screen reader and as a tooltip), and the dot follows a page closed and opened again. A
    line of chat is reported (the reason asked in the page) and its writer muted in the
    reader's browser (hidden after a reload too), then unmuted. Screenshots at 1280 and 390 px,
    both languages."""
    ctx_a = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    ctx_b = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    a, b = ctx_a.new_page(), ctx_b.new_page()
    native: list[str] = []
    for p in (a, b):
        p.on("dialog", lambda d: (native.append(d.message), d.dismiss()))
    sign_up(a, server, "p13_host")
    sign_up(b, server, "p13_guest")
    # the lobby form's private box, in both languages and widths
    for page, lang in ((a, "zh"), (b, "en")):
        page.wait_for_selector("#private")
        assert page.inner_text("label:has(#private)").startswith("私密桌" if lang == "zh" else "Private")
        for width, height in ((390, 844), (1280, 900)):
            set_width(page, width, height)
            page.locator("#private").scroll_into_view_if_needed()
            shot(page, f"lobby-private-{lang}-{width}")
    a.select_option("select[name=game]", "xiangqi")
    a.check("#private")
    table = create_table(a)
    assert len(table) == 20
    assert "大厅不列出" in a.inner_text("#private-note")
    b.goto(server + "/")
    b.wait_for_selector("#tables tbody tr")
    assert b.locator(f'[data-table="{table}"]').count() == 0       # not listed ...
    b.goto(f"{server}/tables/{table}")                              # ... but the link works
    assert "not listed in the lobby" in b.inner_text("#private-note")
    b.click("#sit")
    wait_seq(a, 0)
    wait_seq(b, 0)
    a.wait_for_function("() => document.querySelectorAll('.presence-dot.on').length === 2")
    assert dots(a) == [(True, "p13_host 在线"), (True, "p13_guest 在线")]
    assert a.get_attribute('.presence-dot[aria-label="p13_guest 在线"]', "title") == "p13_guest 在线"
    # the guest closes the page: the host sees the seat away; it comes back with the page
    b.close()
    a.wait_for_selector('.presence-dot.off[aria-label="p13_guest 已离开"]', timeout=30_000)
    shot(a, "presence-away-zh-1280")
    set_width(a, 390, 844)
    shot(a, "presence-away-zh-390")
    set_width(a, 1280, 900)
    b = ctx_b.new_page()
    b.on("dialog", lambda d: (native.append(d.message), d.dismiss()))
    b.goto(f"{server}/tables/{table}")
    wait_seq(b, 0)
    a.wait_for_function("() => document.querySelectorAll('.presence-dot.on').length === 2")
    b.wait_for_function("() => document.querySelectorAll('.presence-dot.on').length === 2")
    assert dots(b) == [(True, "p13_host is at the table"), (True, "p13_guest is at the table")]
    for width, height in ((1280, 900), (390, 844)):
        set_width(b, width, height)
        shot(b, f"presence-en-{width}")
    set_width(b, 1280, 900)

    # the host reports the guest's line (the reason asked in the page), then mutes the guest
    chat(b, "you play like a potato")
    wait_line(a, "you play like a potato")
    assert b.locator("#chat .chat-report").count() == 0            # not one's own line
    a.click("#chat .chat-report")
    a.wait_for_selector("#ask #ask-field:focus")
    assert "举报 p13_guest 的消息" in a.inner_text("#ask")
    a.fill("#ask-field", "侮辱人")
    for width, height in ((1280, 900), (390, 844)):
        set_width(a, width, height)
        shot(a, f"chat-report-ask-zh-{width}")
    set_width(a, 1280, 900)
    a.press("#ask-field", "Enter")
    a.wait_for_selector("#chat .chat-note:has-text('已举报')")
    assert a.is_disabled("#chat .chat-report")
    a.click("#chat .chat-mute")
    a.wait_for_selector('#chat [data-unmute]:has-text("取消屏蔽 p13_guest")')
    assert lines(a) == []
    chat(b, "still here")
    wait_line(b, "still here")
    chat(a, "再见")
    wait_line(a, "再见")
    assert lines(a) == ["再见"]                                        # the muted guest's lines are not shown
    a.reload()
    wait_seq(a, 0)
    a.wait_for_selector("#chat [data-unmute]")
    assert lines(a) == ["再见"]                                        # kept in the browser
    for width, height in ((1280, 900), (390, 844)):
        set_width(a, width, height)
        shot(a, f"chat-muted-zh-{width}")
    set_width(a, 1280, 900)
    # the guest, in English: the report dialog, then Escape sends nothing
    b.click("#chat .chat-report")
    b.wait_for_selector("#ask #ask-field:focus")
    assert "Report p13_host’s message" in b.inner_text("#ask")
    for width, height in ((1280, 900), (390, 844)):
        set_width(b, width, height)
        shot(b, f"chat-report-ask-en-{width}")
    b.keyboard.press("Escape")
    b.wait_for_selector("#ask", state="detached")
    assert b.is_enabled("#chat .chat-report") and b.inner_text("#chat .chat-note") == ""
    check(b, "a table's seat dots and another person's lines with their report and mute buttons")
    a.click("#chat [data-unmute]")
    assert lines(a) == ["you play like a potato", "still here", "再见"]
    assert native == []
    ctx_a.close()
    ctx_b.close()
