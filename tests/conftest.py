"""Fixtures shared by the test files (the databases storage tests run on: :mod:`tests.pg`) and
how the suite is run.

- Passwords are hashed with argon2's cheapest parameters (``QIPAI_PASSWORD_HASH=cheapest``,
  inherited by the servers the tests start): the suite signs up thousands of accounts, and the
  real parameters cost 0.1 s of CPU per hash and per check. ``test_server_accounts.py`` checks
  that a server without the variable uses the real ones.
- A new SQLite database of a test (``open_db`` on a file not there yet, as every ``create_app``
  of a test does) is a copy of one migrated here once per test process (``_migrate``), not the
  fifteen Alembic revisions run again (0.06 s of CPU each time, several tenths of a second of
  wall on a loaded machine). The copy is what Alembic made; a file that is there (a test that
  built an older revision) is migrated by Alembic. The browser tests' servers (tests/e2e) start
  on a copy of that file too (``migrated_sqlite``) and find it at the newest revision; the other
  servers the tests start as processes migrate their new databases themselves.
- ``-n auto`` (pyproject.toml) starts one worker more than the cores, and at most one worker per
  core holds a browser file (:mod:`tests.lanes`): the browser files keep a core busy each
  (tests/e2e/test_e2e_card_games.py took 67 s of CPU in 67-79 s of wall, counting its server,
  Playwright's driver and Chromium's processes), while most of the other files wait on servers,
  clocks, leases and engines. On a quiet 2-core machine, 7 December: two workers 1,252 s, three
  885 s (the suite of the same day). (Three workers scheduled freely once ran three
  browsers at once and browser tests timed out; two workers per core failed the tests that
  bound a server's latency, tests/test_server_lag.py and test_server_storage.py.)
- The main process caches pytest's rewritten test files before the workers start
  (:mod:`tests.rewritten`): where bytecode is not written (``PYTHONDONTWRITEBYTECODE``, as in CI)
  each worker rewrote every test file's asserts itself to collect, ~14 s of CPU each.
- Files that wait most run first (pyproject.toml keeps xdist from reordering files by their
  number of tests): the browser tests, then the ones that start servers and engines, then the
  rest, so that the last files to start are short and the workers finish together.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

os.environ["QIPAI_PASSWORD_HASH"] = "cheapest"
# event games start at once (no §5.6 ready wait, no §4.3 pause between games) in every server a
# test starts, unless the test asks for them (qipai/server/eventstart.py)
os.environ.setdefault("QIPAI_READY_GRACE_SECONDS", "0")
os.environ.setdefault("QIPAI_BETWEEN_GAMES_SECONDS", "0")
# the servers the tests start build a game's tables at its first table, not all at start
# (Settings.warm_games: doudizhu's table of plays is 0.5-0.8 s of CPU, and most test servers play
# no doudizhu); tests/test_server_lag.py checks the warm start
os.environ.setdefault("QIPAI_WARM_GAMES", "0")
# nor start the events' worker process with the server (Settings.event_worker_at_start, on for
# `qipai serve`): most test servers make no event; a test that makes one asks for it
os.environ.setdefault("QIPAI_EVENT_WORKER_AT_START", "0")
# a shengji deal at a table with a person is paced card by card (Settings.deal_window_ms, 0.28 s
# a prompt, 28 s a deal): the servers the tests start hold each prompt 20 ms (a 2 s deal) unless
# a test asks for its own pace (tests/e2e/test_e2e_shengji_deal_pace.py)
os.environ.setdefault("QIPAI_DEAL_WINDOW_SECONDS", "0.02")
# games pause for storage only past a 15 s commit (the product's 2 s) in every server a test
# starts as a process (`qipai serve`, a cluster's workers; the in-process and browser servers
# set Settings.storage_stall so): a loaded machine's SQLite commit can take 2 s, and a pause no
# test caused changes what its sockets are sent; the storage tests cause theirs with a fault
os.environ.setdefault("QIPAI_STORAGE_STALL_SECONDS", "15")

from qipai.competition import db as _db  # noqa: E402

from . import lanes, rewritten  # noqa: E402
from .pg import db_url, pg_database, pg_template  # noqa: E402, F401

_alembic_migrate = _db.migrate
_migrated_sqlite: list[Path] = []


def migrated_sqlite() -> Path:
    """A SQLite file Alembic migrated to the newest revision, made once per test process
    (copy it; do not write to it)."""
    if not _migrated_sqlite:
        from sqlalchemy import create_engine

        folder = tempfile.mkdtemp(prefix="qipai-migrated-")
        atexit.register(shutil.rmtree, folder, True)
        template = Path(folder) / "migrated.db"
        first = create_engine(f"sqlite:///{template}")
        try:
            _alembic_migrate(first)
        finally:
            first.dispose()
        _migrated_sqlite.append(template)
    return _migrated_sqlite[0]


def _migrate(engine) -> None:
    """:func:`qipai.competition.db.migrate` for the tests: a new SQLite file is a copy of the
    file Alembic migrated first in this process (see the module's docstring)."""
    database = engine.url.database if engine.dialect.name == "sqlite" else None
    if not database or database == ":memory:" or database.startswith("file:"):
        return _alembic_migrate(engine)
    path = Path(database)
    if not path.parent.is_dir() or (path.exists() and path.stat().st_size):
        return _alembic_migrate(engine)
    shutil.copyfile(migrated_sqlite(), path)


_db.migrate = _migrate

#: the longest files, longest first (each one's tests stay on one worker, so the run lasts at least
#: as long as its longest file: files that grew long are split, as the pages, languages, move
#: lists, live events and presets were)
LONGEST = ("e2e_movelist", "e2e_language_zh_tables", "e2e_pages_event_people", "e2e_pages_event_standings",
           "e2e_movelist_more", "e2e_language_en", "e2e_pages_event_bracket", "competition_presets",
           "e2e_event_live_trusteeship", "e2e_cardtable", "e2e_language_zh_boards", "e2e_event_live",
           "competition_presets_cli", "e2e_language_zh_pages")
#: file-name parts of the files that start servers, engines or many whole games (run early; a
#: long file left among the short ones at the end kept one worker busy long after the other
#: was done: the refusal words' typed playouts, the level bots' matches, the catalogues' playouts;
#: the samplers' sweeps over every seat's view of whole deals, one test of 60 s in baohuang's)
SLOW = ("server", "cluster", "engines", "bot_connect", "differential", "properties", "breaker",
        "store_writer", "search_bots", "env_", "fairness", "_events", "competition_event",
        "refusal_words", "level_bots", "i18n", "mahjong_game", "xiangqi_pgn", "sampler",
        "determinize")


def _rank(nodeid: str) -> int:
    path = nodeid.split("::", 1)[0]
    name = path.rsplit("/", 1)[-1].removesuffix(".py").removeprefix("test_")
    if name in LONGEST:
        return LONGEST.index(name)
    if "/e2e/" in path:
        return len(LONGEST)
    return len(LONGEST) + (1 if any(part in name for part in SLOW) else 2)


def pytest_collection_modifyitems(config, items):
    """The ``LONGEST`` files first, in its order, then the other browser files, then the files of
    ``SLOW``, then the rest (a stable sort: a file's tests stay together and in order)."""
    items.sort(key=lambda item: _rank(item.nodeid))


def _stop_chromium() -> None:
    e2e = sys.modules.get("tests.e2e.conftest")
    if e2e is not None:
        e2e.stop_chromium()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before a test outside tests/e2e: the Chromium the browser files before it shared is
    stopped (tests/e2e/conftest.py ``_chromium``: its asyncio loop would break ``asyncio.run``)."""
    if "/e2e/" not in item.nodeid:
        _stop_chromium()


def pytest_sessionfinish(session):
    _stop_chromium()


_FILE_TIMES = lanes.FileTimes()


def pytest_runtest_logreport(report):
    """Each test phase's time, summed by file (:class:`tests.lanes.FileTimes`)."""
    node = getattr(report, "node", None)          # the xdist worker that sent the report
    _FILE_TIMES.add(report.nodeid, report.duration, node.gateway.id if node is not None else "main")


def pytest_terminal_summary(terminalreporter):
    """The summary at the run's end gives the 30 longest files and each worker's total, just
    before ``--durations``' slowest tests."""
    if _FILE_TIMES.files:
        terminalreporter.write_sep("=", "the 30 longest files (their tests' setup + call + teardown)")
        for line in _FILE_TIMES.lines(30):
            terminalreporter.write_line(line)


def pytest_configure(config):
    """In the main process of a run with workers: the rewritten test files cached once, one
    process per core, before the workers collect (:mod:`tests.rewritten`)."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        rewritten.write(config, lanes.cores())


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker more than the cores this process may use, at most one per core
    running a browser file (:mod:`tests.lanes`); ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return lanes.cores() + 1


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` (pyproject.toml) as :class:`tests.lanes.LaneScheduling`."""
    if config.getvalue("dist") == "loadfile":
        return lanes.LaneScheduling(config, log)
    return None
