"""tests/forkserver.py: the test servers forked from a zygote stand for ``subprocess.Popen``.
A child that ends keeps its pid (a zombie of the zygote) until ``poll`` reaps it, as a Popen's
does, and ``poll`` gives its own exit code: the zygote used to reap every child at once
(``SIGCHLD`` ignored), so a crashed server read as exit code 0, and its pid, free again (pids
wrap at 32,768 here), could be another process's by the time ``terminate`` signalled it."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from . import forkserver


def _state(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return None


@pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc/self/stat").exists(),
                    reason="fork and /proc")
def test_a_forked_child_keeps_its_pid_until_polled_and_gives_its_exit_code(tmp_path):
    log = str(tmp_path / "out.log")
    child = forkserver.spawn("import sys; print('hi'); sys.exit(3)", log)
    assert child is not None
    deadline = time.monotonic() + 30
    while _state(child.pid) not in ("Z", None) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _state(child.pid) == "Z"            # ended, not reaped: the pid is still the child's
    assert child.poll() == 3 and child.returncode == 3
    assert _state(child.pid) is None           # reaped by the poll
    child.terminate()                          # ended: nothing is sent to whoever has the pid now
    assert child.wait(1) == 3
    assert Path(log).read_text() == "hi\n"

    # a server that runs until terminated: None while it runs, then the signal's code
    live = forkserver.spawn("import time\nwhile True: time.sleep(0.05)", log)
    assert live.poll() is None
    live.terminate()
    assert live.wait(30) == -signal.SIGTERM
    assert _state(live.pid) is None


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_the_zygote_serves_every_test_not_only_the_one_that_started_it(tmp_path, monkeypatch):
    """pytest names the running test in ``PYTEST_CURRENT_TEST``, new at each phase of each test:
    a zygote started by one test must still fork the servers of the next ones."""
    first = forkserver.spawn("pass", str(tmp_path / "a.log"))
    assert first is not None and first.wait(30) == 0
    monkeypatch.setenv("PYTEST_CURRENT_TEST", "tests/test_other.py::test_next (setup)")
    second = forkserver.spawn("import os; print(os.environ['PYTEST_CURRENT_TEST'])",
                              str(tmp_path / "b.log"))
    assert second is not None and second.wait(30) == 0
    assert (tmp_path / "b.log").read_text() == "tests/test_other.py::test_next (setup)\n"
