"""A table in a background tab tells the player it is their turn (as lichess, pychess and OGS):
besides the tab title's "Your turn", the tab's icon gets a red dot while the tab is hidden and
it is the player's turn, and, turned on in /settings (off by default; the browser's permission
asked then), a desktop notification comes when a turn comes while the tab is hidden."""

from __future__ import annotations

from .test_e2e_play import sign_up

# the page's visibility, set by the test: Playwright's pages are never hidden by themselves
HIDDEN = """(() => {
  let hidden = false;
  Object.defineProperty(Document.prototype, "visibilityState", { configurable: true,
    get() { return hidden ? "hidden" : "visible"; } });
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get() { return hidden; } });
  window.setHidden = (h) => { hidden = h; document.dispatchEvent(new Event("visibilitychange")); };
})();"""
ICON = ("() => { const l = document.querySelector('link[rel~=icon]');"
        " return [l.getAttribute('href'), l.dataset.marked]; }")
ROWS = {"en": ["Mark the tab's icon", "Desktop notification"], "zh": ["标记标签页图标", "桌面通知"]}


def test_the_settings_page_has_the_alerts_and_asks_to_notify(server, browser, shot):
    """The two rows of the alerts, in both languages: the tab's icon marked (on), the desktop
    notification (off until turned on, which the browser's permission allows here)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.grant_permissions(["notifications"], origin=server)
    ctx.add_init_script("localStorage.getItem('lang') || localStorage.setItem('lang', 'en')")
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, server, "alertset")
    for lang in ("en", "zh"):
        page.evaluate("(l) => localStorage.setItem('lang', l)", lang)
        page.goto(server + "/settings")
        page.wait_for_selector("#settings-alerts #settings-notify")
        labels = page.eval_on_selector_all("#settings-alerts label > span",
                                           "es => es.map((e) => e.innerText)")
        assert labels == ROWS[lang], labels
        assert page.input_value("#settings-tabmark") == "on"
        assert page.input_value("#settings-notify") == "off"
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            shot(page, f"settings-alerts-{lang}-{width}")
    page.select_option("#settings-notify", "on")
    page.wait_for_function("() => localStorage.getItem('notify') === '1'")
    page.select_option("#settings-tabmark", "off")
    page.wait_for_function("() => localStorage.getItem('tabmark') === '0'")
    page.reload()
    page.wait_for_selector("#settings-notify")
    assert page.input_value("#settings-notify") == "on" and page.input_value("#settings-tabmark") == "off"
    page.select_option("#settings-notify", "off")
    page.wait_for_function("() => localStorage.getItem('notify') === '0'")
    assert not errors
    ctx.close()


def test_a_hidden_tab_marks_its_icon_and_notifies_on_your_turn(server, browser):
    """At a table against a bot: the icon is the site's own while the tab is shown, marked once
    it is hidden on the player's turn; a move made, the bot's answer brings the turn back while
    the tab is hidden, and a notification says so (the setting turned on); the tab shown again,
    the icon is the site's own."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.grant_permissions(["notifications"], origin=server)
    ctx.add_init_script("localStorage.setItem('lang', 'en')")
    ctx.add_init_script(HIDDEN)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, server, "alerted")
    page.goto(server + "/settings")
    page.select_option("#settings-notify", "on")
    page.wait_for_function("() => localStorage.getItem('notify') === '1'")
    r = page.request.post(server + "/api/tables", data={
        "game": "xiangqi", "sit": True, "seat": 0, "bots": 1, "bot": "random",
        "settings": {"clock": "none"}})
    assert r.ok, r.text()
    page.goto(f"{server}/tables/{r.json()['id']}")
    page.wait_for_selector("#move-entry input[name=move]:not([disabled])")     # my turn
    assert page.evaluate(ICON) == ["/favicon.ico", "0"]
    page.evaluate("() => setHidden(true)")
    href, marked = page.evaluate(ICON)
    assert marked == "1" and href.startswith("data:image/svg+xml,"), href
    # it blinks: the site's own icon and the marked one in turn, the alert on all the while
    page.wait_for_function("""() => { const l = document.querySelector('link[rel~="icon"]');
        return l.getAttribute('href') === '/favicon.ico' && l.dataset.marked === '1'; }""", timeout=30_000)
    page.wait_for_function("""() => document.querySelector('link[rel~="icon"]')
        .getAttribute('href').startsWith('data:image/svg+xml,')""", timeout=30_000)
    assert page.evaluate("() => window.qipaiNotices.count") == 0   # the turn began in sight
    page.fill("#move-entry input[name=move]", "h2e2")
    page.press("#move-entry input[name=move]", "Enter")
    page.wait_for_function("() => window.qipaiNotices.count === 1", timeout=30_000)
    note = page.evaluate("() => window.qipaiNotices.last")
    assert note["title"].startswith("Your turn · "), note
    assert note["body"].startswith("Move 2: "), note                # the bot's move
    assert page.evaluate(ICON)[1] == "1"
    # (headless Chromium's Notification.permission says "denied" whatever: the Permissions API)
    assert page.evaluate("async () => (await navigator.permissions.query({ name: 'notifications' })).state") \
        == "granted"
    page.evaluate("() => setHidden(false)")
    assert page.evaluate(ICON) == ["/favicon.ico", "0"]
    assert page.title().startswith("Your turn · ")
    assert not errors
    ctx.close()
