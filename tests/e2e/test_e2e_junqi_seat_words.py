"""A junqi seat's line keeps each of its words whole at phone width: with the first-move note and
byo-yomi beside the name, the Chinese page broke 布阵中 (laying out) as 布阵 / 中 across two
lines; each fact of the seat (laying out, laid out, attacks, flag shown, out) now wraps whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .test_e2e_play import sign_up

CATALOGUES = Path(__file__).resolve().parents[2] / "qipai" / "i18n"

#: each occurrence of a word in the seat lines: the number of lines its letters fall on, and
#: whether the element that holds it keeps it on one line (where the line breaks depends on the
#: name's length and the fonts: a word that may break is one no break can come inside)
LINES_OF = """(words) => {
  const out = [];
  for (const box of document.querySelectorAll("[data-seatinfo]")) {
    const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walk.nextNode()) nodes.push(walk.currentNode);
    const text = nodes.map((n) => n.data).join("");
    for (const w of words) {
      for (let at = text.indexOf(w); at >= 0; at = text.indexOf(w, at + 1)) {
        const tops = new Set();
        let pos = 0;
        for (const n of nodes) {        // each letter's box, wherever its text node ends
          for (let i = 0; i < n.data.length; i++, pos++) {
            if (pos < at || pos >= at + w.length) continue;
            const r = document.createRange();
            r.setStart(n, i); r.setEnd(n, i + 1);
            const rect = r.getBoundingClientRect();
            if (rect.width) tops.add(Math.round(rect.top));
          }
        }
        let held = null;
        for (let pos = 0, k = 0; k < nodes.length; pos += nodes[k].data.length, k++) {
          if (at >= pos && at < pos + nodes[k].data.length) { held = nodes[k].parentElement; break; }
        }
        out.push([w, tops.size, getComputedStyle(held).whiteSpace]);
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_seats_words_stay_whole_at_phone_width(server, browser, shot, lang):
    words = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    facts = [words["junqi.notReady"], words["junqi.ready"]]
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    sign_up(page, server, f"jqwords{lang}", lobby=False)
    r = page.request.post(server + "/api/tables", data={"game": "junqi", "bots": 1})   # its usual clock
    assert r.status == 201, r.text()
    page.goto(f"{server}/tables/{r.json()['id']}")
    page.wait_for_selector("[data-seatinfo] .clock", timeout=30_000)
    page.wait_for_function("(w) => document.querySelector('[data-seatinfo]').textContent.includes(w)",
                           arg=facts[0])
    # the board's stylesheet (/static/junqi.css, in the page's head) is in use: when the board
    # added it at its first drawing, a loaded machine's seats were read before it had loaded
    page.wait_for_function("""() => [...document.styleSheets].some((s) =>
        (s.href || '').endsWith('/static/junqi.css') && s.cssRules.length > 0)""", timeout=30_000)
    got = page.evaluate(LINES_OF, facts)
    assert got and all(n == 1 and ws == "nowrap" for _, n, ws in got), got
    shot(page, f"junqi-seat-words-{lang}-390")
    ctx.close()
