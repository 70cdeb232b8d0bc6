"""Server processes for the tests, forked from one process that has imported the server already.

A ``python -c "... serve(...)"`` start costs ~1 s of CPU, three quarters of it importing the
server (FastAPI, SQLAlchemy, uvicorn, qipai's server modules), and the browser files start some
120 servers a run (tests/e2e/conftest.py ``running_server``). A test process starts one
*zygote* here (``python -c`` too) that imports what every start imports and then, for each
server asked for, forks a child that runs the same code a new ``python -c`` would run (in a
``__main__`` namespace of its own, in the caller's working directory, its output to the file
given, ``sys.argv`` ``['-c']`` as there); at its end the child runs what the interpreter's exit
runs (the non-daemon threads are joined, the ``atexit`` functions run) and leaves. Each server
is still a process of its own on its own database: only the imports are shared. A start then
costs ~0.2 s of CPU instead of ~0.9 s.

The non-browser tests' ``qipai serve`` processes (tests/server_process.py ``serve_process``: the
server processes, cluster workers and ``LiveServer`` of tests/server_helpers.py) are forked here
too, running what the ``qipai`` script runs. A child runs in the environment it is given (its
``os.environ``, which the processes it starts inherit); the zygote is used only where that
environment differs from the one the zygote started with in variables of :data:`CALL_TIME` alone
(a module may read any other variable at import: ``QIPAI_PASSWORD_HASH``, ``QIPAI_PURE``,
``QIPAI_PROFILE``, the locale); otherwise, or without ``os.fork``, the caller starts a new
process as before (:func:`spawn` returns ``None``). The forked children are
the zygote's, not the test process's: :class:`Forked` stands for ``subprocess.Popen`` where the
tests need it (``poll``, ``terminate``, ``wait``, ``kill``, ``pid``, ``returncode``). The zygote
reaps a child only when :meth:`Forked.poll` asks it to (``waitpid``), as a ``Popen`` is reaped
by its ``poll``: until then a child that ended stays a zombie holding its pid, so a signal is
never sent to another process that got the pid (the machine's pids wrap at 32,768), and the
child's exit status is its own (a crashed server is not read as a clean exit).
"""

from __future__ import annotations

import atexit
import os
import signal
import subprocess
import sys
import threading
import time

#: what the zygote imports before it forks: a server start's imports, those of its first
#: requests (``/api/games`` loads every game and its bots), and of the event routes
PRELOAD = ("qipai.server", "qipai.server.app", "qipai.server.protocols", "qipai.server.profiling",
           "qipai.competition.db", "qipai.console", "qipai.i18n", "sqlalchemy.dialects.sqlite",
           "uvicorn", "uvicorn.lifespan.on", "uvicorn.loops.auto",
           "qipai.server.events", "qipai.server.eventwork", "qipai.server.eventreads",
           "qipai.server.eventfiles", "qipai.server.referee", "qipai.server.refroutes",
           "qipai.server.refconsole", "qipai.server.tableacts", "qipai.server.resultacts",
           "qipai.server.roundacts", "qipai.server.sanctions", "qipai.server.walkover",
           "qipai.server.appointments", "qipai.cli")

#: the variables a server reads when it starts or later (``Settings``' fields, the storage, bot
#: pool and test hooks), never at import: a child may be given other values of these than the
#: zygote had
CALL_TIME = frozenset((
    "QIPAI_SIGNUPS_PER_ADDRESS", "QIPAI_STORAGE_STALL_SECONDS", "QIPAI_DEAL_WINDOW_SECONDS",
    "QIPAI_EVENT_WORKER_AT_START", "QIPAI_WARM_GAMES", "QIPAI_READY_GRACE_SECONDS",
    "QIPAI_BETWEEN_GAMES_SECONDS", "QIPAI_ALLOWED_ORIGINS", "QIPAI_REDIS_URL", "QIPAI_CLUSTER_NAME",
    "QIPAI_LEASE_SECONDS", "QIPAI_STALL_SECONDS", "QIPAI_TEST_BLOCK_FILE", "QIPAI_STORAGE_FAULTS",
    "QIPAI_BOT_WORKERS", "QIPAI_COMMIT_LANES", "QIPAI_LOOP_COMMIT", "QIPAI_GC_THRESHOLDS",
    "QIPAI_DATA_DIR", "QIPAI_DATABASE_URL",
    "PYTEST_CURRENT_TEST"))   # pytest's own, new at each test phase; qipai never reads it

ZYGOTE = r"""
import importlib, json, os, signal, sys, threading
from importlib.util import find_spec
for name in sys.argv[1:]:
    importlib.import_module(name)
from qipai.core import registry
for module in list(registry._MODULES.values()):   # every game and its bots
    importlib.import_module(module)
    bots = "qipai.bots." + module.rsplit(".", 1)[1]
    if find_spec(bots) is not None:
        importlib.import_module(bots)
del sys.argv[1:]                                  # a child's sys.argv is python -c's: ['-c']
if threading.active_count() != 1:                 # a fork copies only the forking thread
    print("threads", flush=True)
    sys.exit(1)
print("ready", flush=True)
ended = {}                                        # pid -> exit code of a child reaped
for line in sys.stdin:
    request = json.loads(line)
    if "wait" in request:                         # reaped only when asked: its pid stays its own
        pid = request["wait"]
        if pid not in ended:
            try:
                got, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                got, status = pid, 0
            if got:
                ended[pid] = os.waitstatus_to_exitcode(status) if status else 0
        print(json.dumps(ended.get(pid)), flush=True)
        continue
    pid = os.fork()
    if pid:
        print(pid, flush=True)
        continue
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    null = os.open(os.devnull, os.O_RDONLY)
    out = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    err = os.open(request["err"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644) if request["err"] else out
    os.dup2(null, 0)
    os.dup2(out, 1)
    os.dup2(err, 2)
    os.close(null)
    os.close(out)
    if err != out:
        os.close(err)
    sys.stdin = open(0, closefd=False)
    code = 0
    try:
        exec(compile(request["code"], "<string>", "exec"), {"__name__": "__main__"})
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if not isinstance(e.code, int) and e.code is not None:
            print(e.code, file=sys.stderr)
    except BaseException:
        import traceback
        traceback.print_exc()
        code = 1
    try:
        threading._shutdown()
        import atexit
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)
"""

_lock = threading.Lock()
_zygote: list = []          # [Popen, environment it started with] once started; [None, None] if it could not


def _start() -> None:
    env = dict(os.environ)
    try:
        proc = subprocess.Popen([sys.executable, "-c", ZYGOTE, *PRELOAD], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True, bufsize=1)
    except OSError:
        _zygote[:] = [None, None]
        return
    if proc.stdout.readline().strip() != "ready":
        proc.wait(10)
        _zygote[:] = [None, None]
        return
    _zygote[:] = [proc, env]
    atexit.register(_stop)


def _stop() -> None:
    proc = _zygote[0] if _zygote else None
    if proc is not None and proc.poll() is None:
        proc.stdin.close()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _usable(env: dict[str, str], zygote_env: dict[str, str]) -> bool:
    """Whether a child may run in ``env``: it differs from the zygote's in :data:`CALL_TIME`
    variables only."""
    return all(env.get(k) == zygote_env.get(k) for k in env.keys() | zygote_env.keys() if k not in CALL_TIME)


def spawn(code: str, log: str, err: str | None = None, env: dict[str, str] | None = None,
          cwd: str | None = None) -> Forked | None:
    """A server process running ``code`` (as ``python -c code`` would), its output appended to
    the file ``log`` (its standard error to ``err`` if given), in the environment ``env`` and the
    folder ``cwd`` (this process's if not given); ``None`` where the zygote cannot be used (start
    a process instead)."""
    if not hasattr(os, "fork"):
        return None
    import json

    env = dict(os.environ) if env is None else env
    with _lock:
        if not _zygote:
            _start()
        proc, zygote_env = _zygote
        if proc is None or not _usable(env, zygote_env) or proc.poll() is not None:
            return None
        proc.stdin.write(json.dumps({"code": code, "log": log, "err": err, "env": env,
                                     "cwd": cwd or os.getcwd()}) + "\n")
        proc.stdin.flush()
        return Forked(int(proc.stdout.readline()))


class Forked:
    """A child of the zygote, with the parts of ``subprocess.Popen`` the tests use."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """The child's exit code once it has ended (the zygote reaps it then), else ``None``."""
        if self.returncode is None:
            import json

            with _lock:
                proc = _zygote[0] if _zygote else None
                if proc is None or proc.poll() is not None:
                    # the zygote is gone: its children went to init, which reaps them
                    try:
                        os.kill(self.pid, 0)
                    except ProcessLookupError:
                        self.returncode = 0
                    return self.returncode
                proc.stdin.write(json.dumps({"wait": self.pid}) + "\n")
                proc.stdin.flush()
                self.returncode = json.loads(proc.stdout.readline())
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def wait(self, timeout: float | None = None) -> int:
        end = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if end is not None and time.monotonic() > end:
                raise subprocess.TimeoutExpired(f"pid {self.pid}", timeout)
            time.sleep(0.02)
        return self.returncode
