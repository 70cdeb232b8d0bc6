"""Chat safety in real Chromium (docs/server.md, "Chat"): the spam filter's refusals (a line
sent a third time, a link) worded in the page, a moderator (the server's organizer) muting a
writer's chat from the line's button for the minutes chosen, the muted person told until when
in English and in Chinese, and the reader's chat-off switch (in the chat's heading and on
/settings, kept in the browser). Screenshots at 1280 and 390 px, both languages."""

from __future__ import annotations

import re

from .conftest import set_width
from .test_e2e_a11y import check
from .test_e2e_play import sign_up

NOTE = "#chat .chat-note"


def chat(page, text):
    page.fill("#chat input[name=chat]", text)
    page.press("#chat input[name=chat]", "Enter")


def wait_line(page, text):
    page.wait_for_function("t => [...document.querySelectorAll('#chat .chat-text')]"
                           ".some(e => e.textContent === t)", arg=text, timeout=30_000)


def wait_note(page, words):
    page.wait_for_function("w => (document.querySelector('#chat .chat-note')?.textContent || '').includes(w)",
                           arg=words, timeout=30_000)


def shots(page, shot, name, at="#chat"):
    for width, height in ((1280, 900), (390, 844)):
        set_width(page, width, height)
        page.locator(at).scroll_into_view_if_needed()
        shot(page, f"{name}-{width}")
    set_width(page, 1280, 900)


def test_spam_refusals_a_moderators_mute_and_the_chat_off_switch(server, browser, shot):
    ctx_m = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    ctx_a = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    ctx_b = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    boss, amy, bo = ctx_m.new_page(), ctx_a.new_page(), ctx_b.new_page()
    native: list[str] = []
    for p in (boss, amy, bo):
        p.on("dialog", lambda d: (native.append(d.message), d.dismiss()))
    sign_up(boss, server, "cs_boss")             # the server's first account: an organizer
    assert boss.request.get(server + "/api/me").json()["user"]["role"] == "organizer"
    sign_up(amy, server, "cs_amy")
    sign_up(bo, server, "cs_bo")
    tid = amy.evaluate("""async () => (await (await fetch('/api/tables', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game: 'xiangqi', bots: 0, settings: {clock: 'none'}})})).json()).id""")
    for p in (amy, bo, boss):                    # before the game: everyone signed in writes
        p.goto(f"{server}/tables/{tid}")
        p.wait_for_selector("#chat input[name=chat]:enabled")

    # the spam filter: the same line a third time, a link
    for _ in range(2):
        chat(amy, "free beans here")
        wait_line(bo, "free beans here")
    chat(amy, "Free beans  here")
    wait_note(amy, "sent this message several times already")
    chat(amy, "see www.beans.cn")
    wait_note(amy, "Links are not allowed in chat")
    chat(bo, "加我 beans.com")
    wait_note(bo, "聊天中不能发链接")
    shots(bo, shot, "chat-link-zh")

    # the organizer mutes amy's chat for an hour from her line's button
    assert amy.locator("#chat .chat-timeout").count() == 0 and bo.locator("#chat .chat-timeout").count() == 0
    boss.select_option("#chat .chat-timeout-minutes", "60")
    boss.locator("#chat .chat-line:has-text('free beans here') .chat-timeout").first.click()
    boss.wait_for_selector("#ask #ask-field:focus")
    asked = boss.inner_text("#ask")
    assert "Mute cs_amy’s chat for everyone?" in asked and "60 min" in asked
    assert boss.is_disabled('#ask [data-answer="yes"]')          # a reason is required
    boss.fill("#ask-field", "spam")
    boss.click('#ask [data-answer="yes"]')
    wait_note(boss, "cs_amy cannot chat until")
    mutes = boss.request.get(server + "/api/chat/mutes").json()["mutes"]
    assert [(m["name"], m["reason"]) for m in mutes] == [("cs_amy", "spam")]
    shots(boss, shot, "chat-moderator-en")
    # her open box closes at once (not at her next line), saying until when and why
    wait_note(amy, "A moderator muted your chat until")
    assert amy.inner_text(NOTE).endswith("Reason: spam")
    assert amy.locator("#chat input[name=chat]").is_disabled()
    assert amy.get_attribute("#chat input[name=chat]", "placeholder") == "Chat is closed"
    assert not re.search(r"\d{4}-\d\d-\d\dT", amy.inner_text(NOTE))      # a time in words, not ISO
    shots(amy, shot, "chat-muted-by-moderator-en")
    # bo, in Chinese: muted for 15 minutes by the API
    bo_id = bo.request.get(server + "/api/me").json()["user"]["id"]
    r = boss.request.post(server + "/api/chat/mutes", data={"user": bo_id, "minutes": 15, "reason": "刷屏"})
    assert r.status == 201, r.text()
    wait_note(bo, "管理员已将你禁言，直到")
    assert bo.inner_text(NOTE).endswith("原因：刷屏")
    assert bo.get_attribute("#chat input[name=chat]", "placeholder") == "聊天已关闭"
    shots(bo, shot, "chat-muted-by-moderator-zh")

    # the reader's switch: bo hides chat; it stays hidden after a reload and on /settings
    assert bo.get_attribute("#chat .chat-switch", "aria-expanded") == "true"
    assert bo.inner_text("#chat .chat-switch") == "隐藏聊天"
    bo.click("#chat .chat-switch")
    bo.wait_for_selector("#chat .chat-body", state="hidden")
    assert bo.is_visible("#chat .chat-off") and "聊天已隐藏" in bo.inner_text("#chat .chat-off")
    assert bo.get_attribute("#chat .chat-switch", "aria-expanded") == "false"
    assert bo.inner_text("#chat .chat-switch") == "显示聊天"
    bo.reload()
    bo.wait_for_selector("#chat .chat-off", state="visible")
    assert not bo.is_visible("#chat .chat-lines")
    shots(bo, shot, "chat-off-zh")
    bo.goto(server + "/settings")
    assert bo.input_value("#settings-chat") == "off"
    assert "聊天" in bo.inner_text("label:has(#settings-chat)")
    bo.select_option("#settings-chat", "on")
    bo.goto(f"{server}/tables/{tid}")
    bo.wait_for_selector("#chat .chat-lines", state="visible")
    assert not bo.is_visible("#chat .chat-off")
    # amy, in English, turns it off on /settings
    amy.goto(server + "/settings")
    amy.select_option("#settings-chat", "off")
    assert "Chat" in amy.inner_text("label:has(#settings-chat)")
    shots(amy, shot, "settings-chat-en", "#settings-chat")
    amy.goto(f"{server}/tables/{tid}")
    amy.wait_for_selector("#chat .chat-off:has-text('Chat is hidden')")
    assert amy.inner_text("#chat .chat-switch") == "Show chat"
    assert not amy.is_visible("#chat input[name=chat]")
    shots(amy, shot, "chat-off-en")
    check(amy, "a table's chat hidden by the reader's switch")
    amy.click("#chat .chat-switch")
    amy.wait_for_selector("#chat .chat-lines", state="visible")
    check(boss, "a table's chat with a moderator's mute buttons")
    assert native == []
    for c in (ctx_m, ctx_a, ctx_b):
        c.close()
