"""A shengji deal between two people in real browsers (two bots in the other seats): the table
plays ``deal_prompt="every_card"``, each prompt of the deal held the server's short
``deal_window_ms``, a prompt not answered by then passed by the server. On each person's page
the cards arrive one by one, the declare buttons show only once that person has had a choice
(a prompt where it can only pass is answered by the server: no lone Pass button, no "your
turn" on its seat) and stay while the deal goes on, a person declares by a click (sent ahead to
its next prompt when its own has closed), and the list
beside the table shows the deal as the declarations, never the prompts' passes. Screenshots at
1280 and 390 px in English and Chinese (/tmp/shots-dealpace)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from .conftest import running_server
from .test_e2e_play import post_table, sign_up

SHOTS = Path("/tmp/shots-dealpace")
CATALOGUES = Path(__file__).resolve().parents[2] / "qipai" / "i18n"
BIDDING = ("deal", "window", "bao", "fan")

#: what each page shows at every change of its table while trump is declared: the hand's sizes
#: in order, the button sets shown (a set without a declaration is a lone pass), and whether its
#: own seat was marked as acting without a declaration to choose
WATCH = """
window.__deal = {counts: [], lone: 0, choices: 0, actNoChoice: 0};
new MutationObserver(() => {
  const ct = document.querySelector('.ct');
  if (!ct || !['deal', 'window', 'bao', 'fan'].includes(ct.dataset.phase)) return;
  const d = window.__deal;
  const n = document.querySelectorAll('#hand .c').length;
  if (d.counts[d.counts.length - 1] !== n) d.counts.push(n);
  const acts = [...document.querySelectorAll('#actions button:enabled')].map((b) => b.dataset.action);
  const choice = acts.some((a) => a.startsWith('declare'));
  if (acts.length) { if (choice) d.choices++; else d.lone++; }
  if (!choice && document.querySelector('.ct .pl.me.act')) d.actNoChoice++;
}).observe(document, {childList: true, subtree: true});
"""


#: clicks the first enabled button whose action starts with the argument; its action, or null
CLICK = """(kind) => {
  const b = [...document.querySelectorAll('#actions button:enabled')]
    .find((x) => (x.dataset.action || '').startsWith(kind));
  if (!b) return null;
  b.click();
  return b.dataset.action;
}"""


@pytest.fixture(scope="module")
def pace_server(tmp_path_factory):
    """A server whose deal prompts are held 40 ms (a deal of 100 prompts: 4 s), the final
    window's 300 ms."""
    settings = "private_window_ms=300, deal_window_ms=40, limits=Limits(signup_ip=(100.0, 100))"
    with running_server(tmp_path_factory.mktemp("qipai-dealpace"), settings) as base:
        yield base


def _phase(page) -> str | None:
    return page.evaluate("() => document.querySelector('.ct')?.dataset.phase || null")


def _new_table(a, b, server) -> str:
    """A shengji table: ``a`` at seat 0, ``b`` at another seat, bots in the other two."""
    tid = post_table(a, {"game": "shengji", "seat": 0, "settings": {"bot_delay_ms": 20, "clock": "none"}})
    b.evaluate("async (t) => { await fetch(`/api/tables/${t}/sit`, {method: 'POST'}); }", tid)
    # both pages at the table before the bots fill it (the deal starts then): each sees it all
    for p in (a, b):
        p.goto(f"{server}/tables/{tid}")
        p.wait_for_selector("#status", state="attached", timeout=30_000)
    # random bots: they declare less at once than the rule bot, so a person has a choice sooner
    a.evaluate("""async (t) => { await fetch(`/api/tables/${t}/fill`, {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({bot: 'random'})}); }""", tid)
    for p in (a, b):
        p.wait_for_selector("#hand .c", timeout=30_000)
    return tid


def test_two_people_see_the_deal_arrive_and_declare_only_with_a_choice(pace_server, browser):
    SHOTS.mkdir(exist_ok=True)
    langs = {"en": 1280, "zh": 390}
    ctxs, pages = [], []
    for lang, width in langs.items():
        ctx = browser.new_context(viewport={"width": width, "height": 900})
        ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        ctx.add_init_script(WATCH)
        ctxs.append(ctx)
        pages.append(ctx.new_page())
    a, b = pages
    sign_up(a, pace_server, "dealann")
    sign_up(b, pace_server, "dealbob")
    declared = None                       # (the page's language, the button's action)
    # a deal where neither person gets a choice before the bots declare is dealt again (each
    # person gets 25 of the 108 cards, 12 of them level cards or jokers: rarely twice)
    for _ in range(8):
        _new_table(a, b, pace_server)
        mid_shot = set()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(_phase(p) in BIDDING for p in pages):
            for (lang, width), p in zip(langs.items(), pages):
                # a prompt is held a few tens of ms: the button is found and clicked in one step
                # of the page (a locator's count, then its click, can straddle the prompt's end)
                if declared is None:
                    action = p.evaluate(CLICK, "declare")
                    if action:
                        declared = (lang, action)
                        shot = SHOTS / f"shengji-deal-choice-{lang}-{width}.png"
                        p.screenshot(path=str(shot), full_page=True)
                else:
                    p.evaluate(CLICK, "pass")
                held = p.locator("#hand .c").count()
                if lang not in mid_shot and held >= 6 and _phase(p) == "deal":
                    mid_shot.add(lang)
                    p.screenshot(path=str(SHOTS / f"shengji-deal-{lang}-{width}.png"), full_page=True)
            a.wait_for_timeout(30)
        assert all(_phase(p) not in BIDDING for p in pages), [_phase(p) for p in pages]
        if declared:
            break
    assert declared, "no person had a declaration to make in eight deals"
    words = {lang: json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8")) for lang in langs}
    for (lang, width), p in zip(langs.items(), pages):
        seen = p.evaluate("() => window.__deal")
        # every card arrived on the page (25 each), one at a time: never fewer than before
        counts = seen["counts"]
        assert counts == sorted(counts) and counts[-1] == 25, counts
        assert len(set(counts)) >= 20, counts
        # buttons only where there was a choice; the own seat never marked as asked without one
        assert seen["lone"] == 0 and seen["actNoChoice"] == 0, seen
        # the list: the declarations as its first row (no entry per prompt of the deal)
        rows = p.locator(".ct-history .ct-round")
        assert rows.first.locator(".n").inner_text() == words[lang]["sj.declared"]
        assert p.locator(".ct-history .ct-round .txt", has_text=words[lang]["ct.passed"]).count() == 0
        # the other width, after the deal
        other = 390 if width == 1280 else 1280
        p.set_viewport_size({"width": other, "height": 900})
        p.screenshot(path=str(SHOTS / f"shengji-after-deal-{lang}-{other}.png"), full_page=True)
    assert pages[["en", "zh"].index(declared[0])].evaluate("() => window.__deal")["choices"] > 0
    for c in ctxs:
        c.close()


def _deal_views():
    """A two-person table's hand (``every_card``) in its deal before any declaration, its
    spectator's view, and the same hand ended there (a resignation in the deal): many prompts
    passed, none of them to list."""
    import qipai

    state = qipai.load("shengji", deal_prompt="every_card").new_state(seed=5)
    passes = 0
    while state.dealt < 40:
        state.apply("pass")
        passes += 1
    dealing = state.view(None)
    assert dealing["phase"] == "deal" and not dealing["declarations"] and passes >= 39
    ended = {**dealing, "result": {"winners": [1, 3], "returns": [-1, 1, -1, 1], "reason": "resign"}}
    return dealing, ended


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_deal_is_one_row_of_the_list_live_and_in_a_replay(pace_server, browser, lang):
    """Before any declaration the list's one row is the deal, on the table and in the replay
    (the replay page lists a board's rounds when it has any: a hand that ended in its deal
    listed each of its steps, a hundred passes under every_card)."""
    from .test_e2e_shengji_declarations import MOUNT

    words = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    sign_up(page, pace_server, f"dealrow{lang}")
    dealing, ended = _deal_views()
    rows = page.evaluate(MOUNT, [dealing, ended])
    for seen in rows:
        assert seen["live"] == [{"bids": True, "n": words["sj.deal"], "cards": 0}], rows
        assert seen["replay"] == ["sj.deal"], rows
    # the table in its deal as a spectator sees it (the board mounted alone on the page)
    page.evaluate("""async (view) => {
      const { t, lang } = await import("/static/i18n.js");
      const mod = await import("/static/boards/shengji.js");
      const root = document.createElement("div");
      document.querySelector("main").replaceChildren(root);
      mod.mount(root, { t, lang, send: () => {}, ask: () => {} }).update({ seat: null, view, result: null,
        names: ["ann", "bob", "cy", "di"], to_act: [], seq: 1, legal: [] });
    }""", dealing)
    SHOTS.mkdir(exist_ok=True)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(SHOTS / f"shengji-deal-row-{lang}-{width}.png"), full_page=True)
    ctx.close()
