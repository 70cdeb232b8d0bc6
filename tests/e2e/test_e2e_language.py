"""One language at a time: in a Chinese browser every page speaks Chinese.

A real server and Debian's Chromium with the locale zh-CN (so ``navigator.language`` is zh-CN
and nobody has picked a language): for every game, a table the player sits at with bots (some
moves in, a clock that ends or plays for the player so the page also shows a result or
trusteeship) and a table of bots alone watched as a spectator; then the lobby, the history,
the event list and an event's page. The rendered text of each page (``innerText``) may hold
no English word: what is left after taking out the players' names may only be notation
(ICCS and coordinates, card and tile codes, short capitals such as ``JSON``) and digits.
The same pages in an English browser hold no Chinese outside names and the game's own name.
Every page is photographed at 1280 and 390 px (a phone) and is no wider than a phone's screen.
"""

from __future__ import annotations

import re

import pytest

import qipai

from .conftest import running_server

SECRET = "e2e-password-1"
GAMES = [info.id for info in qipai.games()]
#: names of things that are the same in every language
NAMES = {"qipai", "OpenSpiel", "RLCard", "Botzone"}
#: a word: letters, maybe joined by an apostrophe or a hyphen
WORD = re.compile(r"[A-Za-z]+(?:['’-][A-Za-z]+)*")
HAN = re.compile(r"[\u3400-\u9fff]+")


#: the accounts these tests make (the lobby lists the other tests' tables too)
ACCOUNTS = re.compile(r"\b(?:zh|en)\d+player\b|\bzh(?:organizer|refused)\b")


def english_words(text: str, names: list[str]) -> list[str]:
    """The English words of ``text`` once ``names`` and this module's accounts are taken out:
    any word of two or more letters with a lower-case letter (``pass``, ``Result``, ``vs``).
    Single letters (files, tile suits, card ranks) and short capitals (``ICCS``, ``JSON``,
    ``LB``, ``10H``) are notation."""
    for n in sorted(names, key=len, reverse=True):
        text = text.replace(n, " ")
    text = ACCOUNTS.sub(" ", text)
    out = []
    for m in WORD.finditer(text):
        w = m.group(0)
        if w in NAMES or len(w) < 2 or (w.isupper() and len(w) <= 5):
            continue
        out.append(w)
    return out


@pytest.fixture(scope="module")
def lserver(tmp_path_factory):
    settings = ("private_window_ms=300, max_open_tables=100, organizers=('zhorganizer',), "
                "limits=Limits(signup_ip=(100.0, 100), "
                "bot_games_account=(100.0, 100), api_ip=(1000.0, 1000))")
    with running_server(tmp_path_factory.mktemp("qipai-lang"), settings) as base:
        yield base


def sign_up(page, base: str, name: str) -> None:
    r = page.request.post(base + "/api/signup", data={"username": name, "password": SECRET})
    assert r.status in (200, 201), r.text()


def new_table(page, base: str, game: str, *, sit: bool, clock: str | None = None) -> str:
    n = next(info.seats[0] for info in qipai.games() if info.id == game)
    body = {"game": game, "sit": sit, "bots": n - 1 if sit else n, "bot": None,
            "options": {"board_size": 9} if game == "go" else {}}
    if clock:
        body["settings"] = {"clock": clock}
    r = page.request.post(base + "/api/tables", data=body)
    assert r.status == 201, r.text()
    return r.json()["id"]


def page_text(page) -> str:
    """The page's text, with what a closed <details> holds (a legend one click away; its code
    and commands aside) and the tooltips of the options of its selects (an event preset's help)."""
    return page.evaluate("""() => {
        const hidden = [];
        for (const d of document.querySelectorAll('details:not([open])')) {
            const walk = document.createTreeWalker(d, NodeFilter.SHOW_TEXT);
            for (let n; (n = walk.nextNode());) {
                if (!n.parentElement.closest('code, pre')) hidden.push(n.textContent);
            }
        }
        return [document.body.innerText, ...hidden,
            ...[...document.querySelectorAll('select option[title]')].map((o) => o.title)].join('\\n'); }""")


def wait_moves(page, n: int, timeout_ms: int = 15_000) -> None:
    """Wait until the table has seen ``n`` moves or is over (whichever comes first)."""
    page.wait_for_selector("#status[data-seq]", timeout=timeout_ms)
    page.wait_for_function(
        f"""() => {{ const s = document.querySelector('#status');
                    return +s.dataset.seq >= {n} || s.classList.contains('over')
                        || document.querySelector('#record-link') }}""", timeout=timeout_ms)


def widths(page, name: str, shot, found: dict[str, list[str]] | None = None) -> None:
    """Screenshots of the page at 1280 and 390 px (a phone); at 390 px nothing is wider than
    the screen (``found[name + "-390"]`` says how wide it is otherwise)."""
    for width, height in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        shot(page, f"{name}-{width}")
        wide = page.evaluate("document.documentElement.scrollWidth")
        if width == 390 and wide > 390 and found is not None:
            found[f"{name}-390"] = [f"{wide} px wide"]
    page.set_viewport_size({"width": 1280, "height": 900})


def check(page, where: str, names: list[str], shot, found: dict[str, list[str]]) -> None:
    page.wait_for_timeout(300)               # let the last state render
    words = english_words(page_text(page), names)
    if words:
        found[where] = sorted(set(words))
    widths(page, f"lang-zh-{where}", shot, found)


@pytest.fixture(scope="module")
def zh(browser):
    ctx = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    ctx.on("page", lambda page: page.on("pageerror", lambda e: errors.append(str(e))))
    ctx.errors = errors
    yield ctx
    ctx.close()


def test_the_chinese_interface_follows_the_browser(lserver, zh):
    page = zh.new_page()
    page.goto(lserver + "/")
    page.wait_for_selector("#theme")     # drawn once the header speaks the page's language
    assert page.evaluate("document.documentElement.lang") == "zh"
    assert page.evaluate("navigator.language") == "zh-CN"
    assert page.evaluate("localStorage.getItem('lang')") is None
    assert "大厅" in page_text(page)
    # a language the player picks stays picked, over the browser's
    page.click("#lang")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.wait_for_selector("text=Lobby")
    assert page.evaluate("localStorage.getItem('lang')") == "en"
    page.reload()
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.click("#lang")
    page.wait_for_function("document.documentElement.lang === 'zh'")
    assert page.evaluate("localStorage.getItem('lang')") == "zh"
    page.evaluate("localStorage.removeItem('lang')")     # the other tests: the browser's language
    page.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_table_of_every_game_speaks_chinese(lserver, zh, game, shot):
    page = zh.new_page()
    name = f"zh{GAMES.index(game)}player"
    sign_up(page, lserver, name)
    found: dict[str, list[str]] = {}
    cards = game not in ("xiangqi", "go", "gomoku", "chinese-checkers", "junqi")
    clock = "bot_default_cards" if cards else "bot_default_board"
    seated = new_table(page, lserver, game, sit=True, clock=clock)
    watched = new_table(page, lserver, game, sit=False)
    page.goto(f"{lserver}/tables/{seated}")
    wait_moves(page, 4)
    page.wait_for_timeout(2500)             # the seat's own clock runs out: a result or 托管
    check(page, f"{game}-seated", [name], shot, found)
    page.goto(f"{lserver}/tables/{watched}")
    wait_moves(page, 8)
    check(page, f"{game}-watched", [name], shot, found)
    page.close()
    assert found == {}
    assert zh.errors == []


def test_lobby_history_and_events_speak_chinese(lserver, zh, shot):
    page = zh.new_page()
    sign_up(page, lserver, "zhorganizer")    # an organizer (the server's settings)
    found: dict[str, list[str]] = {}
    names = ["zhorganizer"]
    t = new_table(page, lserver, "xiangqi", sit=True, clock="bot_default_board")
    page.goto(f"{lserver}/tables/{t}")
    page.wait_for_selector("#status.over, #record-link", timeout=20_000)
    for path in ("/", "/history", "/events"):
        page.goto(lserver + path)
        page.wait_for_load_state("networkidle")
        # the event form's help shows what to type for a bot player: "bot1 rule" is input syntax
        check(page, path.strip("/") or "lobby", names + ["bot1 rule"], shot, found)
    records = page.request.get(lserver + "/api/records?user=me").json()
    assert records
    page.goto(f"{lserver}/records/{records[0]['id']}")
    page.wait_for_selector("#board")
    check(page, "replay", names, shot, found)
    # every game's rule options and their values, as the create form shows them
    page.goto(lserver + "/")
    page.wait_for_selector("select[name=game]")
    page.click("details summary")
    for game in GAMES:
        page.select_option("select[name=game]", game)
        text = page.evaluate("""() => { const d = document.querySelector('details');
          const values = [...d.querySelectorAll('option')].map((o) => o.textContent)
            .concat([...d.querySelectorAll('[title]')].map((l) => l.title));     // each option's help
          return [d.innerText, ...values].join('\\n'); }""")
        words = english_words(text, [])
        if words:
            found[f"options-{game}"] = sorted(set(words))
    r = page.request.post(lserver + "/api/events", data={
        "preset": "s3_xiangqi", "name": None,
        "players": ["zhorganizer", {"id": "b1", "bot": "random"}, {"id": "b2", "bot": "random"},
                    {"id": "b3", "bot": "random"}]})
    assert r.status in (200, 201), r.text()
    ev = r.json()["id"]
    if True:
        page.goto(f"{lserver}/events/{ev}")
        page.wait_for_load_state("networkidle")
        # the draw's help names the command that re-checks it (qipai verify), as typed
        check(page, "event", names + ["b1", "b2", "b3", "qipai verify"], shot, found)
    page.close()
    assert found == {}
    assert zh.errors == []


def test_refusals_and_errors_show_in_the_pages_language(lserver, zh):
    """The referee's refusal of a move and the server's errors reach the page as codes with
    parameters; the page shows them in Chinese."""
    page = zh.new_page()
    page.goto(lserver + "/login")
    page.fill("input[name=username]", "nobody_here")
    page.fill("input[name=password]", "wrong-password-1")
    page.click("button[type=submit]")
    page.wait_for_selector(".error:not(:empty)")
    assert page.inner_text(".error") == "用户名或密码错误"
    sign_up(page, lserver, "zhrefused")
    table = new_table(page, lserver, "xiangqi", sit=True)
    page.goto(f"{lserver}/tables/{table}")
    page.wait_for_selector("#status[data-seq]")
    # a second socket of the same player sends a move the referee refuses (a rook through a pawn)
    got = page.evaluate("""async (id) => {
      const { errorText } = await import('/static/i18n.js');
      return await new Promise((done) => {
        const ws = new WebSocket(`ws://${location.host}/ws/tables/${id}`);
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.type === 'state') ws.send(JSON.stringify({ type: 'move', seq: m.seq, action: 'a0a5' }));
          if (m.type === 'error') { ws.close(); done({ msg: m, text: errorText(m) }); }
        };
      });
    }""", table)
    assert got["msg"]["error"] == "illegal" and got["msg"]["refusal"].startswith("xiangqi.")
    assert got["msg"]["message"] and HAN.search(got["text"]) and not english_words(got["text"], [])
    # a 429 answer: the wait in Chinese
    text = page.evaluate("""async () => {
      const { errorText } = await import('/static/i18n.js');
      return errorText({ error: 'rate_limited', code: 'rate_limited', params: { retry_after: 2.2 },
                         message: 'too many requests; slow down' });
    }""")
    assert text == "操作太频繁，请稍等片刻（3 秒后再试）"
    page.close()
    assert zh.errors == []


@pytest.fixture(scope="module")
def en(browser):
    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    ctx.on("page", lambda page: page.on("pageerror", lambda e: errors.append(str(e))))
    ctx.errors = errors
    yield ctx
    ctx.close()


def chinese_outside_boards(page, names: list[str]) -> list[str]:
    """The Chinese text of the page, leaving out the game's own signs on its board (a piece
    such as 車, a tile, the river's 楚河漢界: a text of the board of at most two characters, or
    the SVG drawing) and names."""
    texts = page.evaluate("""() => {
      const out = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const p = n.parentElement, s = n.textContent.trim();
        if (!s || !p || !p.checkVisibility()) continue;
        if (p.closest('#board') && (s.length <= 2 || p.closest('svg'))) continue;
        if (p.closest('.brand, #lang')) continue;     // the site's name; the other language's own name
        out.push(s);
      }
      return out; }""")
    return [t for t in texts if HAN.search(_drop(t, names))]


def _drop(text: str, names: list[str]) -> str:
    for n in names:
        text = text.replace(n, " ")
    return text


@pytest.mark.parametrize("game", GAMES)
def test_a_table_of_every_game_speaks_english(lserver, en, game, shot):
    page = en.new_page()
    name = f"en{GAMES.index(game)}player"
    sign_up(page, lserver, name)
    cards = game not in ("xiangqi", "go", "gomoku", "chinese-checkers", "junqi")
    clock = "bot_default_cards" if cards else "bot_default_board"
    table = new_table(page, lserver, game, sit=True, clock=clock)
    page.goto(f"{lserver}/tables/{table}")
    page.wait_for_selector("#theme")     # drawn once the header speaks the page's language
    assert page.evaluate("document.documentElement.lang") == "en"
    wait_moves(page, 4)
    page.wait_for_timeout(2500)
    found: dict[str, list[str]] = {}
    widths(page, f"lang-en-{game}", shot, found)
    assert chinese_outside_boards(page, [name]) == []
    assert found == {}
    page.close()
    assert en.errors == []


def test_lobby_history_and_events_speak_english(lserver, en, shot):
    page = en.new_page()
    sign_up(page, lserver, "en99player")
    t = new_table(page, lserver, "doudizhu", sit=True, clock="bot_default_cards")
    page.goto(f"{lserver}/tables/{t}")
    page.wait_for_selector("#status[data-seq]")
    found = {}
    for path in ("/", "/history", "/events"):
        page.goto(lserver + path)
        page.wait_for_load_state("networkidle")
        han = chinese_outside_boards(page, ["en99player"])
        if han:
            found[path] = han
        widths(page, f"lang-en-{path.strip('/') or 'lobby'}", shot, found)
    page.close()
    assert found == {}
    assert en.errors == []
