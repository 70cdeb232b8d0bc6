"""A whole game of every card game, by clicks, against the server's bots, in Debian's Chromium:
doudizhu, wakeng, 4A4, baohuang, shengji and sandayi (三打一). The person bids, buries and names
trump where the game asks, plays by the hint button and the play button, passes, and sees the
result in words. On the way: the other seats sit left / across / right with names, never seat
numbers; what they laid is drawn as cards; no other seat's hand is ever drawn; the Chinese
table shows no English words but names. At the end, screenshots at 1280 and 390 px in both
languages go to tests/e2e/artifacts/."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import qipai

from .conftest import running_server, set_width
from .test_e2e_play import sign_up

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SEQ = "document.querySelector('#status').dataset.seq"
#: seats laid out around you: the others' positions, left to right
POSITIONS = {3: ["left", "right"], 4: ["left", "across", "right"], 5: ["left", "across", "across2", "right"]}
#: words allowed in the Chinese table: the player's name and the bots' kinds
NAMES = {"cardgamer", "rule", "greedy", "random", "mcts", "ismcts"}
GAMES = [  # game, bots, language, width, buttons to prefer in order (bids, claims ...)
    ("doudizhu", 2, "zh", PHONE, ['[data-action^="bid"]', '[data-action="call"]']),
    ("wakeng", 2, "en", DESKTOP, ['[data-action^="bid"]']),
    ("fouafour", 3, "zh", DESKTOP, ['[data-action^="cha"]', '[data-action^="gou"]']),
    ("baohuang", 4, "en", PHONE, ['[data-action="accept"]', '[data-action^="declare"]']),
    ("shengji", 3, "en", DESKTOP, ['[data-action^="declare"]']),
    ("sandayi", 3, "zh", PHONE, ['[data-action^="bid"]', '[data-action^="trump"]']),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The e2e ``server`` with 4A4's 叉/勾 windows held 100 ms, not 300 ms: a whole 4A4 hand
    opens dozens, and the person's own answers wait for none of them (a window the person may
    answer stays open until the answer; one it may not answer is passed by the table)."""
    settings = "private_window_ms=100, limits=Limits(signup_ip=(100.0, 100))"
    with running_server(tmp_path_factory.mktemp("qipai-e2e"), settings) as base:
        yield base


@pytest.fixture(scope="module")
def account(server, browser, tmp_path_factory):
    """One signed-up account for the module (sign-ups per address are rate-limited)."""
    ctx = browser.new_context()
    page = ctx.new_page()
    sign_up(page, server, "cardgamer", lobby=False)
    path = tmp_path_factory.mktemp("state") / "state.json"
    ctx.storage_state(path=str(path))
    ctx.close()
    return str(path)


def open_table(page, server, game, bots):
    body = {"game": game, "bots": bots, "settings": {"bot_delay_ms": 20, "clock": "none"}}
    tid = page.evaluate("""async (body) => {
        const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
        return (await r.json()).id; }""", body)
    page.goto(f"{server}/tables/{tid}")
    page.wait_for_selector("#hand .c")
    return tid


def live(page, selector):
    loc = page.locator(f"#actions {selector}:enabled")
    return loc if loc.count() else None


def check_table(page, n, lang):
    """What every state of a live hand must show: the layout, names, no hidden card; in a
    climbing game, the history's last round holds at least every play on the table."""
    assert [p.get_attribute("data-pos") for p in page.locator(".ct .felt > .pl").all()] == POSITIONS[n]
    # nobody's hand but yours, until the deal is over (then doudizhu shows the cards left); both
    # read at one moment: the result may come between the caller's look and this one
    opened, over = page.evaluate("""() => [document.querySelectorAll('.ct .pl .cards.open').length,
                                            !!document.querySelector('#ct-result')]""")
    assert opened == 0 or over, opened
    text = page.inner_text(".ct .felt")
    assert not re.search(r"(?<![\d.])[0-4]\s*:\s", text), text       # "3: 4", "1:叫分 3"
    if lang == "zh":
        english = set(re.findall(r"[A-Za-z]{3,}", text)) - NAMES
        assert not english, english
    if page.locator("#movelist .ct-round").count() and page.locator(".ct[data-phase=play]").count():
        # both read at one moment (a new round between two reads would empty the list's last one)
        on_table, listed = page.evaluate("""() => [
            document.querySelectorAll('.ct .lastplay:not(.stale):has(.c, .txt)').length,
            document.querySelectorAll('#movelist .ml-row:last-child .ct-round-play').length]""")
        assert listed >= on_table, (listed, on_table)


def click(button) -> bool:
    """Click an answer, unless the board's auto-pass answered first (the only answer was to
    pass) and the button went with the turn: whether the click was made. Not made, the caller
    looks at the table again rather than wait for a change (a loaded machine's click can also
    time out with the turn still this seat's, and then nothing changes)."""
    try:
        button.click(timeout=3_000)
    except PlaywrightTimeout:
        return False
    return True


def play_whole_game(page, game, n, lang, prefer):
    seen = {"hint": 0, "play": 0, "pass": 0, "bury": 0, "other": 0, "refused": 0, "stale": 0,
            "stale_play": 0}
    errors: list[str] = []             # the page's script errors, named if Play stays disabled
    page.on("pageerror", lambda e: errors.append(str(e)))
    for _ in range(3000):
        if page.locator("#ct-result").count():
            break
        me_acting = page.locator(".ct > .pl.me.act").count() > 0
        if not me_acting or not page.locator("#actions button:enabled").count():
            page.wait_for_timeout(40)
            continue
        check_table(page, n, lang)
        if page.locator(".ct .lastplay.stale").count():
            seen["stale"] += 1
        seq = page.evaluate(SEQ)
        if page.locator('#actions [data-action="bury"]').count():
            assert page.locator('#actions [data-action="bury"]').is_disabled()   # six cards first
            page.click('#actions [data-action="hint"]')
            assert page.locator("#hand .c.sel").count() in (6, 8)
            page.click('#actions [data-action="bury"]')
            seen["bury"] += 1
        elif page.locator('#actions [data-action="play"]').count():
            if live(page, '[data-action="hint"]'):
                page.click('#actions [data-action="hint"]')
                assert page.locator("#hand .c.sel").count() >= 1
                try:
                    page.click('#actions [data-action="play"]', timeout=5_000)
                except PlaywrightTimeout:
                    # Play stayed disabled: the turn may have moved on between the two clicks
                    # (a clock, a window other seats answered), then the loop looks again; on
                    # the same turn, the hint's cards not playable is the board's fault
                    # (a Play still enabled: a loaded machine's click was slow, look again)
                    assert page.evaluate(SEQ) != seq or live(page, '[data-action="play"]'), (
                        "Play stays disabled after Hint", page.inner_text("#prompt"),
                        [c.get_attribute("data-name") for c in page.locator("#hand .c.sel").all()],
                        errors)
                    seen["stale_play"] += 1
                    continue
                seen["play"] += 1
            elif p := live(page, '[data-action="pass"]'):
                if not click(p):
                    continue
                seen["pass"] += 1
            else:
                page.wait_for_timeout(40)
                continue
        else:
            for sel in prefer + ['[data-action="pass"]', '[data-action^="decline"]', "button.opt"]:
                if b := live(page, sel):
                    clicked = click(b.last if "bid" in sel else b.first)
                    break
            else:
                page.wait_for_timeout(40)
                continue
            if not clicked:
                continue
            seen["other"] += 1
        page.wait_for_function(f"{SEQ} !== '{seq}' || !!document.querySelector('#ct-result')"
                               " || document.querySelector('#error').textContent !== ''", timeout=30_000)
        if page.inner_text("#error"):
            seen["refused"] += 1
            assert seen["refused"] < 5, page.inner_text("#error")
            page.evaluate("document.querySelector('#error').textContent = ''")
    page.wait_for_selector("#ct-result", timeout=60_000)
    return seen


@pytest.mark.parametrize("game,bots,lang,size,prefer", GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_card_game_by_clicks(server, browser, account, shot, game, bots, lang, size, prefer):
    ctx = browser.new_context(viewport=size, storage_state=account)
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    page.goto(server + "/")
    open_table(page, server, game, bots)
    n = bots + 1
    assert page.locator(".ct .felt > .pl").count() == n - 1
    shot(page, f"cards-{game}-{lang}-deal")
    seen = play_whole_game(page, game, n, lang, prefer)
    assert seen["play"] >= 1, seen
    words = page.inner_text("#ct-result .headline")
    assert re.search(r"你赢了|你输了|平局" if lang == "zh" else r"You won|You lost|Drawn", words), words
    # every seat's score by name, signed
    assert page.locator("#ct-result .scores span").count() == n
    if game in ("doudizhu", "wakeng", "fouafour", "baohuang"):
        assert page.locator(".ct .lastplay .c").count() >= 1              # plays drawn as cards
    if game == "doudizhu":          # the deal over: the others' cards left shown (one went out)
        assert page.locator(".ct .pl .cards.open").count() >= 1
    # the hand's rounds (climbing games) or every trick (shengji, sandayi), as cards by seat
    assert page.locator("#movelist .ct-round").count() >= (12 if game == "sandayi" else 1)
    assert page.locator("#movelist .ct-round .c").count() >= 1
    other = "en" if lang == "zh" else "zh"
    for l in (lang, other):
        if l != lang:
            page.evaluate(f"localStorage.setItem('lang', '{l}')")
            ctx.add_init_script(f"localStorage.setItem('lang', '{l}')")
            page.reload()
            page.wait_for_selector("#ct-result")
            words = page.inner_text("#ct-result .headline")
            assert re.search(r"你赢了|你输了|平局" if l == "zh" else r"You won|You lost|Drawn", words), words
        for name, vp in (("1280", DESKTOP), ("390", PHONE)):
            set_width(page, vp["width"], vp["height"])
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= vp["width"], (name, width)                     # nothing overflows
            shot(page, f"cards-{game}-{l}-{name}-end")
    # the replay, one step before the end: every hand open, and it fits the screen
    record = page.get_attribute("#record-link", "href").rsplit("/", 1)[1]
    page.goto(f"{server}/records/{record}")
    page.wait_for_selector(".ct")
    page.click("#prev")
    assert page.locator(".ct .pl .cards.open").count() >= n - 1
    fits_both_widths(page, shot, f"cards-{game}-{other}-{{}}-replay")
    ctx.close()


def fits_both_widths(page, shot, name):
    """At 1280 and 390 px nothing overflows; a screenshot of each (``name`` with ``{}`` for the
    width)."""
    for width, vp in (("1280", DESKTOP), ("390", PHONE)):
        set_width(page, vp["width"], vp["height"])
        assert page.evaluate("document.documentElement.scrollWidth") <= vp["width"], width
        shot(page, name.format(width))


def lead_indices(game_id, seed):
    """A seeded random hand of a climbing game and the indices of view.plays made on a lead (the
    referee's table empty: view.top is None), which is where each round starts."""
    import random

    import qipai
    state = qipai.load(game_id).new_state(seed=seed)
    rng = random.Random(seed)
    leads = []
    while not state.is_terminal():
        seat = state.to_act[0]
        view = state.view(None)
        legal = list(state.legal_actions(seat))
        action = state.default_action(seat) if len(legal) > 300 else rng.choice(legal)
        state.apply(action, seat)
        after = state.view(None)
        if view.get("phase") in ("play", "cha", "gou") and len(after["plays"]) > len(view["plays"]) \
                and view["top"] is None:
            leads.append(len(view["plays"]))
    return state.view(None), leads


def test_rounds_split_where_the_referee_clears_the_table(server, browser):
    """The history's rounds (cardtable.js playRounds) start exactly where the referee's table was
    empty, in whole hands of every climbing game (finished seats, 叉/勾 windows, 接风 included)."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server + "/")
    for game_id, n in (("doudizhu", 3), ("wakeng", 3), ("fouafour", 4), ("baohuang", 5)):
        for seed in (1, 2):
            view, leads = lead_indices(game_id, seed)
            sizes = page.evaluate("""async ([v, n]) => {
                const m = await import('/static/boards/cardtable.js');
                return m.playRounds(v, n).map((r) => r.length); }""", [view, n])
            starts = [sum(sizes[:k]) for k in range(len(sizes))]
            assert len(leads) >= 3 and starts == leads, (game_id, seed)
    ctx.close()


def test_a_spectator_sees_the_table_and_no_hand(server, browser, account, shot):
    """Watching bots play shengji: the seats around the felt from seat 0's side, their plays as
    cards, and never a hand (the spectator's view has none, the page draws none)."""
    ctx = browser.new_context(viewport=DESKTOP, storage_state=account)
    ctx.add_init_script("localStorage.setItem('lang', 'zh')")
    page = ctx.new_page()
    page.goto(server + "/")
    tid = page.evaluate("""async () => {
        const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({game: 'shengji', bots: 4, sit: false,
                                  settings: {bot_delay_ms: 100, clock: 'none', spectator_delay_ms: 500}})});
        return (await r.json()).id; }""")
    page.goto(f"{server}/tables/{tid}")
    page.wait_for_selector(".ct .lastplay .c", timeout=30_000)        # a trick in play
    assert [p.get_attribute("data-pos") for p in page.locator(".ct .felt > .pl").all()] == POSITIONS[4]
    assert page.locator("#hand").count() == 0 and page.locator(".ct .cards.open").count() == 0
    assert page.locator(".ct .felt .pos").all_inner_texts() == ["左", "对面", "右"]
    shot(page, "cards-shengji-zh-1280-spectator")
    ctx.close()


#: a doudizhu board mounted on the page with the view of each state given: each seat box's alarm
MOUNT_ALARMS = """async (states) => {
  const { t, lang } = await import("/static/i18n.js");
  const mod = await import("/static/boards/doudizhu.js");
  const out = [];
  for (const s of states) {
    const root = document.createElement("div");
    document.body.append(root);
    mod.mount(root, { t, lang, send: () => {}, ask: () => {} })
      .update({ seat: 0, view: s.view, result: null, names: ["a", "b", "c"], to_act: s.to_act,
                seq: 1, legal: [] });
    out.push([0, 1, 2].map((i) => root.querySelector(`[data-seatbox="${i}"] .alarm`)?.textContent ?? null));
    root.remove();
  }
  return out;
}"""


def test_a_seat_about_to_go_out_is_called_out(server, browser):
    """Doudizhu: a seat with one card left carries 报单 (Last card!), with two 报双 (Two cards
    left!), and no other seat a call; the positions come from real seeded games."""
    states, counts = [], []
    for seed in range(40):
        st = qipai.load("doudizhu").new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and len(counts) < 6:
            v = st.view(0)
            if v.get("phase") == "play" and any(0 < n <= 2 for n in v["counts"]):
                states.append({"view": v, "to_act": list(st.to_act)})
                counts.append(v["counts"])
                break
            seat = rng.choice(st.to_act)
            st.apply(rng.choice(st.legal_actions(seat)), seat=seat)
    assert len(states) >= 3
    for lang, words in (("zh", {1: "报单", 2: "报双"}), ("en", {1: "Last card!", 2: "Two cards left!"})):
        ctx = browser.new_context()
        ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        page = ctx.new_page()
        page.goto(server + "/")
        shown = page.evaluate(MOUNT_ALARMS, states)
        for seen, ns in zip(shown, counts, strict=True):
            assert seen == [words.get(n) for n in ns], (seen, ns)
        ctx.close()


def _hand_at_play(game_id: str, seed: int = 1) -> dict:
    """The longest hand at the first play of a seeded random game (the kitty taken): its size,
    seat and view."""
    st = qipai.load(game_id).new_state(seed=seed)
    rng = random.Random(seed)
    while st.view(0).get("phase") != "play":
        seat = rng.choice(sorted(st.to_act))
        st.apply(rng.choice(st.legal_actions(seat)), seat=seat)
    views = [st.view(s) for s in range(st.num_seats)]
    seat = max(range(st.num_seats), key=lambda s: len(views[s]["hand"]))
    return {"n": len(views[seat]["hand"]), "seat": seat, "view": views[seat]}


#: a card board mounted in a table page's board: the rows its hand takes, and the part of each
#: card left in sight (px)
MOUNT_HAND = """async ([game, d]) => {
  const { t, lang } = await import("/static/i18n.js");
  const mod = await import(`/static/boards/${game}.js`);
  mod.mount(document.querySelector("#board"), { t, lang, send: () => {}, ask: () => {} })
    .update({ seat: d.seat, view: d.view, result: null, names: ["a", "b", "c", "d", "e"], to_act: [],
              seq: 1, legal: [] });
  const xs = [...document.querySelectorAll("#hand .c")].map((c) => c.getBoundingClientRect());
  return [new Set(xs.map((r) => Math.round(r.top))).size,
          Math.min(...xs.slice(1).map((r, i) => r.left - xs[i].left).filter((dx) => dx > 0))];
}"""


def test_a_long_hand_fits_one_row_at_desktop_width(server, browser):
    """A landlord's 20 cards and a shengji hand of 25 lie in one row at 1280 px, overlapping as
    the card rooms fan them, each card's rank and middle still in sight; at 390 px the
    landlord's hand is one or two tidy rows."""
    hands = {g: _hand_at_play(g) for g in ("doudizhu", "shengji")}
    assert hands["doudizhu"]["n"] == 20 and hands["shengji"]["n"] == 25
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    sign_up(page, server, "fanned", lobby=False)
    tid = page.request.post(server + "/api/tables", data={"game": "doudizhu", "sit": True}).json()["id"]
    page.goto(f"{server}/tables/{tid}")            # an open table: the page's board, its width
    page.wait_for_selector("#board", state="attached")
    for width, most in ((1280, {"doudizhu": 1, "shengji": 1}), (390, {"doudizhu": 2})):
        page.set_viewport_size({"width": width, "height": 900})
        for game, rows in most.items():
            got, shown = page.evaluate(MOUNT_HAND, [game, hands[game]])
            assert got <= rows and shown >= 14, (game, width, got, shown)
    ctx.close()


#: a card board mounted with the given view: for each joker in the hand, its word's box against
#: the next card's left edge (the part in sight) and its own card's box
MOUNT_JOKERS = """async ([game, d]) => {
  const { t, lang } = await import("/static/i18n.js");
  const mod = await import(`/static/boards/${game}.js`);
  mod.mount(document.querySelector("#board"), { t, lang, send: () => {}, ask: () => {} })
    .update({ seat: d.seat, view: d.view, result: null, names: ["a", "b", "c", "d", "e"], to_act: [],
              seq: 1, legal: [] });
  const cards = [...document.querySelectorAll("#hand .c")];
  return cards.map((c, i) => [c, cards[i + 1]]).filter(([c]) => c.classList.contains("joker"))
    .map(([c, next]) => {
      const b = c.querySelector("b").getBoundingClientRect(), r = c.getBoundingClientRect();
      const n = next && Math.round(next.getBoundingClientRect().top) === Math.round(r.top)
        ? next.getBoundingClientRect().left : r.right;
      return { text: c.querySelector("b").textContent, right: b.right, bottom: b.bottom, left: b.left,
               shown: n, cardBottom: r.bottom, cardLeft: r.left };
    });
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_jokers_word_is_in_sight_in_a_fanned_hand(server, browser, lang):
    """The small joker read "SMA" in a 25-card shengji hand at 1280 px: its English word ran
    across the card, under the next card. Both jokers' words (BIG / SMALL, 大 / 小) lie wholly in
    the part of the card left in sight, in the fanned hands of shengji and doudizhu, at 1280 and
    390 px."""
    hands = {g: _hand_at_play(g) for g in ("doudizhu", "shengji")}
    for game, (big, small) in (("doudizhu", ("BJ0", "LJ0")), ("shengji", ("BJ", "LJ"))):
        rest = [c for c in hands[game]["view"]["hand"] if c[0] not in "LB"]
        hands[game]["view"]["hand"] = [big, small] + rest[: hands[game]["n"] - 2]
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    sign_up(page, server, f"jokers{lang}", lobby=False)
    tid = page.request.post(server + "/api/tables", data={"game": "doudizhu", "sit": True}).json()["id"]
    page.goto(f"{server}/tables/{tid}")
    page.wait_for_selector("#board", state="attached")
    words = {"en": ["BIG", "SMALL"], "zh": ["大", "小"]}[lang]
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        for game in ("shengji", "doudizhu"):
            got = page.evaluate(MOUNT_JOKERS, [game, hands[game]])
            assert sorted(j["text"] for j in got) == sorted(words), got
            for j in got:
                assert j["right"] <= j["shown"] + 0.5 and j["left"] >= j["cardLeft"], (game, width, j)
                assert j["bottom"] <= j["cardBottom"] + 0.5, (game, width, j)
            page.locator("#hand").screenshot(path=f"/tmp/shots-cardfix/jokers-{game}-{lang}-{width}.png")
    ctx.close()


def _deal_over(game_id: str, seed: int = 3) -> dict:
    """A seeded random deal of ``game_id`` played to its end: seat 0's view and the result."""
    st = qipai.load(game_id).new_state(seed=seed)
    rng = random.Random(seed)
    while not st.is_terminal():
        seat = sorted(st.to_act)[0]
        st.apply(rng.choice(list(st.legal_actions(seat))), seat=seat)
    v = st.view(0)
    return {"view": v, "result": v["result"], "n": st.num_seats}


#: a card board mounted with a finished deal's view: the cards drawn open beside each seat
MOUNT_END = """async ([game, d]) => {
  const { t, lang } = await import("/static/i18n.js");
  const mod = await import(`/static/boards/${game}.js`);
  mod.mount(document.querySelector("#board"), { t, lang, send: () => {}, ask: () => {} })
    .update({ seat: 0, view: d.view, result: d.result, names: ["a", "b", "c", "d", "e"], to_act: [],
              seq: 1, legal: [] });
  return [...document.querySelectorAll(".ct .pl")].map((p) => ({
    pos: p.dataset.pos || "", open: [...p.querySelectorAll(".open .c")].map((c) => c.dataset.card) }));
}"""


@pytest.mark.parametrize("game", ["fouafour", "baohuang"])
def test_the_cards_left_are_drawn_at_the_end_of_a_climbing_deal(server, browser, shot, game):
    """4A4's last player showed "5 cards" and no cards at the end, where doudizhu shows every
    hand left: each other seat still holding cards now shows them, at 1280 and 390 px, in
    English and Chinese."""
    d = _deal_over(game)
    left = d["view"]["remaining"]
    holding = sorted(sorted(h) for s, h in enumerate(left) if s != 0 and h)
    assert holding
    for lang in ("en", "zh"):
        ctx = browser.new_context(viewport=DESKTOP)
        ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        page = ctx.new_page()
        sign_up(page, server, f"endcards{game[:4]}{lang}", lobby=False)
        tid = page.request.post(server + "/api/tables", data={"game": game, "sit": True}).json()["id"]
        page.goto(f"{server}/tables/{tid}")
        page.wait_for_selector("#board", state="attached")
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            got = page.evaluate(MOUNT_END, [game, d])
            assert sorted(sorted(p["open"]) for p in got if p["open"]) == holding, got
            shot(page, f"cards-left-{game}-{lang}-{width}")
        ctx.close()
