"""The account's settings page (/settings, linked from the header's account links): there was
none ("There is no such page"). The password changes only with the current one, the two new
ones must agree, and the display language is chosen there as well."""

from __future__ import annotations

from .test_e2e_play import SECRET, sign_up


def test_the_settings_page_changes_the_password_and_the_language(server, browser, shot):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script("localStorage.getItem('lang') || localStorage.setItem('lang', 'en')")
    page = ctx.new_page()
    sign_up(page, server, "setter")
    page.click("#my-settings")
    page.wait_for_selector("#password-form")
    assert page.title() == "Settings · qipai"
    page.fill("input[name=current]", "wrong password")
    page.fill("input[name=new]", "a new password")
    page.fill("input[name=again]", "another password")
    page.click("#settings-save")
    assert page.inner_text("#settings-said") == "The two new passwords differ"
    page.evaluate("document.querySelector('#settings-said').textContent = ''")
    page.fill("input[name=again]", "a new password")
    page.click("#settings-save")
    page.wait_for_function("document.querySelector('#settings-said').textContent !== ''"
                           " && !document.querySelector('#settings-save').disabled")
    said = page.inner_text("#settings-said")
    assert said.lower().startswith("the current password is wrong"), said
    page.fill("input[name=current]", SECRET)
    page.click("#settings-save")
    page.wait_for_selector("#settings-said.ok")
    assert page.inner_text("#settings-said") == "Password changed: you are signed out everywhere else"
    shot(page, "settings-en-1280")
    r = page.request.post(server + "/api/login", data={"username": "setter", "password": "a new password"})
    assert r.ok, r.text()
    page.set_viewport_size({"width": 390, "height": 844})
    page.select_option("#settings-lang", "zh")
    page.wait_for_selector("h2:text-is('设置')")
    assert page.title() == "设置 · qipai"
    shot(page, "settings-zh-390")
    ctx.close()


def test_the_settings_page_sets_the_theme_sound_and_coordinates_with_the_header(server, browser, shot):
    """/settings had only the language and the password (and said "Language" twice, heading and
    field): the theme, the sound and the board coordinates, set only by the header's buttons and
    the boards' switch, are set there too, kept where those keep them and in step with them."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script("localStorage.getItem('lang') || localStorage.setItem('lang', 'en')")
    page = ctx.new_page()
    sign_up(page, server, "shower")
    page.goto(server + "/settings")
    page.wait_for_selector("#settings-theme")
    texts = "es => es.map((e) => e.innerText)"
    headings = page.eval_on_selector_all("#settings-language h3", texts)
    labels = page.eval_on_selector_all("#settings-language label > span", texts)
    assert headings == ["Display"], headings
    assert labels == ["Language", "Theme", "Sound", "Coordinates", "Chat", "Xiangqi notation"], labels
    # the page sets them where the header keeps them, and the header's buttons show it at once
    assert page.input_value("#settings-theme") == "auto"
    page.select_option("#settings-theme", "dark")
    stored = "(k) => [localStorage.getItem(k), document.documentElement.dataset[k]]"
    assert page.evaluate(stored, "theme") == ["dark", "dark"]
    assert page.get_attribute("#theme", "data-choice") == "dark"
    page.select_option("#settings-sound", "off")
    assert page.get_attribute("#mute", "data-muted") == "1"
    page.select_option("#settings-coords", "off")
    assert page.evaluate(stored, "coords") == ["0", "off"]
    # the header's buttons change what the page shows
    page.click("#theme")
    assert page.input_value("#settings-theme") == "light"
    page.click("#mute")
    assert page.input_value("#settings-sound") == "on"
    # kept over a reload
    page.reload()
    page.wait_for_selector("#settings-theme")
    shown = [page.input_value(f"#settings-{k}") for k in ("theme", "sound", "coords")]
    assert shown == ["light", "on", "off"], shown
    page.select_option("#settings-theme", "auto")
    assert page.evaluate("localStorage.getItem('theme')") is None
    for lang in ("en", "zh"):
        page.evaluate(f"localStorage.setItem('lang', '{lang}')")
        for width, height in ((1280, 900), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.goto(server + "/settings")
            page.wait_for_selector("#settings-theme")
            shot(page, f"settings-display-{lang}-{width}")
    zh = page.eval_on_selector_all("#settings-language label > span", texts)
    assert zh == ["语言", "主题", "声音", "坐标", "聊天", "象棋记谱法"], zh
    ctx.close()
