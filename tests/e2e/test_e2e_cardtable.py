"""The shared card table in Debian's Chromium, at phone width: one person against the server's
bots, by clicks. Wakeng and fouafour are played to the end of the hand; baohuang (the emperor
selection, a declaration and plays) and shengji (declarations, burying the kitty, leads and
follows, then a resignation) for several actions. Screenshots go to tests/e2e/artifacts/."""

from __future__ import annotations

import json
import re

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .test_e2e_play import post_table, sign_up, submit_account_form
from .timing import until

PHONE = {"width": 390, "height": 844}
SEQ = "document.querySelector('#status').dataset.seq"
SUIT = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}


def open_table(page, server, game, bots, options=None, bot_delay_ms=20, clock="none"):
    """Create a table through the lobby API in the page's session (the bots think briefly; no
    clock unless ``clock`` names one, None: the game's default, as a lobby table has), and open
    it; the person sits in seat 0."""
    settings = {"bot_delay_ms": bot_delay_ms, **({"clock": clock} if clock else {})}
    body = {"game": game, "bots": bots, "options": options or {}, "settings": settings}
    tid = post_table(page, body)
    page.goto(f"{server}/tables/{tid}")
    page.wait_for_selector("#hand")


def counter(seen: dict[str, int]):
    """``count(key, act)``: a step of :func:`drive` that runs ``act`` on what it found and counts
    it in ``seen[key]``; an ``act`` answering False made no click (drive looks again)."""
    def count(key, act):
        def run(found):
            if act(found) is False:
                return False
            seen[key] += 1
        return run
    return count


def wait_change(page, seq):
    page.wait_for_function(f"{SEQ} !== '{seq}' || !!document.querySelector('#record-link')"
                           " || document.querySelector('#error').textContent !== ''", timeout=30_000)


def enabled(page, selector):
    loc = page.locator(f"#actions {selector}:enabled")
    return loc if loc.count() else None


def my_play(page):
    """The play button is offered and this seat is to act (the button waits for a selection)."""
    return bool(page.locator('#actions [data-action="play"]').count()
                and page.locator(".ct .pl.me.act").count())


def play_by_hint_found(hint):
    play_by_hint(hint.page)


def play_by_hint(page):
    """Select the cards of a listed play with the hint, check they are raised, play them."""
    page.click('#actions [data-action="hint"]')
    assert page.locator("#hand .c.sel").count() >= 1
    page.click('#actions [data-action="play"]')


def drive(page, rules, enough=lambda: False, retry=lambda: False, limit=600):
    """Answer prompts by clicks: on each state the first rule ``(find, act)`` whose ``find(page)``
    gives something calls ``act(found)``, then waits for the next state. Stops at the record link
    or when ``enough()``. A refusal fails the test unless ``retry()`` allows another try."""
    for _ in range(limit):
        if enough() or page.locator("#record-link").count():
            return
        seq = page.get_attribute("#status", "data-seq")
        chosen = next(((act, found) for find, act in rules if (found := find(page))), None)
        if chosen is None or page.get_attribute("#status", "data-seq") != seq:
            # nothing to answer yet, or the state changed while the rules were read (a bid's
            # buttons drawn after its rule was asked): read the new state's rules afresh
            page.wait_for_timeout(40)
            continue
        act, found = chosen
        if act(found) is False:        # no click made (see click_pass): look again, not wait
            continue
        wait_change(page, seq)
        if error := page.inner_text("#error"):
            assert retry(), error
            page.evaluate("document.querySelector('#error').textContent = ''")


def click_pass(b) -> bool:
    """Pass by hand, unless the board's auto-pass (the only answer is to pass) was first:
    whether the click was made (a loaded machine's click can also time out with the turn still
    this seat's: :func:`drive` then looks again instead of waiting for a change)."""
    try:
        b.click(timeout=3_000)
    except PlaywrightTimeout:
        return False
    return True


def button(selector):
    return lambda page: enabled(page, selector)


def play_to_end(page, game, first_rules=()):
    """Answer every prompt by clicks until the record link appears; returns counts of what was
    done. `first_rules` (bids, claims) come first; plays go by the hint, except the first lead,
    which is one card clicked by hand; a seat that cannot beat the table passes."""
    done = {"plays": 0, "passes": 0, "clicked": 0}

    def play(_):
        if done["clicked"] == 0 and not enabled(page, '[data-action="pass"]'):
            # a lead: click one card, see it raised and the play button live, play it
            page.locator("#hand .c").last.click()
            assert page.locator("#hand .c.sel").count() == 1
            page.wait_for_selector('#actions [data-action="play"]:enabled')
            page.screenshot(path=_art(f"{game}-selected"))
            page.click('#actions [data-action="play"]')
            done["clicked"] += 1
        elif enabled(page, '[data-action="hint"]'):
            play_by_hint(page)
        else:
            return passing(page.locator('#actions [data-action="pass"]'))
        done["plays"] += 1

    def passing(b):
        if not click_pass(b):
            return False
        done["passes"] += 1
    drive(page, [*first_rules, (my_play, play), (button('[data-action="pass"]'), passing)])
    page.wait_for_selector("#record-link", timeout=60_000)
    status = page.inner_text("#status")
    assert "Result" in status or "结果" in status
    page.screenshot(path=_art(f"{game}-end"), full_page=True)
    return done


def check_replay(page, server, shot, game):
    """The finished game's replay, one step back: every seat's hand is shown."""
    record = page.get_attribute("#record-link", "href").rsplit("/", 1)[1]
    page.goto(f"{server}/records/{record}")
    page.wait_for_selector(".ct")
    page.click("#prev")
    assert page.locator(".ct .pl .cards.open").count() >= 2
    shot(page, f"{game}-replay")


def _art(name):
    from .conftest import ARTIFACTS
    ARTIFACTS.mkdir(exist_ok=True)
    return str(ARTIFACTS / f"{name}.png")


def test_wakeng_hand_by_clicks(server, browser, shot):
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    sign_up(page, server, "wakengplayer")
    page.select_option("select[name=game]", "wakeng")          # through the lobby form
    page.select_option("select[name=bots]", "2")
    page.select_option("select[name=clock]", "none")             # a slow machine times nobody out
    page.click("#create")
    page.wait_for_url(re.compile(r"/tables/\w+$"))
    page.wait_for_selector("#hand .c")
    assert page.locator("#hand .c").count() == 16
    assert page.locator(".ct .felt > [data-seatbox]").count() == 2
    # the hand is sorted 4 … K A 2 3
    ranks = [c[0] for c in page.locator("#hand .c").evaluate_all("els => els.map(e => e.dataset.card)")]
    order = "456789TJQKA23"
    assert ranks == sorted(ranks, key=order.index)
    shot(page, "wakeng-deal")
    bids = []

    def bid(b):                                                 # the highest bid offered
        bids.append(b.last.get_attribute("data-action"))
        b.last.click()
    done = play_to_end(page, "wakeng", [(button('[data-action^="bid"]'), bid)])
    # this seat bid when asked (a bot's bid 3 before its turn ends the bidding)
    info = page.inner_text(".ct .info")
    assert bids or page.get_attribute('[data-info="bid"]', "data-value").startswith("3"), info
    assert done["plays"] >= 1
    info = page.inner_text(".ct .info")
    assert "坑" in info or "Bid" in info
    # the digger saw the pit (all bots pass a bid 3; a bot may have bid 3 first)
    if page.locator('[data-seatbox="0"] .badge.role').count():
        assert page.locator('[data-pile="pit"] .c').count() == 4
    check_replay(page, server, shot, "wakeng")
    ctx.close()


def test_fouafour_hand_by_clicks(server, browser, shot):
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    sign_up(page, server, "fouafourplayer")
    open_table(page, server, "fouafour", 3)
    page.wait_for_selector("#hand .c")
    assert page.locator("#hand .c").count() in (13, 14)
    # on a phone the four seats are the table's own boxes: no strip above it repeats them
    assert page.locator(".seats").is_hidden() and page.locator("[data-seatbox]").count() == 4
    assert page.locator("#autopass").is_checked()                  # windows pass by themselves
    # the partner (opposite) is marked so, and only that seat
    assert page.locator('[data-seatbox] .badge.team0').all_inner_texts() == ["Partner"]
    assert page.locator('[data-pos="across"] .badge.team0').count() == 1
    shot(page, "fouafour-deal")

    def claim(b):
        shot(page, "fouafour-claim")
        try:
            b.first.click(timeout=5_000)
        except PlaywrightTimeout:       # the window closed between finding the button and the click
            return False
    # both alternatives scoped to #actions and enabled (enabled() adds both to the last one only)
    done = play_to_end(page, "fouafour", [
        (button('[data-action^="cha"]:enabled, #actions [data-action^="gou"]'), claim)])
    assert done["plays"] >= 1
    assert page.locator('[data-lastplay]').count() == 4
    ctx.close()


SEEN_ONCE = """() => {
    const shown = (e) => !!e.offsetParent;
    return { strip: [...document.querySelectorAll('.seats .seat')].filter(shown).length,
             boxes: [...document.querySelectorAll('[data-seatbox]')].filter(shown).map((b) => ({
               seat: b.dataset.seatbox, names: [...b.querySelectorAll('.nm')].filter(shown).length,
               clock: b.querySelector('.seat-extra .clock')?.textContent ?? null })) };
}"""


SLOW_BOTS = {"bot_delay_ms": 30_000}       # the seat to act stays the same while the test looks


def test_each_seat_is_shown_once_at_both_widths(server, browser, shot):
    """At 390 px a card or tile table shows each seat once, in its own box on the table, with the
    seat's clock after the name (it counts, and stays when the board draws itself anew on a
    click); at 1280 px too (no strip of names above the table repeating the boxes)."""
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    sign_up(page, server, "onceplayer")
    for game, bots, tile in (("doudizhu", 2, "#hand .c"), ("mahjong-gb", 3, "#hand .mj-t")):
        tid = page.evaluate("""async (body) => {
            const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
                headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
            return (await r.json()).id; }""", {"game": game, "bots": bots, "settings": SLOW_BOTS})
        page.set_viewport_size(PHONE)
        page.goto(f"{server}/tables/{tid}")
        page.wait_for_selector(tile)
        page.wait_for_selector(".act .seat-extra .clock")          # the seat to act, with its clock
        seen = page.evaluate(SEEN_ONCE)
        assert seen["strip"] == 0 and page.locator(".seats").is_hidden(), seen
        assert len(seen["boxes"]) == bots + 1 and all(b["names"] == 1 for b in seen["boxes"]), seen
        shown = page.inner_text(".act .seat-extra .clock")
        assert re.fullmatch(r"\d+:\d\d(\.\d)?", shown), seen          # tenths under 10 s
        page.wait_for_function("(c) => document.querySelector('.act .seat-extra .clock')?.textContent !== c",
                               arg=shown)                      # the clock counts
        page.locator(tile).first.click()                     # a raised card or tile: the board drawn anew
        page.wait_for_selector(f"{tile}.sel, {tile}.picked")
        assert page.locator(".act .seat-extra .clock").count() == 1
        shot(page, f"seats-once-{game}-390")
        page.set_viewport_size({"width": 1280, "height": 900})
        seen = page.evaluate(SEEN_ONCE)
        assert seen["strip"] == 0 and page.locator(".seats").is_hidden(), seen
        assert len(seen["boxes"]) == bots + 1 and all(b["names"] == 1 for b in seen["boxes"]), seen
        assert page.locator(".act .seat-extra .clock").count() == 1
        shot(page, f"seats-once-{game}-1280")
    ctx.close()


def test_baohuang_selection_declaration_and_plays(server, browser, shot):
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    page.on("dialog", lambda d: d.accept())
    sign_up(page, server, "baohuangplayer")
    page.click("#lang")                                            # 中文
    page.wait_for_selector("#me", state="attached")
    open_table(page, server, "baohuang", 4)
    page.wait_for_selector("#hand .c")
    # 43 dealt; a candidate without a qualifying triple declines by itself and adds a 2
    assert page.locator("#hand .c").count() >= 42
    assert page.locator(".ct .felt > [data-seatbox]").count() == 4
    shot(page, "baohuang-deal")
    dealt = page.locator("#hand .c").count()
    seen = {"accept": 0, "declare": 0, "play": 0, "pass": 0}

    count = counter(seen)

    def accept(b):
        assert "皇帝" in b.inner_text()
        b.click()

    def declare(b):
        assert "亮" in b.first.inner_text()
        shot(page, "baohuang-declare")
        b.first.click()
    drive(page, [(button('[data-action="accept"]'), count("accept", accept)),
                 (button('[data-action^="decline"]'), lambda b: b.click()),
                 (button('[data-action^="declare"]'), count("declare", declare)),
                 (button('[data-action="hint"]'), count("play", play_by_hint_found)),
                 (button('[data-action="pass"]'), count("pass", click_pass))],
          enough=lambda: seen["play"] >= 3)
    assert seen["play"] >= 1
    # the plays were sent as card ids and taken: the seat's last play shows cards (or, on a
    # loaded machine where the clock passed for the seat before its click arrived, says it
    # passed), or, once the others have passed and a new round has cleared the last plays,
    # the hand holds fewer cards than dealt
    mine = page.locator('[data-lastplay="0"] .c, [data-lastplay="0"] .txt.pass')
    assert mine.count() >= 1 or seen["pass"] or page.locator("#hand .c").count() < dealt, \
        page.inner_text(".ct")
    assert page.locator(".ct .badge.role").count() == 1              # one emperor
    assert page.locator('[data-info="named"]').count() == 1
    shot(page, "baohuang-play")
    page.click("#resign")
    page.click('#ask [data-answer="yes"]')          # resigning asks first
    page.wait_for_selector("#record-link")
    assert "结果" in page.inner_text("#status")
    shot(page, "baohuang-end")
    check_replay(page, server, shot, "baohuang")
    ctx.close()


def trump_of(face, level, trump):
    return face[0] in "LB" or face[0] == level or face[1] == trump


def follow_choice(hand, count, suit, level, trump, attempt):
    """Cards for a follow of `count` cards of `suit` ("TRUMP" or a suit letter): cards of the led
    suit (pairs first on a second attempt), filled with the last cards of the hand."""
    def eff(f):
        return "TRUMP" if trump_of(f, level, trump) else f[1]
    led = [i for i, f in enumerate(hand) if eff(f) == suit]
    if len(led) > count and attempt:
        pairs = [i for i in led if hand.count(hand[i]) >= 2]
        led = pairs + [i for i in led if i not in pairs]
        led = led[:count] if attempt == 1 else led[-count:]
    elif len(led) > count:
        led = led[-count:]
    rest = [i for i in reversed(range(len(hand))) if i not in led]
    return (led + rest)[:count]


def test_shengji_declare_bury_and_play(server, browser, shot):
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    page.on("dialog", lambda d: d.accept())
    sign_up(page, server, "shengjiplayer")
    # the referee's declaration prompts to this seat with a declaration to make (§2.7), by seq,
    # as the page's socket got them. A table with a person is dealt card by card, each prompt of
    # the deal held a short time (deal_prompt="every_card", Settings.deal_window_ms): the page
    # keeps the declare buttons of a prompt it missed while the deal goes on, and a click sends
    # the declaration ahead, so a person who was offered one declares by a click
    prompts: set[int] = set()

    def frame(text):
        m = json.loads(text) if isinstance(text, str) and '"declaration"' in text else {}
        legal = (m.get("view") or {}).get("legal") or {}
        if m.get("type") == "state" and m["seat"] in m["to_act"] and legal.get("kind") == "declaration" \
                and any(str(a).startswith("declare") for a in legal.get("actions") or []):
            prompts.add(m["seq"])
    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    open_table(page, server, "shengji", 3, options={"dealer": 0}, clock=None)   # seat 0 deals: it buries
    seen = {"declare": 0, "nodeclare": 0, "bury": 0, "lead": 0, "follow": 0, "refused": 0}
    tries = [0]

    count = counter(seen)

    def bury(_):
        assert page.locator('#actions [data-action="bury"]').is_disabled()
        # "choose 8 cards", nothing chosen yet: no separator left hanging after it
        assert not page.inner_text("#prompt").rstrip().endswith("·"), page.inner_text("#prompt")
        cards = page.locator("#hand .c")
        assert cards.count() == 33                              # 25 and the kitty
        for i in range(8):                                      # the last eight (no trumps)
            cards.nth(cards.count() - 1 - i).click()
        assert page.locator("#hand .c.sel").count() == 8
        shot(page, "shengji-bury-selected")
        page.click('#actions [data-action="bury"]')

    def my_bury(page):
        return (page.locator('#actions [data-action="bury"]').count()
                and page.locator(".ct .pl.me.act").count())

    def play(_):
        hand = page.locator("#hand .c").evaluate_all("els => els.map(e => e.dataset.card)")
        m = re.search(r"(\d+)\D+(♠|♥|♣|♦|主牌|trumps)", page.inner_text("#prompt"))
        if m:
            level = page.get_attribute('[data-info="level"]', "data-value")[:2].replace("10", "T")
            trump = SUIT.get(page.get_attribute('[data-info="trump"]', "data-value")[0], "NT")
            suit = SUIT.get(m.group(2), "TRUMP")
            pick = follow_choice(hand, int(m.group(1)), suit, level, trump, tries[0] % 3)
            seen["follow"] += 1
        else:
            pick = [len(hand) - 1]                              # lead one card
            seen["lead"] += 1
        for i in pick:
            page.locator("#hand .c").nth(i).click()
        assert page.locator("#hand .c.sel").count() == len(pick)
        if seen["lead"] + seen["follow"] == 2:
            shot(page, "shengji-play-selected")
        page.click('#actions [data-action="play"]')

    def retry():                                                # a follow the referee refused
        seen["refused"] += 1
        tries[0] += 1
        return tries[0] < 6
    def declare(_):
        # one click, at once: the buttons are drawn again at every card of the deal
        return page.evaluate("""() => {
            const bs = [...document.querySelectorAll('#actions [data-action^="declare"]:enabled')];
            if (!bs.length) return false;
            bs[bs.length - 1].click();
            return true; }""") or False

    drive(page, [(button('[data-action^="declare"]'), count("declare", declare)),
                 (button('[data-action="pass"]'), count("nodeclare", lambda b: b.click())),
                 (my_bury, count("bury", bury)), (my_play, play)],
          enough=lambda: seen["lead"] + seen["follow"] >= 5, retry=retry)
    assert seen["bury"] == 1 and seen["lead"] + seen["follow"] >= 3
    assert (seen["declare"] >= 1) == bool(prompts), (seen, sorted(prompts))
    assert page.locator('[data-pile="buried"] .c').count() == 8      # the dealer sees his kitty
    assert page.locator('[data-info="trump"]').count() == 1
    shot(page, "shengji-play")
    page.click("#resign")
    page.click('#ask [data-answer="yes"]')          # resigning asks first
    page.wait_for_selector("#record-link")
    shot(page, "shengji-end")
    check_replay(page, server, shot, "shengji")
    ctx.close()


def positions(game_id, seed, every=7):
    """(state, seat, hand ids, listed actions) at every `every`-th decision of a random deal."""
    import random

    import qipai
    state = qipai.load(game_id).new_state(seed=seed)
    rng = random.Random(seed)
    k = 0
    while not state.is_terminal():
        seat = state.to_act[0]
        legal = [str(a) for a in state.legal_actions(seat)]
        if k % every == 0 and state.view(seat)["phase"] == "play":
            yield state.clone(), seat, state.view(seat)["hand"], legal
        action = rng.choice(legal) if "accept" not in legal else "accept"
        state.apply(action, seat)
        k += 1


def test_selected_cards_make_the_referees_actions(server, browser):
    """The board's text for selected cards, for every listed play of real positions, is an
    action the referee takes, and plays exactly those ranks (baohuang: exactly those cards)."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server + "/")
    checked = 0
    for game_id, seed in (("wakeng", 11), ("fouafour", 12), ("baohuang", 13)):
        for state, seat, hand, legal in positions(game_id, seed):
            plays = [a for a in legal if re.fullmatch(r"[2-9TJQKALB]+", a)]
            picks = []
            for a in plays:
                free = list(hand)
                picks.append([free.pop(next(i for i, c in enumerate(free) if c[0] == r)) for r in a])
            texts = page.evaluate("""async ([picks, legal]) => {
                const m = await import('/static/boards/cardtable.js');
                return picks.map((ids) => m.matchRanks(ids, legal)); }""", [picks, legal])
            for a, ids, text in zip(plays, picks, texts):
                assert text is not None and sorted(text) == sorted(a), (game_id, a, ids, text)
                sent = " ".join(ids) if game_id == "baohuang" else text
                after = state.clone()
                after.apply(sent, seat)
                if game_id == "baohuang":       # the referee took those faces (the table shows
                    # their ranks only: qipai.cards.table_ids)
                    assert sorted(c[:2] for c in after.plays[-1][2]) == sorted(c[:2] for c in ids)
                checked += 1
    assert checked > 100
    ctx.close()


# a 叉/勾 window is open
WINDOW = """() => ['cha', 'gou'].includes(document.querySelector('.ct').dataset.phase)"""
# this seat is asked in it
ASKED = """() => ['cha', 'gou'].includes(document.querySelector('.ct').dataset.phase)
    && !!document.querySelector('.ct .pl.me.act')"""


def test_fouafour_windows_pass_by_themselves_between_people(server, browser, shot):
    """Two people and two bots: a 叉 window where a person can only pass is answered by the
    server at once (fouafour §3.4): that person is never asked, and sees the window close when
    the server's schedule says."""
    ctxs = [browser.new_context(viewport=PHONE) for _ in range(2)]
    a, b = (c.new_page() for c in ctxs)
    # the accounts of the tests above when they ran (sign-ups per address are rate-limited)
    for page, name in ((a, "wakengplayer"), (b, "fouafourplayer")):
        submit_account_form(page, server, "/login", name)
        if not page.locator("#me").count():
            sign_up(page, server, name)
    tid = a.evaluate("""async () => {
        const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({game: 'fouafour', settings: {bot_delay_ms: 20, clock: 'none'}})});
        return (await r.json()).id; }""")
    b.evaluate("async (t) => { await fetch(`/api/tables/${t}/sit`, {method: 'POST'}); }", tid)
    a.evaluate("async (t) => { await fetch(`/api/tables/${t}/fill`, {method: 'POST'}); }", tid)
    for p in (a, b):
        p.goto(f"{server}/tables/{tid}")
        p.wait_for_selector("#hand .c")
    claims = '#actions [data-action^="cha"]:enabled, #actions [data-action^="gou"]:enabled'
    seen = set()                       # (person, state) of windows where a person was not asked
    for _ in until(120):               # a time bound: a loaded machine's rounds take longer
        if len(seen) >= 3 or a.locator("#record-link").count():
            break
        acted = False
        for i, p in enumerate((a, b)):
            if p.locator(claims).count():
                p.click('#actions [data-action="pass"]')              # decline a claim by hand
                acted = True
            elif p.evaluate(WINDOW) and not p.evaluate(ASKED):
                # nobody clicks: a person who cannot claim is not asked (the server answered);
                # the window closes when the server's schedule says
                seen.add((i, p.get_attribute("#status", "data-seq")))
            elif my_play(p) and enabled(p, '[data-action="hint"]'):
                play_by_hint(p)
                acted = True
            elif pass_button := enabled(p, '[data-action="pass"]'):     # nothing beats the table
                click_pass(pass_button)
                acted = True
        if not acted:
            a.wait_for_timeout(40)
    assert seen
    assert a.inner_text("#error") == "" and b.inner_text("#error") == ""
    shot(a, "fouafour-two-people")
    for c in ctxs:
        c.close()


#: a joker as each card game's page names it: the drawn card (its visible text, its colour, its
#: tooltip and its name for a screen reader), a card in a text (a declaration, a tribute), a play
#: as ranks, a refusal's cards; for the big joker (BJ1) and the small one (LJ0)
JOKER_NAMES = """async (lang) => {
  const i18n = await import("/static/i18n.js");
  const ct = await import("/static/boards/cardtable.js");
  const out = {};
  for (const id of ["BJ1", "LJ0"]) {
    const box = document.createElement("div");
    box.className = "ct";
    const card = ct.cardEl(id, lang);
    box.append(card);
    document.body.append(box);
    out[id] = {face: card.innerText.replace(/\\s+/g, "").trim(), colour: getComputedStyle(card).color,
      names: [...new Set([card.getAttribute("aria-label"), card.title, ct.faceText(id, lang),
                          ct.ranksText(id[0], lang), i18n.cardWords(id)])]};
    box.remove();
  }
  return out;
}"""


def test_a_joker_has_one_name_in_each_language(server, browser):
    """Shengji's declaration read "BJ BJ" in English while the hand's card read "JK big", and
    "JK big" itself is no name an English card room uses: a joker is named Big Joker / Small
    Joker (大王 / 小王) everywhere, and its English card reads BIG or SMALL over a solid or hollow
    star (it read JOKER on both, told apart by colour alone), red for the big joker and black
    for the small one."""
    red, black = "rgb(192, 22, 27)", "rgb(34, 34, 34)"
    want = {"en": {"BJ1": ("BIG★", red, ["Big Joker"]), "LJ0": ("SMALL☆", black, ["Small Joker"])},
            "zh": {"BJ1": ("大王", red, ["大王"]), "LJ0": ("小王", black, ["小王"])}}
    for lang in ("en", "zh"):
        ctx = browser.new_context()
        ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        page = ctx.new_page()
        page.goto(server + "/")
        got = page.evaluate(JOKER_NAMES, lang)
        assert {k: (v["face"], v["colour"], v["names"]) for k, v in got.items()} == want[lang], got
        ctx.close()


def test_a_players_card_replay_names_seats_as_the_table_did(server, browser):
    """A card game's replay read by one of its players names the seats as the live table did
    (You, Left, Right: the player's own seat is not "Bottom" beside bots named by Left and
    Right); a reader who did not play sees the sides (Bottom, Left, Right), no "You"."""
    ctx = browser.new_context(viewport=PHONE)
    ctx.add_init_script("localStorage.setItem('lang', 'en')")
    page = ctx.new_page()
    sign_up(page, server, "replayreader")
    open_table(page, server, "wakeng", 2)
    # one step at least in the deal's list: the person's own pass if the bidding starts with them
    mine = "#actions [data-action=pass]:not([disabled])"    # the person's turn (the table waits)
    page.wait_for_function(f"{SEQ} !== undefined && ({SEQ} !== '0' || document.querySelector('{mine}'))")
    if page.get_attribute("#status", "data-seq") == "0":
        page.click(mine)
        page.wait_for_function(f"{SEQ} !== '0'")
    # a card selected and the seat handed to the computer, then the game ends: the controls and
    # notes of play go with it ("1 selected", Clear, "The computer plays your seat ...")
    page.locator("#hand .c").first.click()
    page.wait_for_selector('#actions [data-action="clear"]')
    page.click("#entrust")
    page.wait_for_function("document.querySelector('#table-note').textContent"
                           ".includes('computer plays your seat')")
    page.click("#resign")
    page.click('#ask [data-answer="yes"]')          # resigning asks first
    page.wait_for_selector("#record-link")
    assert page.locator("#actions, #prompt, #hand .c.sel").count() == 0
    assert page.inner_text("#table-note") == ""
    page.screenshot(path=_art("wakeng-over-phone"), full_page=True)
    replay = page.get_attribute("#record-link", "href")
    page.goto(server + replay)
    page.wait_for_selector(".ct .pl")
    places = page.locator(".ct .pos").all_inner_texts()
    assert "You" in places and "Bottom" not in places, places
    assert {"Left", "Right"} <= set(places), places
    # the list of the deal's steps names the seats the same way, never two bots alike (its
    # bidding first, headed "Bidding", as doudizhu's)
    moves = page.locator("#side li.ml-move").all_inner_texts()
    assert moves and all(re.match(r"(\d+\s+|Bidding\s+)?(You|Left|Right)\b", m) for m in moves), moves
    # and so does the result: "You lost" as at the live table, above the board and on it, the
    # bots by their places (not "You won" with the seats named as a spectator reads them)
    assert page.inner_text("#replay-result").startswith("Result: You lost"), page.inner_text("#replay-result")
    assert page.inner_text("#ct-result .headline").startswith("You lost"), page.inner_text("#ct-result")
    # two bots of one kind by their places alone, no brackets inside the line ("Right −3")
    line = page.inner_text("#replay-result")
    assert re.search(r"\bRight\s[−+]\d", line) and "(Rule-based" not in line, line
    ctx.close()
    other = browser.new_context(viewport=PHONE)
    other.add_init_script("localStorage.setItem('lang', 'en')")
    page = other.new_page()
    page.goto(server + replay)
    page.wait_for_selector(".ct .pl")
    places = page.locator(".ct .pos").all_inner_texts()
    assert "You" not in places and "Bottom" in places, places
    assert "You" not in page.inner_text("#replay-result") + page.inner_text("#ct-result")
    other.close()


#: the round list of a climbing game drawn from a view's plays, in the page's language: a 4A4 cha
#: with its cards, a play the view gives without cards (its action text), a pass
ROUND_WORDS = """async () => {
  const { t, lang } = await import("/static/i18n.js");
  const ct = await import("/static/boards/cardtable.js");
  const { mountHistory } = await import("/static/boards/cardhistory.js");
  const host = document.createElement("div");
  document.body.append(host);
  const v = { plays: [[0, "7", ["7C0"]], [1, "cha 77", ["7D0", "7S0"]], [2, "pass"], [3, "KK"], [0, "pass"],
    [1, "pass"], [2, "LB"]], top: { seat: 2 } };
  const h = mountHistory(host, { t, lang, title: t("ct.rounds"), cardsEl: ct.cardsEl, el: ct.el });
  h.update(ct.playRounds(v, 4), (s) => ["Ann", "Bob", "Cy", "Di"][s]);
  const text = [...host.querySelectorAll(".ct-round")].map((r) => r.innerText.replace(/\\s+/g, " ").trim());
  host.remove();
  return text;
}"""

#: a Guobiao mahjong hand replayed to a reader without a seat, no player names: each seat's name
MAHJONG_SEATS = """async (view) => {
  const { t, lang } = await import("/static/i18n.js");
  const mod = await import("/static/boards/mahjong-gb.js");
  const root = document.createElement("div");
  document.body.append(root);
  const board = mod.mount(root, { t, lang, send: () => {}, replay: true, me: null });
  board.update({ replay: true, seat: null, view, to_act: [], seq: 0, names: ["", "", "", ""] });
  const names = [0, 1, 2, 3].map((s) => board.seatName(s));
  const shown = [...root.querySelectorAll(".mj-pl .nm")].map((e) => e.innerText.trim());
  root.remove();
  return { names, shown };
}"""


def test_rounds_and_mahjong_seats_are_words_of_the_page(server, browser):
    """The round list words every play in the page's language (叉 before a cha's cards, a play
    given without cards by its ranks, 不出), and a mahjong replay read by nobody seated names a
    seat without a player's name by its wind (东家), never 下方 / Bottom."""
    import qipai

    view = qipai.load("mahjong-gb").new_state(seed=3).view(None)
    for lang, cha, passed, seats, bottom in (
            ("zh", "叉", "不出", ["东家", "南家", "西家", "北家"], "下方"),
            ("en", "Cutin(cha)", "Pass", ["East", "South", "West", "North"], "Bottom")):
        ctx = browser.new_context()
        ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        page = ctx.new_page()
        page.goto(server + "/")
        rounds = page.evaluate(ROUND_WORDS)
        jokers = "小王大王" if lang == "zh" else "SmallJokerBigJoker"
        assert [re.sub(r"\s", "", r) for r in rounds] == [
            f"1Ann7♣Bob{cha}7♦7♠Cy{passed}DiKKAnn{passed}Bob{passed}Cy{jokers}"], rounds
        if lang == "zh":
            assert not re.search(r"[A-Za-z]{2,}", re.sub(r"Ann|Bob|Cy|Di", "", " ".join(rounds))), rounds
        got = page.evaluate(MAHJONG_SEATS, view)
        winds = [view["seats"][s]["wind"] for s in range(4)]
        want = [seats["ESWN".index(w)] for w in winds]
        assert got["names"] == want and set(got["shown"]) == set(want), got
        assert bottom not in " ".join(got["names"] + got["shown"])
        ctx.close()


#: each seat's counts of a Guobiao table mounted with `view`
MAHJONG_COUNTS = """async (view) => {
  const { t, lang } = await import("/static/i18n.js");
  const mod = await import("/static/boards/mahjong-gb.js");
  const root = document.createElement("div");
  document.body.append(root);
  mod.mount(root, { t, lang, send: () => {} })
    .update({ seat: 0, view, to_act: [], seq: 1, names: ["a", "b", "c", "d"] });
  const out = [0, 1, 2, 3].map((s) => root.querySelector(`[data-seatbox="${s}"] .mj-counts`).innerText);
  root.remove();
  return out;
}"""


def test_a_mahjong_seats_tile_count_takes_the_plural_form(server, browser):
    """A seat's count read "Score ±0 · 1 tiles"; it reads "1 tile", "4 tiles", in Chinese "1 张"."""
    import qipai

    view = qipai.load("mahjong-gb").new_state(seed=3).view(0)
    view["seats"][1]["concealed_count"] = 1
    view["seats"][2]["concealed_count"] = 4
    for lang, one, four in (("en", "1 tile", "4 tiles"), ("zh", "1 张", "4 张")):
        ctx = browser.new_context()
        ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        page = ctx.new_page()
        page.goto(server + "/")
        counts = page.evaluate(MAHJONG_COUNTS, view)
        assert counts[1].endswith("· " + one) and counts[2].endswith("· " + four), counts
        ctx.close()


#: a board (boards/<board>.js) mounted 950 px wide with `msg`: the box of each of `sels`
BOXES = """async ([board, msg, sels]) => {
  const { t, lang } = await import("/static/i18n.js");
  const mod = await import(`/static/boards/${board}.js`);
  const root = document.createElement("div");
  root.style.width = "950px";
  document.body.prepend(root);
  mod.mount(root, { t, lang, send: () => {} }).update(msg);
  const out = {};
  for (const [k, sel] of Object.entries(sels)) {
    const b = root.querySelector(sel).getBoundingClientRect();
    out[k] = { top: b.top, bottom: b.bottom, left: b.left, right: b.right };
  }
  root.remove();
  return out;
}"""


def test_a_mahjong_table_on_a_wide_screen_is_square(server, browser):
    """At 1280 px the three other seats sat in one row above you; now 对家 sits across the top,
    上家 at the left and 下家 at the right below it, as a square table (checklist M1)."""
    import qipai

    view = qipai.load("mahjong-gb").new_state(seed=3).view(0)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(server + "/")
    msg = {"seat": 0, "view": view, "to_act": [], "seq": 1, "names": ["a", "b", "c", "d"]}
    sels = {"left": '[data-seatbox="3"]', "across": '[data-seatbox="2"]', "right": '[data-seatbox="1"]'}
    g = page.evaluate(BOXES, ["mahjong-gb", msg, sels])
    for side in ("left", "right"):
        assert g["across"]["bottom"] <= g[side]["top"] + 1, g
    assert g["left"]["right"] <= g["across"]["left"] + 1 and g["across"]["right"] <= g["right"]["left"] + 1, g
    ctx.close()


def test_a_three_seat_table_seats_left_and_right_at_its_sides(server, browser):
    """斗地主 on a wide screen put 上家 and 下家 in one top row, above you; the card rooms seat
    them at the table's left and right edges, half-way down, the middle between them."""
    import qipai

    state = qipai.load("doudizhu").new_state(seed=5)
    msg = {"seat": 0, "view": state.view(0), "names": ["ann", "bob", "cy"],
           "to_act": list(state.to_act), "seq": 1, "legal": [], "result": None}
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(server + "/")
    sels = {"felt": ".felt", "left": '.felt > [data-pos="left"]', "right": '.felt > [data-pos="right"]',
            "mid": ".felt > .mid"}
    g = page.evaluate(BOXES, ["doudizhu", msg, sels])
    felt = g["felt"]
    height = felt["bottom"] - felt["top"]
    for side in ("left", "right"):
        box = g[side]
        assert height >= 1.8 * (box["bottom"] - box["top"]), g      # a table, not a row of seats
        centre = (box["top"] + box["bottom"]) / 2
        assert felt["top"] + height / 3 <= centre <= felt["bottom"] - height / 3, g
    assert g["left"]["right"] <= g["mid"]["left"] and g["mid"]["right"] <= g["right"]["left"], g
    ctx.close()


TILES = "5m E 345p f1 9s C"
#: a refusal that names seats ({name|seat}): by the table's names, a bot's in words
DEALER = {"seat": 2, "given": 1, "names": ["ann", "bob", "bot:rule", "dan"]}


def test_tiles_are_named_in_words_as_the_referee_names_them(server, browser):
    """A mahjong refusal's tiles ({name|tiles}) read on the page as the Python catalogue words
    them (i18n.js tileWords, qipai.i18n.tile_words): 五万、东风 in Chinese, "5 crak",
    "East wind" in English, never the codes 5m or E; a refusal's seats ({name|seat}) by the
    table's names as Python words them."""
    from qipai import i18n as words
    for lang in ("en", "zh"):
        ctx = browser.new_context()
        ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        page = ctx.new_page()
        page.goto(server + "/")
        said = page.evaluate("""async ([tiles, dealer]) => {
            const i18n = await import("/static/i18n.js");
            const moves = await import("/static/boards/cardmoves.js");
            return [i18n.tileWords(tiles), i18n.t("refusal.mahjong-gb.do_not_hold_tile", {tile: "5m"}),
                    moves.cardActionWords("trump N", {t: i18n.t, lang: i18n.lang}).join(" "),
                    i18n.t("refusal.shengji.entered_dealer", dealer)];
        }""", [TILES, DEALER])
        # and a shengji no-trump deal's move reads "names no trump", not "names trump no trump"
        assert said == [words.tile_words(TILES, lang),
                        words.t("refusal.mahjong-gb.do_not_hold_tile", {"tile": "5m"}, lang=lang),
                        words.t("mv.notrump", lang=lang),
                        words.t("refusal.shengji.entered_dealer", DEALER, lang=lang)]
        assert "5m" not in said[1] and ("五万" in said[1] or "5 crak" in said[1])
        # shengji's Declared row: each seat named once, a pair of identical cards as one face ×2
        declared = page.evaluate("""async () => {
            const sj = await import("/static/boards/shengji.js");
            const who = (s) => ["ann", "Bot (Rule-based)"][s];
            const {lang} = await import("/static/i18n.js");
            return sj.declaredText([{seat: 1, cards: ["LJ0", "LJ1"]}, {seat: 0, cards: ["5S0"]},
                                    {seat: 1, cards: ["BJ0", "BJ1"]}], who, lang);
        }""")
        assert declared == ("Bot (Rule-based) Small Joker ×2 → Big Joker ×2; ann ♠5" if lang == "en"
                            else "Bot (Rule-based) 小王 ×2 → 大王 ×2；ann ♠5")
        ctx.close()


#: a card board of `game` mounted on the page (no table behind it): each message of `msgs` is
#: shown, then `script` (hint, select, play; or one such list a message) is run on it; what the
#: board sent, and after each step what was selected and whether Play was live, per message
BOARD_SCRIPT = """async ([game, msgs, script]) => {
  const { t, lang } = await import("/static/i18n.js");
  const mod = await import(`/static/boards/${game}.js`);
  const root = document.createElement("div");
  document.body.append(root);
  let sent = [];
  const board = mod.mount(root, { t, lang, send: (a) => sent.push(a) });
  const q = (a) => root.querySelector(`#actions [data-action="${a}"]`);
  const selected = () => [...root.querySelectorAll("#hand .c.sel")].map((c) => c.dataset.card);
  const out = [];
  for (const [i, msg] of msgs.entries()) {
    sent = [];
    board.update(msg);
    const steps = [];
    for (const step of Array.isArray(script[0]) ? script[i] : script) {
      if (step === "hint") { if (q("hint")) q("hint").click(); }
      else if (step === "play") { if (q("play") && !q("play").disabled) q("play").click(); }
      else if (step === "clear") { if (q("clear")) q("clear").click(); }
      else if (step === "two") for (const c of [...root.querySelectorAll("#hand .c")].slice(0, 2)) c.click();
      else if (step.startsWith("pick ")) {
        for (const id of step.slice(5).split(" ")) root.querySelector(`#hand [data-card="${id}"]`).click();
      }
      const play = q("play");
      steps.push({ sel: selected(), play: play ? !play.disabled : null, pass: !!q("pass") });
    }
    await new Promise((r) => setTimeout(r, 0));          // an auto-pass at once would be sent now
    out.push({ steps, sent, hints: q("hint") ? 1 : 0 });
  }
  root.remove();
  return out;
}"""


def summarised(game_id, seed, want):
    """Messages of the seat to act in a deal of `game_id`, as the server sends a legal set it
    only summarises (over 5,000 actions: msg.legal null, its count, and a hint): the first
    position of each kind `want(view)` names, with its state and the card ids of a legal play
    (the lowest copies of the first listed card play)."""
    import random

    import qipai
    state = qipai.load(game_id).new_state(seed=seed)
    rng = random.Random(seed)
    found = {}
    while not state.is_terminal() and len(found) < 2:
        seat = state.to_act[0]
        view = state.view(seat)
        legal = [str(a) for a in state.legal_actions(seat)]
        kind = want(view)
        plays = [a for a in legal if re.fullmatch(r"[2-9TJQKALB]+|[2-9TJQKA][SHDC]|[LB]J", a)]
        if kind and kind not in found and plays:
            free, pick = list(view["hand"]), plays[0]
            ids = [pick] if pick in free else [
                free.pop(next(i for i, c in enumerate(free) if c[0] == r)) for r in pick]
            found[kind] = (state.clone(), seat, ids, {
                "type": "state", "seq": len(found) + 1, "seat": seat, "to_act": [seat], "view": view,
                "names": ["ann", "Bot", "Bot", "Bot", "Bot"][:state.num_seats],
                "bots": [False] + [True] * (state.num_seats - 1), "legal": None, "legal_count": 6000,
                "hint": str(state.default_action(seat)), "turn": 1, "result": None})
        state.apply("accept" if "accept" in legal else rng.choice(legal), seat)
    return [found[k] for k in sorted(found)]


def test_baohuang_and_sandayi_play_from_a_summarised_set(server, browser):
    """A legal set too long to list comes as its count (msg.legal null, legal_count) and a hint,
    as shengji's follows do: baohuang's board threw on it (the set read as a list) and
    sandayi's offered nothing. Now selected cards make a play the referee takes, the server's
    hint selects its play; baohuang's follower can still pass (and the auto-pass does not pass
    for it); sandayi plays one card, not two."""
    ctx = browser.new_context()
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    for game_id, seed, want in (
            ("baohuang", 21, lambda v: v["phase"] == "play" and ("follow" if v["top"] else "lead")),
            ("sandayi", 22, lambda v: v["phase"] == "play" and ("follow" if v["trick"] else "lead"))):
        cases = summarised(game_id, seed, want)
        assert len(cases) == 2, game_id
        for state, seat, ids, msg in cases:
            script = ["two", "clear", "hint", "clear", "pick " + " ".join(ids), "play"]
            r = page.evaluate(BOARD_SCRIPT, [game_id, [msg], script])[0]
            assert errors == [], errors
            two, _, hint, _, picked, _ = r["steps"]
            assert two["play"] is (game_id == "baohuang"), (game_id, two)      # sandayi: one card
            if msg["hint"] != "pass":                                  # the server's hint
                assert hint["sel"] and hint["play"], (game_id, msg["hint"], hint)
            assert picked["sel"] and picked["play"], (game_id, ids, picked)
            assert picked["pass"] is (game_id == "baohuang" and msg["view"]["top"] is not None)
            assert len(r["sent"]) == 1, r                               # Play, and no auto-pass
            assert sorted(r["sent"][0].split()) == sorted(ids)
            state.apply(r["sent"][0], seat)                             # the referee takes it
    ctx.close()


#: what the hint selects for each listed card play of a hand (hintCards, in the hand's order) and
#: whether the board's compose takes those cards (matchRanks finds their listed play)
HINT_PICKS = """async (positions) => {
  const ct = await import("/static/boards/cardtable.js");
  return positions.map(([hand, legal, plays]) => {
    const entries = ct.sortByRank(hand, "3456789TJQKA2LB").map((id, k) => ({ id, key: `${id}#${k}` }));
    return plays.map((a) => {
      const ids = ct.hintCards({ ranks: ct.playRanks(a) }, entries).map((e) => e.id);
      return [ids, ct.matchRanks(ids, legal)];
    });
  });
}"""


def test_every_baohuang_hint_is_playable(server, browser):
    """Four packs, two joker ranks (a Play that stayed disabled after Hint was suspected
    there): every listed play of real baohuang positions, leads and follows, as the hint
    selects it (the lowest copies of each rank) is a selection the board's Play takes, and the
    referee plays exactly those cards; on the board itself, each hint of some positions
    leaves Play live."""
    import random

    import qipai
    positions, states = [], []
    for seed in (31, 32, 33, 34):
        state = qipai.load("baohuang").new_state(seed=seed)
        rng = random.Random(seed)
        k = 0
        while not state.is_terminal():
            seat = state.to_act[0]
            legal = [str(a) for a in state.legal_actions(seat)]
            view = state.view(seat)
            if view["phase"] == "play" and k % 3 == 0:
                plays = [a for a in legal if re.fullmatch(r"[2-9TJQKALB]+", a)]
                positions.append([view["hand"], legal, plays])
                states.append((state.clone(), seat, view, legal, plays))
            state.apply("accept" if "accept" in legal else rng.choice(legal), seat)
            k += 1
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server + "/")
    checked, jokers = 0, set()
    for (state, seat, _, _, plays), picks in zip(states, page.evaluate(HINT_PICKS, positions)):
        for a, (ids, text) in zip(plays, picks):
            assert text is not None and sorted(text) == sorted(a), (a, ids, text)
            after = state.clone()
            after.apply(" ".join(ids), seat)                           # what Play sends
            # the referee took those faces (the table shows their ranks only: table_ids)
            assert sorted(c[:2] for c in after.plays[-1][2]) == sorted(c[:2] for c in ids)
            jokers.add(("L" in a, "B" in a))
            checked += 1
    assert checked > 1000 and len(jokers) == 4, (checked, jokers)
    # the board: every hint of the first positions with few plays, clicked, leaves Play live
    few = [position for position in states if 0 < len(position[-1]) <= 8][:6]
    msgs = [{"type": "state", "seq": k + 1, "seat": seat, "to_act": [seat], "view": view,
             "names": ["ann", "bob", "cy", "di", "ed"], "legal": legal, "turn": k + 1, "result": None}
            for k, (_, seat, view, legal, _) in enumerate(few)]
    got = page.evaluate(BOARD_SCRIPT, ["baohuang", msgs, [["hint"] * len(p) for *_, p in few]])
    for (*_, plays), r in zip(few, got):
        # each listed play once, in the hint's order (what breaks no group first)
        offered = [sorted(c[0] for c in step["sel"]) for step in r["steps"]]
        assert sorted(offered) == sorted(sorted(a) for a in plays)
        assert all(step["play"] for step in r["steps"]), r
    ctx.close()


def test_shengji_declared_row_names_bots_by_their_places(server, browser):
    """Shengji's Declared row named a bot "Bot (Rule-based, Right)" (机器人（规则型，下家）),
    too long for a phone's row: a bot is its place at the table (Right / 下家), you are You."""
    import qipai
    state = qipai.load("shengji").new_state(seed=5)
    while not state.view(0).get("declarations"):
        seat = state.to_act[0]
        legal = [str(a) for a in state.legal_actions(seat)]
        state.apply(next((a for a in legal if a.startswith("declare")), legal[0]), seat)
    view = state.view(0)
    decl = view["declarations"][0]
    assert decl["seat"] == 3                                         # the seat before you: Left
    for lang, bot, left in (("en", "Bot (Rule-based)", "Left"), ("zh", "机器人（规则型）", "上家")):
        ctx = browser.new_context()
        ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
        page = ctx.new_page()
        page.goto(server + "/")
        msg = {"type": "state", "seq": 1, "seat": 0, "to_act": [], "view": view,
               "names": ["ann", bot, bot, bot], "bots": [False, True, True, True], "result": None}
        page.evaluate(BOARD_SCRIPT.replace("root.remove();", ""), ["shengji", [msg], []])
        row = page.get_attribute('[data-info="declared"]', "data-value")
        assert row.startswith(f"{left} ") and bot not in row, row
        ctx.close()


def test_the_hint_offers_plays_that_break_no_group_first(server, browser):
    """The hint offers first what breaks no group of the hand (a lone 7 or the pair of 9s before a
    5 taken from three 5s), then what breaks a bomb or the rocket, bombs and the rocket last (as
    the card rooms do); within a cost, the referee's order."""
    page = browser.new_page()
    page.goto(server + "/")
    hand = ["5S", "5H", "5D", "7C", "9S", "9H", "QS", "QH", "QD", "QC", "LJ", "BJ"]
    order = page.evaluate("""async ([hand, plays]) => {
        const m = await import('/static/boards/cardtable.js');
        return m.hintOrder(plays.map((ranks) => ({ ranks })), hand).map((h) => h.ranks); }""",
                          [hand, ["5", "7", "9", "Q", "L", "B", "55", "99", "QQQQ", "LB"]])
    assert order == ["7", "99", "5", "9", "55", "Q", "L", "B", "QQQQ", "LB"], order
    page.close()
