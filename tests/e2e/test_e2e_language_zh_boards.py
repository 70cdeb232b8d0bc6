"""One language at a time (tests/e2e/language.py): in a Chinese browser every page speaks
Chinese. The interface follows the browser's language until the player picks one; a table of
each board game the player sits at with bots and one of bots alone watched as a spectator (the
card and tile games: test_e2e_language_zh_tables.py); the referee's refusals and the server's
errors in Chinese."""

from __future__ import annotations

import pytest

from .language import BOARD, HAN, english_words, new_table, page_text, sign_up, table_speaks_chinese


def test_the_chinese_interface_follows_the_browser(lserver, zh):
    page = zh.new_page()
    page.goto(lserver + "/")
    page.wait_for_selector("#theme")     # drawn once the header speaks the page's language
    assert page.evaluate("document.documentElement.lang") == "zh"
    assert page.evaluate("navigator.language") == "zh-CN"
    assert page.evaluate("localStorage.getItem('lang')") is None
    assert "大厅" in page_text(page)
    # a language the player picks stays picked, over the browser's
    page.click("#lang")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.wait_for_selector("text=Lobby")
    assert page.evaluate("localStorage.getItem('lang')") == "en"
    page.reload()
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.click("#lang")
    page.wait_for_function("document.documentElement.lang === 'zh'")
    assert page.evaluate("localStorage.getItem('lang')") == "zh"
    page.evaluate("localStorage.removeItem('lang')")     # the other tests: the browser's language
    page.close()


@pytest.mark.parametrize("game", BOARD)
def test_a_table_of_every_board_game_speaks_chinese(lserver, zh, game, shot):
    table_speaks_chinese(lserver, zh, game, shot)


def test_refusals_and_errors_show_in_the_pages_language(lserver, zh):
    """The referee's refusal of a move and the server's errors reach the page as codes with
    parameters; the page shows them in Chinese."""
    page = zh.new_page()
    page.goto(lserver + "/login")
    page.fill("input[name=username]", "nobody_here")
    page.fill("input[name=password]", "wrong-password-1")
    page.click("button[type=submit]")
    page.wait_for_selector(".error:not(:empty)")
    assert page.inner_text(".error") == "用户名或密码错误"
    sign_up(page, lserver, "zhrefused")
    table = new_table(page, lserver, "xiangqi", sit=True)
    page.goto(f"{lserver}/tables/{table}")
    page.wait_for_selector("#status[data-seq]")
    # a second socket of the same player sends a move the referee refuses (a rook through a pawn)
    got = page.evaluate("""async (id) => {
      const { errorText } = await import('/static/i18n.js');
      return await new Promise((done) => {
        const ws = new WebSocket(`ws://${location.host}/ws/tables/${id}`);
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.type === 'state') ws.send(JSON.stringify({ type: 'move', seq: m.seq, action: 'a0a5' }));
          if (m.type === 'error') { ws.close(); done({ msg: m, text: errorText(m) }); }
        };
      });
    }""", table)
    assert got["msg"]["error"] == "illegal" and got["msg"]["refusal"].startswith("xiangqi.")
    assert got["msg"]["message"] and HAN.search(got["text"]) and not english_words(got["text"], [])
    # a 429 answer: the wait in Chinese
    text = page.evaluate("""async () => {
      const { errorText } = await import('/static/i18n.js');
      return errorText({ error: 'rate_limited', code: 'rate_limited', params: { retry_after: 2.2 },
                         message: 'too many requests; slow down' });
    }""")
    assert text == "操作太频繁，请稍等片刻（3 秒后再试）"
    page.close()
    assert zh.errors == []
