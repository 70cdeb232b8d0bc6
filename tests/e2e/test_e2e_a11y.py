"""Accessibility in real Chromium: axe-core (vendored, tests/e2e/vendor) finds no serious or
critical violation on the lobby, a live table, a finished table, a replay and an event page, in
both languages and both themes; every control of a table page is reached with the keyboard."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import rendered, set_width
from .test_e2e_play import create_table, sign_up, wait_seq, wait_seq_reached

AXE = (Path(__file__).resolve().parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")


#: resolves once the page's DOM has not changed for 0.5 s (at most 5 s: a running clock never rests)
SETTLED = """() => new Promise((resolve) => {
  const done = () => { obs.disconnect(); clearTimeout(rest); clearTimeout(cap); resolve(true); };
  let rest = setTimeout(done, 500);
  const cap = setTimeout(done, 5000);
  const obs = new MutationObserver(() => { clearTimeout(rest); rest = setTimeout(done, 500); });
  obs.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
})"""


def violations(page) -> list[dict]:
    """axe's serious and critical violations of the page as it is now (WCAG 2.0/2.1 A and AA).
    A page found at fault is checked again once its DOM has settled, and that answer stands: a
    table that a bot's move redraws while axe walks it can read as at fault for a moment (a
    real fault is found both times)."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(content=AXE)

    def run() -> list[dict]:
        result = page.evaluate("""async () => {
            const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
            const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
            const where = (n) => n.target.join(' ') + ' :: ' + n.failureSummary;
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                           nodes: v.nodes.slice(0, 5).map(where)}));
        }""")
        return [v for v in result if v["impact"] in ("serious", "critical")]
    found = run()
    if found:
        page.evaluate(SETTLED)
        found = run()
    return found


def check(page, where: str, shot=None, name: str = "") -> None:
    """No serious or critical violation; with ``shot``, screenshots at 1280 and 390 px wide."""
    bad = violations(page)
    assert bad == [], where + "\n" + json.dumps(bad, indent=1, ensure_ascii=False)
    if shot:
        for width in (1280, 390):
            set_width(page, width, 900 if width > 400 else 844)
            shot(page, f"{name}-{width}")
            if width == 390:
                assert violations(page) == [], where + " at 390 px"
        page.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.parametrize("locale,scheme", [("zh-CN", "light"), ("en-US", "dark")])
def test_pages_have_no_serious_accessibility_violation(server, browser, locale, scheme, shot):
    ctx = browser.new_context(locale=locale, color_scheme=scheme, viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.on("dialog", lambda d: d.accept())
    sign_up(page, server, f"a11y_{scheme}")
    page.wait_for_selector("#create")
    tag = f"{locale[:2]}-{scheme}"
    check(page, "lobby", shot, f"a11y-lobby-{tag}")
    page.select_option("select[name=game]", "xiangqi")
    create_table(page, bots=1)
    wait_seq(page, 0)
    check(page, "xiangqi table", shot, f"a11y-table-{tag}")
    page.click("#resign")
    page.wait_for_selector("#ask[open]")
    check(page, "resign question")                  # resigning asks first, in the page
    page.click('#ask [data-answer="yes"]')
    page.wait_for_selector("#record-link")
    check(page, "finished table")
    page.click("#record-link")
    page.wait_for_selector(".xq .pc")
    check(page, "replay", shot, f"a11y-replay-{tag}")
    page.goto(server + "/events")
    page.wait_for_selector("h3")
    check(page, "events")
    ctx.close()


def test_a_table_page_is_played_with_the_keyboard(server, browser):
    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    sign_up(page, server, "a11y_keys")
    page.select_option("select[name=game]", "xiangqi")
    create_table(page, bots=1)
    wait_seq(page, 0)
    # every button and field of the page is reached by Tab, the move field among them
    reached = []
    for _ in range(120):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("() => { const e = document.activeElement; "
                                     "return e.id || e.name || e.getAttribute('aria-label') || e.tagName; }"))
        if reached[-1] == "move":
            break
    assert reached[-1] == "move", reached
    for control in ("theme", "mute", "lang", "resign"):
        assert control in reached, (control, reached)
    assert "draw" not in reached, reached       # a house bot never answers a draw offer: none is offered
    # a move typed in any notation the game reads (here the Chinese one), sent with Enter
    page.keyboard.type("炮二平五")
    page.keyboard.press("Enter")
    wait_seq_reached(page, 1)                   # the move, perhaps the bot's answer too
    said = "document.querySelector('#board-text').textContent"
    page.wait_for_function(f"() => /Move [12]: .* played C2[=+]/.test({said})")
    assert page.evaluate("() => window.qipaiLastState.moves.list[0].wxf") == "C2=5"
    for _ in range(60):                         # the chat is reached too, and writes
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.name") == "chat":
            break
    page.keyboard.type("typed with the keyboard")
    page.keyboard.press("Enter")
    page.wait_for_selector("#chat .chat-text:has-text('typed with the keyboard')")
    # "?" outside a field shows the keyboard's shortcuts (lichess, OGS); Escape closes them
    page.keyboard.type("?")                     # in the chat's box: a question mark, no help
    assert page.locator("#key-help").count() == 0
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("?")
    page.wait_for_selector("#key-help[open]")
    assert "Previous / next move" in page.inner_text("#key-help")
    check(page, "keyboard shortcuts")
    page.keyboard.press("Escape")
    page.wait_for_selector("#key-help", state="detached")
    # the first Tab of a page reaches "Skip to content", which leads past the header to the page
    page.reload()
    page.wait_for_selector("#status[data-seq]")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("() => !!document.activeElement.closest('#app')")
    ctx.close()


NEW_TABLE = """async (game) => {
    const r = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                          body: JSON.stringify({game, bots: 8, settings: {clock: 'none'}})});
    return (await r.json()).id;
}"""


def test_every_board_in_the_dark_at_phone_width(server, browser, shot):
    ctx = browser.new_context(locale="zh-CN", color_scheme="dark", viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    sign_up(page, server, "a11y_boards")
    for game in ("doudizhu", "go", "gomoku", "mahjong-gb", "shengji", "junqi", "chinese-checkers", "wakeng"):
        tid = page.evaluate(NEW_TABLE, game)
        page.goto(f"{server}/tables/{tid}")
        page.wait_for_selector("#status[data-seq]", timeout=30_000)
        rendered(page)
        check(page, f"{game} table, dark, 390 px")
        shot(page, f"a11y-dark-{game}-390")
    ctx.close()


# WCAG's contrast ratio of an element's text colour on the first background behind it that is
# not transparent (the page's own colours are opaque), as axe computes it
CONTRAST = """(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 4).map(Number);
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = ([r, g, b]) => [r, g, b].map(lin).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  let bg = el;
  while (bg && (rgb(getComputedStyle(bg).backgroundColor)[3] === 0)) bg = bg.parentElement;
  const a = lum(rgb(getComputedStyle(el).color));
  const b = lum(rgb(getComputedStyle(bg || document.body).backgroundColor));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def test_the_xiangqi_move_lists_current_move_is_legible_in_both_themes(server, browser):
    """A move list's current move, Red's in red and Black's, on the highlight: WCAG AA (4.5:1)
    in the light and the dark theme (the dark theme's pink-red on its blue was 3.5:1)."""
    from .movelist import start_table

    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    sign_up(page, server, "a11y_contrast")
    start_table(page, server, "xiangqi", {}, bot="random", bot_delay_ms=0)
    page.fill('#move-entry input[name="move"]', "h2e2")
    page.press('#move-entry input[name="move"]', "Enter")
    page.wait_for_selector("#ml-list .ml-move.black")
    for theme in ("light", "dark"):
        page.evaluate("(t) => document.documentElement.setAttribute('data-theme', t)", theme)
        for side in ("red", "black"):
            page.click(f"#ml-list .ml-move.{side}")
            page.wait_for_selector(f"#ml-list .ml-move.{side}.current")
            ratio = page.eval_on_selector(f"#ml-list .ml-move.{side}.current .ml-t", CONTRAST)
            assert ratio >= 4.5, (theme, side, ratio)
        for width in (1280, 390):
            set_width(page, width, 900)
            page.screenshot(path=f"/tmp/shots-gofix/xiangqi-movelist-{theme}-{width}.png", full_page=True)
        set_width(page, 1280, 900)
    ctx.close()
