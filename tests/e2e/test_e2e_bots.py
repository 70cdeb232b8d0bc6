"""The bots page (/account/bots) in a real browser, both languages, desktop and phone widths: a
person creates a bot account, makes it a token (the secret shown once), the token works on the
Bot API, the bot's lobby table shows it as a bot, and revoking the token stops it at once."""

from __future__ import annotations

import httpx
import pytest

from tests.e2e.pages import assert_fits_phone
from tests.e2e.test_e2e_play import sign_up


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_person_makes_a_bot_and_its_token_then_revokes_it(server, browser, shot, lang):
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US",
                              viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.on("dialog", lambda d: d.accept())
    sign_up(page, server, f"{lang}owner")
    page.click("#my-bots")
    page.wait_for_selector("#new-bot")
    assert page.inner_text("h2") == ("Bots and API tokens" if lang == "en" else "机器人与 API 令牌")
    page.fill("#new-bot input[name=username]", f"{lang}bot1")
    page.click("#new-bot button[type=submit]")
    page.wait_for_selector(f'[data-account="{lang}bot1"]')
    page.select_option("#token-form select[name=account]", f"{lang}bot1")
    # no scope ticked: said beside the form in words, nothing sent (issue 13)
    sent = []
    page.on("request", lambda r: sent.append(r.url) if r.url.endswith("/api/account/tokens")
            and r.method == "POST" else None)
    page.click("#token-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('#token-form-error').textContent !== ''")
    assert page.inner_text("#token-form-error") == ("Tick at least one scope" if lang == "en"
                                                    else "请至少勾选一项权限")
    assert page.inner_text("#bots-error") == "" and sent == []
    shot(page, f"bots-noscope-{lang}-1280")
    page.check('#token-form input[value="bot:play"]')
    page.check('#token-form input[value="challenge:write"]')
    page.fill("#token-form input[name=description]", "engine on my laptop")
    page.click("#token-form button[type=submit]")
    secret = page.wait_for_selector("#token-secret").inner_text()
    assert secret.startswith("qpt_") and page.locator("#token-list tbody tr").count() == 1
    # scopes in words only, in the text and in the tooltips (what the scope lets the token do)
    shown = page.inner_text("#bots-tokens") + page.inner_text("#bots-new-token")
    tips = page.eval_on_selector_all("#bots-tokens [title], #bots-new-token [title]",
                                     "es => es.map((e) => e.title)")
    assert len(tips) == 4 and all(tips), tips          # the three scopes' boxes, the token's scopes
    for text in (shown, *tips):
        assert not any(code in text for code in ("bot:play", "board:play", "challenge:write")), text
    assert ("challenge other accounts" if lang == "en" else "发起对局挑战") in tips[-1].lower()
    shot(page, f"bots-{lang}-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, f"bots-{lang}-390")
    assert_fits_phone(page)                 # the token list too: laid out to fit, not scrolled sideways
    page.set_viewport_size({"width": 1280, "height": 900})

    head = {"Authorization": f"Bearer {secret}"}
    me = httpx.get(f"{server}/api/bot/account", headers=head).json()
    assert me["username"] == f"{lang}bot1" and me["bot"] is True
    seek = httpx.post(f"{server}/api/bot/seek", headers=head, json={"game": "xiangqi"})
    assert seek.status_code == 200, seek.text
    page.goto(server + "/")
    row = page.wait_for_selector(f'tr[data-table="{seek.json()["table"]}"]')
    assert ("BOT" if lang == "en" else "机器人") in row.inner_text()
    shot(page, f"bots-lobby-{lang}-1280")

    page.goto(server + "/account/bots")
    page.wait_for_selector("#token-list")
    page.click("#token-list button")
    page.click('#ask [data-answer="yes"]')                     # revoking asks first, in the page
    page.wait_for_selector("#token-list", state="detached")
    assert page.locator("#token-secret").count() == 0          # the secret is gone with it
    r = httpx.get(f"{server}/api/bot/account", headers=head)
    assert r.status_code == 401 and r.json()["error"] == "token_revoked"
    # a refusal is shown beside the form, in the reader's language
    page.check('#token-form input[value="board:play"]')
    page.select_option("#token-form select[name=account]", f"{lang}bot1")
    page.click("#token-form button[type=submit]")
    err = page.wait_for_selector("#token-form-error:not(:empty)").inner_text()
    assert err and (lang == "en" or not any(w in err for w in ("token", "scope", "account")))
    ctx.close()
