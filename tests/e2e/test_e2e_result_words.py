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

import json
import random
import re

import pytest

from qipai.i18n import t as i18n_t
from qipai.i18n.results import CARD, mahjong_hand_lines, result_words
from tests.test_result_words import (
    BOMB_WON,
    NAMES,
    VARIANTS,
    _new,
    _play,
    _view,
    check_words,
    gb_hands,
    stored_results,
)

#: in the browser: the status line's words and, for a card or tile table, the mounted board's
#: result box (headline and scores), for every seat and a spectator
WORD_ALL = """async (text) => {
  const entries = JSON.parse(text);
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
    entries = [{**e, "names": NAMES[e["seats"]], "card": e["game"] in CARD} for e in stored_results()]
    # bots of one kind at a table: told apart the same way on the page (by place at a card table)
    entries += [{**e, "label": e["label"] + ":bots", "names": ["Ann"] + ["Bot"] * (e["seats"] - 1),
                 "card": False} for e in stored_results() if e["seats"] > 2]
    # as JSON text: Playwright's own serialization of these 3 MB of views took 9 s, JSON 0.8 s
    got = page.evaluate(WORD_ALL, json.dumps(entries))
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
MOUNT_LAST_STEP = """async (text) => {
  const entries = JSON.parse(text);
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
    ends = {e["label"].rsplit(":", 1)[0]: e["result"] for e in stored_results()
            if e["label"].endswith(":resign@12")}
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
    for g in page.evaluate(MOUNT_LAST_STEP, json.dumps(entries)):
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


def test_a_drawn_hand_paid_by_bombs_reads_as_the_terminal_says_and_lists_the_bombs(server, browser, shot):
    """百变八雀 荒庄 with bombs: the page's line says why the scores moved (as
    qipai.i18n.results), and the table's end panel lists the bombs, whose, as four tiles."""
    hand = {"hand": 1, "winners": [], "how": "drawn", "bombs": [[2, "5p"], [3, "E"]],
            "bomb_payments": [-20, -20, 20, 20], "payments": [-20, -20, 20, 20]}
    r = {"text": "-20 -20 20 20", "reason": "hands_played", "returns": [-20, -20, 20, 20],
         "winners": [2, 3], "details": {"hands": [hand]}}
    names = ["alice", "bob", "cy", "dan"]
    for lang in ("zh", "en"):
        ctx = browser.new_context()
        ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        page = ctx.new_page()
        page.goto(server + "/")
        got = page.evaluate("""async ([r, names]) => {
          const { resultText } = await import("/static/result.js");
          const { t, lang } = await import("/static/i18n.js");
          return [0, null].map((seat) => resultText(r, { game: "baibian-bajue", seat, names, t, lang }));
        }""", [r, names])
        for seat, line in zip((0, None), got):
            assert line == result_words(r, game="baibian-bajue", seat=seat, names=names, lang=lang)
        assert ("炸弹" if lang == "zh" else "bombs") in got[0], got
        # a hand another seat won, the reader up on its bomb: no "You lost" beside its +30
        won = page.evaluate("""async ([r, names]) => {
          const { resultText } = await import("/static/result.js");
          const { t, lang } = await import("/static/i18n.js");
          return [0, 2].map((seat) => resultText(r, { game: "baibian-bajue", seat, names, t, lang }));
        }""", [BOMB_WON, names])
        for seat, line in zip((0, 2), won):
            assert line == result_words(BOMB_WON, game="baibian-bajue", seat=seat, names=names, lang=lang)
        assert won[0].startswith("你未和牌" if lang == "zh" else "You did not win the hand"), won
        ctx.close()


def _drawn_bajue_hand_with_a_bomb():
    """A one-hand 百变八雀 game played to 荒庄 with a bomb laid (every bomb taken, no win)."""
    import qipai
    game = qipai.load("baibian-bajue", hands_per_match=1)
    for seed in range(300):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            s = sorted(state.to_act)[0]
            acts = state.legal_actions(s)
            bombs = [a for a in acts if str(a).startswith("bomb")]
            state.apply(bombs[0] if bombs else rng.choice(
                [a for a in acts if not str(a).startswith("win")] or acts), s)
        hand = state.result.details["hands"][-1]
        if hand.get("bombs") and not hand["winners"]:
            return state
    raise AssertionError("no drawn hand with a bomb")


def test_the_bajue_end_panel_lists_the_bombs_of_a_drawn_hand(server, browser, shot):
    state = _drawn_bajue_hand_with_a_bomb()
    result = state.result.to_json()
    maker, tile = result["details"]["hands"][-1]["bombs"][0]
    seat = (maker + 1) % 4
    view = _view(state, seat)
    for lang, word in (("zh", "炸弹"), ("en", "Bomb")):
        ctx = browser.new_context(viewport={"width": 390, "height": 844})
        ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        page = ctx.new_page()
        page.goto(server + "/")
        text = page.evaluate("""async ([view, result, seat]) => {
          const { t, lang } = await import("/static/i18n.js");
          const mod = await import("/static/boards/baibian-bajue.js");
          document.body.replaceChildren();
          const root = document.createElement("div");
          document.body.append(root);
          const board = mod.mount(root, { t, lang, send: () => {}, ask: () => {} });
          board.update({ seat, view, result, names: ["alice", "bob", "cy", "dan"], to_act: [], seq: 1,
                         legal: [] });
          for (const d of root.querySelectorAll("details.mj-result")) d.open = true;
          const b = root.querySelector(".mj-bombs");
          const tiles = b && [...b.querySelectorAll(".mj-bomb [data-tile]")].map((x) => x.dataset.tile);
          return b && [b.innerText, tiles];
        }""", [view, result, seat])
        assert text is not None, lang
        assert text[0].startswith(word) and ["alice", "bob", "cy", "dan"][maker] in text[0], text
        assert text[1] == [tile] * 4, text
        shot(page, f"bajue-drawn-bombs-{lang}-390")
        ctx.close()


#: a card table's result box for each of `seats` (null: a spectator): its scores' texts and colours
DRAWN_BOX = """async (e) => {
  const { t, lang } = await import("/static/i18n.js");
  const mod = await import(`/static/boards/${e.game}.js`);
  const out = [];
  for (const seat of e.seats) {
    const root = document.createElement("div");
    document.body.append(root);
    const board = mod.mount(root, { t, lang, send: () => {}, ask: () => {} });
    board.update({ seat, view: seat === null ? e.view : e.views[seat], result: e.result, names: e.names,
      to_act: [], seq: 1, legal: [] });
    const box = root.querySelector("#ct-result");
    out.push({ seat, head: box.querySelector(".headline").innerText,
      scores: [...box.querySelectorAll(".scores span")].map((s) => [s.innerText, s.className]) });
    root.remove();
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_drawn_card_deal_shows_nobody_gaining(server, browser, lang):
    """A 4A4 draw returns ½ to every seat: its result box showed "你 +0.5 下家 +0.5 …" in green;
    a drawn deal is ±0 for every seat, in the neutral colour (for every card table's box)."""
    base = next(e for e in stored_results() if e["game"] == "fouafour")
    entry = {**base, "names": NAMES[4], "seats": [None, 0, 1, 2, 3],
             "result": {"returns": [0.5, 0.5, 0.5, 0.5], "winners": [], "reason": "out", "details": {}}}
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US")
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    page.goto(server + "/")
    got = page.evaluate(DRAWN_BOX, entry)
    ctx.close()
    assert len(got) == 5
    for g in got:
        assert g["head"].startswith(i18n_t("ct.drawn", lang=lang)), g
        assert len(g["scores"]) == 4, g
        for text, cls in g["scores"]:
            assert text.endswith("±0") and "0.5" not in text and "½" not in text, g
            assert cls == "", g


#: a finished card hand on a mounted board (game e.game, read from seat e.seat): the info row
#: e.info's text, the result box's headline and the board's whole text
MOUNT_AFTER = """async (e) => {
  const { t, lang } = await import("/static/i18n.js");
  const mod = await import(`/static/boards/${e.game}.js`);
  const root = document.createElement("div");
  document.body.append(root);
  const board = mod.mount(root, { t, lang, send: () => {}, ask: () => {} });
  board.update({ seat: e.seat, view: e.views[e.seat], result: e.result, names: e.names, to_act: [],
    seq: 1, legal: [] });
  const row = root.querySelector(`[data-info=${e.info}]`);
  const box = root.querySelector("#ct-result .headline").innerText;
  const out = { row: row ? row.innerText : null, box, text: root.innerText };
  if (e.keep) { document.querySelector("main, #app").replaceChildren(root); root.classList.add("kept"); }
  else root.remove();
  return out;
}"""


def board_shots(page, entry, name, shot):
    """The mounted board alone on the page, at 1280 and 390 px (in the page's language)."""
    for width, height in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(MOUNT_AFTER, {**entry, "keep": True})
        shot(page, f"{name}-{width}")


def _finished_board(server, browser, lang: str, shot, entry: dict, game: str) -> dict:
    """The finished hand ``entry`` mounted on a page in ``lang`` (MOUNT_AFTER's answer), its
    screenshots taken as ``<game>-result-<lang>``."""
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US")
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    page.goto(server + "/")
    got = page.evaluate(MOUNT_AFTER, entry)
    board_shots(page, entry, f"{game}-result-{lang}", shot)
    ctx.close()
    return got


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_finished_shengji_hand_shows_the_levels_it_ended_with(server, browser, lang, shot):
    """The attackers took the deal over and went up 3 (2 → 5): the table's levels row read the
    levels the hand began with ("Levels us 2 · them 2") beside a verdict that said a team went
    up; after the hand it reads the new levels ("Levels now"), and the verdict says the
    attackers' points against the take-over mark."""
    e = next(x for x in stored_results() if x["label"] == "shengji/4{}#2:played")
    d = e["result"]["details"]
    assert d["levels_before"] == [2, 2] and d["levels"] == [5, 2] and e["views"][1]["levels"] == [2, 2]
    got = _finished_board(server, browser, lang, shot, {**e, "names": NAMES[4], "seat": 1, "info": "levels"},
                          "shengji")
    # seat 1 is of team 1 (level 2), the other team (seats 0 and 2) went up to 5
    assert got["row"] == i18n_t("sj.levelsNow", lang=lang) + " " \
        + i18n_t("sj.levelsMine", {"us": 2, "them": 5}, lang=lang), got
    points = i18n_t("sj.attackPointsOf", {"points": d["attack_total"], "needed": 80}, lang=lang)
    assert points in got["box"], got
    assert i18n_t("sj.levelsNowMine", {"us": 2, "them": 5}, lang=lang) in got["box"], got


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_shengji_take_over_without_a_level_says_what_a_level_needs(server, browser, lang, shot):
    """The attackers took 85: the deal is theirs, nobody goes up, every score ±0 beside "你赢了".
    The verdict said "闲家上台，无人升级" and nothing of why; it says what a level up needs
    (120 with two decks), on the board and in the result line above it."""
    e = next(x for x in stored_results() if x["label"] == "shengji/4{}#2:played")
    d = {**e["result"]["details"], "attack_total": 85, "gains": [0, 0], "levels": [2, 2],
         "take_at": 80, "up_at": 120}
    attackers = sorted(((d["dealer"] + 1) % 4, (d["dealer"] + 3) % 4))
    result = {**e["result"], "details": d, "winners": attackers, "returns": [0, 0, 0, 0]}
    got = _finished_board(server, browser, lang, shot,
                          {**e, "result": result, "names": NAMES[4], "seat": 1, "info": "levels"},
                          "shengji-takeover")
    assert i18n_t("sj.takeOverUpAt", {"up": 120}, lang=lang) in got["box"], got
    line = result_words(result, game="shengji", seat=1, names=NAMES[4], lang=lang)
    assert "120" in line and "80" in line, line


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_sandayi_hand_says_one_threshold_and_calls_the_winning_bidder_the_declarer(server, browser, lang,
                                                                                     shot):
    """The bar said "Defenders 50 (set at 25)" while the verdict said "defenders 50 points
    against 80": one threshold (the defenders set a contract of c with 105 − c points, rules
    §4.2), said alike in both places; in English the winning bidder is the declarer, not the
    "Dealer" (the one who dealt)."""
    e = next(x for x in stored_results() if x["label"] == "sandayi/4{}#1:played")
    d = e["result"]["details"]
    got = _finished_board(server, browser, lang, shot,
                          {**e, "names": NAMES[4], "seat": 0, "info": "defender_points"}, "sandayi")
    need = 105 - d["contract"]
    said = {"n": d["defender_points"], "need": need}
    assert got["row"].endswith(i18n_t("sdy.ofNeed", said, lang=lang)), got
    assert got["box"].endswith(i18n_t("sdy.final", said, lang=lang)), got
    assert str(need) in got["box"], got
    assert str(d["contract"]) not in got["box"], got
    if lang == "en":
        assert "Dealer" not in got["text"] and "dealer" not in got["text"], got
        assert "Declarer" in got["text"], got
