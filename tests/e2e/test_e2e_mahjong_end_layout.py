"""The mahjong end-of-hand box at every width from a phone's to a desktop's: a row of it (a
player's hand with the name before it, the payments) never leaves one part alone on a line — the
name above its tiles, one payment under the three others (issue 13)."""

from __future__ import annotations

import json

import pytest

from tests.test_result_words import gb_hands

#: the Guobiao board mounted with each finished state at the page's width; per state, the rows
#: whose name and hand do not start on one line, and the payment lines' counts of payments
LAYOUT = """async (text) => {
  const entries = JSON.parse(text);       // JSON text: quicker than Playwright's own serialization
  const [{ t, lang }, mahjong] = await Promise.all([import("/static/i18n.js"),
    import("/static/boards/mahjong-gb.js")]);
  return entries.map((e) => {
    const root = Object.assign(document.createElement("div"), { className: "mj-probe" });
    document.body.prepend(root);
    mahjong.mount(root, { t, lang, send: () => {}, ask: () => {} })
      .update({ seat: e.seat, view: e.view, result: e.result, names: [], to_act: [], seq: 1, legal: [] });
    const box = root.querySelector(".mj-result");
    box.open = true;
    const alone = [];
    for (const row of box.querySelectorAll(".mj-winner, .mj-revealed > div")) {
      // the name: the row's first text (a winner's) or element (a revealed hand's)
      const tile = row.querySelector(".mj-line .mj-t");
      const name = document.createRange();
      name.selectNodeContents(row.firstChild);
      if (tile && tile.getBoundingClientRect().top >= name.getBoundingClientRect().bottom - 1) {
        alone.push(row.innerText);
      }
    }
    const tops = {};
    for (const p of box.querySelectorAll(".mj-pay span:not(.mj-pays):not(.label)")) {
      const k = Math.round(p.getBoundingClientRect().top);
      tops[k] = (tops[k] || 0) + 1;
    }
    const wide = document.documentElement.scrollWidth;
    root.remove();
    return { alone, lines: Object.values(tops), wide };
  });
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_part_of_a_hands_end_is_left_alone_on_a_line(server, browser, lang):
    states = gb_hands(hands=1, want=3)
    entries = [{"seat": s, "view": st.view(s), "result": st.result.to_json()}
               for st in states for s in (0, None)]
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US")
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    page.goto(server + "/")
    sent = json.dumps(entries)
    for width in (320, 390, 480, 560, 640, 900, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        for g in page.evaluate(LAYOUT, sent):
            assert g["alone"] == [], (width, g)
            lines = g["lines"]
            assert not (len(lines) > 1 and min(lines) == 1 and max(lines) > 1), (width, lines)
            assert g["wide"] <= width, (width, g)
    ctx.close()
