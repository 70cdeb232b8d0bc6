"""Accessibility in real Chromium: axe-core (vendored, tests/e2e/vendor) finds no serious or
critical violation on the lobby, a live table, a finished table, a replay and an event page, in
both languages and both themes; every control of a table page is reached with the keyboard."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .test_e2e_play import create_table, sign_up, wait_seq

AXE = (Path(__file__).resolve().parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")


def violations(page) -> list[dict]:
    """axe's serious and critical violations of the page as it is now (WCAG 2.0/2.1 A and AA)."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(content=AXE)
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' :: ' + n.failureSummary)}));
    }""")
    return [v for v in result if v["impact"] in ("serious", "critical")]


def check(page, where: str) -> None:
    bad = violations(page)
    assert bad == [], where + "\n" + json.dumps(bad, indent=1, ensure_ascii=False)


@pytest.mark.parametrize("locale,scheme", [("zh-CN", "light"), ("en-US", "dark")])
def test_pages_have_no_serious_accessibility_violation(server, browser, locale, scheme):
    ctx = browser.new_context(locale=locale, color_scheme=scheme, viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.on("dialog", lambda d: d.accept())
    sign_up(page, server, f"a11y_{scheme}")
    page.wait_for_selector("#create")
    check(page, "lobby")
    page.select_option("select[name=game]", "xiangqi")
    page.select_option("select[name=bots]", "1")
    create_table(page)
    wait_seq(page, 0)
    check(page, "xiangqi table")
    page.click("#resign")
    page.wait_for_selector("#record-link")
    check(page, "finished table")
    page.click("#record-link")
    page.wait_for_selector(".xq .pc")
    check(page, "replay")
    page.goto(server + "/events")
    page.wait_for_selector("h3")
    check(page, "events")
    ctx.close()


def test_a_table_page_is_played_with_the_keyboard(server, browser):
    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    sign_up(page, server, "a11y_keys")
    page.select_option("select[name=game]", "xiangqi")
    page.select_option("select[name=bots]", "1")
    create_table(page)
    wait_seq(page, 0)
    # every button, link and field of the page is reached by Tab
    reached = set()
    for _ in range(200):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("() => { const e = document.activeElement; return e.id || e.getAttribute('data-sq') || e.getAttribute('aria-label') || e.textContent.trim().slice(0, 20); }"))
    for control in ("resign", "draw", "theme", "mute", "lang"):
        assert control in reached, (control, sorted(x for x in reached if x))
    ctx.close()
