"""The xiangqi notation chosen in /settings (checklist B9, as pychess offers it): the move list
and the replay write xiangqi moves in Chinese (炮二平五), WXF (C2=5) or ICCS (h2e2); by default
the page language's (Chinese in Chinese, WXF in English), the other two forms on hover."""

from __future__ import annotations

import re
from pathlib import Path

from .movelist import new_page, red_moves, start_table

SHOTS = Path("/tmp/shots-estimate")
NUM = "一二三四五六七八九１-９1-9"
ZH = re.compile(f"^[车車马馬相象仕士帅帥将將炮砲兵卒前后後中{NUM}]{{2}}[进進退平][{NUM}]$")
WXF = re.compile(r"^[RHEACKP1-9][1-9+\-]=?[=+\-.][1-9]$")
ICCS = re.compile(r"^[a-i][0-9][a-i][0-9]$")


def first_move(page):
    cell = page.locator('#ml-list .ml-move[data-ply="1"]')
    cell.wait_for()
    return cell.locator(".ml-t").inner_text().strip(), cell.get_attribute("title")


def snap(page, name):
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def choose(page, server, value):
    page.goto(server + "/settings")
    page.wait_for_selector("#settings-xq-notation")
    page.select_option("#settings-xq-notation", value)
    assert page.evaluate("() => localStorage.getItem('xqNotation')") == value


def test_the_settings_choose_the_xiangqi_notation_of_the_move_list_and_the_replay(server, browser, shot):
    ctx, page, errors = new_page(browser, server, "en", "desktop")
    page.on("dialog", lambda d: d.accept())
    page.evaluate("() => localStorage.setItem('lang', 'en')")
    table = start_table(page, server, "xiangqi", {}, bot="random")
    red_moves(page, 1)
    # by default English writes WXF, the Chinese and the ICCS forms on hover
    text, title = first_move(page)
    assert WXF.match(text), text
    iccs = title.rsplit(" ", 1)[1]
    assert ICCS.match(iccs) and "ICCS" in title and ZH.match(title.split(" · ")[0]), title

    # the settings page offers the three, showing the language's by default
    page.goto(server + "/settings")
    page.wait_for_selector("#settings-xq-notation")
    assert page.input_value("#settings-xq-notation") == "wxf"
    options = page.eval_on_selector_all("#settings-xq-notation option", "os => os.map((o) => o.textContent)")
    assert options == ["Chinese (炮二平五)", "WXF (C2=5)", "ICCS coordinates (h2e2)"], options
    labels = page.eval_on_selector_all("#settings-language label > span", "es => es.map((e) => e.innerText)")
    assert "Xiangqi notation" in labels, labels
    shot(page, "xq-notation-settings-en-1280")
    snap(page, "xq-notation-settings-en-1280")

    # Chinese notation on an English page
    choose(page, server, "zh")
    page.goto(f"{server}/tables/{table}")
    zh_text, zh_title = first_move(page)
    assert ZH.match(zh_text), zh_text
    assert zh_title == f"{text} · ICCS {iccs}", zh_title
    # ICCS
    choose(page, server, "iccs")
    page.goto(f"{server}/tables/{table}")
    assert first_move(page) == (iccs, f"{zh_text} · {text}")
    snap(page, "xq-notation-table-iccs-en-1280")

    # the replay writes the moves as chosen too
    page.wait_for_selector("#resign")
    page.click("#resign")
    page.wait_for_selector("#ask[open]")
    page.click('#ask [data-answer="yes"]')
    page.wait_for_selector("#record-link")
    page.click("#record-link")
    page.wait_for_selector(".xq .pc")
    assert first_move(page)[0] == iccs
    replay = page.url
    choose(page, server, "wxf")
    page.goto(replay)
    page.wait_for_selector(".xq .pc")
    assert first_move(page)[0] == text

    # a Chinese page: Chinese by default, the choice kept; the settings in Chinese at 390 px
    page.evaluate("() => { localStorage.setItem('lang', 'zh'); localStorage.removeItem('xqNotation'); }")
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(replay)
    page.wait_for_selector(".xq .pc")
    assert first_move(page)[0] == zh_text
    page.goto(server + "/settings")
    page.wait_for_selector("#settings-xq-notation")
    assert page.input_value("#settings-xq-notation") == "zh"
    options = page.eval_on_selector_all("#settings-xq-notation option", "os => os.map((o) => o.textContent)")
    assert options[0] == "中文纵线记法（炮二平五）", options
    assert not re.search(r"[A-Za-z]{3,}", "".join(options)), options     # no English words
    shot(page, "xq-notation-settings-zh-390")
    snap(page, "xq-notation-settings-zh-390")
    page.select_option("#settings-xq-notation", "wxf")
    page.goto(replay)
    page.wait_for_selector(".xq .pc")
    assert first_move(page)[0] == text
    snap(page, "xq-notation-replay-wxf-zh-390")
    assert not errors, errors
    ctx.close()
