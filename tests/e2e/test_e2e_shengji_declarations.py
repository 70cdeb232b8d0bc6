"""Shengji's list of tricks starts with the declarations (亮主), as doudizhu's starts with its
bidding: during the deal a declaration shown on the table stood over a list that showed nothing;
the list's first row is now 亮主 / Declared with each declaring seat's cards, live (the board's
list) and in the replay (the rounds the replay page lists), then the tricks numbered from 1.
Screenshots at 1280 and 390 px in both languages."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import qipai

from .test_e2e_play import sign_up

CATALOGUES = Path(__file__).resolve().parents[2] / "qipai" / "i18n"

#: the board mounted alone with each view given: its list's rows (head, then each seat's cards)
MOUNT = """async (views) => {
  const { t, lang } = await import("/static/i18n.js");
  const mod = await import("/static/boards/shengji.js");
  const out = [];
  for (const view of views) {
    const root = document.createElement("div");
    document.body.append(root);
    const board = mod.mount(root, { t, lang, send: () => {}, ask: () => {} });
    board.update({ seat: null, view, result: null, names: ["ann", "bob", "cy", "di"],
                   to_act: [], seq: 1, legal: [] });
    // the live list's rows, and the rounds the replay page lists (app.js: board.rounds)
    out.push({ live: [...root.querySelectorAll(".ct-round")].map((r) => ({
      bids: r.classList.contains("ct-bids"),
      n: r.querySelector(".n").textContent, cards: r.querySelectorAll(".c").length })),
      replay: (board.rounds(view) || []).map((r) => r.head || r.no) });
    root.remove();
  }
  return out;
}"""


def _views():
    """A seeded hand's spectator view at its first declaration (during the deal), and that view
    with a first trick played (its cards as the view writes them: the board only lists them)."""
    state = qipai.load("shengji").new_state(seed=3)
    rng = random.Random(3)
    while not state.view(None)["declarations"]:
        seat = rng.choice(state.to_act)
        legal = state.legal_actions(seat)
        shown = [a for a in legal if str(a).startswith("declare")]
        state.apply(rng.choice(shown or legal), seat=seat)
    declared = state.view(None)
    trick = {**declared, "phase": "play",
             "tricks": [{"plays": [[0, ["AS0"]], [1, ["KS0"]], [2, ["5S0"]], [3, ["3S1"]]], "winner": 0}]}
    return declared, trick


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_declarations_are_the_first_row_of_the_list(server, browser, shot, lang):
    words = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    declared, trick = _views()
    assert declared["phase"] == "deal" and not declared["tricks"]
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    sign_up(page, server, f"sjdecl{lang}")
    rows = page.evaluate(MOUNT, [declared, trick])
    cards = sum(len(d["cards"]) for d in declared["declarations"])
    assert rows[0]["live"] == [{"bids": True, "n": words["sj.declared"], "cards": cards}], rows
    assert rows[0]["replay"] == ["sj.declared"], rows
    shown = sum(len(d["cards"]) for d in trick["declarations"])
    assert rows[1]["live"][0] == {"bids": True, "n": words["sj.declared"], "cards": shown}, rows
    numbers = list(range(1, len(trick["tricks"]) + 1))
    assert [r["n"] for r in rows[1]["live"][1:]] == [str(k) for k in numbers], rows
    assert rows[1]["replay"] == ["sj.declared", *numbers], rows
    # the list as a player sees it after the first trick (the board mounted alone on the page)
    page.evaluate("""async (view) => {
      const { t, lang } = await import("/static/i18n.js");
      const mod = await import("/static/boards/shengji.js");
      const root = document.createElement("div");
      root.id = "sj-mounted";
      document.querySelector("main").replaceChildren(root);
      mod.mount(root, { t, lang, send: () => {}, ask: () => {} }).update({ seat: null, view, result: null,
        names: ["ann", "bob", "cy", "di"], to_act: [], seq: 1, legal: [] });
    }""", trick)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        shot(page, f"shengji-declarations-{lang}-{width}")
        page.screenshot(path=f"/tmp/shots-fixc/shengji-declarations-{lang}-{width}.png", full_page=True)
    ctx.close()
