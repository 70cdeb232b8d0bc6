"""End-to-end fixtures: a real ``qipai`` server process and Debian's Chromium driven by Playwright.

Chromium comes from the distribution (``apt-get install chromium``, done by ``.ci/run``), never
from ``playwright install``. Without /usr/bin/chromium the tests are skipped, except under CI
where they fail.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_server(data: Path, settings: str = ""):
    """Base URL of a ``qipai`` server process on its own SQLite file in ``data``; ``settings``
    is Python text of more ``Settings`` keyword arguments (``Limits`` is imported)."""
    port = _free_port()
    code = ("from qipai.server import Limits, Settings, serve; "
            f"serve('127.0.0.1', {port}, Settings(database_url='sqlite:///{data}/qipai.db', "
            f"bot_delay_ms=150, {settings}), log_level='warning')")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None:
                raise RuntimeError(proc.stdout.read().decode())
            time.sleep(0.1)
        else:
            raise RuntimeError("the server did not start")
        yield base
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Base URL of a fresh server (its own SQLite file; bots think 150 ms; 4A4's 叉/勾 windows
    stay open 300 ms; sign-ups not limited to 5 then one per 20 s per address, as a module's
    tests all sign up from 127.0.0.1; test_server_api checks the limit)."""
    settings = "private_window_ms=300, limits=Limits(signup_ip=(100.0, 100))"
    with running_server(tmp_path_factory.mktemp("qipai-e2e"), settings) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("CI: /usr/bin/chromium is missing (.ci/run installs it)")
        pytest.skip("Debian's chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def shot():
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page, name: str) -> None:
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    return take
