"""What the language files (``test_e2e_language_*.py``) share: one language at a time, every page
speaks it.

A real server and Debian's Chromium with the locale zh-CN or en-US (so ``navigator.language``
is that and nobody has picked a language). The rendered text of each page (``innerText``) of the
Chinese browser may hold no English word: what is left after taking out the players' names may
only be notation (ICCS and coordinates, card and tile codes, short capitals such as ``JSON``) and
digits. The same pages in an English browser hold no Chinese outside names and the game's own
name. Every page is photographed at 1280 and 390 px (a phone) and is no wider than a phone's
screen. The files' server (``lserver``) and browser contexts (``zh``, ``en``) are fixtures of
tests/e2e/conftest.py.
"""

from __future__ import annotations

import re

import qipai

from .conftest import rendered, set_width

SECRET = "e2e-password-1"
#: the games a player meets (not the ``test-`` games other test files register in the process)
GAMES = [info.id for info in qipai.games() if not info.id.startswith("test-")]
#: the board games: a seat whose move cap runs out loses (the other games: trusteeship)
BOARD = ("xiangqi", "go", "gomoku", "chinese-checkers", "junqi")
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


def sign_up(page, base: str, name: str) -> None:
    r = page.request.post(base + "/api/signup", data={"username": name, "password": SECRET})
    assert r.status in (200, 201), r.text()


def new_table(page, base: str, game: str, *, sit: bool, clock: str | dict | None = None) -> str:
    n = next(info.seats[0] for info in qipai.games() if info.id == game)
    body = {"game": game, "sit": sit, "bots": n - 1 if sit else n, "bot": None,
            "options": {"board_size": 9} if game == "go" else {}}
    if clock:
        body["settings"] = {"clock": clock}
    r = page.request.post(base + "/api/tables", data=body)
    assert r.status == 201, r.text()
    return r.json()["id"]


#: a fast clock of a person's own choosing (the ``bot_…`` presets refuse a person's seat): 1 s
#: a move in a board game, one overrun loses; 1 s a play in a card or tile game, where the
#: computer plays an overrun and two in a row put the seat in trusteeship (the tests wait for
#: the overruns, 3 s and 2 + 2 s before; the bots think 50 ms, and a bot's overrun on a slow
#: machine ends a board game or is played by the computer: the page then shows it all the same)
FAST_BOARD = {"move_cap": "1s", "on_cap": "lose"}
FAST_CARDS = {"move_cap": "1s", "on_cap": "auto"}
#: a board clock for a test whose person makes the first move by clicks once the page is drawn:
#: 3 s a move (the first move has the move's cap too, this clock having no main time; missed,
#: the game is aborted, without a record)
CLICKED_BOARD = {"move_cap": "3s", "on_cap": "lose"}


def seated_table(page, base: str, game: str) -> str:
    """A table of ``game`` where the page's account sits with bots, on a fast clock
    (:data:`FAST_BOARD`, :data:`FAST_CARDS`): the seat's own clock soon runs out."""
    clock = FAST_BOARD if game in BOARD else FAST_CARDS
    return new_table(page, base, game, sit=True, clock=clock)


def page_text(page) -> str:
    """The page's text, with what a closed <details> holds (a legend one click away; its code
    and commands aside) and every tooltip (an event preset's help, a token scope's) but the
    language switch's (it names both languages)."""
    return page.evaluate("""() => {
        const hidden = [];
        for (const d of document.querySelectorAll('details:not([open])')) {
            const walk = document.createTreeWalker(d, NodeFilter.SHOW_TEXT);
            for (let n; (n = walk.nextNode());) {
                if (!n.parentElement.closest('code, pre')) hidden.push(n.textContent);
            }
        }
        const tips = [...document.querySelectorAll('body [title]:not(#lang)')].map((o) => o.title);
        return [document.body.innerText, ...hidden, ...tips].join('\\n'); }""")


def wait_moves(page, n: int, timeout_ms: int = 30_000) -> None:
    """Wait until the table has seen ``n`` moves or is over (whichever comes first)."""
    page.wait_for_selector("#status[data-seq]", timeout=timeout_ms)
    page.wait_for_function(
        f"""() => {{ const s = document.querySelector('#status');
                    return +s.dataset.seq >= {n} || s.classList.contains('over')
                        || document.querySelector('#record-link') }}""", timeout=timeout_ms)


def wait_own_clock_out(page, timeout_ms: int = 30_000) -> None:
    """Wait until the seat's own clock has run out (the seat never moves): the page shows the
    result (a board game: the overrun loses) or the seat in trusteeship (a card or tile game:
    the button that takes the seat back), or the game ended first."""
    page.wait_for_selector("#status.over, #record-link, #takeback", timeout=timeout_ms)


def widths(page, name: str, shot, found: dict[str, list[str]] | None = None) -> None:
    """Screenshots of the page at 1280 and 390 px (a phone); at 390 px nothing is wider than
    the screen (``found[name + "-390"]`` says how wide it is otherwise)."""
    for width, height in ((1280, 900), (390, 844)):
        set_width(page, width, height)
        shot(page, f"{name}-{width}")
        wide = page.evaluate("document.documentElement.scrollWidth")
        if width == 390 and wide > 390 and found is not None:
            found[f"{name}-390"] = [f"{wide} px wide"]
    set_width(page, 1280, 900)


#: a bracket of Chinese text written wrong: a space inside （ ） or ( ), an ASCII bracket
#: touching a Han character (notation after a space stays: "暗杠写作 (5555p)")
BAD_BRACKET = re.compile(r"[（(][ \t]|[ \t][）)]|[\u3400-\u9fff][()]|[()][\u3400-\u9fff]")


def bad_brackets(text: str) -> list[str]:
    """The stretches of ``text`` around each bracket written wrong (see :data:`BAD_BRACKET`)."""
    return [text[max(0, m.start() - 6):m.end() + 6] for m in BAD_BRACKET.finditer(text)]


#: half-width punctuation after Chinese text ("下载:", "马2进1. 轮到你了"): ：。，； are full width
HALF_WIDTH = re.compile(r"[\u3400-\u9fff）][:.,;]")


def check(page, where: str, names: list[str], shot, found: dict[str, list[str]]) -> None:
    """The page's English words (``found[where]``), brackets written wrong
    (``found[where + "-brackets"]``), half-width punctuation after Chinese text
    (``found[where + "-punctuation"]``), and its screenshots at both widths."""
    rendered(page)                           # the last state is drawn
    text = page_text(page)
    words = english_words(text, names)
    if words:
        found[where] = sorted(set(words))
    if brackets := bad_brackets(text):
        found[f"{where}-brackets"] = brackets
    if stops := [text[max(0, m.start() - 8):m.end() + 6] for m in HALF_WIDTH.finditer(text)]:
        found[f"{where}-punctuation"] = stops
    widths(page, f"lang-zh-{where}", shot, found)


def chinese_outside_boards(page, names: list[str]) -> list[str]:
    """The Chinese text of the page and of its tooltips, leaving out the game's own signs on its
    board (a piece such as 車, a tile, the river's 楚河漢界: a text of the board of at most two
    characters, or the SVG drawing; a board's tooltip may name its piece so: "司令 Marshal") and
    names."""
    texts = page.evaluate("""() => {
      const out = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const p = n.parentElement, s = n.textContent.trim();
        if (!s || !p || !p.checkVisibility()) continue;
        if (p.closest('#board') && (s.length <= 2 || p.closest('svg'))) continue;
        if (p.closest('.brand, #lang')) continue;     // the site's name; the other language's own name
        out.push(s);
      }
      const sign = /(^|[^\\u3400-\\u9fff])[\\u3400-\\u9fff]{1,2}(?![\\u3400-\\u9fff])/g;
      for (const e of document.querySelectorAll('body [title]')) {
        if (e.closest('.brand, #lang')) continue;
        out.push(e.closest('#board') ? e.title.replace(sign, '$1') : e.title);
      }
      return out; }""")
    return [t for t in texts if HAN.search(_drop(t, names))]


def _drop(text: str, names: list[str]) -> str:
    for n in names:
        text = text.replace(n, " ")
    return text


def table_speaks_chinese(lserver, zh, game: str, shot) -> None:
    """A table of ``game`` the player sits at with bots (some moves in, then the seat's own
    clock runs out: a result or 托管) and a table of bots alone watched as a spectator: no
    English word on either, both photographed at both widths, no script error."""
    page = zh.new_page()
    name = f"zh{GAMES.index(game)}player"
    sign_up(page, lserver, name)
    found: dict[str, list[str]] = {}
    seated = seated_table(page, lserver, game)
    watched = new_table(page, lserver, game, sit=False)
    page.goto(f"{lserver}/tables/{seated}")
    wait_moves(page, 4)
    wait_own_clock_out(page)                 # a result or 托管
    check(page, f"{game}-seated", [name], shot, found)
    page.goto(f"{lserver}/tables/{watched}")
    wait_moves(page, 8)
    check(page, f"{game}-watched", [name], shot, found)
    page.close()
    assert found == {}
    assert zh.errors == []
