"""The qipai server: accounts, lobby, live tables over WebSockets, records, events, web pages.

``create_app(settings)`` builds the FastAPI application; :func:`serve` runs it with uvicorn
(``qipai serve``). See ``docs/server.md``.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from .config import Limits, Settings

#: the collector's first two thresholds in a serving process (:func:`serve`): young objects
#: between young collections, young collections between middle ones
GC_YOUNG, GC_MIDDLE = 10_000, 5


def tune_gc() -> None:
    """Set the collector up for serving, once everything the server loads at start-up exists.

    A live server holds many long-lived objects (tables, states, sockets); the default
    thresholds make full collections frequent, each a pause of tens to hundreds of milliseconds
    across every table. What exists now (the games' tables too) is moved out of the collector's
    way (frozen) and full collections are made rare (the third threshold). A young collection's
    pause grows with the objects it looks at, up to the first threshold: at 200,000 one took 96
    and 115 ms at 500 games (docs/server.md, the runs of 6 December 20:33); at :data:`GC_YOUNG`
    it takes a few ms, and a middle one (every :data:`GC_MIDDLE` young ones) looks at five times
    as many at most."""
    import gc

    gc.collect()
    gc.freeze()
    # $QIPAI_GC_THRESHOLDS ("200000,100,1000": the three thresholds) for measuring another choice
    given = [int(x) for x in os.environ.get("QIPAI_GC_THRESHOLDS", "").split(",") if x.strip()]
    gc.set_threshold(*(given or [GC_YOUNG, GC_MIDDLE, 1_000]))


def create_app(settings: Settings | None = None):
    from .app import create_app as _create

    return _create(settings)


def serve(host: str = "127.0.0.1", port: int = 8000, settings: Settings | None = None,
          log_level: str = "info") -> None:
    """Run the server in this process until interrupted (one worker, SQLite by default; with
    ``settings.redis_url``, one worker of a cluster: docs/deploy.md).

    Before anything is loaded it checks that a SQLite file's folder can be written and takes
    the address and an exclusive lock beside the file: a read-only data directory, a second
    server on the same port or the same database, or a database that cannot be opened stops
    at once with ``SystemExit`` naming the reason (one line), before it could touch a live
    game."""
    import uvicorn

    from qipai.competition.db import database_url
    from qipai.console import os_why, said
    from qipai.core.errors import QipaiError
    from qipai.i18n import say

    settings = settings or Settings()
    try:
        url = settings.database_url or database_url()
    except OSError as e:
        raise SystemExit(say("cli.serve.cannotMakeDir", {"path": e.filename, "why": os_why(e)})) from None
    cluster = bool(settings.redis_url)
    if cluster and url.startswith("sqlite"):
        raise SystemExit(say("cli.serve.clusterSqlite"))
    lock = None if cluster else _lock_database(url)  # noqa: F841 - held until exit
    # workers of a cluster share the public port (SO_REUSEPORT: the kernel spreads connections)
    sock = _listen(host, port, reuse_port=cluster)
    sockets = [sock]
    try:
        app = create_app(settings)
    except (ValueError, QipaiError) as e:
        why = said(e) if isinstance(e, QipaiError) else str(e)
        raise SystemExit(say("cli.serve.cannotStart", {"why": why})) from None
    if cluster:                 # and each listens on an internal port for relayed requests
        inner = _listen(settings.internal_host, 0)
        sockets.append(inner)
        ih = settings.internal_host
        shown_inner = f"[{ih}]" if ":" in ih else ih
        app.state.hub.cluster.address = f"{shown_inner}:{inner.getsockname()[1]}"
        app.state.hub.cluster.internal_port = inner.getsockname()[1]
    if settings.warm_games:
        warm_games()
    block_on_signal()
    tune_gc()
    # small JSON messages: compressing each one costs more CPU than it saves on the wire
    # X-Forwarded-For / -Proto are trusted only from settings.forwarded_allow_ips
    # requests uvicorn refuses itself (malformed HTTP, a bad WebSocket handshake) get JSON too
    from .protocols import JsonHTTPProtocol, JsonWebSocketProtocol

    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, log_config=log_config(),
                            http=JsonHTTPProtocol, ws=JsonWebSocketProtocol,
                            ws_max_size=1 << 16, ws_per_message_deflate=False,
                            proxy_headers=True, forwarded_allow_ips=settings.forwarded_allow_ips)
    shown = f"[{host}]" if ":" in host else host
    print(say("cli.serve.open", {"url": f"http://{shown}:{sock.getsockname()[1]}/",
                                 "database": _shown_url(url)}), flush=True)
    from . import profiling

    profiling.start("worker")
    uvicorn.Server(config).run(sockets=sockets)


#: uvicorn's own lines as a server starts and stops, and their words (catalogue cli.serve.log.*)
UVICORN_LINES = {"Started server process [%d]": "started", "Waiting for application startup.": "starting",
                 "Application startup complete.": "ready", "Shutting down": "stopping",
                 "Waiting for application shutdown.": "stoppingApp",
                 "Application shutdown complete.": "stopped", "Finished server process [%d]": "finished",
                 "Waiting for connections to close. (CTRL+C to force quit)": "waitConnections",
                 "Waiting for background tasks to complete. (CTRL+C to force quit)": "waitTasks"}


class WordedLog(logging.Filter):
    """uvicorn's start and stop lines and every line's level in the chosen language
    (``qipai serve --lang``, else the locale's); other lines as they are."""

    def filter(self, record: logging.LogRecord) -> bool:
        from qipai.i18n import say

        key = UVICORN_LINES.get(record.msg) if isinstance(record.msg, str) else None
        if key is not None:
            record.msg = say(f"cli.serve.log.{key}", {"pid": record.args[0] if record.args else ""})
            record.args = ()
            record.__dict__.pop("color_message", None)
        record.levelname = say(f"cli.serve.level.{record.levelname}", default=record.levelname)
        return True


def log_config() -> dict:
    """uvicorn's logging settings, with :class:`WordedLog` on its lines where the chosen
    language is not English."""
    import copy

    from uvicorn.config import LOGGING_CONFIG

    from qipai.i18n import current

    if current() == "en":
        return LOGGING_CONFIG
    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"worded": {"()": WordedLog}}
    for handler in config["handlers"].values():
        handler["filters"] = ["worded"]
    return config


def block_on_signal() -> None:
    """Test hook (``$QIPAI_TEST_BLOCK_FILE`` set): ``SIGUSR1`` blocks the event loop for the
    seconds written in that file, as a long wait would (``3``: asleep, the interpreter lock let
    go; ``0`` written meanwhile ends it sooner) or a long computation (``3 cpu``: a loop of
    Python holding the lock but for the interpreter's switches; ``3 gil``: one call into C that
    holds it throughout, so that no other thread of the process runs, the lease keeper's
    neither, as on a machine too loaded to give it the lock in time) (tests/test_cluster_busy.py)."""
    path = os.environ.get("QIPAI_TEST_BLOCK_FILE")
    if not path:
        return
    import ctypes
    import signal
    import time

    # libc's usleep called through PyDLL, which keeps the interpreter lock during the call: the
    # lock is held for that wall time however loaded the machine (a C loop sized by a timing
    # at the start held it for as long as the machine's load made it, and on a loaded machine
    # for more than the lease's margin: another worker took the table)
    hold = ctypes.PyDLL(None).usleep
    hold.argtypes = [ctypes.c_uint]

    def block(_signum, _frame) -> None:
        seconds, *how = Path(path).read_text().split()
        if how == ["cpu"]:
            end, n = time.monotonic() + float(seconds), 0
            while time.monotonic() < end:
                n = (n * 31 + 7) % 1_000_003
        elif how == ["gil"]:
            hold(int(float(seconds) * 1_000_000))
        else:                  # asleep; "0" written to the file meanwhile wakes it sooner
            end = time.monotonic() + float(seconds)
            while (left := end - time.monotonic()) > 0:
                time.sleep(min(left, 0.1))
                if Path(path).read_text().split()[:1] == ["0"]:
                    break

    signal.signal(signal.SIGUSR1, block)


def _shown_url(url: str) -> str:
    """``url`` without its password."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except SQLAlchemyError:
        from qipai.i18n import say

        return say("cli.serve.givenUrl")


def warm_games() -> None:
    """Load every game once with its default options before serving: a game builds its static
    tables on first use (doudizhu's table of plays takes 0.8 s on a quiet machine), which would
    otherwise stall every table when the first game of its kind is created."""
    import qipai

    for info in qipai.games():
        try:
            qipai.load(info.id).new_state(seed="warm-up")
        except Exception:          # pragma: no cover - a game that cannot start is refused later
            pass


def _listen(host: str, port: int, reuse_port: bool = False):
    import socket

    from qipai.console import os_why
    from qipai.i18n import say

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        if not hasattr(socket, "SO_REUSEPORT"):     # pragma: no cover - not Linux or BSD
            raise SystemExit(say("cli.serve.noReusePort"))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise SystemExit(say("cli.serve.cannotListen", {"address": f"{host}:{port}",
                                                        "why": os_why(e)})) from None
    sock.listen(2048)
    return sock


def _lock_database(url: str):
    """An exclusive lock on ``<file>.lock`` beside a SQLite database (None for other URLs or
    where file locks do not exist)."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url[len(prefix):] in ("", ":memory:"):
        return None
    try:
        import fcntl
    except ImportError:         # pragma: no cover - not POSIX
        return None
    from qipai.console import os_why
    from qipai.i18n import say

    path = url[len(prefix):]
    folder = Path(path).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".qipai-write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        handle = open(path + ".lock", "a")  # noqa: SIM115 - kept open for the life of the server
    except OSError as e:
        raise SystemExit(say("cli.serve.readOnly", {"path": str(folder), "why": os_why(e)})) from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise SystemExit(say("cli.serve.locked", {"path": path})) from None
    return handle


__all__ = ["Limits", "Settings", "create_app", "serve"]
