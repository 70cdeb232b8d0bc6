"""The organizer's event form in a real browser: the chosen preset's values shown in words as
fields, a change the event refuses named with its field and the valid values (and nothing
made), an event with its rules, clock and format changed, and a sandayi event that no preset
holds. Screenshots at 1280 and 390 px in both languages."""

from __future__ import annotations

import re
from contextlib import contextmanager

import httpx
import pytest

from .conftest import running_server
from .pages import FIRST_EVENT_MS, set_lang, shots
from .test_e2e_a11y import check
from .test_e2e_play import sign_up

#: the event files' servers: tables deal at once, no limit on sign-ups and API calls, and the
#: events' worker process starts with the server (the first event made waited for it)
SETTINGS = ("nonce_window_ms=0, event_worker_at_start=True, "
            "limits=Limits(signup_ip=(100.0, 100), api_ip=(1000.0, 1000))")


def shown(page, path):
    """The words the form shows for field ``path`` (once the form has drawn it)."""
    page.wait_for_selector(f'[data-path="{path}"]', state="attached")
    return page.evaluate(f"""() => {{ const n = document.querySelector('[data-path="{path}"]');
        return n.tagName === 'SELECT' ? n.selectedOptions[0].textContent : n.value; }}""")


def test_the_form_shows_checks_and_makes_an_event_with_its_changes(browser, shot, tmp_path):
    with running_server(tmp_path, SETTINGS) as base:
        ctx = browser.new_context()
        boss = ctx.new_page()
        sign_up(boss, base, "boss", lobby=False)                   # the first account: an organizer
        set_lang(boss, base, "en")
        boss.goto(base + "/events")
        # the list of events comes first; the form below it, linked from the list's title
        boss.wait_for_selector("#new-event")
        assert boss.evaluate("""() => !!(document.querySelector('#event-list')
            .compareDocumentPosition(document.querySelector('#new-event'))
            & Node.DOCUMENT_POSITION_FOLLOWING)""")
        assert boss.get_attribute("#to-new-event", "href") == "#new-event"
        # the English form's tooltips are English (a preset's own title mixes in Chinese)
        tips = boss.eval_on_selector_all("#new-event [title]", "es => es.map((e) => e.title)")
        assert not [x for x in tips if re.search(r"[\u3400-\u9fff]", x)], tips
        # a new event is of the most played game, xiangqi; the box names the preset short (it
        # fits a phone), what the event is follows under it whole
        boss.wait_for_selector('[data-path="game.id"]')
        assert shown(boss, "game.id") == "Xiangqi"
        picked = boss.eval_on_selector("select[name=preset]", "s => s.selectedOptions[0].textContent")
        assert picked == "Xiangqi (general rules)"
        assert boss.inner_text("#preset-about").startswith("knockout; two slow games")
        boss.select_option("select[name=preset]", "s2_xiangqi")
        boss.wait_for_selector('[data-path="game.repetition_rule"]')
        assert boss.inner_text("#preset-about") == "knockout, best of three, 15 s per move"
        # the preset's values, in words
        assert shown(boss, "match.series.clock") == "15 s a move"
        assert shown(boss, "match.series.scheduled") == "3"
        assert shown(boss, "stage.kind") == "knockout"
        assert shown(boss, "game.id") == "Xiangqi"
        texts = "ns => ns.map((n) => n.textContent)"
        labels = boss.eval_on_selector_all("#event-fields label.field > span:first-child", texts)
        assert "Games per match" in labels and "Repetition" in labels
        assert not [x for x in labels if "_" in x or re.fullmatch(r"[a-z.]+", x)], labels
        options = boss.eval_on_selector_all("#event-fields select option", texts)
        assert not [o for o in options if "_" in o], options
        # each game and each clock once, the games in alphabetical order
        for path in ("game.id", "match.series.clock"):
            words = boss.eval_on_selector_all(f'[data-path="{path}"] option', texts)
            assert len(words) == len(set(words)), (path, words)
        # a xiangqi event's clocks: xiangqi's and the general ones, no other game's rule-sheet clock
        clocks = boss.eval_on_selector_all('[data-path="match.series.clock"] option',
                                           "ns => ns.map((n) => n.value)")
        assert '"xq_s0_rapid"' in clocks and '"board_default"' in clocks, clocks
        assert not [c for c in clocks if re.match(r'"(junqi|wakeng|go|tiaoqi)_', c)], clocks
        games = boss.eval_on_selector_all('[data-path="game.id"] option', texts)
        assert games == sorted(games, key=str.lower), games
        # a refused change: the field, its value and the valid values; nothing is made
        boss.select_option('[data-path="stage.kind"]', '"table_swiss"')
        boss.wait_for_selector('[data-error-for="stage.kind"]:has-text("Valid:")')
        text = boss.inner_text('[data-error-for="stage.kind"]')
        assert text.startswith("Format: table Swiss cannot be used here. Valid:"), text
        assert "round robin" in text, text
        assert boss.get_attribute('[data-path="stage.kind"]', "aria-invalid") is not None
        boss.fill("textarea[name=players]", "a random 1500\nb random 1900\nc random 1700\nd random")
        boss.click("#create-event")
        boss.wait_for_selector("#new-event-error:has-text('Format:')")      # refused, nothing made
        assert httpx.get(base + "/api/events").json() == []
        boss.select_option('[data-path="stage.kind"]', '"round_robin"')
        boss.wait_for_selector('[data-path="standings"]')            # a round robin's standings field
        assert boss.inner_text('[data-error-for="stage.kind"]') == ""
        # a number below its least value
        boss.fill('[data-path="match.series.scheduled"]', "0")
        boss.dispatch_event('[data-path="match.series.scheduled"]', "change")
        boss.wait_for_selector('[data-error-for="match.series.scheduled"]:has-text("at least 1")')
        boss.fill('[data-path="match.series.scheduled"]', "1")
        boss.dispatch_event('[data-path="match.series.scheduled"]', "change")
        boss.wait_for_selector('[data-field="match.series.scheduled"].changed')
        # the line under the preset follows the form: no longer the preset's "knockout, best of three"
        about = boss.inner_text("#preset-about")
        assert about.startswith("round robin; Games per match: 1; "), about
        assert "knockout" not in about and "best of three" not in about, about
        boss.select_option('[data-path="game.repetition_rule"]', '"seed000_same_move"')
        boss.wait_for_selector('[data-field="game.repetition_rule"].changed')
        boss.select_option('[data-path="match.series.clock"]', '"xq_s0_rapid"')
        boss.wait_for_selector('[data-field="match.series.clock"].changed')
        boss.fill('[data-path="draw.seeded.count"]', "2")
        boss.dispatch_event('[data-path="draw.seeded.count"]', "change")
        boss.wait_for_selector('[data-field="draw.seeded.count"].changed')
        # a second stage after the round robin, with its own match settings
        boss.select_option('[data-path="then.0.kind"]', '"knockout"')
        boss.wait_for_selector('[data-path="then.0.match.series.scheduled"]')
        boss.fill('[data-path="then.0.match.series.scheduled"]', "3")
        boss.dispatch_event('[data-path="then.0.match.series.scheduled"]', "change")
        boss.wait_for_selector('[data-field="then.0.match.series.scheduled"].changed')
        boss.select_option('[data-path="then.0.match.series.tiebreak"]', '"sudden_death"')
        boss.wait_for_selector('[data-field="then.0.match.series.tiebreak"].changed')
        assert "Games per match in stage 2" in boss.inner_text('[data-field="then.0.match.series.scheduled"]')
        # the first stage's settings stay as they were
        assert boss.input_value('[data-path="match.series.scheduled"]') == "1"
        shot(boss, "event-form-changed")
        check(boss, "the event form with changes")
        boss.fill("input[name=name]", "Rapid club")
        boss.click("#create-event")
        boss.wait_for_url(re.compile(r"/events/[\w.-]+$"))
        event = boss.url.rsplit("/", 1)[1]
        ev = httpx.get(f"{base}/api/events/{event}").json()
        assert ev["stage"] == "round_robin" and len(ev["rounds"][0]["matches"]) == 2
        assert all(len(m["games"]) == 1 for m in ev["rounds"][0]["matches"])
        # the seeded draw: the two best-rated players hold draw numbers 1 and 2, marked
        boss.wait_for_selector("#draw")
        boss.click("#draw > summary")
        seeds = boss.eval_on_selector_all("#draw-numbers [data-seeded]",
                                          "rs => rs.map((r) => [...r.cells].map((c) => c.innerText.trim()))")
        assert seeds == [["1seed", "b", "1900"], ["2seed", "c", "1700"]], seeds     # tag by the number
        assert "Draw numbers 1 to 2 went to the best-rated players" in boss.inner_text("#seeded-note")
        # a sandayi event, from a doudizhu preset: tables of four follow the game
        boss.goto(base + "/events")
        boss.select_option("select[name=preset]", "s2_doudizhu")
        boss.wait_for_selector('[data-path="game.bidding"]')
        boss.select_option('[data-path="game.id"]', '"sandayi"')
        boss.wait_for_selector('[data-path="game.bids"]')
        assert shown(boss, "match.session.seats") == "4"
        boss.fill("textarea[name=players]", "\n".join(f"s{i} random" for i in range(8)))
        boss.click("#create-event")
        boss.wait_for_url(re.compile(r"/events/[\w.-]+$"))
        ev = httpx.get(base + "/api/events/" + boss.url.rsplit("/", 1)[1]).json()
        assert ev["game"] == "sandayi" and [len(m["entrants"]) for m in ev["rounds"][0]["matches"]] == [4, 4]
        assert ev["name"] == "Sandayi · table knockout"          # not the doudizhu preset's title
        storage = ctx.storage_state()
        shots(browser, base, "/events", "event-form", shot, '#event-fields fieldset[data-group=format]',
              storage)
        # Chinese: a refusal in Chinese words, no English
        zh = browser.new_context(storage_state=storage).new_page()
        set_lang(zh, base, "zh")
        zh.goto(base + "/events")
        zh.select_option("select[name=preset]", "s2_xiangqi")
        zh.wait_for_selector('[data-path="game.repetition_rule"]')
        zh.select_option('[data-path="stage.kind"]', '"table_swiss"')
        zh.wait_for_selector('[data-error-for="stage.kind"]:has-text("可选")')
        text = zh.inner_text('[data-error-for="stage.kind"]')
        assert not re.search(r"[A-Za-z]{3,}", text), text
        form = zh.inner_text("#event-fields")
        assert not re.search(r"[A-Za-z]{4,}", form.replace("xiangqi", "")), form
        # the S0 shengji final's own rule, named in words
        zh.select_option("select[name=preset]", "s0_shengji")
        final = '[data-field="stage.round_overrides.final.time_limit.duration"]'
        zh.wait_for_selector(final)
        assert zh.inner_text(final + " > span") == "决赛：限时（如 180m）"
        assert zh.input_value('[data-path="stage.round_overrides.final.target.level_beyond"]') == "14"
        form = zh.inner_text("#event-fields")
        assert not re.search(r"[A-Za-z]{4,}", form), form
        shot(zh, "event-form-shengji-zh")


@pytest.fixture(scope="module")
def organizer(browser, tmp_path_factory):
    """``(base, storage)``: a server the next tests share (each makes its own events and
    counts only those), and the signed-in state of its first account ``boss`` (an organizer).
    One server for them: a server's start took 17 s on a loaded machine."""
    with signed_in_organizer(browser, tmp_path_factory.mktemp("qipai-form")) as shared:
        yield shared


@contextmanager
def signed_in_organizer(browser, data, settings=SETTINGS):
    """``(base, storage)`` of a server started in ``data``: its first account ``boss`` (an
    organizer) signed up, and the signed-in state to open contexts with."""
    with running_server(data, settings) as base:
        ctx = browser.new_context()
        sign_up(ctx.new_page(), base, "boss", lobby=False)
        state = ctx.storage_state()
        ctx.close()
        yield base, state


def test_the_players_example_names_a_bot_of_the_events_game(browser, organizer):
    """The players box's example line and help name a bot the chosen game has (a card game's
    "rule" bot is no xiangqi bot) by its name in words, and the game's bots are listed in words,
    never by their codes; a line that is neither an account nor a bot is named in the error; the
    example's bot line, typed as shown (words), makes the event."""
    base, state = organizer
    boss = browser.new_context(storage_state=state).new_page()
    for lang in ("zh", "en"):
        set_lang(boss, base, lang)
        boss.goto(base + "/events")
        for preset, bot, word in (("s0_doudizhu", "rule", {"en": "Rule-based", "zh": "规则型"}),
                                  ("s0_xiangqi", "greedy", {"en": "Greedy", "zh": "贪心"})):
            boss.select_option("select[name=preset]", preset)
            boss.wait_for_function("(w) => document.querySelector('textarea[name=players]').placeholder"
                                   ".endsWith(' ' + w)", arg=word[lang])
            help_text = boss.inner_text("#new-event label:has(textarea[name=players]) > span")
            bots = boss.inner_text("#event-bots")
            assert f" {word[lang]}" in help_text and word[lang] in bots
            if lang == "en" and preset == "s0_doudizhu":    # a name with a comma stays whole
                assert "Search, level 3; Search, level 4" in bots, bots
            for code in (bot, "rule", "greedy", "random", "mcts"):     # the bots' codes
                assert not re.search(rf"\b{code}\b", help_text + "\n" + bots), (code, help_text, bots)
    # a line that is no account and no bot: the error names it
    boss.fill("textarea[name=players]", "boss\nnobody-here")
    boss.click("#create-event")
    boss.wait_for_selector("#new-event-error:has-text('nobody-here')")
    # the example's bot line, as shown (the bot in words), a second one with a rating, and a
    # third by its bot's code
    bot_line = boss.get_attribute("textarea[name=players]", "placeholder").splitlines()[-1]
    assert bot_line == "bot1 Greedy"
    boss.fill("textarea[name=players]",
              "boss\nbot1 Greedy\nbot2 greedy 1500\nbot3 Random moves (easiest)")
    boss.click("#create-event")
    boss.wait_for_url(re.compile(r"/events/[\w.-]+$"))
    ev = boss.url.rsplit("/", 1)[1]
    got = boss.request.get(f"{base}/api/events/{ev}").json()
    text = str(got)
    assert "'bot': 'greedy'" in text and "'bot': 'random'" in text, text
    boss.context.close()


def s2_xiangqi(page):
    """Choose the S2 xiangqi preset and wait for its fields (best of three)."""
    page.select_option("select[name=preset]", "s2_xiangqi")
    page.wait_for_function("""() => document.querySelector(
        '[data-path="match.series.scheduled"]')?.value === '3'""")


def test_create_straight_after_typing_makes_one_event_and_opens_it(browser, organizer):
    """A number typed and "Create event" pressed without leaving the field: the typed value is
    checked and used, the button is off while the event is made (pressed twice, one event), the
    page says it is working and then opens the new event; a changed field says "changed" in
    words (its label alone in red read as an error)."""
    base, state = organizer
    boss = browser.new_context(storage_state=state).new_page()
    set_lang(boss, base, "en")
    boss.goto(base + "/events")
    s2_xiangqi(boss)
    # a clock's words stand whole in their box at 1280 px
    assert not boss.evaluate("""() => [...document.querySelectorAll('fieldset[data-group=clock] select')]
      .some((s) => {
        const c = document.createElement('canvas').getContext('2d'), st = getComputedStyle(s);
        c.font = `${st.fontSize} ${st.fontFamily}`;
        return c.measureText(s.selectedOptions[0].textContent).width > s.clientWidth - 32; })""")
    boss.fill("input[name=name]", "Review Cup")
    boss.fill('[data-path="match.series.scheduled"]', "1")
    boss.fill("textarea[name=players]", "a random\nb random\nc random\nd random")
    boss.focus('[data-path="match.series.scheduled"]')
    # two presses at once (a double click, an impatient retry)
    # the button is read in the same script as the presses: once the event is made the page goes
    # to it, and a read after that navigation began would find no page to read
    assert boss.evaluate("""() => { const b = document.querySelector('#create-event');
                                     b.click(); b.click(); return b.disabled; }""")
    boss.wait_for_url(re.compile(r"/events/[\w.-]+$"), timeout=FIRST_EVENT_MS)
    made = [e for e in httpx.get(base + "/api/events").json() if e["name"] == "Review Cup"]
    assert len(made) == 1, made
    ev = httpx.get(f"{base}/api/events/{made[0]['id']}").json()
    assert all(len(m["games"]) == 1 for m in ev["rounds"][0]["matches"])
    # back on the form: a changed field is marked in words, and a refused one keeps the
    # button usable with the reason by the field
    boss.goto(base + "/events")
    s2_xiangqi(boss)
    boss.fill('[data-path="match.series.scheduled"]', "0")
    boss.click("#create-event")
    boss.wait_for_selector('[data-error-for="match.series.scheduled"]:has-text("at least 1")')
    assert not boss.evaluate("document.querySelector('#create-event').disabled")
    assert [e["name"] for e in httpx.get(base + "/api/events").json()].count("Review Cup") == 1
    boss.fill('[data-path="match.series.scheduled"]', "2")
    boss.dispatch_event('[data-path="match.series.scheduled"]', "change")
    boss.wait_for_selector('[data-field="match.series.scheduled"] .changed-tag:has-text("changed")')
    boss.context.close()


def test_an_answer_lost_on_the_way_makes_one_event_and_opens_it(browser, organizer):
    """The server makes the event but its answer never reaches the page (the connection drops):
    the page asks again with the same form key and is answered with that event, never a second
    one, and opens it; a double click on "Create event" sends one press; the list shows it."""
    base, state = organizer
    boss = browser.new_context(storage_state=state).new_page()
    set_lang(boss, base, "en")
    boss.goto(base + "/events")
    s2_xiangqi(boss)
    boss.fill("input[name=name]", "Lost Answer Cup")
    boss.fill("textarea[name=players]", "a random\nb random")
    posts = []

    def lose_first(route):
        if route.request.method != "POST":
            return route.continue_()
        posts.append(route.request.post_data_json)
        if len(posts) == 1:
            route.fetch()                       # made on the server, the answer lost
            route.abort("connectionreset")
        else:
            route.continue_()
    boss.route(re.compile(r"/api/events$"), lose_first)
    boss.dblclick("#create-event")
    boss.wait_for_url(re.compile(r"/events/[\w.-]+$"), timeout=FIRST_EVENT_MS)
    made = [e for e in httpx.get(base + "/api/events").json() if e["name"] == "Lost Answer Cup"]
    assert len(made) == 1, made
    assert boss.url.endswith("/events/" + made[0]["id"])
    assert len(posts) == 2 and posts[0]["request_key"] == posts[1]["request_key"], posts
    boss.unroute_all()
    boss.goto(base + "/events")
    boss.wait_for_selector(f'#event-list tr[data-event="{made[0]["id"]}"]')
    boss.context.close()


def test_an_unknown_bot_is_refused_with_the_games_bots_in_words(browser, organizer, shot):
    """A bot the event's game does not have (贪心 is a xiangqi bot, not a doudizhu one) is
    refused with the game's bots by their names in the page's language, as the help lists them,
    never their codes; a bot's name typed without its note in brackets (随机 for 随机（最容易）)
    is that bot."""
    base, state = organizer
    boss = browser.new_context(storage_state=state).new_page()
    for lang, typed, said in (("zh", "机器人1 贪心", "规则型"), ("en", "bot1 Greedy", "Rule-based")):
        set_lang(boss, base, lang)
        boss.goto(base + "/events")
        boss.select_option("select[name=preset]", "s0_doudizhu")
        boss.wait_for_selector("#event-bots:not(:empty)")
        boss.fill("textarea[name=players]", f"boss\n{typed}\nbot2 rule")
        boss.click("#create-event")
        error = boss.wait_for_selector("#new-event-error:not(:empty)").inner_text()
        assert said in error and typed.split()[1] in error, error
        for code in ("mcts3", "rule", "random"):
            assert not re.search(rf"\b{code}\b", error), error
        if lang == "zh":
            shot(boss, "event-unknown-bot-zh-desktop")
    boss.fill("textarea[name=players]", "boss\nbot1 Random\nbot2 Rule-based")
    boss.click("#create-event")
    boss.wait_for_url(re.compile(r"/events/[\w.-]+$"))
    got = str(boss.request.get(f"{base}/api/events/{boss.url.rsplit('/', 1)[1]}").json())
    assert "'bot': 'random'" in got and "'bot': 'rule'" in got, got
    boss.context.close()


def test_a_number_being_typed_survives_the_check_of_the_change_before(browser, organizer):
    """The organizer changes the games per match, moves on with Tab and types the seeded count
    while that change is still being checked: the check's answer redrew every field and threw the
    focus out of the field being typed in (what was typed next went nowhere). The field keeps
    the focus and what is typed in it; leaving it sends it, and both changes show as changed."""
    base, state = organizer
    boss = browser.new_context(storage_state=state).new_page()
    set_lang(boss, base, "en")
    boss.goto(base + "/events")
    s2_xiangqi(boss)
    held = []

    def hold(route):
        if route.request.method == "POST" and not held:
            held.append(route)                 # answered below, once the next field is typed in
        else:
            route.continue_()
    boss.route(re.compile(r"/api/events/form$"), hold)
    boss.fill('[data-path="match.series.scheduled"]', "5")
    boss.focus('[data-path="draw.seeded.count"]')       # as Tab from the field does
    boss.wait_for_function("() => document.activeElement?.dataset.path === 'draw.seeded.count'")
    for _ in range(300):                # the change's check on its way (30 s at most)
        if held:
            break
        boss.wait_for_timeout(100)      # lets the route handler run: a poll, not a pause
    assert held, "the change was not checked"
    boss.keyboard.press("Control+A")
    boss.keyboard.type("1")
    held[0].continue_()
    boss.wait_for_selector('[data-field="match.series.scheduled"].changed')
    boss.keyboard.type("2")                             # typing on after the answer came
    assert boss.evaluate("""() => [document.activeElement?.dataset.path,
        document.querySelector('[data-path="draw.seeded.count"]').value]""") == ["draw.seeded.count", "12"]
    boss.unroute_all()
    boss.keyboard.press("Tab")
    boss.wait_for_selector('[data-field="draw.seeded.count"].changed')
    assert boss.input_value('[data-path="match.series.scheduled"]') == "5"
    assert boss.input_value('[data-path="draw.seeded.count"]') == "12"
    boss.context.close()
