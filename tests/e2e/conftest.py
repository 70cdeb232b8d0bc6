"""End-to-end fixtures: a real ``qipai`` server process and Debian's Chromium driven by Playwright.

Chromium comes from the distribution, never from ``playwright install``: Debian's headless build
(``apt-get install chromium-headless-shell``, done by ``.ci/run``: :data:`CHROMIUM`), else its
``chromium`` in headless mode. Without either the tests are skipped, except under CI where they
fail.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page

from .. import forkserver
from ..conftest import migrated_sqlite

# A page's wait_for_function polls every 100 ms, not at each animation frame (Playwright's
# default): with several pages open on a loaded machine, a page Chromium does not paint runs no
# animation frames, and a wait polled by them timed out while the page showed what it waited for
# (test_e2e_referee's added minute, 3 runs of 3; the siguo move on CI).
_wait_for_function = Page.wait_for_function


def _wait_for_function_polled(self, expression, *, arg=None, timeout=None, polling=None):
    return _wait_for_function(self, expression, arg=arg, timeout=timeout,
                              polling=100 if polling is None else polling)


Page.wait_for_function = _wait_for_function_polled

#: the browser: Debian's headless build of Chromium (the engine without the desktop browser
#: around it, as in Playwright's own headless runs) if installed, else Debian's ``chromium``. The
#: desktop browser run headless also runs its own interface (a renderer of its "top chrome" web
#: pages) and more in its browser process. A new context's first page, loaded (the lobby or the
#: sign-up form), took 0.22-0.26 s of CPU (the server's share too) and 0.45-0.66 s of wall with the
#: headless build against 0.59-0.78 s and 1.4-2.0 s with the desktop one (8 of each, twice, on a
#: loaded 2-core machine). Whole files, each run twice with each browser in turn (CPU of all
#: the file's processes: test, server, driver, browser): test_e2e_result_words 57-61 s with the
#: desktop browser, 39-44 s with the headless one; test_e2e_cardtable 75-77 s, 40-45 s. Chromium
#: is most of a browser file's CPU (against its server's, Playwright's driver's and the test's)
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM = HEADLESS_SHELL if HEADLESS_SHELL.exists() else Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: the test servers' settings unless a test gives its own: bots think 50 ms (150 ms before: the
#: 100 ms more was waited at every bot move of every table a test plays at the server's delay;
#: no test watches a bot think, and a test that waits for the position after a person's move at
#: a bot's table waits for it or a later one: test_e2e_play.wait_seq_reached); a table waits
#: 1.5 s (not 10 s) for its seated players' nonces before it deals (competition.md §6.1): a page
#: at the table sends its nonce at once, and an event game's player who is not at the table
#: (most event tests play one side) held the deal for the whole window; the lobby and event
#: pages ask for changes every 0.5 s (not 2 s: a test waiting for a page to follow a change
#: waited a second on average for each); games pause for storage only past a 15 s commit (the
#: product's 2 s: a loaded test machine's SQLite commit can take that long, and a pause no test
#: caused changes what its pages show; the storage tests cause theirs with a fault)
DEFAULTS = {"bot_delay_ms": "50", "nonce_window_ms": "1500", "page_poll_ms": "500",
            "storage_stall": "15.0"}


@contextlib.contextmanager
def running_server(data: Path, settings: str = ""):
    """Base URL of a ``qipai`` server process on its own SQLite file in ``data``; ``settings``
    is Python text of more ``Settings`` keyword arguments (``Limits`` is imported), which win
    over the defaults of :data:`DEFAULTS`. A new file starts as a copy of the tests' migrated
    one (tests/conftest.py ``migrated_sqlite``), which the server finds at the newest revision."""
    port = _free_port()
    if not (data / "qipai.db").exists():
        shutil.copyfile(migrated_sqlite(), data / "qipai.db")
    given = {part.split("=", 1)[0].strip() for part in settings.split(",") if "=" in part}
    extra = "".join(f"{k}={v}, " for k, v in DEFAULTS.items() if k not in given)
    code = ("from qipai.server import Limits, Settings, serve; "
            f"serve('127.0.0.1', {port}, Settings(database_url='sqlite:///{data}/qipai.db', "
            f"{extra}{settings}), log_level='warning')")
    # its output goes to a file (server.log in ``data``): a pipe nobody reads fills at 64 KB of
    # warnings and then blocks the server mid-game; the file is there to read after a failure
    # forked from the test process's zygote, which has imported the server (tests/forkserver.py:
    # ~0.75 s of a start's ~1 s of CPU), else started as ``python -c``
    out = open(data / "server.log", "ab")
    proc = forkserver.spawn(code, str(data / "server.log"))
    if proc is None:
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None:
                raise RuntimeError((data / "server.log").read_text(errors="replace"))
            time.sleep(0.1)
        else:
            raise RuntimeError("the server did not start")
        yield base
    finally:
        proc.terminate()
        proc.wait(10)
        out.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Base URL of a fresh server (its own SQLite file; bots think 50 ms; 4A4's 叉/勾 windows
    stay open 300 ms; sign-ups not limited to 30 then 3 a minute per address, as a module's
    tests all sign up from 127.0.0.1; test_server_api checks the limit)."""
    settings = "private_window_ms=300, limits=Limits(signup_ip=(100.0, 100))"
    with running_server(tmp_path_factory.mktemp("qipai-e2e"), settings) as base:
        yield base


@pytest.fixture(scope="module")
def lserver(tmp_path_factory):
    """The language files' server (tests/e2e/language.py): as ``server``, with the organizer
    ``zhorganizer``, room for many open tables and no limit on bot games and API calls; a
    spectator of a card or tile game sees it 1 s late (10 s by default: each table watched
    waited for it); bots think 50 ms (the tables wait for some moves, not for the thinking);
    its pages ask for changes every 1.5 s, since its tests wait for a page's network to go
    quiet (Playwright's ``networkidle``: no request for 500 ms), which polls every 0.5 s would
    never leave."""
    settings = ("private_window_ms=300, max_open_tables=100, organizers=('zhorganizer',), "
                "spectator_delay_ms=1000, bot_delay_ms=50, page_poll_ms=1500, "
                "limits=Limits(signup_ip=(100.0, 100), "
                "bot_games_account=(100.0, 100), api_ip=(1000.0, 1000))")
    with running_server(tmp_path_factory.mktemp("qipai-lang"), settings) as base:
        yield base


def _launch(playwright):
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)


#: ``[playwright, browser]`` while the browser files of this process run one after the other
_HELD: list = []


def stop_chromium() -> None:
    """Stop the process's Playwright and Chromium, if running (tests/conftest.py calls it before
    any test outside tests/e2e, and at the end of the session)."""
    if not _HELD:
        return
    playwright, b = _HELD
    _HELD.clear()
    if b.is_connected():
        b.close()
    playwright.stop()


@pytest.fixture(scope="module")
def _chromium():
    """Playwright and one Chromium (``[playwright, browser]``) for the browser files that a
    process runs one after another (they come first: tests/conftest.py): started by the first,
    kept for the next (a start is ~1 s of CPU, 2.5-3.5 s of wall at load 16, once per file
    before). Stopped before any test outside tests/e2e (:func:`stop_chromium`): Playwright's sync
    API keeps an asyncio loop running in the process while it lives, so a later test of the same
    worker that calls ``asyncio.run`` (the event presets, the chat and cluster tests) would fail
    with "cannot be called from a running event loop"."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"CI: {CHROMIUM} is missing (.ci/run installs it)")
        pytest.skip("Debian's chromium-headless-shell or chromium is not installed")
    if not _HELD:
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        _HELD[:] = [playwright, _launch(playwright)]
    yield _HELD


@pytest.fixture(scope="module")
def browser(_chromium):
    """The file's Chromium (started again if it went away): the contexts
    the file opened and left open (with their pages, which would go on polling) are closed at
    its end, so a file starts with none, as with a browser of its own."""
    playwright, b = _chromium
    if not b.is_connected():
        b = _chromium[1] = _launch(playwright)
    for ctx in b.contexts:                     # left by a file whose end did not come (an error)
        ctx.close()
    yield b
    for ctx in b.contexts:
        ctx.close()


def _language_context(browser, locale: str):
    """A browser context in ``locale`` whose pages' script errors collect in ``.errors``."""
    ctx = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    ctx.on("page", lambda page: page.on("pageerror", lambda e: errors.append(str(e))))
    ctx.errors = errors
    return ctx


@pytest.fixture(scope="module")
def zh(browser):
    """A Chinese browser (zh-CN) of a language file; ``zh.errors``: its pages' script errors."""
    ctx = _language_context(browser, "zh-CN")
    yield ctx
    ctx.close()


@pytest.fixture(scope="module")
def en(browser):
    """An English browser (en-US) of a language file; ``en.errors``: its pages' script errors."""
    ctx = _language_context(browser, "en-US")
    yield ctx
    ctx.close()


def rendered(page) -> None:
    """Wait until the page has drawn a frame since the call (two animation frames: what the
    page's scripts changed so far is laid out and painted)."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def set_width(page, width: int, height: int) -> None:
    """Resize the page and wait until it is laid out at that size (its resize handlers have run
    and a frame is drawn)."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function("([w, h]) => innerWidth === w && innerHeight === h", arg=[width, height])
    rendered(page)


@pytest.fixture
def shot():
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page, name: str) -> None:
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    return take
