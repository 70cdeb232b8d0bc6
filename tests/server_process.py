"""Helpers for tests of `qipai serve` as a real process: a free port, start, wait until it answers.

Each ``qipai serve`` of these tests (:func:`serve_process`: :func:`start`, tests/server_helpers.py
``LiveServer``, tests/cluster_helpers.py ``Worker``) is a process of its own forked from the test
process's zygote (tests/forkserver.py), which has imported the server, every game and its bots:
it runs what the ``qipai`` script runs, ``qipai.cli``'s command line with the same arguments, in
the environment it is given. A fresh ``qipai serve`` spends ~2-3 s of CPU importing them first
(the suite starts some hundred). Where the zygote cannot be used (another value of a variable a
module reads at import) it is the ``qipai`` script as before. Either way its output goes to files
(:class:`Served`): a pipe nobody reads fills and blocks a server mid-game.
"""

from __future__ import annotations

import atexit
import itertools
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from . import forkserver
from .e2e.timing import until as within

QIPAI = str(Path(sys.executable).parent / "qipai")

_folder: list[Path] = []
_count = itertools.count()


def output_files(tag: str = "serve") -> tuple[Path, Path]:
    """Two new files for a process's standard output and error, in a folder of this test process
    (removed at its exit; not the server's data directory, which some tests make unwritable)."""
    if not _folder:
        _folder.append(Path(tempfile.mkdtemp(prefix="qipai-serve-out-")))
        atexit.register(shutil.rmtree, _folder[0], True)
    n = next(_count)
    return _folder[0] / f"{tag}-{n}.out", _folder[0] / f"{tag}-{n}.err"


class Served:
    """A server process (forked or started) whose output goes to files: ``subprocess.Popen``'s
    ``pid``, ``returncode``, ``poll``, ``wait``, ``send_signal``, ``terminate``, ``kill``, and
    ``communicate``, which waits for the end and gives what it wrote (standard output, standard
    error; ``""`` for one sent to the other's file)."""

    def __init__(self, proc, out: Path, err: Path | None) -> None:
        self.proc, self.out, self.err = proc, out, err
        self.pid = proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def poll(self) -> int | None:
        return self.proc.poll()

    def wait(self, timeout: float | None = None) -> int:
        return self.proc.wait(timeout)

    def send_signal(self, sig: int) -> None:
        self.proc.send_signal(sig)

    def terminate(self) -> None:
        self.proc.terminate()

    def kill(self) -> None:
        self.proc.kill()

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        self.wait(timeout)
        return (self.out.read_text(errors="replace"),
                self.err.read_text(errors="replace") if self.err is not None else "")


def _process(code: str, argv: list[str], out: Path, err: Path | None, env: dict[str, str] | None,
             cwd: Path | None = None) -> Served:
    """``code`` run in a process forked from the zygote, else ``argv`` started (see
    :func:`python_process`)."""
    env = dict(os.environ) if env is None else env
    out.touch()
    if err is not None:
        err.touch()
    proc = forkserver.spawn(code, str(out), None if err is None else str(err), env,
                            None if cwd is None else str(cwd))
    if proc is None:
        with open(out, "ab") as o, open(err or os.devnull, "ab") as e:
            proc = subprocess.Popen(argv, stdout=o, stderr=subprocess.STDOUT if err is None else e, env=env,
                                    cwd=cwd)
    return Served(proc, out, err)


def python_process(code: str, out: Path, err: Path | None = None,
                   env: dict[str, str] | None = None) -> Served:
    """``python -c code`` as a process forked from the zygote (else started), its standard output
    to the file ``out``, its standard error to ``err`` (or ``out``), in the environment ``env``
    (this process's if not given)."""
    return _process(code, [sys.executable, "-c", code], out, err, env)


def qipai_process(args: list[str], out: Path, err: Path | None = None,
                  env: dict[str, str] | None = None) -> Served:
    """``qipai *args``: forked from the zygote running the ``qipai`` script's code, else that
    script; its output as :func:`python_process`'s."""
    argv = [QIPAI, *args]
    return _process(f"import sys\nsys.argv = {argv!r}\nfrom qipai.cli import app\nsys.exit(app())",
                    argv, out, err, env)


def serve_process(args: list[str], out: Path, err: Path | None = None,
                  env: dict[str, str] | None = None) -> Served:
    """``qipai serve *args`` (see the module's docstring): :func:`qipai_process`."""
    return qipai_process(["serve", *args], out, err, env)


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
            timeout: float | None = 300) -> subprocess.CompletedProcess:
    """``python -m qipai.cli *args`` to its end, as ``subprocess.run`` with ``capture_output=True,
    text=True`` gives it: a process forked from the zygote running the module as ``-m`` does
    (~1 s of CPU less than a new interpreter importing the command line), else started; in the
    folder ``cwd`` and the environment ``env`` (this process's if not given)."""
    argv = [sys.executable, "-m", "qipai.cli", *args]
    # the zygote's qipai.cli is not __main__'s, as with -m (where a later import makes another)
    code = (f"import runpy, sys\nsys.argv = {['-m', *args]!r}\nsys.modules.pop('qipai.cli', None)\n"
            "runpy.run_module('qipai.cli', run_name='__main__', alter_sys=True)")
    proc = _process(code, argv, *output_files("cli"), env, cwd)
    try:
        code = proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise
    out, err = proc.communicate()
    return subprocess.CompletedProcess(argv, code, out, err)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(data: Path, port: int, *args: str, **env: str) -> Served:
    """``qipai serve`` on ``port`` with its SQLite file in ``data`` (more command-line ``args``,
    extra environment ``env``): :func:`serve_process`."""
    return serve_process(["--port", str(port), "--data-dir", str(data), *args], *output_files(),
                         env={**os.environ, **env})


def wait_up(port: int) -> None:
    for _ in within(60):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise AssertionError("the server did not start")


async def answer_commitment(sock, msg: dict, nonce: str = "00") -> None:
    """A table's deal waits for each seat's nonce: answer a ``commitment`` message with one."""
    if msg["type"] == "commitment":
        await sock.send(json.dumps({"type": "nonce", "nonce": nonce}))


async def signup(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    """Sign ``name`` up on a real server; returns the session cookie as a header."""
    r = await http.post("/api/signup", json={"username": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    token = r.cookies["qipai_session"]
    http.cookies.clear()
    return {"Cookie": f"qipai_session={token}"}
