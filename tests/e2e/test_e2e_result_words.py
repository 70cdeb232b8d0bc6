"""The page words results as the terminal does, and its card tables read as a person's.

The stored results of tests/test_result_words.py (every game and variant played to its end,
resigned, timed out, drawn) are worded in the browser, in Chinese and English, for every seat
and a spectator: by result.js (the status line, the replay, the history), which must say exactly
what qipai.i18n.results says (a history row's brief line too); and, for the card and tile
games, by the board itself (the table's
result box, with the game's own line: "You won — as the digger"), which must pass the same
checks (no placeholder, no code, no English in Chinese, no "the digger You wins").
"""

from __future__ import annotations

import random
import re

import pytest

from qipai.i18n.results import CARD, mahjong_hand_lines, result_words
from tests.test_result_words import NAMES, RESULTS, VARIANTS, _new, _play, _view, check_words, gb_hands

#: in the browser: the status line's words and, for a card or tile table, the mounted board's
#: result box (headline and scores), for every seat and a spectator
WORD_ALL = """async (entries) => {
  const { resultText } = await import("/static/result.js");
  const { t, lang } = await import("/static/i18n.js");
  const out = [];
  for (const e of entries) {
    const seats = [null, ...e.views.map((_, s) => s)];
    let mod = null;
    if (e.card) mod = await import(`/static/boards/${e.game}.js`);
    for (const seat of seats) {
      const line = resultText(e.result, { game: e.game, seat, names: e.names, view: e.view, t, lang });
      // a history row's words: the stored result alone (no view), brief
      const brief = resultText(e.result, { game: e.game, seat, names: e.names, t, lang, brief: true });
      let box = null;
      if (mod) {
        const root = document.createElement("div");
        document.body.append(root);
        const board = mod.mount(root, { t, lang, send: () => {}, ask: () => {} });
        board.update({ seat, view: seat === null ? e.view : e.views[seat], result: e.result, names: e.names,
          to_act: [], seq: 1, legal: [] });
        const r = root.querySelector("#ct-result, .mj-result, [data-result]");
        box = r ? r.innerText : root.innerText.slice(-400);
        root.remove();
      }
      out.push({ label: e.label, seat, line, brief, box });
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_page_words_every_stored_result(server, browser, lang):
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US")
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    entries = [{**e, "names": NAMES[e["seats"]], "card": e["game"] in CARD} for e in RESULTS]
    # bots of one kind at a table: told apart the same way on the page (by place at a card table)
    entries += [{**e, "label": e["label"] + ":bots", "names": ["Ann"] + ["Bot"] * (e["seats"] - 1),
                 "card": False} for e in RESULTS if e["seats"] > 2]
    got = page.evaluate(WORD_ALL, entries)
    ctx.close()
    by_label = {e["label"]: e for e in entries}
    assert len(got) == sum(e["seats"] + 1 for e in entries)
    boxes = 0
    for g in got:
        e = by_label[g["label"]]
        where = f"{g['label']} {lang} seat {g['seat']}"
        want = result_words(e["result"], game=e["game"], seat=g["seat"], names=e["names"], view=e["view"],
                            lang=lang)
        assert g["line"] == want, f"{where}: the page says {g['line']!r}, the terminal {want!r}"
        brief = result_words(e["result"], game=e["game"], seat=g["seat"], names=e["names"], lang=lang,
                             brief=True)
        assert g["brief"] == brief, f"{where}: the history says {g['brief']!r}, the terminal {brief!r}"
        if g["box"] is not None:
            boxes += 1
            check_words(g["box"].replace("\n", " | "), lang, e["names"], f"{where} box")
    assert boxes > 100
    assert errors == []


#: a replay's last step of a resigned game, as recordPage passes it: the view (which holds no
#: result: the resignation is not a move) with the record's result; the board's seats and lines
MOUNT_LAST_STEP = """async (entries) => {
  const { t, lang } = await import("/static/i18n.js");
  const out = [];
  for (const e of entries) {
    const mod = await import(`/static/boards/${e.game}.js`);
    const root = document.createElement("div");
    document.body.append(root);
    const board = mod.mount(root, { t, lang, send: () => {}, ask: () => {}, replay: true });
    board.update({ replay: true, seat: null, view: e.view, views: e.views, to_act: [], seq: 12,
      result: e.result, names: e.names });
    const marked = root.querySelectorAll(".act, .to-move").length;
    out.push({ label: e.label, marked, text: root.innerText });
    root.remove();
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_replay_of_a_resigned_game_shows_no_player_to_move(server, browser, lang):
    ends = {e["label"].rsplit(":", 1)[0]: e["result"] for e in RESULTS if e["label"].endswith(":resign@12")}
    entries = []
    for game_id, options, seats in VARIANTS:
        key = f"{game_id}/{seats}{options}"
        if key not in ends or ends[key]["reason"] != "resign":
            continue
        state = _new(game_id, options, seats, 9)
        _play(state, random.Random(9), 12)
        entries.append({"label": key, "game": game_id, "view": _view(state), "result": ends[key],
                        "views": [_view(state, s) for s in range(seats)], "names": NAMES[seats]})
    assert {"gomoku", "go", "junqi", "chinese-checkers", "xiangqi"} <= {e["game"] for e in entries}
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US")
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    page.goto(server + "/")
    for g in page.evaluate(MOUNT_LAST_STEP, entries):
        assert g["marked"] == 0, f"{g['label']}: a seat still marked to move"
        assert not re.search(r"to move|方走|轮到", g["text"]), f"{g['label']} {lang}: {g['text'][-300:]!r}"
    ctx.close()


#: the Guobiao board's words for the last hand's end: the summary, each fan row, the total, the payments
MJ_HAND = """async (entries) => {
  const { t, lang } = await import("/static/i18n.js");
  const mod = await import("/static/boards/mahjong-gb.js");
  const out = [];
  for (const e of entries) {
    const root = document.createElement("div");
    document.body.append(root);
    const board = mod.mount(root, { t, lang, send: () => {}, ask: () => {} });
    board.update({ seat: e.seat, view: e.view, result: e.result, names: [], to_act: [], seq: 1, legal: [] });
    const cells = (tr) => [...tr.cells].map((c) => c.innerText.trim());
    out.push({ summary: root.querySelector(".mj-result summary").innerText,
      fans: [...root.querySelectorAll(".mj-fans tr[data-fan]")].map(cells),
      total: [...root.querySelectorAll(".mj-fans tr.total")].map(cells),
      head: [...root.querySelectorAll(".mj-fans tr.head")].map(cells),
      pay: root.querySelector(".mj-pay").innerText.trim() });
    root.remove();
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_mahjong_board_and_the_terminal_word_a_hand_alike(server, browser, lang):
    """The Guobiao board's result box and the terminal's lines (qipai.i18n.results
    .mahjong_hand_lines) say a hand's end in the same words: the headline up to the winning
    tile, every fan with its value, the total, the payments, seats by their place."""
    states = gb_hands(hands=1, want=3)
    entries = [{"seat": 0, "view": st.view(0), "result": st.result.to_json(), "r": st.hand_results[-1]}
               for st in states]
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US")
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    page.goto(server + "/")
    got = page.evaluate(MJ_HAND, [{k: e[k] for k in ("seat", "view", "result")} for e in entries])
    ctx.close()
    for e, g in zip(entries, got, strict=True):
        lines = mahjong_hand_lines(e["r"], seat=0, hands_per_match=1, lang=lang)
        head = lines[0][:lines[0].rindex(e["r"]["tile"])].strip()       # the page draws the tile
        assert g["summary"].startswith(head), (g["summary"], lines[0])
        # a win is worded, not the Win button's label: "Left wins on 5m", "下家 胡 5m"
        assert re.search(r"(You win| wins| win) on$" if lang == "en" else "胡$", head), head
        assert "You wins" not in head, head
        assert " Win" not in g["summary"], g["summary"]
        fans = [f"  {c[0]} {c[1]}" + (f" {c[2]}" if c[2] else "") for c in g["fans"]]
        totals = [f"  {c[0]} {c[3]}" for c in g["total"]]
        assert fans + totals == [x for x in lines if x.startswith("  ")], (g, lines)
        # the fan table's columns are named: the fan, its value, how many times, the subtotal
        assert g["head"] == [{"zh": ["番种", "番数", "次数", "小计"],
                              "en": ["Fan", "Value", "Times", "Subtotal"]}[lang]], g["head"]
        # the page keeps each score with its seat as the terminal does (a non-breaking space)
        # (the payments stand in a grid beside their label: a line break, no space after "：")
        pay = re.sub(r"[ \t\n]+", " ", g["pay"]).strip().replace("： ", "：")
        assert pay == lines[-1], (g["pay"], lines[-1])
        assert not re.search(r"-\d", g["pay"]), g["pay"]            # a loss takes the minus sign: −19


@pytest.mark.parametrize(("game", "lang", "says"), [
    ("doudizhu", "zh", "农民胜"), ("doudizhu", "en", "Farmers win"), ("wakeng", "zh", "挖坑者负"),
    ("wakeng", "en", "Digger loses")])
def test_a_card_record_says_which_side_won_from_its_last_position(server, browser, game, lang, says):
    """A record's stored result keeps no details (no landlord, no digger): the replay's line reads
    the landlord or the digger from the game's last position and says 农民胜 / 地主胜, as the table did."""
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US")
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    page.goto(server + "/")
    line = page.evaluate("""async (g) => {
        const { t, lang } = await import("/static/i18n.js");
        const { resultText } = await import("/static/result.js");
        return resultText({ text: "+1 -2 +1", reason: "out", returns: [1, -2, 1], winners: [0, 2] },
            { game: g, seat: null, names: ["Ann", "Bob", "Cy"], view: { landlord: 1, digger: 1 },
              t, lang }); }""", game)
    ctx.close()
    assert says in line, line
